//! Accounts through the HTTP API, and the attacks on them: a request forged by another site, a
//! signed-out session used again, guessing passwords, learning which names exist, sitting
//! under an account's name, and what deleting an account leaves.

use axum::http::StatusCode;
use serde_json::{json, Value};

const HOST: &str = "127.0.0.1:8080";

mod common;

use common::people::{server, Answer};

/// One request from `addr`, with the headers given (the `Host` is always set), JSON when a
/// body is given.
async fn send(
    app: &axum::Router,
    addr: &str,
    method: &str,
    uri: &str,
    headers: &[(&str, &str)],
    body: Option<Value>,
) -> Answer {
    common::people::send_from(app, HOST, addr, method, uri, headers, body).await
}

const ME: &str = "10.0.0.1";

async fn sign_up(app: &axum::Router, name: &str, password: &str) -> String {
    let a = send(app, ME, "POST", "/api/account/sign-up", &[], Some(json!({"name": name, "password": password}))).await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.body);
    a.cookie().expect("a session cookie")
}

async fn me(app: &axum::Router, cookie: &str) -> Value {
    let a = send(app, ME, "GET", "/api/account", &[("cookie", cookie)], None).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.body);
    a.body["account"].clone()
}

#[tokio::test]
async fn sign_up_sign_in_and_out_with_a_password_the_store_keeping_only_hashes() {
    let (app, dir) = server(server::Config::default()).await;
    let a =
        send(&app, ME, "POST", "/api/account/sign-up", &[], Some(json!({"name": "Ann", "password": "pass word 1"})))
            .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.body);
    let set = a.headers.get("set-cookie").and_then(|v| v.to_str().ok()).expect("set-cookie").to_string();
    for part in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age="] {
        assert!(set.contains(part), "{set}");
    }
    assert!(!set.contains("Secure"), "not Secure on loopback: {set}");
    assert_eq!(a.body["account"]["name"], "Ann");
    assert_eq!(a.body["account"]["password"], true);
    let cookie = a.cookie().expect("cookie");
    assert_eq!(me(&app, &cookie).await["name"], "Ann");
    assert_eq!(me(&app, "tabletop_session=0123").await, Value::Null, "an unknown session is a guest's");

    // Signed in again, with the name in any case.
    let b =
        send(&app, ME, "POST", "/api/account/sign-in", &[], Some(json!({"name": "aNN", "password": "pass word 1"})))
            .await;
    assert_eq!(b.status, StatusCode::OK, "{}", b.body);
    let second = b.cookie().expect("cookie");
    assert_ne!(second, cookie);

    // The database holds neither token, nor the password.
    let token = cookie.split_once('=').expect("pair").1.to_string();
    let mut bytes = Vec::new();
    for entry in std::fs::read_dir(dir.path()).expect("dir") {
        bytes.extend(std::fs::read(entry.expect("entry").path()).expect("file"));
    }
    let text = String::from_utf8_lossy(&bytes);
    assert!(!text.contains(&token), "a session token is in the database");
    assert!(!text.contains("pass word 1"), "the password is in the database");
    assert!(text.contains("$argon2id$"), "no Argon2id hash in the database");

    // Signed out: that cookie is a guest's; the other session lives on.
    let out = send(&app, ME, "POST", "/api/account/sign-out", &[("cookie", &cookie)], None).await;
    assert_eq!(out.status, StatusCode::NO_CONTENT);
    let clear = out.headers.get("set-cookie").and_then(|v| v.to_str().ok()).expect("cleared");
    assert!(clear.contains("Max-Age=0"), "{clear}");
    assert_eq!(me(&app, &cookie).await, Value::Null);
    assert_eq!(me(&app, &second).await["name"], "Ann");
}

