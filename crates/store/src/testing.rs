//! For tests of this crate and of its users: the store suite every backend must pass, and a
//! private PostgreSQL server started in a temporary folder.

use std::collections::HashMap;
use std::future::Future;
use std::time::Duration;

use crate::{
    Entry, GameStore, Header, Kind, Meta, NewGame, NewResult, Outcome, Record, SharedStore, Standing, StoreError,
};
use crate::{Lease, PgStore};

/// An entry holding `text` as a JSON string.
pub fn entry(text: &str) -> Entry {
    Entry::new(text).expect("a string serialises")
}

pub fn entries(texts: &[&str]) -> Vec<Entry> {
    texts.iter().map(|t| entry(t)).collect()
}

/// A new game with an empty header and meta.
pub fn new_game(id: &str, kind: Kind) -> NewGame {
    NewGame {
        id: id.into(),
        kind,
        header: Header::new(&serde_json::json!({})).expect("header"),
        meta: Meta::new(&serde_json::json!({})).expect("meta"),
    }
}

/// Every test of the suite, in turn. `open(name)` gives a store on the database `name`: empty
/// the first time a name is used, the same data when it is opened again.
pub async fn run_all<F, Fut>(open: F)
where
    F: Fn(String) -> Fut,
    Fut: Future<Output = SharedStore>,
{
    a_game_survives_reopening_with_its_log_in_order(&open).await;
    an_out_of_order_append_is_refused_alone(&open).await;
    finished_and_abandoned_games_are_not_rebuilt_and_results_are_kept(&open).await;
    a_taken_id_is_refused_and_documents_read_back_typed(&open).await;
    a_read_sees_the_writes_queued_before_it(&open).await;
    every_log_reads_back_whole_through_rematches_and_reopens(&open).await;
    a_games_results_read_by_id_and_old_ones_are_forgotten(&open).await;
    tallies_are_totals_kept_with_the_results(&open).await;
    forgetting_deletes_every_row_of_a_game_out_of_play(&open).await;
    imports_share_a_budget_and_the_oldest_go_first(&open).await;
}

/// Imported records share one budget of bytes: once an import takes them past it, the oldest
/// imports are forgotten (never a game played here, never the new import); a game's own
/// results are not counted in it.
pub async fn imports_share_a_budget_and_the_oldest_go_first<F, Fut>(open: &F)
where
    F: Fn(String) -> Fut,
    Fut: Future<Output = SharedStore>,
{
    let s = open("import_budget".into()).await;
    // Each record is 1,002 bytes of JSON (a string of 1,000 characters and its quotes).
    let result = |id: &str| NewResult {
        game_id: id.into(),
        kind: Kind::UNO,
        record: Record::new(&"x".repeat(1000)).expect("record"),
        actions: 0,
        outcome: Outcome::new(&0).expect("outcome"),
        tallies: None,
    };
    s.add_result(result("played")).await.expect("result");
    let kept = |s: SharedStore| async move {
        let mut ids: Vec<String> =
            s.results(Kind::UNO).await.expect("results").into_iter().map(|r| r.game_id).collect();
        ids.sort();
        ids
    };
    for id in ["i1", "i2", "i3"] {
        s.add_import(result(id), 3_500).await.expect("import");
    }
    assert_eq!(kept(s.clone()).await, ["i1", "i2", "i3", "played"], "three fit in 3,500 bytes");
    s.add_import(result("i4"), 3_500).await.expect("import");
    assert_eq!(kept(s.clone()).await, ["i2", "i3", "i4", "played"], "the oldest import went first");
    s.add_import(result("i5"), 1_500).await.expect("import");
    assert_eq!(kept(s.clone()).await, ["i5", "played"], "a smaller budget forgets every older one");
    assert_eq!(s.results_of("i5").await.expect("results").len(), 1);
    assert!(s.results_of("i2").await.expect("results").is_empty());
}

