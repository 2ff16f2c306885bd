//! The curl sessions of docs/api.md ("Try it") and README.md run against the real binary, as
//! written: each `curl` line is read (method, headers, body, URL) and sent, with the placeholders
//! `ID`, `TOKEN_ANN` and `VERSION` filled from the answers before it, so the sessions stay true.
//! A `# -> {...}` comment after a command names the keys its answer must have. The TableView
//! sketch of docs/api.md is checked too: every top-level field it shows is in a real view.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

mod common;
mod serving;
use serving::{http, parse_answer};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A step of a session: a curl command, or what its answer shows (`# -> ...`).
#[derive(Debug)]
enum Step {
    Curl(Vec<String>),
    Answer(String),
}

/// The steps of the ```bash block that holds `curl` in `doc` (after `heading`, when given).
fn session(doc: &str, heading: Option<&str>) -> Vec<Step> {
    let text = std::fs::read_to_string(root().join(doc)).expect("doc readable");
    let from = heading.map(|h| text.find(h).unwrap_or_else(|| panic!("{doc}: no {h:?}"))).unwrap_or(0);
    let mut lines = text[from..].lines();
    let block: Vec<&str> = loop {
        let Some(line) = lines.next() else { panic!("{doc}: no bash block with curl") };
        if line.trim() != "```bash" {
            continue;
        }
        let block: Vec<&str> = lines.by_ref().take_while(|l| l.trim() != "```").collect();
        if block.iter().any(|l| l.starts_with("curl ")) {
            break block;
        }
    };
    let mut steps = Vec::new();
    let mut pending = String::new();
    for line in block {
        if let Some(answer) = line.trim().strip_prefix("# ->") {
            steps.push(Step::Answer(answer.trim().to_string()));
            continue;
        }
        let code = line.split(" # ").next().unwrap_or("").trim_end();
        if pending.is_empty() && (code.is_empty() || code.starts_with('#')) {
            continue;
        }
        match code.strip_suffix('\\') {
            Some(head) => pending.push_str(head),
            None => {
                pending.push_str(code);
                let words = shell_words(&pending);
                if words.first().map(String::as_str) == Some("curl") {
                    steps.push(Step::Curl(words));
                }
                pending.clear();
            }
        }
    }
    steps
}

/// Splits a command line as a shell does for these examples: spaces, and single quotes.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                word.get_or_insert_with(String::new);
            }
            ' ' | '\t' if !quoted => words.extend(word.take()),
            _ => word.get_or_insert_with(String::new).push(c),
        }
    }
    assert!(!quoted, "unbalanced quote in {line:?}");
    words.extend(word);
    words
}

/// A curl command's request: method, path, headers, body.
struct Request {
    method: String,
    path: String,
    headers: Vec<String>,
    body: Option<String>,
}

fn request(words: &[String], fill: &dyn Fn(&str) -> String) -> Request {
    let mut method = None;
    let mut url = None;
    let mut headers = Vec::new();
    let mut body = None;
    let mut it = words.iter().skip(1);
    while let Some(w) = it.next() {
        match w.as_str() {
            "-s" => {}
            "-X" => method = it.next().cloned(),
            "-H" => headers.push(fill(it.next().expect("a header"))),
            "-d" => body = it.next().map(|b| fill(b)),
            other if other.starts_with('-') => panic!("an option this test does not read: {other}"),
            other => url = Some(fill(other)),
        }
    }
    let url = url.expect("a URL");
    let path = url.strip_prefix("localhost:8080").unwrap_or_else(|| panic!("a URL on localhost:8080: {url}"));
    // curl sends a body as POST unless told otherwise.
    let method = method.unwrap_or_else(|| if body.is_some() { "POST" } else { "GET" }.into());
    Request { method, path: path.to_string(), headers, body }
}

