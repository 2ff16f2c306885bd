//! Load driver (loopback only): M tables × 4 human seats over WebSocket, closed loop, each seat
//! acting as soon as it holds a state where it is to move. When a game ends, seat 0 asks for a
//! rematch and the sockets stay open (friends playing on); with `new` as the fifth argument a
//! finished table is replaced by a new one instead (create, three joins, four new sockets).
//! A seat sends its actions over its socket, as the pages do; with `http` as the sixth argument
//! it posts each to `/api/tables/{id}/actions` instead and reads the whole answer (the pages'
//! way before they acted over the socket), the socket still bringing every seat the update.
//!
//! cargo run --release -p server --example load -- ADDR TABLES SECONDS [SERVER_PID] [rematch|new] [socket|http]
//! Prints accepted actions/s, latency p50/p95/p99 (send → the mover receives the new state) and
//! CPU µs per action of the server (from /proc/PID/stat) and of the driver itself over the run
//! after a 2 s warm-up. A cluster: ADDR and SERVER_PID list the instances, comma-separated
//! (`127.0.0.1:8080,127.0.0.1:8081 100 30 PID1,PID2`); table n is created on instance n, and
//! seat s connects to instance n + s (so with two instances half of each table's seats are on
//! the instance that does not own it); the CPU is given per instance too. Seats hold the full `state` they get on connect and merge each `update`.
#![allow(clippy::unwrap_used)] // a benchmark tool: a failure should stop it loudly

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;
use uno::Action;

mod measure;
use measure::{cpu_ms, Stats};

// As the `tabletop` binary: the driver shares the cores with the server, so its allocations
// cost the server too.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// What a seat reads from a `state` or an `update` (a typed parse skips the rest cheaply: the
/// driver shares the cores with the server).
#[derive(Deserialize)]
struct Push<'a> {
    #[serde(rename = "type")]
    kind: &'a str,
    #[serde(default)]
    version: u64,
    #[serde(default, borrow)]
    status: Option<&'a str>,
    #[serde(default)]
    view: Option<ViewPart>,
    /// In a full state always; in an update only when this seat's list changed.
    #[serde(default)]
    legal_actions: Option<Vec<Action>>,
}

#[derive(Deserialize)]
struct ViewPart {
    current: usize,
}

#[derive(Serialize)]
struct Act {
    #[serde(rename = "type")]
    kind: &'static str,
    action: Action,
    version: u64,
}

/// An HTTP/1.1 client on one kept-alive connection, as a browser keeps one to its server: a
/// table's create, joins and rematches do not each pay for a TCP handshake.
struct Http {
    addr: String,
    conn: Option<BufReader<TcpStream>>,
}

impl Http {
    fn new(addr: &str) -> Http {
        Http { addr: addr.to_string(), conn: None }
    }

    async fn post(&mut self, path: &str, token: Option<&str>, body: &Value) -> Value {
        let b = body.to_string();
        let auth = token.map(|t| format!("Authorization: Bearer {t}\r\n")).unwrap_or_default();
        let req = format!(
            "POST {path} HTTP/1.1\r\nHost: {}\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{b}",
            self.addr,
            b.len()
        );
        // A kept-alive connection the server has since closed fails once; a new one must not.
        for _ in 0..2 {
            if let Some(v) = self.exchange(&req).await {
                return v;
            }
            self.conn = None;
        }
        panic!("POST {path}: no answer");
    }

    async fn exchange(&mut self, req: &str) -> Option<Value> {
        if self.conn.is_none() {
            let stream = TcpStream::connect(&self.addr).await.ok()?;
            stream.set_nodelay(true).ok()?;
            self.conn = Some(BufReader::new(stream));
        }
        let conn = self.conn.as_mut()?;
        conn.get_mut().write_all(req.as_bytes()).await.ok()?;
        let mut length = 0;
        let mut line = String::new();
        loop {
            line.clear();
            if conn.read_line(&mut line).await.ok()? == 0 {
                return None;
            }
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':') {
                if name.eq_ignore_ascii_case("content-length") {
                    length = value.trim().parse().ok()?;
                }
            }
        }
        let mut body = vec![0; length];
        conn.read_exact(&mut body).await.ok()?;
        Some(serde_json::from_slice(&body).unwrap())
    }
}

