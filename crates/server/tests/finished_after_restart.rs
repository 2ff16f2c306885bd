//! A finished table outlives a restart: its final view, scores and rematch stay reachable for
//! `finished_ttl`, read back from the store on first request (it answered 404 before).

use std::time::Duration;

use axum::http::StatusCode;
use serde_json::json;

mod common;
use common::call;

async fn open(path: &std::path::Path) -> (server::AppState, axum::Router) {
    let store = store::SqliteStore::open(path).expect("store");
    let config = server::Config { bot_delay: Duration::from_millis(0), ..Default::default() };
    let state = server::AppState::new(store, config).await.expect("state");
    let app = server::app(state.clone());
    (state, app)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_table_answers_its_final_view_after_a_restart() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("tables.db");
    let (state, app) = open(&path).await;
    let create = json!({
        "preset": "official", "house_rules": {"match_target": 0}, "name": "Ann", "seed": 3,
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}]
    });
    let (s, created) = call(&app, "POST", "/api/tables", None, Some(create.to_string())).await;
    assert_eq!(s, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().expect("id").to_string();
    let ann = created["token"].as_str().expect("token").to_string();
    let mut last = serde_json::Value::Null;
    for _ in 0..20_000 {
        let (s, v) = call(&app, "GET", &format!("/api/tables/{id}"), Some(&ann), None).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        if v["status"] == "finished" {
            last = v;
            break;
        }
        let legal = v["legal_actions"].as_array().cloned().unwrap_or_default();
        let Some(action) = legal.iter().find(|a| a["type"] != "call_uno").or(legal.first()).cloned() else {
            tokio::time::sleep(Duration::from_millis(1)).await;
            continue;
        };
        let body = json!({"action": action, "version": v["version"]}).to_string();
        let (s, r) = call(&app, "POST", &format!("/api/tables/{id}/actions"), Some(&ann), Some(body)).await;
        assert!(s == StatusCode::OK || s == StatusCode::CONFLICT, "{s} {r}");
    }
    assert_eq!(last["status"], "finished", "the game did not finish");
    state.drain().await;
    drop(app);
    drop(state);

    let (_state, app) = open(&path).await;
    let (s, again) = call(&app, "GET", &format!("/api/tables/{id}"), Some(&ann), None).await;
    assert_eq!(s, StatusCode::OK, "{again}");
    assert_eq!(again["status"], "finished");
    assert_eq!(again["version"], last["version"]);
    assert_eq!(again["view"]["scores"], last["view"]["scores"]);
    assert_eq!(again["view"]["hand"], last["view"]["hand"]);
    // Still a table: the seat's token holds, and a rematch deals a new game.
    let (s, r) = call(&app, "POST", &format!("/api/tables/{id}/rematch"), Some(&ann), None).await;
    assert_eq!(s, StatusCode::OK, "{r}");
    assert_eq!(r["generation"], 1);
    // An id the store never saw is still unknown.
    let (s, v) = call(&app, "GET", "/api/tables/nosuchtable", Some(&ann), None).await;
    assert_eq!(s, StatusCode::NOT_FOUND, "{v}");
}

