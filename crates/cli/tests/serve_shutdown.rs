//! Through the real binary: SIGTERM while games are in play stops the server cleanly (exit 0),
//! and a restart on the same file has every acknowledged action.

#![cfg(unix)]

use std::io::Read;
use std::process::Command;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde_json::json;

mod common;
mod serving;
use serving::try_http as http;

fn start(db: &std::path::Path) -> common::Server {
    common::serve(db).args(["--bot-delay-ms", "0"]).start()
}

#[test]
fn sigterm_mid_game_exits_cleanly_and_loses_nothing_acknowledged() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("t.db");
    let mut server = start(&db);
    let (addr, first_line, mut out) = (server.addr.clone(), server.first_line.clone(), server.take_output());
    assert!(first_line.contains("open-file limit"), "{first_line}");
    assert!(first_line.contains("connections"), "{first_line}");

    // A table of bots plays on its own, as fast as it can.
    let bots = json!({"seed": 3, "seats": [{"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "random"}]});
    let (s, v) = http(&addr, "POST", "/api/tables", None, Some(&bots));
    assert_eq!(s, 201, "{v}");
    let bot_table = v["id"].as_str().expect("id").to_string();
    // A table of two people, played by a thread that records what was acknowledged.
    let people =
        json!({"preset": "official", "name": "Ann", "seed": 11, "seats": [{"kind": "human"}, {"kind": "human"}]});
    let (s, created) = http(&addr, "POST", "/api/tables", None, Some(&people));
    assert_eq!(s, 201, "{created}");
    let id = created["id"].as_str().expect("id").to_string();
    let ann = created["token"].as_str().expect("token").to_string();
    let (_, joined) = http(&addr, "POST", &format!("/api/tables/{id}/join"), None, Some(&json!({"name": "Bob"})));
    let bob = joined["token"].as_str().expect("token").to_string();
    let tokens = [ann, bob];

    let acked = Arc::new(AtomicU64::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let player = {
        let (addr, id, tokens, acked, stop) = (addr.clone(), id.clone(), tokens.clone(), acked.clone(), stop.clone());
        std::thread::spawn(move || {
            while !stop.load(Ordering::Acquire) {
                let (s, v) = http(&addr, "GET", &format!("/api/tables/{id}"), Some(&tokens[0]), None);
                if s != 200 || v["status"] != "playing" {
                    break;
                }
                let cur = v["view"]["current"].as_u64().expect("current") as usize;
                let (s, mine) = http(&addr, "GET", &format!("/api/tables/{id}"), Some(&tokens[cur]), None);
                if s != 200 {
                    break;
                }
                let body = json!({"action": mine["legal_actions"][0], "version": mine["version"]});
                let (s, r) = http(&addr, "POST", &format!("/api/tables/{id}/actions"), Some(&tokens[cur]), Some(&body));
                if s == 200 {
                    acked.fetch_max(r["version"].as_u64().expect("version"), Ordering::AcqRel);
                }
            }
        })
    };
    std::thread::sleep(Duration::from_millis(600));
    let (_, seen) = http(&addr, "GET", &format!("/api/tables/{bot_table}"), None, None);
    let bots_seen = seen["version"].as_u64().expect("bot table version");
    assert!(bots_seen > 0, "{seen}");

    let term = Command::new("kill").args(["-TERM", &server.child.id().to_string()]).status().expect("kill");
    assert!(term.success());
    let status = server.child.wait().expect("wait");
    let mut said = String::new();
    out.read_to_string(&mut said).expect("the rest of the output");
    stop.store(true, Ordering::Release);
    player.join().expect("player thread");
    assert!(status.success(), "exit status {status:?}");
    assert!(said.contains("tabletop stopped"), "{said}");
    let acked = acked.load(Ordering::Acquire);
    assert!(acked > 3, "only {acked} actions were played before the stop");

    let mut server = start(&db);
    let addr = server.addr.clone();
    let (_, after) = http(&addr, "GET", &format!("/api/tables/{id}"), Some(&tokens[0]), None);
    let (_, bots_after) = http(&addr, "GET", &format!("/api/tables/{bot_table}"), None, None);
    let _ = server.child.kill();
    let _ = server.child.wait();
    let version = after["version"].as_u64().expect("version after restart");
    assert!(version >= acked, "acknowledged version {acked}, restored {version}");
    // Either still in play past what was seen, or finished (then kept as a result, not listed).
    if let Some(v) = bots_after["version"].as_u64() {
        assert!(v >= bots_seen, "the bot table went back from {bots_seen} to {v}");
    }
}
