//! The one path of every action, whoever takes it (a person over HTTP or a socket, a bot, a
//! turn timer): checked by the game, appended to the store, and only once the store has it
//! applied and published. An append whose answer was lost is looked up in the log; when the
//! log cannot be read either, it is read again before the next action, so memory never stays
//! behind what was acknowledged.

use std::sync::Arc;
use std::time::Instant;

use store::Standing;

use super::table::{Lifecycle, Table, TableState};
use super::{Hosted, Logged, Seat, TableError, Tables};

/// What an action did, for its answer.
pub(crate) struct Acted<E> {
    pub(crate) events: Vec<Logged<E>>,
    /// The bots' actions that answered within the same request.
    pub(crate) answered: Vec<Logged<E>>,
}

impl<G: Hosted> Table<G> {
    /// `seat`'s action, checked against the `version` it was based on (none: a timer's), then
    /// the bots that answer within the request ([`super::Pace::InRequest`]).
    pub(crate) async fn act_in_request(
        self: &Arc<Self>,
        host: &Tables,
        st: &mut TableState<G>,
        seat: Seat,
        action: G::Action,
        version: Option<u64>,
    ) -> Result<Acted<G::Event>, TableError> {
        // A person acting is there: a seat played for them is theirs again.
        let was_away = self.present(host, st, seat).await?;
        let events = match self.act_as(host, st, seat, action, version, true).await {
            Ok(events) => events,
            Err(e) => {
                if was_away {
                    // Their turn's timer, since the stand-in no longer plays it.
                    self.schedule(host, st, false);
                }
                return Err(e);
            }
        };
        st.last_activity = Instant::now();
        let answered = self.answer_in_request(host, st).await;
        Ok(Acted { events, answered })
    }

    /// The one path: checked, stored, applied, published, and the next turn scheduled
    /// (`in_request`: a bot that answers within the request is left to the caller).
    pub(crate) async fn act_as(
        self: &Arc<Self>,
        host: &Tables,
        st: &mut TableState<G>,
        seat: Seat,
        action: G::Action,
        version: Option<u64>,
        in_request: bool,
    ) -> Result<Vec<Logged<G::Event>>, TableError> {
        if let Some(gone) = st.life.gone(&self.id) {
            return Err(gone);
        }
        if st.in_doubt {
            self.reread_log(host, st).await?;
        }
        let game = match &st.life {
            Lifecycle::Waiting(_) | Lifecycle::Closed(_) => return Err(TableError::NotStarted),
            // The game says it is over, in its own words.
            Lifecycle::Finished { game, .. } => {
                return Err(match game.check(seat, &action) {
                    Err(e) => TableError::Illegal(e.into()),
                    Ok(()) => TableError::NotStarted,
                })
            }
            Lifecycle::Playing(game) => game,
        };
        if !st.meta.seated() {
            return Err(TableError::NotStarted);
        }
        if let Some(sent) = version {
            if sent != st.version() {
                return Err(TableError::StaleState { sent, current: st.version() });
            }
        }
        // Checked by the game, stored, then applied: a refused or unstored action leaves the
        // game as it was, with nothing to undo.
        game.check(seat, &action).map_err(|e| TableError::Illegal(e.into()))?;
        let seq = game.plies();
        let entry = G::logged(seat, &action)?;
        let writing = Instant::now();
        let written = host.store().append(&self.id, seq, entry).await;
        crate::metrics::store_write(writing.elapsed());
        if let Err(e) = written {
            if !self.stored_after_all(host, st, seq, seat, &action, &e).await {
                // Not stored, so not accepted: the game was not touched.
                if let store::StoreError::Fenced { .. } = e {
                    host.drop_lost_locked(self, st);
                    return Err(TableError::OwnedElsewhere(self.id.clone()));
                }
                return Err(e.into());
            }
            tracing::warn!(table = %self.id, seq, error = %e, "an append answered with an error was committed; kept");
        }
        let Lifecycle::Playing(game) = &mut st.life else { return Err(TableError::NotStarted) };
        let events = game.apply(seat, action).map_err(|e| TableError::Illegal(e.into()))?;
        crate::metrics::action();
        let version = st.version();
        let logged: Vec<Logged<G::Event>> = events.into_iter().map(|event| Logged { version, event }).collect();
        st.remember(&logged);
        let end_stored = if st.life.game().is_some_and(G::is_over) { self.store_end(host, st).await } else { Ok(()) };
        // Scheduled first, so the update carries the new turn's timer. Published whether or
        // not the end was stored: the action is in the log and in memory, so every socket
        // sees it; only the asker hears that the end's writes failed.
        self.schedule(host, st, in_request);
        self.publish_change(st, &logged);
        end_stored.map(|()| logged)
    }

