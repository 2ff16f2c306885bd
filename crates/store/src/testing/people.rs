//! The people's suite every backend must pass: accounts and names, credentials, sessions,
//! ceremonies, attempts, rated games with their history and leaderboards, seat links, and
//! deleting an account.

use std::future::Future;

use crate::people::{
    Attempt, BoardQuery, Ceremony, CredentialKind, Limit, NewAccount, NewCredential, NewSession, RatedGame, RatedSeat,
    Rater, RatingState,
};
use crate::{now, Kind, NewResult, Outcome, Record, SharedPeople, SharedStore, StoreError};

/// A password credential with this (pretend) hash.
pub fn password(hash: &str) -> NewCredential {
    NewCredential { id: String::new(), kind: CredentialKind::Password, data: hash.into() }
}

/// A passkey credential with this id.
pub fn passkey(id: &str) -> NewCredential {
    NewCredential { id: id.into(), kind: CredentialKind::Passkey, data: format!("{{\"key\":\"{id}\"}}") }
}

/// An account whose folded name is its name in lower case.
pub fn account(id: &str, name: &str, credential: NewCredential) -> NewAccount {
    NewAccount { id: id.into(), name: name.into(), name_key: name.to_lowercase(), credential }
}

/// A result of game `id` (its record and outcome are placeholders).
pub fn result(id: &str) -> NewResult {
    NewResult {
        game_id: id.into(),
        kind: Kind::UNO,
        record: Record::new(&serde_json::json!({"game": id})).expect("record"),
        actions: 1,
        outcome: Outcome::new(&0).expect("outcome"),
        tallies: None,
    }
}

/// A rater for tests: the winner (finish "1") gains one point of mean, everyone else loses
/// one; deviations shrink by a tenth; every seat counts a game.
pub fn plus_minus_one(at: i64) -> Rater {
    Box::new(move |before: &[Option<RatingState>]| {
        Ok(before
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let b = b.unwrap_or(RatingState { mean: 25.0, deviation: 8.0, games: 0, last_played: None });
                let delta = if i == 0 { 1.0 } else { -1.0 };
                RatingState {
                    mean: b.mean + delta,
                    deviation: b.deviation * 0.9,
                    games: b.games + 1,
                    last_played: Some(at),
                }
            })
            .collect())
    })
}

/// A rated game of `id` (its `game`th) won by the first of `accounts`.
pub fn rated(id: &str, game: i64, pool: &str, accounts: &[&str]) -> RatedGame {
    RatedGame {
        game_id: id.into(),
        result: Some(result(id)),
        game,
        pool: pool.into(),
        seats: accounts
            .iter()
            .enumerate()
            .map(|(i, a)| RatedSeat { account: (*a).into(), finish: (i + 1).to_string() })
            .collect(),
        rater: plus_minus_one(now()),
    }
}

fn people(s: &SharedStore) -> SharedPeople {
    s.people().expect("this backend keeps people")
}

/// Every test of the suite, in turn (`open` as for [`crate::testing::run_all`]).
pub async fn run_all<F, Fut>(open: F)
where
    F: Fn(String) -> Fut,
    Fut: Future<Output = SharedStore>,
{
    a_name_is_one_accounts_and_credentials_belong_to_it(&open).await;
    sessions_are_found_by_hash_until_they_end_or_run_out(&open).await;
    a_ceremony_is_taken_back_once(&open).await;
    attempts_are_counted_in_windows(&open).await;
    a_rated_game_is_stored_with_its_result_once(&open).await;
    a_refused_rating_stores_nothing(&open).await;
    leaderboards_show_active_players_with_enough_games(&open).await;
    a_deleted_account_frees_its_name_and_keeps_its_seats(&open).await;
}

