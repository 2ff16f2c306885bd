//! Tables coming and going without a request: rebuilt from the store at start, adopted from an
//! instance whose lease ran out, and swept when finished or idle.

use std::collections::VecDeque;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use store::{Kind, Status as StoreStatus};
use uno::{GameRecord, Move};

use super::schedule::make_bots;
use super::view::keep_recent;
use super::{Meta, Table, TableError, TableState, Tables};
use crate::messages::LoggedEvent;
use crate::update::Told;

impl Tables {
    /// Rebuilds the active tables: replay each record, keeping the last events for readers.
    pub(super) async fn restore(&self) -> Result<(), TableError> {
        let stored = self.inner.store.load_active(Kind::Uno).await?;
        self.bring_in(stored).await
    }

    /// With a store shared by several instances: adopts, every half lease, the tables whose
    /// owner stopped renewing its lease (rebuilt from the log, as at start), and drops those
    /// whose lease went elsewhere.
    pub(super) fn spawn_adopter(&self) {
        let Some(lease) = self.inner.store.lease() else { return };
        let every = (lease / 2).max(Duration::from_millis(50));
        let weak = Arc::downgrade(&self.inner);
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(every).await;
                let Some(inner) = weak.upgrade() else { return };
                let state = Tables { inner };
                let lost = state.inner.tables.all().into_iter().filter(|t| !state.inner.store.holds(&t.id));
                for t in lost {
                    state.drop_lost(&t);
                }
                match state.inner.store.adopt(Kind::Uno).await {
                    Ok(games) if games.is_empty() => {}
                    Ok(games) => {
                        let n = games.len();
                        match state.bring_in(games).await {
                            Ok(()) => {
                                crate::metrics::adopted(n);
                                tracing::info!(tables = n, "adopted tables whose lease ran out")
                            }
                            Err(e) => tracing::warn!(error = %e, "adopting tables failed"),
                        }
                    }
                    Err(e) => tracing::warn!(error = %e, "looking for tables to adopt failed"),
                }
            }
        });
    }

    /// Puts stored games in play: replayed, scheduled (bots, timers) and listed.
    pub(super) async fn bring_in(&self, stored: Vec<store::StoredGame>) -> Result<(), TableError> {
        for g in stored {
            match self.rebuild(&g) {
                Ok(Some(table)) => {
                    let t = Arc::new(table);
                    {
                        let mut st = t.state.lock().await;
                        self.schedule(&t, &mut st);
                    }
                    self.inner.tables.insert(&t.id.clone(), t);
                }
                Ok(None) => {
                    // Over but not marked so: the server stopped between the last action and
                    // the game's end. Its result is kept now unless it made it.
                    self.keep_unkept_result(&g).await?;
                    self.inner.store.set_status(&g.id, StoreStatus::Finished).await?;
                }
                Err(e) => {
                    tracing::warn!(table = %g.id, error = %e, "a stored table cannot be rebuilt and is left out");
                    self.inner.store.set_status(&g.id, StoreStatus::Abandoned).await?;
                }
            }
        }
        Ok(())
    }

    /// Keeps the result of stored game `g`, finished, unless the last result kept for its id
    /// is this game's (the same seed and as many actions).
    async fn keep_unkept_result(&self, g: &store::StoredGame) -> Result<(), TableError> {
        let table = self.rebuild_any(g).map_err(TableError::Internal)?;
        let st = table.state.lock().await;
        let kept = self.inner.store.results_of(&g.id).await?;
        let same = kept
            .last()
            .and_then(|r| r.record.decode::<super::KeptGame>().ok())
            .is_some_and(|k| k.record.seed == st.record.seed && k.record.actions.len() == st.record.actions.len());
        if !same {
            self.inner.store.add_result(st.finished_result(&g.id)?).await?;
        }
        Ok(())
    }

    /// An unfinished table from its record (`None` when it turns out finished).
    pub(super) fn rebuild(&self, g: &store::StoredGame) -> Result<Option<Table>, String> {
        let table = self.rebuild_any(g)?;
        let over = table.state.try_lock().map(|st| st.game.is_over()).unwrap_or(false);
        Ok((!over).then_some(table))
    }

    /// A table from its record, finished or not.
    pub(super) fn rebuild_any(&self, g: &store::StoredGame) -> Result<Table, String> {
        let mut record: GameRecord = g.record.decode().map_err(|e| e.to_string())?;
        let meta: Meta = g.meta.decode().map_err(|e| e.to_string())?;
        if record.engine_version != uno::ENGINE_VERSION {
            tracing::warn!(
                table = %g.id,
                recorded_by = %record.engine_version,
                engine = uno::ENGINE_VERSION,
                "a table recorded by another engine version; replaying it anyway"
            );
        }
        for (i, entry) in g.actions.iter().enumerate() {
            let m: Move = entry.decode().map_err(|e| format!("action {i}: {e}"))?;
            record.push(m.seat, m.action);
        }
        let mut events = VecDeque::new();
        let game = record
            .replay_with_events(|step, evs| {
                let version = meta.version_base + step as u64;
                keep_recent(&mut events, evs.into_iter().map(|event| LoggedEvent { version, event }));
            })
            .map_err(|e| e.to_string())?;
        let bots = make_bots(&meta).map_err(|e| e.to_string())?;
        let players = meta.seats.len();
        let creator = meta.creator.clone();
        Ok(Table::new(
            g.id.clone(),
            creator,
            TableState {
                record,
                game,
                meta,
                bots,
                events,
                watchers: vec![0; players + 1],
                told: vec![Told::default(); players],
                last_activity: Instant::now(),
                finished_at: None,
                turn_deadline: None,
            },
        ))
    }

    pub(super) fn spawn_janitor(&self) {
        let c = &self.inner.config;
        let every = (c.idle_timeout.min(c.finished_ttl).min(c.unwatched_bots_timeout) / 4)
            .clamp(Duration::from_millis(200), Duration::from_secs(30));
        let weak = Arc::downgrade(&self.inner);
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(every).await;
                let Some(inner) = weak.upgrade() else { return };
                Tables { inner }.sweep().await;
            }
        });
    }

    /// Drops finished tables after their time, and closes tables left idle.
    pub async fn sweep(&self) {
        let tables: Vec<Arc<Table>> = self.inner.tables.all();
        let c = &self.inner.config;
        let mut gone = Vec::new();
        for t in tables {
            let Ok(st) = t.state.try_lock() else { continue };
            let now = Instant::now();
            // A seat's socket keeps its table; a spectator's only a table of bots alone (which
            // plays on by itself, and whose match ends): a spectator left at a table whose
            // people have gone does not keep it waiting for them for ever.
            let players = st.players();
            let seated = st.watchers.iter().take(players).any(|&w| w > 0);
            let bots_only = st.meta.seats.iter().all(|s| s.kind == crate::messages::SeatKind::Bot);
            let connected = seated || (bots_only && st.watchers.get(players).is_some_and(|&w| w > 0));
            // Bots alone with nobody watching would think for nobody: they stop sooner.
            let idle_after = if bots_only { c.idle_timeout.min(c.unwatched_bots_timeout) } else { c.idle_timeout };
            if st.finished_at.is_some_and(|f| now.duration_since(f) >= c.finished_ttl) {
                gone.push(t.id.clone());
            } else if st.finished_at.is_none() && !connected && now.duration_since(st.last_activity) >= idle_after {
                // Under the lock: no bot or timer acts at the table after this.
                t.closed.store(true, Ordering::Release);
                drop(self.inner.store.set_status(&t.id, StoreStatus::Abandoned));
                gone.push(t.id.clone());
            }
        }
        for id in gone {
            self.inner.tables.remove(&id);
            self.inner.store.release(&id);
        }
    }
}