/// What every seat of the run shares: the totals, whether the window is open, whether to stop,
/// and how a finished table goes on.
struct Run {
    addrs: Vec<String>,
    rematch: bool,
    /// Actions as `POST /api/tables/{id}/actions` rather than over the socket.
    http_actions: bool,
    stats: Mutex<Stats>,
    measuring: AtomicBool,
    stop: AtomicBool,
}

async fn seat(run: Arc<Run>, n: usize, id: String, me: usize, token: String) {
    let addr = &run.addrs[(n + me) % run.addrs.len()];
    let mut http = Http::new(addr);
    let mut req = format!("ws://{addr}/api/tables/{id}/ws").into_client_request().unwrap();
    req.headers_mut().insert("sec-websocket-protocol", format!("tabletop, bearer.{token}").parse().unwrap());
    let (mut ws, _) = tokio_tungstenite::connect_async_with_config(
        req,
        // A small read buffer: it is zeroed on every read (the default is 128 KiB), CPU the
        // driver would take from the server on the same cores. Longer messages take more reads.
        Some(tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default().read_buffer_size(1024)),
        true,
    )
    .await
    .unwrap();
    let mut sent: Option<(u64, Instant)> = None;
    let (mut version, mut playing, mut current, mut legal) = (0u64, false, usize::MAX, Vec::new());
    while let Some(Ok(msg)) = ws.next().await {
        let Message::Text(t) = msg else { continue };
        let p: Push = serde_json::from_str(t.as_str()).unwrap();
        match p.kind {
            "error" => {
                sent = None;
                continue;
            }
            "update" if p.version <= version => continue,
            "update" | "state" => {}
            _ => continue,
        }
        version = p.version;
        if let Some(s) = p.status {
            playing = s == "playing";
            if s == "finished" {
                if !run.rematch {
                    return;
                }
                if me == 0 && !run.stop.load(Ordering::Relaxed) {
                    // Every seat hears of the new game as a full `state` on its open socket.
                    http.post(&format!("/api/tables/{id}/rematch"), Some(&token), &json!({})).await;
                }
            }
        }
        if let Some(v) = p.view {
            current = v.current;
        }
        if let Some(l) = p.legal_actions {
            legal = l;
        }
        if let Some((sv, at)) = sent {
            if version > sv {
                if run.measuring.load(Ordering::Relaxed) {
                    let mut s = run.stats.lock().unwrap();
                    s.lat_us.push(at.elapsed().as_micros() as u64);
                    s.actions += 1;
                }
                sent = None;
            }
        }
        if run.stop.load(Ordering::Relaxed) {
            return;
        }
        if !playing || current != me || sent.is_some() {
            continue;
        }
        let Some(&action) = legal.iter().find(|a| **a != Action::CallUno).or(legal.first()) else { continue };
        sent = Some((version, Instant::now()));
        if run.http_actions {
            // The answer is the mover's whole change view; a refusal (a stale version) is
            // answered too, and the socket's next update moves the seat on.
            http.post(
                &format!("/api/tables/{id}/actions"),
                Some(&token),
                &json!({"action": action, "version": version}),
            )
            .await;
        } else {
            let m = serde_json::to_string(&Act { kind: "action", action, version }).unwrap();
            ws.send(Message::Text(m.into())).await.unwrap();
        }
    }
}