/// Names are unique as folded; passkeys are unique; a password is one per account; the last
/// credential stays.
pub async fn a_name_is_one_accounts_and_credentials_belong_to_it<F, Fut>(open: &F)
where
    F: Fn(String) -> Fut,
    Fut: Future<Output = SharedStore>,
{
    let s = open("people_names".into()).await;
    let p = people(&s);
    p.create_account(account("a1", "Ann", passkey("k1"))).await.expect("create");
    let taken = p.create_account(account("a2", "ANN", password("h"))).await;
    assert!(matches!(taken, Err(StoreError::NameTaken)), "{taken:?}");
    let twice = p.create_account(account("a3", "Bob", passkey("k1"))).await;
    assert!(matches!(twice, Err(StoreError::Duplicate(_))), "{twice:?}");
    // Nothing of the refused account stayed: its name is free.
    assert!(p.account_named("bob").await.expect("read").is_none());
    p.create_account(account("a3", "Bob", password("h1"))).await.expect("Bob");
    let ann = p.account_named("ann").await.expect("read").expect("Ann");
    assert_eq!((ann.id.as_str(), ann.name.as_str(), ann.deleted_at), ("a1", "Ann", None));
    assert_eq!(p.account("a3").await.expect("read").expect("Bob").name, "Bob");

    p.add_credential("a1", password("h2")).await.expect("password");
    p.add_credential("a1", password("h3")).await.expect("a new password replaces the old");
    p.add_credential("a1", passkey("k2")).await.expect("second passkey");
    let creds = p.credentials("a1").await.expect("credentials");
    let kinds: Vec<_> = creds.iter().map(|c| (c.id.as_str(), c.kind, c.data.as_str())).collect();
    assert_eq!(kinds.len(), 3, "{kinds:?}");
    assert!(kinds.contains(&("password:a1", CredentialKind::Password, "h3")));
    assert!(matches!(p.add_credential("nobody", passkey("k9")).await, Err(StoreError::NoSuchAccount)));

    let k1 = p.passkey("k1").await.expect("read").expect("k1");
    assert_eq!((k1.account.as_str(), k1.used_at), ("a1", None));
    assert!(p.passkey("password:a1").await.expect("read").is_none(), "a password is no passkey");
    p.used_credential("k1", Some("{\"key\":\"k1\",\"counter\":2}".into()), 77).await.expect("used");
    let k1 = p.passkey("k1").await.expect("read").expect("k1");
    assert_eq!((k1.used_at, k1.data.as_str()), (Some(77), "{\"key\":\"k1\",\"counter\":2}"));
    p.used_credential("password:a1", None, 78).await.expect("used");
    let pw = p.credentials("a1").await.expect("read").into_iter().find(|c| c.id == "password:a1").expect("pw");
    assert_eq!((pw.used_at, pw.data.as_str()), (Some(78), "h3"));

    assert!(matches!(p.remove_credential("a3", "k1").await, Err(StoreError::NoSuchCredential)));
    p.remove_credential("a1", "k1").await.expect("remove");
    p.remove_credential("a1", "password:a1").await.expect("remove");
    assert!(matches!(p.remove_credential("a1", "k2").await, Err(StoreError::LastCredential)));
    assert_eq!(p.credentials("a1").await.expect("read").len(), 1);
}

