//! Who acts without a request: bots after their delay, and the server for a person whose turn
//! timer ran out.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use uno::{Action, Event, Phase, Seat};
use uno_bots::{Bot, BotSpec, IsmctsBot, IsmctsConfig};

use super::{Config, Meta, Table, TableError, TableState, Tables};
use crate::limits;
use crate::messages::{SeatKind, TableStatus};

/// Between a bot's move the store could not take and its next try.
const BOT_RETRY: Duration = Duration::from_millis(250);

/// How long a bot waits before its turn while a person could be caught for not calling UNO
/// (they just played their second-to-last card without calling): the person's fair moment to
/// call it late, however fast the bots play (docs/pages.md). A call in time changes the table, and
/// the bot thinks again about the new state.
pub(crate) const HUMAN_CATCH_GRACE: Duration = Duration::from_millis(2000);

/// Builds a bot for a seat: search bots also stop after [`limits::MAX_BOT_MOVE_TIME`], so no
/// name can hold a core for longer than that a move.
pub(super) fn build_bot(spec: BotSpec, seed: u64) -> Box<dyn Bot> {
    match spec.ismcts_config() {
        Some(config) => {
            Box::new(IsmctsBot::new(IsmctsConfig { time_limit: Some(limits::MAX_BOT_MOVE_TIME), ..config }, seed))
                as Box<dyn Bot>
        }
        None => spec.build(seed),
    }
}

/// What the server plays for a human whose turn timer ran out: draw, then pass.
pub(super) fn default_action(legal: &[Action]) -> Option<Action> {
    let has = |a: Action| legal.contains(&a).then_some(a);
    has(Action::Draw)
        .or_else(|| has(Action::Pass))
        .or_else(|| has(Action::Accept))
        .or_else(|| has(Action::NextRound))
        .or_else(|| legal.iter().copied().find(|a| !matches!(a, Action::CallUno | Action::CatchUno { .. })))
}

pub(super) fn make_bots(meta: &Meta) -> Result<Vec<Option<Box<dyn Bot>>>, TableError> {
    meta.seats
        .iter()
        .map(|s| match (&s.kind, &s.bot) {
            (SeatKind::Bot, Some(name)) => Ok(Some(build_bot(name.parse::<BotSpec>()?, s.bot_seed))),
            _ => Ok(None),
        })
        .collect()
}

impl TableState {
    /// The bot seat that should act now, if any.
    pub(super) fn bot_to_move(&self) -> Option<usize> {
        let is_bot = |i: usize| self.meta.seats.get(i).is_some_and(|s| s.kind == SeatKind::Bot);
        if self.game.phase() == Phase::RoundOver {
            // With a person seated, a person deals (the result stays up until then); at a table
            // of bots only, the first bot does after the round pause.
            self.round_pause_ms()?;
            return (0..self.players()).find(|&i| is_bot(i));
        }
        let cur = self.game.current().index();
        is_bot(cur).then_some(cur)
    }

    pub(super) fn bot_delay(&self, seat: usize, config: &Config) -> Duration {
        if let Some(pause) = self.round_pause_ms() {
            return Duration::from_millis(pause);
        }
        let ms = self.meta.seats.get(seat).and_then(|s| s.delay_ms).or(self.meta.bot_delay_ms);
        let pace = ms.map(|m| Duration::from_millis(m as u64)).unwrap_or(config.bot_delay);
        if self.person_exposed() {
            pace.max(HUMAN_CATCH_GRACE)
        } else {
            pace
        }
    }

    /// Whether a person (not a bot) has just become one who may be caught for not calling UNO:
    /// the last change was their card. (The grace runs from that card: a bot's own UNO call
    /// meanwhile does not start it again.)
    fn person_exposed(&self) -> bool {
        let Some(exposed) = self.game.uno_exposed() else { return false };
        if self.meta.seats.get(exposed.index()).is_none_or(|m| m.kind != SeatKind::Human) {
            return false;
        }
        let last = self.events.back().map(|e| e.version);
        self.events
            .iter()
            .rev()
            .take_while(|e| Some(e.version) == last)
            .any(|e| matches!(e.event, Event::CardPlayed { seat, .. } if seat == exposed))
    }
}

