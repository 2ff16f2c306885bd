//! Faults an operator meets, through the real binary on a private PostgreSQL the tests start:
//! a PostgreSQL blip during a bot's turn does not freeze the table (the bot's move is tried
//! again), and an owner that lost a table to another instance closes the table's WebSockets
//! with 4003 `table moved` (not 4002 `table closed`), so clients connect again.

use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tungstenite::client::IntoClientRequest;
use tungstenite::{Message, WebSocket};

mod common;
mod serving;
use common::Server;
use serving::{http, try_http};

/// An instance on `db` named `instance`, its tables leased for `lease_ms`.
fn start(db: &str, instance: &str, lease_ms: u64) -> Server {
    common::serve(db).args(["--bot-delay-ms", "0", "--instance", instance, "--lease-ms", &lease_ms.to_string()]).start()
}

fn get(addr: &str, id: &str, token: &str) -> Value {
    http(addr, "GET", &format!("/api/tables/{id}"), Some(token), None).1
}

/// The person's move at a table of one person (seat 0) and one bot: a card played when one
/// can be (so the turn passes), else the first legal action.
fn person_moves(addr: &str, id: &str, token: &str) -> Value {
    let mine = get(addr, id, token);
    let legal = mine["legal_actions"].as_array().expect("legal").clone();
    let action = legal.iter().find(|a| a["type"] == "play").unwrap_or(&legal[0]).clone();
    let body = json!({"action": action, "version": mine["version"]});
    let (s, r) = http(addr, "POST", &format!("/api/tables/{id}/actions"), Some(token), Some(&body));
    assert_eq!(s, 200, "{r}");
    get(addr, id, token)
}

/// Defect: a bot's move that failed because PostgreSQL was briefly away was never tried again;
/// the person could not act for it (`not_your_turn`), so the table stood still until a
/// restart. Now the bot tries again and the game goes on once the database is back.
#[test]
fn a_bot_s_move_refused_during_a_postgres_blip_is_tried_again() {
    const BOT_DELAY_MS: u64 = 2_000;
    let pg = store::testing::TempPostgres::start_or_fail();
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let db = rt.block_on(pg.create_database("blip")).expect("database");
    let a = start(&db, "a", 5_000);
    let create = json!({"preset": "official", "house_rules": {"match_target": 0}, "name": "Ann", "seed": 7,
        "bot_delay_ms": BOT_DELAY_MS, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]});
    let (s, created) = http(&a.addr, "POST", "/api/tables", None, Some(&create));
    assert_eq!(s, 201, "{created}");
    let id = created["id"].as_str().expect("id").to_string();
    let token = created["token"].as_str().expect("token").to_string();

    // Play until the person's move hands the turn to the bot, whose move then comes after its
    // delay: the database goes away meanwhile.
    let since = Instant::now();
    let (moved_at, version) = loop {
        assert!(since.elapsed() < Duration::from_secs(60), "the bot's turn never came");
        let now = get(&a.addr, &id, &token);
        assert_eq!(now["status"], "playing", "{now}");
        if now["view"]["current"] != 0 {
            std::thread::sleep(Duration::from_millis(100));
            continue;
        }
        let after = person_moves(&a.addr, &id, &token);
        let at = Instant::now();
        if after["view"]["current"] == 1 && after["status"] == "playing" {
            break (at, after["version"].as_u64().expect("version"));
        }
    };
    pg.stop().expect("stop PostgreSQL");
    let blip_until = moved_at + Duration::from_millis(BOT_DELAY_MS + 1_000);
    std::thread::sleep(blip_until.saturating_duration_since(Instant::now()));
    // The bot has tried and failed: not acknowledged, so not applied.
    assert!(moved_at.elapsed() > Duration::from_millis(BOT_DELAY_MS + 500), "the blip started too late");
    assert_eq!(get(&a.addr, &id, &token)["version"].as_u64(), Some(version));
    pg.resume().expect("start PostgreSQL again");

    let back = Instant::now();
    loop {
        let (s, now) = try_http(&a.addr, "GET", &format!("/api/tables/{id}"), Some(&token), None);
        if s == 200 && now["version"].as_u64() > Some(version) {
            eprintln!("the bot moved {:?} after PostgreSQL came back", back.elapsed());
            break;
        }
        assert!(back.elapsed() < Duration::from_secs(10), "the table froze at version {version}: {s} {now}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn open_ws(addr: &str, id: &str, token: &str) -> WebSocket<TcpStream> {
    let mut req = format!("ws://{addr}/api/tables/{id}/ws").into_client_request().expect("request");
    req.headers_mut().insert("sec-websocket-protocol", format!("tabletop, bearer.{token}").parse().expect("header"));
    let stream = TcpStream::connect(addr).expect("connect");
    stream.set_read_timeout(Some(Duration::from_millis(500))).expect("timeout");
    tungstenite::client(req, stream).map(|(ws, _)| ws).expect("upgrade")
}

/// Reads until the socket is closed (its code) or `wait` passes (`None`: silent all along).
fn close_code(ws: &mut WebSocket<TcpStream>, wait: Duration) -> Option<u16> {
    let since = Instant::now();
    while since.elapsed() < wait {
        match ws.read() {
            Ok(Message::Close(f)) => return Some(f.map(|f| u16::from(f.code)).unwrap_or(1005)),
            Ok(_) => {}
            Err(tungstenite::Error::Io(e))
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut | std::io::ErrorKind::Interrupted
                ) => {}
            Err(e) => panic!("the socket broke instead of closing: {e}"),
        }
    }
    None
}