/// A session is found by its hash, with its account, until it ends or runs out; ending all of
/// an account's ends them at once.
pub async fn sessions_are_found_by_hash_until_they_end_or_run_out<F, Fut>(open: &F)
where
    F: Fn(String) -> Fut,
    Fut: Future<Output = SharedStore>,
{
    let s = open("people_sessions".into()).await;
    let p = people(&s);
    p.create_account(account("a1", "Ann", password("h"))).await.expect("create");
    let t = now();
    let session = |hash: &str, expires_at| NewSession {
        token_hash: hash.into(),
        account: "a1".into(),
        expires_at,
        agent: "x".repeat(500),
    };
    p.create_session(session("s1", t + 60_000)).await.expect("session");
    p.create_session(session("s2", t + 60_000)).await.expect("session");
    p.create_session(session("s3", t + 10)).await.expect("session");
    assert!(matches!(p.create_session(session("s1", t + 1)).await, Err(StoreError::Duplicate(_))));
    let nobody = NewSession { account: "nobody".into(), ..session("s4", t + 1) };
    assert!(matches!(p.create_session(nobody).await, Err(StoreError::NoSuchAccount)));

    let s1 = p.session("s1", t).await.expect("read").expect("live");
    assert_eq!((s1.account.name.as_str(), s1.agent.chars().count()), ("Ann", crate::people::MAX_AGENT));
    assert!(p.session("s3", t + 10).await.expect("read").is_none(), "run out");
    assert!(p.session("nope", t).await.expect("read").is_none());
    assert_eq!(p.sessions("a1", t).await.expect("read").len(), 3);
    p.end_session("s1").await.expect("end");
    assert!(p.session("s1", t).await.expect("read").is_none());
    assert_eq!(p.end_sessions("a1").await.expect("end all"), 2);
    assert!(p.session("s2", t).await.expect("read").is_none());
    assert!(p.sessions("a1", t).await.expect("read").is_empty());
}

/// A ceremony comes back once, only as its kind and before it runs out.
pub async fn a_ceremony_is_taken_back_once<F, Fut>(open: &F)
where
    F: Fn(String) -> Fut,
    Fut: Future<Output = SharedStore>,
{
    let s = open("people_ceremonies".into()).await;
    let p = people(&s);
    let c = |id: &str, expires_at| Ceremony { id: id.into(), kind: "sign_in".into(), state: "{}".into(), expires_at };
    p.put_ceremony(c("c1", 100), 0, 3).await.expect("put");
    p.put_ceremony(c("c2", 100), 0, 3).await.expect("put");
    p.put_ceremony(c("c3", 100), 0, 3).await.expect("put");
    assert!(
        matches!(p.put_ceremony(c("c4", 100), 0, 3).await, Err(crate::StoreError::TooManyCeremonies)),
        "no more than max_live under way"
    );
    assert_eq!(p.take_ceremony("c1", "sign_in", 50).await.expect("take"), Some(c("c1", 100)));
    assert_eq!(p.take_ceremony("c1", "sign_in", 50).await.expect("take"), None, "once");
    assert_eq!(p.take_ceremony("c2", "sign_up", 50).await.expect("take"), None, "another kind");
    assert_eq!(p.take_ceremony("c2", "sign_in", 50).await.expect("take"), None, "spent by the wrong kind");
    assert_eq!(p.take_ceremony("c3", "sign_in", 100).await.expect("take"), None, "run out");
    // The ones that ran out leave room: they are swept as the next is put.
    for id in ["c5", "c6", "c7"] {
        p.put_ceremony(c(id, 200), 100, 3).await.expect("put");
    }
    p.put_ceremony(c("c8", 300), 200, 3).await.expect("the three ran out at 200");
    assert_eq!(p.take_ceremony("c8", "sign_in", 250).await.expect("take"), Some(c("c8", 300)));
}

