//! What the clients saw, gathered from every driver thread ([`Obs`] in the shared [`World`]).

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::Mutex;
use std::time::Instant;

use serde_json::Value;

#[derive(Clone, Debug, PartialEq)]
pub struct Public {
    pub top: Value,
    pub current: Value,
    pub hand_sizes: Value,
}

impl Public {
    pub fn of(v: &Value) -> Public {
        Public {
            top: v["view"]["top"].clone(),
            current: v["view"]["current"].clone(),
            hand_sizes: v["view"]["hand_sizes"].clone(),
        }
    }
}

/// The card a version's update showed played, and by whom.
pub type Played = Option<(u64, String)>;

/// One socket a viewer opened: the table, the instance it went through, the seat it plays (if
/// any), when its last message came, the version it holds, whether it is closed.
pub struct SocketObs {
    pub table: String,
    pub through: usize,
    pub seat: Option<u64>,
    pub last: Instant,
    pub version: u64,
    pub closed: bool,
}

/// An action a client sent: when, for which seat, through which instance, at which version, and
/// the answer's status.
#[derive(Clone, Copy)]
pub struct Sent {
    pub at: Instant,
    pub seat: u64,
    pub through: usize,
    pub version: u64,
    pub status: u16,
}

#[derive(Default)]
pub struct TableObs {
    /// (when, version) each time someone saw a version above every one seen before.
    pub progress: Vec<(Instant, u64)>,
    pub finished: bool,
    pub created_on: usize,
    /// "http": a person over HTTP against a bot; "sockets": two people on sockets.
    pub kind: &'static str,
    pub token: String,
    /// The last few actions sent to it (for a stalled table's report).
    pub sent: std::collections::VecDeque<Sent>,
}

impl TableObs {
    /// Keeps `sent` among the last eight actions sent.
    pub fn sent(&mut self, sent: Sent) {
        if self.sent.len() == 8 {
            self.sent.pop_front();
        }
        self.sent.push_back(sent);
    }
}

#[derive(Default)]
pub struct Obs {
    /// Acknowledged actions: (table, version) → (seat, action).
    pub acks: HashMap<(String, u64), (u64, Value)>,
    /// Acknowledgements that named a version acknowledged before with another action.
    pub double_acks: Vec<String>,
    /// Every version a client saw: (table, version) → the public view and the card played, if any.
    pub seen: HashMap<(String, u64), (Public, Played)>,
    /// Views that disagreed with another client's at the same version.
    pub disagreements: Vec<String>,
    pub backwards: Vec<String>,
    pub tables: HashMap<String, TableObs>,
    pub sockets: HashMap<u64, SocketObs>,
    pub refusals: BTreeMap<String, u64>,
}

impl Obs {
    pub fn saw(&mut self, table: &str, version: u64, view: &Value, who: &str) {
        if view["view"].is_null() {
            return;
        }
        let public = Public::of(view);
        let played = view["events"].as_array().and_then(|evs| {
            evs.iter().find(|e| e["version"].as_u64() == Some(version) && e["event"]["type"] == "card_played").map(
                |e| (e["event"]["seat"].as_u64().unwrap_or(99), e["event"]["card"].as_str().unwrap_or("").to_string()),
            )
        });
        let key = (table.to_string(), version);
        match self.seen.get(&key) {
            Some((p, _)) if *p != public => {
                self.disagreements.push(format!("{table} v{version}: {who} saw {public:?}, another client {p:?}"))
            }
            Some(_) => {}
            None => {
                self.seen.insert(key, (public, played));
            }
        }
        let t = self.tables.entry(table.to_string()).or_default();
        if t.progress.last().is_none_or(|(_, v)| version > *v) {
            t.progress.push((Instant::now(), version));
        }
        if view["status"] == "finished" {
            t.finished = true;
        }
    }

    /// Marks socket `sock` closed.
    pub fn close_socket(&mut self, sock: u64) {
        if let Some(s) = self.sockets.get_mut(&sock) {
            s.closed = true;
        }
    }

    /// What the clients of table `id` were doing at `now`: each socket (through which
    /// instance, for which seat, the version it held and how long since its last message) and
    /// the last actions sent (how long before `now`, through which instance, the status).
    pub fn clients_of(&self, id: &str, now: Instant) -> String {
        let ms = |at: Instant| now.saturating_duration_since(at).as_millis();
        let mut socks: Vec<String> = self
            .sockets
            .iter()
            .filter(|(_, s)| s.table == id)
            .map(|(n, s)| {
                format!(
                    "socket {n} via node{} seat {} at v{} last message {} ms before{}",
                    s.through + 1,
                    s.seat.map_or("-".to_string(), |x| x.to_string()),
                    s.version,
                    ms(s.last),
                    if s.closed { " (closed)" } else { "" }
                )
            })
            .collect();
        socks.sort();
        let sent: Vec<String> = self.tables.get(id).map_or(Vec::new(), |t| {
            t.sent
                .iter()
                .map(|a| {
                    format!(
                        "seat {} via node{} at v{} {} ms before: {}",
                        a.seat,
                        a.through + 1,
                        a.version,
                        ms(a.at),
                        a.status
                    )
                })
                .collect()
        });
        format!("{}; actions sent: {}", socks.join(", "), sent.join(", "))
    }

    pub fn refused(&mut self, what: String) {
        *self.refusals.entry(what).or_default() += 1;
    }
}

pub struct World {
    pub addrs: Vec<String>,
    pub obs: Mutex<Obs>,
    pub stop: AtomicBool,
    pub next_socket: AtomicU64,
}

impl World {
    /// A world of clients of the instances at `addrs`, nothing seen yet.
    pub fn new(addrs: Vec<String>) -> World {
        World { addrs, obs: Mutex::new(Obs::default()), stop: AtomicBool::new(false), next_socket: AtomicU64::new(0) }
    }

    /// The tables in play, each with the highest version seen of it.
    pub fn in_play(&self) -> HashMap<String, u64> {
        self.obs()
            .tables
            .iter()
            .filter(|(_, t)| !t.finished)
            .map(|(id, t)| (id.clone(), t.progress.last().map(|p| p.1).unwrap_or(0)))
            .collect()
    }

    pub fn obs(&self) -> std::sync::MutexGuard<'_, Obs> {
        self.obs.lock().unwrap_or_else(|e| e.into_inner())
    }
}
