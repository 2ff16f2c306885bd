//! A third game hosted by nothing but its `impl Hosted`: Nim (take 1 to 3 stones; whoever takes
//! the last wins), played through a real server: the host's routes, sockets, seat tokens, bots,
//! store, restart and kept records, none of it written for Nim.

use futures_util::StreamExt;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use server::host::{Facts, GameRefusal, Hosted, Kept, Opening, Pace, Seat, Shown, TableError, Tables, Viewer};
use server::{SeatSpec, TableStatus};

mod common;
use common::{http, ws_request};

struct Nim {
    start: u32,
    takes: Vec<(Seat, u32)>,
}

#[derive(Debug, thiserror::Error)]
enum NimRefusal {
    #[error("it is not your turn")]
    NotYourTurn,
    #[error("take 1 to 3 stones, at most those left")]
    BadTake,
    #[error("the game is over")]
    Over,
}

impl GameRefusal for NimRefusal {
    fn code(&self) -> &'static str {
        match self {
            NimRefusal::NotYourTurn => "not_your_turn",
            NimRefusal::BadTake => "bad_take",
            NimRefusal::Over => "game_over",
        }
    }
    fn says_over(&self) -> bool {
        matches!(self, NimRefusal::Over)
    }
}

#[derive(Clone, Default, Serialize, Deserialize)]
struct NoSettings {}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Create {
    stones: u32,
    against_bot: bool,
}

#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
struct Take {
    take: u32,
}

#[derive(Serialize, Deserialize)]
struct Record {
    start: u32,
    takes: Vec<(Seat, u32)>,
}

#[derive(Serialize)]
struct View {
    id: String,
    status: TableStatus,
    version: u64,
    stones: u32,
    you: Option<Seat>,
    events: Vec<u32>,
}

impl Nim {
    fn left(&self) -> u32 {
        self.start - self.takes.iter().map(|(_, n)| n).sum::<u32>()
    }
    fn to_move(&self) -> Seat {
        Seat(u8::from(!self.takes.len().is_multiple_of(2)))
    }
}

impl Hosted for Nim {
    const KIND: store::Kind = store::Kind::new("nim");
    type Setup = u32;
    type Settings = NoSettings;
    type Create = Create;
    type Action = Take;
    type Event = u32;
    type Refusal = NimRefusal;
    type View = View;
    type Bot = ();
    type Seen = u32;
    type Told = ();

