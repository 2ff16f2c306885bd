//! Finished Duel games kept as records, through the router: the export replays to the game the
//! page showed, every frame is the view after that many actions, a game still played has
//! neither, and the record is forgotten after the retention, as UNO's are. Its 64-bit seed is a
//! decimal string, exact above 2^53, and rows stored when it was a number still load.

use std::time::Duration;

use axum::http::StatusCode;
use serde_json::{json, Value};
use store::GameStore;

mod common;
use common::call;

/// The token each game's create answered, by game id.
static TOKENS: std::sync::Mutex<Vec<(String, String)>> = std::sync::Mutex::new(Vec::new());

/// A POST that succeeds, with the game's token (a create's keeps it for the game's actions).
async fn post(app: &axum::Router, uri: &str, body: Option<Value>) -> Value {
    let game = uri.strip_prefix("/api/duel/").and_then(|r| r.split('/').next()).unwrap_or("");
    let token = TOKENS.lock().expect("tokens").iter().find(|(id, _)| id == game).map(|(_, t)| t.clone());
    let (s, v) = call(app, "POST", uri, token.as_deref(), body.map(|b| b.to_string())).await;
    assert!(s.is_success(), "{uri}: {s} {v}");
    if let (Some(id), Some(t)) = (v["id"].as_str(), v["token"].as_str()) {
        TOKENS.lock().expect("tokens").push((id.to_string(), t.to_string()));
    }
    v
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_duel_is_kept_exported_and_replayed() {
    let store = store::SqliteStore::open_in_memory().expect("store");
    let config = server::Config { record_retention: Duration::from_millis(1500), ..Default::default() };
    let state = server::AppState::new(store, config).await.expect("state");
    let app = server::app(state.clone());

    let id = post(&app, "/api/duel", Some(json!({"difficulty": "easy", "width": 5, "height": 4}))).await["id"]
        .as_str()
        .expect("id")
        .to_string();
    // Every view the page was shown, after each logged action (a move logs the computer's too).
    let mut shown = vec![call(&app, "GET", &format!("/api/duel/{id}"), None, None).await.1];
    let steps = [
        ("place", Some(json!({"cell": "c2", "key": "b"}))),
        ("next-round", None),
        ("place", Some(json!({"cell": "a1", "key": "6"}))),
        ("next-round", None),
        ("place", Some(json!({"cell": "e4", "key": "1"}))),
    ];
    for (route, body) in steps {
        shown.push(post(&app, &format!("/api/duel/{id}/{route}"), body).await);
    }
    // Still played: no record, no frames.
    for route in ["record", "replay?ply=0"] {
        let (s, v) = call(&app, "GET", &format!("/api/duel/{id}/{route}"), None, None).await;
        assert_eq!((s, v["code"].as_str()), (StatusCode::FORBIDDEN, Some("game_not_over")), "{v}");
    }
    shown.push(post(&app, &format!("/api/duel/{id}/next-round"), None).await);
    post(&app, &format!("/api/duel/{id}/move"), Some(json!({"cell": "a1", "key": "s"}))).await;
    let end = post(&app, &format!("/api/duel/{id}/end"), None).await;
    assert_eq!(end["status"]["stage"]["stage"], "end", "{end}");

    let (s, export) = call(&app, "GET", &format!("/api/duel/{id}/record"), None, None).await;
    assert_eq!(s, StatusCode::OK, "{export}");
    let record: duel::GameRecord = serde_json::from_value(export.clone()).expect("a duel record");
    // place, next, place, next, place, next, the move and the computer's answer, end.
    assert_eq!(record.actions.len(), 9);
    let game = record.replay().expect("replays");
    assert_eq!(json!(game.status()), end["status"]);
    assert_eq!(export["status"], end["status"]);

    // The frames: the view the page had after each of the setup's actions, and the end.
    for (ply, view) in shown.iter().enumerate() {
        let (s, f) = call(&app, "GET", &format!("/api/duel/{id}/replay?ply={ply}"), None, None).await;
        assert_eq!(s, StatusCode::OK, "{f}");
        assert_eq!((f["ply"].as_u64(), f["plies"].as_u64()), (Some(ply as u64), Some(9)));
        for key in ["cells", "status", "last_move", "events"] {
            assert_eq!(f["view"][key], view[key], "{key} at ply {ply}");
        }
    }
    let (_, last) = call(&app, "GET", &format!("/api/duel/{id}/replay"), None, None).await;
    assert_eq!(last["view"]["cells"], end["cells"]);
    assert_eq!(last["move"]["by"], "user");
    let (s, v) = call(&app, "GET", &format!("/api/duel/{id}/replay?ply=10"), None, None).await;
    assert_eq!((s, v["code"].as_str()), (StatusCode::NOT_FOUND, Some("no_such_ply")), "{v}");
    let (s, _) = call(&app, "GET", "/api/duel/nosuchgame/record", None, None).await;
    assert_eq!(s, StatusCode::NOT_FOUND);

    // Forgotten after the retention, as UNO's records are.
    tokio::time::sleep(Duration::from_millis(1600)).await;
    state.forget_old_records().await.expect("forget");
    let (s, v) = call(&app, "GET", &format!("/api/duel/{id}/record"), None, None).await;
    assert_eq!((s, v["code"].as_str()), (StatusCode::NOT_FOUND, Some("not_found")), "{v}");
}

/// Puts `record` (a record's JSON, as a store kept it) into `store` as finished Duel game `id`
/// with its result, as the server keeps one.
async fn keep_row(store: &store::SqliteStore, id: &str, record: &Value, status: &Value) {
    let mut header = record.clone();
    let actions = header.as_object_mut().expect("an object").remove("actions").expect("actions");
    let actions = actions.as_array().expect("a list").clone();
    let new = store::NewGame {
        id: id.to_string(),
        kind: store::Kind::DUEL,
        header: store::Header::new(&header).expect("header"),
        meta: store::Meta::new(&json!({})).expect("meta"),
    };
    store.create(new).await.expect("create");
    for (seq, a) in actions.iter().enumerate() {
        store.append(id, seq as u64, store::Entry::new(a).expect("entry")).await.expect("append");
    }
    store.set_standing(id, store::Standing::Finished).await.expect("finished");
    let result = store::NewResult {
        game_id: id.to_string(),
        kind: store::Kind::DUEL,
        record: store::Record::new(record).expect("record"),
        actions: actions.len() as u64,
        outcome: store::Outcome::new(status).expect("outcome"),
        tallies: None,
    };
    store.add_result(result).await.expect("result");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seed_above_2_pow_53_is_kept_exactly_and_an_old_numeric_seed_still_loads() {
    // A game played through the router, ended at once: its record is what a page would download.
    let app = server::app(
        server::AppState::new(store::SqliteStore::open_in_memory().expect("store"), server::Config::default())
            .await
            .expect("state"),
    );
    let id = a_short_duel(&app).await;
    let (s, export) = call(&app, "GET", &format!("/api/duel/{id}/record"), None, None).await;
    assert_eq!(s, StatusCode::OK, "{export}");
    let seed = export["seed"].as_str().expect("the seed as a string");
    let played: duel::GameRecord = serde_json::from_value(export.clone()).expect("a duel record");
    assert_eq!(seed, played.seed.to_string());

    // The same game kept with a seed above 2^53 (as the server writes it now), and as a row
    // stored when seeds were numbers.
    let big = duel::GameRecord { seed: u64::MAX - 58, ..played.clone() };
    let big_json = serde_json::to_value(&big).expect("json");
    assert_eq!(big_json["seed"], "18446744073709551557");
    let old_seed: u64 = 12_345_678_901_234_567_891;
    let mut old_json = big_json.clone();
    old_json["seed"] = json!(old_seed);
    let kept = store::SqliteStore::open_in_memory().expect("store");
    keep_row(&kept, "big", &big_json, &export["status"]).await;
    keep_row(&kept, "old", &old_json, &export["status"]).await;
    let app = server::app(server::AppState::new(kept, server::Config::default()).await.expect("state"));

    for (id, want) in [("big", "18446744073709551557"), ("old", "12345678901234567891")] {
        let (s, v) = call(&app, "GET", &format!("/api/duel/{id}/record"), None, None).await;
        assert_eq!(s, StatusCode::OK, "{id}: {v}");
        assert_eq!(v["seed"], want, "{id}: {v}");
        let back: duel::GameRecord = serde_json::from_value(v.clone()).expect("a duel record");
        assert_eq!(back.seed.to_string(), want);
        assert_eq!(back.actions, played.actions, "{id}");
        assert_eq!(v["status"], export["status"], "{id}");
        // The frames rebuild from the stored rows, and the game itself loads.
        let (s, f) = call(&app, "GET", &format!("/api/duel/{id}/replay?ply=2"), None, None).await;
        assert_eq!((s, f["plies"].as_u64()), (StatusCode::OK, Some(played.actions.len() as u64)), "{id}: {f}");
        let (s, g) = call(&app, "GET", &format!("/api/duel/{id}"), None, None).await;
        assert_eq!(s, StatusCode::OK, "{id}: {g}");
        assert_eq!(g["status"], export["status"], "{id}");
    }
}

/// A server stopped anywhere on a Duel game's finishing path keeps the game's record: after its
/// last action was stored (still marked active), after it was marked finished but before its
/// record was kept (where a stop lost the record), and after the record but before the mark.
/// The record route then answers the game's record, kept once, and the game is marked finished.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_duel_stopped_on_its_finishing_path_keeps_its_record() {
    let played = store::SharedStore::from(store::SqliteStore::open_in_memory().expect("store"));
    let app = server::app(server::AppState::new(played.clone(), server::Config::default()).await.expect("state"));
    let id = a_short_duel(&app).await;
    // Acknowledged means kept: the record and the mark are in the store once the end is answered.
    let game = played.load(&id).await.expect("load").expect("the game");
    assert_eq!(game.standing, store::Standing::Finished);
    let results = played.results_of(&id).await.expect("results");
    assert_eq!(results.len(), 1);
    let (s, mut whole) = call(&app, "GET", &format!("/api/duel/{id}/record"), None, None).await;
    assert_eq!(s, StatusCode::OK, "{whole}");
    whole.as_object_mut().expect("an object").remove("finished_at");

    for (point, marked, with_result) in [
        ("after the last action", false, false),
        ("marked finished, its record not kept", true, false),
        ("its record kept, not marked finished", false, true),
    ] {
        let s = store::SharedStore::from(store::SqliteStore::open_in_memory().expect("store"));
        common::stopped_at(&*s, &game, with_result.then(|| &results[0]), marked).await;
        let app = server::app(server::AppState::new(s.clone(), server::Config::default()).await.expect("state"));
        // Several readers at once (the record, its frames, the game) mend it once between them.
        let readers: Vec<_> = ["record", "replay?ply=0", "", "record", "replay", ""]
            .into_iter()
            .map(|route| {
                let (app, uri) = (app.clone(), format!("/api/duel/{id}/{route}").trim_end_matches('/').to_string());
                tokio::spawn(async move { call(&app, "GET", &uri, None, None).await })
            })
            .collect();
        for r in readers {
            let (status, v) = r.await.expect("a reader");
            assert_eq!(status, StatusCode::OK, "{point}: {v}");
        }
        let (status, mut record) = call(&app, "GET", &format!("/api/duel/{id}/record"), None, None).await;
        assert_eq!(status, StatusCode::OK, "{point}: {record}");
        record.as_object_mut().expect("an object").remove("finished_at");
        assert_eq!(record, whole, "{point}");
        let (status, g) = call(&app, "GET", &format!("/api/duel/{id}"), None, None).await;
        assert_eq!(status, StatusCode::OK, "{point}: {g}");
        assert_eq!(g["status"], whole["status"], "{point}");
        assert_eq!(s.load(&id).await.expect("load").expect("game").standing, store::Standing::Finished, "{point}");
        assert_eq!(s.results_of(&id).await.expect("results").len(), 1, "{point}: kept once");
    }
}

/// A 5 × 4 Duel against the easy computer, set up in three rounds and ended at once: its id.
async fn a_short_duel(app: &axum::Router) -> String {
    let id = post(app, "/api/duel", Some(json!({"difficulty": "easy", "width": 5, "height": 4}))).await["id"]
        .as_str()
        .expect("id")
        .to_string();
    for (route, body) in [
        ("place", Some(json!({"cell": "c2", "key": "b"}))),
        ("next-round", None),
        ("place", Some(json!({"cell": "a1", "key": "6"}))),
        ("next-round", None),
        ("place", Some(json!({"cell": "e4", "key": "1"}))),
        ("next-round", None),
        ("end", None),
    ] {
        post(app, &format!("/api/duel/{id}/{route}"), body).await;
    }
    id
}