/// Forgetting before a moment deletes every game of the kind that left play before it (its
/// row, its log) with its results; games in play and other kinds stay.
pub async fn forgetting_deletes_every_row_of_a_game_out_of_play<F, Fut>(open: &F)
where
    F: Fn(String) -> Fut,
    Fut: Future<Output = SharedStore>,
{
    let s = open("forget_games".into()).await;
    for (id, kind) in [("done", Kind::UNO), ("left", Kind::UNO), ("play", Kind::UNO), ("duel", Kind::DUEL)] {
        s.create(new_game(id, kind)).await.expect("create");
        for seq in 0..3 {
            s.append(id, seq, entry("x")).await.expect("append");
        }
    }
    s.set_standing("done", Standing::Finished).await.expect("status");
    s.set_standing("left", Standing::Abandoned).await.expect("status");
    s.set_standing("duel", Standing::Finished).await.expect("status");
    let result = NewResult {
        game_id: "done".into(),
        kind: Kind::UNO,
        record: Record::new(&1).expect("record"),
        actions: 3,
        outcome: Outcome::new(&0).expect("outcome"),
        tallies: None,
    };
    s.add_result(result).await.expect("result");
    let now = crate::now();
    while crate::now() <= now {
        tokio::time::sleep(std::time::Duration::from_millis(1)).await;
    }
    s.forget_results(Kind::UNO, crate::now()).await.expect("forget");
    for gone in ["done", "left"] {
        assert!(s.load(gone).await.expect("load").is_none(), "{gone} is still stored");
        assert!(s.results_of(gone).await.expect("results").is_empty());
    }
    let play = s.load("play").await.expect("load").expect("a game in play stays");
    assert_eq!(play.actions.len(), 3);
    assert_eq!(s.load("duel").await.expect("load").expect("another kind stays").actions.len(), 3);
    // The id is free again.
    s.create(new_game("done", Kind::UNO)).await.expect("create again");
    assert!(s.load("done").await.expect("load").expect("done").actions.is_empty());
}

fn tally(name: &str, wins: i64, points: i64) -> crate::Tally {
    crate::Tally { name: name.into(), games: 1, wins, points, challenges_won: wins, uno_missed: 1 - wins }
}

/// Each result's tallies are added to the totals in its transaction, a page is read in order
/// (the most games, the most wins, then the name), a result without tallies counts for
/// nothing, and forgetting results takes their tallies off (a player left at none is gone).
pub async fn tallies_are_totals_kept_with_the_results<F, Fut>(open: &F)
where
    F: Fn(String) -> Fut,
    Fut: Future<Output = SharedStore>,
{
    let s = open("tallies".into()).await;
    let result = |id: &str, tallies: Option<Vec<crate::Tally>>| NewResult {
        game_id: id.into(),
        kind: Kind::UNO,
        record: Record::new(&1).expect("record"),
        actions: 0,
        outcome: Outcome::new(&0).expect("outcome"),
        tallies,
    };
    s.add_result(result("g1", Some(vec![tally("ann", 1, 50), tally("bob", 0, 0)]))).await.expect("result");
    let first = s.results(Kind::UNO).await.expect("results")[0].finished_at;
    // Later than the first, so it can be forgotten apart.
    while crate::now() <= first {
        tokio::time::sleep(std::time::Duration::from_millis(1)).await;
    }
    s.add_result(result("g2", Some(vec![tally("bob", 1, 20), tally("cy", 0, 0), tally("Ann", 0, 0)])))
        .await
        .expect("result");
    s.add_result(result("imported", None)).await.expect("result");
    let page = s.tallies(Kind::UNO, 0, 10).await.expect("tallies");
    assert_eq!((page.players, page.games), (4, 2));
    let order: Vec<(&str, i64, i64, i64)> =
        page.page.iter().map(|t| (t.name.as_str(), t.games, t.wins, t.points)).collect();
    assert_eq!(order, [("bob", 2, 1, 20), ("ann", 1, 1, 50), ("Ann", 1, 0, 0), ("cy", 1, 0, 0)]);
    assert_eq!(page.page[0].uno_missed, 1);
    let second = s.tallies(Kind::UNO, 1, 2).await.expect("tallies");
    assert_eq!(second.page.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["ann", "Ann"]);
    assert!(s.tallies(Kind::UNO, 9, 10).await.expect("tallies").page.is_empty());
    assert_eq!(s.tallies(Kind::DUEL, 0, 10).await.expect("tallies"), crate::TallyPage::default());
    assert!(s.untallied(Kind::UNO).await.expect("untallied").is_empty());
    // Tallying a result that is tallied already changes nothing.
    s.tally(Kind::UNO, "g1", first, Some(vec![tally("zed", 1, 1)])).await.expect("tally");
    assert_eq!(s.tallies(Kind::UNO, 0, 10).await.expect("tallies").players, 4);
    // The first game forgotten: ann's tally goes, bob keeps his second game.
    s.forget_results(Kind::UNO, first + 1).await.expect("forget");
    let page = s.tallies(Kind::UNO, 0, 10).await.expect("tallies");
    assert_eq!((page.players, page.games), (3, 1));
    let order: Vec<(&str, i64, i64)> = page.page.iter().map(|t| (t.name.as_str(), t.games, t.points)).collect();
    assert_eq!(order, [("bob", 1, 20), ("Ann", 1, 0), ("cy", 1, 0)]);
}

