//! Two `tabletop serve` instances on one PostgreSQL and one NATS server (private ones the tests
//! start), clients on the instance that does not own the table: the game they play is the
//! single-instance game message for message, with every viewer's versions gap-free; when the
//! owner is killed (or paused past its lease), the other adopts the table and the clients go on
//! with nothing acknowledged lost; when NATS restarts, they recover by reloading; and no message a viewer gets through
//! the non-owner shows a card it may not see.
#![allow(clippy::needless_range_loop)] // viewers are indexed like seats, the spectator last

use std::collections::HashMap;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

mod common;
mod serving;
use serving::{http, try_http};

#[path = "../../server/tests/common/hidden.rs"]
mod hidden;
#[path = "../../server/tests/common/merge.rs"]
mod merge;

mod relay;
use relay::table::{assert_all_stored, assert_gap_free, normal, stored_log, Table};
use relay::{site, start, table, LEASE_MS, MARGIN};

#[test]
fn a_game_through_the_non_owner_is_the_single_instance_game() {
    let site = site("relay");
    let a = start(&site.db, Some(&site.nats.url()), "a");
    let b = start(&site.db, Some(&site.nats.url()), "b");
    // Made on a, joined, watched and played through b.
    let (id, tokens) = table(&a.addr, &b.addr, 5);
    let mut far = Table::watch(&b.addr, &id, &tokens);
    while far.play(50, true) {}
    assert_eq!(far.now()["status"], "finished");

    let dir = tempfile::tempdir().expect("dir");
    let solo = start(&dir.path().join("solo.db").to_string_lossy(), None, "solo");
    let (solo_id, solo_tokens) = table(&solo.addr, &solo.addr, 5);
    let mut near = Table::watch(&solo.addr, &solo_id, &solo_tokens);
    while near.play(50, true) {}

    let last = far.now()["version"].as_u64().expect("version");
    assert!(last > 20, "a whole game: {last} actions");
    for (i, (f, n)) in far.viewers.iter().zip(&near.viewers).enumerate() {
        assert_gap_free(&f.seen, &format!("viewer {i} through b"));
        assert!(f.closes.is_empty(), "viewer {i} was closed: {:?}", f.closes);
        assert_eq!(f.seen.len(), n.seen.len(), "viewer {i}: as many messages as alone");
        for (k, (x, y)) in f.seen.iter().zip(&n.seen).enumerate() {
            assert_eq!(normal(x), normal(y), "viewer {i}, message {k}");
        }
    }
    // Read through b, answered by a: the same as a's own answer.
    for t in &tokens {
        let path = format!("/api/tables/{id}");
        assert_eq!(http(&b.addr, "GET", &path, Some(t), None), http(&a.addr, "GET", &path, Some(t), None));
    }
    let log = stored_log(&site.db, &id);
    assert_eq!(log.len() as u64, last);
    assert_all_stored(&far, &log);
}

/// The lobby (`GET /api/tables`) of either instance lists the tables of both, only those open
/// to spectators, each once; a table of an instance that stopped drops out of the other's list
/// until an instance adopts it.
#[test]
fn the_lobby_of_each_instance_lists_every_instance_s_tables() {
    let site = site("lobby");
    let a = start(&site.db, Some(&site.nats.url()), "a");
    let b = start(&site.db, Some(&site.nats.url()), "b");
    let (on_a, _) = table(&a.addr, &a.addr, 1);
    let (on_b, _) = table(&b.addr, &b.addr, 2);
    let private = json!({"preset": "official", "spectators": false, "seats": [{"kind": "human"}, {"kind": "human"}]});
    let (s, hidden) = http(&a.addr, "POST", "/api/tables", None, Some(&private));
    assert_eq!(s, 201, "{hidden}");
    let hidden = hidden["id"].as_str().expect("id").to_string();

    let listed = |addr: &str| -> Vec<String> {
        let (s, v) = http(addr, "GET", "/api/tables", None, None);
        assert_eq!(s, 200, "{v}");
        v["tables"].as_array().expect("tables").iter().map(|t| t["id"].as_str().expect("id").to_string()).collect()
    };
    let mut want = vec![on_a.clone(), on_b.clone()];
    want.sort();
    // Listings are published once a second: wait for a few.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let (la, lb) = (listed(&a.addr), listed(&b.addr));
        if la == want && lb == want {
            break;
        }
        assert!(!la.contains(&hidden) && !lb.contains(&hidden), "a table closed to spectators is listed");
        assert!(Instant::now() < deadline, "a lists {la:?}, b lists {lb:?}; both should list {want:?}");
        std::thread::sleep(Duration::from_millis(200));
    }
    // The entry read through the other instance is the owner's own summary.
    let (_, va) = http(&a.addr, "GET", "/api/tables", None, None);
    let (_, vb) = http(&b.addr, "GET", "/api/tables", None, None);
    assert_eq!(va, vb);
}

