//! Quick match on two `tabletop serve` instances of one cluster (one private PostgreSQL and one
//! NATS server): people who join on different instances wait in one queue and sit at one
//! table, each told their seat on the queue socket of the instance they are connected to; a
//! relayed queue socket that closes while its person waits takes them out of the queue, as a
//! socket on the ticket's own instance does (docs/matchmaking.md).

use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tungstenite::client::IntoClientRequest;
use tungstenite::{Message, WebSocket};

mod common;
mod serving;
use serving::http;

#[path = "../../server/tests/common/hidden.rs"]
#[allow(dead_code)]
mod hidden;
#[path = "../../server/tests/common/merge.rs"]
#[allow(dead_code)]
mod merge;

#[allow(dead_code)]
mod relay;
use relay::{site, start, table};

/// The queue socket of `ticket` on the instance at `addr`.
fn queue_socket(addr: &str, ticket: &str) -> WebSocket<TcpStream> {
    let mut req = format!("ws://{addr}/api/queue/ws").into_client_request().expect("request");
    let protocols = format!("tabletop, bearer.{ticket}");
    req.headers_mut().insert("sec-websocket-protocol", protocols.parse().expect("header"));
    let stream = TcpStream::connect(addr).expect("connect");
    stream.set_read_timeout(Some(Duration::from_secs(15))).expect("timeout");
    tungstenite::client(req, stream).map(|(ws, _)| ws).expect("the queue socket opens")
}

/// Reads the socket's statuses until one is `seated` (or `within` is over).
fn seated(ws: &mut WebSocket<TcpStream>, within: Duration, who: &str) -> Value {
    let until = Instant::now() + within;
    let mut seen = Vec::new();
    while Instant::now() < until {
        match ws.read() {
            Ok(Message::Text(t)) => {
                let v: Value = serde_json::from_str(&t).expect("json");
                if v["state"] == "seated" {
                    return v;
                }
                assert_eq!(v["state"], "waiting", "{who}: {v} (after {seen:?})");
                seen.push(v);
            }
            Ok(_) => {}
            Err(e) => panic!("{who}'s queue socket: {e} (after {seen:?})"),
        }
    }
    panic!("{who} not seated within {within:?}: {seen:?}");
}

fn join(addr: &str, name: &str, players: u8) -> String {
    let body = json!({"preset": "official", "players": players, "name": name, "wait_s": 120});
    let (s, v) = http(addr, "POST", "/api/queue", None, Some(&body));
    assert_eq!(s, 201, "{v}");
    assert_eq!(v["status"]["state"], "waiting", "{v}");
    v["ticket"].as_str().expect("ticket").to_string()
}

