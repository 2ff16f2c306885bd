//! One viewer's WebSocket: every message it got, and the table as merged from them.

use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tungstenite::client::IntoClientRequest;
use tungstenite::{Message, WebSocket};

use crate::merge;

/// One viewer's WebSocket (a seat's, or a spectator's without a token): every message it got,
/// and the table as merged from them.
pub struct Viewer {
    pub ws: WebSocket<TcpStream>,
    pub seen: Vec<Value>,
    pub held: Value,
    /// Close codes this viewer got, each followed by connecting again.
    pub closes: Vec<u16>,
}

/// Why a viewer stopped reading.
#[derive(Debug)]
pub enum Ended {
    Closed(u16),
    Refused(String),
}

pub fn open(addr: &str, id: &str, token: Option<&str>) -> Result<WebSocket<TcpStream>, String> {
    let mut req = format!("ws://{addr}/api/tables/{id}/ws").into_client_request().map_err(|e| e.to_string())?;
    let protocols = match token {
        Some(t) => format!("tabletop, bearer.{t}"),
        None => "tabletop".to_string(),
    };
    req.headers_mut().insert("sec-websocket-protocol", protocols.parse().map_err(|_| "header")?);
    let stream = TcpStream::connect(addr).map_err(|e| e.to_string())?;
    stream.set_read_timeout(Some(Duration::from_secs(10))).map_err(|e| e.to_string())?;
    tungstenite::client(req, stream).map(|(ws, _)| ws).map_err(|e| e.to_string())
}

impl Viewer {
    /// Connects, trying again (the table between owners) for up to `wait`.
    pub fn connect(addr: &str, id: &str, token: Option<&str>, wait: Duration) -> Viewer {
        let since = Instant::now();
        loop {
            match open(addr, id, token) {
                Ok(ws) => {
                    let mut v = Viewer { ws, seen: Vec::new(), held: Value::Null, closes: Vec::new() };
                    if v.read().is_ok() {
                        return v;
                    }
                }
                Err(e) => assert!(since.elapsed() < wait, "no WebSocket to {addr} after {wait:?}: {e}"),
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub fn version(&self) -> u64 {
        self.held["version"].as_u64().unwrap_or(0)
    }

    /// One message.
    pub fn read(&mut self) -> Result<Value, Ended> {
        loop {
            match self.ws.read() {
                Ok(Message::Text(t)) => {
                    let m: Value = serde_json::from_str(t.as_str()).expect("json");
                    if m["type"] == "error" {
                        return Err(Ended::Refused(m["code"].as_str().unwrap_or("").to_string()));
                    }
                    merge::merge(&mut self.held, &m);
                    self.seen.push(m.clone());
                    return Ok(m);
                }
                Ok(Message::Close(f)) => return Err(Ended::Closed(f.map(|f| u16::from(f.code)).unwrap_or(1005))),
                Ok(_) => {}
                // A signal (the harness stops and continues its servers) interrupted the read:
                // nothing was consumed, read again.
                Err(tungstenite::Error::Io(e)) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => panic!("reading a WebSocket: {e}"),
            }
        }
    }

    /// Reads until the viewer holds `version`.
    pub fn catch_up(&mut self, version: u64) -> Result<(), Ended> {
        while self.version() < version {
            self.read()?;
        }
        Ok(())
    }

    pub fn send(&mut self, action: &Value, version: u64) {
        let text = json!({"type": "action", "action": action, "version": version}).to_string();
        self.ws.send(Message::text(text)).expect("send");
    }
}

impl Viewer {
    /// Reads until the viewer holds `version`, connecting again after a close as the page does;
    /// false when `wait` passes first.
    pub fn reaches(&mut self, addr: &str, id: &str, token: Option<&str>, version: u64, wait: Duration) -> bool {
        let since = Instant::now();
        while self.version() < version {
            let Some(left) = wait.checked_sub(since.elapsed()).filter(|d| !d.is_zero()) else { return false };
            let _ = self.ws.get_ref().set_read_timeout(Some(left));
            match self.ws.read() {
                Ok(Message::Text(t)) => {
                    let m: Value = serde_json::from_str(t.as_str()).expect("json");
                    merge::merge(&mut self.held, &m);
                    self.seen.push(m);
                }
                Ok(Message::Close(f)) => {
                    self.closes.push(f.map(|f| u16::from(f.code)).unwrap_or(1005));
                    let Some(left) = wait.checked_sub(since.elapsed()) else { return false };
                    let fresh = Viewer::connect(addr, id, token, left);
                    (self.ws, self.held) = (fresh.ws, fresh.held);
                    self.seen.extend(fresh.seen);
                }
                Ok(_) => {}
                Err(tungstenite::Error::Io(e))
                    if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) =>
                {
                    return false
                }
                Err(tungstenite::Error::Io(e)) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => panic!("reading a WebSocket: {e}"),
            }
        }
        let _ = self.ws.get_ref().set_read_timeout(Some(Duration::from_secs(10)));
        true
    }
}