pub async fn a_game_survives_reopening_with_its_log_in_order<F, Fut>(open: &F)
where
    F: Fn(String) -> Fut,
    Fut: Future<Output = SharedStore>,
{
    {
        let s = open("reopen".into()).await;
        s.create(new_game("g1", Kind::UNO)).await.expect("create");
        s.create(new_game("g2", Kind::DUEL)).await.expect("create");
        let tickets: Vec<_> = (0..50).map(|i| s.append("g1", i, entry(&format!("n{i}")))).collect();
        for t in tickets {
            t.await.expect("append");
        }
        s.set_meta("g1", Meta::new(&serde_json::json!({"m": 1})).expect("meta")).await.expect("meta");
    }
    let s = open("reopen".into()).await;
    let uno = s.load_active(Kind::UNO).await.expect("load");
    assert_eq!(uno.len(), 1, "{}", s.backend());
    assert_eq!(uno[0].meta.as_json(), "{\"m\":1}");
    assert_eq!(uno[0].actions.len(), 50);
    assert_eq!(uno[0].actions[7], entry("n7"));
    let duel = s.load_active(Kind::DUEL).await.expect("load");
    assert_eq!(duel.len(), 1);
    assert_eq!(duel[0].kind, Kind::DUEL);
    // The log goes on where it stopped, across the reopening.
    s.append("g1", 50, entry("n50")).await.expect("append after reopening");
    assert!(matches!(s.append("g1", 50, entry("again")).await, Err(StoreError::OutOfOrder { expected: 51, .. })));
}

pub async fn an_out_of_order_append_is_refused_alone<F, Fut>(open: &F)
where
    F: Fn(String) -> Fut,
    Fut: Future<Output = SharedStore>,
{
    let s = open("order".into()).await;
    s.create(new_game("g", Kind::UNO)).await.expect("create");
    let a = s.append("g", 0, entry("a"));
    let bad = s.append("g", 5, entry("x"));
    let b = s.append("g", 1, entry("b"));
    a.await.expect("first");
    assert!(matches!(bad.await, Err(StoreError::OutOfOrder { expected: 1, got: 5, .. })));
    b.await.expect("second");
    assert!(matches!(s.append("nope", 0, entry("a")).await, Err(StoreError::NoSuchGame(_))));
    assert!(matches!(s.set_meta("nope", Meta::new(&1).expect("meta")).await, Err(StoreError::NoSuchGame(_))));
    let g = s.load("g").await.expect("load").expect("exists");
    assert_eq!(g.actions, entries(&["a", "b"]));
    assert!(s.load("nope").await.expect("load").is_none());
}

