//! Rated tables through the HTTP API: who may sit at one, the ratings its game's end stores
//! (with the result, at once), leaving as last place, no farming by leaving and rejoining, and
//! the profile and leaderboard that show them.

use std::net::SocketAddr;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

async fn send(
    app: &axum::Router,
    cookie: Option<&str>,
    method: &str,
    uri: &str,
    bearer: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let mut b = Request::builder().method(method).uri(uri).header("host", "127.0.0.1:8080");
    if let Some(c) = cookie {
        b = b.header("cookie", c);
    }
    if let Some(t) = bearer {
        b = b.header("authorization", format!("Bearer {t}"));
    }
    let mut req = match body {
        Some(v) => b.header("content-type", "application/json").body(Body::from(v.to_string())),
        None => b.body(Body::empty()),
    }
    .expect("request");
    let peer: SocketAddr = "10.1.0.1:4000".parse().expect("address");
    req.extensions_mut().insert(ConnectInfo(peer));
    let resp = app.clone().oneshot(req).await.expect("response");
    let status = resp.status();
    let cookie = resp.headers().get("set-cookie").and_then(|v| v.to_str().ok()).map(str::to_string);
    let bytes = resp.into_body().collect().await.expect("body").to_bytes();
    let mut v: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    if let (Some(c), Value::Object(o)) = (cookie, &mut v) {
        o.insert("cookie".into(), Value::String(c.split(';').next().unwrap_or("").to_string()));
    }
    (status, v)
}

struct Player {
    cookie: String,
    id: String,
}

async fn player(app: &axum::Router, name: &str) -> Player {
    let (s, v) =
        send(app, None, "POST", "/api/account/sign-up", None, Some(json!({"name": name, "password": "pass word 1"})))
            .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    Player { cookie: v["cookie"].as_str().expect("cookie").into(), id: v["account"]["id"].as_str().expect("id").into() }
}

async fn server() -> axum::Router {
    let store = store::SqliteStore::open_in_memory().expect("store");
    let mut config = server::Config::default();
    config.accounts.board_min_games = 1;
    server::app(server::AppState::new(store, config).await.expect("state"))
}

fn two_rated() -> Value {
    json!({"rated": true, "seats": [{"kind": "human"}, {"kind": "human"}]})
}

/// A rated table of `a` and `b`: its id and their seat tokens.
async fn seated(app: &axum::Router, a: &Player, b: &Player) -> (String, String, String) {
    let (s, t) = send(app, Some(&a.cookie), "POST", "/api/tables", None, Some(two_rated())).await;
    assert_eq!(s, StatusCode::CREATED, "{t}");
    let id = t["id"].as_str().expect("id").to_string();
    let (s, j) =
        send(app, Some(&b.cookie), "POST", &format!("/api/tables/{id}/join"), None, Some(json!({"name": "x"}))).await;
    assert_eq!(s, StatusCode::OK, "{j}");
    (id, t["token"].as_str().expect("token").into(), j["token"].as_str().expect("token").into())
}

/// Plays first legal actions (not UNO calls, when there is another) until the game is over,
/// or `plies` actions.
async fn play(app: &axum::Router, id: &str, tokens: &[&str], plies: usize) -> Value {
    for _ in 0..plies {
        let mut acted = false;
        for t in tokens {
            let (_, v) = send(app, None, "GET", &format!("/api/tables/{id}"), Some(t), None).await;
            if v["status"] == "finished" {
                return v;
            }
            let legal = v["legal_actions"].as_array().cloned().unwrap_or_default();
            let Some(a) = legal.iter().find(|a| a["type"] != "call_uno").or(legal.first()) else { continue };
            let body = json!({"action": a, "version": v["version"]});
            let (s, r) = send(app, None, "POST", &format!("/api/tables/{id}/actions"), Some(t), Some(body)).await;
            assert_eq!(s, StatusCode::OK, "{r}");
            acted = true;
            break;
        }
        assert!(acted, "nobody could act");
    }
    send(app, None, "GET", &format!("/api/tables/{id}"), Some(tokens[0]), None).await.1
}

