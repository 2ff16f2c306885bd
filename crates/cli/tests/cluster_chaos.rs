//! The fault harness (`scripts/chaos`): a cluster of `tabletop serve` instances on one private
//! PostgreSQL and one private NATS server, games driven through every instance (people
//! scripted over HTTP against bots, and pairs of people who act when their WebSocket says it is
//! their turn, as the page does), and faults injected at random moments: `kill -9` of an owner
//! (started again at once), SIGSTOP of an owner past its lease then SIGCONT, a PostgreSQL
//! restart and a `kill -9` of its postmaster, a `kill -9` of NATS (started again), and a
//! partition: an owner cut off from PostgreSQL and NATS past its lease (its connections go
//! through proxies of the harness that stop forwarding without closing anything), then healed.
//!
//! After every fault it checks safety — every acknowledged action is in the stored log once, at
//! its version; every update a client saw is in the log and agrees with what every other client
//! saw at that version; versions never go backwards for a client — and liveness: every table in
//! play moves on within lease + 5 s of the fault healing, and no socket stays silent longer
//! than that while its table moves on without closing it. It prints a table per fault kind and
//! fails on any violation.
//!
//! Ignored by plain `cargo test`; run it with `scripts/chaos` (settings there):
//! `cargo test -p tabletop --test cluster_chaos -- --ignored --nocapture`.

use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use tungstenite::client::IntoClientRequest;
use tungstenite::{Message, WebSocket};

mod serving;
use serving::{free_port, try_http, TempNats};
use store::GameStore;

/// A setting from the environment, or its default.
fn setting(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Fault {
    KillOwner,
    PauseOwner,
    RestartPostgres,
    KillPostgres,
    KillNats,
    PartitionOwner,
}

const FAULTS: [Fault; 6] = [
    Fault::KillOwner,
    Fault::PauseOwner,
    Fault::RestartPostgres,
    Fault::KillPostgres,
    Fault::KillNats,
    Fault::PartitionOwner,
];

impl Fault {
    fn name(self) -> &'static str {
        match self {
            Fault::KillOwner => "kill -9 owner",
            Fault::PauseOwner => "SIGSTOP owner",
            Fault::RestartPostgres => "PostgreSQL restart",
            Fault::KillPostgres => "kill -9 PostgreSQL",
            Fault::KillNats => "kill -9 NATS",
            Fault::PartitionOwner => "partition owner",
        }
    }
}

/// One instance: its fixed address (kept across restarts), its process, its log file, and the
/// switch of the proxies its PostgreSQL and NATS connections go through (see [`proxy`]).
struct Node {
    name: String,
    addr: String,
    child: Option<Child>,
    log: PathBuf,
    db: String,
    nats: String,
    cut: Arc<AtomicBool>,
}

/// A TCP proxy on a free loopback port to `upstream`, for one instance's connections. While
/// `cut` is set it forwards nothing in either direction and opens no new upstream connection,
/// but closes nothing either: a network partition as the instance sees it (packets lost, no
/// reset). When `cut` clears, what was held back flows on, as TCP retransmits it after a real
/// partition heals. Its port.
fn proxy(upstream: String, cut: Arc<AtomicBool>) -> u16 {
    use std::io::{ErrorKind, Read, Write};
    use std::net::{Shutdown, TcpListener};
    fn pump(mut from: TcpStream, mut to: TcpStream, cut: Arc<AtomicBool>) {
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            if cut.load(Ordering::Relaxed) {
                pause(20);
                continue;
            }
            match from.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => {
                    // Read before the cut, held until it heals.
                    while cut.load(Ordering::Relaxed) {
                        pause(20);
                    }
                    if to.write_all(&buf[..n]).is_err() {
                        break;
                    }
                }
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut | ErrorKind::Interrupted) => {}
                Err(_) => break,
            }
        }
        let _ = from.shutdown(Shutdown::Both);
        let _ = to.shutdown(Shutdown::Both);
    }
    let listener = TcpListener::bind("127.0.0.1:0").expect("proxy port");
    let port = listener.local_addr().expect("proxy address").port();
    std::thread::spawn(move || {
        for client in listener.incoming().flatten() {
            let (upstream, cut) = (upstream.clone(), cut.clone());
            std::thread::spawn(move || {
                while cut.load(Ordering::Relaxed) {
                    pause(20);
                }
                let Ok(server) = TcpStream::connect(&upstream) else { return };
                for s in [&client, &server] {
                    let _ = s.set_read_timeout(Some(Duration::from_millis(50)));
                    let _ = s.set_nodelay(true);
                }
                let (Ok(c2), Ok(s2)) = (client.try_clone(), server.try_clone()) else { return };
                let back = cut.clone();
                std::thread::spawn(move || pump(s2, c2, back));
                pump(client, server, cut);
            });
        }
    });
    port
}

