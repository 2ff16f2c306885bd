//! Records in and positions out, through the router: an exported record imported again plays to
//! the same final state and is kept under a new id (frames, export, no statistics); a record
//! that does not replay, or is too large, is refused; the position export of a kept game after
//! any ply is that game's whole state, in both forms, and a live game has none; one client
//! imports a bounded number of records an hour.

use std::time::Duration;

use axum::http::StatusCode;
use serde_json::{json, Value};
use uno::{Game, GameRecord, Position, Rules};

mod common;
use common::call;

async fn open() -> axum::Router {
    open_with(server::Config { bot_delay: Duration::ZERO, ..Default::default() }).await
}

async fn open_with(config: server::Config) -> axum::Router {
    let store = store::SqliteStore::open_in_memory().expect("store");
    server::app(server::AppState::new(store, config).await.expect("state"))
}

/// A finished one-round game of three heuristic bots: its id and exported record.
async fn finished(app: &axum::Router, seed: u64) -> (String, Value) {
    finished_under(app, "official", seed).await
}

async fn finished_under(app: &axum::Router, preset: &str, seed: u64) -> (String, Value) {
    let bot = json!({"kind": "bot", "bot": "heuristic"});
    let create = json!({"preset": preset, "house_rules": {"match_target": 0}, "seed": seed,
        "seats": [bot, bot, bot]});
    let (s, created) = call(app, "POST", "/api/tables", None, Some(create.to_string())).await;
    assert_eq!(s, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().expect("id").to_string();
    for _ in 0..2000 {
        if call(app, "GET", &format!("/api/tables/{id}"), None, None).await.1["status"] == "finished" {
            let (s, export) = call(app, "GET", &format!("/api/games/{id}/record"), None, None).await;
            assert_eq!(s, StatusCode::OK, "{export}");
            return (id, export);
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    panic!("the bots did not finish");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_exported_record_imports_to_the_same_game() {
    let app = open().await;
    let (id, mut export) = finished(&app, 13).await;
    let original = GameRecord::from_json(&export.to_string()).expect("record");
    let end = original.replay().expect("replays");
    // People's names in a file: kept for the replay, counted in no statistics.
    export["seats"] = json!([{"name": "Zed"}, {"name": "Yan"}, {"bot": "heuristic"}]);
    let (s, imported) = call(&app, "POST", "/api/records", None, Some(export.to_string())).await;
    assert_eq!(s, StatusCode::CREATED, "{imported}");
    let new = imported["id"].as_str().expect("id").to_string();
    assert_ne!(new, id);
    assert_eq!(
        (imported["plies"].as_u64(), imported["over"].as_bool()),
        (Some(original.actions.len() as u64), Some(true))
    );

    let (s, again) = call(&app, "GET", &format!("/api/games/{new}/record"), None, None).await;
    assert_eq!(s, StatusCode::OK, "{again}");
    assert_eq!(again["imported"], true);
    assert_eq!(again["seats"][0]["name"], "Zed");
    assert_eq!(again["seats"][2]["bot"], "heuristic");
    let record = GameRecord::from_json(&again.to_string()).expect("record");
    assert_eq!(record.replay().expect("replays").state_hash(), end.state_hash());
    assert_eq!(again["result"], export["result"]);
    // Its frames are the original's.
    for q in ["view=all", "view=seat1&ply=5"] {
        let (_, a) = call(&app, "GET", &format!("/api/games/{id}/replay?{q}"), None, None).await;
        let (s, b) = call(&app, "GET", &format!("/api/games/{new}/replay?{q}"), None, None).await;
        assert_eq!(s, StatusCode::OK, "{b}");
        assert_eq!((&a["view"], &a["all_hands"], &a["events"]), (&b["view"], &b["all_hands"], &b["events"]), "{q}");
    }
    let (_, stats) = call(&app, "GET", "/api/stats", None, None).await;
    assert_eq!(stats["players"], json!([]), "{stats}");

    // A record that does not replay, or does not fit, is refused and nothing is kept.
    let mut swapped = export.clone();
    let actions = swapped["actions"].as_array_mut().expect("actions");
    actions.swap(0, 1);
    let mut seats = export.clone();
    seats["seats"] = json!([{"name": "Zed"}]);
    let mut long_name = export.clone();
    long_name["seats"][0]["name"] = json!("x".repeat(40));
    // The names a table refuses are refused in a file too.
    let named = |name: &str| {
        let mut r = export.clone();
        r["seats"][0] = json!({"name": name});
        r.to_string()
    };
    for (body, status, code) in [
        (named("Ann\u{202E}nimda"), StatusCode::BAD_REQUEST, "bad_request"),
        (named("\u{E0041}\u{E0042}"), StatusCode::BAD_REQUEST, "bad_request"),
        (named("\u{200B}"), StatusCode::BAD_REQUEST, "bad_request"),
        (named("a\u{7}b"), StatusCode::BAD_REQUEST, "bad_request"),
        (swapped.to_string(), StatusCode::UNPROCESSABLE_ENTITY, "invalid_record"),
        (seats.to_string(), StatusCode::UNPROCESSABLE_ENTITY, "invalid_record"),
        (long_name.to_string(), StatusCode::UNPROCESSABLE_ENTITY, "too_long"),
        (json!({"players": 2}).to_string(), StatusCode::UNPROCESSABLE_ENTITY, "invalid_body"),
        ("{".to_string(), StatusCode::BAD_REQUEST, "malformed_json"),
    ] {
        let (s, v) = call(&app, "POST", "/api/records", None, Some(body)).await;
        assert_eq!((s, v["code"].as_str()), (status, Some(code)), "{v}");
    }
    // More actions than a record may have (a padded copy of the game: refused before replaying).
    let mut padded = export.clone();
    let one = padded["actions"][0].clone();
    padded["actions"] = Value::Array(vec![one; server::limits::MAX_IMPORTED_ACTIONS + 1]);
    let (s, v) = call(&app, "POST", "/api/records", None, Some(padded.to_string())).await;
    assert_eq!((s, v["code"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("invalid_record")), "{v}");
    // Larger than the limit: refused unread.
    let mut huge = export.clone();
    huge["padding"] = json!("x".repeat(server::limits::MAX_RECORD_BYTES));
    let (s, v) = call(&app, "POST", "/api/records", None, Some(huge.to_string())).await;
    assert_eq!((s, v["code"].as_str()), (StatusCode::PAYLOAD_TOO_LARGE, Some("body_too_large")), "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_imports_at_most_its_hourly_quota() {
    let app = open_with(server::Config { bot_delay: Duration::ZERO, imports_per_hour: 2, ..Default::default() }).await;
    let (_, export) = finished(&app, 19).await;
    // A refused record counts too: reading and replaying it was work.
    let mut swapped = export.clone();
    swapped["actions"].as_array_mut().expect("actions").swap(0, 1);
    let (s, v) = call(&app, "POST", "/api/records", None, Some(swapped.to_string())).await;
    assert_eq!((s, v["code"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("invalid_record")), "{v}");
    let (s, v) = call(&app, "POST", "/api/records", None, Some(export.to_string())).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let (s, v) = call(&app, "POST", "/api/records", None, Some(export.to_string())).await;
    assert_eq!((s, v["code"].as_str()), (StatusCode::TOO_MANY_REQUESTS, Some("too_many_imports")), "{v}");
    // Past the quota every import is refused alike, a malformed one too: its body is not read.
    for body in ["{", "[]", "{\"players\": 2}"] {
        let (s, v) = call(&app, "POST", "/api/records", None, Some(body.into())).await;
        assert_eq!((s, v["code"].as_str()), (StatusCode::TOO_MANY_REQUESTS, Some("too_many_imports")), "{body}: {v}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_refused_unread_is_not_counted() {
    let app = open_with(server::Config { bot_delay: Duration::ZERO, imports_per_hour: 1, ..Default::default() }).await;
    let (_, export) = finished(&app, 19).await;
    let (s, v) = call(&app, "POST", "/api/records", None, Some("{".into())).await;
    assert_eq!((s, v["code"].as_str()), (StatusCode::BAD_REQUEST, Some("malformed_json")), "{v}");
    let (s, v) = call(&app, "POST", "/api/records", None, Some(export.to_string())).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
}

/// A record file holds what an export holds and nothing else: a field no export has, `rules`
/// that are not an object (serde alone reads `[]` as the default rules), and a bot the server
/// does not know (`<script>`) are refused; a bot's name is kept in its canonical form.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_record_file_holds_only_what_an_export_holds() {
    let app = open().await;
    let (_, export) = finished(&app, 23).await;
    let with = |f: &dyn Fn(&mut Value)| {
        let mut r = export.clone();
        f(&mut r);
        r.to_string()
    };
    for (body, status, code) in [
        (with(&|r| r["rules"] = json!([])), StatusCode::UNPROCESSABLE_ENTITY, "invalid_body"),
        (with(&|r| r["rules"] = json!("official")), StatusCode::UNPROCESSABLE_ENTITY, "invalid_body"),
        (with(&|r| r["comment"] = json!("hi")), StatusCode::UNPROCESSABLE_ENTITY, "invalid_body"),
        (with(&|r| r["seats"][1]["colour"] = json!("red")), StatusCode::UNPROCESSABLE_ENTITY, "invalid_body"),
        (with(&|r| r["rules"]["scoring"]["bonus"] = json!(5)), StatusCode::UNPROCESSABLE_ENTITY, "invalid_body"),
        (with(&|r| r["seats"][0] = json!({"bot": "<script>"})), StatusCode::UNPROCESSABLE_ENTITY, "unknown_bot"),
        (
            with(&|r| r["seats"][0] = json!({"bot": "ismcts:999999999"})),
            StatusCode::UNPROCESSABLE_ENTITY,
            "unknown_bot",
        ),
        ("[]".to_string(), StatusCode::UNPROCESSABLE_ENTITY, "invalid_body"),
    ] {
        let (s, v) = call(&app, "POST", "/api/records", None, Some(body.clone())).await;
        assert_eq!((s, v["code"].as_str()), (status, Some(code)), "{body:.120}: {v}");
    }
    let (s, v) =
        call(&app, "POST", "/api/records", None, Some(with(&|r| r["seats"][0] = json!({"bot": "ismcts:500"})))).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().expect("id");
    let (_, again) = call(&app, "GET", &format!("/api/games/{id}/record"), None, None).await;
    assert_eq!(again["seats"][0]["bot"], "ismcts:500:random", "{again}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_position_export_is_the_kept_games_state_after_the_ply() {
    let app = open().await;
    let (id, export) = finished(&app, 17).await;
    let record = GameRecord::from_json(&export.to_string()).expect("record");
    let plies = record.actions.len();
    for ply in [0, 1, plies / 2, plies] {
        let (s, p) = call(&app, "GET", &format!("/api/games/{id}/position?ply={ply}"), None, None).await;
        assert_eq!(s, StatusCode::OK, "{p}");
        assert_eq!(p["ply"].as_u64(), Some(ply as u64));
        let upto = GameRecord { actions: record.actions[..ply].to_vec(), ..record.clone() };
        let want: Game = upto.replay().expect("replays");
        let position = Position::from_json(&p["position"].to_string()).expect("a position");
        assert_eq!(position, want.position(), "ply {ply}");
        let text: Position = p["text"].as_str().expect("text").parse().expect("the text form");
        assert_eq!(text, position);
        // The rules it carries play it: the same whole state.
        let rules = Rules::new(serde_json::from_value(p["rules_config"].clone()).expect("rules")).expect("rules");
        let game = Game::from_position(rules, &position).expect("a consistent position");
        assert_eq!(game.state_hash(), want.state_hash(), "ply {ply}");
        // Not seed 000's rules: no `.uno` files, and the reason.
        assert_eq!(p["uno"], Value::Null);
        assert!(p["uno_refused"].as_str().is_some_and(|r| r.contains("csce322")), "{p}");
    }
    let (s, last) = call(&app, "GET", &format!("/api/games/{id}/position"), None, None).await;
    assert_eq!((s, last["ply"].as_u64()), (StatusCode::OK, Some(plies as u64)), "{last}");
    let (s, v) = call(&app, "GET", &format!("/api/games/{id}/position?ply={}", plies + 1), None, None).await;
    assert_eq!((s, v["code"].as_str()), (StatusCode::NOT_FOUND, Some("no_such_ply")), "{v}");

    // A game in play has no position export: it would tell every hidden card.
    let create =
        json!({"preset": "official", "name": "Ann", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]});
    let (_, live) = call(&app, "POST", "/api/tables", None, Some(create.to_string())).await;
    let uri = format!("/api/games/{}/position?ply=0", live["id"].as_str().expect("id"));
    let (s, v) = call(&app, "GET", &uri, live["token"].as_str(), None).await;
    assert_eq!((s, v["code"].as_str()), (StatusCode::FORBIDDEN, Some("game_not_over")), "{v}");
}

/// A game of seed 000's rules also exports as its three `.uno` files, exactly what
/// `uno::courses::export` writes from the record; the files read back as a position.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_csce322_position_exports_as_uno_files() {
    let app = open().await;
    let (id, export) = finished_under(&app, "csce322", 5).await;
    let record = GameRecord::from_json(&export.to_string()).expect("record");
    let plies = record.actions.len();
    let mut written = 0;
    for ply in [0, 1, plies / 2, plies.saturating_sub(1), plies] {
        let (s, p) = call(&app, "GET", &format!("/api/games/{id}/position?ply={ply}"), None, None).await;
        assert_eq!(s, StatusCode::OK, "{p}");
        match uno::courses::export::export(&record, ply) {
            Ok(files) => {
                assert_eq!(p["uno"]["deck"], files.write_deck().as_str());
                assert_eq!(p["uno"]["discard"], files.write_discard().as_str());
                assert_eq!(p["uno"]["hands"], files.write_hands().as_str());
                let read = |k: &str| p["uno"][k].as_str().expect("file").as_bytes().to_vec();
                let back = uno::courses::notation::Layout::parse(&read("deck"), &read("discard"), &read("hands"))
                    .expect("the files parse");
                assert_eq!(back, files);
                assert_eq!(p["uno_refused"], Value::Null);
                written += 1;
            }
            // The game is over at its last ply: nobody plays, and the answer says so.
            Err(e) => {
                assert_eq!(p["uno"], Value::Null);
                assert_eq!(p["uno_refused"].as_str(), Some(e.to_string().as_str()));
            }
        }
    }
    assert!(written >= 3, "{written} points written");
}

/// Imports share a store-wide budget: past it the oldest imports are forgotten (their records
/// answer 404), never a game played here; and every field is bounded (a 270,000-character
/// `engine_version` is refused).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn imports_share_a_budget_and_every_field_is_bounded() {
    let probe = open().await;
    let (_, export) = finished(&probe, 29).await;
    // A budget of about two and a half imports of this record.
    let size = export.to_string().len() as u64;
    let config = server::Config { bot_delay: Duration::ZERO, import_budget_bytes: size * 5 / 2, ..Default::default() };
    let app = open_with(config).await;
    let (played, export) = finished(&app, 29).await;
    let mut ids = Vec::new();
    for _ in 0..4 {
        let (s, v) = call(&app, "POST", "/api/records", None, Some(export.to_string())).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        ids.push(v["id"].as_str().expect("id").to_string());
    }
    let status = |id: String| {
        let app = app.clone();
        async move { call(&app, "GET", &format!("/api/games/{id}/record"), None, None).await.0 }
    };
    assert_eq!(status(ids[0].clone()).await, StatusCode::NOT_FOUND, "the oldest import went first");
    assert_eq!(status(ids[1].clone()).await, StatusCode::NOT_FOUND, "and the next");
    for id in &ids[2..] {
        assert_eq!(status(id.clone()).await, StatusCode::OK, "the newest are kept");
    }
    assert_eq!(status(played).await, StatusCode::OK, "a game played here is no import");

    let mut long = export.clone();
    long["engine_version"] = json!("9".repeat(270_000));
    let (s, v) = call(&app, "POST", "/api/records", None, Some(long.to_string())).await;
    assert_eq!((s, v["code"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("too_long")), "{v}");
}

/// A record of a game the engine would not play at a table is refused at import, with its own
/// code, before anything is kept: rules past the engine's limits (64 copies of every card dealt
/// 300 a hand, the record whose playouts outran the analysis limit; hands over the limit from
/// an ordinary deck), and a start position whose own deck goes past them (hands of 150 copies of
/// one card). Before, each was kept (201), and its analysis cost minutes. Ordinary records
/// still import.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_record_the_engine_would_not_play_is_refused_at_import() {
    let app = open().await;
    let (_, export) = finished(&app, 31).await;
    let (s, v) = call(&app, "POST", "/api/records", None, Some(export.to_string())).await;
    assert_eq!(s, StatusCode::CREATED, "an exported game imports: {v}");

    // A record of no actions under `rules`, for two players.
    let fresh = |rules: Value, start: Option<Value>| {
        let mut r = json!({"engine_version": export["engine_version"], "rules": rules, "players": 2,
            "seed": "5", "actions": []});
        if let Some(start) = start {
            r["start"] = start;
        }
        r.to_string()
    };
    let official = export["rules"].clone();
    let (s, v) = call(&app, "POST", "/api/records", None, Some(fresh(official.clone(), None))).await;
    assert_eq!(s, StatusCode::CREATED, "a fresh deal of the official rules imports: {v}");

    let faces = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "skip", "reverse", "draw_two"];
    let mut huge = official.clone();
    huge["deck"]["per_color"] = faces.iter().map(|f| (f.to_string(), json!(64))).collect();
    huge["deck"]["wild"] = json!({"wild": 64, "wild_draw_four": 64});
    huge["deal"]["hand_size"] = json!(300);
    huge["scoring"]["target"] = json!("one_round");
    let mut big_hands = official.clone();
    big_hands["deal"]["hand_size"] = json!(51); // `uno::rules::MAX_HAND_SIZE` + 1

    // A start position of the official rules whose own deck is 300 red fives.
    let game = Game::new(Rules::preset("official").expect("preset"), 2, 5).expect("game");
    let five = uno::Card::colored(uno::Color::Red, uno::Face::Digit(5)).expect("a card");
    let mut start = game.position();
    start.deck = Some(vec![five; 300]);
    start.hands = vec![vec![five; 150], vec![five; 149]];
    start.draw_pile = Vec::new();
    start.discard = vec![five];
    start.color = Some(uno::Color::Red);
    start.current = uno::Seat(0);
    start.phase = uno::Phase::Play;
    start.uno_called.clear();
    start.uno_exposed = None;
    start.drawn_card = None;
    start.pending_draw = 0;
    let start = serde_json::to_value(&start).expect("position");

    for (what, body) in [
        ("64 copies of every card, hands of 300", fresh(huge.clone(), None)),
        ("hands over the limit", fresh(big_hands.clone(), None)),
        ("a start position's own deck of 300 red fives", fresh(official.clone(), Some(start))),
    ] {
        let (s, v) = call(&app, "POST", "/api/records", None, Some(body)).await;
        assert_eq!(
            (s, v["code"].as_str()),
            (StatusCode::UNPROCESSABLE_ENTITY, Some("record_over_limits")),
            "{what}: {v}"
        );
    }
    // The same rules at a table: the engine refuses to play them.
    for rules in [huge, big_hands] {
        let create =
            json!({"rules": rules, "seats": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]});
        let (s, v) = call(&app, "POST", "/api/tables", None, Some(create.to_string())).await;
        assert_eq!((s, v["code"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("invalid_rules")), "{v}");
    }
}
