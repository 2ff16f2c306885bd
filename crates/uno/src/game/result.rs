//! A round's result as the engine scored it: the one tally every front door reads.

use serde::{Deserialize, Serialize};

use crate::card::{Card, Seat};
use crate::event::EndReason;

use super::Game;

/// How the round just ended (and the game, once over), as the engine scored it: the server's
/// pages, the terminal and the course layers show this and never add up points themselves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RoundResult {
    /// The round, from 1.
    pub round: u32,
    /// Who emptied their hand; `None` when the round ended without a winner (a stalemate, a
    /// turn cap).
    pub winner: Option<Seat>,
    /// What the winner scored this round: the points of every card left in the other hands
    /// (the engine's `round_scored` event); 0 without a winner.
    pub points: u32,
    /// Every seat's hand at the end, in seat order, with what it was worth under these rules.
    pub hands: Vec<HandResult>,
    /// Every seat's match points, this round included.
    pub totals: Vec<u32>,
    /// Whether the game is over (the match decided, or ended without a winner).
    pub game_over: bool,
    /// Who won the game, once it is over; `None` while it goes on or when nobody won.
    pub match_winner: Option<Seat>,
    /// Why the game ended, once it is over.
    pub end_reason: Option<EndReason>,
}

/// One seat's hand at a round's end.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct HandResult {
    /// The cards, in the order they arrived.
    pub cards: Vec<Card>,
    /// The points these cards are worth to the round's winner (the rules' scoring table).
    pub points: u32,
}

impl Game {
    /// The result of the round just ended, once a round (or the game) is over; `None` while
    /// a round is being played.
    pub fn round_result(&self) -> Option<RoundResult> {
        if !self.is_round_over() {
            return None;
        }
        let hands: Vec<HandResult> =
            self.hands().iter().map(|h| HandResult { cards: h.to_vec(), points: self.rules.hand_points(h) }).collect();
        let winner = self.round_winner();
        let outcome = self.outcome();
        Some(RoundResult {
            round: self.round(),
            winner,
            points: if winner.is_some() { hands.iter().map(|h| h.points).sum() } else { 0 },
            hands,
            totals: self.scores().to_vec(),
            game_over: self.is_over(),
            match_winner: outcome.and_then(|o| o.winner),
            end_reason: outcome.map(|o| o.reason),
        })
    }
}