pub async fn finished_and_abandoned_games_are_not_rebuilt_and_results_are_kept<F, Fut>(open: &F)
where
    F: Fn(String) -> Fut,
    Fut: Future<Output = SharedStore>,
{
    let s = open("status".into()).await;
    for id in ["a", "b", "c"] {
        s.create(new_game(id, Kind::UNO)).await.expect("create");
    }
    s.set_standing("a", Standing::Finished).await.expect("status");
    s.set_standing("b", Standing::Abandoned).await.expect("status");
    let result = NewResult {
        game_id: "a".into(),
        kind: Kind::UNO,
        record: Record::new(&serde_json::json!({"seed": 1})).expect("record"),
        actions: 12,
        outcome: Outcome::new(&serde_json::json!({"winner": 0})).expect("outcome"),
        tallies: None,
    };
    s.add_result(result).await.expect("result");
    let active = s.load_active(Kind::UNO).await.expect("load");
    assert_eq!(active.iter().map(|g| g.id.as_str()).collect::<Vec<_>>(), vec!["c"]);
    let r = s.results(Kind::UNO).await.expect("results");
    assert_eq!(r.len(), 1);
    assert_eq!((r[0].game_id.as_str(), r[0].actions, r[0].kind), ("a", 12, Kind::UNO));
    assert_eq!(r[0].outcome.decode::<serde_json::Value>().expect("outcome")["winner"], 0);
    assert!(s.results(Kind::DUEL).await.expect("results").is_empty());
    assert_eq!(s.load("b").await.expect("load").expect("b").standing, Standing::Abandoned);
    s.append("c", 0, entry("x")).await.expect("append");
    s.reset("c", Header::new(&serde_json::json!({"seed": 2})).expect("header"), Meta::new(&2).expect("meta"))
        .await
        .expect("reset");
    let c = s.load("c").await.expect("load").expect("c");
    assert!(c.actions.is_empty());
    assert_eq!(c.header.as_json(), "{\"seed\":2}");
    // After a rematch the log starts at 0 again; a finished game comes back into play.
    s.append("c", 0, entry("y")).await.expect("append after reset");
    s.reset("a", Header::new(&3).expect("header"), Meta::new(&3).expect("meta")).await.expect("reset");
    let mut active: Vec<String> = s.load_active(Kind::UNO).await.expect("load").into_iter().map(|g| g.id).collect();
    active.sort();
    assert_eq!(active, ["a", "c"]);
}

pub async fn a_taken_id_is_refused_and_documents_read_back_typed<F, Fut>(open: &F)
where
    F: Fn(String) -> Fut,
    Fut: Future<Output = SharedStore>,
{
    #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
    struct Header {
        seed: u64,
        names: Vec<String>,
    }
    let s = open("typed".into()).await;
    let header = Header { seed: u64::MAX, names: vec!["Ann \"the\" 🂡".into(), String::new()] };
    let game = NewGame {
        id: "t".into(),
        kind: Kind::DUEL,
        header: crate::Header::new(&header).expect("header"),
        meta: Meta::new(&serde_json::json!({"seats": []})).expect("meta"),
    };
    s.create(game.clone()).await.expect("create");
    assert!(matches!(s.create(game).await, Err(StoreError::Duplicate(id)) if id == "t"));
    let g = s.load("t").await.expect("load").expect("stored");
    assert_eq!(g.header.decode::<Header>().expect("decode"), header);
    assert_eq!(g.kind, Kind::DUEL);
    assert_eq!(g.standing, Standing::Active);
    assert!(g.created_at > 0 && g.updated_at >= g.created_at);
    assert!(matches!(g.meta.decode::<Header>(), Err(StoreError::Decode { what: "meta", .. })));
}

pub async fn a_read_sees_the_writes_queued_before_it<F, Fut>(open: &F)
where
    F: Fn(String) -> Fut,
    Fut: Future<Output = SharedStore>,
{
    let s = open("queued".into()).await;
    // Nothing awaited before the read: it still comes after them.
    let create = s.create(new_game("q", Kind::UNO));
    let tickets: Vec<_> = (0..20).map(|i| s.append("q", i, entry(&i.to_string()))).collect();
    let status = s.set_standing("q", Standing::Finished);
    let g = s.load("q").await.expect("load").expect("stored");
    assert_eq!(g.actions.len(), 20);
    assert_eq!(g.standing, Standing::Finished);
    create.await.expect("create");
    for t in tickets {
        t.await.expect("append");
    }
    status.await.expect("status");
}

