//! Support of the two-instance tests (`cluster_nats.rs`): the servers and the site they share
//! (one private PostgreSQL and one NATS server), a table made on one instance and joined on the
//! other; [`viewer`] a WebSocket viewer, [`table`] the viewers of one table and the checks on
//! what they got.

pub mod table;
pub mod viewer;

use std::time::Duration;

use serde_json::json;

use crate::serving::{http, TempNats};

pub const LEASE_MS: u64 = 1_000;
/// Past an owner's death: its lease runs out, the other instance's scan (half a lease) adopts
/// the table, and a loaded machine adds its share.
pub const MARGIN: Duration = Duration::from_millis(3_000);

pub use crate::common::Server;

/// An instance on `db` named `instance`, over NATS at `nats` when given.
pub fn start(db: &str, nats: Option<&str>, instance: &str) -> Server {
    let mut serve = crate::common::serve(db).args([
        "--bot-delay-ms",
        "0",
        "--instance",
        instance,
        "--lease-ms",
        &LEASE_MS.to_string(),
        "--ws-rate",
        "1000",
    ]);
    if let Some(url) = nats {
        serve = serve.args(["--nats", url]);
    }
    serve.start()
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
