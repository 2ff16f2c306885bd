//! Two `tabletop serve` instances on one PostgreSQL (a private server the test starts), each
//! holding its tables under a lease: when the owner of a table is killed, the other adopts the
//! table once the lease runs out and serves it exactly as acknowledged; when the owner is only
//! paused past its lease, the other adopts the table and plays on, and the old owner, resumed,
//! has its next action refused by the epoch, drops the table, and the log is the new owner's.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

mod serving;
use serving::{http, play_one};

const LEASE_MS: u64 = 1_000;
/// Adoption comes at most one lease after the owner's last renewal plus one scan (half a lease)
/// of the adopter; this margin covers the scan, the replay and a loaded machine.
const MARGIN: Duration = Duration::from_millis(2_000);

fn start(db: &str, instance: &str) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabletop"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(db)
        .args(["--bot-delay-ms", "0", "--instance", instance, "--lease-ms", &LEASE_MS.to_string()])
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn");
    let out = child.stdout.take().expect("stdout");
    let mut line = String::new();
    BufReader::new(out).read_line(&mut line).expect("first line");
    let addr = serving::address(&line);
    (child, addr)
}

/// Stops the child by its PID when the test ends, however it ends.
struct Reaped(Child);
impl Drop for Reaped {
    fn drop(&mut self) {
        let _ = Command::new("kill").args(["-CONT", &self.0.id().to_string()]).stderr(Stdio::null()).status();
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn signal(child: &Child, sig: &str) {
    let ok = Command::new("kill").args([sig, &child.id().to_string()]).status().expect("kill").success();
    assert!(ok, "kill {sig}");
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
    let (a, addr_a) = start(&db, "a");
    let mut a = Reaped(a);
    let (b, addr_b) = start(&db, "b");
    let _b = Reaped(b);
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
    a.0.kill().expect("SIGKILL");
    let _ = a.0.wait();
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
    let a = Reaped(a);
    let (b, addr_b) = start(&db, "b");
    let _b = Reaped(b);
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
    signal(&a.0, "-STOP");
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

    signal(&a.0, "-CONT");
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