/// A small deterministic generator: the test replays the same run every time.
struct Lcg(u64);
impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// Appends to many games at once, finishes, abandons and restarts (rematch) them, reopens the
/// store now and then, and reads every game back as it goes: each holds exactly the log the
/// model says, in order.
pub async fn every_log_reads_back_whole_through_rematches_and_reopens<F, Fut>(open: &F)
where
    F: Fn(String) -> Fut,
    Fut: Future<Output = SharedStore>,
{
    let mut rng = Lcg(7);
    let mut model: HashMap<String, (Vec<Entry>, Standing)> = HashMap::new();
    let mut store = open("model".into()).await;
    let mut created = 0;
    let mut appended = 0;
    for step in 0..1_500 {
        let playing: Vec<String> =
            model.iter().filter(|(_, (_, s))| *s == Standing::Active).map(|(id, _)| id.clone()).collect();
        let roll = rng.below(100);
        if playing.len() < 6 || roll < 2 {
            created += 1;
            let id = format!("g{created}");
            store.create(new_game(&id, Kind::UNO)).await.expect("create");
            model.insert(id, (Vec::new(), Standing::Active));
        } else if roll < 5 {
            let id = &playing[rng.below(playing.len() as u64) as usize];
            let status = if roll < 4 { Standing::Finished } else { Standing::Abandoned };
            store.set_standing(id, status).await.expect("status");
            if let Some(game) = model.get_mut(id) {
                game.1 = status;
            }
        } else if roll < 7 {
            // A rematch, of a game in play or one that finished.
            let mut ids: Vec<&String> = model.keys().collect();
            ids.sort();
            let id = ids[rng.below(ids.len() as u64) as usize].clone();
            store
                .reset(&id, Header::new(&step).expect("header"), Meta::new(&step).expect("meta"))
                .await
                .expect("reset");
            model.insert(id, (Vec::new(), Standing::Active));
        } else if roll < 8 {
            drop(store);
            store = open("model".into()).await;
        } else {
            // A few appends queued together land in one commit, as a busy server's do.
            let mut tickets = Vec::new();
            for _ in 0..=rng.below(4) {
                let id = &playing[rng.below(playing.len() as u64) as usize];
                let Some(game) = model.get_mut(id) else { continue };
                let action = entry(&format!("{step}/{}", game.0.len()));
                tickets.push(store.append(id, game.0.len() as u64, action.clone()));
                game.0.push(action);
                appended += 1;
            }
            for t in tickets {
                t.await.expect("append");
            }
        }
        if step % 100 == 0 || step > 1_480 {
            for (id, (log, status)) in &model {
                let g = store.load(id).await.expect("load").expect("stored");
                assert_eq!(&g.actions, log, "step {step}: game {id}");
                assert_eq!(g.standing, *status, "step {step}: game {id}");
            }
            let mut active: Vec<String> =
                store.load_active(Kind::UNO).await.expect("active").into_iter().map(|g| g.id).collect();
            active.sort();
            let mut want: Vec<String> =
                model.iter().filter(|(_, (_, s))| *s == Standing::Active).map(|(id, _)| id.clone()).collect();
            want.sort();
            assert_eq!(active, want, "step {step}");
        }
    }
    assert!(appended > 1_000, "the run appended {appended}");
}

/// Many games appending at once while the lease renewer runs often: every write batch and the
/// renewal lock the same lease rows, and neither may fail the other (a deadlock PostgreSQL
/// breaks by failing one transaction: a batch of acknowledged-to-be appends, or a renewal).
pub async fn busy_appends_and_renewals_never_fail(url: &str) {
    use std::time::Instant;
    const GAMES: usize = 600;
    let lease = Lease { owner: "busy".into(), duration: Duration::from_millis(300) };
    let store: crate::SharedStore = PgStore::connect_with(url, lease).await.expect("connect").into();
    let end = Instant::now() + Duration::from_secs(3);
    let writers: Vec<_> = (0..GAMES)
        .map(|g| {
            let store = store.clone();
            tokio::spawn(async move {
                let id = format!("busy{g}");
                store.create(new_game(&id, Kind::UNO)).await.map_err(|e| format!("create {id}: {e}"))?;
                let mut seq = 0;
                while Instant::now() < end {
                    store.append(&id, seq, entry("x")).await.map_err(|e| format!("{id} at {seq}: {e}"))?;
                    seq += 1;
                }
                Ok::<u64, String>(seq)
            })
        })
        .collect();
    let mut total = 0;
    for w in writers {
        total += w.await.expect("writer").unwrap_or_else(|e| panic!("an append failed under load: {e}"));
    }
    assert!(total >= GAMES as u64, "{total} appends");
}