/// Sends `req` to `addr` as curl would, and returns the status and the JSON answer (`Null` when
/// there is none).
fn send(addr: &str, req: &Request) -> (u16, Value) {
    let mut s = TcpStream::connect(addr).expect("connect");
    let mut head = format!("{} {} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n", req.method, req.path);
    for h in &req.headers {
        head.push_str(h);
        head.push_str("\r\n");
    }
    let body = req.body.clone().unwrap_or_default();
    if req.body.is_some() {
        head.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    write!(s, "{head}\r\n{body}").expect("send");
    let mut text = String::new();
    s.read_to_string(&mut text).expect("answer");
    parse_answer(&text)
}

/// The keys a sketch such as `{"id":"ID","seat":0,...}` names (`"key":`), in order.
fn keys_named(sketch: &str) -> Vec<String> {
    let parts: Vec<&str> = sketch.split('"').collect();
    let mut keys: Vec<String> = Vec::new();
    // Odd parts are inside quotes; one is a key when a colon follows its closing quote.
    for i in (1..parts.len().saturating_sub(1)).step_by(2) {
        if parts[i + 1].trim_start().starts_with(':') && !keys.iter().any(|k| k == parts[i]) {
            keys.push(parts[i].to_string());
        }
    }
    keys
}

/// The real server on a free port, with a fresh database (removed with it).
fn start() -> ((common::Server, tempfile::TempDir), String) {
    let dir = tempfile::tempdir().expect("temp dir");
    let server = common::serve(dir.path().join("t.db")).start();
    let addr = server.addr.clone();
    ((server, dir), addr)
}

/// Runs a session's steps; before an action, plays the table on (Bob's moves, Ann's other moves)
/// until Ann may send the action the session sends, as a person pasting it would wait for.
fn run(addr: &str, steps: &[Step]) -> Value {
    let mut vars: Vec<(&str, String)> = Vec::new();
    let mut last = Value::Null;
    let mut bob: Option<String> = None;
    for step in steps {
        match step {
            Step::Answer(sketch) => {
                for key in keys_named(sketch) {
                    assert!(last.get(&key).is_some(), "the answer has no {key:?} ({sketch}): {last}");
                }
            }
            Step::Curl(words) => {
                let fill = |s: &str| vars.iter().fold(s.to_string(), |acc, (name, value)| acc.replace(name, value));
                let mut req = request(words, &fill);
                if req.path.ends_with("/actions") {
                    // Which action it sends (VERSION is read just below, as the session says).
                    let body = req.body.as_deref().unwrap_or("").replace("VERSION", "0");
                    let sent: Value = serde_json::from_str(&body).expect("action JSON");
                    let (id, ann) = (var(&vars, "ID"), var(&vars, "TOKEN_ANN"));
                    let version = wait_for(addr, &id, &ann, bob.as_deref(), &sent["action"]);
                    // The session reads VERSION from the table just before: so does the test.
                    vars.retain(|(n, _)| *n != "VERSION");
                    vars.push(("VERSION", version.to_string()));
                    let fill = |s: &str| vars.iter().fold(s.to_string(), |acc, (name, value)| acc.replace(name, value));
                    req = request(words, &fill);
                }
                let (status, answer) = send(addr, &req);
                assert!((200..300).contains(&status), "{} {} answered {status}: {answer}", req.method, req.path);
                if req.path == "/api/tables" && req.method == "POST" {
                    vars.push(("ID", answer["id"].as_str().expect("id").to_string()));
                    vars.push(("TOKEN_ANN", answer["token"].as_str().expect("token").to_string()));
                } else if req.path.ends_with("/join") {
                    bob = answer["token"].as_str().map(String::from);
                }
                last = answer;
            }
        }
    }
    last
}

fn var(vars: &[(&str, String)], name: &str) -> String {
    vars.iter().find(|(n, _)| *n == name).map(|(_, v)| v.clone()).unwrap_or_else(|| panic!("{name} not set yet"))
}

/// Plays until `action` is among Ann's legal actions; returns the table's version then.
fn wait_for(addr: &str, id: &str, ann: &str, bob: Option<&str>, action: &Value) -> u64 {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        assert!(Instant::now() < deadline, "Ann never could send {action}");
        let (_, view) = http(addr, "GET", &format!("/api/tables/{id}"), Some(ann), None);
        assert_eq!(view["status"], "playing", "the game is not being played: {view}");
        let legal = view["legal_actions"].as_array().cloned().unwrap_or_default();
        if legal.contains(action) {
            return view["version"].as_u64().expect("version");
        }
        // Whose turn: Ann's (another action first), Bob's (the test plays him), or the bot's.
        let mover = match (legal.first(), bob) {
            (Some(_), _) => Some(ann),
            (None, Some(b)) => {
                let (_, v) = http(addr, "GET", &format!("/api/tables/{id}"), Some(b), None);
                v["legal_actions"].as_array().is_some_and(|l| !l.is_empty()).then_some(b)
            }
            (None, None) => None,
        };
        match mover {
            Some(token) => {
                let (_, v) = http(addr, "GET", &format!("/api/tables/{id}"), Some(token), None);
                let first = v["legal_actions"][0].clone();
                if !first.is_null() {
                    let body = json!({"action": first, "version": v["version"]});
                    http(addr, "POST", &format!("/api/tables/{id}/actions"), Some(token), Some(&body));
                }
            }
            None => std::thread::sleep(Duration::from_millis(100)),
        }
    }
}

