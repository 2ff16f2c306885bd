//! Quick match: `POST /api/queue` puts a person in the queue, and waves on a timer
//! (`league::queue::wave`, pure: grouping by rating with a tolerance that widens as people wait,
//! bots after the wait each chose) seat them at new UNO tables, which always have a turn clock.
//! Whoever was seated is told on the queue's socket (`GET /api/queue/ws`) or when they next
//! read `GET /api/queue`, with their seat and its token.
//!
//! No ghost seats: a person who leaves the queue (`DELETE /api/queue`, or by closing the socket
//! they waited on) before a wave is not in its input, so cannot be seated; one who left while
//! their table was being made has their seat given to a bot at once; and a seat nobody takes
//! (reads or opens a socket with its token) within [`crate::Config::seat_grace`] goes to a bot
//! too. A person who took their seat and then went away is the turn clock's: twice out of time
//! and a bot plays for them.
//!
//! A ticket lives in the memory of the instance that made it, its *home*. In a cluster
//! (`--nats`) every instance sends `POST /api/queue` to one instance, the one of the smallest
//! name among those alive (`crate::cluster`), so people who join on different instances wait in
//! one queue; a ticket names its home (the first [`HOME_TAG_LEN`] hex digits), and the other
//! instances forward its reads and relay its socket there (see docs/matchmaking.md).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use league::queue::{Entry, TableSize, TicketId, Wanted, WaveConfig};
use league::Time;
use serde::{Deserialize, Serialize};
use tokio::sync::watch;

use crate::games::uno::Uno;
use crate::host::seats::{check_name, random_hex, same_name};
use crate::host::{Seat, TableError, Tables};
use crate::limits;
use crate::messages::{invite_path, CreateTable, SeatSpec};

/// How long a seated ticket stays readable (`GET /api/queue`) after its wave.
const SEATED_KEPT: Duration = Duration::from_secs(60);
/// How long a queue socket relayed by another instance holds its ticket after the relay's last
/// poll (it polls every `cluster::queue::RELAY_POLL`): a relay that went silent (its instance
/// stopped) lets the ticket out of the queue as a closed socket would.
const RELAY_HOLD: Duration = Duration::from_secs(3);
/// The hex digits a cluster instance's tickets start with: its subject's tag
/// (`cluster::wire::instance_tag`).
pub(crate) const HOME_TAG_LEN: usize = 24;
/// Random bytes of a ticket's secret (after its home's tag, in a cluster).
const SECRET_BYTES: usize = 16;

/// The body of `POST /api/queue`.
#[derive(Debug, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct QueueRequest {
    /// The rules (a preset's name); `official` when left out.
    #[ts(optional)]
    pub preset: Option<String>,
    /// The table's size: 2, 3 or 4 seats, or `"any"` (four preferred).
    #[ts(type = "number | \"any\"")]
    pub players: serde_json::Value,
    /// The name to sit under; a signed-in person sits under their account's (and may leave it
    /// out).
    #[ts(optional)]
    pub name: Option<String>,
    /// Seconds to wait for people before bots fill the table (default 20, at most 600).
    #[ts(optional)]
    pub wait_s: Option<u32>,
}

/// Where a person in the queue stands: `GET /api/queue`, the queue socket's every message.
#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum QueueStatus {
    /// Waiting for a table.
    Waiting {
        preset: String,
        /// The sizes accepted: 2 to 4, or `any`.
        #[ts(type = "number | \"any\"")]
        players: serde_json::Value,
        /// People waiting for this preset now, this person included.
        waiting: usize,
        /// This person's place among them, from 1 (the longest waiting first).
        position: usize,
        #[ts(type = "number")]
        waited_ms: u64,
        /// Until bots fill the table (0: at the next wave).
        #[ts(type = "number")]
        bots_in_ms: u64,
    },
    /// Seated: the table, the seat and its token (the seat is theirs to take: opening the
    /// table with the token takes it).
    Seated {
        table: String,
        seat: Seat,
        token: String,
        /// The table's page.
        invite: String,
        /// People at the table (the others are bots).
        people: usize,
    },
    /// Out of the queue (left, or not heard from for too long).
    Left,
}

