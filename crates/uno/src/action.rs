//! What a player can do, and why the engine may refuse it.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::card::{Card, Color, Seat};

/// One decision. Every action is taken by a seat: `Game::apply(seat, action)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Action {
    /// Play a card from the hand; a wild names the colour that follows it. Played by a seat
    /// whose turn it is not, it is a jump-in (house rule).
    Play {
        /// The card, which must be in the player's hand.
        card: Card,
        /// The colour that follows a wild card; required for a wild, refused for any other.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        color: Option<Color>,
    },
    /// Draw from the pile: one card (or as the draw rule says), or the whole pending penalty.
    Draw,
    /// Keep the card just drawn and end the turn; or, in a same-number run, play no more
    /// cards and end the turn.
    Pass,
    /// Name the colour when the first card turned up is a wild.
    DeclareColor {
        /// The colour to be in play; one of the rules' colours.
        color: Color,
    },
    /// Challenge the Wild Draw Four just played on you.
    Challenge,
    /// Take the Wild Draw Four penalty without challenging.
    Accept,
    /// After playing a 7 (7–0 house rule): swap hands with this seat.
    SwapHands {
        /// Another seat at the table.
        with: Seat,
    },
    /// Call UNO for yourself: on your turn with two cards or fewer, or with one card just
    /// after playing it, until the next player acts. Under rules with a false-call penalty
    /// (`uno.false_call_penalty`), a call with nothing to call costs the caller that many cards.
    CallUno,
    /// Catch `seat`, who went down to one card without calling UNO, before the next player
    /// acts: they draw `uno.penalty` cards. A catch of a seat that cannot be caught is refused,
    /// or, under rules with a false-call penalty, costs the catcher that many cards.
    CatchUno {
        /// The player to catch.
        seat: Seat,
    },
    /// Deal the next round of a match.
    NextRound,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Play { card, color: Some(c) } => write!(f, "play {card} {c}"),
            Action::Play { card, color: None } => write!(f, "play {card}"),
            Action::Draw => f.write_str("draw"),
            Action::Pass => f.write_str("pass"),
            Action::DeclareColor { color } => write!(f, "color {color}"),
            Action::Challenge => f.write_str("challenge"),
            Action::Accept => f.write_str("accept"),
            Action::SwapHands { with } => write!(f, "swap {with}"),
            Action::CallUno => f.write_str("uno"),
            Action::CatchUno { seat } => write!(f, "catch {seat}"),
            Action::NextRound => f.write_str("next"),
        }
    }
}

/// Why an action text did not parse.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("cannot read action '{0}': expected play CARD [COLOUR], draw, pass, color COLOUR, challenge, accept, swap SEAT, uno, catch SEAT or next")]
pub struct ActionParseError(
    /// The text that did not parse.
    pub String,
);

impl FromStr for Action {
    type Err = ActionParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || ActionParseError(s.to_string());
        let words: Vec<&str> = s.split_whitespace().collect();
        let lower = words.first().map(|w| w.to_ascii_lowercase()).unwrap_or_default();
        match (lower.as_str(), &words[1.min(words.len())..]) {
            ("play", [card]) => Ok(Action::Play { card: card.parse().map_err(|_| err())?, color: None }),
            ("play", [card, color]) => Ok(Action::Play {
                card: card.parse().map_err(|_| err())?,
                color: Some(color.parse().map_err(|_| err())?),
            }),
            ("draw", []) => Ok(Action::Draw),
            ("pass" | "keep", []) => Ok(Action::Pass),
            ("color" | "colour", [c]) => Ok(Action::DeclareColor { color: c.parse().map_err(|_| err())? }),
            ("challenge", []) => Ok(Action::Challenge),
            ("accept", []) => Ok(Action::Accept),
            ("swap", [seat]) => Ok(Action::SwapHands { with: seat.parse().map_err(|_| err())? }),
            ("uno", []) => Ok(Action::CallUno),
            ("catch", [seat]) => Ok(Action::CatchUno { seat: seat.parse().map_err(|_| err())? }),
            ("next", []) => Ok(Action::NextRound),
            _ => Err(err()),
        }
    }
}

