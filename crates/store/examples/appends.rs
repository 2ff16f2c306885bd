//! The store's append ceiling on its own, without a server in front: WRITERS games, each
//! appending its next action as soon as the previous one is durable (as a table waits for its
//! action's commit), for SECONDS. Prints appends a second and the commit latency.
//!
//!   cargo run --release -p store --example appends -- DB [WRITERS] [SECONDS]
//!
//! DB is a `postgres://` URL or a SQLite file (made if missing). docs/cluster.md reads it.
#![allow(clippy::unwrap_used)] // a benchmark tool: a failure should stop it loudly

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;
use store::{Entry, Header, Kind, Meta, NewGame, PgStore, SharedStore, SqliteStore};

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(db) = args.first() else {
        eprintln!("usage: appends DB [WRITERS] [SECONDS]   (DB: a postgres:// URL or a SQLite file)");
        std::process::exit(2);
    };
    let writers: usize = args.get(1).map_or(100, |a| a.parse().expect("WRITERS: a number"));
    let secs: u64 = args.get(2).map_or(10, |a| a.parse().expect("SECONDS: a number"));
    let store: SharedStore = if db.starts_with("postgres://") {
        PgStore::connect(db).await.expect("PostgreSQL").into()
    } else {
        SqliteStore::open(db).expect("SQLite").into()
    };
    let run = format!("{:x}", std::process::id());
    let warmup = Duration::from_secs(2);
    let start = Instant::now();
    let end = start + warmup + Duration::from_secs(secs);
    let mut tasks = Vec::new();
    for w in 0..writers {
        let store = Arc::clone(&store);
        let id = format!("bench{run}x{w}");
        tasks.push(tokio::spawn(async move {
            let game = NewGame {
                id: id.clone(),
                kind: Kind::UNO,
                header: Header::new(&json!({"bench": true})).unwrap(),
                meta: Meta::new(&json!({})).unwrap(),
            };
            store.create(game).await.map_err(|e| format!("creating {id}: {e:?}"))?;
            let entry = Entry::new(&json!({"seat": 1, "action": {"type": "draw"}})).unwrap();
            let mut latencies = Vec::new();
            let mut seq = 0u64;
            while Instant::now() < end {
                let at = Instant::now();
                store.append(&id, seq, entry.clone()).await.map_err(|e| format!("appending to {id}: {e:?}"))?;
                if at >= start + warmup {
                    latencies.push(at.elapsed());
                }
                seq += 1;
            }
            Ok::<_, String>(latencies)
        }));
    }
    let mut all = Vec::new();
    for t in tasks {
        match t.await.unwrap() {
            Ok(l) => all.extend(l),
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(1);
            }
        }
    }
    all.sort();
    let pct = |p: f64| all.get(((all.len() as f64 * p) as usize).min(all.len().saturating_sub(1))).copied();
    let ms = |d: Option<Duration>| d.map_or(0.0, |d| d.as_secs_f64() * 1e3);
    println!(
        "{} writers: {:.0} appends/s, commit p50 {:.1} ms, p99 {:.1} ms ({})",
        writers,
        all.len() as f64 / secs as f64,
        ms(pct(0.5)),
        ms(pct(0.99)),
        store.backend()
    );
}