/// The answer to `POST /api/queue`: the ticket (the bearer token of `GET`/`DELETE /api/queue`
/// and of the queue's socket) and where its holder stands.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct Queued {
    pub ticket: String,
    pub status: QueueStatus,
}

/// One person's visit to the queue.
struct Ticket {
    id: TicketId,
    entry: Entry,
    name: String,
    /// Who: a guest, or a signed-in person (seated as their account).
    person: crate::host::Person,
    /// The players field as asked (for the status).
    players: serde_json::Value,
    client: String,
    tx: watch::Sender<QueueStatus>,
    /// Queue sockets open for it: while one is, the ticket is not stale; the last one closing
    /// while it waits takes it out of the queue.
    sockets: usize,
    /// Until when a queue socket on another instance of the cluster holds it (`Quick::relay`).
    relayed_until: Option<Instant>,
    seen: Instant,
    /// Taken by a wave, its table being made.
    seating: bool,
    seated_at: Option<Instant>,
}

impl Ticket {
    fn waiting(&self) -> bool {
        !self.seating && self.seated_at.is_none()
    }

    /// Whether a socket (here, or relayed by another instance) holds it now.
    fn held(&self, now: Instant) -> bool {
        self.sockets > 0 || self.relayed_until.is_some_and(|u| now < u)
    }
}

#[derive(Default)]
struct Queue {
    next: u64,
    /// By ticket secret.
    tickets: HashMap<String, Ticket>,
}

/// The queue of this instance, and its wave timer.
#[derive(Default)]
pub struct Quick {
    queue: Mutex<Queue>,
    pub(crate) started: std::sync::atomic::AtomicBool,
    /// In a cluster, this instance's tag: every ticket made here starts with it.
    home: std::sync::OnceLock<String>,
}

/// The home tag a ticket starts with, when an instance of a cluster made it.
pub(crate) fn home_of(secret: &str) -> Option<&str> {
    let cluster_made = secret.len() == HOME_TAG_LEN + 2 * SECRET_BYTES && secret.bytes().all(|b| b.is_ascii_hexdigit());
    cluster_made.then(|| &secret[..HOME_TAG_LEN])
}

/// A table made: its id, and each person's seat and token.
type Made<'a> = (&'a str, &'a [(Seat, String)]);

/// A person a wave seats.
struct Person {
    secret: String,
    name: String,
    client: String,
    person: crate::host::Person,
}

fn now_time() -> Time {
    let ms = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis()).unwrap_or(0);
    Time::from_millis(u64::try_from(ms).unwrap_or(u64::MAX))
}

/// Who joins: the name they sit under, guest or account, and their rating when signed in.
pub(crate) struct Joining {
    name: String,
    person: crate::host::Person,
    rating: Option<league::Rating>,
}

/// The preset a request names (`official` when left out), if quick match plays it.
fn preset_of(req: &QueueRequest) -> Result<String, TableError> {
    let preset = req.preset.clone().unwrap_or_else(|| "official".into());
    if !uno::PRESET_NAMES.contains(&preset.as_str()) {
        return Err(TableError::Invalid(format!("quick match plays a preset: {}", uno::PRESET_NAMES.join(", "))));
    }
    Ok(preset)
}

/// Who is joining: a signed-in person under their account's name with their rating in the pool
/// of the size they asked for (four for `any`; a newcomer's when they have none), or a guest
/// under the name they gave (not an account's).
pub(crate) async fn joining(
    tables: &Tables,
    req: &QueueRequest,
    person: crate::host::Person,
) -> Result<Joining, TableError> {
    let Some(account) = person.account() else {
        let given = req.name.as_deref().ok_or_else(|| TableError::Invalid("`name`: a guest gives a name".into()))?;
        let name = check_name(given, "name", limits::MAX_NAME_CHARS)?;
        tables.check_name_free(&name, &person).await?;
        return Ok(Joining { name, person, rating: None });
    };
    let name = account.name.clone();
    let seats = match players_of(&req.players)? {
        Wanted::Seats(s) => s.seats(),
        Wanted::Any => 4,
    };
    let preset: league::PresetName =
        preset_of(req)?.parse().map_err(|e: league::rating::PoolError| TableError::Invalid(e.to_string()))?;
    let pool = league::Pool::of(preset, seats).map_err(|e| TableError::Invalid(e.to_string()))?.to_string();
    let held = match tables.store().people() {
        Some(people) => crate::host::store_read(people.ratings(&account.id)).await?,
        None => Vec::new(),
    };
    let rating = match held.iter().find(|r| r.pool == pool) {
        Some(r) => crate::host::rated::rating_of(&r.rating).map_err(TableError::Internal)?,
        None => league::Rating::default(),
    };
    Ok(Joining { name, person, rating: Some(rating) })
}