    /// The game is over: it is finished in memory, and acknowledged means stored, the game's
    /// end included: its result (with its record and the statistics' tallies) and its standing
    /// are committed before the answer. The result goes first: a stop between the two leaves
    /// a finished game marked active, which a restart finds kept already (see `restore`).
    async fn store_end(&self, host: &Tables, st: &mut TableState<G>) -> Result<(), TableError> {
        finish(st);
        let Some(game) = st.life.game() else { return Ok(()) };
        let kept = game.kept(&st.facts(&self.id))?;
        let store = host.store();
        let result = host.new_result::<G>(&self.id, game.plies(), kept);
        // A rated game's ratings are stored with its result, in one transaction.
        let rated = game.places().and_then(|p| super::rated::placed(&p));
        let rated = rated.and_then(|f| super::rated::rated::<G>(&self.id, &st.meta, f));
        let result = match (rated, store.people()) {
            (Some(mut r), Some(people)) => {
                r.result = Some(result);
                let rated = people.rate(r);
                Box::pin(async move { rated.await.map(|_| ()) }) as super::hosting::Boxed<'static, _>
            }
            _ => Box::pin(store.add_result(result)) as super::hosting::Boxed<'static, _>,
        };
        let standing = store.set_standing(&self.id, Standing::Finished);
        result.await?;
        standing.await?;
        Ok(())
    }

    /// After an append that failed with `e`: whether action `seq` (`seat`'s `action`) is in the
    /// log all the same. A refusal the database gave (or no lease) wrote nothing; any other error
    /// may have come after the commit (its answer lost on the way), and then only the log can
    /// say. When it cannot be read either, the table is in doubt: its log is read again before
    /// its next action (`reread_log`), so memory never stays behind the log.
    async fn stored_after_all(
        &self,
        host: &Tables,
        st: &mut TableState<G>,
        seq: u64,
        seat: Seat,
        action: &G::Action,
        e: &store::StoreError,
    ) -> bool {
        use store::StoreError as E;
        if let E::Fenced { .. } | E::OutOfOrder { .. } | E::Conflict { .. } | E::NoSuchGame(_) | E::Encode { .. } = e {
            return false;
        }
        match host.store().load(&self.id).await {
            Ok(Some(g)) => {
                let at = g.actions.get(seq as usize).and_then(|e| G::unlogged(e).ok());
                if g.actions.len() as u64 == seq + 1 && at.is_some_and(|(s, a)| s == seat && &a == action) {
                    return true;
                }
                if g.actions.len() as u64 != seq {
                    st.in_doubt = true;
                }
                false
            }
            _ => {
                st.in_doubt = true;
                false
            }
        }
    }

    /// Brings the table in memory up to its log after a commit whose outcome was unknown: the
    /// actions the log holds past memory are applied and pushed as any action is. An error
    /// (the store still away) leaves the table in doubt and refuses the action that asked.
    async fn reread_log(self: &Arc<Self>, host: &Tables, st: &mut TableState<G>) -> Result<(), TableError> {
        let internal = |e: String| TableError::Internal(e);
        let Some(g) = host.store().load(&self.id).await? else {
            return Err(TableError::NoSuchTable(self.id.clone()));
        };
        let have = st.plies();
        let logged = g.actions.len() as u64;
        if logged < have {
            // Memory ahead of the log: only what the log holds was acknowledged.
            if let Lifecycle::Playing(game) | Lifecycle::Finished { game, .. } = &mut st.life {
                *game = game.upto(logged).map_err(internal)?;
            }
            st.life = match std::mem::replace(&mut st.life, Lifecycle::Closed(super::Closing::Idle)) {
                Lifecycle::Finished { game, .. } => Lifecycle::Playing(game),
                other => other,
            };
            self.publish_state(st);
        }
        let mut events = Vec::new();
        for e in g.actions.iter().skip(have as usize) {
            let (seat, action) = G::unlogged(e).map_err(internal)?;
            let Lifecycle::Playing(game) = &mut st.life else { break };
            let evs = game.apply(seat, action).map_err(|e| internal(format!("a stored action: {e}")))?;
            let version = st.version();
            events.extend(evs.into_iter().map(|event| Logged { version, event }));
        }
        st.in_doubt = false;
        if logged > have {
            tracing::warn!(table = %self.id, found = logged - have, "the log held actions memory missed");
            st.remember(&events);
            if st.life.game().is_some_and(G::is_over) {
                finish(st);
                drop(host.store().set_standing(&self.id, Standing::Finished));
            }
            self.schedule(host, st, false);
            // The versions jumped: every socket starts again from its full state.
            self.publish_state(st);
        }
        Ok(())
    }
}

/// A game that is over, finished in memory (from now on kept for `finished_ttl`).
pub(crate) fn finish<G: Hosted>(st: &mut TableState<G>) {
    if let Lifecycle::Playing(_) = st.life {
        if let Lifecycle::Playing(game) = std::mem::replace(&mut st.life, Lifecycle::Closed(super::Closing::Idle)) {
            st.life = Lifecycle::Finished { game, at: Instant::now() };
        }
    }
    st.turn_deadline = None;
}
