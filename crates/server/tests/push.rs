//! The WebSocket update protocol: after every action each viewer gets a compact `update` (the
//! action's events, the version, the public view, and its own hand and legal actions only when they
//! changed), and a client that merges the updates into its first full `state` holds exactly the
//! full view the HTTP API gives at every version, for every seat and a spectator, including
//! sockets opened mid-game and a seat whose only socket went away and came back.

use std::collections::HashMap;
use std::time::Duration;

use axum::http::StatusCode;
use futures_util::StreamExt;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

mod common;
use common::{call, merge, serve_on_loopback};

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// A socket and who it belongs to (`None`: a spectator).
struct Watcher {
    viewer: Option<usize>,
    ws: Socket,
}

async fn open(addr: std::net::SocketAddr, id: &str, token: Option<&str>) -> Socket {
    tokio_tungstenite::connect_async(common::ws_request(addr, id, token)).await.expect("ws").0
}

/// Reads every message up to `last`; each merged into what the client holds is compared with
/// the full view at that version. Returns the updates read.
async fn follow(w: &mut Watcher, last: u64, fulls: &HashMap<(Option<usize>, u64), Value>) -> Vec<Value> {
    let mut held = Value::Null;
    let mut updates = Vec::new();
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(10), w.ws.next())
            .await
            .expect("a push")
            .expect("open")
            .expect("frame");
        let m: Value = serde_json::from_str(msg.into_text().expect("text").as_str()).expect("json");
        let before = held["legal_actions"].clone();
        if m["type"] == "update" {
            assert!(held.is_object(), "an update before the first state");
            assert_eq!(m["version"].as_u64(), held["version"].as_u64().map(|v| v + 1), "updates follow one another");
            for k in ["discard", "legal_actions", "hand_sizes"] {
                assert_eq!(m["view"].get(k).is_some(), k == "hand_sizes", "{k} in an update's view");
            }
            for k in ["seats", "rules", "you", "id"] {
                assert!(m.get(k).is_none(), "{k} in an update");
            }
            let events = m["events"].as_array().expect("events");
            assert!(!events.is_empty(), "an update without events");
            assert!(events.iter().all(|e| e["version"] == m["version"]));
            if let Some(l) = m.get("legal_actions") {
                assert_ne!(l, &before, "legal actions sent unchanged");
            }
            updates.push(m.clone());
        }
        merge(&mut held, &m);
        let version = held["version"].as_u64().expect("version");
        let full = fulls.get(&(w.viewer, version)).expect("a full view at this version");
        let mut want = full.clone();
        for v in [&mut want, &mut held] {
            if let Some(v) = v["view"].as_object_mut() {
                v.remove("discard");
                v.remove("legal_actions");
            }
        }
        for k in ["version", "generation", "status", "view", "legal_actions"] {
            assert_eq!(held[k], want[k], "viewer {:?} at version {version}: {k} differs", w.viewer);
        }
        if version == last {
            return updates;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn merged_updates_are_the_full_view_and_carry_only_changes() {
    let (app, addr) = serve_on_loopback().await;

    let create = json!({"preset": "official", "house_rules": {"match_target": 0}, "seed": 11, "name": "P0",
        "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}, {"kind": "human"}]});
    let (s, created) = call(&app, "POST", "/api/tables", None, Some(create.to_string())).await;
    assert_eq!(s, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().expect("id").to_string();
    let mut tokens = vec![created["token"].as_str().expect("t").to_string()];
    for i in 1..4 {
        let body = json!({"name": format!("P{i}")}).to_string();
        let (_, j) = call(&app, "POST", &format!("/api/tables/{id}/join"), None, Some(body)).await;
        tokens.push(j["token"].as_str().expect("token").to_string());
    }
    let viewers: Vec<Option<usize>> = vec![Some(0), Some(1), Some(2), Some(3), None];
    let token = |v: Option<usize>| v.map(|s| tokens[s].clone());
    let mut fulls: HashMap<(Option<usize>, u64), Value> = HashMap::new();
    // Every viewer's full view at `version`, as the HTTP API gives it.
    let read_all = |version: u64| {
        let (app, id) = (app.clone(), id.clone());
        let views: Vec<(Option<usize>, Option<String>)> = viewers.iter().map(|&v| (v, token(v))).collect();
        async move {
            let mut out = Vec::new();
            for (v, t) in views {
                let (s, view) = call(&app, "GET", &format!("/api/tables/{id}"), t.as_deref(), None).await;
                assert_eq!(s, StatusCode::OK);
                assert_eq!(view["version"].as_u64(), Some(version));
                out.push(((v, version), view));
            }
            out
        }
    };
    fulls.extend(read_all(0).await);

    let mut watchers = Vec::new();
    for &v in &viewers {
        watchers.push(Watcher { viewer: v, ws: open(addr, &id, token(v).as_deref()).await });
    }
    let mut late = Vec::new();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    let mut version = 0u64;
    let mut currents = vec![fulls[&(None, 0)]["view"]["current"].as_u64().expect("current") as usize];
    loop {
        let current = *currents.last().expect("a mover");
        let full = &fulls[&(Some(current), version)];
        if full["status"] == "finished" {
            break;
        }
        let legal = full["legal_actions"].as_array().expect("legal").clone();
        let moves: Vec<&Value> = legal.iter().filter(|a| a["type"] != "call_uno" && a["type"] != "catch_uno").collect();
        let action = if moves.is_empty() || rng.gen_bool(0.05) {
            legal[rng.gen_range(0..legal.len())].clone()
        } else {
            moves[rng.gen_range(0..moves.len())].clone()
        };
        let body = json!({"action": action, "version": version}).to_string();
        let (s, r) = call(&app, "POST", &format!("/api/tables/{id}/actions"), Some(&tokens[current]), Some(body)).await;
        assert_eq!(s, StatusCode::OK, "{r}");
        version += 1;
        fulls.extend(read_all(version).await);
        currents.push(fulls[&(None, version)]["view"]["current"].as_u64().expect("current") as usize);
        match version {
            // A second tab of seat 1 opens mid-game: it starts from a full state.
            5 => late.push(Watcher { viewer: Some(1), ws: open(addr, &id, Some(&tokens[1])).await }),
            // Seat 3's only socket goes away; what it was told is forgotten...
            10 => {
                let mut gone = watchers.remove(3);
                let _ = gone.ws.close(None).await;
                while let Ok(Some(_)) = tokio::time::timeout(Duration::from_secs(2), gone.ws.next()).await {}
            }
            // ...and a new one starts from a full state again.
            30 => late.push(Watcher { viewer: Some(3), ws: open(addr, &id, Some(&tokens[3])).await }),
            _ => {}
        }
        assert!(version < 5000, "the game did not end");
    }
    assert!(version > 30, "a game long enough for the late sockets");

    let (mut update_bytes, mut updates_seen) = (0usize, 0usize);
    for w in watchers.iter_mut().chain(late.iter_mut()) {
        let updates = follow(w, version, &fulls).await;
        assert!(!updates.is_empty());
        for u in &updates {
            update_bytes += u.to_string().len();
            updates_seen += 1;
            let n = u["version"].as_u64().expect("version") as usize;
            // Only the seat that moved, the seat to move now, and a seat that may call UNO or
            // catch a player who did not (or could until this move) see their legal actions change.
            if let (Some(seat), true) = (w.viewer, u["status"] == "playing" && u.get("legal_actions").is_some()) {
                let may_call = |v: u64| {
                    fulls[&(Some(seat), v)]["legal_actions"]
                        .as_array()
                        .is_some_and(|l| l.iter().any(|a| a["type"] == "call_uno" || a["type"] == "catch_uno"))
                };
                assert!(
                    seat == currents[n] || seat == currents[n - 1] || may_call(n as u64) || may_call(n as u64 - 1),
                    "seat {seat} got legal actions at {n}"
                );
            }
            if w.viewer.is_none() {
                assert!(u.get("legal_actions").is_none() && u["view"].get("hand").is_none());
            }
        }
    }
    let full_bytes: usize = fulls.values().map(|v| v.to_string().len()).sum::<usize>();
    let (avg_update, avg_full) = (update_bytes / updates_seen, full_bytes / fulls.len());
    assert!(avg_update * 2 < avg_full, "updates average {avg_update} bytes, full views {avg_full}");
}
