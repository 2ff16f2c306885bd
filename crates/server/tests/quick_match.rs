//! Quick match through the real routes: people in the queue are seated together by waves, bots
//! fill the seats after the wait each chose, quick-match tables have a clock, and however people
//! join, leave and fail to take their seats, no table is left with a ghost (a person's seat
//! nobody holds or will take).

mod common;

use std::collections::{BTreeSet, HashMap};
use std::time::{Duration, Instant};

use axum::http::StatusCode;
use common::call;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};

async fn app(config: server::Config) -> axum::Router {
    let store = store::SqliteStore::open_in_memory().expect("store");
    server::app(server::AppState::new(store, config).await.expect("state"))
}

fn quick_config() -> server::Config {
    server::Config {
        queue_interval: Duration::from_millis(100),
        bot_delay: Duration::from_millis(20),
        max_tables_per_client: 10_000,
        ..server::Config::default()
    }
}

async fn queue(app: &axum::Router, name: &str, players: Value, wait_s: u32) -> String {
    let body = json!({"preset": "official", "players": players, "name": name, "wait_s": wait_s});
    let (s, v) = call(app, "POST", "/api/queue", None, Some(body.to_string())).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    assert_eq!(v["status"]["state"], "waiting", "{v}");
    v["ticket"].as_str().expect("ticket").to_string()
}

