//! What happened, as the terminal view, the web page and the store see it.
//!
//! Events are redacted per viewer: an opponent's draw shows a count, the drawer sees the cards.

use serde::{Deserialize, Serialize};

use crate::card::{Card, Color, Direction, Seat};

/// Why cards went into a hand, on [`Event::CardsDrawn`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
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

/// Why a game ended, in its [`Outcome`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
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
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Outcome {
    /// The seat that won the last round (and with it the match); `None` when nobody won.
    pub winner: Option<Seat>,
    /// Why the game ended.
    pub reason: EndReason,
    /// Points each seat has won, match totals included.
    pub scores: Vec<u32>,
}

/// One thing that happened in a game, in the order it happened. `Game::apply` returns the events
/// of one action; the JSON form is tagged by `type` (`{"type": "card_played", ...}`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// The deck was shuffled and dealt for a new round.
    RoundStarted {
        /// The round's number, from 1.
        round: u32,
        /// The dealer; the first player is normally the seat after them.
        dealer: Seat,
    },
    /// A card turned up to start the discard pile; `returned` when the rules send it back.
    StartCard {
        /// The card turned up.
        card: Card,
        /// Whether it went back into the deck (another card is then turned).
        returned: bool,
    },
    /// It is now `seat`'s turn.
    TurnStarted {
        /// The player to act.
        seat: Seat,
    },
    /// A card left a hand for the discard pile.
    CardPlayed {
        /// Who played it.
        seat: Seat,
        /// The card.
        card: Card,
        /// Played out of turn, as a jump-in (an identical card on the top card); play goes on
        /// from `seat`.
        jump_in: bool,
    },
    /// The colour in play was named: after every wild card played, and after a first-card Wild.
    ColorDeclared {
        /// Who named it.
        seat: Seat,
        /// The colour now in play.
        color: Color,
    },
    /// `cards` is empty when redacted for another viewer; `count` is always right.
    CardsDrawn {
        /// Who received the cards.
        seat: Seat,
        /// How many arrived: fewer than asked when both piles ran out.
        count: u32,
        /// The cards, in the order drawn (empty when redacted).
        cards: Vec<Card>,
        /// Why they were drawn.
        reason: DrawReason,
    },
    /// The player ended their turn without playing (after drawing, where the rules allow).
    Passed {
        /// Who passed.
        seat: Seat,
    },
    /// The player ended a same-number run with a pass, keeping the cards of the number it holds.
    RunEnded {
        /// The seat whose run ended.
        seat: Seat,
    },
    /// The direction of play changed (a Reverse, or a first-card Reverse).
    DirectionReversed {
        /// The direction now in force.
        direction: Direction,
    },
    /// A player lost their turn to a card: a Skip, a Draw Two, a Reverse where the rules make it
    /// a Skip, or the first card turned.
    PlayerSkipped {
        /// Who was skipped.
        seat: Seat,
    },
    /// A player called UNO for themselves.
    UnoCalled {
        /// Who called.
        seat: Seat,
    },
    /// A player with one card who had not called UNO was caught; their penalty draw follows as
    /// [`Event::CardsDrawn`] with [`DrawReason::UnoPenalty`].
    UnoPenalty {
        /// The player caught.
        seat: Seat,
        /// The player who caught them.
        caught_by: Seat,
    },
    /// An UNO call with nothing to call or catch, under rules that punish it; the penalty draw
    /// follows.
    FalseUnoCall {
        /// Who called.
        seat: Seat,
    },
    /// A Wild Draw Four was challenged; the loser's draw follows.
    ChallengeResolved {
        /// The player who was to draw four and challenged instead.
        challenger: Seat,
        /// The player of the Wild Draw Four.
        offender: Seat,
        /// Whether the offender held a card of the colour in play (then they draw, not the
        /// challenger).
        guilty: bool,
    },
    /// Two players exchanged hands (the 7 of the seven-zero house rule).
    HandsSwapped {
        /// The player who played the 7 and chose.
        a: Seat,
        /// The player they chose.
        b: Seat,
    },
    /// Every hand passed to the next player in the direction of play (the 0 of the seven-zero
    /// house rule).
    HandsRotated {
        /// The direction the hands moved.
        direction: Direction,
    },
    /// The draw pile ran out and the discard pile under its top card was shuffled into a new
    /// one.
    DeckReshuffled {
        /// The size of the new draw pile.
        cards: u32,
    },
    /// A player emptied their hand and scored the round.
    RoundScored {
        /// The round's winner.
        winner: Seat,
        /// The points they won: the value of every card left in the other hands.
        points: u32,
        /// Every seat's points so far, this round included, in seat order.
        totals: Vec<u32>,
    },
    /// The game is over; no action is legal any more.
    GameOver {
        /// Who won, why it ended, the final scores.
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
