//! Who acts without a person's request: bots after their pause (or within the request of the
//! person before them), and the server for a person whose turn timer ran out. Each acts
//! through the one path (`play.rs`).

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::seats::AWAY_AFTER;
use super::table::{Lifecycle, Table, TableState};
use super::{Hosted, Logged, Pace, Seat, TableError, Tables};
use crate::messages::{SeatKind, TableStatus};

/// Between a bot's move the store could not take and its next try: the first wait, doubled
/// with each refusal in a row up to [`BOT_RETRY_MAX`].
const BOT_RETRY: Duration = Duration::from_millis(250);
/// The longest wait between a bot's tries: a table stands still at most this long after the
/// database is back.
const BOT_RETRY_MAX: Duration = Duration::from_secs(2);

/// The wait before a bot's next try after its `retries`th refusal in a row (from 1), and
/// whether that refusal is logged: the first, then only the 2nd, 4th, 8th… (an outage of
/// minutes logs a handful of lines a table, not four a second).
pub(crate) fn bot_retry(retries: u32) -> (Duration, bool) {
    let doubled = BOT_RETRY.saturating_mul(1u32 << retries.saturating_sub(1).min(16));
    (doubled.min(BOT_RETRY_MAX), retries.is_power_of_two())
}

/// The most bot actions that answer one request (a game whose bots answer each other within
/// a request would otherwise never answer).
const MAX_ANSWERS: usize = 64;

/// Builds the bot of every bot seat, and the stand-in of every person's seat that is away.
pub(crate) fn make_bots<G: Hosted>(meta: &super::seats::Meta<G::Settings>) -> Result<Vec<Option<G::Bot>>, TableError> {
    meta.seats
        .iter()
        .map(|s| match (&s.kind, &s.bot) {
            (SeatKind::Bot, Some(name)) => Ok(Some(G::bot(name, s.bot_seed)?.1)),
            (SeatKind::Human, _) if s.away => stand_in::<G>(s.bot_seed),
            _ => Ok(None),
        })
        .collect()
}

/// The game's stand-in bot ([`Hosted::STAND_IN`]), if it has one.
pub(crate) fn stand_in<G: Hosted>(seed: u64) -> Result<Option<G::Bot>, TableError> {
    G::STAND_IN.map(|name| G::bot(name, seed).map(|(_, b)| b)).transpose()
}

impl<G: Hosted> TableState<G> {
    /// The seat that acts next, and whether a bot holds it.
    fn next(&self, id: &str) -> Option<(Seat, bool)> {
        let game = match &self.life {
            Lifecycle::Playing(g) => g,
            _ => return None,
        };
        if self.status() != TableStatus::Playing {
            return None;
        }
        let seat = game.turn(&self.facts(id))?;
        let bot = self.meta.seats.get(seat.index()).is_some_and(super::seats::SeatMeta::played_by_bot);
        Some((seat, bot))
    }

    /// When the bot of `seat` acts.
    fn pace(&self, id: &str, seat: Seat, default: Duration) -> Pace {
        let Some(game) = self.life.game() else { return Pace::After(default) };
        let ms = self.meta.seats.get(seat.index()).and_then(|s| s.delay_ms).or(self.meta.bot_delay_ms);
        let pace = ms.map(|m| Duration::from_millis(u64::from(m))).unwrap_or(default);
        game.pace(seat, &self.facts(id), pace)
    }
}

impl<G: Hosted> Table<G> {
    /// After any change: set the bot or the turn timer going for whoever acts next. With
    /// `in_request`, a bot that answers within the request is left to its caller
    /// ([`Table::answer_in_request`]); otherwise it acts at once.
    pub(crate) fn schedule(self: &Arc<Self>, host: &Tables, st: &mut TableState<G>, in_request: bool) {
        // A deadline belongs to the turn it was set for: any change ends it.
        st.turn_deadline = None;
        let Some((seat, bot)) = st.next(&self.id) else { return };
        let version = st.version();
        if bot {
            let delay = match st.pace(&self.id, seat, host.config().bot_delay) {
                Pace::InRequest if in_request => return,
                Pace::InRequest => Duration::ZERO,
                Pace::After(d) => d,
            };
            self.bot_after(host, version, delay);
        } else if let Some(secs) = st.meta.turn_seconds {
            st.turn_deadline = Some((Instant::now() + Duration::from_secs(u64::from(secs)), seat));
            let (host, table) = (host.clone(), self.clone());
            tokio::spawn(async move {
                tokio::time::sleep(Duration::from_secs(u64::from(secs))).await;
                table.turn_timeout(&host, version).await;
            });
        }
    }

