//! Support of the two-instance tests (`cluster_nats.rs`): the servers and the site they share
//! (one private PostgreSQL and one NATS server), a table made on one instance and joined on the
//! other; [`viewer`] a WebSocket viewer, [`table`] the viewers of one table and the checks on
//! what they got.

pub mod table;
pub mod viewer;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::json;

use crate::serving::{address, http, TempNats};

pub const LEASE_MS: u64 = 1_000;
/// Past an owner's death: its lease runs out, the other instance's scan (half a lease) adopts
/// the table, and a loaded machine adds its share.
pub const MARGIN: Duration = Duration::from_millis(3_000);

/// A server process, killed when the test ends however it ends.
pub struct Server {
    pub child: Child,
    pub addr: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = Command::new("kill").args(["-CONT", &self.child.id().to_string()]).stderr(Stdio::null()).status();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn start(db: &str, nats: Option<&str>, instance: &str) -> Server {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tabletop"));
    cmd.args(["serve", "--addr", "127.0.0.1:0", "--db", db, "--bot-delay-ms", "0", "--instance", instance]).args([
        "--lease-ms",
        &LEASE_MS.to_string(),
        "--ws-rate",
        "1000",
    ]);
    if let Some(url) = nats {
        cmd.args(["--nats", url]);
    }
    let mut child = cmd.stdout(Stdio::piped()).spawn().expect("spawn");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut line).expect("first line");
    let addr = address(&line);
    Server { child, addr }
}

/// One private PostgreSQL database and one NATS server.
pub struct Site {
    _pg: store::testing::TempPostgres,
    pub db: String,
    pub nats: TempNats,
}

pub fn site(name: &str) -> Site {
    let pg = store::testing::TempPostgres::start_or_fail();
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let db = rt.block_on(pg.create_database(name)).expect("database");
    Site { _pg: pg, db, nats: TempNats::start() }
}

/// A two-seat table created on `create_on`, the second seat taken through `join_on`: its id
/// and the seats' tokens.
pub fn table(create_on: &str, join_on: &str, seed: u64) -> (String, Vec<String>) {
    let create = json!({"preset": "official", "house_rules": {"match_target": 0}, "name": "Ann", "seed": seed,
        "seats": [{"kind": "human"}, {"kind": "human"}]});
    let (s, created) = http(create_on, "POST", "/api/tables", None, Some(&create));
    assert_eq!(s, 201, "{created}");
    let id = created["id"].as_str().expect("id").to_string();
    let ann = created["token"].as_str().expect("token").to_string();
    let (s, joined) = http(join_on, "POST", &format!("/api/tables/{id}/join"), None, Some(&json!({"name": "Bob"})));
    assert_eq!(s, 200, "{joined}");
    (id, vec![ann, joined["token"].as_str().expect("token").to_string()])
}

pub fn signal(child: &Child, sig: &str) {
    let ok = Command::new("kill").args([sig, &child.id().to_string()]).status().expect("kill").success();
    assert!(ok, "kill {sig}");
}
