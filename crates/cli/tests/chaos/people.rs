//! The people the harness drives: a person against a bot over HTTP, two people on sockets, the
//! spectators; each acts as the page does and records what it saw in the [`World`].

use std::collections::HashMap;
use std::net::TcpStream;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tungstenite::client::IntoClientRequest;
use tungstenite::{Message, WebSocket};

use super::pause;
use super::world::{Sent, SocketObs, World};
use crate::serving::try_http;

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
    let sent = Sent { at: Instant::now(), seat, through: i, version: version.as_u64().unwrap_or(0), status: s };
    obs.tables.entry(id.to_string()).or_default().sent(sent);
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

/// The action a scripted person takes: UNO called when they may, else a card when they have one,
/// else the first legal action. Calling first matters to the timings: a person who goes down to
/// one card without calling is exposed, and a bot then waits `HUMAN_CATCH_GRACE` (2 s) for them to
/// call before it plays, so their table stands still by design; a rolling restart that came in
/// that wait showed as a stall of 2.1 s (the new owner waits the grace again), over the limit.
fn pick(legal: &Value) -> Option<Value> {
    let legal = legal.as_array()?;
    let of = |kind: &str| legal.iter().find(|a| a["type"] == kind);
    of("call_uno").or_else(|| of("play")).or_else(|| legal.first()).cloned()
}