/// A server stopped at any point of a game's finishing path keeps the game's record: after the
/// last action was stored but before its result and status (the result is kept at the restart),
/// after the result but before the status (kept once, not twice), and after both.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_stopped_on_its_finishing_path_keeps_its_record() {
    use store::GameStore;
    let dir = tempfile::tempdir().expect("tempdir");
    let played = dir.path().join("played.db");
    let (state, app) = open(&played).await;
    let create = json!({"preset": "official", "house_rules": {"match_target": 0}, "seed": 12,
        "seats": [{"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "random"}]});
    let (s, created) = call(&app, "POST", "/api/tables", None, Some(create.to_string())).await;
    assert_eq!(s, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().expect("id").to_string();
    for _ in 0..20_000 {
        if call(&app, "GET", &format!("/api/tables/{id}"), None, None).await.1["status"] == "finished" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    let (s, whole) = call(&app, "GET", &format!("/api/games/{id}/record"), None, None).await;
    assert_eq!(s, StatusCode::OK, "{whole}");
    state.drain().await;
    drop((app, state));
    let source = store::SqliteStore::open(&played).expect("store");
    let game = source.load(&id).await.expect("load").expect("the game");
    assert_eq!(game.standing, store::Standing::Finished);
    let results = source.results_of(&id).await.expect("results");
    assert_eq!(results.len(), 1);

    // The store as a stop at each point left it: the log whole, then the result, then the status.
    for (point, with_result) in [("after the last action", false), ("after the result", true)] {
        let path = dir.path().join(format!("{}.db", with_result));
        {
            let s = store::SqliteStore::open(&path).expect("store");
            common::stopped_at(&s, &game, with_result.then(|| &results[0]), false).await;
        }
        let (state, app) = open(&path).await;
        let (s, record) = call(&app, "GET", &format!("/api/games/{id}/record"), None, None).await;
        assert_eq!(s, StatusCode::OK, "{point}: {record}");
        for field in ["seed", "actions", "players", "seats", "result"] {
            assert_eq!(record[field], whole[field], "{point}: {field}");
        }
        state.drain().await;
        drop((app, state));
        let s = store::SqliteStore::open(&path).expect("store");
        assert_eq!(s.load(&id).await.expect("load").expect("game").standing, store::Standing::Finished, "{point}");
        assert_eq!(s.results_of(&id).await.expect("results").len(), 1, "{point}: kept once");
    }
}

/// Past the retention everything of a game is forgotten, not only its record: the table is no
/// longer read back from the store (it answered as finished before, with its names).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forgotten_game_is_gone_from_the_store() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("forget.db");
    let (state, app) = open(&path).await;
    let create = json!({"preset": "official", "house_rules": {"match_target": 0}, "seed": 7,
        "seats": [{"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "random"}]});
    let (s, created) = call(&app, "POST", "/api/tables", None, Some(create.to_string())).await;
    assert_eq!(s, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().expect("id").to_string();
    for _ in 0..20_000 {
        if call(&app, "GET", &format!("/api/tables/{id}"), None, None).await.1["status"] == "finished" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    state.drain().await;
    drop((app, state));
    tokio::time::sleep(Duration::from_millis(20)).await;

    let store = store::SqliteStore::open(&path).expect("store");
    let config = server::Config { record_retention: Duration::from_millis(10), ..Default::default() };
    let state = server::AppState::new(store, config).await.expect("state");
    let app = server::app(state.clone());
    state.forget_old_records().await.expect("forget");
    for uri in [format!("/api/tables/{id}"), format!("/api/games/{id}/record")] {
        let (s, v) = call(&app, "GET", &uri, None, None).await;
        assert_eq!(s, StatusCode::NOT_FOUND, "{uri}: {v}");
    }
}

/// The store, with the writes of a game's end (its result and its status) either held back
/// until the test opens the gate (committed, but not said to be until then), or, with no gate,
/// the result refused (a full disk, say) while the actions before it were kept.
struct EndStore {
    inner: store::SharedStore,
    gate: Option<tokio::sync::watch::Receiver<bool>>,
    held: std::sync::atomic::AtomicUsize,
}

impl EndStore {
    fn hold(&self, ticket: store::Ticket) -> store::Ticket {
        let Some(mut gate) = self.gate.clone() else { return ticket };
        self.held.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let (tx, reply) = store::Reply::channel();
        tokio::spawn(async move {
            let done = ticket.await;
            let _ = gate.wait_for(|open| *open).await;
            let _ = tx.send(done);
        });
        reply
    }
}

impl store::GameStore for EndStore {
    store::forward_to_inner!(
        backend,
        location,
        create,
        append,
        set_meta,
        reset,
        load_active,
        load,
        results,
        results_of,
        forget_results,
        tallies,
        untallied,
        tally
    );
    fn add_result(&self, result: store::NewResult) -> store::Ticket {
        if self.gate.is_none() {
            return store::Reply::ready(Err(store::StoreError::Commit("the disk is full".into())));
        }
        self.hold(self.inner.add_result(result))
    }
    fn set_standing(&self, id: &str, status: store::Standing) -> store::Ticket {
        self.hold(self.inner.set_standing(id, status))
    }
}

/// Acknowledged means stored, the game's end included: the answer to a game's last action
/// comes only once its result and its finished status are committed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_last_action_is_answered_once_the_games_end_is_stored() {
    use std::sync::atomic::Ordering;
    let inner = store::SharedStore::from(store::SqliteStore::open_in_memory().expect("store"));
    let (open, gate) = tokio::sync::watch::channel(false);
    let held = std::sync::Arc::new(EndStore { inner: inner.clone(), gate: Some(gate), held: Default::default() });
    let shared: store::SharedStore = held.clone();
    let state = server::AppState::new(shared, server::Config::default()).await.expect("state");
    let app = server::app(state);
    let (id, tokens) = ann_and_bob(&app).await;

    for _ in 0..5_000 {
        let (current, body) = next_move(&app, &id, &tokens).await;
        let mut acting = tokio::spawn({
            let (app, uri, token) = (app.clone(), format!("/api/tables/{id}/actions"), tokens[current].clone());
            async move { call(&app, "POST", &uri, Some(&token), Some(body)).await }
        });
        if let Ok(answer) = tokio::time::timeout(Duration::from_millis(1500), &mut acting).await {
            let (s, v) = answer.expect("the action");
            assert_eq!(s, StatusCode::OK, "{v}");
            assert_ne!(v["status"], "finished", "the last action was answered before its game's end was stored");
            continue;
        }
        // The last action waits for the game's end: its result and its status, both asked for.
        assert_eq!(held.held.load(Ordering::SeqCst), 2, "the end's writes");
        open.send(true).expect("open the gate");
        let (s, v) = acting.await.expect("the action");
        assert_eq!((s, v["status"].as_str()), (StatusCode::OK, Some("finished")), "{v}");
        assert_eq!(inner.results_of(&id).await.expect("results").len(), 1, "the result is kept");
        assert_eq!(inner.load(&id).await.expect("load").expect("game").standing, store::Standing::Finished);
        return;
    }
    panic!("the game did not end");
}

/// A last action whose game's end could not be stored is still the game's (it is in the log):
/// every socket is told of it, and only its asker hears that the end's writes failed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_last_action_whose_end_was_not_stored_still_reaches_every_socket() {
    use futures_util::StreamExt;
    let inner = store::SharedStore::from(store::SqliteStore::open_in_memory().expect("store"));
    let shared: store::SharedStore = std::sync::Arc::new(EndStore { inner, gate: None, held: Default::default() });
    let state = server::AppState::new(shared, server::Config::default()).await.expect("state");
    let app = server::app(state.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(server::serve(listener, state, std::future::pending()));
    let (id, tokens) = ann_and_bob(&app).await;
    let (mut watcher, _) =
        tokio_tungstenite::connect_async(common::ws_request(addr, &id, None)).await.expect("a spectator's socket");

    for _ in 0..5_000 {
        let (current, body) = next_move(&app, &id, &tokens).await;
        let uri = format!("/api/tables/{id}/actions");
        let (s, answer) = call(&app, "POST", &uri, Some(&tokens[current]), Some(body)).await;
        if s == StatusCode::OK {
            continue;
        }
        // The game's last action: its end was refused by the store, and the asker is told.
        assert!(s.is_server_error(), "{s}: {answer}");
        let told = tokio::time::timeout(Duration::from_secs(3), async {
            while let Some(Ok(msg)) = watcher.next().await {
                let Ok(text) = msg.to_text() else { continue };
                let v: serde_json::Value = serde_json::from_str(text).unwrap_or_default();
                if v["status"] == "finished" {
                    return true;
                }
            }
            false
        })
        .await;
        assert_eq!(told, Ok(true), "the spectator was never told the game ended");
        return;
    }
    panic!("the game did not end");
}

/// A two-seat `official` table (seed 21, one game, no match) where Ann (the creator) and Bob
/// sit: its id and their seat tokens, in seat order.
async fn ann_and_bob(app: &axum::Router) -> (String, Vec<String>) {
    let create = json!({"preset": "official", "house_rules": {"match_target": 0}, "seed": 21, "name": "Ann",
        "seats": [{"kind": "human"}, {"kind": "human"}]});
    let (s, created) = call(app, "POST", "/api/tables", None, Some(create.to_string())).await;
    assert_eq!(s, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().expect("id").to_string();
    let join = json!({"name": "Bob"}).to_string();
    let (s, joined) = call(app, "POST", &format!("/api/tables/{id}/join"), None, Some(join)).await;
    assert_eq!(s, StatusCode::OK, "{joined}");
    let token = |v: &serde_json::Value| v["token"].as_str().expect("token").to_string();
    (id, vec![token(&created), token(&joined)])
}

/// The seat to move and its next action's body: a card played when one can be, else its first
/// legal action.
async fn next_move(app: &axum::Router, id: &str, tokens: &[String]) -> (usize, String) {
    let (_, v) = call(app, "GET", &format!("/api/tables/{id}"), Some(&tokens[0]), None).await;
    let current = v["view"]["current"].as_u64().expect("current") as usize;
    let (_, v) = call(app, "GET", &format!("/api/tables/{id}"), Some(&tokens[current]), None).await;
    let legal = v["legal_actions"].as_array().expect("legal actions").clone();
    let action = legal.iter().find(|a| a["type"] == "play").unwrap_or(&legal[0]).clone();
    (current, json!({"action": action, "version": v["version"]}).to_string())
}