/// Two instances on one database, each holding games under its own lease (PostgreSQL): a game
/// has one owner at a time, the other's writes to it are refused as `Fenced`; once the owner's
/// lease runs out the other adopts the game with exactly the log the owner got acknowledged, and
/// from then on every write of the old owner is refused.
pub async fn a_stale_owner_is_fenced(url: &str) {
    let long = Duration::from_secs(60);
    let a = PgStore::connect_with(url, Lease { owner: "a".into(), duration: long }).await.expect("connect a");
    let b = PgStore::connect_with(url, Lease { owner: "b".into(), duration: long }).await.expect("connect b");
    the_owner_alone_writes_until_its_lease_runs_out(url, &a, &b).await;
    a_short_lease_is_renewed_while_its_store_lives(url, &a).await;
    a_game_read_on_demand_is_taken_over_by_a_write(url, &b).await;
}

/// `a` holds a game; `b`'s writes to it are fenced until a's lease runs out and b adopts it,
/// with exactly the log a got acknowledged; from then on a's writes are fenced.
async fn the_owner_alone_writes_until_its_lease_runs_out(url: &str, a: &PgStore, b: &PgStore) {
    a.create(new_game("fenced", Kind::UNO)).await.expect("create");
    a.append("fenced", 0, entry("a 0")).await.expect("a appends 0");
    assert!(a.holds("fenced") && !b.holds("fenced"));
    // Both see who holds it (what a cluster forwards by); an unknown game has no holder.
    assert_eq!(b.holder("fenced").await.expect("holder").as_deref(), Some("a"));
    assert_eq!(a.holder("nope").await.expect("holder"), None);
    // Not b's game while a's lease runs.
    assert!(matches!(b.append("fenced", 1, entry("b 1")).await, Err(StoreError::Fenced { .. })));
    assert!(matches!(b.set_meta("fenced", Meta::new(&"b").expect("meta")).await, Err(StoreError::Fenced { .. })));
    assert!(b.adopt(Kind::UNO).await.expect("adopt").is_empty());
    assert!(b.load_active(Kind::UNO).await.expect("load").is_empty());
    // An unknown game is still unknown, not fenced.
    assert!(matches!(b.set_standing("nope", Standing::Finished).await, Err(StoreError::NoSuchGame(_))));

    // a keeps appending while its lease runs out and b adopts: b's log is exactly what a got
    // acknowledged, and nothing a sends after that is taken.
    let tickets: Vec<_> = (1..200).map(|i| a.append("fenced", i, entry(&format!("a {i}")))).collect();
    let (client, conn) = tokio_postgres::connect(url, tokio_postgres::NoTls).await.expect("connect");
    tokio::spawn(conn);
    client.execute("UPDATE leases SET expires_at = '-infinity' WHERE game_id = 'fenced'", &[]).await.expect("expire");
    let adopted = b.adopt(Kind::UNO).await.expect("adopt");
    let mut acked = 1;
    let mut fenced = 0;
    for t in tickets {
        match t.await {
            Ok(()) => {
                assert_eq!(fenced, 0, "an append acknowledged after one was fenced");
                acked += 1;
            }
            Err(StoreError::Fenced { .. }) => fenced += 1,
            Err(e) => panic!("append: {e}"),
        }
    }
    assert_eq!(adopted.len(), 1);
    assert_eq!(adopted[0].actions.len(), acked, "b adopted the log a got acknowledged");
    let seq = acked as u64;
    assert!(matches!(a.append("fenced", seq, entry("a late")).await, Err(StoreError::Fenced { .. })));
    assert!(b.holds("fenced") && !a.holds("fenced"));
    assert_eq!(a.holder("fenced").await.expect("holder").as_deref(), Some("b"));
    let again = Header::new(&"again").expect("header");
    assert!(matches!(
        a.reset("fenced", again.clone(), Meta::new(&"a").expect("meta")).await,
        Err(StoreError::Fenced { .. })
    ));
    assert!(matches!(a.set_standing("fenced", Standing::Abandoned).await, Err(StoreError::Fenced { .. })));
    b.append("fenced", seq, entry("b")).await.expect("b appends");
    let g = b.load("fenced").await.expect("load").expect("stored");
    assert_eq!(g.actions.len(), acked + 1);
    assert_eq!(g.actions.last(), Some(&entry("b")));
    assert_eq!(g.standing, Standing::Active);
    // a adopting now finds nothing: b's lease runs.
    assert!(a.adopt(Kind::UNO).await.expect("adopt").is_empty());
}