    async fn open(req: Create, _: &Tables) -> Result<Opening<Nim>, TableError> {
        let other = match req.against_bot {
            true => SeatSpec::Bot { bot: "perfect".into(), seed: None, delay_ms: None },
            false => SeatSpec::Human { name: None },
        };
        let seats = vec![SeatSpec::Human { name: None }, other];
        let (name, creator_seat, turn_seconds, bot_delay_ms) = (Some("Ann".into()), None, None, None);
        let (spectators, settings) = (true, NoSettings {});
        Ok(Opening {
            seats,
            name,
            creator_seat,
            spectators,
            turn_seconds,
            bot_delay_ms,
            seed: 0,
            settings,
            setup: req.stones,
        })
    }
    fn deal(stones: &u32, _: &mut NoSettings) -> Result<(Nim, Vec<u32>), TableError> {
        Ok((Nim { start: *stones, takes: Vec::new() }, Vec::new()))
    }
    fn rematch(&self, _: &mut NoSettings) -> Result<u32, TableError> {
        Ok(self.start)
    }
    fn undealt(&self, _: &NoSettings) -> u32 {
        self.start
    }
    fn stored_setup(stones: &u32) -> Result<store::Header, TableError> {
        store::Header::new(stones).map_err(|e| TableError::Internal(e.to_string()))
    }
    fn unstored_setup(h: &store::Header, _: &NoSettings) -> Result<u32, String> {
        h.decode().map_err(|e| e.to_string())
    }
    fn header(&self) -> Result<store::Header, TableError> {
        Nim::stored_setup(&self.start)
    }
    fn restore(h: &store::Header, log: &[store::Entry]) -> Result<server::host::Restored<Nim>, String> {
        let mut nim = Nim { start: h.decode().map_err(|e| e.to_string())?, takes: Vec::new() };
        for e in log {
            let (seat, take) = Nim::unlogged(e)?;
            nim.apply(seat, take).map_err(|e| e.to_string())?;
        }
        Ok((nim, Vec::new()))
    }
    fn upto(&self, plies: u64) -> Result<Nim, String> {
        Ok(Nim { start: self.start, takes: self.takes[..plies as usize].to_vec() })
    }
    fn check(&self, seat: Seat, a: &Take) -> Result<(), NimRefusal> {
        match () {
            _ if self.is_over() => Err(NimRefusal::Over),
            _ if seat != self.to_move() => Err(NimRefusal::NotYourTurn),
            _ if !(1..=3).contains(&a.take) || a.take > self.left() => Err(NimRefusal::BadTake),
            _ => Ok(()),
        }
    }
    fn apply(&mut self, seat: Seat, a: Take) -> Result<Vec<u32>, NimRefusal> {
        self.check(seat, &a)?;
        self.takes.push((seat, a.take));
        Ok(vec![self.left()])
    }
    fn logged(seat: Seat, a: &Take) -> Result<store::Entry, TableError> {
        store::Entry::new(&(seat, a.take)).map_err(|e| TableError::Internal(e.to_string()))
    }
    fn unlogged(e: &store::Entry) -> Result<(Seat, Take), String> {
        e.decode::<(Seat, u32)>().map(|(s, take)| (s, Take { take })).map_err(|e| e.to_string())
    }
    fn plies(&self) -> u64 {
        self.takes.len() as u64
    }
    fn is_over(&self) -> bool {
        self.left() == 0
    }
    fn turn(&self, _: &Facts<'_, Nim>) -> Option<Seat> {
        (!self.is_over()).then(|| self.to_move())
    }
    fn pace(&self, _: Seat, _: &Facts<'_, Nim>, _: std::time::Duration) -> Pace {
        Pace::After(std::time::Duration::ZERO)
    }
    fn timeout_action(&self, _: Seat) -> Option<(Take, bool)> {
        Some((Take { take: 1 }, false))
    }
    fn bot(name: &str, _: u64) -> Result<(String, ()), TableError> {
        (name == "perfect").then(|| (name.to_string(), ())).ok_or_else(|| TableError::UnknownBot(name.into()))
    }
    fn seen(&self, _: Seat) -> u32 {
        self.left()
    }
    fn choose(_: &mut (), left: &u32) -> Option<Take> {
        Some(Take { take: (left % 4).max(1) })
    }
    fn fallback(_: &u32) -> Option<Take> {
        Some(Take { take: 1 })
    }
    fn view(&self, f: &Facts<'_, Nim>, v: Viewer, shown: Shown<'_, u32>) -> View {
        let events = match shown {
            Shown::Recent(r) => r.iter().map(|e| e.event).collect(),
            Shown::Change(e, a) => e.iter().chain(a).map(|e| e.event).collect(),
        };
        View { id: f.id.into(), status: f.status, version: f.version, stones: self.left(), you: v.seat(), events }
    }
    fn waiting_view(stones: &u32, f: &Facts<'_, Nim>, v: Viewer) -> View {
        View { id: f.id.into(), status: f.status, version: f.version, stones: *stones, you: v.seat(), events: vec![] }
    }
    fn kept(&self, _: &Facts<'_, Nim>) -> Result<Kept, TableError> {
        let internal = |e: store::StoreError| TableError::Internal(e.to_string());
        let record = store::Record::new(&Record { start: self.start, takes: self.takes.clone() }).map_err(internal)?;
        let winner = self.takes.last().map(|(s, _)| *s);
        Ok(Kept { record, outcome: store::Outcome::new(&winner).map_err(internal)?, tallies: None })
    }
}

