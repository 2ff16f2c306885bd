//! What the tests of `tabletop serve` through the real binary share: plain HTTP/1.1 requests
//! over a fresh connection each, and one move by whoever's turn it is.

#![allow(dead_code)] // not every test binary uses every helper

use std::io::{Read, Write};
use std::net::TcpStream;

use serde_json::{json, Value};

/// One request; `(0, Null)` when the server does not answer (stopped, or not yet up).
pub fn try_http(addr: &str, method: &str, path: &str, token: Option<&str>, body: Option<&Value>) -> (u16, Value) {
    let Ok(mut s) = TcpStream::connect(addr) else { return (0, Value::Null) };
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let auth = token.map(|t| format!("Authorization: Bearer {t}\r\n")).unwrap_or_default();
    let sent = write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut text = String::new();
    if sent.is_err() || s.read_to_string(&mut text).is_err() {
        return (0, Value::Null);
    }
    parse_answer(&text)
}

/// A raw HTTP answer's status and JSON body (`Value::Null` when it has none).
pub fn parse_answer(text: &str) -> (u16, Value) {
    let status = text.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let raw = text.split("\r\n\r\n").nth(1).unwrap_or("");
    // Bodies arrive chunked or not; the JSON object is between the first '{' and the last '}'.
    let json = match (raw.find('{'), raw.rfind('}')) {
        (Some(a), Some(b)) => serde_json::from_str(&raw[a..=b]).unwrap_or(Value::Null),
        _ => Value::Null,
    };
    (status, json)
}

/// One request to a server that must answer.
pub fn http(addr: &str, method: &str, path: &str, token: Option<&str>, body: Option<&Value>) -> (u16, Value) {
    let answer = try_http(addr, method, path, token, body);
    assert_ne!(answer.0, 0, "no answer from {addr} to {method} {path}");
    answer
}

/// One move by whoever's turn it is at a two-seat table; false when the game is over.
pub fn play_one(addr: &str, id: &str, tokens: &[String; 2]) -> bool {
    let (_, v) = http(addr, "GET", &format!("/api/tables/{id}"), Some(&tokens[0]), None);
    if v["status"] != "playing" {
        return false;
    }
    let cur = v["view"]["current"].as_u64().expect("current") as usize;
    let (_, mine) = http(addr, "GET", &format!("/api/tables/{id}"), Some(&tokens[cur]), None);
    let action = mine["legal_actions"][0].clone();
    let body = json!({"action": action, "version": mine["version"]});
    let (s, r) = http(addr, "POST", &format!("/api/tables/{id}/actions"), Some(&tokens[cur]), Some(&body));
    assert_eq!(s, 200, "{r}");
    true
}

/// A free loopback port (free when asked: a server started on it right after gets it).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free port").port()
}

/// A NATS server of its own on a free loopback port; stopped when dropped. `scripts/ensure-nats`
/// installs the program.
pub struct TempNats {
    child: Option<std::process::Child>,
    pub port: u16,
}

impl TempNats {
    pub fn start() -> TempNats {
        let mut n = TempNats { child: None, port: free_port() };
        n.resume();
        n
    }

    pub fn url(&self) -> String {
        format!("nats://127.0.0.1:{}", self.port)
    }

    /// Kills the server (as a crash would).
    pub fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    /// Starts it (again) on its port, and waits until it accepts connections.
    pub fn resume(&mut self) {
        let program = std::env::var("TABLETOP_NATS_SERVER").unwrap_or_else(|_| "nats-server".into());
        let child = std::process::Command::new(&program)
            .args(["-a", "127.0.0.1", "-p", &self.port.to_string()])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {program} ({e}): install it with `bash scripts/ensure-nats`"));
        self.child = Some(child);
        let since = std::time::Instant::now();
        while TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            assert!(since.elapsed() < std::time::Duration::from_secs(10), "nats-server did not start");
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }
}

impl Drop for TempNats {
    fn drop(&mut self) {
        self.kill();
    }
}