#[tokio::test]
async fn a_request_forged_by_another_site_cannot_act_with_the_victim_s_cookie() {
    let (app, _dir) = server(server::Config::default()).await;
    let cookie = sign_up(&app, "Ann", "pass word 1").await;
    let table = json!({"seats": [{"kind": "human"}, {"kind": "human"}]});
    let forged: [&[(&str, &str)]; 3] = [
        &[("origin", "https://evil.example")],
        &[("sec-fetch-site", "cross-site")],
        &[("sec-fetch-site", "same-site"), ("origin", "http://games.127.0.0.1:8080")],
    ];
    for extra in forged {
        let mut h = vec![("cookie", cookie.as_str())];
        h.extend_from_slice(extra);
        for (method, uri, body) in [
            ("POST", "/api/tables", Some(table.clone())),
            ("POST", "/api/account/sign-out-everywhere", None),
            ("POST", "/api/account/delete", None),
            ("POST", "/api/account/sign-out", None),
        ] {
            let a = send(&app, ME, method, uri, &h, body).await;
            assert_eq!(a.status, StatusCode::FORBIDDEN, "{uri} {extra:?}: {}", a.body);
            assert_eq!(a.body["code"], "cross_site");
        }
        // A forged sign-in (the victim signed into the forger's account) too, cookie or not.
        let a = send(
            &app,
            ME,
            "POST",
            "/api/account/sign-in",
            extra,
            Some(json!({"name": "Ann", "password": "pass word 1"})),
        )
        .await;
        assert_eq!(a.status, StatusCode::FORBIDDEN, "{extra:?}");
    }
    // Nothing happened: still signed in, the account still there.
    assert_eq!(me(&app, &cookie).await["name"], "Ann");
    // The same requests from this site's own pages pass.
    let h = [("cookie", cookie.as_str()), ("origin", "http://127.0.0.1:8080"), ("sec-fetch-site", "same-origin")];
    let a = send(&app, ME, "POST", "/api/tables", &h, Some(table)).await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.body);
    assert_eq!(a.body["table"]["seats"][0]["name"], "Ann");
    // A seat token with no cookie (the API, another program) is no browser's: it is not checked.
    let token = a.body["token"].as_str().expect("token").to_string();
    let id = a.body["id"].as_str().expect("id").to_string();
    let bearer = format!("Bearer {token}");
    let left = send(
        &app,
        ME,
        "POST",
        &format!("/api/tables/{id}/leave"),
        &[("authorization", &bearer), ("origin", "https://x.example")],
        None,
    )
    .await;
    assert_eq!(left.status, StatusCode::NO_CONTENT, "{}", left.body);
}

#[tokio::test]
async fn signing_out_everywhere_refuses_every_session_at_once() {
    let (app, _dir) = server(server::Config::default()).await;
    let first = sign_up(&app, "Ann", "pass word 1").await;
    let mut others = Vec::new();
    for _ in 0..2 {
        let a = send(
            &app,
            ME,
            "POST",
            "/api/account/sign-in",
            &[],
            Some(json!({"name": "Ann", "password": "pass word 1"})),
        )
        .await;
        others.push(a.cookie().expect("cookie"));
    }
    let a = send(&app, ME, "POST", "/api/account/sign-out-everywhere", &[("cookie", &first)], None).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.body);
    assert_eq!(a.body["sessions"], 3);
    for c in others.iter().chain([&first]) {
        assert_eq!(me(&app, c).await, Value::Null);
        let d = send(&app, ME, "GET", "/api/account/data", &[("cookie", c)], None).await;
        assert_eq!(d.status, StatusCode::UNAUTHORIZED);
        assert_eq!(d.body["code"], "not_signed_in");
        // At a table the old cookie is a guest's, and a guest cannot sit under Ann's name.
        let t = send(
            &app,
            ME,
            "POST",
            "/api/tables",
            &[("cookie", c)],
            Some(json!({"name": "Ann", "seats": [{"kind": "human"}, {"kind": "human"}]})),
        )
        .await;
        assert_eq!(t.status, StatusCode::CONFLICT, "{}", t.body);
        assert_eq!(t.body["code"], "name_owned");
    }
}