/// Defect: an owner paused past its lease and resumed dropped the table another instance had
/// adopted, but left the table's WebSockets open and silent (they answered pings and got no
/// updates while the game went on elsewhere). Now they are closed with 4003, the code that says
/// "connect again", once the owner finds its lease gone.
#[test]
fn an_owner_that_lost_its_table_closes_the_table_s_sockets_as_moved() {
    const LEASE_MS: u64 = 1_000;
    let pg = store::testing::TempPostgres::start_or_fail();
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let db = rt.block_on(pg.create_database("moved")).expect("database");
    let a = start(&db, "a", LEASE_MS);
    let b = start(&db, "b", LEASE_MS);
    let create = json!({"preset": "official", "name": "Ann", "seed": 3,
        "seats": [{"kind": "human"}, {"kind": "human"}]});
    let (s, created) = http(&a.addr, "POST", "/api/tables", None, Some(&create));
    assert_eq!(s, 201, "{created}");
    let id = created["id"].as_str().expect("id").to_string();
    let token = created["token"].as_str().expect("token").to_string();
    let mut ws = open_ws(&a.addr, &id, &token);
    let first = ws.read().expect("first message");
    assert!(first.is_text(), "{first:?}");

    a.signal("-STOP");
    let since = Instant::now();
    // b adopts the table once a's lease runs out.
    loop {
        let (s, _) = try_http(&b.addr, "GET", &format!("/api/tables/{id}"), Some(&token), None);
        if s == 200 {
            break;
        }
        assert!(since.elapsed() < Duration::from_secs(10), "b never adopted the table");
        std::thread::sleep(Duration::from_millis(100));
    }
    a.signal("-CONT");
    // a finds its lease gone within a renewal or a scan (a third and a half of a lease).
    let code = close_code(&mut ws, Duration::from_millis(LEASE_MS * 2 + 3_000));
    assert_eq!(code, Some(4003), "the socket on the old owner was not told the table moved");
}