/// How the owner goes away.
enum Gone {
    Killed,
    /// `SIGSTOP`, and `SIGCONT` once the other instance has played on.
    Paused,
}

/// The owner of a table whose players are all on the other instance goes away mid-game: every
/// relayed socket is told to connect again, gets the table from the other instance (which
/// adopted it) where it was, and the game goes on to its end with every acknowledged action
/// in the log.
fn owner_goes_away(gone: Gone, seed: u64) {
    let site = site(if matches!(gone, Gone::Killed) { "killed" } else { "paused" });
    let mut a = start(&site.db, Some(&site.nats.url()), "a");
    let b = start(&site.db, Some(&site.nats.url()), "b");
    let (id, tokens) = table(&a.addr, &b.addr, seed);
    let mut far = Table::watch(&b.addr, &id, &tokens);
    assert!(far.play(12, true));
    let before = far.now();
    let acked = far.acked.len() as u64;
    assert_eq!(before["version"].as_u64(), Some(acked));

    let since = Instant::now();
    match gone {
        Gone::Killed => {
            a.child.kill().expect("SIGKILL");
            let _ = a.child.wait();
        }
        Gone::Paused => a.signal("-STOP"),
    }
    for i in 0..far.viewers.len() {
        far.reconnect(i);
    }
    let took = since.elapsed();
    eprintln!("viewers back after {took:?} (lease {LEASE_MS} ms)");
    // A paused owner is noticed by the 2 s request time-out rather than at once.
    let noticed = if matches!(gone, Gone::Paused) { Duration::from_secs(2) } else { Duration::ZERO };
    assert!(took <= Duration::from_millis(LEASE_MS) * 3 / 2 + MARGIN + noticed, "back after {took:?}");
    for (i, v) in far.viewers.iter().enumerate() {
        assert_eq!(v.closes, vec![4003], "viewer {i}");
        let state = v.seen.iter().rev().find(|m| m["type"] == "state").expect("a full state");
        assert_eq!(state["version"].as_u64(), Some(acked), "viewer {i} resumed where it was");
    }
    let after = far.now();
    assert_eq!(after["view"], before["view"], "seat 0's view changed across the failover");
    assert_eq!(after["legal_actions"], before["legal_actions"]);
    assert!(far.play(6, true));
    if let Gone::Paused = gone {
        a.signal("-CONT");
        // Resumed, a finds its lease gone: it serves the table no more itself, and a request
        // to it is answered by b.
        std::thread::sleep(Duration::from_millis(LEASE_MS));
        let path = format!("/api/tables/{id}");
        assert_eq!(
            http(&a.addr, "GET", &path, Some(&tokens[0]), None),
            http(&b.addr, "GET", &path, Some(&tokens[0]), None)
        );
    }
    while far.play(50, true) {}
    let log = stored_log(&site.db, &id);
    assert_eq!(Some(log.len() as u64), far.now()["version"].as_u64());
    assert_all_stored(&far, &log);
}

#[test]
fn the_owner_killed_with_players_on_the_other_instance_loses_nothing() {
    owner_goes_away(Gone::Killed, 17);
}

#[test]
fn the_owner_paused_past_its_lease_with_players_on_the_other_instance_loses_nothing() {
    owner_goes_away(Gone::Paused, 19);
}

#[test]
fn clients_recover_when_nats_restarts_and_nothing_is_lost() {
    let mut site = site("restart");
    let a = start(&site.db, Some(&site.nats.url()), "a");
    let b = start(&site.db, Some(&site.nats.url()), "b");
    let (id, tokens) = table(&a.addr, &b.addr, 29);
    let mut far = Table::watch(&b.addr, &id, &tokens);
    assert!(far.play(10, true));
    site.nats.kill();
    // Played on while the bus is down: refused (503), never acknowledged without being stored.
    let body = json!({"action": {"type": "draw"}, "version": far.now_version_hint()});
    let (s, r) = try_http(&b.addr, "POST", &format!("/api/tables/{id}/actions"), Some(&tokens[0]), Some(&body));
    assert_eq!((s, r["code"].as_str()), (503, Some("owner_unavailable")), "{r}");
    std::thread::sleep(Duration::from_millis(500));
    site.nats.resume();
    while far.play(50, true) {}
    for (i, v) in far.viewers.iter().enumerate() {
        assert_eq!(v.closes, vec![4003], "viewer {i} connected again once");
        assert_gap_free(&v.seen, &format!("viewer {i}"));
    }
    let log = stored_log(&site.db, &id);
    assert_eq!(Some(log.len() as u64), far.now()["version"].as_u64());
    assert_all_stored(&far, &log);
    drop(a);
}