/// Waits until each instance lists the other's table: each has heard the other on the bus.
fn hear_each_other(a: &str, b: &str) {
    let (on_a, _) = table(a, a, 1);
    let (on_b, _) = table(b, b, 2);
    let lists = |addr: &str, id: &str| {
        let (_, v) = http(addr, "GET", "/api/tables", None, None);
        v["tables"].as_array().is_some_and(|t| t.iter().any(|t| t["id"] == id))
    };
    let until = Instant::now() + Duration::from_secs(10);
    while !(lists(a, &on_b) && lists(b, &on_a)) {
        assert!(Instant::now() < until, "the instances did not hear each other");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn two_people_joining_on_two_instances_sit_at_one_table() {
    let site = site("queue");
    let a = start(&site.db, Some(&site.nats.url()), "a");
    let b = start(&site.db, Some(&site.nats.url()), "b");
    hear_each_other(&a.addr, &b.addr);

    // Ann on a, Bob on b, each with a long wait: only each other can fill the table.
    let ann = join(&a.addr, "Ann", 2);
    let mut ann_ws = queue_socket(&a.addr, &ann);
    let bob = join(&b.addr, "Bob", 2);
    let mut bob_ws = queue_socket(&b.addr, &bob);
    let ann_seat = seated(&mut ann_ws, Duration::from_secs(10), "Ann");
    let bob_seat = seated(&mut bob_ws, Duration::from_secs(10), "Bob");
    assert_eq!(ann_seat["table"], bob_seat["table"], "one table: {ann_seat} {bob_seat}");
    assert_ne!(ann_seat["seat"], bob_seat["seat"]);
    assert_eq!(bob_seat["people"], 2, "no bot: {bob_seat}");

    // Bob plays through b with the seat he was told there: the table is whole, both people's.
    let id = bob_seat["table"].as_str().expect("table");
    let token = bob_seat["token"].as_str().expect("token");
    let (s, view) = http(&b.addr, "GET", &format!("/api/tables/{id}"), Some(token), None);
    assert_eq!(s, 200, "{view}");
    let names: Vec<&str> = view["seats"].as_array().expect("seats").iter().filter_map(|s| s["name"].as_str()).collect();
    assert!(names.contains(&"Ann") && names.contains(&"Bob"), "{view}");
    assert!(view["seats"].as_array().expect("seats").iter().all(|s| s["kind"] == "human"), "{view}");
    // Bob's ticket is read through b too.
    let (s, status) = http(&b.addr, "GET", "/api/queue", Some(&bob), None);
    assert_eq!((s, status["table"].as_str()), (200, Some(id)), "{status}");

    // Cara waits on b and closes her socket: she is out of the queue at its home.
    let cara = join(&b.addr, "Cara", 2);
    let mut cara_ws = queue_socket(&b.addr, &cara);
    let first = cara_ws.read().expect("first status");
    assert!(first.to_text().expect("text").contains("waiting"), "{first}");
    cara_ws.close(None).expect("close");
    let _ = cara_ws.read();
    let until = Instant::now() + Duration::from_secs(5);
    loop {
        let (s, v) = http(&a.addr, "GET", "/api/queue", Some(&cara), None);
        if s == 403 {
            break;
        }
        assert_eq!(v["state"], "waiting", "{v}");
        assert!(Instant::now() < until, "Cara is still in the queue after closing her socket: {v}");
        std::thread::sleep(Duration::from_millis(100));
    }
    // Dan, joining on b after her, is not seated with a ghost of Cara.
    let dan = join(&b.addr, "Dan", 2);
    std::thread::sleep(Duration::from_millis(1_500));
    let (s, v) = http(&b.addr, "GET", "/api/queue", Some(&dan), None);
    assert_eq!((s, &v["state"]), (200, &json!("waiting")), "{v}");
}

/// An arena opened on one instance is listed, joined and read through the other: its id names
/// the instance that runs it, and `GET /api/arenas` lists every instance's.
#[test]
fn an_arena_opened_on_one_instance_is_joined_and_read_through_the_other() {
    let site = site("arenas");
    let a = start(&site.db, Some(&site.nats.url()), "a");
    let b = start(&site.db, Some(&site.nats.url()), "b");
    hear_each_other(&a.addr, &b.addr);
    let open = |addr: &str, name: &str| {
        let (s, v) = http(addr, "POST", "/api/arenas", None, Some(&json!({"name": name, "minutes": 5})));
        assert_eq!(s, 201, "{v}");
        v["id"].as_str().expect("id").to_string()
    };
    let on_a = open(&a.addr, "Friday");
    let on_b = open(&b.addr, "Saturday");
    for addr in [&a.addr, &b.addr] {
        let (s, v) = http(addr, "GET", "/api/arenas", None, None);
        assert_eq!(s, 200, "{v}");
        let ids: Vec<&str> = v["arenas"].as_array().expect("arenas").iter().filter_map(|x| x["id"].as_str()).collect();
        assert!(ids.contains(&on_a.as_str()) && ids.contains(&on_b.as_str()), "{addr} lists {ids:?}");
        assert_eq!(ids.len(), 2, "each once: {ids:?}");
    }
    // Bob joins a's arena through b, Ann through a: both see the same standings.
    let join = |addr: &str, name: &str| {
        let (s, v) = http(addr, "POST", &format!("/api/arenas/{on_a}/join"), None, Some(&json!({"name": name})));
        assert_eq!(s, 201, "{v}");
        v["token"].as_str().expect("token").to_string()
    };
    let bob = join(&b.addr, "Bob");
    let _ann = join(&a.addr, "Ann");
    let (s, through_b) = http(&b.addr, "GET", &format!("/api/arenas/{on_a}"), Some(&bob), None);
    assert_eq!(s, 200, "{through_b}");
    assert_eq!(through_b["you"], "Bob", "{through_b}");
    let names = |v: &Value| -> Vec<String> {
        let mut n: Vec<String> = v["standings"]
            .as_array()
            .expect("standings")
            .iter()
            .filter_map(|l| l["name"].as_str().map(String::from))
            .collect();
        n.sort();
        n
    };
    let (_, on_a_view) = http(&a.addr, "GET", &format!("/api/arenas/{on_a}"), None, None);
    let listed = names(&through_b);
    assert!(listed.contains(&"Ann".to_string()) && listed.contains(&"Bob".to_string()), "{through_b}");
    assert_eq!(names(&on_a_view), listed);
}

/// One request with a session cookie (`cookie`): the status, the body, and the session cookie
/// the answer set, if any.
fn with_cookie(
    addr: &str,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    body: &Value,
) -> (u16, Value, Option<String>) {
    use std::io::{Read, Write};
    let mut s = TcpStream::connect(addr).expect("connect");
    let body = body.to_string();
    let cookie = cookie.map(|c| format!("Cookie: {c}\r\n")).unwrap_or_default();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{cookie}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .expect("send");
    let mut text = String::new();
    s.read_to_string(&mut text).expect("answer");
    let set = text
        .lines()
        .find_map(|l| l.strip_prefix("set-cookie: ").or_else(|| l.strip_prefix("Set-Cookie: ")))
        .and_then(|c| c.split(';').next())
        .map(str::to_string);
    let (status, v) = serving::parse_answer(&text);
    (status, v, set)
}

/// Signed-in people joining on two instances are seated as their accounts, at one rated table:
/// the session travels with the forwarded join, and the queue instance reads it from the shared
/// store.
#[test]
fn signed_in_people_joining_on_two_instances_sit_as_their_accounts() {
    let site = site("queue_signed");
    let a = start(&site.db, Some(&site.nats.url()), "a");
    let b = start(&site.db, Some(&site.nats.url()), "b");
    hear_each_other(&a.addr, &b.addr);
    let sign_up = |addr: &str, name: &str| {
        let (s, v, cookie) =
            with_cookie(addr, "POST", "/api/account/sign-up", None, &json!({"name": name, "password": "pass word 1"}));
        assert_eq!(s, 201, "{v}");
        cookie.expect("a session cookie")
    };
    let ann = sign_up(&a.addr, "Ann");
    let bob = sign_up(&b.addr, "Bob");
    let body = json!({"preset": "official", "players": 2, "wait_s": 120});
    let (s, va, _) = with_cookie(&a.addr, "POST", "/api/queue", Some(&ann), &body);
    assert_eq!(s, 201, "{va}");
    let (s, vb, _) = with_cookie(&b.addr, "POST", "/api/queue", Some(&bob), &body);
    assert_eq!(s, 201, "{vb}");
    let mut ann_ws = queue_socket(&a.addr, va["ticket"].as_str().expect("ticket"));
    let mut bob_ws = queue_socket(&b.addr, vb["ticket"].as_str().expect("ticket"));
    let sa = seated(&mut ann_ws, Duration::from_secs(10), "Ann");
    let sb = seated(&mut bob_ws, Duration::from_secs(10), "Bob");
    assert_eq!(sa["table"], sb["table"], "{sa} {sb}");
    let id = sb["table"].as_str().expect("table");
    let (s, view) = http(&b.addr, "GET", &format!("/api/tables/{id}"), sb["token"].as_str(), None);
    assert_eq!(s, 200, "{view}");
    let mut names: Vec<&str> =
        view["seats"].as_array().expect("seats").iter().filter_map(|s| s["name"].as_str()).collect();
    names.sort();
    assert_eq!(names, ["Ann", "Bob"], "{view}");
}
