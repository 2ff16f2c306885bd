//! `POST /api/records` bounds every count a file states before anything is made by it: random
//! JSON (a real record with its numbers, arrays and fields changed at random, and records whose
//! `players` is huge) is answered with 201 or a 4xx `{code, message}`, never a 5xx, and no
//! request may make the process hold more than [`MAX_GROWTH`] bytes beyond what it held before.
//!
//! One test in this binary, so the counting allocator sees only it.

use std::alloc::System;
use std::time::Duration;

use axum::http::StatusCode;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};

mod common;
use common::call;

/// The system allocator, with a limit: an import that asks for more than [`MAX_GROWTH`] beyond
/// what the process held before it is refused the memory, and the test process aborts
/// ("memory allocation of N bytes failed").
#[global_allocator]
static ALLOC: cap::Cap<System> = cap::Cap::new(System, usize::MAX);

/// The most one import may add to what the process holds (the body is at most 512 KB; its
/// parsed record and its replay a few times that).
const MAX_GROWTH: usize = 32 << 20;

const HUGE: [i64; 8] = [1_000_000_000_000, 4_294_967_295, 4_294_967_296, 10_000_000, i64::MAX, -1, 0, 65_536];

/// Changes `v` at random: a number becomes a huge or odd one, an array grows or loses items, a
/// field goes or changes kind.
fn mutate(v: &mut Value, rng: &mut impl Rng, depth: usize) {
    match v {
        Value::Number(_) if rng.gen_bool(0.3) => {
            *v = json!(HUGE[rng.gen_range(0..HUGE.len())]);
        }
        Value::Array(items) => {
            if !items.is_empty() && rng.gen_bool(0.1) {
                let k = rng.gen_range(0..items.len());
                let copy = items[k].clone();
                let times = rng.gen_range(1..50);
                for _ in 0..times {
                    items.push(copy.clone());
                }
            }
            if !items.is_empty() && rng.gen_bool(0.1) {
                let k = rng.gen_range(0..items.len());
                items.remove(k);
            }
            for item in items.iter_mut() {
                if rng.gen_bool(0.2) {
                    mutate(item, rng, depth + 1);
                }
            }
        }
        Value::Object(fields) => {
            let keys: Vec<String> = fields.keys().cloned().collect();
            for k in keys {
                let roll = rng.gen_range(0..100);
                if roll < 3 {
                    fields.remove(&k);
                } else if roll < 6 {
                    fields.insert(k, json!(HUGE[rng.gen_range(0..HUGE.len())]));
                } else if roll < 8 {
                    fields.insert(k, json!([]));
                } else if roll < 40 || depth < 2 {
                    if let Some(f) = fields.get_mut(&k) {
                        mutate(f, rng, depth + 1);
                    }
                }
            }
        }
        _ => {}
    }
}

async fn finished(app: &axum::Router, seed: u64) -> Value {
    let seats = [json!({"kind": "bot", "bot": "heuristic"}), json!({"kind": "bot", "bot": "random"})];
    let create = json!({"preset": "official", "house_rules": {"match_target": 0}, "seed": seed, "seats": seats});
    let (s, created) = call(app, "POST", "/api/tables", None, Some(create.to_string())).await;
    assert_eq!(s, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().expect("id").to_string();
    for _ in 0..6000 {
        let (_, v) = call(app, "GET", &format!("/api/tables/{id}"), None, None).await;
        if v["status"] == "finished" {
            let (s, record) = call(app, "GET", &format!("/api/games/{id}/record"), None, None).await;
            assert_eq!(s, StatusCode::OK, "{record}");
            return record;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    panic!("the bots did not finish");
}

/// One import, allowed [`MAX_GROWTH`] bytes more than the process holds before it: its status
/// and answer.
async fn import(app: &axum::Router, body: String) -> (StatusCode, Value) {
    ALLOC.set_limit(ALLOC.allocated() + MAX_GROWTH).expect("limit");
    let answer = call(app, "POST", "/api/records", None, Some(body)).await;
    ALLOC.set_limit(usize::MAX).expect("limit");
    answer
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_record_files_are_refused_or_kept_within_bounded_memory() {
    let store = store::SqliteStore::open_in_memory().expect("store");
    let config = server::Config { bot_delay: Duration::ZERO, imports_per_hour: 100_000, ..Default::default() };
    let state = server::AppState::new(store, config).await.expect("state");
    let app = server::app(state);
    let record = finished(&app, 11).await;

    // The reported attack: a huge `players` and no seats.
    for players in [1_000_000_000_000_i64, 10_000_000, 11, 1, 0] {
        let mut r = record.clone();
        r["players"] = json!(players);
        if let Some(o) = r.as_object_mut() {
            o.remove("seats");
        }
        let (s, v) = import(&app, r.to_string()).await;
        assert_eq!(
            (s, v["code"].as_str()),
            (StatusCode::UNPROCESSABLE_ENTITY, Some("invalid_record")),
            "{players}: {v}"
        );
    }

    // Random changes of a real record.
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(29);
    let mut kept = 0;
    for round in 0..300 {
        let mut r = record.clone();
        if round % 3 == 0 {
            // A prefix of a real game is a real game: these must reach the importer and be kept.
            if let Some(actions) = r["actions"].as_array_mut() {
                let keep = rng.gen_range(0..=actions.len());
                actions.truncate(keep);
            }
        } else {
            mutate(&mut r, &mut rng, 0);
        }
        let body = r.to_string();
        let (s, v) = import(&app, body.clone()).await;
        assert!(
            s == StatusCode::CREATED || s.is_client_error(),
            "round {round}: {s} {v} for {}",
            body.chars().take(400).collect::<String>()
        );
        if s.is_client_error() {
            assert!(v["code"].is_string() && v["message"].is_string(), "round {round}: {v}");
        } else {
            kept += 1;
        }
    }
    // The changes leave some files whole: the importer was reached, not only the JSON reader.
    assert!(kept > 0, "no changed record was kept");
}