async fn server(db: &std::path::Path) -> std::net::SocketAddr {
    let games = server::Games::standard().with::<Nim>();
    let store = store::SqliteStore::open(db).expect("store");
    let state = server::AppState::hosting(store, server::Config::default(), games).await.expect("state");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(server::serve(listener, state, std::future::pending()));
    addr
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_third_game_is_hosted_by_its_impl_alone_through_the_real_server() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("nim.db");
    let addr = server(&db).await;
    let (s, created) =
        http(addr, "POST", "/api/tables", None, Some(&json!({"game": "nim", "stones": 7, "against_bot": false}))).await;
    assert_eq!(s, 201, "{created}");
    let id = created["id"].as_str().expect("id").to_string();
    let ann = created["token"].as_str().expect("token").to_string();
    assert_eq!(created["table"]["status"], "waiting");
    let (s, v) = http(
        addr,
        "POST",
        &format!("/api/tables/{id}/actions"),
        Some(&ann),
        Some(&json!({"action": {"take": 1}, "version": 0})),
    )
    .await;
    assert_eq!((s, v["code"].as_str()), (409, Some("not_started")), "{v}");
    let (s, joined) = http(addr, "POST", &format!("/api/tables/{id}/join"), None, Some(&json!({"name": "Bob"}))).await;
    assert_eq!((s, joined["seat"].as_u64()), (200, Some(1)), "{joined}");
    let bob = joined["token"].as_str().expect("token").to_string();

    // Bob's socket sees Ann's move; his move over the socket is taken as over HTTP.
    let (mut ws, _) = tokio_tungstenite::connect_async(ws_request(addr, &id, Some(&bob))).await.expect("socket");
    let first: Value =
        serde_json::from_str(ws.next().await.expect("state").expect("frame").to_text().expect("text")).expect("json");
    assert_eq!((first["stones"].as_u64(), first["you"].as_u64()), (Some(7), Some(1)), "{first}");
    let act = |take: u32, version: u64| json!({"action": {"take": take}, "version": version});
    let (s, v) = http(addr, "POST", &format!("/api/tables/{id}/actions"), Some(&ann), Some(&act(2, 0))).await;
    assert_eq!((s, v["stones"].as_u64()), (200, Some(5)), "{v}");
    let pushed: Value =
        serde_json::from_str(ws.next().await.expect("push").expect("frame").to_text().expect("text")).expect("json");
    assert_eq!(pushed["stones"], 5, "{pushed}");
    // Its refusals are the game's own, its tokens the host's.
    let (s, v) = http(addr, "POST", &format!("/api/tables/{id}/actions"), Some(&ann), Some(&act(1, 1))).await;
    assert_eq!((s, v["code"].as_str()), (422, Some("not_your_turn")), "{v}");
    let (s, v) = http(addr, "POST", &format!("/api/tables/{id}/actions"), None, Some(&act(1, 1))).await;
    assert_eq!((s, v["code"].as_str()), (401, Some("missing_token")), "{v}");
    use futures_util::SinkExt;
    let said = json!({"type": "action", "action": {"take": 3}, "version": 1}).to_string();
    ws.send(tokio_tungstenite::tungstenite::Message::text(said)).await.expect("send");
    let pushed: Value =
        serde_json::from_str(ws.next().await.expect("push").expect("frame").to_text().expect("text")).expect("json");
    assert_eq!((pushed["stones"].as_u64(), pushed["version"].as_u64()), (Some(2), Some(2)), "{pushed}");

    // A restart on the same store: the game comes back as it stood, and plays on to its end.
    let addr = server(&db).await;
    let (s, v) = http(addr, "GET", &format!("/api/tables/{id}"), Some(&ann), None).await;
    assert_eq!((s, v["stones"].as_u64(), v["version"].as_u64()), (200, Some(2), Some(2)), "{v}");
    let (s, v) = http(addr, "POST", &format!("/api/tables/{id}/actions"), Some(&ann), Some(&act(2, 2))).await;
    assert_eq!((s, v["stones"].as_u64(), v["status"].as_str()), (200, Some(0), Some("finished")), "{v}");
    let kept = store::SqliteStore::open(&db).expect("store");
    let results = store::GameStore::results_of(&kept, &id).await.expect("results");
    assert_eq!(results.len(), 1);
    assert_eq!(results[0].kind, Nim::KIND);
    assert_eq!(results[0].outcome.decode::<Option<Seat>>().expect("outcome"), Some(Seat(0)));

    // Against its bot: the bot answers through the same path, and wins from 7 stones.
    let (s, created) =
        http(addr, "POST", "/api/tables", None, Some(&json!({"game": "nim", "stones": 6, "against_bot": true}))).await;
    assert_eq!((s, created["table"]["status"].as_str()), (201, Some("playing")), "{created}");
    let (id, token) = (created["id"].as_str().expect("id"), created["token"].as_str().expect("token"));
    let (s, _) = http(addr, "POST", &format!("/api/tables/{id}/actions"), Some(token), Some(&act(1, 0))).await;
    assert_eq!(s, 200);
    let mut stones = 5;
    for _ in 0..200 {
        let (_, v) = http(addr, "GET", &format!("/api/tables/{id}"), None, None).await;
        stones = v["stones"].as_u64().expect("stones");
        if stones == 4 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert_eq!(stones, 4, "the bot took 1 of 5, leaving a multiple of 4");
}
