//! The SQLite backend's own tests (the shared suite is `crate::testing`'s).

use super::*;
use crate::{now, Kind, Standing, Tally};

/// Forgetting old games gives their pages back: the file's page count falls and no free
/// page is left in it.
#[tokio::test]
async fn forgetting_shrinks_the_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("shrink.db");
    let s = SqliteStore::open(&path).expect("open");
    let long = "x".repeat(2000);
    for g in 0..40 {
        let id = format!("g{g}");
        s.create(crate::testing::new_game(&id, Kind::UNO)).await.expect("create");
        for seq in 0..20 {
            s.append(&id, seq, crate::testing::entry(&long)).await.expect("append");
        }
        s.set_standing(&id, Standing::Finished).await.expect("status");
    }
    let pages = |c: &Connection| -> (i64, i64) {
        let n = c.query_row("PRAGMA page_count", [], |r| r.get(0)).expect("pages");
        let free = c.query_row("PRAGMA freelist_count", [], |r| r.get(0)).expect("free");
        (n, free)
    };
    let (before, _) = pages(&Connection::open(&path).expect("open"));
    s.forget_results(Kind::UNO, now() + 1).await.expect("forget");
    let (after, free) = pages(&Connection::open(&path).expect("open"));
    assert!(after * 4 < before, "{before} pages before, {after} after");
    assert_eq!(free, 0);
}

/// A database from before tallies: its results are untallied until the server tallies
/// them, once.
#[tokio::test]
async fn results_from_before_tallies_are_tallied_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("old.db");
    {
        let mut c = Connection::open(&path).expect("open");
        let tx = c.transaction().expect("tx");
        for sql in &MIGRATIONS[..3] {
            tx.execute_batch(sql).expect("old schema");
        }
        tx.pragma_update(None, "user_version", 3).expect("pragma");
        tx.execute(
            "INSERT INTO results (game_id, kind, record, actions, result, finished_at)
             VALUES ('old', 'uno', '1', 0, '0', 5)",
            [],
        )
        .expect("old result");
        tx.commit().expect("commit");
    }
    let s = SqliteStore::open(&path).expect("open");
    let old = s.untallied(Kind::UNO).await.expect("untallied");
    assert_eq!(old.iter().map(|r| (r.game_id.as_str(), r.finished_at)).collect::<Vec<_>>(), [("old", 5)]);
    assert_eq!(s.tallies(Kind::UNO, 0, 10).await.expect("tallies").games, 0);
    let ann = Tally { name: "ann".into(), games: 1, wins: 1, points: 9, ..Default::default() };
    for _ in 0..2 {
        s.tally(Kind::UNO, "old", 5, Some(vec![ann.clone()])).await.expect("tally");
    }
    let page = s.tallies(Kind::UNO, 0, 10).await.expect("tallies");
    assert_eq!((page.players, page.games, page.page), (1, 1, vec![ann]));
    assert!(s.untallied(Kind::UNO).await.expect("untallied").is_empty());
}

#[test]
fn a_newer_schema_is_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("t.db");
    {
        let c = Connection::open(&path).expect("open");
        c.pragma_update(None, "user_version", 99).expect("pragma");
    }
    assert!(matches!(SqliteStore::open(&path), Err(StoreError::NewerSchema { found: 99, .. })));
}
