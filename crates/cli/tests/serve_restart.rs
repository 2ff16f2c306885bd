//! Through the real binary: play, SIGKILL, start again on the same file: every acknowledged
//! action is still there and each seat's view is exactly what it was.

use serde_json::{json, Value};

mod common;
mod serving;
use serving::http;

fn start(db: &std::path::Path) -> (common::Server, String) {
    let server = common::serve(db).args(["--bot-delay-ms", "0"]).start();
    let addr = server.addr.clone();
    (server, addr)
}

#[test]
fn a_killed_server_resumes_every_table_where_it_was() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("t.db");
    let (mut server, addr) = start(&db);
    let create = json!({"preset": "official", "name": "Ann", "seed": 11,
        "seats": [{"kind": "human"}, {"kind": "human"}]});
    let (s, created) = http(&addr, "POST", "/api/tables", None, Some(&create));
    assert_eq!(s, 201, "{created}");
    let id = created["id"].as_str().expect("id").to_string();
    let ann = created["token"].as_str().expect("token").to_string();
    let (_, joined) = http(&addr, "POST", &format!("/api/tables/{id}/join"), None, Some(&json!({"name": "Bob"})));
    let bob = joined["token"].as_str().expect("token").to_string();
    let tokens = [ann.clone(), bob.clone()];
    let mut acked = 0;
    for _ in 0..12 {
        let (_, v) = http(&addr, "GET", &format!("/api/tables/{id}"), Some(&ann), None);
        if v["status"] != "playing" {
            break;
        }
        let cur = v["view"]["current"].as_u64().expect("current") as usize;
        let (_, mine) = http(&addr, "GET", &format!("/api/tables/{id}"), Some(&tokens[cur]), None);
        let action = mine["legal_actions"][0].clone();
        let body = json!({"action": action, "version": mine["version"]});
        let (s, r) = http(&addr, "POST", &format!("/api/tables/{id}/actions"), Some(&tokens[cur]), Some(&body));
        assert_eq!(s, 200, "{r}");
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
    let _ = server.child.kill();
    let _ = server.child.wait();
    for (b, a) in before.iter().zip(&after) {
        assert_eq!(b["version"], a["version"]);
        assert_eq!(b["version"].as_u64(), Some(acked));
        assert_eq!(b["view"], a["view"], "the view changed across the restart");
        assert_eq!(b["seats"], a["seats"]);
    }
}