fn bin() -> String {
    std::env::var("TABLETOP_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_tabletop").to_string())
}

impl Node {
    fn start(&mut self, lease_ms: u64) {
        let (db, nats) = (self.db.as_str(), self.nats.as_str());
        for _ in 0..50 {
            let log = std::fs::OpenOptions::new().create(true).append(true).open(&self.log).expect("log");
            let mut child = Command::new(bin())
                .args(["serve", "--addr", &self.addr, "--db", db, "--nats", nats, "--instance", &self.name])
                .args(["--lease-ms", &lease_ms.to_string(), "--ws-rate", "1000", "--max-tables-per-client", "1000"])
                .env("RUST_LOG", "info")
                .stdout(Stdio::piped())
                .stderr(log)
                .spawn()
                .expect("spawn tabletop");
            let mut line = String::new();
            let read = BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut line);
            if read.is_ok_and(|n| n > 0) {
                self.child = Some(child);
                return;
            }
            // The port is still held (a socket of the killed process), or the store is away.
            let _ = child.kill();
            let _ = child.wait();
            std::thread::sleep(Duration::from_millis(200));
        }
        panic!("{} did not start again (see {})", self.name, self.log.display());
    }

    fn signal(&self, sig: &str) {
        if let Some(c) = &self.child {
            let _ = Command::new("kill").args([sig, &c.id().to_string()]).status();
        }
    }

    fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        self.signal("-CONT");
        self.kill();
    }
}

/// The postmaster of the private PostgreSQL on `port`, found by its command line.
fn postmaster(port: u16) -> Option<u32> {
    let want = format!("-p\0{port}\0");
    for e in std::fs::read_dir("/proc").ok()?.flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else { continue };
        let Ok(cmd) = std::fs::read(e.path().join("cmdline")) else { continue };
        let cmd = String::from_utf8_lossy(&cmd);
        let exe = cmd.split('\0').next().unwrap_or("");
        if exe.ends_with("postgres") && cmd.contains(&want) {
            return Some(pid);
        }
    }
    None
}

/// What one client saw of a table at one version (the public view: the same for every viewer).
#[derive(Clone, Debug, PartialEq)]
struct Public {
    top: Value,
    current: Value,
    hand_sizes: Value,
}

impl Public {
    fn of(v: &Value) -> Public {
        Public {
            top: v["view"]["top"].clone(),
            current: v["view"]["current"].clone(),
            hand_sizes: v["view"]["hand_sizes"].clone(),
        }
    }
}

/// The card a version's update showed played, and by whom.
type Played = Option<(u64, String)>;

#[derive(Default)]
struct TableObs {
    /// (when, version) each time someone saw a version above every one seen before.
    progress: Vec<(Instant, u64)>,
    finished: bool,
    created_on: usize,
    /// "http": a person over HTTP against a bot; "sockets": two people on sockets.
    kind: &'static str,
    token: String,
}

#[derive(Default)]
struct Obs {
    /// Acknowledged actions: (table, version) → (seat, action).
    acks: HashMap<(String, u64), (u64, Value)>,
    /// Acknowledgements that named a version acknowledged before with another action.
    double_acks: Vec<String>,
    /// Every version a client saw: (table, version) → the public view and the card played, if any.
    seen: HashMap<(String, u64), (Public, Played)>,
    /// Views that disagreed with another client's at the same version.
    disagreements: Vec<String>,
    backwards: Vec<String>,
    tables: HashMap<String, TableObs>,
    /// Per socket: (table, when its last message came, the version it holds, closed).
    sockets: HashMap<u64, (String, Instant, u64, bool)>,
    refusals: BTreeMap<String, u64>,
}