async fn status(app: &axum::Router, ticket: &str) -> Value {
    let (s, v) = call(app, "GET", "/api/queue", Some(ticket), None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    v
}

/// Polls the ticket until it is seated; the status and how long it took.
async fn seated(app: &axum::Router, ticket: &str, within: Duration) -> (Value, Duration) {
    let start = Instant::now();
    loop {
        let v = status(app, ticket).await;
        if v["state"] == "seated" {
            return (v, start.elapsed());
        }
        assert_eq!(v["state"], "waiting", "{v}");
        assert!(start.elapsed() < within, "not seated within {within:?}: {v}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn a_lone_person_gets_bots_after_the_wait_they_chose() {
    let app = app(quick_config()).await;
    let start = Instant::now();
    let ticket = queue(&app, "Ann", json!(3), 1).await;
    let (s, _) = seated(&app, &ticket, Duration::from_secs(5)).await;
    let waited = start.elapsed();
    assert!(waited >= Duration::from_secs(1), "bots came before the wait: {waited:?}");
    assert!(waited < Duration::from_millis(1_600), "bots came late: {waited:?}");
    assert_eq!(s["people"], 1);
    let table = s["table"].as_str().expect("table");
    let token = s["token"].as_str().expect("token");
    let (code, v) = call(&app, "GET", &format!("/api/tables/{table}"), Some(token), None).await;
    assert_eq!(code, StatusCode::OK, "{v}");
    assert_eq!(v["you"], s["seat"]);
    assert_eq!(v["seats"].as_array().map(Vec::len), Some(3), "the size asked for: {v}");
    let bots = v["seats"].as_array().expect("seats").iter().filter(|s| s["kind"] == "bot").count();
    assert_eq!(bots, 2, "{v}");
    assert_eq!(v["turn_seconds"], 30, "a quick-match table has a clock: {v}");
    assert_eq!(v["status"], "playing", "{v}");
}

#[tokio::test]
async fn people_in_the_queue_together_sit_together() {
    let app = app(quick_config()).await;
    let ann = queue(&app, "Ann", json!(2), 20).await;
    let bob = queue(&app, "Ann", json!("any"), 20).await;
    let (a, _) = seated(&app, &ann, Duration::from_secs(8)).await;
    let (b, _) = seated(&app, &bob, Duration::from_secs(8)).await;
    assert_eq!(a["table"], b["table"], "{a} {b}");
    assert_ne!(a["seat"], b["seat"]);
    assert_eq!(a["people"], 2);
    let table = a["table"].as_str().expect("table");
    let (_, v) = call(&app, "GET", &format!("/api/tables/{table}"), None, None).await;
    let names: BTreeSet<&str> =
        v["seats"].as_array().expect("seats").iter().filter_map(|s| s["name"].as_str()).collect();
    assert_eq!(names, BTreeSet::from(["Ann", "Ann 2"]), "two guests of one name told apart: {v}");
}

#[tokio::test]
async fn the_queue_refuses_what_it_cannot_seat() {
    let app = app(quick_config()).await;
    for body in [
        json!({"players": 5, "name": "Ann"}),
        json!({"players": "some", "name": "Ann"}),
        json!({"players": 2, "name": " "}),
        json!({"players": 2, "name": "Ann", "preset": "nonsense"}),
        json!({"players": 2, "name": "Ann", "wait_s": 100_000}),
        json!({"players": 2, "name": "Ann", "colour": "red"}),
    ] {
        let (s, v) = call(&app, "POST", "/api/queue", None, Some(body.to_string())).await;
        assert!(s.is_client_error(), "{body} answered {s}: {v}");
    }
    let (s, _) = call(&app, "GET", "/api/queue", Some("no-such-ticket"), None).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (s, _) = call(&app, "GET", "/api/queue", None, None).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
}

/// 1,000 random joins, leaves, seats taken and seats ignored: afterwards every person's seat at
/// every quick-match table is held by someone who took it; the rest went to bots.
#[tokio::test]
async fn a_thousand_random_joins_and_leaves_leave_no_ghost_seat() {
    let config = server::Config {
        queue_interval: Duration::from_millis(20),
        seat_grace: Duration::from_millis(300),
        ..quick_config()
    };
    let app = app(config).await;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(41);
    // Tickets waiting, by ticket; whether each will take its seat when seated.
    let mut waiting: HashMap<String, bool> = HashMap::new();
    // (table, seat) taken by their person; every table seen.
    let mut taken: BTreeSet<(String, u64)> = BTreeSet::new();
    let mut tables: BTreeSet<String> = BTreeSet::new();
    let (mut joins, mut leaves, mut seatings, mut late) = (0, 0, 0, 0);
    for op in 0..1_000 {
        let roll = rng.gen_range(0..10);
        if roll < 5 || waiting.is_empty() {
            let players = match rng.gen_range(0..4) {
                0 => json!("any"),
                n => json!(n + 1),
            };
            let ticket = queue(&app, &format!("P{op}"), players, rng.gen_range(0..3)).await;
            waiting.insert(ticket, rng.gen_bool(0.7));
            joins += 1;
        } else {
            let keys: Vec<String> = waiting.keys().cloned().collect();
            let ticket = keys[rng.gen_range(0..keys.len())].clone();
            if roll < 7 {
                // Leaves the queue (perhaps just after a wave seated them: that seat goes to a bot).
                let (s, v) = call(&app, "DELETE", "/api/queue", Some(&ticket), None).await;
                assert_eq!(s, StatusCode::OK, "{v}");
                assert_eq!(v["state"], "left");
                waiting.remove(&ticket);
                leaves += 1;
            } else {
                let v = status(&app, &ticket).await;
                if v["state"] == "seated" {
                    let takes = waiting.remove(&ticket).unwrap_or(false);
                    let table = v["table"].as_str().expect("table").to_string();
                    tables.insert(table.clone());
                    seatings += 1;
                    if takes {
                        let token = v["token"].as_str().expect("token");
                        let (s, t) = call(&app, "GET", &format!("/api/tables/{table}"), Some(token), None).await;
                        match s {
                            StatusCode::OK => {
                                taken.insert((table, v["seat"].as_u64().expect("seat")));
                            }
                            // Read too late: the grace ran out and a bot holds the seat.
                            StatusCode::FORBIDDEN => late += 1,
                            _ => panic!("{s}: {t}"),
                        }
                    }
                }
            }
        }
        if rng.gen_bool(0.2) {
            tokio::time::sleep(Duration::from_millis(rng.gen_range(1..15))).await;
        }
    }
    // Everyone still waiting leaves.
    for ticket in waiting.keys() {
        let v = status(&app, ticket).await;
        if v["state"] == "seated" {
            tables.extend(v["table"].as_str().map(str::to_string));
        }
        call(&app, "DELETE", "/api/queue", Some(ticket), None).await;
    }
    // The grace runs out for the seats nobody took.
    tokio::time::sleep(Duration::from_millis(900)).await;
    let (_, listed) = call(&app, "GET", "/api/tables", None, None).await;
    tables.extend(
        listed["tables"].as_array().expect("tables").iter().filter_map(|t| t["id"].as_str().map(str::to_string)),
    );
    assert!(
        seatings > 50 && joins > 400 && leaves > 100 && taken.len() > 20,
        "a run that exercises the queue: {joins} joins, {leaves} leaves, {seatings} seated, {} taken, {late} late",
        taken.len()
    );
    eprintln!(
        "{joins} joins, {leaves} leaves, {seatings} seated, {} seats taken, {late} read after the grace",
        taken.len()
    );
    let mut people = 0;
    for id in &tables {
        let (s, v) = call(&app, "GET", &format!("/api/tables/{id}"), None, None).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        for seat in v["seats"].as_array().expect("seats") {
            if seat["kind"] == "human" {
                let at = (id.clone(), seat["seat"].as_u64().expect("seat"));
                assert!(seat["taken"] == true && taken.contains(&at), "a ghost seat at {id}: {seat}\n{v}");
                people += 1;
            } else {
                assert_eq!(seat["kind"], "bot");
            }
        }
    }
    assert_eq!(people, taken.len(), "every seat taken is a person's, and only those");
}

/// A request with a session cookie (`cookie`) and a seat token or ticket (`bearer`); a
/// `Set-Cookie` answered is put in the body as `cookie`.
async fn send(
    app: &axum::Router,
    cookie: Option<&str>,
    method: &str,
    uri: &str,
    bearer: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, Value) {
    use axum::body::Body;
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let mut b = axum::http::Request::builder().method(method).uri(uri).header("host", "127.0.0.1:8080");
    if let Some(c) = cookie {
        b = b.header("cookie", c);
    }
    if let Some(t) = bearer {
        b = b.header("authorization", format!("Bearer {t}"));
    }
    let req = match body {
        Some(v) => b.header("content-type", "application/json").body(Body::from(v.to_string())),
        None => b.body(Body::empty()),
    }
    .expect("request");
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

/// Signs `name` up: the session cookie and the account's id.
async fn sign_up(app: &axum::Router, name: &str) -> (String, String) {
    let body = json!({"name": name, "password": "pass word 1"});
    let (s, v) = send(app, None, "POST", "/api/account/sign-up", None, Some(body)).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    (v["cookie"].as_str().expect("cookie").into(), v["account"]["id"].as_str().expect("id").into())
}

/// Signed-in people join without a name and are seated as their accounts; two of them with
/// no bot sit at a rated table, where resigning in play is last place (and a rating is kept).
/// A guest may not queue under an account's name, nor an account twice at once.
#[tokio::test]
async fn signed_in_people_sit_as_their_accounts_and_resigning_a_rated_quick_match_is_last() {
    let app = app(quick_config()).await;
    let (ann, ann_id) = sign_up(&app, "Ann").await;
    let (bob, bob_id) = sign_up(&app, "Bob").await;
    let join = |cookie: Option<String>, name: Option<&str>| {
        let app = app.clone();
        let mut body = json!({"preset": "official", "players": 2, "wait_s": 20});
        if let Some(n) = name {
            body["name"] = json!(n);
        }
        async move { send(&app, cookie.as_deref(), "POST", "/api/queue", None, Some(body)).await }
    };
    let (s, v) = join(None, Some("ann")).await;
    assert_eq!(s, StatusCode::CONFLICT, "a guest under an account's name: {v}");
    let (s, v) = join(None, None).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "a guest gives a name: {v}");
    let (s, a) = join(Some(ann.clone()), None).await;
    assert_eq!(s, StatusCode::CREATED, "{a}");
    let (s, v) = join(Some(ann.clone()), Some("Other")).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "one ticket an account: {v}");
    let (s, b) = join(Some(bob.clone()), Some("Robert")).await;
    assert_eq!(s, StatusCode::CREATED, "{b}");
    let (sa, _) = seated(&app, a["ticket"].as_str().expect("ticket"), Duration::from_secs(8)).await;
    let (sb, _) = seated(&app, b["ticket"].as_str().expect("ticket"), Duration::from_secs(8)).await;
    assert_eq!(sa["table"], sb["table"], "{sa} {sb}");
    let id = sa["table"].as_str().expect("table");
    let tokens: HashMap<u64, &str> =
        [&sa, &sb].iter().map(|s| (s["seat"].as_u64().expect("seat"), s["token"].as_str().expect("token"))).collect();
    let (_, v) = send(&app, None, "GET", &format!("/api/tables/{id}"), Some(tokens[&0]), None).await;
    let names: BTreeSet<&str> =
        v["seats"].as_array().expect("seats").iter().filter_map(|s| s["name"].as_str()).collect();
    assert_eq!(names, BTreeSet::from(["Ann", "Bob"]), "seated under their accounts' names: {v}");
    // Whoever's turn it is acts once; then Bob resigns.
    let cur = v["view"]["current"].as_u64().expect("current");
    let (_, mine) = send(&app, None, "GET", &format!("/api/tables/{id}"), Some(tokens[&cur]), None).await;
    let legal = mine["legal_actions"].as_array().cloned().unwrap_or_default();
    let action = legal.iter().find(|a| a["type"] != "call_uno").or(legal.first()).expect("an action").clone();
    let body = json!({"action": action, "version": mine["version"]});
    let (s, r) = send(&app, None, "POST", &format!("/api/tables/{id}/actions"), Some(tokens[&cur]), Some(body)).await;
    assert_eq!(s, StatusCode::OK, "{r}");
    let bob_token = sb["token"].as_str().expect("token");
    let (s, r) = send(&app, Some(&bob), "POST", &format!("/api/tables/{id}/resign"), Some(bob_token), None).await;
    assert!(s.is_success(), "{s} {r}");
    let profile = |id: String| {
        let app = app.clone();
        async move { send(&app, None, "GET", &format!("/api/players/{id}"), None, None).await.1 }
    };
    let (pa, pb) = (profile(ann_id.clone()).await, profile(bob_id.clone()).await);
    assert_eq!(pb["ratings"][0]["history"][0]["finish"], "left", "resigning is last place: {pb}");
    assert_eq!(pa["ratings"][0]["history"][0]["finish"], "1", "{pa}");
    assert!(pb["ratings"][0]["rating"]["points"].as_i64() < pa["ratings"][0]["rating"]["points"].as_i64());
}