#[tokio::test]
async fn guessing_passwords_is_slowed_per_name_and_per_address() {
    use store::people::Limit;
    let mut config = server::Config::default();
    config.accounts.sign_in_per_name = Limit { limit: 3, window_ms: 60_000 };
    config.accounts.sign_in_per_address = Limit { limit: 5, window_ms: 60_000 };
    let (app, _dir) = server(config).await;
    sign_up(&app, "Ann", "pass word 1").await;
    let try_in = |addr: &'static str, name: &'static str, password: &'static str| {
        let app = app.clone();
        async move {
            send(&app, addr, "POST", "/api/account/sign-in", &[], Some(json!({"name": name, "password": password})))
                .await
        }
    };
    // Three wrong guesses at Ann from three addresses: the name's limit is reached...
    for addr in ["10.0.1.1", "10.0.1.2", "10.0.1.3"] {
        let a = try_in(addr, "Ann", "guess").await;
        assert_eq!(a.status, StatusCode::UNAUTHORIZED, "{}", a.body);
    }
    // ...so even the right password waits, from anywhere, and is told for how long.
    let a = try_in("10.0.1.4", "ann", "pass word 1").await;
    assert_eq!(a.status, StatusCode::TOO_MANY_REQUESTS, "{}", a.body);
    assert_eq!(a.body["code"], "too_many_attempts");
    let retry: u64 =
        a.headers.get("retry-after").and_then(|v| v.to_str().ok()).and_then(|v| v.parse().ok()).expect("retry");
    assert!((1..=60).contains(&retry), "{retry}");

    // One address guessing many names is stopped after five tries, whatever the names.
    for name in ["b1", "b2", "b3", "b4", "b5"] {
        assert_eq!(try_in("10.0.2.1", name, "guess").await.status, StatusCode::UNAUTHORIZED);
    }
    assert_eq!(try_in("10.0.2.1", "b6", "guess").await.status, StatusCode::TOO_MANY_REQUESTS);
    // Another address is not held up by it.
    assert_eq!(try_in("10.0.2.2", "b7", "guess").await.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_sign_in_says_the_same_and_does_the_same_work_whether_or_not_the_name_exists() {
    let (app, _dir) = server(server::Config::default()).await;
    sign_up(&app, "Ann", "pass word 1").await;
    let checks = server::accounts::password_checks();
    let wrong =
        send(&app, ME, "POST", "/api/account/sign-in", &[], Some(json!({"name": "Ann", "password": "guess 123"})))
            .await;
    let after_wrong = server::accounts::password_checks();
    let nobody = send(
        &app,
        "10.0.0.2",
        "POST",
        "/api/account/sign-in",
        &[],
        Some(json!({"name": "Nobody", "password": "guess 123"})),
    )
    .await;
    let after_nobody = server::accounts::password_checks();
    assert_eq!((wrong.status, nobody.status), (StatusCode::UNAUTHORIZED, StatusCode::UNAUTHORIZED));
    assert_eq!(wrong.body, nobody.body, "the wording tells which names exist");
    assert_eq!(wrong.body["code"], "sign_in_failed");
    // An Argon2id check each (the unknown name's against a stand-in hash), so they take as long.
    assert!(after_wrong > checks && after_nobody > after_wrong, "{checks} {after_wrong} {after_nobody}");
}

#[tokio::test]
async fn an_account_s_name_is_its_own_at_every_table() {
    let (app, _dir) = server(server::Config::default()).await;
    let ann = sign_up(&app, "Ann", "pass word 1").await;
    let id = me(&app, &ann).await["id"].as_str().expect("id").to_string();
    let two = json!({"seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]});
    let t = send(&app, ME, "POST", "/api/tables", &[], Some(two.clone())).await;
    let table = t.body["id"].as_str().expect("id").to_string();
    // A guest under Ann's name, in another case, with an invisible character: refused.
    for name in ["Ann", "ANN", "A\u{200B}nn", " ann "] {
        let j = send(&app, ME, "POST", &format!("/api/tables/{table}/join"), &[], Some(json!({"name": name}))).await;
        assert_eq!(j.status, StatusCode::CONFLICT, "{name:?}: {}", j.body);
        assert_eq!(j.body["code"], "name_owned");
    }
    // Nor may a guest open a table with a seat named after her.
    let named = json!({"seats": [{"kind": "human", "name": "Bob"}, {"kind": "human", "name": "ann"}]});
    assert_eq!(send(&app, ME, "POST", "/api/tables", &[], Some(named)).await.status, StatusCode::CONFLICT);
    // Another account neither.
    let bob = sign_up(&app, "Bob", "pass word 2").await;
    let j =
        send(&app, ME, "POST", &format!("/api/tables/{table}/join"), &[("cookie", &bob)], Some(json!({"name": "Ann"})))
            .await;
    assert_eq!(j.status, StatusCode::OK, "{}", j.body);
    assert_eq!(j.body["table"]["seats"][1]["name"], "Bob", "a signed-in person sits under their own name");
    // Ann herself sits under her name, whatever she typed, and her seat says whose it is.
    let j =
        send(&app, ME, "POST", &format!("/api/tables/{table}/join"), &[("cookie", &ann)], Some(json!({"name": "x"})))
            .await;
    assert_eq!(j.status, StatusCode::OK, "{}", j.body);
    let seat = &j.body["table"]["seats"][2];
    assert_eq!((seat["name"].as_str(), seat["account"].as_str()), (Some("Ann"), Some(id.as_str())));
    // A name no account holds stays anyone's.
    let t = send(
        &app,
        ME,
        "POST",
        "/api/tables",
        &[],
        Some(json!({"name": "Cleo", "seats": [{"kind": "human"}, {"kind": "human"}]})),
    )
    .await;
    assert_eq!(t.status, StatusCode::CREATED, "{}", t.body);
}

#[tokio::test]
async fn a_deleted_account_frees_its_name_and_its_data_was_downloadable() {
    let (app, _dir) = server(server::Config::default()).await;
    let ann = sign_up(&app, "Ann", "pass word 1").await;
    let t = send(
        &app,
        ME,
        "POST",
        "/api/tables",
        &[("cookie", &ann)],
        Some(json!({"seats": [{"kind": "human"}, {"kind": "human"}]})),
    )
    .await;
    let table = t.body["id"].as_str().expect("id").to_string();
    let d = send(&app, ME, "GET", "/api/account/data", &[("cookie", &ann)], None).await;
    assert_eq!(d.status, StatusCode::OK);
    assert!(d
        .headers
        .get("content-disposition")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("attachment")));
    assert_eq!(d.body["account"]["name"], "Ann");
    assert_eq!(d.body["credentials"][0]["kind"], "password");
    assert_eq!(d.body["sessions"][0]["this_browser"], true);
    assert_eq!(d.body["seats"][0]["game_id"], table.as_str());
    let text = d.body.to_string();
    assert!(!text.contains("argon2"), "the download holds a hash: {text}");

    let del = send(&app, ME, "POST", "/api/account/delete", &[("cookie", &ann)], None).await;
    assert_eq!(del.status, StatusCode::OK, "{}", del.body);
    assert_eq!(del.body["sessions"], 1);
    assert_eq!(me(&app, &ann).await, Value::Null);
    let again =
        send(&app, ME, "POST", "/api/account/sign-in", &[], Some(json!({"name": "Ann", "password": "pass word 1"})))
            .await;
    assert_eq!(again.status, StatusCode::UNAUTHORIZED);
    // The name is free: a guest may sit under it, and a new account take it.
    let j = send(&app, ME, "POST", &format!("/api/tables/{table}/join"), &[], Some(json!({"name": "Ann"}))).await;
    assert_eq!(j.status, StatusCode::CONFLICT, "the creator's seat still shows Ann: {}", j.body);
    assert_eq!(j.body["code"], "name_taken");
    sign_up(&app, "Ann", "another pass").await;
}

#[tokio::test]
async fn sign_up_refuses_taken_names_and_short_passwords() {
    let (app, _dir) = server(server::Config::default()).await;
    sign_up(&app, "Ann", "pass word 1").await;
    let cases = [
        (json!({"name": "ann", "password": "pass word 2"}), 409, "name_unavailable"),
        (json!({"name": "heuristic", "password": "pass word 2"}), 409, "name_unavailable"),
        (json!({"name": "Bob", "password": "short"}), 422, "bad_password"),
        (json!({"name": "\u{200B}", "password": "pass word 2"}), 400, "bad_request"),
        (json!({"name": "Bob"}), 422, "invalid_body"),
    ];
    for (body, status, code) in cases {
        let a = send(&app, "10.0.3.1", "POST", "/api/account/sign-up", &[], Some(body.clone())).await;
        assert_eq!((a.status.as_u16(), a.body["code"].as_str()), (status, Some(code)), "{body}");
    }
}

#[tokio::test]
async fn a_guest_who_signs_up_keeps_the_games_their_browser_played() {
    let (app, _dir) = server(server::Config::default()).await;
    let two = json!({"name": "Cleo", "seats": [{"kind": "human"}, {"kind": "human"}]});
    // As a guest: a table with a seat of Cleo's, and a seat of another guest's.
    let t = send(&app, ME, "POST", "/api/tables", &[], Some(two.clone())).await;
    assert_eq!(t.status, StatusCode::CREATED, "{}", t.body);
    let (table, cleo) =
        (t.body["id"].as_str().expect("id").to_string(), t.body["token"].as_str().expect("t").to_string());
    let j = send(&app, ME, "POST", &format!("/api/tables/{table}/join"), &[], Some(json!({"name": "Dan"}))).await;
    assert_eq!(j.status, StatusCode::OK, "{}", j.body);
    // A guest has nothing to claim under.
    let seats = json!({"seats": [{"table": table, "token": cleo}]});
    let refused = send(&app, ME, "POST", "/api/account/claim", &[], Some(seats.clone())).await;
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED);

    let cookie = sign_up(&app, "Cleo", "pass word 1").await;
    let with = [("cookie", cookie.as_str())];
    let claim = json!({"seats": [
        {"table": table, "token": cleo},
        {"table": table, "token": "not a token"},
        {"table": "feedfeedfeedfeed", "token": cleo},
    ]});
    let c = send(&app, ME, "POST", "/api/account/claim", &with, Some(claim.clone())).await;
    assert_eq!((c.status, &c.body), (StatusCode::OK, &json!({"seats": 1})));
    let id = me(&app, &cookie).await["id"].as_str().expect("id").to_string();
    let p = send(&app, ME, "GET", &format!("/api/players/{id}"), &[], None).await;
    assert_eq!(p.body["recent"].as_array().map(Vec::len), Some(1), "{}", p.body);
    assert_eq!(p.body["recent"][0]["game_id"], table.as_str());
    assert_eq!(p.body["recent"][0]["seat"], 0);
    // Claimed again: still one game.
    let again = send(&app, ME, "POST", "/api/account/claim", &with, Some(claim)).await;
    assert_eq!(again.body, json!({"seats": 1}));
    let p = send(&app, ME, "GET", &format!("/api/players/{id}"), &[], None).await;
    assert_eq!(p.body["recent"].as_array().map(Vec::len), Some(1), "{}", p.body);

    // A signed-in person's seat is theirs: its token claims nothing for another account.
    let ann = sign_up(&app, "Ann", "pass word 2").await;
    let a = send(&app, ME, "POST", "/api/tables", &[("cookie", &ann)], Some(two)).await;
    let (ann_table, ann_token) = (a.body["id"].as_str().expect("id"), a.body["token"].as_str().expect("t"));
    let theirs = json!({"seats": [{"table": ann_table, "token": ann_token}]});
    assert_eq!(send(&app, ME, "POST", "/api/account/claim", &with, Some(theirs)).await.body, json!({"seats": 0}));
    // A claim is bounded.
    let many: Vec<Value> = (0..201).map(|_| json!({"table": table, "token": "x"})).collect();
    let big = send(&app, ME, "POST", "/api/account/claim", &with, Some(json!({ "seats": many }))).await;
    assert_eq!((big.status, big.body["code"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("invalid_body")));
}

/// Plays first legal actions (a UNO call only when nothing else is legal) at table `id` until
/// it is finished.
async fn play_out(app: &axum::Router, id: &str, tokens: &[&str]) {
    for _ in 0..20_000 {
        let mut acted = false;
        for t in tokens {
            let auth = format!("Bearer {t}");
            let v = send(app, ME, "GET", &format!("/api/tables/{id}"), &[("authorization", &auth)], None).await.body;
            if v["status"] == "finished" {
                return;
            }
            let legal = v["legal_actions"].as_array().cloned().unwrap_or_default();
            let Some(a) = legal.iter().find(|a| a["type"] != "call_uno").or(legal.first()) else { continue };
            let body = json!({"action": a, "version": v["version"]});
            let r =
                send(app, ME, "POST", &format!("/api/tables/{id}/actions"), &[("authorization", &auth)], Some(body))
                    .await;
            assert_eq!(r.status, StatusCode::OK, "{}", r.body);
            acted = true;
            break;
        }
        assert!(acted, "nobody could act");
    }
    panic!("the game did not end");
}

#[tokio::test]
async fn statistics_count_an_account_s_games_for_it_and_a_deleted_one_s_seats_say_deleted_player() {
    let (app, _dir) = server(server::Config::default()).await;
    let ann = sign_up(&app, "Ann", "pass word 1").await;
    let ann_id = me(&app, &ann).await["id"].as_str().expect("id").to_string();
    let one_round = json!({"house_rules": {"match_target": 0}, "seats": [{"kind": "human"}, {"kind": "human"}]});
    let t = send(&app, ME, "POST", "/api/tables", &[("cookie", &ann)], Some(one_round)).await;
    assert_eq!(t.status, StatusCode::CREATED, "{}", t.body);
    let id = t.body["id"].as_str().expect("id").to_string();
    let j = send(&app, ME, "POST", &format!("/api/tables/{id}/join"), &[], Some(json!({"name": "Bo"}))).await;
    assert_eq!(j.status, StatusCode::OK, "{}", j.body);
    let (ta, tb) = (t.body["token"].as_str().expect("t").to_string(), j.body["token"].as_str().expect("t").to_string());
    play_out(&app, &id, &[&ta, &tb]).await;

    let stats = send(&app, ME, "GET", "/api/stats", &[], None).await.body;
    let rows = stats["players"].as_array().cloned().expect("players");
    let row = |name: &str| rows.iter().find(|r| r["name"] == name).cloned().unwrap_or(Value::Null);
    assert_eq!(rows.len(), 2, "{stats}");
    assert_eq!(row("Ann")["account"], ann_id.as_str(), "{stats}");
    assert_eq!(row("Ann")["games"], 1);
    assert_eq!(row("Bo")["account"], Value::Null, "a guest's row names no account: {stats}");

    // Deleted, the account's games stay counted, under "deleted player", linking nowhere.
    assert_eq!(send(&app, ME, "POST", "/api/account/delete", &[("cookie", &ann)], None).await.status, StatusCode::OK);
    let stats = send(&app, ME, "GET", "/api/stats", &[], None).await.body;
    let rows = stats["players"].as_array().cloned().expect("players");
    let gone = rows.iter().find(|r| r["name"] == "deleted player").cloned().expect("the deleted account's row");
    assert_eq!((gone["games"].as_i64(), &gone["account"]), (Some(1), &Value::Null), "{stats}");
    assert!(!rows.iter().any(|r| r["name"] == "Ann"), "{stats}");
    // The game stays, its seat under "deleted player": at the table, in its record and replay.
    let view = send(&app, ME, "GET", &format!("/api/tables/{id}"), &[], None).await.body;
    assert_eq!(
        (&view["seats"][0]["name"], view["seats"][0].get("account")),
        (&json!("deleted player"), None),
        "{view}"
    );
    assert_eq!(view["seats"][1]["name"], "Bo");
    let record = send(&app, ME, "GET", &format!("/api/games/{id}/record"), &[], None).await.body;
    assert_eq!(record["seats"][0]["name"], "deleted player", "{record}");
    assert_eq!(record["seats"][0].get("account"), None);
    let frame = send(&app, ME, "GET", &format!("/api/games/{id}/replay?ply=0"), &[], None).await.body;
    assert_eq!(frame["seats"][0]["name"], "deleted player", "{frame}");
    assert!(!frame.to_string().contains(&ann_id), "the replay names the deleted account: {frame}");
}

#[tokio::test]
async fn sessions_that_ran_out_are_swept_from_the_store() {
    let dir = tempfile::tempdir().expect("dir");
    let store = store::SqliteStore::open(dir.path().join("t.db")).expect("store");
    let mut config = server::Config::default();
    config.accounts.session = std::time::Duration::from_secs(1);
    config.accounts.sweep_every = std::time::Duration::from_millis(100);
    let state = server::AppState::new(store, config).await.expect("state");
    let people = state.store().people().expect("a store that keeps people");
    let app = server::app(state);
    let cookie = sign_up(&app, "Ann", "pass word 1").await;
    let id = me(&app, &cookie).await["id"].as_str().expect("id").to_string();
    // Read as of time 0, every session kept is listed, run out or not.
    assert_eq!(people.sessions(&id, 0).await.expect("sessions").len(), 1);
    let mut left = 1;
    for _ in 0..100 {
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        left = people.sessions(&id, 0).await.expect("sessions").len();
        if left == 0 {
            break;
        }
    }
    assert_eq!(left, 0, "the session that ran out is still stored");
    assert_eq!(me(&app, &cookie).await, Value::Null);
}
