//! Two `tabletop serve` instances on one PostgreSQL (a private server the test starts), each
//! holding its tables under a lease: when the owner of a table is killed, the other adopts the
//! table once the lease runs out and serves it exactly as acknowledged; when the owner is only
//! paused past its lease, the other adopts the table and plays on, and the old owner, resumed,
//! has its next action refused by the epoch, drops the table, and the log is the new owner's.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

mod common;
mod serving;
use serving::{http, play_one};

const LEASE_MS: u64 = 1_000;
/// Adoption comes at most one lease after the owner's last renewal plus one scan (half a lease)
/// of the adopter; this margin covers the scan, the replay and a loaded machine.
const MARGIN: Duration = Duration::from_millis(2_000);

/// An instance on `db` named `instance`, and its address.
fn start(db: &str, instance: &str) -> (common::Server, String) {
    let server = common::serve(db)
        .args(["--bot-delay-ms", "0", "--instance", instance, "--lease-ms", &LEASE_MS.to_string()])
        .start();
    let addr = server.addr.clone();
    (server, addr)
}

/// A two-seat table made on `addr`, both seats taken: its id and the seats' tokens.
fn table(addr: &str, seed: u64) -> (String, [String; 2]) {
    let create = json!({"preset": "official", "name": "Ann", "seed": seed,
        "seats": [{"kind": "human"}, {"kind": "human"}]});
    let (s, created) = http(addr, "POST", "/api/tables", None, Some(&create));
    assert_eq!(s, 201, "{created}");
    let id = created["id"].as_str().expect("id").to_string();
    let ann = created["token"].as_str().expect("token").to_string();
    let (_, joined) = http(addr, "POST", &format!("/api/tables/{id}/join"), None, Some(&json!({"name": "Bob"})));
    (id, [ann, joined["token"].as_str().expect("token").to_string()])
}

fn views(addr: &str, id: &str, tokens: &[String; 2]) -> Vec<Value> {
    tokens.iter().map(|t| http(addr, "GET", &format!("/api/tables/{id}"), Some(t), None).1).collect()
}