/// A short lease is renewed while its store lives: nobody adopts the game; once the store is
/// gone, `a` adopts it.
async fn a_short_lease_is_renewed_while_its_store_lives(url: &str, a: &PgStore) {
    let short = Duration::from_millis(300);
    let c = PgStore::connect_with(url, Lease { owner: "c".into(), duration: short }).await.expect("connect c");
    c.create(new_game("renewed", Kind::DUEL)).await.expect("create");
    tokio::time::sleep(short * 4).await;
    assert!(a.adopt(Kind::DUEL).await.expect("adopt").is_empty());
    c.append("renewed", 0, entry("c 0")).await.expect("c still owns it");
    // Once c is gone, its lease runs out and another instance adopts the game.
    drop(c);
    tokio::time::sleep(short * 2).await;
    let adopted = a.adopt(Kind::DUEL).await.expect("adopt");
    assert_eq!(adopted.len(), 1);
    assert_eq!(adopted[0].actions, entries(&["c 0"]));
    a.append("renewed", 1, entry("a 1")).await.expect("a appends after adopting");
}

/// A game read on demand (as Duel's are) is taken over by `b`'s first write once its lease ran
/// out; one whose lease runs is not.
async fn a_game_read_on_demand_is_taken_over_by_a_write(url: &str, b: &PgStore) {
    let short = Duration::from_millis(300);
    let d = PgStore::connect_with(url, Lease { owner: "d".into(), duration: short }).await.expect("connect d");
    d.create(new_game("on demand", Kind::DUEL)).await.expect("create");
    d.append("on demand", 0, entry("d 0")).await.expect("d appends");
    assert!(matches!(b.append("on demand", 1, entry("b 1")).await, Err(StoreError::Fenced { .. })));
    drop(d);
    tokio::time::sleep(short * 2).await;
    b.append("on demand", 1, entry("b 1")).await.expect("b takes the game over");
    assert!(b.holds("on demand"));
    assert_eq!(b.load("on demand").await.expect("load").expect("stored").actions, entries(&["d 0", "b 1"]));
}

/// A stopping instance hands its games over (their leases end at once) and takes none again: a
/// renewal that began before the hand-over and reaches the database after it leaves them ended,
/// and neither its adopter, a late write nor a creation takes a game, so another instance adopts
/// them now rather than a whole lease later.
pub async fn a_handed_over_lease_stays_ended(url: &str) {
    let long = Duration::from_secs(60);
    let e = PgStore::connect_with(url, Lease { owner: "e".into(), duration: long }).await.expect("connect e");
    let f = PgStore::connect_with(url, Lease { owner: "f".into(), duration: long }).await.expect("connect f");
    e.create(new_game("handed", Kind::UNO)).await.expect("create");
    e.append("handed", 0, entry("e 0")).await.expect("e appends");
    assert!(f.adopt(Kind::UNO).await.expect("adopt").is_empty(), "e's lease runs");
    let late = e.renewal_begun_now();
    assert_eq!(e.hand_over().await.expect("hand over"), 1);
    late.await;
    assert!(!e.holds("handed") && !e.fresh("handed"));
    // Nor does the stopping store take anything again: not its own games by adopting (its
    // name holds them), not by a late write, not by creating one.
    assert!(e.adopt(Kind::UNO).await.expect("adopt").is_empty());
    assert!(matches!(e.append("handed", 1, entry("e late")).await, Err(StoreError::Fenced { .. })));
    assert!(matches!(e.create(new_game("too late", Kind::UNO)).await, Err(StoreError::Closed)));
    assert!(!e.holds("handed") && !e.holds("too late"));
    let adopted = f.adopt(Kind::UNO).await.expect("adopt");
    assert_eq!(adopted.len(), 1, "the handed-over game is adopted at once");
    assert_eq!(adopted[0].actions, entries(&["e 0"]));
    f.append("handed", 1, entry("f 1")).await.expect("f appends after adopting");
}

