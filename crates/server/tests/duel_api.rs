//! The Duel routes through the router: create, place, next round, move with the computer's
//! answer in the same response, end, get; errors as `{code, message}` with the engine's text.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use serde_json::{json, Value};
use tower::ServiceExt;

mod common;

/// The Duel routes of a real server (the host's, on an in-memory store), with the token each
/// game's create answered, sent with every request about that game.
#[derive(Clone)]
struct App {
    router: Router,
    tokens: Arc<Mutex<HashMap<String, String>>>,
}

async fn app() -> App {
    on(store::SqliteStore::open_in_memory().expect("store").into(), None).await
}

/// A server on `store`, knowing the tokens `tokens` holds (another server's, on the same store).
async fn on(store: store::SharedStore, tokens: Option<&App>) -> App {
    let state = server::AppState::new(store, server::Config::default()).await.expect("state");
    App { router: server::app(state), tokens: tokens.map(|t| t.tokens.clone()).unwrap_or_default() }
}

/// The game a Duel URI names (`/api/duel/{id}/...`).
fn game_of(uri: &str) -> Option<&str> {
    uri.strip_prefix("/api/duel/")?.split(['/', '?']).next()
}

async fn call(app: &App, method: &str, uri: &str, body: Option<Value>) -> (StatusCode, Value) {
    let token = game_of(uri).and_then(|id| app.tokens.lock().expect("tokens").get(id).cloned());
    send(app, method, uri, body, token.as_deref()).await
}

async fn send(app: &App, method: &str, uri: &str, body: Option<Value>, token: Option<&str>) -> (StatusCode, Value) {
    let mut req = Request::builder().method(method).uri(uri);
    if let Some(t) = token {
        req = req.header("authorization", format!("Bearer {t}"));
    }
    let body = match body {
        Some(v) => {
            req = req.header("content-type", "application/json");
            Body::from(v.to_string())
        }
        None => Body::empty(),
    };
    let res = app.router.clone().oneshot(req.body(body).expect("request")).await.expect("response");
    let status = res.status();
    let bytes = axum::body::to_bytes(res.into_body(), 1 << 20).await.expect("body");
    let value = if bytes.is_empty() { Value::Null } else { serde_json::from_slice(&bytes).expect("json body") };
    (status, value)
}

async fn create(app: &App, body: Value) -> String {
    let (status, v) = call(app, "POST", "/api/duel", Some(body)).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().expect("id").to_string();
    let token = v["token"].as_str().expect("the game's token").to_string();
    app.tokens.lock().expect("tokens").insert(id.clone(), token);
    id
}

async fn ok(app: &App, id: &str, route: &str, body: Option<Value>) -> Value {
    let (status, v) = call(app, "POST", &format!("/api/duel/{id}/{route}"), body).await;
    assert_eq!(status, StatusCode::OK, "{route}: {v}");
    v
}

async fn place(app: &App, id: &str, cell: &str, key: &str) -> (StatusCode, Value) {
    call(app, "POST", &format!("/api/duel/{id}/place"), Some(json!({"cell": cell, "key": key}))).await
}

#[tokio::test]
async fn config_offers_the_default_size_and_difficulties() {
    let (status, v) = call(&app().await, "GET", "/api/duel/config", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["default_width"], json!(duel::DEFAULT_WIDTH));
    assert_eq!(v["default_height"], json!(duel::DEFAULT_HEIGHT));
    assert_eq!(v["difficulties"], json!(["easy", "medium", "hard", "expert"]));
}

#[tokio::test]
async fn create_takes_size_and_difficulty() {
    let app = app().await;
    let (status, v) =
        call(&app, "POST", "/api/duel", Some(json!({"difficulty": "easy", "width": 7, "height": 3}))).await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(v["difficulty"], "easy");
    assert_eq!((v["width"].as_u64(), v["height"].as_u64()), (Some(7), Some(3)));
    assert_eq!(v["cells"].as_array().map(Vec::len), Some(3));
    assert_eq!(v["cells"][0].as_array().map(Vec::len), Some(7));
    assert_eq!(v["status"]["stage"], json!({"stage": "setup", "round": 1}));

    let (status, v) = call(&app, "POST", "/api/duel", Some(json!({}))).await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!((v["width"].as_u64(), v["difficulty"].as_str()), (Some(6), Some("hard")));

    let (status, v) = call(&app, "POST", "/api/duel", Some(json!({"width": 0, "height": 6}))).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(v["code"], "bad_size");
    assert_eq!(v["message"], "The grid must be 1 to 26 cells in each direction (asked for 0x6).");

    let (status, v) = call(&app, "POST", "/api/duel", Some(json!({"difficulty": "godlike"}))).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(v["code"], "invalid_body");
    assert!(v["message"].as_str().is_some_and(|m| !m.is_empty()));
}