    /// The bots that answer within the request that acted (holding the table meanwhile: the
    /// request's answer carries their moves), until a person is to act.
    pub(crate) async fn answer_in_request(
        self: &Arc<Self>,
        host: &Tables,
        st: &mut TableState<G>,
    ) -> Vec<Logged<G::Event>> {
        let mut answered = Vec::new();
        for _ in 0..MAX_ANSWERS {
            let Some((seat, true)) = st.next(&self.id) else { break };
            if st.pace(&self.id, seat, host.config().bot_delay) != Pace::InRequest {
                break;
            }
            let Some(game) = st.life.game() else { break };
            let seen = game.seen(seat);
            let Some(mut bot) = st.bots.get_mut(seat.index()).and_then(Option::take) else { break };
            let lane = host.thinkers().take(&self.creator).await;
            let thought = tokio::task::spawn_blocking(move || {
                let _lane = lane;
                let action = G::choose(&mut bot, &seen);
                (bot, action, seen)
            })
            .await;
            let Ok((bot, action, seen)) = thought else {
                tracing::error!(table = %self.id, %seat, "a bot panicked; a fresh one takes its seat");
                self.fresh_bot(st, seat);
                break;
            };
            if let Some(slot) = st.bots.get_mut(seat.index()) {
                *slot = Some(bot);
            }
            let Some(action) = action.or_else(|| G::fallback(&seen)) else { break };
            match self.act_as(host, st, seat, action, None, true).await {
                Ok(events) => answered.extend(events),
                Err(e) => {
                    tracing::warn!(table = %self.id, %seat, error = %e, "a bot's answer was not taken");
                    // Tried again without a request, so the game never stalls on it.
                    self.schedule(host, st, false);
                    break;
                }
            }
        }
        answered
    }

    /// A bot seat's turn at `version`: it thinks (off the async workers, without the table's
    /// lock, in its creator's lane), then acts if nothing changed meanwhile.
    pub(crate) async fn bot_turn(self: &Arc<Self>, host: &Tables, version: u64) {
        if self.state.lock().await.version() != version {
            return;
        }
        // The creator's bots think one at a time, over all of its tables.
        let lane = host.thinkers().take(&self.creator).await;
        let (seat, seen, mut bot) = {
            let mut st = self.state.lock().await;
            if st.version() != version {
                return;
            }
            let Some((seat, true)) = st.next(&self.id) else { return };
            let Some(game) = st.life.game() else { return };
            let seen = game.seen(seat);
            let Some(bot) = st.bots.get_mut(seat.index()).and_then(Option::take) else { return };
            (seat, seen, bot)
        };
        let thought = tokio::task::spawn_blocking(move || {
            let action = G::choose(&mut bot, &seen);
            (bot, action, seen)
        })
        .await;
        drop(lane);
        let mut st = self.state.lock().await;
        let Ok((bot, action, seen)) = thought else {
            // The bot panicked; seat a fresh one so the table goes on.
            tracing::error!(table = %self.id, %seat, "a bot panicked; a fresh one takes its seat");
            self.fresh_bot(&mut st, seat);
            self.schedule(host, &mut st, false);
            return;
        };
        if let Some(slot) = st.bots.get_mut(seat.index()) {
            *slot = Some(bot);
        }
        if st.version() != version {
            // Someone acted meanwhile (a jump-in, an UNO catch): think again about the new state.
            self.schedule(host, &mut st, false);
            return;
        }
        if st.next(&self.id) != Some((seat, true)) {
            // The seat's person came back while its stand-in thought: theirs is the move.
            return;
        }
        let Some(action) = action.or_else(|| G::fallback(&seen)) else { return };
        let mut done = self.act_as(host, &mut st, seat, action, Some(version), false).await;
        if let Err(TableError::Illegal(_)) = done {
            // A bot that answers an illegal action must not stall the table.
            if let Some(fallback) = G::fallback(&seen) {
                done = self.act_as(host, &mut st, seat, fallback, Some(version), false).await;
            }
        }
        if let Err(TableError::Store(e)) = done {
            // Not stored (the database away for a moment): nothing changed, and nobody else
            // may act for the bot, so its turn is tried again rather than left to stall, less
            // often the longer the outage lasts.
            st.bot_retries = st.bot_retries.saturating_add(1);
            let (wait, logged) = bot_retry(st.bot_retries);
            crate::metrics::bot_retry();
            if logged {
                tracing::warn!(table = %self.id, %seat, error = %e, retries = st.bot_retries, next_ms = wait.as_millis() as u64, "a bot's move was not stored; trying again");
            }
            self.bot_after(host, version, wait);
        } else {
            st.bot_retries = 0;
        }
    }

