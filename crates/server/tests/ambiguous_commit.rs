//! An append the database committed while the server saw an error (the answer lost on the way:
//! the "ambiguous commit" of a shared PostgreSQL) leaves memory behind the log unless the log is
//! read again; before, every later action at the table was refused (503) until a restart. Here
//! a store that commits and then answers an error stands in for it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use axum::http::StatusCode;
use serde_json::{json, Value};
use server::{AppState, Config};
use store::{Entry, GameStore, Reply, SharedStore, SqliteStore, StoreError, StoredGame, Ticket};

mod common;
use common::call;

/// SQLite underneath; the next append (when `lose_answer` is set) commits and then answers an
/// error, and the load after it too fails when `fail_load` is set.
struct LostAnswers {
    inner: SqliteStore,
    lose_answer: AtomicBool,
    fail_load: AtomicBool,
}

impl GameStore for LostAnswers {
    store::forward_to_inner!(
        location,
        create,
        set_meta,
        set_standing,
        reset,
        add_result,
        load_active,
        results,
        results_of,
        forget_results,
        tallies,
        untallied,
        tally
    );
    fn backend(&self) -> &'static str {
        "lost-answers"
    }
    fn append(&self, id: &str, seq: u64, entry: Entry) -> Ticket {
        let written = self.inner.append(id, seq, entry);
        if !self.lose_answer.swap(false, Ordering::SeqCst) {
            return written;
        }
        let (tx, reply) = Reply::channel();
        tokio::spawn(async move {
            let done = written.await;
            assert!(done.is_ok(), "the append itself failed: {done:?}");
            let _ = tx.send(Err(StoreError::Commit("the connection broke before the answer".into())));
        });
        reply
    }
    fn load(&self, id: &str) -> Reply<Option<StoredGame>> {
        if self.fail_load.swap(false, Ordering::SeqCst) {
            return Reply::ready(Err(StoreError::Connect("the database is away".into())));
        }
        self.inner.load(id)
    }
}

struct Game {
    app: axum::Router,
    store: Arc<LostAnswers>,
    id: String,
    tokens: Vec<String>,
}

/// A refusal: its status and code.
#[derive(Debug)]
struct Refused(StatusCode, String);

async fn game() -> Game {
    let store = Arc::new(LostAnswers {
        inner: SqliteStore::open_in_memory().expect("store"),
        lose_answer: AtomicBool::new(false),
        fail_load: AtomicBool::new(false),
    });
    let shared: SharedStore = store.clone();
    let app = server::app(AppState::new(shared, Config::default()).await.expect("state"));
    let create = json!({"seats": [{"kind": "human"}, {"kind": "human"}], "seed": 9}).to_string();
    let (s, created) = call(&app, "POST", "/api/tables", None, Some(create)).await;
    assert_eq!(s, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().expect("id").to_string();
    let join = json!({"name": "Bob"}).to_string();
    let (s, joined) = call(&app, "POST", &format!("/api/tables/{id}/join"), None, Some(join)).await;
    assert_eq!(s, StatusCode::OK, "{joined}");
    let tokens = [&created, &joined].map(|v| v["token"].as_str().expect("token").to_string()).to_vec();
    Game { app, store, id, tokens }
}

impl Game {
    /// The seat to move, its first legal action that is not a call, and the version.
    async fn next(&self) -> (usize, Value, u64) {
        let uri = format!("/api/tables/{}", self.id);
        let (_, view) = call(&self.app, "GET", &uri, Some(&self.tokens[0]), None).await;
        let seat = view["view"]["current"].as_u64().expect("current") as usize;
        let (_, mine) = call(&self.app, "GET", &uri, Some(&self.tokens[seat]), None).await;
        let legal = mine["legal_actions"].as_array().expect("legal actions");
        let action = legal.iter().find(|a| a["type"] != "call_uno").cloned().expect("an action");
        (seat, action, mine["version"].as_u64().expect("version"))
    }

    async fn act(&self, seat: usize, action: &Value, version: u64) -> Result<u64, Refused> {
        let body = json!({"action": action, "version": version}).to_string();
        let uri = format!("/api/tables/{}/actions", self.id);
        let (s, v) = call(&self.app, "POST", &uri, Some(&self.tokens[seat]), Some(body)).await;
        if s != StatusCode::OK {
            return Err(Refused(s, v["code"].as_str().unwrap_or("").to_string()));
        }
        Ok(v["version"].as_u64().expect("version"))
    }

    async fn log_len(&self) -> usize {
        self.store.inner.load(&self.id).await.expect("load").expect("stored").actions.len()
    }
}

#[tokio::test]
async fn a_commit_whose_answer_was_lost_is_found_in_the_log_and_kept() {
    let g = game().await;
    let (seat, action, version) = g.next().await;
    g.act(seat, &action, version).await.expect("first action");
    let (seat, action, version) = g.next().await;
    g.store.lose_answer.store(true, Ordering::SeqCst);
    // The log holds it, so it is acknowledged: the answer says what is true.
    assert_eq!(g.act(seat, &action, version).await.expect("kept"), version + 1);
    assert_eq!(g.log_len().await, 2);
    // And play goes on (before: 503 for every action from here on).
    let (seat, action, version) = g.next().await;
    assert_eq!(version, 2);
    assert_eq!(g.act(seat, &action, version).await.expect("the next action"), 3);
    assert_eq!(g.log_len().await, 3);
}

#[tokio::test]
async fn a_commit_that_cannot_be_checked_is_read_back_before_the_next_action() {
    let g = game().await;
    let (seat, action, version) = g.next().await;
    g.store.lose_answer.store(true, Ordering::SeqCst);
    g.store.fail_load.store(true, Ordering::SeqCst);
    // Neither the answer nor the log: not acknowledged.
    let refused = g.act(seat, &action, version).await;
    assert!(
        matches!(&refused, Err(Refused(StatusCode::SERVICE_UNAVAILABLE, code)) if code == "store_unavailable"),
        "{refused:?}"
    );
    assert_eq!(g.log_len().await, 1, "the store took it all the same");
    // Sent again at the same version: the log is read first, so the action is found taken.
    let again = g.act(seat, &action, version).await;
    assert!(matches!(&again, Err(Refused(StatusCode::CONFLICT, code)) if code == "stale_state"), "{again:?}");
    let (seat, action, version) = g.next().await;
    assert_eq!(version, 1);
    assert_eq!(g.act(seat, &action, version).await.expect("the next action"), 2);
    assert_eq!(g.log_len().await, 2);
}