fn players_of(v: &serde_json::Value) -> Result<Wanted, TableError> {
    match v {
        serde_json::Value::String(s) if s == "any" => Ok(Wanted::Any),
        serde_json::Value::Number(n) => {
            let n = n.as_u64().and_then(|n| u8::try_from(n).ok()).unwrap_or(0);
            TableSize::new(n).map(Wanted::Seats).map_err(|e| TableError::Invalid(e.to_string()))
        }
        _ => Err(TableError::Invalid("`players` is 2, 3, 4 or \"any\"".into())),
    }
}

impl Quick {
    fn lock(&self) -> std::sync::MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// In a cluster: this instance's tag, which its tickets (and arenas) start with (set once).
    pub(crate) fn set_home(&self, tag: String) {
        let _ = self.home.set(tag);
    }

    /// This instance's tag in a cluster (`""` outside one).
    pub(crate) fn home_tag(&self) -> &str {
        self.home.get().map(String::as_str).unwrap_or("")
    }

    /// Puts a person in the queue (`name` checked, `rating` theirs when signed in).
    pub(crate) fn join(
        &self,
        req: QueueRequest,
        who: Joining,
        client: &str,
        config: &crate::Config,
    ) -> Result<Queued, TableError> {
        let Joining { name, person, rating } = who;
        let preset = preset_of(&req)?;
        let wanted = players_of(&req.players)?;
        let rules = uno::Rules::preset(&preset)?;
        let sizes: &[usize] = match wanted {
            Wanted::Seats(s) => &[s.seats()],
            Wanted::Any => &[2, 3, 4],
        };
        for &n in sizes {
            rules.check_players(n)?;
        }
        let wait =
            Duration::from_secs(u64::from(req.wait_s.unwrap_or(league::queue::DEFAULT_BOT_WAIT.as_secs() as u32)));
        if wait > league::queue::MAX_BOT_WAIT {
            return Err(TableError::Invalid(format!("wait_s is at most {}", league::queue::MAX_BOT_WAIT.as_secs())));
        }
        let preset_name: league::PresetName =
            preset.parse().map_err(|e: league::rating::PoolError| TableError::Invalid(e.to_string()))?;
        let mut q = self.lock();
        let mine = q.tickets.values().filter(|t| t.client == client && t.waiting()).count();
        if mine >= config.max_tables_per_client {
            return Err(TableError::TooManyTables(config.max_tables_per_client));
        }
        if let Some(id) = person.id() {
            if q.tickets.values().any(|t| t.waiting() && t.person.id() == Some(id)) {
                return Err(TableError::Invalid("you are in the queue already (one ticket at a time)".into()));
            }
        }
        if q.tickets.values().filter(|t| t.waiting()).count() >= league::queue::MAX_QUEUE {
            return Err(TableError::ServerFull);
        }
        q.next += 1;
        let id = TicketId(q.next);
        let entry = Entry { ticket: id, preset: preset_name, wanted, rating, joined: now_time(), bot_wait: wait };
        let secret = format!("{}{}", self.home_tag(), random_hex(SECRET_BYTES));
        let (tx, _) = watch::channel(QueueStatus::Left);
        let ticket = Ticket {
            id,
            entry,
            name,
            person,
            players: req.players,
            client: client.to_string(),
            tx,
            sockets: 0,
            relayed_until: None,
            seen: Instant::now(),
            seating: false,
            seated_at: None,
        };
        q.tickets.insert(secret.clone(), ticket);
        restate(&mut q, now_time());
        let status = q.tickets.get(&secret).map(|t| t.tx.borrow().clone()).unwrap_or(QueueStatus::Left);
        Ok(Queued { ticket: secret, status })
    }