/// Starts the drivers: `tables` of them, a person against a bot over HTTP and two people on
/// sockets in turn, and the spectators of the HTTP tables.
pub fn drive(world: &Arc<World>, tables: usize) -> Vec<JoinHandle<()>> {
    let mut drivers = Vec::new();
    for slot in 0..tables {
        let w = world.clone();
        drivers.push(std::thread::spawn(
            move || if slot % 2 == 0 { http_person(w, slot) } else { socket_people(w, slot) },
        ));
    }
    let w = world.clone();
    drivers.push(std::thread::spawn(move || spectators(w)));
    drivers
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
fn viewer(world: Arc<World>, id: String, token: Option<String>, seat: Option<u64>, on: usize) {
    let mut viewer = Viewer { world, id, token, seat, on, highest: 0 };
    viewer.run();
}

/// A viewer: the table it watches, its seat and token if it plays, the instance it connects
/// through, and the highest version it saw (across connections).
struct Viewer {
    world: Arc<World>,
    id: String,
    token: Option<String>,
    seat: Option<u64>,
    on: usize,
    highest: u64,
}

/// How one connection of a viewer ended.
enum End {
    /// The harness stopped or the table is finished.
    Done,
    /// The server closed the socket: connect again through the same instance.
    Closed,
    /// The socket broke, or its instance is going away: connect again through the next one.
    Broke,
}

/// What a message on the socket leaves the viewer to do.
enum Next {
    /// Read the next message (nothing to act on).
    Read,
    /// Act if it is its turn.
    Act,
    /// The table is finished: close the socket.
    Finished,
}

/// What one connection learned of the table: the version it holds, whose turn, the legal
/// actions, the status, and the version it last acted at.
struct Socket {
    sock: u64,
    held: u64,
    current: Value,
    legal: Value,
    status: Value,
    acted_at: u64,
}

impl Viewer {
    fn stopped(&self) -> bool {
        self.world.stop.load(Ordering::Relaxed)
    }

    /// Finished as any client saw it.
    fn finished(&self) -> bool {
        self.world.obs().tables.get(&self.id).is_some_and(|t| t.finished)
    }

    fn run(&mut self) {
        let n = self.world.addrs.len();
        while !self.stopped() {
            if self.finished() {
                return;
            }
            let Some(mut ws) = open_ws(&self.world.addrs[self.on], &self.id, self.token.as_deref()) else {
                self.world.obs().refused("socket refused".into());
                self.on = (self.on + 1) % n;
                pause(300);
                continue;
            };
            match self.follow(&mut ws) {
                End::Done => return,
                End::Closed => pause(300),
                End::Broke => {
                    self.on = (self.on + 1) % n;
                    pause(300);
                }
            }
        }
    }

    /// Reads one connection until it ends, acting on its turns.
    fn follow(&mut self, ws: &mut WebSocket<TcpStream>) -> End {
        let sock = self.world.next_socket.fetch_add(1, Ordering::Relaxed);
        let opened = SocketObs {
            table: self.id.clone(),
            through: self.on,
            seat: self.seat,
            last: Instant::now(),
            version: self.highest,
            closed: false,
        };
        self.world.obs().sockets.insert(sock, opened);
        let mut socket =
            Socket { sock, held: 0, current: Value::Null, legal: Value::Null, status: Value::Null, acted_at: u64::MAX };
        loop {
            if self.stopped() {
                let _ = ws.close(None);
                return End::Done;
            }
            // Finished as another client saw it (this one may have missed the last update).
            if self.finished() {
                self.world.obs().close_socket(sock);
                return End::Done;
            }
            let text = match ws.read() {
                Ok(Message::Text(t)) => t.to_string(),
                Ok(Message::Close(f)) => {
                    let code = f.map(|f| u16::from(f.code)).unwrap_or(1005);
                    let mut obs = self.world.obs();
                    obs.refused(format!("socket closed {code}"));
                    obs.close_socket(sock);
                    // 1001: that instance is going away (a rolling restart): a balancer would
                    // send the next connection to another one, and so does the viewer.
                    return if code == 1001 { End::Broke } else { End::Closed };
                }
                Ok(_) => continue,
                // A timeout, or a signal (the harness stops and continues servers) interrupting it.
                Err(tungstenite::Error::Io(e))
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut | std::io::ErrorKind::Interrupted
                    ) =>
                {
                    String::new()
                }
                Err(_) => {
                    let mut obs = self.world.obs();
                    obs.refused("socket broke".into());
                    obs.close_socket(sock);
                    return End::Broke;
                }
            };
            if !text.is_empty() {
                match self.message(&text, &mut socket) {
                    Next::Read => continue,
                    Next::Act => {}
                    Next::Finished => {
                        let _ = ws.close(None);
                        return End::Done;
                    }
                }
            }
            self.take_turn(&mut socket);
        }
    }

    /// Records one message (after reading the table again on a gap).
    fn message(&mut self, text: &str, socket: &mut Socket) -> Next {
        let Ok(v) = serde_json::from_str::<Value>(text) else { return Next::Read };
        if v["type"] == "error" {
            self.world.obs().refused(format!("socket error {}", v["code"].as_str().unwrap_or("-")));
            return Next::Read;
        }
        let Some(ver) = v["version"].as_u64() else { return Next::Read };
        let gap = v["type"] == "update" && ver != socket.held + 1;
        let v = if gap {
            // A gap: read the table again.
            let path = format!("/api/tables/{}", self.id);
            let (s, r) = try_http(&self.world.addrs[self.on], "GET", &path, self.token.as_deref(), None);
            if s != 200 {
                self.world.obs().refused(format!("read {s} {}", r["code"].as_str().unwrap_or("-")));
                return Next::Read;
            }
            r
        } else {
            v
        };
        let ver = v["version"].as_u64().unwrap_or(ver);
        let mut obs = self.world.obs();
        if ver < self.highest {
            obs.backwards.push(format!(
                "{}: a socket through node{} went from v{} to v{ver}",
                self.id,
                self.on + 1,
                self.highest
            ));
        }
        self.highest = self.highest.max(ver);
        socket.held = ver;
        obs.saw(&self.id, ver, &v, "a socket");
        if let Some(s) = obs.sockets.get_mut(&socket.sock) {
            s.last = Instant::now();
            s.version = ver;
        }
        if !v["view"]["current"].is_null() {
            socket.current = v["view"]["current"].clone();
        }
        if !v["legal_actions"].is_null() {
            socket.legal = v["legal_actions"].clone();
        }
        if !v["status"].is_null() {
            socket.status = v["status"].clone();
        }
        if socket.status == "finished" {
            obs.close_socket(socket.sock);
            return Next::Finished;
        }
        Next::Act
    }

    /// Its turn: acts (once per version).
    fn take_turn(&self, socket: &mut Socket) {
        let (Some(seat), Some(t)) = (self.seat, &self.token) else { return };
        if socket.current == seat && socket.status == "playing" && socket.acted_at != socket.held {
            if let Some(a) = pick(&socket.legal) {
                pause(100);
                socket.acted_at = socket.held;
                if !act(&self.world, self.on, &self.id, t, seat, &a, &json!(socket.held)) {
                    // Refused (the database or the owner away): tried again, as a
                    // person would click again.
                    socket.acted_at = u64::MAX;
                    pause(200);
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
