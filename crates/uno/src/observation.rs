//! What one viewer may know: the only thing a bot or a client ever receives.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::action::Action;
use crate::card::{Card, Color, Direction, Seat};
use crate::event::Outcome;
use crate::phase::Phase;
use crate::rules::Rules;

/// A seat's (or a spectator's) view of the game: its own hand, the sizes of the others,
/// and everything public, the rules included: a bot needs nothing else to decide.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Observation {
    /// The table's rules. In JSON: their configuration (what a rules file holds, as
    /// `RulesConfig`), validated again when read back, so an observation of a custom rule set
    /// round-trips whole.
    #[serde(with = "rules_as_config")]
    #[cfg_attr(feature = "ts", ts(as = "crate::rules::RulesConfig"))]
    pub rules: Arc<Rules>,
    /// `None` for a spectator.
    pub viewer: Option<Seat>,
    /// The number of seats.
    pub players: usize,
    /// The viewer's own hand (empty for a spectator).
    pub hand: Vec<Card>,
    /// How many cards each seat holds, in seat order.
    pub hand_sizes: Vec<usize>,
    /// Whether each seat has called UNO for its current hand.
    pub uno_called: Vec<bool>,
    /// The seat that can be caught for not calling UNO, if any.
    pub uno_exposed: Option<Seat>,
    /// The card in play: the top of the discard pile.
    pub top: Card,
    /// The colour in play (declared, when the top card is a wild); `None` (JSON `null`) while a
    /// first-card Wild waits for its colour.
    pub color: Option<Color>,
    /// The whole discard pile, bottom card first: it is face up.
    pub discard: Vec<Card>,
    /// Cards left in the draw pile.
    pub draw_pile_size: usize,
    /// The seat to act.
    pub current: Seat,
    /// The direction of play.
    pub direction: Direction,
    /// The seat that dealt this round.
    pub dealer: Seat,
    /// Who must decide what now.
    pub phase: Phase,
    /// Cards a stacked penalty makes the seat to act draw, if it does not stack on it.
    pub pending_draw: u32,
    /// The card the viewer just drew, while deciding about it.
    pub drawn_card: Option<Card>,
    /// Completed turns this round.
    pub turns: u32,
    /// The round of the match, from 1.
    pub round: u32,
    /// Each seat's match points so far.
    pub scores: Vec<u32>,
    /// What the viewer may do now (empty for a spectator).
    pub legal_actions: Vec<Action>,
    /// How the game ended, once it has.
    pub outcome: Option<Outcome>,
}

/// The rules travel as their configuration; reading them back validates it again.
mod rules_as_config {
    use std::sync::Arc;

    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use crate::rules::{Rules, RulesConfig};

    pub fn serialize<S: Serializer>(rules: &Arc<Rules>, s: S) -> Result<S::Ok, S::Error> {
        rules.config().serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Arc<Rules>, D::Error> {
        let config = RulesConfig::deserialize(d)?;
        Rules::new(config).map(Arc::new).map_err(D::Error::custom)
    }
}