    /// Where the holder of `secret` stands (and they are still there).
    pub(crate) fn status(&self, secret: &str) -> Result<QueueStatus, TableError> {
        let mut q = self.lock();
        let t = q.tickets.get_mut(secret).ok_or(TableError::BadToken)?;
        t.seen = Instant::now();
        let status = t.tx.borrow().clone();
        Ok(status)
    }

    /// Takes the holder of `secret` out of the queue; a seat a wave already gave them is
    /// answered (`Some`: the table and seat), for the caller to give to a bot.
    pub(crate) fn leave(&self, secret: &str) -> Result<Option<(String, Seat)>, TableError> {
        let mut q = self.lock();
        let t = q.tickets.remove(secret).ok_or(TableError::BadToken)?;
        let seated = match &*t.tx.borrow() {
            QueueStatus::Seated { table, seat, .. } => Some((table.clone(), *seat)),
            _ => None,
        };
        t.tx.send_replace(QueueStatus::Left);
        restate(&mut q, now_time());
        Ok(seated)
    }

    /// A queue socket another instance relays (`cluster::queue`): `open`, it polls where the
    /// ticket stands and holds it for [`RELAY_HOLD`]; closed (`!open`), it lets go, and a ticket
    /// still waiting with no other socket leaves the queue, as when its last socket here closes.
    pub(crate) fn relay(&self, secret: &str, open: bool) -> Result<QueueStatus, TableError> {
        let mut q = self.lock();
        let t = q.tickets.get_mut(secret).ok_or(TableError::BadToken)?;
        let now = Instant::now();
        t.seen = now;
        if open {
            t.relayed_until = Some(now + RELAY_HOLD);
            return Ok(t.tx.borrow().clone());
        }
        t.relayed_until = None;
        if t.sockets > 0 || !t.waiting() {
            return Ok(t.tx.borrow().clone());
        }
        if let Some(t) = q.tickets.remove(secret) {
            t.tx.send_replace(QueueStatus::Left);
        }
        restate(&mut q, now_time());
        Ok(QueueStatus::Left)
    }

    pub(crate) fn subscribe(&self, secret: &str) -> Result<watch::Receiver<QueueStatus>, TableError> {
        let mut q = self.lock();
        let t = q.tickets.get_mut(secret).ok_or(TableError::BadToken)?;
        t.sockets += 1;
        t.seen = Instant::now();
        Ok(t.tx.subscribe())
    }

    /// A queue socket closed: the last one of a person still waiting takes them out.
    pub(crate) fn unsubscribe(&self, secret: &str) {
        let mut q = self.lock();
        let Some(t) = q.tickets.get_mut(secret) else { return };
        t.sockets = t.sockets.saturating_sub(1);
        t.seen = Instant::now();
        if !t.held(t.seen) && t.waiting() {
            if let Some(t) = q.tickets.remove(secret) {
                t.tx.send_replace(QueueStatus::Left);
            }
            restate(&mut q, now_time());
        }
    }