#[test]
fn no_message_through_the_non_owner_shows_a_hidden_card() {
    let site = site("leak");
    let a = start(&site.db, Some(&site.nats.url()), "a");
    let b = start(&site.db, Some(&site.nats.url()), "b");
    let seed = 41;
    let (id, tokens) = table(&a.addr, &b.addr, seed);
    let mut far = Table::watch(&b.addr, &id, &tokens);
    while far.play(50, true) {}
    // The same game in a shadow engine: what each seat may know at each version.
    let mut config = uno::rules::preset_config("official").expect("preset");
    config.scoring.target = None;
    let mut shadow = uno::Game::new(uno::Rules::new(config).expect("rules"), 2, seed).expect("game");
    let mut snaps = HashMap::new();
    snaps.insert(0u64, hidden::snap(&shadow));
    for (version, seat, action) in &far.acked {
        let action: uno::Action = serde_json::from_value(action.clone()).expect("action");
        shadow.apply(uno::Seat(*seat as u8), action).expect("legal");
        snaps.insert(*version, hidden::snap(&shadow));
    }
    assert!(shadow.is_over());
    let mut checked = 0;
    for (i, v) in far.viewers.iter().enumerate() {
        let seat = (i < tokens.len()).then_some(i);
        let mut held = Value::Null;
        for m in &v.seen {
            hidden::check(m, seat, &snaps);
            merge::merge(&mut held, m);
            hidden::check(&held, seat, &snaps);
            checked += 1;
        }
    }
    assert!(checked > 60, "{checked} messages");
    drop(a);
}

/// Defect: across a NATS restart a viewer relayed by the instance that does not own its table
/// could miss an update (the one that makes it its turn) and learn of it only with the next
/// update, which never came: the table waited on that player until the next restart. Now each
/// watch's version comes over the bus every second as well, so a relay that finds itself behind
/// reads the viewer's state again: every relayed viewer holds each action within lease + 5 s.
#[test]
fn a_relayed_viewer_catches_up_by_time_after_a_nats_restart() {
    let mut site = site("heartbeat");
    let a = start(&site.db, Some(&site.nats.url()), "a");
    let b = start(&site.db, Some(&site.nats.url()), "b");
    // Owned by a, every viewer at b.
    let (id, tokens) = table(&a.addr, &b.addr, 31);
    let mut far = Table::watch(&b.addr, &id, &tokens);
    let within = Duration::from_millis(LEASE_MS) + Duration::from_secs(5);
    for trial in 0..4 {
        let now = far.now();
        let version = now["version"].as_u64().expect("version");
        for i in 0..far.viewers.len() {
            far.sync(i, version);
        }
        assert_eq!(now["status"], "playing", "the game ended early");
        let seat = now["view"]["current"].as_u64().expect("current") as usize;
        let legal = far.viewers[seat].held["legal_actions"].as_array().expect("legal").clone();
        let action = legal.iter().find(|a| a["type"] == "play").unwrap_or(&legal[0]).clone();
        site.nats.kill();
        // Acted at the owner while the bus is down: stored there, its update published into
        // the gap.
        let body = json!({"action": action, "version": version});
        let (s, r) = http(&a.addr, "POST", &format!("/api/tables/{id}/actions"), Some(&tokens[seat]), Some(&body));
        assert_eq!(s, 200, "{r}");
        std::thread::sleep(Duration::from_millis(300));
        site.nats.resume();
        for i in 0..far.viewers.len() {
            let token = far.token(i).map(str::to_string);
            let caught = far.viewers[i].reaches(&b.addr, &id, token.as_deref(), version + 1, within);
            assert!(caught, "trial {trial}: viewer {i} through b still at v{version} {within:?} after NATS came back");
        }
    }
    drop(a);
}