async fn table_loop(run: Arc<Run>, n: usize) {
    let mut http = Http::new(&run.addrs[n % run.addrs.len()]);
    let mut game = 0u64;
    while !run.stop.load(Ordering::Relaxed) {
        game += 1;
        let c = http
            .post(
                "/api/tables",
                None,
                &json!({"preset": "official", "house_rules": {"match_target": 0},
            "seed": (n as u64) << 32 | game, "name": "p0",
            "seats": [{"kind":"human"},{"kind":"human"},{"kind":"human"},{"kind":"human"}]}),
            )
            .await;
        let id = c["id"].as_str().unwrap().to_string();
        let mut tokens = vec![c["token"].as_str().unwrap().to_string()];
        for i in 1..4 {
            let j = http.post(&format!("/api/tables/{id}/join"), None, &json!({"name": format!("p{i}")})).await;
            tokens.push(j["token"].as_str().unwrap().to_string());
        }
        let seats: Vec<_> =
            tokens.into_iter().enumerate().map(|(i, t)| tokio::spawn(seat(run.clone(), n, id.clone(), i, t))).collect();
        for s in seats {
            let _ = s.await;
        }
    }
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let addrs: Vec<String> =
        args.get(1).map(String::as_str).unwrap_or("127.0.0.1:8080").split(',').map(str::to_string).collect();
    assert!(addrs.iter().all(|a| a.starts_with("127.") || a.starts_with("localhost")), "loopback only");
    let tables: usize = args.get(2).and_then(|x| x.parse().ok()).unwrap_or(10);
    let secs: u64 = args.get(3).and_then(|x| x.parse().ok()).unwrap_or(10).min(120);
    let pids: Vec<String> = args.get(4).map(|p| p.split(',').map(str::to_string).collect()).unwrap_or_default();
    let cpu = |pids: &[String]| pids.iter().map(|p| cpu_ms(p)).collect::<Vec<f64>>();
    let rematch = match args.get(5).map(String::as_str) {
        None | Some("rematch") => true,
        Some("new") => false,
        Some(other) => panic!("the fifth argument is `rematch` or `new`, not {other:?}"),
    };
    let http_actions = match args.get(6).map(String::as_str) {
        None | Some("socket") => false,
        Some("http") => true,
        Some(other) => panic!("the sixth argument is `socket` or `http`, not {other:?}"),
    };
    let run = Arc::new(Run {
        addrs,
        rematch,
        http_actions,
        stats: Mutex::new(Stats::default()),
        measuring: AtomicBool::new(false),
        stop: AtomicBool::new(false),
    });
    let handles: Vec<_> = (0..tables).map(|n| tokio::spawn(table_loop(run.clone(), n))).collect();
    tokio::time::sleep(Duration::from_secs(2)).await;
    let (c0, d0, t0) = (cpu(&pids), cpu_ms("self"), Instant::now());
    run.measuring.store(true, Ordering::Relaxed);
    tokio::time::sleep(Duration::from_secs(secs)).await;
    run.measuring.store(false, Ordering::Relaxed);
    let (c1, d1, el) = (cpu(&pids), cpu_ms("self"), t0.elapsed().as_secs_f64());
    let used: Vec<f64> = c1.iter().zip(&c0).map(|(b, a)| b - a).collect();
    let server: f64 = used.iter().sum();
    run.stop.store(true, Ordering::Relaxed);
    let mut s = std::mem::take(&mut *run.stats.lock().unwrap());
    let [p50, p95, p99] = s.percentiles_ms();
    let n = s.actions.max(1) as f64;
    println!(
        "tables={tables} seats=4 games={} actions={} actions/s={:.0} p50={:.2}ms p95={:.2}ms p99={:.2}ms server_cpu={:.0}% server_us/action={:.1} driver_us/action={:.1}{}",
        if rematch { "rematch" } else { "new" },
        if http_actions { "http" } else { "socket" },
        s.actions as f64 / el,
        p50,
        p95,
        p99,
        server / el / 10.0,
        server * 1000.0 / n,
        (d1 - d0) * 1000.0 / n,
        if used.len() > 1 {
            let each: Vec<String> = used.iter().map(|u| format!("{:.1}", u * 1000.0 / n)).collect();
            format!(" per_instance_us/action={}", each.join(","))
        } else {
            String::new()
        },
    );
    for h in handles {
        h.abort();
    }
}