    /// One wave: stale tickets dropped, the queue handed to `league::queue::wave`, the tables
    /// it decided taken out of the queue (to be made by the caller), and everyone else told
    /// where they stand.
    fn take_wave(&self, config: &crate::Config) -> Vec<(league::queue::Seating, Vec<Person>)> {
        let now = Instant::now();
        let mut q = self.lock();
        let stale: Vec<String> = q
            .tickets
            .iter()
            .filter(|(_, t)| match t.seated_at {
                Some(at) => now.duration_since(at) >= SEATED_KEPT,
                // A relayed socket that went silent lets go as a closed one does.
                None if t.seating || t.sockets > 0 => false,
                None => match t.relayed_until {
                    Some(until) => now >= until,
                    None => now.duration_since(t.seen) >= config.queue_stale,
                },
            })
            .map(|(s, _)| s.clone())
            .collect();
        for s in stale {
            if let Some(t) = q.tickets.remove(&s) {
                if t.seated_at.is_none() {
                    t.tx.send_replace(QueueStatus::Left);
                }
            }
        }
        let entries: Vec<Entry> = q.tickets.values().filter(|t| t.waiting()).map(|t| t.entry.clone()).collect();
        let time = now_time();
        let wave_config = WaveConfig { interval: config.queue_interval, ..WaveConfig::default() };
        let wave = match league::queue::wave(&entries, time, &wave_config) {
            Ok(w) => w,
            Err(e) => {
                tracing::error!(error = %e, "a quick-match wave failed");
                return Vec::new();
            }
        };
        let by_id: HashMap<TicketId, String> = q.tickets.iter().map(|(s, t)| (t.id, s.clone())).collect();
        let mut out = Vec::new();
        for seating in wave.tables {
            let mut people = Vec::new();
            for id in &seating.people {
                let Some(secret) = by_id.get(id) else { continue };
                let Some(t) = q.tickets.get_mut(secret) else { continue };
                t.seating = true;
                people.push(Person {
                    secret: secret.clone(),
                    name: t.name.clone(),
                    client: t.client.clone(),
                    person: t.person.clone(),
                });
            }
            if !people.is_empty() {
                out.push((seating, people));
            }
        }
        restate(&mut q, time);
        out
    }

    /// After a table was made for `people` (`None`: it could not be): each still in the queue
    /// is told their seat; the seats of those who left meanwhile are answered, for a bot.
    fn seated(&self, people: &[Person], made: Option<Made<'_>>) -> Vec<Seat> {
        let mut q = self.lock();
        let mut gone = Vec::new();
        for (i, p) in people.iter().enumerate() {
            let here = q.tickets.get_mut(&p.secret);
            match (&made, here) {
                (Some((id, seats)), Some(t)) => {
                    let Some((seat, token)) = seats.get(i).cloned() else { continue };
                    t.seating = false;
                    t.seated_at = Some(Instant::now());
                    t.tx.send_replace(QueueStatus::Seated {
                        table: id.to_string(),
                        seat,
                        token,
                        invite: invite_path(id),
                        people: people.len(),
                    });
                }
                (Some((_, seats)), None) => gone.extend(seats.get(i).map(|(s, _)| *s)),
                // Not made: back in the queue, for the next wave.
                (None, Some(t)) => t.seating = false,
                (None, None) => {}
            }
        }
        restate(&mut q, now_time());
        gone
    }
}

/// Tells every waiting person where they stand now.
fn restate(q: &mut Queue, now: Time) {
    let mut waiting: Vec<&Ticket> = q.tickets.values().filter(|t| t.waiting()).collect();
    waiting.sort_by_key(|t| (t.entry.joined, t.id));
    let mut per_preset: HashMap<&str, usize> = HashMap::new();
    for t in &waiting {
        *per_preset.entry(t.entry.preset.as_str()).or_default() += 1;
    }
    let mut place: HashMap<&str, usize> = HashMap::new();
    for t in &waiting {
        let preset = t.entry.preset.as_str();
        let position = {
            let p = place.entry(preset).or_default();
            *p += 1;
            *p
        };
        let waited = now.since(t.entry.joined);
        let status = QueueStatus::Waiting {
            preset: preset.to_string(),
            players: t.players.clone(),
            waiting: per_preset.get(preset).copied().unwrap_or(1),
            position,
            waited_ms: waited.as_millis() as u64,
            bots_in_ms: t.entry.bot_wait.saturating_sub(waited).as_millis() as u64,
        };
        t.tx.send_if_modified(|s| {
            let changed = *s != status;
            *s = status.clone();
            changed
        });
    }
}

