//! `GET /api/stats` through the router: three games of people, played so that Wild Draw Fours
//! are challenged and missed UNO calls caught, tallied by the test from what the live tables
//! answered (each action's events, the final scores); the statistics, rebuilt from the kept
//! records, must give the same totals per name, most games first, a page at a time.

use std::collections::BTreeMap;

use axum::http::StatusCode;
use serde_json::{json, Value};

mod common;
use common::call;

#[derive(Debug, Default, PartialEq)]
struct Tally {
    games: u64,
    wins: u64,
    points: u64,
    challenges_won: u64,
    uno_missed: u64,
}

/// Plays one table of people to its end (one round): nobody calls UNO, the first seat that can
/// catch another does (once a game: catching every time, nobody would ever go out), a Wild Draw
/// Four is played whenever it may be and always challenged. Adds what the table told to `tally`.
async fn play(app: &axum::Router, seed: u64, names: &[&str], tally: &mut BTreeMap<String, Tally>) {
    let seats: Vec<Value> = names.iter().map(|_| json!({"kind": "human"})).collect();
    let create = json!({"preset": "official", "house_rules": {"match_target": 0}, "seed": seed,
        "name": names[0], "seats": seats});
    let (s, created) = call(app, "POST", "/api/tables", None, Some(create.to_string())).await;
    assert_eq!(s, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().expect("id").to_string();
    let mut tokens = vec![created["token"].as_str().expect("token").to_string()];
    for name in &names[1..] {
        let (s, j) =
            call(app, "POST", &format!("/api/tables/{id}/join"), None, Some(json!({"name": name}).to_string())).await;
        assert_eq!(s, StatusCode::OK, "{j}");
        tokens.push(j["token"].as_str().expect("token").to_string());
    }
    let mut last = Value::Null;
    let mut caught = false;
    for _ in 0..3000 {
        let mut views = Vec::new();
        for t in &tokens {
            let (_, v) = call(app, "GET", &format!("/api/tables/{id}"), Some(t), None).await;
            views.push(v);
        }
        if views[0]["status"] == "finished" {
            last = views.swap_remove(0);
            break;
        }
        let legal = |v: &Value| v["legal_actions"].as_array().cloned().unwrap_or_default();
        let of_type = |v: &Value, t: &str| legal(v).into_iter().find(|a| a["type"] == t);
        // A catch first (it is too late once the next seat acts), then the seat to play.
        let catch = (0..tokens.len()).find_map(|s| of_type(&views[s], "catch_uno").map(|a| (s, a)));
        let (seat, action) = match catch.filter(|_| !caught) {
            Some(found) => {
                caught = true;
                found
            }
            None => {
                let s = views[0]["view"]["current"].as_u64().expect("current") as usize;
                let v = &views[s];
                let action = of_type(v, "challenge")
                    .or_else(|| legal(v).into_iter().find(|a| a["type"] == "play" && a["card"] == "W4"))
                    .or_else(|| of_type(v, "play"))
                    .or_else(|| legal(v).into_iter().find(|a| a["type"] != "call_uno"))
                    .expect("something to do");
                (s, action)
            }
        };
        let version = views[seat]["version"].clone();
        let body = json!({"action": action, "version": version}).to_string();
        let (s, r) = call(app, "POST", &format!("/api/tables/{id}/actions"), Some(&tokens[seat]), Some(body)).await;
        assert_eq!(s, StatusCode::OK, "{r}");
        for e in r["events"].as_array().expect("events") {
            let e = &e["event"];
            let seat_of = |k: &str| e[k].as_u64().expect("seat") as usize;
            if e["type"] == "challenge_resolved" && e["guilty"] == true {
                tally.entry(names[seat_of("challenger")].to_string()).or_default().challenges_won += 1;
            }
            if e["type"] == "uno_penalty" {
                tally.entry(names[seat_of("seat")].to_string()).or_default().uno_missed += 1;
            }
        }
    }
    assert_eq!(last["status"], "finished", "the game did not end");
    for (i, name) in names.iter().enumerate() {
        let t = tally.entry(name.to_string()).or_default();
        t.games += 1;
        t.wins += u64::from(last["view"]["hand_sizes"][i] == 0);
        t.points += last["view"]["scores"][i].as_u64().expect("score");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_totals_per_name_are_the_tables_own() {
    let store = store::SqliteStore::open_in_memory().expect("store");
    let config = server::Config { bot_delay: std::time::Duration::ZERO, ..Default::default() };
    let state = server::AppState::new(store, config).await.expect("state");
    let app = server::app(state);
    // A game of bots: counted as a game, but a bot is no player.
    let bots = json!({"preset": "official", "house_rules": {"match_target": 0}, "seed": 8,
        "seats": [{"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "random"}]});
    let (s, created) = call(&app, "POST", "/api/tables", None, Some(bots.to_string())).await;
    assert_eq!(s, StatusCode::CREATED, "{created}");
    let bots_table = format!("/api/tables/{}", created["id"].as_str().expect("id"));
    for _ in 0..2000 {
        if call(&app, "GET", &bots_table, None, None).await.1["status"] == "finished" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    let mut tally = BTreeMap::new();
    // Ann plays three games, Bob and Cid two, Dee and Eve one.
    play(&app, 1, &["Ann", "Bob", "Cid"], &mut tally).await;
    play(&app, 2, &["Bob", "Ann", "Dee"], &mut tally).await;
    play(&app, 3, &["Eve", "Cid", "Ann"], &mut tally).await;
    let sum = |f: fn(&Tally) -> u64| tally.values().map(f).sum::<u64>();
    // The games must have shown what is counted, or the test proves nothing.
    assert!(sum(|t| t.challenges_won) > 0, "no challenge won: {tally:?}");
    assert!(sum(|t| t.uno_missed) > 0, "no UNO call missed: {tally:?}");
    assert_eq!(sum(|t| t.wins), 3);

    let (s, stats) = call(&app, "GET", "/api/stats", None, None).await;
    assert_eq!(s, StatusCode::OK, "{stats}");
    assert_eq!((stats["total"].as_u64(), stats["games"].as_u64()), (Some(5), Some(4)), "{stats}");
    let players = stats["players"].as_array().expect("players");
    let got: BTreeMap<String, Tally> = players
        .iter()
        .map(|p| {
            let n = |k: &str| p[k].as_u64().expect(k);
            let t = Tally {
                games: n("games"),
                wins: n("wins"),
                points: n("points"),
                challenges_won: n("challenges_won"),
                uno_missed: n("uno_missed"),
            };
            (p["name"].as_str().expect("name").to_string(), t)
        })
        .collect();
    assert_eq!(got, tally);
    // The most games first: Ann (3), then Bob and Cid (2, by wins then name), then Dee and Eve.
    let games: Vec<u64> = players.iter().map(|p| p["games"].as_u64().unwrap_or(0)).collect();
    assert_eq!(games, [3, 2, 2, 1, 1]);
    assert_eq!(players[0]["name"], "Ann");

    // Pages.
    let (s, page) = call(&app, "GET", "/api/stats?limit=2&offset=1", None, None).await;
    assert_eq!(s, StatusCode::OK, "{page}");
    assert_eq!(page["players"].as_array().expect("players").as_slice(), &players[1..3]);
    assert_eq!(page["total"], 5);
    let (_, past) = call(&app, "GET", "/api/stats?offset=9", None, None).await;
    assert_eq!(past["players"], json!([]));
    for q in ["limit=0", "limit=201", "limit=x"] {
        let (s, v) = call(&app, "GET", &format!("/api/stats?{q}"), None, None).await;
        assert_eq!((s, v["code"].as_str()), (StatusCode::BAD_REQUEST, Some("bad_request")), "{q}: {v}");
    }
}

/// The store, counting the reads of whole histories (`results`, `untallied`).
struct Counting {
    inner: store::SharedStore,
    history_reads: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

impl store::GameStore for Counting {
    store::forward_to_inner!(
        backend,
        location,
        create,
        append,
        set_meta,
        set_standing,
        reset,
        add_result,
        load_active,
        load,
        results_of,
        forget_results,
        tallies,
        tally
    );
    fn results(&self, kind: store::Kind) -> store::Reply<Vec<store::GameResult>> {
        self.history_reads.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.inner.results(kind)
    }
    fn untallied(&self, kind: store::Kind) -> store::Reply<Vec<store::GameResult>> {
        self.history_reads.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.inner.untallied(kind)
    }
}

/// A request for the statistics reads one page of the kept totals, never the kept records: a
/// game is counted as it ends (the next request sees it at once), and however many games are
/// kept, no request reads them all (once, at most, for results kept before the totals existed).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_reads_a_page_of_totals_not_the_history() {
    let reads = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let inner = store::SharedStore::from(store::SqliteStore::open_in_memory().expect("store"));
    let store: store::SharedStore = std::sync::Arc::new(Counting { inner, history_reads: reads.clone() });
    let config = server::Config { bot_delay: std::time::Duration::ZERO, ..Default::default() };
    let state = server::AppState::new(store, config).await.expect("state");
    let app = server::app(state);
    let mut tally = BTreeMap::new();
    let (_, before) = call(&app, "GET", "/api/stats", None, None).await;
    assert_eq!(before["games"], 0, "{before}");
    let after_start = reads.load(std::sync::atomic::Ordering::Relaxed);
    for (round, seed) in [4, 5, 6].into_iter().enumerate() {
        play(&app, seed, &["Ann", "Bob"], &mut tally).await;
        // Counted as it ended: no 30-second-old totals.
        let (s, stats) = call(&app, "GET", "/api/stats?limit=1", None, None).await;
        assert_eq!(s, StatusCode::OK, "{stats}");
        assert_eq!((stats["games"].as_u64(), stats["total"].as_u64()), (Some(round as u64 + 1), Some(2)), "{stats}");
        assert_eq!(stats["players"].as_array().map(Vec::len), Some(1));
    }
    assert_eq!(reads.load(std::sync::atomic::Ordering::Relaxed), after_start, "a request read the whole history");
    assert!(after_start <= 1);
}
