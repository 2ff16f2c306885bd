//! Why a position cannot be played: the refusals of `Position::validate`, `Game::from_position`
//! and the position's text and JSON forms.

use thiserror::Error;

use crate::card::{Card, Color, Seat};

/// Why a position cannot be played under a rule set: one variant per kind of refusal.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PositionError {
    /// The number of hands is not a player count the rules allow.
    #[error("the position has {got} hands; the rules seat {min} to {max} players")]
    PlayerCount {
        /// Hands in the position.
        got: usize,
        /// The rules' minimum.
        min: usize,
        /// The rules' maximum.
        max: usize,
    },
    /// A seat named somewhere in the position is not at the table.
    #[error("{what}: seat {seat} is not at the table")]
    NoSuchSeat {
        /// Which field names it.
        what: &'static str,
        /// The seat.
        seat: Seat,
    },
    /// `scores` has neither one entry per seat nor none.
    #[error("{got} scores for {players} players")]
    Scores {
        /// Entries given.
        got: usize,
        /// Seats at the table.
        players: usize,
    },
    /// The cards are not the deck (the rules', or the position's own `deck`), as a multiset.
    #[error("the cards are not the deck: missing {missing:?}, extra {extra:?}")]
    Cards {
        /// Cards of the deck the position lacks.
        missing: Vec<Card>,
        /// Cards the position has beyond the deck.
        extra: Vec<Card>,
    },
    /// The position's own deck holds more than a rules deck may: more than
    /// [`MAX_COPIES`](crate::rules::MAX_COPIES) of one card, or more than
    /// [`MAX_DECK_CARDS`](crate::rules::MAX_DECK_CARDS) cards in all.
    #[error("the position's deck holds {value} {what}, more than the limit of {max}")]
    DeckOverLimit {
        /// What is counted: `cards`, or `copies of R5`.
        what: String,
        /// How many the deck holds.
        value: usize,
        /// The limit.
        max: usize,
    },
    /// The discard pile is empty although the first card has been turned.
    #[error("the discard pile is empty (say first_card_to_turn if the first card is still to turn)")]
    EmptyDiscard,
    /// The first card is still to be turned, yet the position has gone further.
    #[error("the first card is still to turn, so the discard pile must be empty, the phase play, and nothing pending, drawn or called")]
    FirstCardToTurn,
    /// The colour in play is not one of the rules' colours.
    #[error("the colour {0} is not in this game")]
    ColorNotInGame(Color),
    /// A coloured top card with another colour in play.
    #[error("the top card {top} is {}, not {color}", top.color().map_or("wild", Color::name))]
    ColorMismatch {
        /// The top card.
        top: Card,
        /// The colour given.
        color: Color,
    },
    /// A wild on top and no colour named.
    #[error("the top card {top} is a wild: the position must name the colour in play")]
    ColorMissing {
        /// The top card.
        top: Card,
    },
    /// A colour given while it is still to be chosen.
    #[error("the colour is still to be chosen: the position must not name one")]
    ColorTooEarly,
    /// `choose_color` without a wild on top.
    #[error("there is no colour to choose: the top card {top} is not a wild")]
    NothingToChoose {
        /// The top card.
        top: Card,
    },
    /// A pending challenge the rules or the table do not allow.
    #[error("no challenge can be pending: it needs the challenge rule, a Wild Draw Four on top, a penalty pending and an offender other than the current seat")]
    ChallengeImpossible,
    /// A pending hand swap the rules or the table do not allow.
    #[error("no swap can be pending: it needs the 7-0 rule and a 7 on top")]
    SwapImpossible,
    /// A same-number run the rules or the hands do not allow.
    #[error("no same-number run can be going on: it needs the same-number rule, a number card on top that starts runs, and another card of that number in the current hand")]
    SameNumberImpossible,
    /// The `drawn_card` phase without a drawn card in the current hand.
    #[error("the drawn_card phase needs the drawn card, held by the current seat")]
    DrawnCardMissing,
    /// A drawn card outside the `drawn_card` phase.
    #[error("a drawn card is held only in the drawn_card phase")]
    DrawnCardOutOfPhase,
    /// A pending penalty that no played card could have caused.
    #[error("a penalty of {pending} is pending, which needs a draw card on top, a stacking rule (or a challenge) and the play phase")]
    PenaltyImpossible {
        /// The penalty given.
        pending: u32,
    },
    /// An empty hand while the round goes on.
    #[error("seat {seat} has no cards but the round is not over")]
    EmptyHand {
        /// The seat.
        seat: Seat,
    },
    /// An UNO call by a seat holding more than two cards.
    #[error("seat {seat} called UNO but holds {cards} cards")]
    UnoCallTooManyCards {
        /// The seat.
        seat: Seat,
        /// Its cards.
        cards: usize,
    },
    /// An outcome without the game being over, the reverse, or an outcome whose scores are
    /// not the position's.
    #[error("an outcome is given exactly when the phase is game_over, with the position's scores")]
    OutcomeMismatch,
    /// The text form could not be read.
    #[error("line {line}: {message}")]
    Syntax {
        /// The line, from 1 (0: the text as a whole).
        line: usize,
        /// What is wrong.
        message: String,
    },
}

impl PositionError {
    /// Whether the position holds more than the engine plays (a deck of its own past a rules
    /// deck's limits), rather than a position that could not arise.
    pub fn is_over_limit(&self) -> bool {
        matches!(self, PositionError::DeckOverLimit { .. })
    }
}
