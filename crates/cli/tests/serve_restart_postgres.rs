//! Through the real binary on PostgreSQL (a private server the test starts): play, SIGKILL,
//! start again on the same database: every acknowledged action is still there, each seat's view
//! is exactly what it was, and the game goes on; with PostgreSQL down, actions are refused (503
//! `store_unavailable`), never acknowledged, and play resumes once it is back.

use serde_json::{json, Value};

mod common;
mod serving;
use serving::{http, play_one};

fn start(db: &str) -> (common::Server, String) {
    let server = common::serve(db).args(["--bot-delay-ms", "0"]).start();
    let addr = server.addr.clone();
    (server, addr)
}

#[test]
fn a_killed_server_on_postgres_resumes_every_table_where_it_was() {
    let pg = store::testing::TempPostgres::start_or_fail();
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let db = rt.block_on(pg.create_database("restart")).expect("database");
    let (mut server, addr) = start(&db);
    let create = json!({"preset": "official", "name": "Ann", "seed": 11,
        "seats": [{"kind": "human"}, {"kind": "human"}]});
    let (s, created) = http(&addr, "POST", "/api/tables", None, Some(&create));
    assert_eq!(s, 201, "{created}");
    let id = created["id"].as_str().expect("id").to_string();
    let ann = created["token"].as_str().expect("token").to_string();
    let (_, joined) = http(&addr, "POST", &format!("/api/tables/{id}/join"), None, Some(&json!({"name": "Bob"})));
    let bob = joined["token"].as_str().expect("token").to_string();
    let tokens = [ann, bob];
    let mut acked = 0;
    while acked < 12 && play_one(&addr, &id, &tokens) {
        acked += 1;
    }
    assert!(acked > 3);
    let before: Vec<Value> =
        tokens.iter().map(|t| http(&addr, "GET", &format!("/api/tables/{id}"), Some(t), None).1).collect();
    server.child.kill().expect("SIGKILL");
    let _ = server.child.wait();

    let (mut server, addr) = start(&db);
    let after: Vec<Value> =
        tokens.iter().map(|t| http(&addr, "GET", &format!("/api/tables/{id}"), Some(t), None).1).collect();
    for (b, a) in before.iter().zip(&after) {
        assert_eq!(b["version"], a["version"]);
        assert_eq!(b["version"].as_u64(), Some(acked));
        assert_eq!(b["view"], a["view"], "the view changed across the restart");
        assert_eq!(b["seats"], a["seats"]);
    }
    // The game goes on from there, and what it adds is kept across a second kill.
    let mut more = 0;
    while more < 6 && play_one(&addr, &id, &tokens) {
        more += 1;
    }
    let before = http(&addr, "GET", &format!("/api/tables/{id}"), Some(&tokens[0]), None).1;
    server.child.kill().expect("SIGKILL");
    let _ = server.child.wait();
    let (mut server, addr) = start(&db);
    let after = http(&addr, "GET", &format!("/api/tables/{id}"), Some(&tokens[0]), None).1;
    let _ = server.child.kill();
    let _ = server.child.wait();
    assert_eq!(after["version"].as_u64(), Some(acked + more));
    assert_eq!(before["view"], after["view"]);
}

#[test]
fn with_postgres_down_actions_are_refused_and_play_resumes_after() {
    let pg = store::testing::TempPostgres::start_or_fail();
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let db = rt.block_on(pg.create_database("outage")).expect("database");
    let (mut server, addr) = start(&db);
    let create = json!({"preset": "official", "name": "Ann", "seed": 5,
        "seats": [{"kind": "human"}, {"kind": "human"}]});
    let (s, created) = http(&addr, "POST", "/api/tables", None, Some(&create));
    assert_eq!(s, 201, "{created}");
    let id = created["id"].as_str().expect("id").to_string();
    let ann = created["token"].as_str().expect("token").to_string();
    let (_, joined) = http(&addr, "POST", &format!("/api/tables/{id}/join"), None, Some(&json!({"name": "Bob"})));
    let tokens = [ann, joined["token"].as_str().expect("token").to_string()];
    assert!(play_one(&addr, &id, &tokens) && play_one(&addr, &id, &tokens));

    pg.stop().expect("stop PostgreSQL");
    let (_, v) = http(&addr, "GET", &format!("/api/tables/{id}"), Some(&tokens[0]), None);
    let cur = v["view"]["current"].as_u64().expect("current") as usize;
    let (_, mine) = http(&addr, "GET", &format!("/api/tables/{id}"), Some(&tokens[cur]), None);
    let body = json!({"action": mine["legal_actions"][0], "version": mine["version"]});
    let path = format!("/api/tables/{id}/actions");
    let (s, r) = http(&addr, "POST", &path, Some(&tokens[cur]), Some(&body));
    assert_eq!((s, r["code"].as_str()), (503, Some("store_unavailable")), "{r}");
    // Not acknowledged, so not applied.
    let (_, still) = http(&addr, "GET", &format!("/api/tables/{id}"), Some(&tokens[cur]), None);
    assert_eq!(still["version"], mine["version"]);

    pg.resume().expect("start PostgreSQL again");
    // The pool may still hold a connection that died with the server: it is replaced.
    let mut accepted = false;
    for _ in 0..20 {
        let (s, _) = http(&addr, "POST", &path, Some(&tokens[cur]), Some(&body));
        if s == 200 {
            accepted = true;
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert!(accepted, "play did not resume after PostgreSQL came back");
    assert!(play_one(&addr, &id, &tokens));
    let before = http(&addr, "GET", &format!("/api/tables/{id}"), Some(&tokens[0]), None).1;
    server.child.kill().expect("SIGKILL");
    let _ = server.child.wait();
    let (mut server, addr) = start(&db);
    let after = http(&addr, "GET", &format!("/api/tables/{id}"), Some(&tokens[0]), None).1;
    let _ = server.child.kill();
    let _ = server.child.wait();
    assert_eq!(after["version"].as_u64(), Some(4));
    assert_eq!(before["view"], after["view"]);
}
