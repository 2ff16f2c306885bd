//! The transport floor of the load benchmark: what `examples/load.rs` costs with no game, no
//! store and no JSON views, only the WebSocket traffic one action needs. Per action: one client →
//! server text message from the seat to move, and one server → client message to each of the
//! table's 4 seats (the size a compact update would be: ~150 bytes, the mover's ~60 bytes more for
//! its legal actions). Same axum / tokio / tungstenite as the server, `TCP_NODELAY` as `serve`
//! sets it, server and driver as two processes on the same cores.
//!
//! ```text
//! ws_floor serve ADDR [THREADS]                       # THREADS 0: current-thread runtime
//! ws_floor drive ADDR TABLES SECONDS SERVER_PID [THREADS]
//! ```
//! `drive` prints actions/s, latency percentiles (send → the mover holds the next version) and
//! CPU µs per action for the server (`/proc/PID/stat`) and for itself (`/proc/self/stat`).
#![allow(clippy::unwrap_used)] // a benchmark tool: a failure should stop it loudly

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::ws::{Message as AxMessage, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use tokio::sync::broadcast;
use tokio_tungstenite::tungstenite::Message;

mod measure;

// As the `tabletop` binary and the load driver.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
use measure::{cpu_ms, Stats};

const SEATS: usize = 4;

/// One table: whose turn it is, and the channel every seat's socket listens on.
struct FloorTable {
    turn: AtomicU64,
    tx: broadcast::Sender<Arc<(usize, [Utf8Bytes; 2])>>,
}

#[derive(Clone, Default)]
struct Tables(Arc<Mutex<HashMap<u64, Arc<FloorTable>>>>);

impl Tables {
    fn get(&self, id: u64) -> Arc<FloorTable> {
        let mut m = self.0.lock().unwrap();
        m.entry(id)
            .or_insert_with(|| Arc::new(FloorTable { turn: AtomicU64::new(0), tx: broadcast::channel(64).0 }))
            .clone()
    }
}

/// What a seat reads from a push (as a real client would: a typed parse, not a full tree).
#[derive(Deserialize)]
struct Push {
    version: u64,
    current: usize,
}

/// The update after action `version`: the events and the next mover, padded to a compact
/// update's size; the mover's copy carries legal actions as well.
fn render(version: u64, current: usize) -> [Utf8Bytes; 2] {
    let common = format!(
        "{{\"type\":\"update\",\"version\":{version},\"current\":{current},\"events\":[{{\"version\":{version},\
         \"event\":{{\"type\":\"card_played\",\"seat\":{},\"card\":\"R7\",\"jump_in\":false}}}}],\
         \"hand_sizes\":[7,6,5,7],\"top\":\"R7\",\"color\":\"red\",\"draw_pile_size\":71",
        (current + SEATS - 1) % SEATS
    );
    let mover = format!("{common},\"legal_actions\":[{{\"type\":\"play\",\"card\":\"R2\"}},{{\"type\":\"draw\"}}]}}");
    [Utf8Bytes::from(format!("{common}}}")), Utf8Bytes::from(mover)]
}

async fn upgrade(State(tables): State<Tables>, Path((id, seat)): Path<(u64, usize)>, ws: WebSocketUpgrade) -> Response {
    let table = tables.get(id);
    ws.read_buffer_size(1024).on_upgrade(move |s| session(table, seat, s))
}

async fn session(table: Arc<FloorTable>, seat: usize, mut socket: WebSocket) {
    let mut rx = table.tx.subscribe();
    let v = table.turn.load(Ordering::SeqCst);
    let [common, mover] = render(v, v as usize % SEATS);
    if socket.send(AxMessage::Text(if v as usize % SEATS == seat { mover } else { common })).await.is_err() {
        return;
    }
    loop {
        tokio::select! {
            push = rx.recv() => match push {
                Ok(p) => {
                    let text = if p.0 == seat { p.1[1].clone() } else { p.1[0].clone() };
                    if socket.send(AxMessage::Text(text)).await.is_err() { return }
                }
                Err(broadcast::error::RecvError::Lagged(_)) => {}
                Err(broadcast::error::RecvError::Closed) => return,
            },
            msg = socket.recv() => match msg {
                Some(Ok(AxMessage::Text(_))) => {
                    // The action: accepted, the turn moves on, one render shared by every seat.
                    let v = table.turn.fetch_add(1, Ordering::SeqCst) + 1;
                    let _ = table.tx.send(Arc::new((v as usize % SEATS, render(v, v as usize % SEATS))));
                }
                Some(Ok(_)) => {}
                _ => return,
            },
        }
    }
}

fn runtime(threads: usize) -> tokio::runtime::Runtime {
    if threads == 0 {
        tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
    } else {
        tokio::runtime::Builder::new_multi_thread().worker_threads(threads).enable_all().build().unwrap()
    }
}

fn serve(addr: String) {
    let listener = std::net::TcpListener::bind(&addr).unwrap();
    listener.set_nonblocking(true).unwrap();
    let app = Router::new().route("/ws/{id}/{seat}", get(upgrade)).with_state(Tables::default());
    let threads = std::env::args().nth(3).and_then(|x| x.parse().ok()).unwrap_or(2);
    runtime(threads).block_on(async move {
        use axum::serve::ListenerExt;
        let l = tokio::net::TcpListener::from_std(listener).unwrap().tap_io(|t| {
            let _ = t.set_nodelay(true);
        });
        println!("ws_floor serving on {addr}");
        axum::serve(l, app).await.unwrap();
    });
}

/// User + system CPU of a process, in milliseconds (`/proc/PID/stat`, 100 ticks a second).
/// Machine-wide busy and total CPU time in milliseconds (`/proc/stat`): loopback networking's
/// softirq work is not always charged to either process.
fn machine_ms() -> (f64, f64) {
    let s = std::fs::read_to_string("/proc/stat").unwrap_or_default();
    let f: Vec<f64> =
        s.lines().next().unwrap_or("").split_whitespace().skip(1).filter_map(|x| x.parse().ok()).collect();
    let total: f64 = f.iter().take(8).sum();
    let idle = f.get(3).copied().unwrap_or(0.0) + f.get(4).copied().unwrap_or(0.0);
    ((total - idle) * 10.0, total * 10.0)
}

async fn seat(addr: String, id: u64, me: usize, stats: Arc<Mutex<Stats>>, measuring: Arc<AtomicBool>) {
    let (ws, _) = tokio_tungstenite::connect_async_with_config(
        format!("ws://{addr}/ws/{id}/{me}"),
        Some(tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default().read_buffer_size(1024)),
        true,
    )
    .await
    .unwrap();
    let (mut sink, mut stream) = ws.split();
    let mut sent: Option<(u64, Instant)> = None;
    while let Some(Ok(msg)) = stream.next().await {
        let Message::Text(t) = msg else { continue };
        let p: Push = serde_json::from_str(t.as_str()).unwrap();
        if let Some((sv, at)) = sent {
            if p.version > sv {
                if measuring.load(Ordering::Relaxed) {
                    let mut s = stats.lock().unwrap();
                    s.lat_us.push(at.elapsed().as_micros() as u64);
                    s.actions += 1;
                }
                sent = None;
            }
        }
        if p.current == me && sent.is_none() {
            let m = format!(
                "{{\"type\":\"action\",\"action\":{{\"type\":\"play\",\"card\":\"R2\"}},\"version\":{}}}",
                p.version
            );
            sent = Some((p.version, Instant::now()));
            sink.send(Message::Text(m.into())).await.unwrap();
        }
    }
}

fn drive(args: &[String]) {
    let addr = args.get(2).cloned().unwrap_or_else(|| "127.0.0.1:18556".into());
    assert!(addr.starts_with("127."), "loopback only");
    let tables: u64 = args.get(3).and_then(|x| x.parse().ok()).unwrap_or(100);
    let secs: u64 = args.get(4).and_then(|x| x.parse().ok()).unwrap_or(8);
    let pid = args.get(5).cloned().unwrap_or_default();
    let threads = args.get(6).and_then(|x| x.parse().ok()).unwrap_or(2);
    runtime(threads).block_on(async move {
        let stats = Arc::new(Mutex::new(Stats::default()));
        let measuring = Arc::new(AtomicBool::new(false));
        // A fresh range of table ids per run, so a second run against the same server starts clean.
        let base = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_micros() as u64;
        let mut handles = Vec::new();
        for t in 0..tables {
            // Seat 0 moves first; the others must be listening before it does.
            for me in (0..SEATS).rev() {
                handles.push(tokio::spawn(seat(addr.clone(), base + t, me, stats.clone(), measuring.clone())));
                tokio::time::sleep(Duration::from_micros(200)).await;
            }
        }
        tokio::time::sleep(Duration::from_secs(2)).await;
        let (s0, c0, m0, t0) = (cpu_ms(&pid), cpu_ms("self"), machine_ms(), Instant::now());
        measuring.store(true, Ordering::Relaxed);
        tokio::time::sleep(Duration::from_secs(secs)).await;
        measuring.store(false, Ordering::Relaxed);
        let (s1, c1, m1, el) = (cpu_ms(&pid), cpu_ms("self"), machine_ms(), t0.elapsed().as_secs_f64());
        let mut s = std::mem::take(&mut *stats.lock().unwrap());
        let [p50, p95, p99] = s.percentiles_ms();
        let n = s.actions.max(1) as f64;
        println!(
            "floor tables={tables} seats={SEATS} actions/s={:.0} p50={:.2}ms p95={:.2}ms p99={:.2}ms \
             server_cpu={:.0}% server_us/action={:.1} driver_cpu={:.0}% driver_us/action={:.1} machine_busy={:.0}% machine_us/action={:.1}",
            s.actions as f64 / el,
            p50,
            p95,
            p99,
            (s1 - s0) / el / 10.0,
            (s1 - s0) * 1000.0 / n,
            (c1 - c0) / el / 10.0,
            (c1 - c0) * 1000.0 / n,
            (m1.0 - m0.0) / (m1.1 - m0.1).max(1.0) * 100.0,
            (m1.0 - m0.0) * 1000.0 / n,
        );
        for h in handles {
            h.abort();
        }
    });
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("serve") => serve(args.get(2).cloned().unwrap_or_else(|| "127.0.0.1:18556".into())),
        Some("drive") => drive(&args),
        _ => {
            eprintln!("usage: ws_floor serve ADDR [THREADS] | ws_floor drive ADDR TABLES SECONDS SERVER_PID [THREADS]")
        }
    }
}
