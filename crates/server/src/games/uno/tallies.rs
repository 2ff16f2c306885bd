//! The statistics' totals kept with the results (`store::Tally`): a game's share, worked out
//! when it ends ([`super::kept`]), and the one-time tally of results kept before the totals
//! existed. `GET /api/stats` (`crate::stats`) reads them a page at a time.

use store::Kind;

use super::records::{share, KeptGame};
use crate::host::{TableError, Tables};

/// Whether the results kept before the totals existed have been tallied (one per server).
#[derive(Default)]
pub(crate) struct Stats(tokio::sync::Mutex<bool>);

/// The tallies of a kept result as stored: `None` (it counts for nothing) for an imported file
/// or one that does not replay.
fn tallies_of(r: &store::GameResult) -> Option<Vec<store::Tally>> {
    // Results kept before records were (no actions) tell no events: left out.
    let kept = r.record.decode::<KeptGame>().ok()?;
    let outcome = r.outcome.decode::<uno::Outcome>().ok()?;
    // An imported file names whom it likes: it counts for nobody.
    if kept.record.actions.len() as i64 != r.actions || kept.imported {
        return None;
    }
    match share(&kept, &outcome) {
        Ok(s) => Some(s),
        Err(e) => {
            tracing::warn!(table = %r.game_id, error = %e, "a kept game does not replay");
            None
        }
    }
}

impl Stats {
    /// Tallies, once, the results kept before the totals existed.
    pub(crate) async fn tally_old_results(&self, tables: &Tables) -> Result<(), TableError> {
        let mut done = self.0.lock().await;
        if *done {
            return Ok(());
        }
        let old = tables.store().untallied(Kind::UNO).await?;
        if !old.is_empty() {
            let tallied = tokio::task::spawn_blocking(move || {
                old.iter().map(|r| (r.game_id.clone(), r.finished_at, tallies_of(r))).collect::<Vec<_>>()
            })
            .await
            .map_err(|e| TableError::Internal(format!("statistics stopped: {e}")))?;
            let tickets: Vec<_> = tallied
                .into_iter()
                .map(|(id, at, tallies)| tables.store().tally(Kind::UNO, &id, at, tallies))
                .collect();
            for t in tickets {
                t.await?;
            }
        }
        *done = true;
        Ok(())
    }
}