    /// The bot's turn at `version`, after `delay`.
    fn bot_after(self: &Arc<Self>, host: &Tables, version: u64, delay: Duration) {
        let (host, table) = (host.clone(), self.clone());
        tokio::spawn(async move {
            tokio::time::sleep(delay).await;
            table.bot_turn(&host, version).await;
        });
    }

    fn fresh_bot(&self, st: &mut TableState<G>, seat: Seat) {
        let Some(m) = st.meta.seats.get(seat.index()) else { return };
        if let Some(Ok((_, b))) = m.bot.as_deref().map(|n| G::bot(n, m.bot_seed)) {
            if let Some(slot) = st.bots.get_mut(seat.index()) {
                *slot = Some(b);
            }
        }
    }

    /// A person's turn timer ran out: the server plays the game's default for them.
    pub(crate) async fn turn_timeout(self: &Arc<Self>, host: &Tables, version: u64) {
        let mut st = self.state.lock().await;
        if st.version() != version {
            return;
        }
        let Some((seat, false)) = st.next(&self.id) else { return };
        // At most a few steps (draw, then pass), all for the seat that ran out of time.
        let mut played = false;
        for _ in 0..4 {
            if st.next(&self.id).map(|(s, _)| s) != Some(seat) {
                break;
            }
            let Some((action, again)) = st.life.game().and_then(|g| g.timeout_action(seat)) else { break };
            let done = self.act_as(host, &mut st, seat, action, None, false).await;
            played |= done.is_ok();
            if done.is_err() || !again {
                break;
            }
        }
        if played {
            self.timed_out(host, &mut st, seat).await;
        }
    }

    /// The server played for `seat` because its person's time ran out: counted, and after
    /// [`AWAY_AFTER`] in a row the game's stand-in bot plays the seat until its person acts
    /// again. Every viewer is sent the table (its seats say so).
    async fn timed_out(self: &Arc<Self>, host: &Tables, st: &mut TableState<G>, seat: Seat) {
        let mut meta = st.meta.clone();
        let Some(m) = meta.seats.get_mut(seat.index()) else { return };
        m.timeouts = m.timeouts.saturating_add(1);
        let away = m.timeouts >= AWAY_AFTER && !m.away && G::STAND_IN.is_some();
        if away {
            m.away = true;
            match stand_in::<G>(m.bot_seed) {
                Ok(bot) => {
                    if let Some(slot) = st.bots.get_mut(seat.index()) {
                        *slot = bot;
                    }
                }
                Err(e) => {
                    tracing::error!(table = %self.id, %seat, error = %e, "no stand-in bot");
                    return;
                }
            }
            // Stored, so a restart (or another instance) keeps the stand-in playing.
            match store::Meta::new(&meta) {
                Ok(stored) => {
                    if let Err(e) = host.store().set_meta(&self.id, stored).await {
                        tracing::warn!(table = %self.id, %seat, error = %e, "a seat's stand-in was not stored");
                    }
                }
                Err(e) => tracing::warn!(table = %self.id, error = %e, "a table's meta could not be encoded"),
            }
        }
        st.meta = meta;
        if away && st.next(&self.id).map(|(s, _)| s) == Some(seat) {
            // Still the seat's turn (a draw that left it to play): its stand-in takes it.
            self.schedule(host, st, false);
        }
        self.publish_state(st);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stuck bot backs off (250 ms, 500 ms, 1 s, then 2 s at most) and logs ever fewer of its
    /// refusals: over a minute's outage, 7 lines instead of 240.
    #[test]
    fn a_stuck_bot_backs_off_and_logs_less_and_less() {
        let waits: Vec<u64> = (1..=6).map(|n| bot_retry(n).0.as_millis() as u64).collect();
        assert_eq!(waits, [250, 500, 1000, 2000, 2000, 2000]);
        let (mut elapsed, mut tries, mut logged) = (Duration::ZERO, 0u32, 0);
        while elapsed < Duration::from_secs(60) {
            tries += 1;
            let (wait, log) = bot_retry(tries);
            logged += usize::from(log);
            elapsed += wait;
        }
        assert!(tries < 40, "{tries} tries in a minute");
        assert!(logged <= 6, "{logged} lines in a minute");
        assert_eq!(bot_retry(u32::MAX).0, BOT_RETRY_MAX);
    }
}