impl Obs {
    fn saw(&mut self, table: &str, version: u64, view: &Value, who: &str) {
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

    fn refused(&mut self, what: String) {
        *self.refusals.entry(what).or_default() += 1;
    }
}

struct World {
    addrs: Vec<String>,
    obs: Mutex<Obs>,
    stop: AtomicBool,
    next_socket: AtomicU64,
}

impl World {
    fn obs(&self) -> std::sync::MutexGuard<'_, Obs> {
        self.obs.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn pause(ms: u64) {
    std::thread::sleep(Duration::from_millis(ms));
}

/// A table is made on `on` (tried on the next instances while refused): its id and tokens.
fn create(world: &World, on: usize, body: &Value, kind: &'static str) -> Option<(String, Vec<String>, usize)> {
    for k in 0..world.addrs.len() * 20 {
        if world.stop.load(Ordering::Relaxed) {
            return None;
        }
        let i = (on + k) % world.addrs.len();
        let (s, v) = try_http(&world.addrs[i], "POST", "/api/tables", None, Some(body));
        if s == 201 {
            let id = v["id"].as_str()?.to_string();
            let token = v["token"].as_str()?.to_string();
            let mut obs = world.obs();
            let t = obs.tables.entry(id.clone()).or_default();
            (t.created_on, t.kind, t.token) = (i, kind, token.clone());
            return Some((id, vec![token], i));
        }
        pause(250);
    }
    None
}

/// Sends one action through instance `i`; an acknowledgement is recorded.
fn act(world: &World, i: usize, id: &str, token: &str, seat: u64, action: &Value, version: &Value) -> bool {
    let body = json!({"action": action, "version": version});
    let (s, v) = try_http(&world.addrs[i], "POST", &format!("/api/tables/{id}/actions"), Some(token), Some(&body));
    let mut obs = world.obs();
    if s == 200 {
        let Some(ver) = v["version"].as_u64() else { return false };
        let key = (id.to_string(), ver);
        if let Some((seat0, a0)) = obs.acks.get(&key).cloned() {
            if (seat0, &a0) != (seat, action) {
                obs.double_acks.push(format!("{id} v{ver}: acknowledged {a0} by {seat0} and {action} by {seat}"));
            }
        } else {
            obs.acks.insert(key, (seat, action.clone()));
        }
        obs.saw(id, ver, &v, "an acknowledgement");
        true
    } else {
        obs.refused(format!("action {s} {}", v["code"].as_str().unwrap_or("-")));
        false
    }
}

fn pick(legal: &Value) -> Option<Value> {
    let legal = legal.as_array()?;
    legal.iter().find(|a| a["type"] == "play").or_else(|| legal.first()).cloned()
}

/// A person against a bot, scripted over HTTP through every instance in turn; a new table
/// when the game ends.
fn http_person(world: Arc<World>, slot: usize) {
    let mut turn = slot;
    while !world.stop.load(Ordering::Relaxed) {
        let body = json!({"preset": "official", "house_rules": {"match_target": 0}, "name": "Ann", "seed": slot,
            "bot_delay_ms": 150, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]});
        let Some((id, tokens, _)) = create(&world, slot, &body, "http") else { return };
        let mut highest = 0;
        while !world.stop.load(Ordering::Relaxed) {
            turn += 1;
            let i = turn % world.addrs.len();
            let (s, v) = try_http(&world.addrs[i], "GET", &format!("/api/tables/{id}"), Some(&tokens[0]), None);
            if s != 200 {
                world.obs().refused(format!("read {s} {}", v["code"].as_str().unwrap_or("-")));
                pause(200);
                continue;
            }
            let ver = v["version"].as_u64().unwrap_or(0);
            {
                let mut obs = world.obs();
                if ver < highest {
                    obs.backwards.push(format!("{id}: a read through node{} answered v{ver} after v{highest}", i + 1));
                }
                highest = highest.max(ver);
                obs.saw(&id, ver, &v, "a read");
            }
            if v["status"] != "playing" {
                break;
            }
            if v["view"]["current"] == 0 {
                if let Some(a) = pick(&v["legal_actions"]) {
                    act(&world, i, &id, &tokens[0], 0, &a, &v["version"]);
                }
            }
            pause(150);
        }
    }
}

fn open_ws(addr: &str, id: &str, token: Option<&str>) -> Option<WebSocket<TcpStream>> {
    let mut req = format!("ws://{addr}/api/tables/{id}/ws").into_client_request().ok()?;
    let proto = match token {
        Some(t) => format!("tabletop, bearer.{t}"),
        None => "tabletop".into(),
    };
    req.headers_mut().insert("sec-websocket-protocol", proto.parse().ok()?);
    let stream = TcpStream::connect(addr).ok()?;
    stream.set_read_timeout(Some(Duration::from_millis(200))).ok()?;
    tungstenite::client(req, stream).ok().map(|(ws, _)| ws)
}

/// A viewer on a WebSocket through instance `on` (another one after a failure), connecting
/// again on any close but 4001, reading the table again on a gap, as the page does. With a
/// seat, it plays that seat when the socket says it is its turn; until the table is finished.
fn viewer(world: Arc<World>, id: String, token: Option<String>, seat: Option<u64>, mut on: usize) {
    let n = world.addrs.len();
    let mut highest = 0u64;
    'connect: while !world.stop.load(Ordering::Relaxed) {
        if world.obs().tables.get(&id).is_some_and(|t| t.finished) {
            return;
        }
        let Some(mut ws) = open_ws(&world.addrs[on], &id, token.as_deref()) else {
            world.obs().refused("socket refused".into());
            on = (on + 1) % n;
            pause(300);
            continue;
        };
        let sock = world.next_socket.fetch_add(1, Ordering::Relaxed);
        world.obs().sockets.insert(sock, (id.clone(), Instant::now(), highest, false));
        let mut held = 0u64;
        let mut current = Value::Null;
        let mut legal = Value::Null;
        let mut acted_at = u64::MAX;
        let mut status = Value::Null;
        loop {
            if world.stop.load(Ordering::Relaxed) {
                let _ = ws.close(None);
                return;
            }
            // Finished as another client saw it (this one may have missed the last update).
            if world.obs().tables.get(&id).is_some_and(|t| t.finished) {
                if let Some(s) = world.obs().sockets.get_mut(&sock) {
                    s.3 = true;
                }
                return;
            }
            let msg = ws.read();
            let text = match msg {
                Ok(Message::Text(t)) => t.to_string(),
                Ok(Message::Close(f)) => {
                    let code = f.map(|f| u16::from(f.code)).unwrap_or(1005);
                    let mut obs = world.obs();
                    obs.refused(format!("socket closed {code}"));
                    if let Some(s) = obs.sockets.get_mut(&sock) {
                        s.3 = true;
                    }
                    drop(obs);
                    pause(300);
                    continue 'connect;
                }
                Ok(_) => continue,
                Err(tungstenite::Error::Io(e))
                    if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) =>
                {
                    String::new()
                }
                Err(_) => {
                    let mut obs = world.obs();
                    obs.refused("socket broke".into());
                    if let Some(s) = obs.sockets.get_mut(&sock) {
                        s.3 = true;
                    }
                    drop(obs);
                    on = (on + 1) % n;
                    pause(300);
                    continue 'connect;
                }
            };
            if !text.is_empty() {
                let Ok(v) = serde_json::from_str::<Value>(&text) else { continue };
                if v["type"] == "error" {
                    world.obs().refused(format!("socket error {}", v["code"].as_str().unwrap_or("-")));
                    continue;
                }
                let Some(ver) = v["version"].as_u64() else { continue };
                let gap = v["type"] == "update" && ver != held + 1;
                let v = if gap {
                    // A gap: read the table again.
                    let (s, r) =
                        try_http(&world.addrs[on], "GET", &format!("/api/tables/{id}"), token.as_deref(), None);
                    if s != 200 {
                        world.obs().refused(format!("read {s} {}", r["code"].as_str().unwrap_or("-")));
                        continue;
                    }
                    r
                } else {
                    v
                };
                let ver = v["version"].as_u64().unwrap_or(ver);
                let mut obs = world.obs();
                if ver < highest {
                    obs.backwards.push(format!("{id}: a socket through node{} went from v{highest} to v{ver}", on + 1));
                }
                highest = highest.max(ver);
                held = ver;
                obs.saw(&id, ver, &v, "a socket");
                if let Some(s) = obs.sockets.get_mut(&sock) {
                    s.1 = Instant::now();
                    s.2 = ver;
                }
                if !v["view"]["current"].is_null() {
                    current = v["view"]["current"].clone();
                }
                if !v["legal_actions"].is_null() {
                    legal = v["legal_actions"].clone();
                }
                if !v["status"].is_null() {
                    status = v["status"].clone();
                }
                let finished = status == "finished";
                if finished {
                    if let Some(s) = obs.sockets.get_mut(&sock) {
                        s.3 = true;
                    }
                    drop(obs);
                    let _ = ws.close(None);
                    return;
                }
                drop(obs);
            }
            // Its turn: act (once per version).
            if let (Some(seat), Some(t)) = (seat, &token) {
                if current == seat && status == "playing" && acted_at != held {
                    if let Some(a) = pick(&legal) {
                        pause(100);
                        acted_at = held;
                        if !act(&world, on, &id, t, seat, &a, &json!(held)) {
                            // Refused (the database or the owner away): tried again, as a
                            // person would click again.
                            acted_at = u64::MAX;
                            pause(200);
                        }
                    }
                }
            }
        }
    }
}