/// Attempts are counted up to the limit in a window; past it the answer says how long to
/// wait; a new window counts from one; forgiving starts over; sweeping clears old windows,
/// ceremonies and sessions.
pub async fn attempts_are_counted_in_windows<F, Fut>(open: &F)
where
    F: Fn(String) -> Fut,
    Fut: Future<Output = SharedStore>,
{
    let s = open("people_attempts".into()).await;
    let p = people(&s);
    let limit = Limit { limit: 3, window_ms: 1_000 };
    for at in [0, 10, 20] {
        assert_eq!(p.attempt("ip:1", at, limit).await.expect("attempt"), Attempt::Allowed);
    }
    assert_eq!(p.attempt("ip:1", 400, limit).await.expect("attempt"), Attempt::Wait(600));
    assert_eq!(p.attempt("ip:2", 400, limit).await.expect("attempt"), Attempt::Allowed, "another key");
    assert_eq!(p.attempt("ip:1", 1_000, limit).await.expect("attempt"), Attempt::Allowed, "a new window");
    p.forgive("ip:1").await.expect("forgive");
    for _ in 0..3 {
        assert_eq!(p.attempt("ip:1", 1_001, limit).await.expect("attempt"), Attempt::Allowed);
    }
    // Attempts at once from many tasks count exactly to the limit.
    let many = Limit { limit: 5, window_ms: 60_000 };
    let tries = (0..12).map(|_| p.attempt("name:ann", 5_000, many));
    let answers = futures_util::future::join_all(tries).await;
    let allowed = answers.iter().filter(|a| matches!(a, Ok(Attempt::Allowed))).count();
    assert_eq!(allowed, 5);

    p.put_ceremony(Ceremony { id: "c".into(), kind: "k".into(), state: "{}".into(), expires_at: 10 }, 0, 10)
        .await
        .expect("c");
    let swept = p.sweep(2_001, 1_000).await.expect("sweep");
    assert_eq!((swept.ceremonies, swept.attempts), (1, 2), "{swept:?}");
    assert_eq!(p.attempt("ip:1", 2_002, limit).await.expect("attempt"), Attempt::Allowed);
}

/// A rated game's result and ratings are stored together; the seats' ratings are what the
/// rater made of the ones they held; the history has a point per game; a game is rated once.
pub async fn a_rated_game_is_stored_with_its_result_once<F, Fut>(open: &F)
where
    F: Fn(String) -> Fut,
    Fut: Future<Output = SharedStore>,
{
    let s = open("people_rated".into()).await;
    let p = people(&s);
    for (id, name) in [("a", "Ann"), ("b", "Bob"), ("c", "Cy")] {
        p.create_account(account(id, name, password("h"))).await.expect("create");
    }
    let first = p.rate(rated("t1", 0, "official/table", &["a", "b", "c"])).await.expect("rate");
    assert_eq!(first.len(), 3);
    assert_eq!(first[0].before, None);
    assert_eq!((first[0].after.mean, first[0].after.games), (26.0, 1));
    assert_eq!((first[1].after.mean, first[2].after.mean), (24.0, 24.0));
    assert_eq!(s.results_of("t1").await.expect("results").len(), 1, "the result is stored with it");

    let second = p.rate(rated("t1", 1, "official/table", &["b", "a"])).await.expect("rate the rematch");
    assert_eq!(second[0].before.map(|b| b.mean), Some(24.0));
    assert_eq!((second[0].after.mean, second[1].after.mean), (25.0, 25.0));
    // The same game again (its end stored twice): nothing changes.
    assert!(p.rate(rated("t1", 1, "official/table", &["b", "a"])).await.expect("again").is_empty());
    assert_eq!(s.results_of("t1").await.expect("results").len(), 2);

    let ann = p.ratings("a").await.expect("ratings");
    assert_eq!(ann.len(), 1);
    assert_eq!((ann[0].pool.as_str(), ann[0].rating.mean, ann[0].rating.games), ("official/table", 25.0, 2));
    let history = p.rating_history("a", "official/table", 10).await.expect("history");
    let points: Vec<_> = history.iter().map(|h| (h.game_id.as_str(), h.game, h.finish.as_str(), h.seats)).collect();
    assert_eq!(points, [("t1", 0, "1", 3), ("t1", 1, "2", 2)]);
    assert_eq!(history[1].before.map(|b| b.mean), Some(26.0));
    assert_eq!((history[1].after.mean, history[1].after.games), (25.0, 2));
    let newest = p.rating_history("a", "official/table", 1).await.expect("history");
    assert_eq!(newest.iter().map(|h| h.game).collect::<Vec<_>>(), [1]);
    assert!(p.rating_history("a", "official/duel", 10).await.expect("history").is_empty());

    // Games ending together for the same people, from many tasks: every one counts.
    let games = (2..12).map(|g| p.rate(rated("t2", g, "official/table", &["a", "c"])));
    for r in futures_util::future::join_all(games).await {
        assert_eq!(r.expect("rate").len(), 2);
    }
    let ann = p.ratings("a").await.expect("ratings");
    assert_eq!((ann[0].rating.games, ann[0].rating.mean), (12, 35.0));
}

