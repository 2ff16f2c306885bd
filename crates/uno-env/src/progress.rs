//! Whether a round is getting anywhere: the one measure of a *stall* that every environment
//! (the batched core and each Python adapter) truncates an episode on.
//!
//! A round ends when a hand is empty, so a round moves towards its end when a hand gets smaller
//! than it has been. **Progress** is an engine action after which some seat holds fewer cards
//! than at any moment of the round before; a **stall** is the run of engine actions since the
//! last progress. Under the official rules drawing is always legal, so a greedy policy that
//! draws (an untrained network's argmax) can go on for ever without a stall bound: every hand
//! grows, the draw pile runs out, forced plays hand the same cards round. Each hand's lowest
//! point stops moving, and the stall grows by one an action until the bound truncates the
//! episode. A real round keeps setting new lows: someone plays down to a size their hand has
//! not had.

use uno::game::Game;

use crate::space::MAX_SEATS;

/// Engine actions without progress after which an episode is truncated, when the caller does
/// not say. `examples/stalls.rs` measures how rarely a real round stalls this long (bots'
/// rounds under every preset) and how soon a policy that always draws is cut.
pub const DEFAULT_MAX_STALL: u32 = 400;

/// Each seat's smallest hand so far this round, and the engine actions since one got smaller.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    lows: [u16; MAX_SEATS],
    stall: u32,
}

impl Progress {
    /// The round as dealt: every hand's size is its lowest so far, and nothing has stalled.
    pub fn start(game: &Game) -> Progress {
        let mut lows = [u16::MAX; MAX_SEATS];
        for (low, hand) in lows.iter_mut().zip(game.hands()) {
            *low = hand_size(hand.len());
        }
        Progress { lows, stall: 0 }
    }

    /// Records one engine action applied to `game`; returns the stall after it.
    #[inline]
    pub fn record(&mut self, game: &Game) -> u32 {
        let mut progressed = false;
        for (low, hand) in self.lows.iter_mut().zip(game.hands()) {
            let size = hand_size(hand.len());
            if size < *low {
                *low = size;
                progressed = true;
            }
        }
        self.stall = if progressed { 0 } else { self.stall.saturating_add(1) };
        self.stall
    }

    /// Records `actions` engine actions applied to `game` of which only the last can make a
    /// hand smaller (a bot's whole turn: its UNO calls and its draw come before its card);
    /// the same stall as [`Progress::record`] after each of them. Returns the stall after them.
    #[inline]
    pub fn record_turn(&mut self, game: &Game, actions: u32) -> u32 {
        if self.record(game) > 0 {
            self.stall = self.stall.saturating_add(actions.saturating_sub(1));
        }
        self.stall
    }

    /// Engine actions since the last progress.
    pub fn stall(&self) -> u32 {
        self.stall
    }

    /// Each seat's smallest hand so far (`u16::MAX` past the table) and the stall: what
    /// [`Progress::resume`] rebuilds it from (a pickled game carries them).
    pub fn parts(&self) -> ([u16; MAX_SEATS], u32) {
        (self.lows, self.stall)
    }

    /// A tracker as [`Progress::parts`] described it.
    pub fn resume(lows: [u16; MAX_SEATS], stall: u32) -> Progress {
        Progress { lows, stall }
    }
}

fn hand_size(len: usize) -> u16 {
    u16::try_from(len).unwrap_or(u16::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use uno::{Action, Rules, Seat};

    #[test]
    fn a_play_that_sets_a_new_low_is_progress_and_draws_are_not() {
        let rules = Rules::preset("official").expect("preset");
        let mut game = Game::new(rules, 2, 3).expect("deal");
        let mut p = Progress::start(&game);
        let mut stalls = Vec::new();
        let mut lows = [game.hand(Seat(0)).len(), game.hand(Seat(1)).len()];
        for _ in 0..300 {
            if game.is_round_over() {
                break;
            }
            let seat = game.current();
            let legal = game.legal_actions();
            // Draw and keep whenever the rules allow: hands grow, lows come only from forced plays.
            let action = [Action::Draw, Action::Pass].into_iter().find(|a| legal.contains(a)).unwrap_or(legal[0]);
            game.apply(seat, action).expect("legal");
            let new_low = Seat::all(2).any(|s| game.hand(s).len() < lows[s.index()]);
            for (s, low) in Seat::all(2).zip(lows.iter_mut()) {
                *low = (*low).min(game.hand(s).len());
            }
            let stall = p.record(&game);
            assert_eq!(stall == 0, new_low, "stall {stall} after {action}");
            stalls.push(stall);
        }
        assert!(stalls.iter().any(|&s| s > 50), "a drawing policy stalls: {stalls:?}");
    }
}
