//! The viewers of one table at one instance, the game played through them, and the checks on
//! what they got against each other and the stored log.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::viewer::{Ended, Viewer};
use super::{LEASE_MS, MARGIN};
use crate::serving::try_http;

/// Viewers of one table at one instance: each seat, then a spectator.
pub struct Table {
    pub addr: String,
    pub id: String,
    pub tokens: Vec<String>,
    pub viewers: Vec<Viewer>,
    /// (version, seat, action) of every action the server acknowledged.
    pub acked: Vec<(u64, usize, Value)>,
}

impl Table {
    pub fn watch(addr: &str, id: &str, tokens: &[String]) -> Table {
        let mut viewers: Vec<Viewer> =
            tokens.iter().map(|t| Viewer::connect(addr, id, Some(t), Duration::from_secs(5))).collect();
        viewers.push(Viewer::connect(addr, id, None, Duration::from_secs(5)));
        Table { addr: addr.into(), id: id.into(), tokens: tokens.to_vec(), viewers, acked: Vec::new() }
    }

    pub fn token(&self, i: usize) -> Option<&str> {
        self.tokens.get(i).map(String::as_str)
    }

    /// Brings viewer `i` to `version`, connecting it again if it was closed (the table moved).
    pub fn sync(&mut self, i: usize, version: u64) {
        loop {
            match self.viewers[i].catch_up(version) {
                Ok(()) => return,
                Err(Ended::Closed(code)) => self.connect_again(i, code),
                Err(Ended::Refused(code)) => panic!("viewer {i} was refused: {code}"),
            }
        }
    }

    /// Reads viewer `i` until it is closed, and connects it again.
    pub fn reconnect(&mut self, i: usize) {
        loop {
            match self.viewers[i].read() {
                Ok(_) => {}
                Err(Ended::Closed(code)) => return self.connect_again(i, code),
                Err(Ended::Refused(code)) => panic!("viewer {i} was refused: {code}"),
            }
        }
    }

    pub fn connect_again(&mut self, i: usize, code: u16) {
        assert!(code == 4003 || code == 1001, "viewer {i} closed with {code}");
        let wait = Duration::from_millis(LEASE_MS) * 2 + MARGIN;
        let token = self.token(i).map(str::to_string);
        let fresh = Viewer::connect(&self.addr, &self.id, token.as_deref(), wait);
        let old = std::mem::replace(&mut self.viewers[i], fresh);
        let v = &mut self.viewers[i];
        v.closes = old.closes;
        v.closes.push(code);
        // One history per viewer: what it got before, then what it got after.
        let mut seen = old.seen;
        seen.append(&mut v.seen);
        v.seen = seen;
    }

    /// The table now, as seat 0 reads it over HTTP (trying again while the owner is away).
    pub fn now(&self) -> Value {
        let since = Instant::now();
        loop {
            let (s, v) = try_http(&self.addr, "GET", &format!("/api/tables/{}", self.id), self.token(0), None);
            if s == 200 {
                return v;
            }
            assert!(since.elapsed() < Duration::from_millis(LEASE_MS) * 2 + MARGIN, "the table is gone: {s} {v}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Plays `steps` actions at most (whoever's turn: its first legal move), every other one
    /// sent over the seat's WebSocket when `by_socket`; every viewer is brought up to date after
    /// each. Answers whether the game is still on.
    pub fn play(&mut self, steps: usize, by_socket: bool) -> bool {
        for step in 0..steps {
            let now = self.now();
            let version = now["version"].as_u64().expect("version");
            for i in 0..self.viewers.len() {
                self.sync(i, version);
            }
            if now["status"] != "playing" {
                return false;
            }
            let seat = now["view"]["current"].as_u64().expect("current") as usize;
            let legal = self.viewers[seat].held["legal_actions"].as_array().expect("legal").clone();
            let action = legal.iter().find(|a| a["type"] != "call_uno").unwrap_or(&legal[0]).clone();
            if by_socket && step % 2 == 1 {
                self.viewers[seat].send(&action, version);
                // Acknowledged by the update it makes.
                if self.viewers[seat].catch_up(version + 1).is_ok() {
                    self.acked.push((version + 1, seat, action));
                }
            } else {
                let body = json!({"action": action, "version": version});
                let path = format!("/api/tables/{}/actions", self.id);
                let (s, r) = try_http(&self.addr, "POST", &path, self.token(seat), Some(&body));
                match s {
                    200 => self.acked.push((version + 1, seat, action)),
                    // The owner away or the bus down: nothing acknowledged, read and try again.
                    0 | 503 => std::thread::sleep(Duration::from_millis(100)),
                    _ => panic!("action refused: {s} {r}"),
                }
            }
        }
        true
    }
}

/// A message as any instance sends it: without the table's id and the turn timer's reading.
pub fn normal(m: &Value) -> Value {
    let mut m = m.clone();
    if let Some(o) = m.as_object_mut() {
        o.remove("id");
        o.remove("turn_ms_left");
    }
    m
}

/// Every update follows the one before it (a full state may restart the count).
pub fn assert_gap_free(seen: &[Value], who: &str) {
    for pair in seen.windows(2) {
        if pair[1]["type"] == "update" {
            let (a, b) = (pair[0]["version"].as_u64(), pair[1]["version"].as_u64());
            assert_eq!(b, a.map(|a| a + 1), "{who}: version {a:?} then {b:?}");
        }
    }
}

/// The table's stored log, as (seat, action).
pub fn stored_log(db: &str, id: &str) -> Vec<(usize, Value)> {
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    rt.block_on(async {
        let s = store::PgStore::connect_with(db, store::Lease { owner: "reader".into(), ..Default::default() })
            .await
            .expect("connect");
        use store::GameStore;
        let g = s.load(id).await.expect("load").expect("stored");
        g.actions
            .iter()
            .map(|e| {
                let m: uno::Move = e.decode().expect("a move");
                (m.seat.index(), serde_json::to_value(m.action).expect("json"))
            })
            .collect()
    })
}

/// Every acknowledged action is in the log, at the place its version says.
pub fn assert_all_stored(t: &Table, log: &[(usize, Value)]) {
    for (version, seat, action) in &t.acked {
        let at = log.get(*version as usize - 1);
        assert_eq!(at, Some(&(*seat, action.clone())), "acknowledged action {version} is not in the log");
    }
}

impl Table {
    /// The version seat 0 last saw (for a request that must be refused whatever it holds).
    pub fn now_version_hint(&self) -> u64 {
        self.viewers[0].version()
    }
}