/// Defect: an owner resumed after a pause past its lease served the state it held before the
/// pause (reads returned versions up to 20 behind, going backwards for a client) until it
/// noticed the lease gone. Now a lease not renewed within its time stops reads as well as
/// writes until it is checked again: a read that reaches the old owner as it resumes is not
/// answered from stale memory.
#[test]
fn a_resumed_owner_whose_lease_lapsed_serves_no_stale_read() {
    const LEASE_MS: u64 = 1_000;
    let pg = store::testing::TempPostgres::start_or_fail();
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let db = rt.block_on(pg.create_database("lapsed")).expect("database");
    let a = start(&db, "a", LEASE_MS);
    let b = start(&db, "b", LEASE_MS);
    let create = json!({"preset": "official", "name": "Ann", "seed": 5,
        "seats": [{"kind": "human"}, {"kind": "human"}]});
    let (s, created) = http(&a.addr, "POST", "/api/tables", None, Some(&create));
    assert_eq!(s, 201, "{created}");
    let id = created["id"].as_str().expect("id").to_string();
    let ann = created["token"].as_str().expect("token").to_string();
    let (_, joined) = http(&a.addr, "POST", &format!("/api/tables/{id}/join"), None, Some(&json!({"name": "Bob"})));
    let tokens = [ann, joined["token"].as_str().expect("token").to_string()];
    assert!(serving::play_one(&a.addr, &id, &tokens));

    a.signal("-STOP");
    let since = Instant::now();
    loop {
        let (s, _) = try_http(&b.addr, "GET", &format!("/api/tables/{id}"), Some(&tokens[0]), None);
        if s == 200 {
            break;
        }
        assert!(since.elapsed() < Duration::from_secs(10), "b never adopted the table");
        std::thread::sleep(Duration::from_millis(100));
    }
    // The game moves on at b.
    assert!(serving::play_one(&b.addr, &id, &tokens) && serving::play_one(&b.addr, &id, &tokens));
    let now = get(&b.addr, &id, &tokens[0])["version"].as_u64().expect("version");
    // Reads sent to a while it is paused (the kernel takes the connections) are the first
    // thing it sees when it runs again.
    let reads: Vec<_> = (0..4)
        .map(|_| {
            let (addr, path, token) = (a.addr.clone(), format!("/api/tables/{id}"), tokens[0].clone());
            std::thread::spawn(move || try_http(&addr, "GET", &path, Some(&token), None))
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    a.signal("-CONT");
    for r in reads {
        let (s, v) = r.join().expect("read");
        assert!(s != 200 || v["version"].as_u64() == Some(now), "a stale read from the resumed owner: {s} {v}");
    }
}

/// A server whose log (standard error) goes to `log`, with no `RUST_LOG`: what an operator
/// gets by default.
fn start_logged(db: &str, instance: &str, lease_ms: u64, nats: Option<&str>, log: &std::path::Path) -> Server {
    let mut serve = common::serve(db).args([
        "--bot-delay-ms",
        "0",
        "--instance",
        instance,
        "--lease-ms",
        &lease_ms.to_string(),
        "--metrics-token",
        METRICS_TOKEN,
    ]);
    if let Some(url) = nats {
        serve = serve.args(["--nats", url]);
    }
    let err = std::fs::File::create(log).expect("log file");
    serve.command().env_remove("RUST_LOG").stderr(err);
    serve.start()
}

/// The operator's token for `/metrics` on the game port (`--metrics-token`).
const METRICS_TOKEN: &str = "operator-secret";

/// `GET /metrics` with the operator's token: each sample's value by its name (labels included).
fn metrics(addr: &str) -> std::collections::HashMap<String, f64> {
    let mut s = TcpStream::connect(addr).expect("connect");
    use std::io::{Read, Write};
    write!(
        s,
        "GET /metrics HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {METRICS_TOKEN}\r\nConnection: close\r\n\r\n"
    )
    .expect("send");
    let mut text = String::new();
    s.read_to_string(&mut text).expect("read");
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
    assert!(text.to_ascii_lowercase().contains("content-type: text/plain; version=0.0.4"), "{text}");
    let body = text.split("\r\n\r\n").nth(1).unwrap_or("");
    body.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let (name, value) = l.rsplit_once(' ')?;
            Some((name.to_string(), value.parse().ok()?))
        })
        .collect()
}