/// A game the store cannot rate (one person twice, a seat's account gone, a rater that fails
/// or answers wrong) stores neither its result nor any rating.
pub async fn a_refused_rating_stores_nothing<F, Fut>(open: &F)
where
    F: Fn(String) -> Fut,
    Fut: Future<Output = SharedStore>,
{
    let s = open("people_refused".into()).await;
    let p = people(&s);
    for (id, name) in [("a", "Ann"), ("b", "Bob")] {
        p.create_account(account(id, name, password("h"))).await.expect("create");
    }
    let twice = p.rate(rated("g", 0, "official/duel", &["a", "a"])).await;
    assert!(matches!(twice, Err(StoreError::Rating(_))), "{twice:?}");
    let gone = p.rate(rated("g", 0, "official/duel", &["a", "nobody"])).await;
    assert!(matches!(gone, Err(StoreError::NoSuchAccount)), "{gone:?}");
    let fails = RatedGame { rater: Box::new(|_| Err("no".into())), ..rated("g", 0, "official/duel", &["a", "b"]) };
    assert!(matches!(p.rate(fails).await, Err(StoreError::Rating(_))));
    let short = RatedGame { rater: Box::new(|_| Ok(Vec::new())), ..rated("g", 0, "official/duel", &["a", "b"]) };
    assert!(matches!(p.rate(short).await, Err(StoreError::Rating(_))));
    let nan = RatedGame {
        rater: Box::new(|b| {
            Ok(vec![RatingState { mean: f64::NAN, deviation: 1.0, games: 1, last_played: None }; b.len()])
        }),
        ..rated("g", 0, "official/duel", &["a", "b"])
    };
    assert!(matches!(p.rate(nan).await, Err(StoreError::Rating(_))));
    assert!(s.results_of("g").await.expect("results").is_empty());
    assert!(p.ratings("a").await.expect("ratings").is_empty());
    // And the game can still be rated once right.
    assert_eq!(p.rate(rated("g", 0, "official/duel", &["a", "b"])).await.expect("rate").len(), 2);
}

/// A leaderboard lists a pool's players with enough games and a recent game, best mean first.
pub async fn leaderboards_show_active_players_with_enough_games<F, Fut>(open: &F)
where
    F: Fn(String) -> Fut,
    Fut: Future<Output = SharedStore>,
{
    let s = open("people_board".into()).await;
    let p = people(&s);
    for (id, name) in [("a", "Ann"), ("b", "Bob"), ("c", "Cy"), ("d", "Di")] {
        p.create_account(account(id, name, password("h"))).await.expect("create");
    }
    // Ann wins 3, Bob loses 2 and wins 1, Cy loses 2; Di plays one game in another pool.
    for (g, seats) in [(0, ["a", "b"]), (1, ["a", "c"]), (2, ["a", "b"]), (3, ["b", "c"])].iter().enumerate() {
        p.rate(rated("t", g as i64, "official/duel", &seats.1)).await.expect("rate");
    }
    p.rate(rated("u", 0, "cs410/duel", &["d", "a"])).await.expect("rate");
    let query = |min_games, active_since| BoardQuery {
        pool: "official/duel".into(),
        min_games,
        active_since,
        offset: 0,
        limit: 10,
    };
    let board = p.leaderboard(query(2, 0)).await.expect("board");
    let names: Vec<_> = board.rows.iter().map(|r| (r.name.as_str(), r.rating.mean)).collect();
    assert_eq!(board.total, 3);
    assert_eq!(names, [("Ann", 28.0), ("Bob", 24.0), ("Cy", 23.0)]);
    assert_eq!(p.leaderboard(query(4, 0)).await.expect("board").rows.len(), 0);
    assert_eq!(p.leaderboard(query(3, 0)).await.expect("board").rows.len(), 2);
    assert_eq!(p.leaderboard(query(1, now() + 60_000)).await.expect("board").total, 0, "nobody active since");
    let page = p.leaderboard(BoardQuery { offset: 1, limit: 1, ..query(2, 0) }).await.expect("board");
    assert_eq!((page.total, page.rows.len(), page.rows[0].name.as_str()), (3, 1, "Bob"));
}