#[test]
fn the_api_docs_session_runs_as_written() {
    let steps = session("docs/api.md", Some("## Try it"));
    assert!(steps.iter().filter(|s| matches!(s, Step::Curl(_))).count() >= 4, "{steps:?}");
    let (_server, addr) = start();
    let last = run(&addr, &steps);
    // The last command is the spectator's read: a full view without a seat.
    assert_eq!(last["you"], Value::Null, "{last}");
    assert_eq!(last["type"], "state", "{last}");
}

#[test]
fn the_readme_session_runs_as_written() {
    let steps = session("README.md", Some("a session to paste"));
    assert!(steps.iter().filter(|s| matches!(s, Step::Curl(_))).count() >= 4, "{steps:?}");
    let (_server, addr) = start();
    let last = run(&addr, &steps);
    // The last command is Ann's action: its answer is her full view, typed `update`.
    assert_eq!(last["type"], "update", "{last}");
    assert_eq!(last["you"], 0, "{last}");
}

#[test]
fn the_table_view_sketch_names_real_fields() {
    let text = std::fs::read_to_string(root().join("docs/api.md")).expect("doc");
    let from = text.find("TableView (HTTP answers").expect("the TableView section");
    let block = text[from..].split("```text").nth(1).and_then(|b| b.split("```").next()).expect("its sketch");
    let (_server, addr) = start();
    let create =
        json!({"preset": "official", "name": "Ann", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]});
    let (s, created) = http(&addr, "POST", "/api/tables", None, Some(&create));
    assert_eq!(s, 201, "{created}");
    let view = &created["table"];
    // Only the top level: the sketch's inner objects (seats, events) are examples of their kind.
    let top: Vec<String> = top_level_keys(block);
    assert!(top.len() >= 10, "{top:?}");
    for key in top {
        assert!(view.get(&key).is_some(), "the sketch shows {key:?}, a real TableView has no such field: {view}");
    }
}

/// The keys of the outermost object of a sketch (depth 1 of its braces and brackets).
fn top_level_keys(sketch: &str) -> Vec<String> {
    let mut keys = Vec::new();
    let mut depth = 0i32;
    let mut chars = sketch.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '{' | '[' => depth += 1,
            '}' | ']' => depth -= 1,
            '"' => {
                let end = sketch[i + 1..].find('"').map(|e| i + 1 + e).expect("closed string");
                let key = &sketch[i + 1..end];
                if depth == 1 && sketch[end + 1..].trim_start().starts_with(':') {
                    keys.push(key.to_string());
                }
                while chars.peek().is_some_and(|(j, _)| *j <= end) {
                    chars.next();
                }
            }
            _ => {}
        }
    }
    keys
}

#[test]
fn the_readers_of_the_docs_find_what_they_check() {
    assert_eq!(shell_words("curl -s -H 'a: b c' x"), ["curl", "-s", "-H", "a: b c", "x"]);
    assert_eq!(keys_named(r#"{"id":"ID","seat":0,...}"#), ["id", "seat"]);
    assert_eq!(top_level_keys(r#"{ "a": 1, "b": {"c": 2}, "d": [{"e": 3}] }"#), ["a", "b", "d"]);
}
