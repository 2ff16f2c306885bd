//! The cluster's pieces: one `tabletop serve` instance ([`Node`]), the proxies its PostgreSQL
//! and NATS connections go through (a partition cuts them), and the private PostgreSQL's
//! postmaster (for `kill -9`).

use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use super::pause;
use crate::serving::free_port;

/// One instance: its fixed address (kept across restarts), its process, its log file, and the
/// switch of the proxies its PostgreSQL and NATS connections go through (see [`proxy`]).
pub struct Node {
    pub name: String,
    pub addr: String,
    child: Option<Child>,
    log: PathBuf,
    db: String,
    nats: String,
    pub cut: Arc<AtomicBool>,
}

/// A TCP proxy on a free loopback port to `upstream`, for one instance's connections. While
/// `cut` is set it forwards nothing in either direction and opens no new upstream connection,
/// but closes nothing either: a network partition as the instance sees it (packets lost, no
/// reset). When `cut` clears, what was held back flows on, as TCP retransmits it after a real
/// partition heals. Its port.
pub fn proxy(upstream: String, cut: Arc<AtomicBool>) -> u16 {
    use std::io::{ErrorKind, Read, Write};
    use std::net::{Shutdown, TcpListener};
    fn pump(mut from: TcpStream, mut to: TcpStream, cut: Arc<AtomicBool>) {
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            if cut.load(Ordering::Relaxed) {
                pause(20);
                continue;
            }
            match from.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => {
                    // Read before the cut, held until it heals.
                    while cut.load(Ordering::Relaxed) {
                        pause(20);
                    }
                    if to.write_all(&buf[..n]).is_err() {
                        break;
                    }
                }
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut | ErrorKind::Interrupted) => {}
                Err(_) => break,
            }
        }
        let _ = from.shutdown(Shutdown::Both);
        let _ = to.shutdown(Shutdown::Both);
    }
    let listener = TcpListener::bind("127.0.0.1:0").expect("proxy port");
    let port = listener.local_addr().expect("proxy address").port();
    std::thread::spawn(move || {
        for client in listener.incoming().flatten() {
            let (upstream, cut) = (upstream.clone(), cut.clone());
            std::thread::spawn(move || {
                while cut.load(Ordering::Relaxed) {
                    pause(20);
                }
                let Ok(server) = TcpStream::connect(&upstream) else { return };
                for s in [&client, &server] {
                    let _ = s.set_read_timeout(Some(Duration::from_millis(50)));
                    let _ = s.set_nodelay(true);
                }
                let (Ok(c2), Ok(s2)) = (client.try_clone(), server.try_clone()) else { return };
                let back = cut.clone();
                std::thread::spawn(move || pump(s2, c2, back));
                pump(client, server, cut);
            });
        }
    });
    port
}

/// The `tabletop` program under test (`TABLETOP_BIN`, else this build's).
pub fn bin() -> String {
    std::env::var("TABLETOP_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_tabletop").to_string())
}

impl Node {
    /// Instance `i` (named `node{i}`) of the cluster, not started: a free address, its log file
    /// in `logs`, and the proxies to PostgreSQL on `pg_port` (its database URL `db` rewritten to
    /// go through its proxy) and to NATS on `nats_port`. Each instance has proxies of its own: a
    /// partition cuts them.
    pub fn new(i: usize, pg_port: u16, nats_port: u16, db: &str, logs: &Path) -> Node {
        let cut = Arc::new(AtomicBool::new(false));
        let pg_proxy = proxy(format!("127.0.0.1:{pg_port}"), cut.clone());
        let nats_proxy = proxy(format!("127.0.0.1:{nats_port}"), cut.clone());
        Node {
            name: format!("node{i}"),
            addr: format!("127.0.0.1:{}", free_port()),
            child: None,
            log: logs.join(format!("node{i}.log")),
            // Named in PostgreSQL (`application_name`): the harness's audit of the stored
            // actions says which instance wrote each one (see `world::AUDIT`).
            db: format!("{}?application_name=node{i}", db.replace(&format!(":{pg_port}/"), &format!(":{pg_proxy}/"))),
            nats: format!("nats://127.0.0.1:{nats_proxy}"),
            cut,
        }
    }

    /// Starts the instance (again), retrying while its port is still held or the store is away.
    pub fn start(&mut self, lease_ms: u64) {
        let (db, nats) = (self.db.as_str(), self.nats.as_str());
        for _ in 0..50 {
            let log = std::fs::OpenOptions::new().create(true).append(true).open(&self.log).expect("log");
            let mut child = Command::new(bin())
                .args(["serve", "--addr", &self.addr, "--db", db, "--nats", nats, "--instance", &self.name])
                .args(["--lease-ms", &lease_ms.to_string(), "--ws-rate", "1000", "--max-tables-per-client", "1000"])
                .env("RUST_LOG", "info")
                .stdout(Stdio::piped())
                .stderr(log)
                .spawn()
                .expect("spawn tabletop");
            let mut line = String::new();
            let read = BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut line);
            if read.is_ok_and(|n| n > 0) {
                self.child = Some(child);
                return;
            }
            // The port is still held (a socket of the killed process), or the store is away.
            let _ = child.kill();
            let _ = child.wait();
            std::thread::sleep(Duration::from_millis(200));
        }
        panic!("{} did not start again (see {})", self.name, self.log.display());
    }

    pub fn signal(&self, sig: &str) {
        if let Some(c) = &self.child {
            let _ = Command::new("kill").args([sig, &c.id().to_string()]).status();
        }
    }

    /// SIGTERM, as a rolling restart stops an instance: how long it took to exit and its exit
    /// status (`None`: still running after `limit`, then killed).
    pub fn terminate(&mut self, limit: Duration) -> (Duration, Option<std::process::ExitStatus>) {
        let since = std::time::Instant::now();
        self.signal("-TERM");
        let Some(mut c) = self.child.take() else { return (Duration::ZERO, None) };
        while since.elapsed() < limit {
            if let Ok(Some(status)) = c.try_wait() {
                return (since.elapsed(), Some(status));
            }
            pause(5);
        }
        let _ = c.kill();
        let _ = c.wait();
        (since.elapsed(), None)
    }

    pub fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        self.signal("-CONT");
        self.kill();
    }
}

/// The postmaster of the private PostgreSQL on `port`, found by its command line.
pub fn postmaster(port: u16) -> Option<u32> {
    let want = format!("-p\0{port}\0");
    for e in std::fs::read_dir("/proc").ok()?.flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else { continue };
        let Ok(cmd) = std::fs::read(e.path().join("cmdline")) else { continue };
        let cmd = String::from_utf8_lossy(&cmd);
        let exe = cmd.split('\0').next().unwrap_or("");
        if exe.ends_with("postgres") && cmd.contains(&want) {
            return Some(pid);
        }
    }
    None
}