/// Why the engine refused an action. The state is unchanged whenever this is returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum IllegalAction {
    /// Any action after the game ended.
    #[error("the game is over")]
    GameOver,
    /// Anything but [`Action::NextRound`] between the rounds of a match.
    #[error("the round is over: deal the next round")]
    RoundOver,
    /// The acting seat, or the seat caught, is not at this table.
    #[error("no such seat")]
    NoSuchSeat,
    /// An action only the player to act may take, taken by another seat (also a play out of
    /// turn when the rules have no jump-ins).
    #[error("it is not your turn")]
    NotYourTurn,
    /// A play of a card the player does not hold.
    #[error("that card is not in your hand")]
    CardNotInHand,
    /// A play that matches neither the colour in play nor the top card's face.
    #[error("that card does not match the top card or the colour in play")]
    DoesNotMatch,
    /// A wild card played without a colour.
    #[error("a wild card needs a colour named")]
    ColorRequired,
    /// A coloured card played with a colour.
    #[error("only a wild card takes a colour")]
    ColorNotAllowed,
    /// A colour named that the rules' deck does not use.
    #[error("that colour is not in this game")]
    ColorNotInGame,
    /// A play that does not stack on the pending draw penalty.
    #[error("a draw penalty is pending: stack a draw card on it or draw")]
    MustAnswerDrawPenalty,
    /// A draw while holding a playable card, under rules that force a play.
    #[error("you must play a card when you can")]
    MustPlayWhenAble,
    /// A pass before drawing.
    #[error("you must draw before passing")]
    MustDrawBeforePass,
    /// A second draw in one turn.
    #[error("you have already drawn this turn")]
    AlreadyDrawn,
    /// After a draw, a play of a card other than the one drawn.
    #[error("after drawing, only the drawn card may be played")]
    OnlyDrawnCard,
    /// A pass after drawing a playable card, under rules where it must be played.
    #[error("the drawn card matches and must be played")]
    MustPlayDrawnCard,
    /// Another card of the number of a same-number run, or a pass, is all that is allowed now.
    #[error("play another card of the same number, or pass to end your turn")]
    SameNumberOnly,
    /// A draw with no card left to draw (none to reshuffle either) while holding a
    /// playable card.
    #[error("nothing can be drawn: the draw pile is empty")]
    DrawPileEmpty,
    /// A Wild Draw Four played while holding the colour in play, under rules that
    /// forbid it outright (rather than leave it to a challenge).
    #[error("Wild Draw Four may only be played without a card of the colour in play")]
    WildDrawFourNotAllowed,
    /// A Wild Draw Four while another card of the hand could be played, under rules that keep
    /// it for when nothing else can (`WildDrawFourRule::LastResort`).
    #[error("Wild Draw Four may only be played when no other card can be")]
    WildDrawFourLastResort,
    /// Anything but [`Action::Challenge`] or [`Action::Accept`] while a Wild Draw Four
    /// waits for its answer.
    #[error("answer the Wild Draw Four: challenge or accept")]
    MustAnswerChallenge,
    /// A challenge or accept with no Wild Draw Four to answer.
    #[error("there is no Wild Draw Four to challenge")]
    NoChallengePending,
    /// Anything but [`Action::DeclareColor`] while a first-card Wild waits for its colour.
    #[error("name the colour first")]
    MustDeclareColor,
    /// A colour declared when none is asked for.
    #[error("there is no colour to name now")]
    NoColorToDeclare,
    /// Anything but [`Action::SwapHands`] after a 7 under the seven-zero rule.
    #[error("choose whom to swap hands with")]
    MustChooseSwap,
    /// A swap when no 7 asks for one.
    #[error("there is no swap to choose")]
    NoSwapPending,
    /// A swap with oneself or a seat not at the table.
    #[error("you cannot swap hands with that seat")]
    InvalidSwapTarget,
    /// A play out of turn that is not a valid jump-in under rules that allow them.
    #[error("a jump-in needs a card identical to the top card, outside a penalty, under the jump-in rule")]
    JumpInNotAllowed,
    /// An UNO call or catch under rules without UNO calls.
    #[error("UNO calls are not part of these rules")]
    UnoCallsOff,
    /// An own UNO call outside its window, under rules without a false-call penalty.
    #[error("there is nothing to call UNO on: call it on your turn with two cards or fewer, or just after going down to one")]
    NothingToCall,
    /// A second own UNO call; refused, never punished.
    #[error("you have already called UNO")]
    UnoAlreadyCalled,
    /// A catch naming the catcher.
    #[error("you cannot catch yourself: call UNO instead")]
    CannotCatchYourself,
    /// A catch of a player who called UNO.
    #[error("that player called UNO in time")]
    UnoCalledInTime,
    /// A catch of a player on one card after the next player acted.
    #[error("too late to catch that player: the next player has already acted")]
    CatchTooLate,
    /// A catch of a player who does not hold exactly one card.
    #[error("that player does not hold exactly one card")]
    NotOnOneCard,
    /// [`Action::NextRound`] while a round is being played.
    #[error("the round is not over")]
    RoundNotOver,
    /// A move other than the one seed 000's precedence picks, under rules where it decides
    /// every move (`forced_play = "precedence"`, the `csce322` preset).
    #[error("under these rules seed 000's precedence decides every move, and it picks another")]
    PrecedencePicksAnother,
}