#[tokio::test]
async fn setup_errors_carry_the_engine_message_and_change_nothing() {
    let app = app().await;
    let id = create(&app, json!({"difficulty": "easy"})).await;

    let (status, v) = place(&app, &id, "a1", "x").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(v["code"], "not_block_key");
    assert_eq!(
        v["message"],
        "In round 1 of the setup only blocks can be placed: type the letter \"b\" (you typed \"x\"). Nothing was placed."
    );
    let (_, game) = call(&app, "GET", &format!("/api/duel/{id}"), None).await;
    assert_eq!(game["cells"][0][0], json!({"kind": "empty"}));

    let (status, v) = place(&app, &id, "c3", "b").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["cells"][2][2], json!({"kind": "block"}));
    assert_eq!(v["events"], json!([{"event": "placed", "cell": "c3", "object": {"kind": "block"}}]));

    let (_, v) = place(&app, &id, "c3", "b").await;
    assert_eq!(v["code"], "cell_occupied");
    let (_, v) = place(&app, &id, "zz", "b").await;
    assert_eq!(v["code"], "bad_cell");
    let (_, v) = place(&app, &id, "g1", "b").await;
    assert_eq!(
        (v["code"].as_str(), v["message"].as_str()),
        (Some("outside_grid"), Some("Cell g1 is not on the 6x6 grid."))
    );

    ok(&app, &id, "next-round", None).await;
    let (status, v) = call(&app, "POST", &format!("/api/duel/{id}/next-round"), None).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(v["message"], "Place at least one red piece before proceeding to the next round.");
    let (_, v) = place(&app, &id, "a1", "0").await;
    assert_eq!(v["code"], "not_rank_key");
    assert_eq!(place(&app, &id, "a1", "6").await.0, StatusCode::OK);
    let (_, v) = place(&app, &id, "b1", "6").await;
    assert_eq!(v["message"], "At most 1 red piece may have the number 6. Nothing was placed.");
    // A move in the setup stage is refused with the engine's message.
    let (_, v) = call(&app, "POST", &format!("/api/duel/{id}/move"), Some(json!({"cell": "a1", "key": "s"}))).await;
    assert_eq!(v["code"], "not_playing");
    let (_, v) = call(&app, "POST", &format!("/api/duel/{id}/end"), None).await;
    assert_eq!(v["code"], "not_playing");

    ok(&app, &id, "next-round", None).await;
    let (_, v) = call(&app, "POST", &format!("/api/duel/{id}/next-round"), None).await;
    assert_eq!(v["message"], "Place at least one black piece before proceeding to the play stage.");
}

#[tokio::test]
async fn a_move_gets_the_computers_answer_in_the_same_response() {
    let app = app().await;
    let id = create(&app, json!({"difficulty": "easy", "width": 5, "height": 4})).await;
    ok(&app, &id, "next-round", None).await;
    assert_eq!(place(&app, &id, "a1", "6").await.0, StatusCode::OK);
    ok(&app, &id, "next-round", None).await;
    assert_eq!(place(&app, &id, "e4", "1").await.0, StatusCode::OK);
    let v = ok(&app, &id, "next-round", None).await;
    assert_eq!(v["status"]["stage"], json!({"stage": "play", "round": 1, "to_move": "red"}));

    let (status, v) =
        call(&app, "POST", &format!("/api/duel/{id}/move"), Some(json!({"cell": "a1", "key": "q"}))).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(v["code"], "not_move_key");
    let (_, v) = call(&app, "POST", &format!("/api/duel/{id}/move"), Some(json!({"cell": "a1", "key": "w"}))).await;
    assert_eq!(v["code"], "off_grid");
    let (_, v) = call(&app, "POST", &format!("/api/duel/{id}/move"), Some(json!({"cell": "e4", "key": "w"}))).await;
    assert_eq!(v["message"], "Select one of the red pieces: cell e4 holds a black 1.");

    let v = ok(&app, &id, "move", Some(json!({"cell": "a1", "key": "s"}))).await;
    assert_eq!(v["events"][0], json!({"event": "moved", "side": "red", "from": "a1", "to": "a2", "dir": "down"}));
    let answer = v["computer"].as_array().expect("computer events");
    assert_eq!(answer[0]["event"], "moved");
    assert_eq!(answer[0]["side"], "black");
    assert_eq!(answer[0]["from"], "e4");
    assert_eq!(v["status"]["stage"], json!({"stage": "play", "round": 2, "to_move": "red"}));
    assert_eq!(v["last_move"]["side"], "black");
    assert_eq!(v["last_move"]["from"], "e4");
    assert_eq!(v["status"]["red_left"], 1);

    let v = ok(&app, &id, "end", None).await;
    assert_eq!(v["status"]["outcome"], "draw");
    assert_eq!(v["outcome_message"], "Draw: both sides still have pieces on the grid.");
    assert_eq!(v["end_reason"], "The play stage was ended by the user.");

    // The end stage refuses everything and stays as it is.
    for (route, body) in [
        ("move", Some(json!({"cell": "a2", "key": "s"}))),
        ("place", Some(json!({"cell": "c2", "key": "b"}))),
        ("next-round", None),
        ("end", None),
    ] {
        let (status, v) = call(&app, "POST", &format!("/api/duel/{id}/{route}"), body).await;
        assert_eq!(status, StatusCode::CONFLICT, "{route}");
        assert_eq!(v["code"], "game_over");
        assert_eq!(v["message"], "The game is over; it no longer reacts to input.");
    }
    let (_, game) = call(&app, "GET", &format!("/api/duel/{id}"), None).await;
    assert_eq!(game["status"]["outcome"], "draw");
}