impl Tables {
    /// After any change: set the bot or the turn timer going for whoever acts next.
    pub(super) fn schedule(&self, table: &Arc<Table>, st: &mut TableState) {
        // A deadline belongs to the turn it was set for: any change ends it.
        st.turn_deadline = None;
        if st.status() != TableStatus::Playing || table.closed.load(Ordering::Acquire) {
            return;
        }
        let version = st.version();
        if let Some(seat) = st.bot_to_move() {
            let delay = st.bot_delay(seat, &self.inner.config);
            let app = self.clone();
            let table = table.clone();
            tokio::spawn(async move {
                tokio::time::sleep(delay).await;
                app.bot_turn(&table, version).await;
            });
        } else if let Some(secs) = st.meta.turn_seconds {
            st.turn_deadline = Some(Instant::now() + Duration::from_secs(secs as u64));
            let app = self.clone();
            let table = table.clone();
            tokio::spawn(async move {
                tokio::time::sleep(Duration::from_secs(secs as u64)).await;
                app.turn_timeout(&table, version).await;
            });
        }
    }

    pub(super) async fn bot_turn(&self, table: &Arc<Table>, version: u64) {
        if table.state.lock().await.version() != version {
            return;
        }
        // The creator's bots think one at a time, over all of its tables.
        let lane = self.inner.thinkers.take(&table.creator).await;
        let (seat, obs, mut bot) = {
            let mut st = table.state.lock().await;
            if st.version() != version || st.status() != TableStatus::Playing {
                return;
            }
            let Some(seat) = st.bot_to_move() else { return };
            let obs = st.game.observation(Some(Seat(seat as u8)));
            if obs.legal_actions.is_empty() {
                return;
            }
            let Some(bot) = st.bots.get_mut(seat).and_then(Option::take) else { return };
            (seat, obs, bot)
        };
        // A search bot may think for a while: off the async workers, and without the lock.
        let thought = tokio::task::spawn_blocking(move || {
            let action = bot.choose(&obs);
            (bot, action, obs)
        })
        .await;
        drop(lane);
        let mut st = table.state.lock().await;
        let Ok((bot, action, obs)) = thought else {
            // The bot panicked; seat a fresh one so the table goes on.
            tracing::error!(table = %table.id, seat, "a bot panicked; a fresh one takes its seat");
            if let Some(m) = st.meta.seats.get(seat) {
                if let Some(spec) = m.bot.as_deref().and_then(|n| n.parse::<BotSpec>().ok()) {
                    let b = build_bot(spec, m.bot_seed);
                    if let Some(slot) = st.bots.get_mut(seat) {
                        *slot = Some(b);
                    }
                }
            }
            self.schedule(table, &mut st);
            return;
        };
        if let Some(slot) = st.bots.get_mut(seat) {
            *slot = Some(bot);
        }
        if st.version() != version {
            // Someone acted meanwhile (a jump-in, an UNO catch): think again about the new state.
            self.schedule(table, &mut st);
            return;
        }
        let seat_version = Some(version);
        let mut done = self.act_as(table, &mut st, seat, action, seat_version).await;
        if let Err(TableError::Illegal(_)) = done {
            // A bot that answers an illegal action must not stall the table.
            if let Some(&fallback) = obs.legal_actions.first() {
                done = self.act_as(table, &mut st, seat, fallback, seat_version).await;
            }
        }
        if let Err(TableError::Store(e)) = done {
            // Not stored (the database away for a moment): nothing changed, and nobody else
            // may act for the bot, so its turn is tried again rather than left to stall.
            tracing::warn!(table = %table.id, seat, error = %e, "a bot's move was not stored; trying again");
            self.bot_again(table, version);
        }
    }

    /// The bot's turn at `version`, tried again after [`BOT_RETRY`].
    fn bot_again(&self, table: &Arc<Table>, version: u64) {
        let app = self.clone();
        let table = table.clone();
        tokio::spawn(async move {
            tokio::time::sleep(BOT_RETRY).await;
            app.bot_turn(&table, version).await;
        });
    }

    pub(super) async fn turn_timeout(&self, table: &Arc<Table>, version: u64) {
        let mut st = table.state.lock().await;
        if st.version() != version || st.status() != TableStatus::Playing {
            return;
        }
        let seat = st.game.current().index();
        // Draw, then pass: at most a few steps, all for the seat that ran out of time.
        for _ in 0..4 {
            if st.status() != TableStatus::Playing || st.game.current().index() != seat {
                break;
            }
            let legal = st.game.legal_actions_for(Seat(seat as u8));
            let Some(action) = default_action(&legal) else { break };
            if self.act_as(table, &mut st, seat, action, None).await.is_err() || action != Action::Draw {
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_action_draws_then_passes() {
        assert_eq!(default_action(&[Action::Draw, Action::CallUno]), Some(Action::Draw));
        assert_eq!(default_action(&[Action::Pass]), Some(Action::Pass));
        assert_eq!(default_action(&[Action::CallUno]), None);
    }
}