/// Names told apart at one table: a second "Ann" sits as "Ann 2".
fn names_apart(people: &[Person]) -> Vec<String> {
    let mut names: Vec<String> = Vec::with_capacity(people.len());
    for p in people {
        let mut name = p.name.clone();
        let mut n = 2;
        while names.iter().any(|m| same_name(m, &name)) {
            let base: String = p.name.chars().take(limits::MAX_NAME_CHARS.saturating_sub(4)).collect();
            name = format!("{base} {n}");
            n += 1;
        }
        names.push(name);
    }
    names
}

/// Makes the table a wave decided: the people's seats first, then the bots; each person seated
/// with their own token. Answers the table's id and each person's seat and token.
async fn make_table(
    tables: &Tables,
    seating: &league::queue::Seating,
    people: &[Person],
) -> Result<(String, Vec<(Seat, String)>), TableError> {
    let names = names_apart(people);
    // Signed-in people only, no bots: a rated table (resigning or leaving is last place).
    let rated = seating.bots.is_empty() && people.iter().all(|p| p.person.account().is_some());
    // A signed-in person's seat is named by their account when they are seated (naming it
    // here would be another account's name for whoever opens the table).
    let seats: Vec<SeatSpec> = names
        .iter()
        .zip(people)
        .map(|(n, p)| SeatSpec::Human { name: p.person.account().is_none().then(|| n.clone()) })
        .chain(seating.bots.iter().map(|b| SeatSpec::Bot { bot: b.as_str().to_string(), seed: None, delay_ms: None }))
        .collect();
    let req = CreateTable {
        preset: Some(seating.preset.to_string()),
        seats,
        name: names.first().cloned(),
        creator_seat: Some(Seat(0)),
        spectators: Some(true),
        turn_seconds: Some(tables.config().quick_turn_seconds),
        rated: rated.then_some(true),
        ..CreateTable::default()
    };
    // Its own creator key: a person's quick-match tables never count against the tables their
    // address opened, and its bots think in a lane of their own.
    let creator = format!("quick:{}:{}", people.first().map(|p| p.client.as_str()).unwrap_or(""), random_hex(4));
    let first = people.first().map(|p| p.person.clone()).unwrap_or_default();
    let (table, opened) = crate::host::open::<Uno>(tables, req, &creator, &first).await?;
    let mut out = Vec::with_capacity(people.len());
    out.push((Seat(0), opened.token.ok_or_else(|| TableError::Internal("no creator's token".into()))?));
    for (i, (name, p)) in names.iter().zip(people).enumerate().skip(1) {
        let s = Seat(i as u8);
        let seated = table.join(tables, &p.person, name, Some(s)).await?;
        out.push((seated.seat, seated.token));
    }
    Ok((opened.id, out))
}

/// Seats one table of a wave, tells its people, and gives a bot every seat nobody takes in time.
async fn seat(tables: Tables, quick: Arc<Quick>, seating: league::queue::Seating, people: Vec<Person>) {
    let made = make_table(&tables, &seating, &people).await;
    let (id, seats) = match made {
        Ok(m) => m,
        Err(e) => {
            tracing::warn!(error = %e, "a quick-match table could not be made; its people wait on");
            quick.seated(&people, None);
            return;
        }
    };
    let gone = quick.seated(&people, Some((id.as_str(), seats.as_slice())));
    let Some(table) = tables.typed_in_memory::<Uno>(&id) else { return };
    if !gone.is_empty() {
        table.stand_in_for(&tables, &gone, true).await;
    }
    let all: Vec<Seat> = seats.iter().map(|(s, _)| *s).collect();
    tokio::time::sleep(tables.config().seat_grace).await;
    let given = table.stand_in_for(&tables, &all, false).await;
    if !given.is_empty() {
        tracing::info!(table = %id, seats = given.len(), "quick-match seats nobody took went to bots");
    }
}

/// The wave timer: runs while the queue exists.
pub(crate) async fn waves(quick: Weak<Quick>, tables: Tables) {
    let interval = tables.config().queue_interval.max(Duration::from_millis(10));
    let mut tick = tokio::time::interval(interval);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let Some(q) = quick.upgrade() else { return };
        for (seating, people) in q.take_wave(tables.config()) {
            tokio::spawn(seat(tables.clone(), q.clone(), seating, people));
        }
    }
}