async fn profile(app: &axum::Router, p: &Player) -> Value {
    let (s, v) = send(app, None, "GET", &format!("/api/players/{}", p.id), None, None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    v
}

#[tokio::test]
async fn a_rated_table_seats_signed_in_people_once_each() {
    let app = server().await;
    let (ann, bob) = (player(&app, "Ann").await, player(&app, "Bob").await);
    // A guest opens no rated table, and a rated table seats no bot.
    let (s, v) = send(&app, None, "POST", "/api/tables", None, Some(two_rated())).await;
    assert_eq!((s, v["code"].as_str()), (StatusCode::UNAUTHORIZED, Some("sign_in_required")));
    let bots = json!({"rated": true, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]});
    assert_eq!(send(&app, Some(&ann.cookie), "POST", "/api/tables", None, Some(bots)).await.0, StatusCode::BAD_REQUEST);
    let seeded = json!({"rated": true, "seed": 7, "seats": [{"kind": "human"}, {"kind": "human"}]});
    assert_eq!(
        send(&app, Some(&ann.cookie), "POST", "/api/tables", None, Some(seeded)).await.0,
        StatusCode::BAD_REQUEST
    );

    let (s, t) = send(&app, Some(&ann.cookie), "POST", "/api/tables", None, Some(two_rated())).await;
    assert_eq!(s, StatusCode::CREATED, "{t}");
    assert_eq!(t["table"]["turn_seconds"], 60, "a rated table has a turn timer");
    let id = t["id"].as_str().expect("id");
    let join = format!("/api/tables/{id}/join");
    // A guest may not sit, under any name.
    let (s, v) = send(&app, None, "POST", &join, None, Some(json!({"name": "Cleo"}))).await;
    assert_eq!((s, v["code"].as_str()), (StatusCode::UNAUTHORIZED, Some("sign_in_required")), "{v}");
    // Ann, signed in in a second browser, may not hold a second seat.
    let (_, again) =
        send(&app, None, "POST", "/api/account/sign-in", None, Some(json!({"name": "Ann", "password": "pass word 1"})))
            .await;
    let second = again["cookie"].as_str().expect("cookie");
    let (s, v) = send(&app, Some(second), "POST", &join, None, Some(json!({"name": "Ann 2"}))).await;
    assert_eq!((s, v["code"].as_str()), (StatusCode::CONFLICT, Some("one_seat_each")), "{v}");
    let (s, v) = send(&app, Some(&bob.cookie), "POST", &join, None, Some(json!({"name": "B"}))).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["table"]["status"], "playing");
}