/// Two people, each playing from a socket on its own instance; a spectator on a third.
fn socket_people(world: Arc<World>, slot: usize) {
    let n = world.addrs.len();
    while !world.stop.load(Ordering::Relaxed) {
        let body = json!({"preset": "official", "house_rules": {"match_target": 0}, "name": "Ann", "seed": slot,
            "seats": [{"kind": "human"}, {"kind": "human"}]});
        let Some((id, mut tokens, on)) = create(&world, slot, &body, "sockets") else { return };
        let mut joined = None;
        for k in 0..40 {
            let (s, v) = try_http(
                &world.addrs[(on + 1 + k) % n],
                "POST",
                &format!("/api/tables/{id}/join"),
                None,
                Some(&json!({"name": "Bob"})),
            );
            if s == 200 {
                joined = v["token"].as_str().map(str::to_string);
                break;
            }
            pause(250);
        }
        let Some(bob) = joined else { continue };
        tokens.push(bob);
        let players: Vec<_> = (0..2)
            .map(|seat| {
                let (w, id, t) = (world.clone(), id.clone(), tokens[seat].clone());
                std::thread::spawn(move || viewer(w, id, Some(t), Some(seat as u64), (on + 1 + seat) % n))
            })
            .collect();
        for p in players {
            let _ = p.join();
        }
    }
}