/// Deleting an account ends its sessions, removes its credentials and ratings (and so its
/// place on leaderboards), frees its name, and keeps the nameless row for the seats it held.
pub async fn a_deleted_account_frees_its_name_and_keeps_its_seats<F, Fut>(open: &F)
where
    F: Fn(String) -> Fut,
    Fut: Future<Output = SharedStore>,
{
    let s = open("people_delete".into()).await;
    let p = people(&s);
    p.create_account(account("a", "Ann", passkey("k1"))).await.expect("create");
    p.create_account(account("b", "Bob", password("h"))).await.expect("create");
    let t = now();
    p.create_session(NewSession {
        token_hash: "s".into(),
        account: "a".into(),
        expires_at: t + 60_000,
        agent: "".into(),
    })
    .await
    .expect("session");
    p.rate(rated("g", 0, "official/duel", &["a", "b"])).await.expect("rate");
    p.link_seat("a", "g", 0, 5).await.expect("link");
    p.link_seat("a", "g", 0, 6).await.expect("linked once");
    p.link_seat("a", "h", 1, 7).await.expect("link");
    p.link_seat("b", "g", 1, 5).await.expect("link");
    let links = p.seat_links("a", 10).await.expect("links");
    assert_eq!(
        links.iter().map(|l| (l.game_id.as_str(), l.seat, l.since)).collect::<Vec<_>>(),
        [("h", 1, 7), ("g", 0, 5)]
    );

    let gone = p.delete_account("a").await.expect("delete");
    assert_eq!((gone.sessions, gone.credentials, gone.ratings), (1, 1, 1));
    assert!(matches!(p.delete_account("a").await, Err(StoreError::NoSuchAccount)), "once");
    assert!(p.session("s", t).await.expect("read").is_none());
    assert!(p.passkey("k1").await.expect("read").is_none());
    assert!(p.account_named("ann").await.expect("read").is_none());
    assert!(p.ratings("a").await.expect("ratings").is_empty());
    assert!(p.rating_history("a", "official/duel", 10).await.expect("history").is_empty());
    let board = p
        .leaderboard(BoardQuery { pool: "official/duel".into(), min_games: 0, active_since: 0, offset: 0, limit: 10 })
        .await
        .expect("board");
    assert_eq!(board.rows.iter().map(|r| r.name.as_str()).collect::<Vec<_>>(), ["Bob"]);
    let deleted = p.account("a").await.expect("read").expect("the row stays");
    assert_eq!(deleted.name, "");
    assert!(deleted.deleted_at.is_some());
    let holders = p.seat_holders("g").await.expect("holders");
    assert_eq!(holders.iter().map(|(seat, a)| (*seat, a.name.as_str())).collect::<Vec<_>>(), [(0, ""), (1, "Bob")]);
    assert!(matches!(
        p.create_session(NewSession {
            token_hash: "s2".into(),
            account: "a".into(),
            expires_at: t + 1,
            agent: "".into()
        })
        .await,
        Err(StoreError::NoSuchAccount)
    ));
    // The name is free for someone else.
    p.create_account(account("c", "ann", password("h"))).await.expect("the name again");
    assert!(matches!(p.rate(rated("g", 1, "official/duel", &["a", "b"])).await, Err(StoreError::NoSuchAccount)));
}