#[tokio::test]
async fn a_winning_attack_ends_the_game_without_a_computer_move() {
    let app = app().await;
    let id = create(&app, json!({"difficulty": "easy"})).await;
    ok(&app, &id, "next-round", None).await;
    assert_eq!(place(&app, &id, "a1", "6").await.0, StatusCode::OK);
    ok(&app, &id, "next-round", None).await;
    assert_eq!(place(&app, &id, "a2", "5").await.0, StatusCode::OK);
    ok(&app, &id, "next-round", None).await;
    let v = ok(&app, &id, "move", Some(json!({"cell": "a1", "key": "s"}))).await;
    assert_eq!(v["computer"], json!([]));
    assert_eq!(v["status"]["outcome"], "red_wins");
    assert_eq!(v["outcome_message"], "You win: no black piece is left.");
    assert_eq!(v["last_move"], json!({"side": "red", "from": "a1", "to": "a2", "eliminated": "black", "rank": 6}));
}

#[tokio::test]
async fn unknown_games_and_bad_bodies_are_clear_errors() {
    let app = app().await;
    let (status, v) = call(&app, "GET", "/api/duel/nope", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(v["code"], "not_found");
    // An action is authenticated first (a game's token), then its game looked up.
    let (status, v) = call(&app, "POST", "/api/duel/nope/next-round", None).await;
    assert_eq!((status, v["code"].as_str()), (StatusCode::UNAUTHORIZED, Some("missing_token")), "{v}");
    let (status, v) =
        send(&app, "POST", "/api/duel/nope/next-round", None, Some("0123456789abcdef0123456789abcdef")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(v["message"], "There is no Duel game \"nope\". Start a new game.");

    let id = create(&app, json!({})).await;
    let (status, v) = call(&app, "POST", &format!("/api/duel/{id}/place"), Some(json!({"cell": "a1"}))).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(v["code"], "invalid_body");
    let token = app.tokens.lock().expect("tokens")[&id].clone();
    let res = app
        .router
        .clone()
        .oneshot(
            Request::builder()
                .method("POST")
                .uri(format!("/api/duel/{id}/place"))
                .header("content-type", "application/json")
                .header("authorization", format!("Bearer {token}"))
                .body(Body::from("{not json"))
                .expect("request"),
        )
        .await
        .expect("response");
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn stored_games_come_back_after_a_restart_exactly_as_they_were() {
    let store: store::SharedStore = store::SqliteStore::open_in_memory().expect("store").into();
    let first = on(store.clone(), None).await;
    let id = create(&first, json!({"difficulty": "easy", "width": 5, "height": 5})).await;
    assert_eq!(place(&first, &id, "c3", "b").await.0, StatusCode::OK);
    ok(&first, &id, "next-round", None).await;
    assert_eq!(place(&first, &id, "a1", "6").await.0, StatusCode::OK);
    assert_eq!(place(&first, &id, "b1", "2").await.0, StatusCode::OK);
    ok(&first, &id, "next-round", None).await;
    assert_eq!(place(&first, &id, "e5", "1").await.0, StatusCode::OK);
    ok(&first, &id, "next-round", None).await;
    let before = ok(&first, &id, "move", Some(json!({"cell": "a1", "key": "s"}))).await;
    // A refused action is not stored.
    let (status, _) =
        call(&first, "POST", &format!("/api/duel/{id}/move"), Some(json!({"cell": "a2", "key": "x"}))).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);

    // A new server on the same store: the game is replayed from its log.
    let second = on(store.clone(), Some(&first)).await;
    let (status, after) = call(&second, "GET", &format!("/api/duel/{id}"), None).await;
    assert_eq!(status, StatusCode::OK);
    for field in ["cells", "status", "last_move", "difficulty", "width", "height", "rounds_without_fight"] {
        assert_eq!(after[field], before[field], "{field}");
    }
    // The replayed game tells the same history as the one that was played.
    let (_, played) = call(&first, "GET", &format!("/api/duel/{id}"), None).await;
    assert_eq!(after["history"], played["history"]);
    let v = ok(&second, &id, "end", None).await;
    assert_eq!(v["status"]["outcome"], "draw");

    let stored = store.load(&id).await.expect("load").expect("stored game");
    assert_eq!(stored.kind, store::Kind::DUEL);
    assert_eq!(stored.standing, store::Standing::Finished);
    // 3 setup rounds' worth of actions, the user's move, the computer's answer, the end.
    assert_eq!(stored.actions.len(), 10);

    let (status, v) = call(&second, "GET", "/api/duel/0123456789abcdef", None).await;
    assert_eq!((status, v["code"].as_str()), (StatusCode::NOT_FOUND, Some("not_found")));
}

#[tokio::test]
async fn a_huge_cell_or_key_is_refused_without_being_repeated() {
    let app = app().await;
    let id = create(&app, json!({})).await;
    let huge = "x".repeat(10_000);
    for (cell, key) in [("c4", huge.as_str()), (huge.as_str(), "b")] {
        let (status, v) = place(&app, &id, cell, key).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
        assert_eq!(v["code"], "too_long");
        assert!(v["message"].as_str().is_some_and(|m| m.len() < 200), "{v}");
    }
}

#[tokio::test]
async fn a_grid_without_room_for_both_sides_is_refused() {
    let app = app().await;
    let (status, v) = call(&app, "POST", "/api/duel", Some(json!({"width": 1, "height": 1}))).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(v["code"], "too_small");
    assert_eq!(
        v["message"],
        "A 1x1 grid has no room for a red and a black piece: make it at least 2 cells (for example 1x2)."
    );
    // One column: the computer's forced attack goes up the column and ends the game.
    let id = create(&app, json!({"difficulty": "easy", "width": 1, "height": 3})).await;
    ok(&app, &id, "next-round", None).await;
    assert_eq!(place(&app, &id, "a1", "6").await.0, StatusCode::OK);
    ok(&app, &id, "next-round", None).await;
    assert_eq!(place(&app, &id, "a3", "1").await.0, StatusCode::OK);
    ok(&app, &id, "next-round", None).await;
    let v = ok(&app, &id, "move", Some(json!({"cell": "a1", "key": "s"}))).await;
    assert_eq!(v["computer"][0]["dir"], "up");
    assert_eq!(v["status"]["outcome"], "black_wins");
}

#[tokio::test]
async fn a_reloaded_game_has_its_history_and_counts_rounds_without_a_fight() {
    let app = app().await;
    // A wall of blocks across the middle row: the armies never meet.
    let id = create(&app, json!({"difficulty": "easy", "width": 3, "height": 3})).await;
    for c in ["a2", "b2", "c2"] {
        assert_eq!(place(&app, &id, c, "b").await.0, StatusCode::OK);
    }
    ok(&app, &id, "next-round", None).await;
    assert_eq!(place(&app, &id, "a1", "4").await.0, StatusCode::OK);
    ok(&app, &id, "next-round", None).await;
    assert_eq!(place(&app, &id, "a3", "2").await.0, StatusCode::OK);
    let v = ok(&app, &id, "next-round", None).await;
    assert_eq!(v["rounds_without_fight"], 1);
    // Only a GET carries the history.
    assert!(v.get("history").is_none());
    let mut last = v;
    for i in 0..4 {
        let (cell, key) = if i % 2 == 0 { ("a1", "d") } else { ("b1", "a") };
        last = ok(&app, &id, "move", Some(json!({"cell": cell, "key": key}))).await;
    }
    assert_eq!(last["rounds_without_fight"], 5);
    assert_eq!(last["last_move"]["rank"], 2);

    let (_, game) = call(&app, "GET", &format!("/api/duel/{id}"), None).await;
    let history = game["history"].as_array().expect("history");
    // 3 blocks, 2 setup rounds, 2 pieces, play and round 1, then 4 rounds of two moves and a
    // new round each.
    assert_eq!(history.len(), 3 + 2 + 2 + 2 + 4 * 3);
    assert_eq!(history[0], json!({"event": "placed", "cell": "a2", "object": {"kind": "block"}}));
    assert_eq!(
        history[9],
        json!({"event": "moved", "side": "red", "from": "a1", "to": "b1", "dir": "right", "piece": {"side": "red", "rank": 4}})
    );
    assert_eq!(history[10]["piece"], json!({"side": "black", "rank": 2}));
}

/// A Duel game is a table of the host: only the holder of its token (its creator) acts at it,
/// on the Duel routes and on the host's own; a spectator reads it.
#[tokio::test]
async fn a_duel_game_is_played_only_with_its_own_token() {
    let app = app().await;
    let id = create(&app, json!({"difficulty": "easy"})).await;
    let other = create(&app, json!({"difficulty": "easy"})).await;
    let theirs = app.tokens.lock().expect("tokens")[&other].clone();
    let uri = format!("/api/duel/{id}/place");
    let body = json!({"cell": "c3", "key": "b"});
    let (s, v) = send(&app, "POST", &uri, Some(body.clone()), None).await;
    assert_eq!((s, v["code"].as_str()), (StatusCode::UNAUTHORIZED, Some("missing_token")), "{v}");
    for token in [theirs.as_str(), "0123456789abcdef0123456789abcdef"] {
        let (s, v) = send(&app, "POST", &uri, Some(body.clone()), Some(token)).await;
        assert_eq!((s, v["code"].as_str()), (StatusCode::FORBIDDEN, Some("bad_token")), "{v}");
    }
    // The host's route for every game's actions refuses the same.
    let act = json!({"action": {"action": "place", "cell": "c3", "key": "b"}, "version": 0}).to_string();
    let host_uri = format!("/api/tables/{id}/actions");
    for token in [None, Some(theirs.as_str())] {
        let mut req = Request::builder().method("POST").uri(&host_uri).header("content-type", "application/json");
        if let Some(t) = token {
            req = req.header("authorization", format!("Bearer {t}"));
        }
        let res =
            app.router.clone().oneshot(req.body(Body::from(act.clone())).expect("request")).await.expect("response");
        assert!(matches!(res.status(), StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN), "{}", res.status());
    }
    // Nothing was placed; anyone may still watch.
    let (s, game) = send(&app, "GET", &format!("/api/duel/{id}"), None, None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(game["cells"][2][2], json!({"kind": "empty"}));
    // Its own token places, on either route.
    assert_eq!(place(&app, &id, "c3", "b").await.0, StatusCode::OK);
    let mine = app.tokens.lock().expect("tokens")[&id].clone();
    let act = json!({"action": {"action": "place", "cell": "d3", "key": "b"}, "version": 1}).to_string();
    let req = Request::builder()
        .method("POST")
        .uri(&host_uri)
        .header("content-type", "application/json")
        .header("authorization", format!("Bearer {mine}"))
        .body(Body::from(act))
        .expect("request");
    let res = app.router.clone().oneshot(req).await.expect("response");
    assert_eq!(res.status(), StatusCode::OK);
    let (_, game) = send(&app, "GET", &format!("/api/duel/{id}"), None, None).await;
    assert_eq!(
        (game["cells"][2][2]["kind"].as_str(), game["cells"][2][3]["kind"].as_str()),
        (Some("block"), Some("block"))
    );
}

/// The same through a real server, over TCP: a move without the game's token changes nothing.
#[tokio::test]
async fn a_real_server_refuses_a_duel_move_without_its_token() {
    let (_, addr) = common::serve_on_loopback().await;
    let (s, created) = common::http(addr, "POST", "/api/duel", None, Some(&json!({"difficulty": "easy"}))).await;
    assert_eq!(s, 201, "{created}");
    let id = created["id"].as_str().expect("id");
    let token = created["token"].as_str().expect("token");
    let place = format!("/api/duel/{id}/place");
    let body = json!({"cell": "a1", "key": "b"});
    let (s, v) = common::http(addr, "POST", &place, None, Some(&body)).await;
    assert_eq!((s, v["code"].as_str()), (401, Some("missing_token")), "{v}");
    let (s, v) = common::http(addr, "POST", &place, Some("0123456789abcdef0123456789abcdef"), Some(&body)).await;
    assert_eq!((s, v["code"].as_str()), (403, Some("bad_token")), "{v}");
    let (_, game) = common::http(addr, "GET", &format!("/api/duel/{id}"), None, None).await;
    assert_eq!(game["cells"][0][0], json!({"kind": "empty"}));
    let (s, v) = common::http(addr, "POST", &place, Some(token), Some(&body)).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["cells"][0][0], json!({"kind": "block"}));
}