/// A spectator of each table the HTTP people play, on the instance after its creator's.
fn spectators(world: Arc<World>) {
    let n = world.addrs.len();
    let mut watching: HashMap<String, std::thread::JoinHandle<()>> = HashMap::new();
    while !world.stop.load(Ordering::Relaxed) {
        let ids: Vec<(String, usize)> =
            world.obs().tables.iter().filter(|(_, t)| !t.finished).map(|(id, t)| (id.clone(), t.created_on)).collect();
        for (id, on) in ids {
            if let std::collections::hash_map::Entry::Vacant(e) = watching.entry(id) {
                let (w, i) = (world.clone(), e.key().clone());
                e.insert(std::thread::spawn(move || viewer(w, i, None, None, (on + 2) % n)));
            }
        }
        watching.retain(|_, h| !h.is_finished());
        pause(500);
    }
    for (_, h) in watching {
        let _ = h.join();
    }
}

#[derive(Default)]
struct Row {
    trials: u64,
    acked: u64,
    kept: u64,
    longest_stall: Duration,
    /// The longest a table stood still from the fault's start (what its players saw).
    longest_pause: Duration,
    silent: u64,
}

/// Compares what clients were told with the stored logs; the violations found.
fn check_safety(world: &World, rt: &tokio::runtime::Runtime, store: &store::PgStore, row: &mut Row) -> Vec<String> {
    let (acks, seen): (Vec<_>, Vec<_>) = {
        let obs = world.obs();
        (
            obs.acks.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
            obs.seen.iter().map(|(k, v)| (k.clone(), v.1.clone())).collect(),
        )
    };
    let mut logs: HashMap<String, Vec<uno::record::Move>> = HashMap::new();
    let mut bad = Vec::new();
    for (id, _) in acks.iter().map(|(k, _)| k).chain(seen.iter().map(|(k, _)| k)) {
        if logs.contains_key(id) {
            continue;
        }
        let game = rt.block_on(async { store.load(id).done().await });
        let moves = match game {
            Ok(Some(g)) => g.actions.iter().filter_map(|e| e.decode::<uno::record::Move>().ok()).collect(),
            Ok(None) => Vec::new(),
            Err(e) => {
                bad.push(format!("the log of {id} could not be read: {e}"));
                Vec::new()
            }
        };
        logs.insert(id.clone(), moves);
    }
    row.acked = acks.len() as u64;
    row.kept = 0;
    for ((id, ver), (seat, action)) in &acks {
        let log = &logs[id];
        let kept = ver.checked_sub(1).and_then(|i| log.get(i as usize)).is_some_and(|m| {
            u64::from(m.seat.0) == *seat
                && serde_json::from_value::<uno::Action>(action.clone()).is_ok_and(|a| a == m.action)
        });
        if kept {
            row.kept += 1;
        } else {
            bad.push(format!(
                "{id} v{ver}: acknowledged {action} by seat {seat}, the log holds {:?}",
                log.get(*ver as usize - 1)
            ));
        }
    }
    for ((id, ver), played) in &seen {
        let log = &logs[id];
        if *ver as usize > log.len() {
            bad.push(format!("{id}: a client saw v{ver}, the log has {} actions", log.len()));
        } else if let Some((seat, card)) = played {
            let m = &log[*ver as usize - 1];
            let same = u64::from(m.seat.0) == *seat
                && matches!(m.action, uno::Action::Play { card: c, .. } if c.to_string() == *card);
            if !same {
                bad.push(format!("{id} v{ver}: a client saw {card} played by {seat}, the log holds {m:?}"));
            }
        }
    }
    let mut obs = world.obs();
    bad.append(&mut obs.double_acks);
    bad.append(&mut obs.disagreements);
    bad.append(&mut obs.backwards);
    bad
}

