//! Tables coming into play without a request: every game's unfinished tables rebuilt from the
//! store at start, and adopted from an instance whose lease ran out; and the records' retention.

use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use store::Standing;

use super::{TableError, Tables};

/// How often records older than the retention are looked for.
const FORGET_EVERY: Duration = Duration::from_secs(3600);

impl Tables {
    /// Rebuilds the active tables of every game hosted.
    pub(super) async fn restore(&self) -> Result<(), TableError> {
        for game in self.inner.games.clone() {
            let stored = self.inner.store.load_active(game.kind()).await?;
            self.bring_in(stored).await?;
        }
        Ok(())
    }

    /// With a store shared by several instances: adopts, every half lease, the tables whose
    /// owner stopped renewing its lease (rebuilt from the log, as at start), and drops those
    /// whose lease went elsewhere.
    pub(super) fn spawn_adopter(&self) {
        let Some(lease) = self.inner.store.lease() else { return };
        let every = (lease / 2).max(Duration::from_millis(50));
        let weak = Arc::downgrade(&self.inner);
        let wake = self.inner.adopt_now.clone();
        tokio::spawn(async move {
            loop {
                // Every half lease, or at once when another instance hands its tables over.
                tokio::select! {
                    _ = tokio::time::sleep(every) => {}
                    _ = wake.notified() => {}
                }
                let Some(inner) = weak.upgrade() else { return };
                let host = Tables { inner };
                let lost: Vec<_> =
                    host.inner.tables.all().into_iter().filter(|t| !host.inner.store.holds(t.id())).collect();
                for t in lost {
                    host.drop_lost(&t).await;
                }
                for game in host.inner.games.clone() {
                    match host.inner.store.adopt(game.kind()).await {
                        Ok(games) if games.is_empty() => {}
                        Ok(games) => {
                            let n = games.len();
                            match host.bring_in(games).await {
                                Ok(()) => {
                                    crate::metrics::adopted(n);
                                    tracing::info!(tables = n, kind = %game.kind(), "adopted tables whose lease ran out")
                                }
                                Err(e) => tracing::warn!(error = %e, "adopting tables failed"),
                            }
                        }
                        Err(e) => tracing::warn!(error = %e, "looking for tables to adopt failed"),
                    }
                }
            }
        });
    }

    /// Puts stored games in play: rebuilt, scheduled (bots, timers) and kept in the registry.
    pub(super) async fn bring_in(&self, stored: Vec<store::StoredGame>) -> Result<(), TableError> {
        for g in stored {
            let Some(game) = self.game(g.kind).cloned() else { continue };
            match game.rebuild(&g) {
                Ok(r) if !r.over => {
                    r.table.clone().scheduled(self).await;
                    self.inner.tables.insert(&g.id, r.table);
                }
                Ok(_) => {
                    // Over but not marked so: the server stopped between the last action and
                    // the game's end. Its result is kept now unless it made it.
                    game.mend(self, &g).await?;
                    self.inner.store.set_standing(&g.id, Standing::Finished).await?;
                }
                Err(e) => {
                    tracing::warn!(table = %g.id, error = %e, "a stored table cannot be rebuilt and is left out");
                    self.inner.store.set_standing(&g.id, Standing::Abandoned).await?;
                }
            }
        }
        Ok(())
    }

    /// Forgets the kept games of every game hosted that ended longer than the retention ago.
    pub async fn forget_old_records(&self) -> Result<(), TableError> {
        let now = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0);
        let keep = self.inner.config.record_retention.as_millis() as i64;
        for game in &self.inner.games {
            self.inner.store.forget_results(game.kind(), now.saturating_sub(keep)).await?;
        }
        Ok(())
    }

    /// Forgets old records at start and every [`FORGET_EVERY`].
    pub(super) fn spawn_record_keeper(&self) {
        let weak = Arc::downgrade(&self.inner);
        tokio::spawn(async move {
            loop {
                let Some(inner) = weak.upgrade() else { return };
                if let Err(e) = (Tables { inner }).forget_old_records().await {
                    tracing::warn!(error = %e, "forgetting old game records failed");
                }
                tokio::time::sleep(FORGET_EVERY).await;
            }
        });
    }
}