/// While the database is down, every write is refused (so never acknowledged) and reads fail;
/// once it is back, the same writes go through and nothing refused is in the log. `down` and
/// `up` stop and start the database behind `s`.
pub async fn an_outage_refuses_writes_and_play_resumes_after_it(
    s: &dyn GameStore,
    down: impl FnOnce(),
    up: impl FnOnce(),
) {
    s.create(new_game("outage", Kind::UNO)).await.expect("create");
    for i in 0..3 {
        s.append("outage", i, entry(&format!("before {i}"))).await.expect("append before");
    }
    down();
    let refused = s.append("outage", 3, entry("during"));
    let meta = s.set_meta("outage", Meta::new(&"during").expect("meta"));
    assert!(refused.await.is_err(), "an append was acknowledged with the database down");
    assert!(meta.await.is_err());
    assert!(s.load("outage").await.is_err());
    up();
    // The first batch after an outage may still meet a connection that died with it.
    let mut ok = false;
    for _ in 0..20 {
        match s.append("outage", 3, entry("after")).await {
            Ok(()) => {
                ok = true;
                break;
            }
            Err(StoreError::OutOfOrder { .. }) => panic!("a refused append was written"),
            Err(_) => tokio::time::sleep(std::time::Duration::from_millis(100)).await,
        }
    }
    assert!(ok, "writes did not resume after the database came back");
    s.append("outage", 4, entry("after 2")).await.expect("append after");
    let g = s.load("outage").await.expect("load").expect("stored");
    assert_eq!(g.actions, entries(&["before 0", "before 1", "before 2", "after", "after 2"]));
    assert_eq!(g.meta.as_json(), "{}");
}

pub async fn a_games_results_read_by_id_and_old_ones_are_forgotten<F, Fut>(open: &F)
where
    F: Fn(String) -> Fut,
    Fut: Future<Output = SharedStore>,
{
    let s = open("results_of".into()).await;
    let result = |id: &str, kind: Kind, seed: u64| NewResult {
        game_id: id.into(),
        kind,
        record: Record::new(&serde_json::json!({ "seed": seed })).expect("record"),
        actions: seed,
        outcome: Outcome::new(&serde_json::json!({"winner": 0})).expect("outcome"),
        tallies: None,
    };
    // A table's rematches share its id: each game is one result, in the order played.
    for (id, kind, seed) in [("t", Kind::UNO, 1), ("u", Kind::UNO, 2), ("t", Kind::UNO, 3), ("d", Kind::DUEL, 4)] {
        s.add_result(result(id, kind, seed)).await.expect("result");
    }
    let t = s.results_of("t").await.expect("results of t");
    assert_eq!(t.iter().map(|r| r.actions).collect::<Vec<_>>(), [1, 3]);
    assert!(t.iter().all(|r| r.game_id == "t" && r.kind == Kind::UNO));
    assert_eq!(s.results_of("d").await.expect("results of d")[0].kind, Kind::DUEL);
    assert!(s.results_of("nobody").await.expect("results").is_empty());
    // Forgetting before a moment keeps what finished after it, and other kinds' results.
    s.forget_results(Kind::UNO, 0).await.expect("forget nothing");
    assert_eq!(s.results(Kind::UNO).await.expect("results").len(), 3);
    let later = s.results(Kind::UNO).await.expect("results").iter().map(|r| r.finished_at).max().unwrap_or(0) + 1;
    s.forget_results(Kind::UNO, later).await.expect("forget");
    assert!(s.results(Kind::UNO).await.expect("results").is_empty());
    assert!(s.results_of("t").await.expect("results").is_empty());
    assert_eq!(s.results(Kind::DUEL).await.expect("results").len(), 1);
}

pub mod people;
mod temp_postgres;
pub use temp_postgres::TempPostgres;
