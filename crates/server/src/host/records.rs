//! Finished games kept as their records, for every game: stored with the game's result when it
//! ends (the store's `results`, one row a game: a table's rematches are kept too), read back
//! by table id, mended once when a stop on the finishing path left a game without its record,
//! and forgotten after `Config::record_retention` (`restore.rs`).

use serde::de::DeserializeOwned;
use store::Standing;

use super::{store_read, Hosted, TableError, Tables};

/// One kept game of a table: which of the table's games it is, its record as the game keeps
/// it, its outcome, and when it ended (Unix milliseconds).
pub(crate) struct Kept<R> {
    pub(crate) game: usize,
    pub(crate) record: R,
    pub(crate) outcome: store::Outcome,
    pub(crate) finished_at: i64,
}

/// The games of `G` kept for table `id`, oldest first: those whose record reads as `R` and
/// that `whole` takes (a game may leave out rows it kept before its records were whole).
pub(crate) async fn kept_all<G: Hosted, R: DeserializeOwned>(
    tables: &Tables,
    id: &str,
    whole: fn(&R, &store::GameResult) -> bool,
) -> Result<Vec<Kept<R>>, TableError> {
    if id.len() > 64 {
        return Ok(Vec::new());
    }
    let results = store_read(tables.store().results_of(id)).await?;
    let mut out = Vec::new();
    for r in results.into_iter().filter(|r| r.kind == G::KIND) {
        let Ok(record) = r.record.decode::<R>() else { continue };
        if !whole(&record, &r) {
            continue;
        }
        out.push(Kept { game: out.len(), record, outcome: r.outcome, finished_at: r.finished_at });
    }
    Ok(out)
}

/// One kept game of table `id`: the `game`th, or its last one. A table whose current game is
/// still played answers `game_not_over` unless an earlier game is asked for: its record would
/// tell every hidden card. A game over whose record a stop left unkept is kept first, once.
pub(crate) async fn kept_one<G: Hosted, R: DeserializeOwned>(
    tables: &Tables,
    id: &str,
    game: Option<usize>,
    whole: fn(&R, &store::GameResult) -> bool,
) -> Result<Kept<R>, TableError> {
    if game.is_none() {
        if let Some(t) = tables.typed_in_memory::<G>(id) {
            if t.state.lock().await.life.unfinished() {
                return Err(TableError::GameNotOver);
            }
        }
    }
    let mut kept = kept_all::<G, R>(tables, id, whole).await?;
    if kept.is_empty() && mend::<G>(tables, id).await? {
        kept = kept_all::<G, R>(tables, id, whole).await?;
    }
    match game.or(kept.len().checked_sub(1)) {
        Some(g) if g < kept.len() => Ok(kept.swap_remove(g)),
        _ => Err(TableError::NotKept(id.chars().take(64).collect())),
    }
}

/// Finishes what a stop left undone on stored game `id`'s finishing path: a game whose log is
/// over gets its result kept (when none is) and is marked finished. Whether it is a finished
/// game of `G` with its record kept now. One game is mended at a time, so readers arriving
/// together keep its record once.
async fn mend<G: Hosted>(tables: &Tables, id: &str) -> Result<bool, TableError> {
    if id.len() > 64 {
        return Ok(false);
    }
    let Some(g) = store_read(tables.store().load(id)).await? else { return Ok(false) };
    if g.kind != G::KIND || g.standing == Standing::Abandoned {
        return Ok(false);
    }
    let Some(game) = tables.game(G::KIND).cloned() else { return Ok(false) };
    let _one = tables.inner.mending.lock().await;
    if !game.mend(tables, &g).await? {
        return Ok(false);
    }
    if g.standing != Standing::Finished {
        tables.store().set_standing(&g.id, Standing::Finished).await?;
    }
    Ok(true)
}
