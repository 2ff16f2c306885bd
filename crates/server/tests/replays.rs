//! Kept records and replay frames, through the router: a random game played by three people,
//! every view they had captured as it happened, then compared with the frames the replay
//! route rebuilds from the record, perspective by perspective and ply by ply.
#![allow(clippy::needless_range_loop)] // seats 0..3 and the spectator at 3 index the tokens

use std::time::Duration;

use axum::http::StatusCode;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use uno::{Action, Game, GameRecord, Rules, Seat};

mod common;
use common::call;

const PLAYERS: usize = 3;

async fn open(config: server::Config) -> (server::AppState, axum::Router) {
    let store = store::SqliteStore::open_in_memory().expect("store");
    let state = server::AppState::new(store, config).await.expect("state");
    let app = server::app(state.clone());
    (state, app)
}

/// A table of three people (seed `seed`, one round): its id and the seats' tokens.
async fn table(app: &axum::Router, seed: u64) -> (String, Vec<String>) {
    let create = json!({"preset": "official", "house_rules": {"match_target": 0}, "seed": seed, "name": "P0",
        "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]});
    let (s, created) = call(app, "POST", "/api/tables", None, Some(create.to_string())).await;
    assert_eq!(s, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().expect("id").to_string();
    let mut tokens = vec![created["token"].as_str().expect("token").to_string()];
    for i in 1..PLAYERS {
        let body = json!({"name": format!("P{i}")}).to_string();
        let (_, j) = call(app, "POST", &format!("/api/tables/{id}/join"), None, Some(body)).await;
        tokens.push(j["token"].as_str().expect("token").to_string());
    }
    (id, tokens)
}

fn rules() -> Rules {
    let mut c = uno::rules::preset_config("official").expect("preset");
    c.scoring.target = None;
    Rules::new(c).expect("rules")
}

/// What each viewer (seats, then the spectator) was shown live after one ply: the view and
/// the events of that ply.
type Captured = Vec<(Value, Vec<Value>)>;

async fn capture(app: &axum::Router, id: &str, tokens: &[String], version: u64) -> Captured {
    let mut out = Vec::new();
    for v in 0..=PLAYERS {
        let t = (v < PLAYERS).then(|| tokens[v].as_str());
        let (s, view) = call(app, "GET", &format!("/api/tables/{id}"), t, None).await;
        assert_eq!(s, StatusCode::OK, "{view}");
        assert_eq!(view["version"], version);
        let events = view["events"]
            .as_array()
            .expect("events")
            .iter()
            .filter(|e| e["version"] == version)
            .map(|e| e["event"].clone())
            .collect();
        out.push((view["view"].clone(), events));
    }
    out
}

fn perspective(v: usize) -> String {
    if v < PLAYERS {
        format!("seat{v}")
    } else {
        "spectator".into()
    }
}

/// No card the viewer could not see: its own hand only, no other hand but the revealed ones
/// of a finished round, no whole table, no other seat's drawn cards.
fn assert_hides(frame: &Value, viewer: Option<usize>, game: &Game) {
    let own: Vec<String> =
        viewer.map(|s| game.hand(Seat(s as u8)).iter().map(|c| c.to_string()).collect()).unwrap_or_default();
    let hand: Vec<String> =
        frame["view"]["hand"].as_array().expect("hand").iter().map(|c| c.as_str().unwrap_or("").to_string()).collect();
    assert_eq!(hand, own, "viewer {viewer:?} was shown a hand not its own");
    assert!(frame["all_hands"].is_null(), "the whole table in a {viewer:?} frame");
    let over = matches!(game.phase(), uno::Phase::RoundOver | uno::Phase::GameOver);
    assert_eq!(frame["revealed_hands"].is_null(), !over, "hands revealed before the round ended");
    for e in frame["events"].as_array().expect("events") {
        if e["type"] == "cards_drawn" {
            let seat = e["seat"].as_u64().map(|s| s as usize);
            assert!(e["cards"].as_array().is_none_or(|c| c.is_empty()) || seat == viewer, "another seat's draw named");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_frame_is_the_live_view_and_the_record_replays_to_the_live_game() {
    let (_state, app) = open(server::Config::default()).await;
    let seed = 7;
    let (id, tokens) = table(&app, seed).await;
    let mut shadow = Game::new(rules(), PLAYERS, seed).expect("game");
    let mut games = vec![shadow.clone()];
    let mut live = vec![capture(&app, &id, &tokens, 0).await];
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    while !shadow.is_over() && games.len() < 3000 {
        let ply = games.len() - 1;
        // While the game is played: no whole table, no record, nobody else's seat, and the
        // frames a seat or a spectator may have are what they were shown.
        if ply % 5 == 0 {
            for q in ["view=all", "view=all&ply=0"] {
                let (s, v) = call(&app, "GET", &format!("/api/games/{id}/replay?{q}"), Some(&tokens[0]), None).await;
                assert_eq!((s, v["code"].as_str()), (StatusCode::FORBIDDEN, Some("game_not_over")), "{v}");
            }
            let (s, v) = call(&app, "GET", &format!("/api/games/{id}/record"), None, None).await;
            assert_eq!((s, v["code"].as_str()), (StatusCode::FORBIDDEN, Some("game_not_over")), "{v}");
            let (s, v) = call(&app, "GET", &format!("/api/games/{id}/replay?view=seat1"), Some(&tokens[0]), None).await;
            assert_eq!(s, StatusCode::FORBIDDEN, "{v}");
            let (s, v) = call(&app, "GET", &format!("/api/games/{id}/replay?view=seat1"), None, None).await;
            assert_eq!(s, StatusCode::UNAUTHORIZED, "{v}");
            let back = rng.gen_range(0..=ply);
            for v in 0..=PLAYERS {
                let t = (v < PLAYERS).then(|| tokens[v].as_str());
                let uri = format!("/api/games/{id}/replay?view={}&ply={back}", perspective(v));
                let (s, frame) = call(&app, "GET", &uri, t, None).await;
                assert_eq!(s, StatusCode::OK, "{frame}");
                assert_eq!(frame["live"], true);
                assert_eq!(frame["view"], live[back][v].0, "live frame of ply {back} for {}", perspective(v));
                assert_hides(&frame, (v < PLAYERS).then_some(v), &games[back]);
            }
        }
        let seat = shadow.current().index();
        let legal = shadow.legal_actions();
        // Mostly plays, so the round ends; now and then anything legal (a draw, an UNO call).
        let plays: Vec<Action> = legal.iter().copied().filter(|a| matches!(a, Action::Play { .. })).collect();
        let pool = if plays.is_empty() || rng.gen_bool(0.2) { &legal } else { &plays };
        let action = pool[rng.gen_range(0..pool.len())];
        let body = json!({"action": action, "version": ply}).to_string();
        let (s, r) = call(&app, "POST", &format!("/api/tables/{id}/actions"), Some(&tokens[seat]), Some(body)).await;
        assert_eq!(s, StatusCode::OK, "{r}");
        shadow.apply(Seat(seat as u8), action).expect("legal");
        games.push(shadow.clone());
        live.push(capture(&app, &id, &tokens, ply as u64 + 1).await);
    }
    assert!(shadow.is_over(), "the game did not end");
    let plies = games.len() - 1;

    // The record: the engine's format, replaying to the live game, with who played it.
    let (s, export) = call(&app, "GET", &format!("/api/games/{id}/record"), None, None).await;
    assert_eq!(s, StatusCode::OK, "{export}");
    let record = GameRecord::from_json(&export.to_string()).expect("an engine record");
    assert_eq!(record.actions.len(), plies);
    assert_eq!(record.replay().expect("replays").state_hash(), shadow.state_hash());
    assert_eq!(
        export["seats"].as_array().expect("seats").iter().map(|s| s["name"].clone()).collect::<Vec<_>>(),
        ["P0", "P1", "P2"]
    );
    assert_eq!(export["result"], serde_json::to_value(shadow.outcome()).expect("outcome"));
    assert_eq!(export["game"], 0);

    // Every frame of every perspective is what that viewer had live; the whole table is open now.
    for ply in 0..=plies {
        for v in 0..=PLAYERS {
            let uri = format!("/api/games/{id}/replay?view={}&ply={ply}", perspective(v));
            let (s, frame) = call(&app, "GET", &uri, None, None).await;
            assert_eq!(s, StatusCode::OK, "{frame}");
            assert_eq!(frame["live"], false);
            assert_eq!(frame["view"], live[ply][v].0, "frame of ply {ply} for {}", perspective(v));
            assert_eq!(frame["events"].as_array().expect("events"), &live[ply][v].1, "events of ply {ply}");
            assert_hides(&frame, (v < PLAYERS).then_some(v), &games[ply]);
        }
        let (s, all) = call(&app, "GET", &format!("/api/games/{id}/replay?view=all&ply={ply}"), None, None).await;
        assert_eq!(s, StatusCode::OK, "{all}");
        let hands: Vec<Vec<String>> =
            (0..PLAYERS).map(|p| games[ply].hand(Seat(p as u8)).iter().map(|c| c.to_string()).collect()).collect();
        assert_eq!(all["all_hands"], json!(hands));
    }
    let (s, v) = call(&app, "GET", &format!("/api/games/{id}/replay?view=seat0&ply={}", plies + 1), None, None).await;
    assert_eq!((s, v["code"].as_str()), (StatusCode::NOT_FOUND, Some("no_such_ply")), "{v}");
    let (s, v) = call(&app, "GET", &format!("/api/games/{id}/replay?view=seat9"), None, None).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    let (s, t) = call(&app, "GET", &format!("/api/games/{id}/replay?view=all&ply=0&timeline=true"), None, None).await;
    assert_eq!(s, StatusCode::OK, "{t}");
    let steps = t["timeline"].as_array().expect("timeline");
    assert_eq!(steps.len(), plies);
    for (i, step) in steps.iter().enumerate() {
        assert_eq!(step["action"], serde_json::to_value(record.actions[i].action).expect("action"));
        assert_eq!(step["turn"], games[i + 1].turns());
    }

    // A rematch: the first game stays kept, the new one is live and not exported.
    let (s, r) = call(&app, "POST", &format!("/api/tables/{id}/rematch"), Some(&tokens[0]), None).await;
    assert_eq!(s, StatusCode::OK, "{r}");
    let (s, v) = call(&app, "GET", &format!("/api/games/{id}/record"), None, None).await;
    assert_eq!((s, v["code"].as_str()), (StatusCode::FORBIDDEN, Some("game_not_over")), "{v}");
    let (s, first) = call(&app, "GET", &format!("/api/games/{id}/record?game=0"), None, None).await;
    assert_eq!(s, StatusCode::OK, "{first}");
    assert_eq!(first, export);
    let (s, v) = call(&app, "GET", &format!("/api/games/{id}/replay?game=0&view=all"), None, None).await;
    assert_eq!((s, v["ply"].as_u64()), (StatusCode::OK, Some(plies as u64)), "{v}");
    let (s, v) = call(&app, "GET", &format!("/api/games/{id}/record?game=1"), None, None).await;
    assert_eq!((s, v["code"].as_str()), (StatusCode::NOT_FOUND, Some("not_found")), "{v}");
    let (s, v) = call(&app, "GET", "/api/games/nosuchgame/record", None, None).await;
    assert_eq!(s, StatusCode::NOT_FOUND, "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_record_is_forgotten_after_the_retention() {
    let config = server::Config {
        bot_delay: Duration::ZERO,
        record_retention: Duration::from_millis(1500),
        ..Default::default()
    };
    let (state, app) = open(config).await;
    let create = json!({"preset": "official", "house_rules": {"match_target": 0}, "seed": 5,
        "seats": [{"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "heuristic"}]});
    let (s, created) = call(&app, "POST", "/api/tables", None, Some(create.to_string())).await;
    assert_eq!(s, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().expect("id").to_string();
    let mut finished = false;
    for _ in 0..2000 {
        let (_, v) = call(&app, "GET", &format!("/api/tables/{id}"), None, None).await;
        if v["status"] == "finished" {
            finished = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert!(finished, "the bots did not finish");
    let (s, v) = call(&app, "GET", &format!("/api/games/{id}/record"), None, None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["seats"][0]["bot"], "heuristic");
    // Within the retention the record stays; past it, it is forgotten.
    state.forget_old_records().await.expect("forget");
    let (s, _) = call(&app, "GET", &format!("/api/games/{id}/record"), None, None).await;
    assert_eq!(s, StatusCode::OK);
    tokio::time::sleep(Duration::from_millis(1600)).await;
    state.forget_old_records().await.expect("forget");
    let (s, v) = call(&app, "GET", &format!("/api/games/{id}/record"), None, None).await;
    assert_eq!((s, v["code"].as_str()), (StatusCode::NOT_FOUND, Some("not_found")), "{v}");
    let (s, _) = call(&app, "GET", &format!("/api/games/{id}/replay?view=all"), None, None).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_from_here_starts_a_table_at_the_position_of_a_kept_game() {
    let config = server::Config { bot_delay: Duration::ZERO, ..Default::default() };
    let (state, app) = open(config).await;
    let create = json!({"preset": "official", "house_rules": {"match_target": 0}, "seed": 9,
        "seats": [{"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "heuristic"}]});
    let (s, created) = call(&app, "POST", "/api/tables", None, Some(create.to_string())).await;
    assert_eq!(s, StatusCode::CREATED, "{created}");
    let old = created["id"].as_str().expect("id").to_string();
    let from = |ply: usize| {
        json!({"name": "Ann", "from": {"table": old, "ply": ply},
            "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]})
        .to_string()
    };
    // While the game is played, no position of it is given out.
    let (s, v) = call(&app, "POST", "/api/tables", None, Some(from(1))).await;
    assert_eq!((s, v["code"].as_str()), (StatusCode::FORBIDDEN, Some("game_not_over")), "{v}");
    let mut finished = false;
    for _ in 0..2000 {
        let (_, v) = call(&app, "GET", &format!("/api/tables/{old}"), None, None).await;
        if v["status"] == "finished" {
            finished = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert!(finished, "the bots did not finish");
    let (_, export) = call(&app, "GET", &format!("/api/games/{old}/record"), None, None).await;
    let record = GameRecord::from_json(&export.to_string()).expect("record");
    let plies = record.actions.len();
    for ply in [0, plies / 2, plies - 1] {
        let (s, made) = call(&app, "POST", "/api/tables", None, Some(from(ply))).await;
        assert_eq!(s, StatusCode::CREATED, "{made}");
        // It says which game it started from before anyone sits, and deals when every seat is
        // taken: nothing is shown of it before.
        assert_eq!(
            made["table"]["started_from"],
            json!({"table": old, "game": 0, "ply": ply, "imported": false}),
            "{made}"
        );
        assert_eq!(made["table"]["chosen_seed"], false);
        assert_eq!(made["table"]["view"], Value::Null, "{made}");
        let id = made["id"].as_str().expect("id").to_string();
        for name in ["Bob", "Cy"] {
            let join = json!({ "name": name }).to_string();
            let (s, v) = call(&app, "POST", &format!("/api/tables/{id}/join"), None, Some(join)).await;
            assert_eq!(s, StatusCode::OK, "{v}");
        }
        // The new table is the kept game at that ply as every seat saw it: the seat's view is
        // the same.
        let ann = made["token"].as_str().expect("token");
        let (_, table) = call(&app, "GET", &format!("/api/tables/{id}"), Some(ann), None).await;
        let (_, frame) = call(&app, "GET", &format!("/api/games/{old}/replay?view=seat0&ply={ply}"), None, None).await;
        assert_eq!(table["view"], frame["view"], "ply {ply}");
        // The cards no seat could see (the draw pile) were dealt again, from a fresh seed: the
        // kept game (whose every card its readers know) does not tell what comes next.
        let (_, kept) = call(&app, "GET", &format!("/api/games/{old}/position?ply={ply}"), None, None).await;
        let kept: uno::Position = serde_json::from_value(kept["position"].clone()).expect("kept position");
        let stored = state.store().load(&id).await.expect("load").expect("stored");
        let start = stored.header.decode::<GameRecord>().expect("header").start.expect("a start position");
        assert_eq!(start.hands, kept.hands, "ply {ply}");
        assert_eq!(start.discard, kept.discard, "ply {ply}");
        let sorted = |p: &uno::Position| {
            let mut v: Vec<String> = p.draw_pile.iter().map(|c| format!("{c:?}")).collect();
            v.sort();
            v
        };
        assert_eq!(sorted(&start), sorted(&kept), "ply {ply}: not the same cards");
        if kept.draw_pile.len() >= 8 {
            assert_ne!(start.draw_pile, kept.draw_pile, "ply {ply}: the draw pile kept its known order");
        }
        assert_ne!(start.seed, kept.seed, "ply {ply}: the kept game's seed draws on");
        assert!(start.rng.is_none());
    }
    let (s, v) = call(&app, "POST", "/api/tables", None, Some(from(plies + 1))).await;
    assert_eq!((s, v["code"].as_str()), (StatusCode::NOT_FOUND, Some("no_such_ply")), "{v}");
    let body = json!({"preset": "official", "from": {"table": old, "ply": 0}, "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]});
    let (s, v) = call(&app, "POST", "/api/tables", None, Some(body.to_string())).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
}
