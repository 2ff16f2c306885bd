//! What happened, as the terminal view, the web page and the store see it.
//!
//! Events are redacted per viewer: an opponent's draw shows a count, the drawer sees the cards.

use serde::{Deserialize, Serialize};

use crate::card::{Card, Color, Direction, Seat};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DrawReason {
    /// A draw on the player's own turn.
    Turn,
    /// A Draw Two or Wild Draw Four (possibly stacked), or the first card's Draw Two.
    Penalty,
    /// Caught with one card without calling UNO.
    UnoPenalty,
    /// Called UNO when there was nothing to call or catch.
    FalseUnoCall,
    /// Challenged a Wild Draw Four that was played legally.
    ChallengeLost,
    /// Played a Wild Draw Four while holding the colour in play, and was challenged.
    ChallengeGuilty,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// A player emptied their hand (and, in a match, reached the target).
    Won,
    /// Nobody could play or draw any more.
    Stalemate,
    /// The rules' turn cap was reached.
    TurnCap,
    /// A stalemate: the round reached the rules' `end.max_turns` and nobody had won.
    MaxTurns,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Outcome {
    pub winner: Option<Seat>,
    pub reason: EndReason,
    /// Points each seat has won, match totals included.
    pub scores: Vec<u32>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    RoundStarted {
        round: u32,
        dealer: Seat,
    },
    /// A card turned up to start the discard pile; `returned` when the rules send it back.
    StartCard {
        card: Card,
        returned: bool,
    },
    TurnStarted {
        seat: Seat,
    },
    CardPlayed {
        seat: Seat,
        card: Card,
        jump_in: bool,
    },
    ColorDeclared {
        seat: Seat,
        color: Color,
    },
    /// `cards` is empty when redacted for another viewer; `count` is always right.
    CardsDrawn {
        seat: Seat,
        count: u32,
        cards: Vec<Card>,
        reason: DrawReason,
    },
    Passed {
        seat: Seat,
    },
    /// The player ended a same-number run with a pass, keeping the cards of the number it holds.
    RunEnded {
        seat: Seat,
    },
    DirectionReversed {
        direction: Direction,
    },
    PlayerSkipped {
        seat: Seat,
    },
    UnoCalled {
        seat: Seat,
    },
    UnoPenalty {
        seat: Seat,
        caught_by: Seat,
    },
    FalseUnoCall {
        seat: Seat,
    },
    ChallengeResolved {
        challenger: Seat,
        offender: Seat,
        guilty: bool,
    },
    HandsSwapped {
        a: Seat,
        b: Seat,
    },
    HandsRotated {
        direction: Direction,
    },
    DeckReshuffled {
        cards: u32,
    },
    RoundScored {
        winner: Seat,
        points: u32,
        totals: Vec<u32>,
    },
    GameOver {
        outcome: Outcome,
    },
}

impl Event {
    /// The event as `viewer` may see it (`None`: a spectator).
    pub fn redacted_for(&self, viewer: Option<Seat>) -> Event {
        match self {
            Event::CardsDrawn { seat, count, reason, .. } if viewer != Some(*seat) => {
                Event::CardsDrawn { seat: *seat, count: *count, cards: Vec::new(), reason: *reason }
            }
            e => e.clone(),
        }
    }
}

/// Where the state machine writes events: a `Vec` for `apply`, nothing for `apply_unchecked`.
pub(crate) trait Sink {
    /// Whether events are kept; lets the hot path skip gathering what only events need.
    const RECORDS: bool;
    fn emit(&mut self, event: impl FnOnce() -> Event);
}

impl Sink for Vec<Event> {
    const RECORDS: bool = true;
    #[inline]
    fn emit(&mut self, event: impl FnOnce() -> Event) {
        self.push(event());
    }
}

/// Discards events without building them: the simulation hot path.
pub(crate) struct Mute;

impl Sink for Mute {
    const RECORDS: bool = false;
    #[inline(always)]
    fn emit(&mut self, _event: impl FnOnce() -> Event) {}
}