#[tokio::test]
async fn a_rated_game_s_end_rates_its_players_and_shows_on_profile_and_leaderboard() {
    let app = server().await;
    let (ann, bob) = (player(&app, "Ann").await, player(&app, "Bob").await);
    let (id, ta, tb) = seated(&app, &ann, &bob).await;
    // Each seat shows the rating its person sat down with: newcomers, provisional.
    let (_, view) = send(&app, None, "GET", &format!("/api/tables/{id}"), None, None).await;
    for seat in view["seats"].as_array().expect("seats") {
        assert_eq!(seat["rating"], json!({"points": 1500, "provisional": true}), "{view}");
    }
    let end = play(&app, &id, &[&ta, &tb], 20_000).await;
    assert_eq!(end["status"], "finished", "{end}");
    let winner = end["round_result"]["match_winner"].as_u64().or(end["round_result"]["winner"].as_u64());
    let (pa, pb) = (profile(&app, &ann).await, profile(&app, &bob).await);
    for p in [&pa, &pb] {
        assert_eq!(p["ratings"][0]["pool"], "official/duel", "{p}");
        assert_eq!(p["ratings"][0]["rating"]["games"], 1);
        assert_eq!(p["ratings"][0]["rating"]["provisional"], true);
        assert_eq!(p["ratings"][0]["history"].as_array().map(Vec::len), Some(1));
        assert_eq!(p["rated_played"], 1);
        assert_eq!(p["recent"][0]["game_id"], id.as_str());
    }
    let (a, b) = (
        pa["ratings"][0]["rating"]["points"].as_i64().expect("points"),
        pb["ratings"][0]["rating"]["points"].as_i64().expect("points"),
    );
    match winner {
        Some(0) => assert!(a > 1500 && b < 1500, "{a} {b}"),
        Some(1) => assert!(b > 1500 && a < 1500, "{a} {b}"),
        _ => {}
    }
    let (s, board) = send(&app, None, "GET", "/api/leaderboard/official?size=duel", None, None).await;
    assert_eq!(s, StatusCode::OK, "{board}");
    assert_eq!(board["total"], 2);
    let top = if b > a { "Bob" } else { "Ann" };
    assert_eq!(board["rows"][0]["name"], top, "{board}");
    assert_eq!(board["rows"][0]["rank"], 1);
    assert_eq!(board["bots"].as_array().map(Vec::len), Some(4));
    // A rematch is the table's next game: rated too.
    let (s, _) = send(&app, None, "POST", &format!("/api/tables/{id}/rematch"), Some(&ta), None).await;
    assert_eq!(s, StatusCode::OK);
    // The rematch's seats show the ratings the first game left, in the lobby's list too.
    let (_, list) = send(&app, None, "GET", "/api/tables", None, None).await;
    let listed = list["tables"].as_array().and_then(|t| t.iter().find(|t| t["id"] == id.as_str())).expect("listed");
    assert_eq!(listed["seats"][0]["rating"]["points"], a, "{listed}");
    assert_eq!(listed["seats"][1]["rating"]["points"], b, "{listed}");
    let end = play(&app, &id, &[&ta, &tb], 20_000).await;
    assert_eq!(end["status"], "finished");
    assert_eq!(profile(&app, &ann).await["ratings"][0]["rating"]["games"], 2);
    assert_eq!(send(&app, None, "GET", "/api/leaderboard/nope", None, None).await.0, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn leaving_a_rated_game_is_last_place_and_leaving_and_rejoining_farms_nothing() {
    let app = server().await;
    let (ann, bob) = (player(&app, "Ann").await, player(&app, "Bob").await);
    let (id, ta, tb) = seated(&app, &ann, &bob).await;
    let state = play(&app, &id, &[&ta, &tb], 1).await;
    assert_eq!(state["status"], "playing", "{state}");
    // Bob leaves in play: rated at once, Bob last.
    let (s, _) = send(&app, Some(&bob.cookie), "POST", &format!("/api/tables/{id}/leave"), Some(&tb), None).await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    let (pa, pb) = (profile(&app, &ann).await, profile(&app, &bob).await);
    assert_eq!(pb["ratings"][0]["history"][0]["finish"], "left", "{pb}");
    assert!(pb["ratings"][0]["rating"]["points"].as_i64() < pa["ratings"][0]["rating"]["points"].as_i64());
    // He sits down again, leaves again, comes back and the game ends: nothing more is rated.
    for _ in 0..2 {
        let (s, j) =
            send(&app, Some(&bob.cookie), "POST", &format!("/api/tables/{id}/join"), None, Some(json!({"name": "b"})))
                .await;
        assert_eq!(s, StatusCode::OK, "{j}");
        let t = j["token"].as_str().expect("token").to_string();
        let (s, _) = send(&app, Some(&bob.cookie), "POST", &format!("/api/tables/{id}/leave"), Some(&t), None).await;
        assert_eq!(s, StatusCode::NO_CONTENT);
    }
    let (_, j) =
        send(&app, Some(&bob.cookie), "POST", &format!("/api/tables/{id}/join"), None, Some(json!({"name": "b"})))
            .await;
    let tb = j["token"].as_str().expect("token").to_string();
    let end = play(&app, &id, &[&ta, &tb], 20_000).await;
    assert_eq!(end["status"], "finished", "{end}");
    for p in [&ann, &bob] {
        let v = profile(&app, p).await;
        assert_eq!(v["ratings"][0]["rating"]["games"], 1, "rated once: {v}");
    }
    // The finished game's result is kept all the same (its replay).
    let (s, _) = send(&app, None, "GET", &format!("/api/games/{id}/record"), None, None).await;
    assert_eq!(s, StatusCode::OK);
}

/// Resigning a rated game in play is leaving it: last place at once, the seat the stand-in
/// bot's. Before, the bot's seat made the game unrated: a loss was dodged by resigning.
#[tokio::test]
async fn resigning_a_rated_game_is_last_place() {
    let app = server().await;
    let (ann, bob) = (player(&app, "Ann").await, player(&app, "Bob").await);
    let (id, ta, tb) = seated(&app, &ann, &bob).await;
    let state = play(&app, &id, &[&ta, &tb], 1).await;
    assert_eq!(state["status"], "playing", "{state}");
    let (s, v) = send(&app, Some(&bob.cookie), "POST", &format!("/api/tables/{id}/resign"), Some(&tb), None).await;
    assert!(s.is_success(), "{s} {v}");
    let (pa, pb) = (profile(&app, &ann).await, profile(&app, &bob).await);
    assert_eq!(pb["ratings"][0]["history"][0]["finish"], "left", "{pb}");
    assert_eq!(pa["ratings"][0]["history"][0]["finish"], "1", "{pa}");
    assert!(pb["ratings"][0]["rating"]["points"].as_i64() < pa["ratings"][0]["rating"]["points"].as_i64());
    // The seat is the stand-in bot's now, and the game is marked rated: one rated game each.
    let (_, v) = send(&app, None, "GET", &format!("/api/tables/{id}"), Some(&ta), None).await;
    let bob_seat = v["seats"].as_array().expect("seats").iter().find(|s| s["replaced"] == "Bob").cloned();
    assert_eq!(bob_seat.map(|s| s["kind"].clone()), Some(json!("bot")), "{v}");
    for p in [&ann, &bob] {
        let v = profile(&app, p).await;
        assert_eq!(v["ratings"][0]["rating"]["games"], 1, "rated once: {v}");
    }
}

#[tokio::test]
async fn a_casual_table_of_signed_in_people_rates_nothing() {
    let app = server().await;
    let (ann, bob) = (player(&app, "Ann").await, player(&app, "Bob").await);
    let (s, t) = send(
        &app,
        Some(&ann.cookie),
        "POST",
        "/api/tables",
        None,
        Some(json!({"seats": [{"kind": "human"}, {"kind": "human"}]})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED);
    let id = t["id"].as_str().expect("id").to_string();
    let (_, j) =
        send(&app, Some(&bob.cookie), "POST", &format!("/api/tables/{id}/join"), None, Some(json!({"name": "x"})))
            .await;
    let (ta, tb) = (t["token"].as_str().expect("t").to_string(), j["token"].as_str().expect("t").to_string());
    // Its seats say who sits there (their accounts) but show no rating.
    let seats = j["table"]["seats"].as_array().cloned().expect("seats");
    assert_eq!(seats[0]["account"], ann.id.as_str());
    assert_eq!(seats[1]["account"], bob.id.as_str());
    assert!(seats.iter().all(|s| s.get("rating").is_none()), "{seats:?}");
    assert_eq!(play(&app, &id, &[&ta, &tb], 20_000).await["status"], "finished");
    assert_eq!(profile(&app, &ann).await["ratings"], json!([]));
    assert_eq!(profile(&app, &ann).await["recent"][0]["game_id"], id.as_str());
}