/// Every table in play at `healed` must move on by `healed + within`; the longest wait, and the
/// tables that did not.
fn check_liveness(
    world: &World,
    before: &HashMap<String, u64>,
    healed: Instant,
    within: Duration,
) -> (Duration, Vec<String>) {
    let obs = world.obs();
    let mut longest = Duration::ZERO;
    let mut bad = Vec::new();
    for (id, v0) in before {
        let Some(t) = obs.tables.get(id) else { continue };
        let moved = t.progress.iter().find(|(_, v)| v > v0).map(|(at, _)| at.saturating_duration_since(healed));
        match moved {
            Some(d) => {
                longest = longest.max(d);
                if d > within {
                    bad.push(format!("{id} stood at v{v0} for {d:?} after the fault healed"));
                }
            }
            None if t.finished => {}
            None => {
                longest = longest.max(within);
                let mut now = String::new();
                for (i, addr) in world.addrs.iter().enumerate() {
                    let (s, v) = try_http(addr, "GET", &format!("/api/tables/{id}"), Some(&t.token), None);
                    now += &format!(
                        " node{}: {s} {} v{} current {} phase {} {};",
                        i + 1,
                        v["status"],
                        v["version"],
                        v["view"]["current"],
                        v["view"]["phase"]["phase"],
                        v["code"]
                    );
                }
                bad.push(format!("{id} ({}) stood at v{v0} since the fault healed (over {within:?}):{now}", t.kind));
            }
        }
    }
    (longest, bad)
}

/// The longest any of these tables stood still between `from` and `to`.
fn longest_pause(world: &World, tables: &HashMap<String, u64>, from: Instant, to: Instant) -> Duration {
    let obs = world.obs();
    let mut longest = Duration::ZERO;
    for id in tables.keys() {
        let Some(t) = obs.tables.get(id) else { continue };
        let mut last = t.progress.iter().rev().find(|(at, _)| *at <= from).map(|p| p.0).unwrap_or(from);
        for (at, _) in t.progress.iter().filter(|(at, _)| *at > from && *at <= to) {
            longest = longest.max(at.saturating_duration_since(last));
            last = *at;
        }
        if !t.finished {
            longest = longest.max(to.saturating_duration_since(last));
        }
    }
    longest
}

/// Sockets open and silent for longer than `within` while their table moved past them.
fn silent_sockets(world: &World, within: Duration) -> Vec<String> {
    let obs = world.obs();
    let now = Instant::now();
    let mut bad = Vec::new();
    for (sock, (id, last, ver, closed)) in &obs.sockets {
        if *closed {
            continue;
        }
        let Some(t) = obs.tables.get(id) else { continue };
        // When the table first went past what the socket holds.
        let Some((ahead, _)) = t.progress.iter().find(|(_, v)| v > ver) else { continue };
        let since = now.saturating_duration_since(*ahead.max(last));
        if since > within {
            bad.push(format!("socket {sock} on {id} silent at v{ver} for {since:?} while the table moved on"));
        }
    }
    bad
}