/// Waits until `addr` serves the table; how long that took.
fn adopted_by(addr: &str, id: &str, token: &str, since: Instant) -> Duration {
    loop {
        let (s, _) = http(addr, "GET", &format!("/api/tables/{id}"), Some(token), None);
        if s == 200 {
            return since.elapsed();
        }
        assert!(since.elapsed() < Duration::from_millis(LEASE_MS) * 3 / 2 + MARGIN * 2, "never adopted");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn stored_log_len(db: &str, id: &str) -> usize {
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    rt.block_on(async {
        let s = store::PgStore::connect_with(db, store::Lease { owner: "reader".into(), ..Default::default() })
            .await
            .expect("connect");
        use store::GameStore;
        s.load(id).await.expect("load").expect("stored").actions.len()
    })
}

#[test]
fn a_killed_owner_s_table_is_adopted_with_every_acknowledged_action() {
    let pg = store::testing::TempPostgres::start_or_fail();
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let db = rt.block_on(pg.create_database("failover")).expect("database");
    let (mut a, addr_a) = start(&db, "a");
    let (_b, addr_b) = start(&db, "b");
    let (id, tokens) = table(&addr_a, 11);
    // Not b's table while a holds it (without NATS b cannot forward): a retryable refusal, not
    // a 404 that would tell a client the table is gone.
    let (s, r) = http(&addr_b, "GET", &format!("/api/tables/{id}"), Some(&tokens[0]), None);
    assert_eq!((s, r["code"].as_str()), (503, Some("owner_unavailable")), "{r}");
    let mut acked = 0;
    while acked < 10 && play_one(&addr_a, &id, &tokens) {
        acked += 1;
    }
    assert!(acked > 3);
    let before = views(&addr_a, &id, &tokens);
    let killed = Instant::now();
    a.child.kill().expect("SIGKILL");
    let _ = a.child.wait();
    let took = adopted_by(&addr_b, &id, &tokens[0], killed);
    assert!(took <= Duration::from_millis(LEASE_MS) * 3 / 2 + MARGIN, "adopted after {took:?}");
    eprintln!("adopted {took:?} after the owner was killed (lease {LEASE_MS} ms)");
    // Every seat sees exactly what it saw, at the version of the last acknowledged action.
    for (was, now) in before.iter().zip(views(&addr_b, &id, &tokens)) {
        assert_eq!(now["version"].as_u64(), Some(acked));
        assert_eq!(was["view"], now["view"], "the view changed across the failover");
        assert_eq!(was["seats"], now["seats"]);
        assert_eq!(was["legal_actions"], now["legal_actions"]);
    }
    assert_eq!(stored_log_len(&db, &id), acked as usize);
    // The game goes on at b.
    let mut more = 0;
    while more < 5 && play_one(&addr_b, &id, &tokens) {
        more += 1;
    }
    assert_eq!(stored_log_len(&db, &id), (acked + more) as usize);
}

#[test]
fn a_paused_owner_is_fenced_and_the_log_is_the_new_owner_s() {
    let pg = store::testing::TempPostgres::start_or_fail();
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let db = rt.block_on(pg.create_database("paused")).expect("database");
    let (a, addr_a) = start(&db, "a");
    let (_b, addr_b) = start(&db, "b");
    let (id, tokens) = table(&addr_a, 23);
    let mut acked = 0;
    while acked < 6 && play_one(&addr_a, &id, &tokens) {
        acked += 1;
    }
    // What a will try to play once it runs again, from the state it holds.
    let (_, v) = http(&addr_a, "GET", &format!("/api/tables/{id}"), Some(&tokens[0]), None);
    let cur = v["view"]["current"].as_u64().expect("current") as usize;
    let (_, mine) = http(&addr_a, "GET", &format!("/api/tables/{id}"), Some(&tokens[cur]), None);
    let stale = json!({"action": mine["legal_actions"][0], "version": mine["version"]});

    let paused = Instant::now();
    a.signal("-STOP");
    let took = adopted_by(&addr_b, &id, &tokens[0], paused);
    assert!(took <= Duration::from_millis(LEASE_MS) * 3 / 2 + MARGIN, "adopted after {took:?}");
    eprintln!("adopted {took:?} after the owner was paused (lease {LEASE_MS} ms)");
    let mut more = 0;
    while more < 4 && play_one(&addr_b, &id, &tokens) {
        more += 1;
    }
    assert!(more > 0);
    let log = stored_log_len(&db, &id);
    assert_eq!(log, (acked + more) as usize);

    a.signal("-CONT");
    // a's action, made on the state it held before the pause, is refused: not written.
    let (s, r) = http(&addr_a, "POST", &format!("/api/tables/{id}/actions"), Some(&tokens[cur]), Some(&stale));
    assert_eq!((s, r["code"].as_str()), (409, Some("owned_elsewhere")), "{r}");
    // a no longer serves the table at all.
    let (s, _) = http(&addr_a, "GET", &format!("/api/tables/{id}"), Some(&tokens[0]), None);
    assert!(s == 409 || s == 503, "a still serves the table: {s}");
    assert_eq!(stored_log_len(&db, &id), log, "the log is b's alone");
    let now = views(&addr_b, &id, &tokens);
    assert_eq!(now[0]["version"].as_u64(), Some(acked + more));
    // And b plays on.
    assert!(play_one(&addr_b, &id, &tokens));
    assert_eq!(stored_log_len(&db, &id), log + 1);
}

/// A rolling restart (issue 42, item 6): an owner stopped with SIGTERM ends its leases once its
/// writes are in, so the other instance adopts its table at its next scan (half a lease at
/// most; with NATS, at once) instead of waiting for the lease to run out (4 to 6 s here after
/// the signal), and every acknowledged action is there.
#[test]
fn a_draining_owner_hands_its_tables_over() {
    const LONG_LEASE_MS: u64 = 6_000;
    let pg = store::testing::TempPostgres::start_or_fail();
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let db = rt.block_on(pg.create_database("handover")).expect("database");
    let lease = LONG_LEASE_MS.to_string();
    let mut a = common::serve(&db).args(["--bot-delay-ms", "0", "--instance", "a", "--lease-ms", &lease]).start();
    let b = common::serve(&db).args(["--bot-delay-ms", "0", "--instance", "b", "--lease-ms", &lease]).start();
    let (id, tokens) = table(&a.addr, 13);
    let mut acked = 0;
    for _ in 0..3 {
        if play_one(&a.addr, &id, &tokens) {
            acked += 1;
        }
    }
    assert!(acked > 0, "no action was taken before the restart");
    let signalled = Instant::now();
    a.signal("-TERM");
    let status = a.child.wait().expect("the owner exits");
    assert!(status.success(), "{status:?}");
    let b_addr = b.addr.clone();
    let took = loop {
        let (s, _) = http(&b_addr, "GET", &format!("/api/tables/{id}"), Some(&tokens[0]), None);
        if s == 200 {
            break signalled.elapsed();
        }
        assert!(signalled.elapsed() < Duration::from_millis(LONG_LEASE_MS * 2), "never adopted");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(
        took < Duration::from_millis(LONG_LEASE_MS * 6 / 10),
        "adopted {took:?} after SIGTERM: the lease ran out rather than being handed over"
    );
    assert_eq!(stored_log_len(&db, &id), acked, "every acknowledged action is there");
    assert!(play_one(&b_addr, &id, &tokens), "play goes on at the new owner");
}