/// Defect: an operator saw no failover without `RUST_LOG=info`, and had no counters. Now an
/// adoption is logged at `info` by default, and `/metrics` (Prometheus' text format) counts
/// actions, adoptions, lease renewals, store writes and sockets.
#[test]
fn a_failover_is_logged_by_default_and_counted_in_metrics() {
    const LEASE_MS: u64 = 1_000;
    let pg = store::testing::TempPostgres::start_or_fail();
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let db = rt.block_on(pg.create_database("metrics")).expect("database");
    let logs = tempfile::tempdir().expect("temp");
    let mut a = start_logged(&db, "a", LEASE_MS, None, &logs.path().join("a.log"));
    let b = start_logged(&db, "b", LEASE_MS, None, &logs.path().join("b.log"));
    let create = json!({"preset": "official", "name": "Ann", "seed": 11,
        "seats": [{"kind": "human"}, {"kind": "human"}]});
    let (s, created) = http(&a.addr, "POST", "/api/tables", None, Some(&create));
    assert_eq!(s, 201, "{created}");
    let id = created["id"].as_str().expect("id").to_string();
    let ann = created["token"].as_str().expect("token").to_string();
    let (_, joined) = http(&a.addr, "POST", &format!("/api/tables/{id}/join"), None, Some(&json!({"name": "Bob"})));
    let tokens = [ann, joined["token"].as_str().expect("token").to_string()];
    let mut ws = open_ws(&a.addr, &id, &tokens[0]);
    assert!(ws.read().expect("first").is_text());
    assert!(serving::play_one(&a.addr, &id, &tokens) && serving::play_one(&a.addr, &id, &tokens));
    std::thread::sleep(Duration::from_millis(LEASE_MS));
    let m = metrics(&a.addr);
    assert!(m["tabletop_actions_total"] >= 2.0, "{m:?}");
    assert!(m["tabletop_store_write_seconds_count"] >= 2.0, "{m:?}");
    assert!(m["tabletop_lease_renewals_total"] >= 1.0, "{m:?}");
    assert_eq!(m["tabletop_sockets"], 1.0, "{m:?}");
    assert_eq!(m["tabletop_tables_adopted_total"], 0.0, "{m:?}");
    assert_eq!(m["tabletop_store_up"], 1.0, "{m:?}");
    assert_eq!(m["tabletop_tables_held"], 1.0, "{m:?}");
    // Without the token the game port does not serve them.
    let (s, _) = try_http(&a.addr, "GET", "/metrics", None, None);
    assert_eq!(s, 401, "metrics without the token");

    let _ = a.child.kill();
    let _ = a.child.wait();
    let since = Instant::now();
    while try_http(&b.addr, "GET", &format!("/api/tables/{id}"), Some(&tokens[0]), None).0 != 200 {
        assert!(since.elapsed() < Duration::from_secs(10), "b never adopted the table");
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(metrics(&b.addr)["tabletop_tables_adopted_total"], 1.0);
    let log = std::fs::read_to_string(logs.path().join("b.log")).expect("b's log");
    assert!(log.contains("adopted tables whose lease ran out"), "b's log without RUST_LOG:\n{log}");
}

/// Defect: during a handover (a lease run out, the adopter still rebuilding) a live table
/// answered `404 not_found`, and the page stopped reconnecting on a 404. Now a table the store
/// has in play that this instance does not hold answers a retryable `503 owner_unavailable`
/// with `Retry-After`. Here the table is held by a store whose lease has not run out, and no
/// instance serves it.
#[test]
fn a_live_table_between_owners_answers_503_not_404() {
    let pg = store::testing::TempPostgres::start_or_fail();
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let db = rt.block_on(pg.create_database("between")).expect("database");
    let a = start(&db, "a", 1_000);
    let other = store::Lease { owner: "elsewhere".into(), duration: Duration::from_secs(60) };
    let id = "0123456789abcdef";
    rt.block_on(async {
        use store::GameStore;
        let s = store::PgStore::connect_with(&db, other).await.expect("connect");
        s.create(store::testing::new_game(id, store::Kind::UNO)).await.expect("create");
    });
    let mut s = TcpStream::connect(&a.addr).expect("connect");
    use std::io::{Read, Write};
    write!(s, "GET /api/tables/{id} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").expect("send");
    let mut text = String::new();
    s.read_to_string(&mut text).expect("read");
    let (status, body) = serving::parse_answer(&text);
    assert_eq!((status, body["code"].as_str()), (503, Some("owner_unavailable")), "{text}");
    assert!(text.to_ascii_lowercase().contains("retry-after:"), "{text}");
}

/// Defect: an action forwarded to an owner that had just stopped answering failed after the
/// 2 s request time-out with 503, instead of waiting for the takeover as documented. Now an
/// action that names its version (taken at most once, whatever happens) is sent again until
/// the table's new owner answers it.
#[test]
fn an_action_forwarded_to_a_paused_owner_waits_for_the_takeover() {
    const LEASE_MS: u64 = 1_000;
    let pg = store::testing::TempPostgres::start_or_fail();
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let db = rt.block_on(pg.create_database("takeover")).expect("database");
    let nats = serving::TempNats::start();
    let logs = tempfile::tempdir().expect("temp");
    let a = start_logged(&db, "a", LEASE_MS, Some(&nats.url()), &logs.path().join("a.log"));
    let b = start_logged(&db, "b", LEASE_MS, Some(&nats.url()), &logs.path().join("b.log"));
    let create = json!({"preset": "official", "name": "Ann", "seed": 13,
        "seats": [{"kind": "human"}, {"kind": "human"}]});
    let (s, created) = http(&a.addr, "POST", "/api/tables", None, Some(&create));
    assert_eq!(s, 201, "{created}");
    let id = created["id"].as_str().expect("id").to_string();
    let ann = created["token"].as_str().expect("token").to_string();
    let (_, joined) = http(&b.addr, "POST", &format!("/api/tables/{id}/join"), None, Some(&json!({"name": "Bob"})));
    let tokens = [ann, joined["token"].as_str().expect("token").to_string()];
    let now = get(&b.addr, &id, &tokens[0]);
    let seat = now["view"]["current"].as_u64().expect("current") as usize;
    let mine = get(&b.addr, &id, &tokens[seat]);
    let body = json!({"action": mine["legal_actions"][0], "version": mine["version"]});

    a.signal("-STOP");
    let (s, r) = http(&b.addr, "POST", &format!("/api/tables/{id}/actions"), Some(&tokens[seat]), Some(&body));
    a.signal("-CONT");
    assert_eq!(s, 200, "the action through b while a was paused: {r}");
    assert_eq!(r["version"].as_u64(), mine["version"].as_u64().map(|v| v + 1), "{r}");
}

/// Defect: with PostgreSQL away an instance could not look up who holds a table, and answered
/// every read of a table held elsewhere with 503 `store_unavailable`, although the owner still
/// served it. Now it asks the instances it hears from on NATS, and the owner answers while its
/// lease runs (past it the owner refuses too: it cannot know that nobody adopted the table).
#[test]
fn reads_through_a_non_owner_go_on_while_postgres_is_down() {
    const LEASE_MS: u64 = 5_000;
    let pg = store::testing::TempPostgres::start_or_fail();
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let db = rt.block_on(pg.create_database("nonowner")).expect("database");
    let nats = serving::TempNats::start();
    let logs = tempfile::tempdir().expect("temp");
    let a = start_logged(&db, "a", LEASE_MS, Some(&nats.url()), &logs.path().join("a.log"));
    let b = start_logged(&db, "b", LEASE_MS, Some(&nats.url()), &logs.path().join("b.log"));
    let create = json!({"preset": "official", "name": "Ann", "seed": 17,
        "seats": [{"kind": "human"}, {"kind": "human"}]});
    let (s, created) = http(&a.addr, "POST", "/api/tables", None, Some(&create));
    assert_eq!(s, 201, "{created}");
    let id = created["id"].as_str().expect("id").to_string();
    let token = created["token"].as_str().expect("token").to_string();
    let at_a = get(&a.addr, &id, &token);
    // b hears a's lobby listing (once a second), and a renews its lease (every third of one).
    std::thread::sleep(Duration::from_millis(LEASE_MS / 3 + 1_200));
    pg.stop().expect("stop PostgreSQL");
    let (s, r) = try_http(&b.addr, "GET", &format!("/api/tables/{id}"), Some(&token), None);
    let _ = pg.resume();
    assert_eq!(s, 200, "a read through b with PostgreSQL down: {r}");
    assert_eq!(r["version"], at_a["version"], "{r}");
    drop(a);
}