#[test]
#[ignore = "the fault harness: run it with scripts/chaos"]
fn every_game_moves_on_through_every_fault() {
    let lease_ms = setting("CHAOS_LEASE_MS", 2_000);
    let rounds = setting("CHAOS_ROUNDS", 1);
    let seed = setting("CHAOS_SEED", 1);
    let nodes_n = setting("CHAOS_INSTANCES", 3) as usize;
    let tables = setting("CHAOS_TABLES", 6) as usize;
    let within = Duration::from_millis(lease_ms) + Duration::from_secs(5);
    let mut rng = StdRng::seed_from_u64(seed);

    let pg = store::testing::TempPostgres::start_or_fail();
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let db = rt.block_on(pg.create_database("chaos")).expect("database");
    let mut nats = TempNats::start();
    let logs = tempfile::tempdir().expect("temp");
    let mut nodes: Vec<Node> = (1..=nodes_n)
        .map(|i| {
            // Each instance reaches PostgreSQL and NATS through proxies of its own (a partition
            // cuts them).
            let cut = Arc::new(AtomicBool::new(false));
            let pg_proxy = proxy(format!("127.0.0.1:{}", pg.port()), cut.clone());
            let nats_proxy = proxy(format!("127.0.0.1:{}", nats.port), cut.clone());
            Node {
                name: format!("node{i}"),
                addr: format!("127.0.0.1:{}", free_port()),
                child: None,
                log: logs.path().join(format!("node{i}.log")),
                db: db.replace(&format!(":{}/", pg.port()), &format!(":{pg_proxy}/")),
                nats: format!("nats://127.0.0.1:{nats_proxy}"),
                cut,
            }
        })
        .collect();
    for n in &mut nodes {
        n.start(lease_ms);
    }
    let lease = store::Lease { owner: "chaos-observer".into(), duration: Duration::from_millis(lease_ms) };
    let observer = rt.block_on(store::PgStore::connect_with(&db, lease)).expect("observer store");
    let world = Arc::new(World {
        addrs: nodes.iter().map(|n| n.addr.clone()).collect(),
        obs: Mutex::new(Obs::default()),
        stop: AtomicBool::new(false),
        next_socket: AtomicU64::new(0),
    });
    let mut drivers = Vec::new();
    for slot in 0..tables {
        let w = world.clone();
        drivers.push(std::thread::spawn(
            move || if slot % 2 == 0 { http_person(w, slot) } else { socket_people(w, slot) },
        ));
    }
    let w = world.clone();
    drivers.push(std::thread::spawn(move || spectators(w)));
    pause(3_000);

    let mut rows: BTreeMap<Fault, Row> = BTreeMap::new();
    let mut violations = Vec::new();
    let mut order: Vec<Fault> = (0..rounds).flat_map(|_| FAULTS).collect();
    // Random order and moments.
    for i in (1..order.len()).rev() {
        order.swap(i, rng.gen_range(0..=i));
    }
    for fault in order {
        pause(rng.gen_range(500..3_000));
        let before: HashMap<String, u64> = world
            .obs()
            .tables
            .iter()
            .filter(|(_, t)| !t.finished)
            .map(|(id, t)| (id.clone(), t.progress.last().map(|p| p.1).unwrap_or(0)))
            .collect();
        // An owner: the holder of a table in play (and that table).
        let owned = before.keys().find_map(|id| {
            let h = rt.block_on(async { observer.holder(id).done().await }).ok().flatten()?;
            nodes.iter().position(|n| n.name == h).map(|k| (k, id.clone()))
        });
        let owner = owned.as_ref().map(|o| o.0);
        let began = Instant::now();
        let healed = match fault {
            Fault::KillOwner => {
                let k = owner.unwrap_or(0);
                nodes[k].kill();
                pause(500);
                nodes[k].start(lease_ms);
                Instant::now()
            }
            Fault::PauseOwner => {
                let k = owner.unwrap_or(0);
                nodes[k].signal("-STOP");
                pause(lease_ms + 1_500);
                nodes[k].signal("-CONT");
                Instant::now()
            }
            Fault::RestartPostgres => {
                pg.stop().expect("stop PostgreSQL");
                pause(rng.gen_range(200..1_500));
                pg.resume().expect("start PostgreSQL");
                Instant::now()
            }
            Fault::KillPostgres => {
                let pid = postmaster(pg.port()).expect("the postmaster");
                let _ = Command::new("kill").args(["-KILL", &pid.to_string()]).status();
                pause(rng.gen_range(200..1_500));
                // Its backends leave once they see it gone; until then it cannot start again.
                let since = Instant::now();
                while let Err(e) = pg.resume() {
                    assert!(since.elapsed() < Duration::from_secs(30), "PostgreSQL did not start again: {e}");
                    pause(300);
                }
                Instant::now()
            }
            Fault::KillNats => {
                nats.kill();
                pause(rng.gen_range(200..1_500));
                nats.resume();
                Instant::now()
            }
            Fault::PartitionOwner => {
                let k = owner.unwrap_or(0);
                nodes[k].cut.store(true, Ordering::Relaxed);
                // Past its lease (and the slack it allows itself), the cut-off owner must not
                // serve its table any more: it cannot know nobody adopted it.
                pause(lease_ms + 1_000);
                if let Some((_, id)) = &owned {
                    let token = world.obs().tables.get(id).map(|t| t.token.clone()).unwrap_or_default();
                    let (addr, path) = (nodes[k].addr.clone(), format!("/api/tables/{id}"));
                    let (tx, rx) = std::sync::mpsc::channel();
                    std::thread::spawn(move || {
                        let _ = tx.send(try_http(&addr, "GET", &path, Some(&token), None));
                    });
                    // No answer is no stale answer; an answer must not be the table's state.
                    let answer = rx.recv_timeout(Duration::from_secs(3));
                    let probed = began.elapsed().as_millis();
                    match &answer {
                        Ok((200, v)) => violations.push(format!(
                            "{}: {id} read through its cut-off owner node{} {probed} ms after the cut: 200 at v{}",
                            fault.name(),
                            k + 1,
                            v["version"]
                        )),
                        Ok((s, v)) => eprintln!(
                            "chaos: node{} cut off; {id} read through it at {probed} ms: {s} {}",
                            k + 1,
                            v["code"]
                        ),
                        Err(_) => eprintln!("chaos: node{} cut off; {id} read through it: no answer in 3 s", k + 1),
                    }
                }
                pause(1_000u64.saturating_sub(began.elapsed().as_millis() as u64 - lease_ms - 1_000));
                // Another instance adopted the table while its owner was cut off (its players
                // kept asking through the others).
                if let Some((_, id)) = &owned {
                    let h = rt.block_on(async { observer.holder(id).done().await }).ok().flatten();
                    let finished = world.obs().tables.get(id).is_some_and(|t| t.finished);
                    eprintln!("chaos: {id} held by {h:?} at the healing");
                    if !finished && h.as_deref() == Some(nodes[k].name.as_str()) {
                        violations.push(format!(
                            "{}: {id} still held by the cut-off node{} {} ms after the cut",
                            fault.name(),
                            k + 1,
                            began.elapsed().as_millis()
                        ));
                    }
                }
                nodes[k].cut.store(false, Ordering::Relaxed);
                Instant::now()
            }
        };
        std::thread::sleep(within + Duration::from_millis(500));
        let row = rows.entry(fault).or_default();
        row.trials += 1;
        let (stall, mut late) = check_liveness(&world, &before, healed, within);
        row.longest_stall = row.longest_stall.max(stall);
        row.longest_pause = row.longest_pause.max(longest_pause(&world, &before, began, healed + within));
        let mut silent = silent_sockets(&world, within);
        row.silent += silent.len() as u64;
        let mut unsafe_ = check_safety(&world, &rt, &observer, row);
        for v in late.iter_mut().chain(silent.iter_mut()).chain(unsafe_.iter_mut()) {
            *v = format!("{}: {v}", fault.name());
        }
        eprintln!(
            "chaos: {} done (stall {:?}, {} late, {} silent, {} unsafe)",
            fault.name(),
            stall,
            late.len(),
            silent.len(),
            unsafe_.len()
        );
        violations.extend(late);
        violations.extend(silent);
        violations.extend(unsafe_);
    }
    world.stop.store(true, Ordering::Relaxed);
    for d in drivers {
        let _ = d.join();
    }
    // The totals after the last fault (acknowledged vs kept are cumulative).
    let mut total = Row::default();
    let _ = check_safety(&world, &rt, &observer, &mut total);

    println!("\nfault harness: {nodes_n} instances, lease {lease_ms} ms, {tables} table drivers, seed {seed}");
    println!(
        "| fault | trials | acknowledged / kept (cumulative) | longest stall after healing | longest pause from the fault | silent sockets |"
    );
    println!("|---|---|---|---|---|---|");
    for (f, r) in &rows {
        println!(
            "| {} | {} | {} / {} | {:.1} s | {:.1} s | {} |",
            f.name(),
            r.trials,
            r.acked,
            r.kept,
            r.longest_stall.as_secs_f64(),
            r.longest_pause.as_secs_f64(),
            r.silent
        );
    }
    let obs = world.obs();
    let seen = obs.seen.len();
    println!(
        "all: {} acknowledged, {} kept; {} versions seen by clients; {} tables; limit lease + 5 s = {:.1} s",
        total.acked,
        total.kept,
        seen,
        obs.tables.len(),
        within.as_secs_f64()
    );
    println!("refusals met on the way (retried): {:?}", obs.refusals);
    drop(obs);
    if !violations.is_empty() {
        for v in &violations {
            println!("VIOLATION {v}");
        }
        println!("instance logs kept in {}", logs.keep().display());
        panic!("{} violations", violations.len());
    }
}
