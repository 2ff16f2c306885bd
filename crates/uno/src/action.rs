//! What a player can do, and why the engine may refuse it.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::card::{Card, Color, Seat};

/// One decision. Every action is taken by a seat: `Game::apply(seat, action)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Action {
    /// Play a card from the hand; a wild names the colour that follows it. Played by a seat
    /// whose turn it is not, it is a jump-in (house rule).
    Play {
        card: Card,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        color: Option<Color>,
    },
    /// Draw from the pile: one card (or as the draw rule says), or the whole pending penalty.
    Draw,
    /// Keep the card just drawn and end the turn; or, in a same-number run, play no more
    /// cards and end the turn.
    Pass,
    /// Name the colour when the first card turned up is a wild.
    DeclareColor { color: Color },
    /// Challenge the Wild Draw Four just played on you.
    Challenge,
    /// Take the Wild Draw Four penalty without challenging.
    Accept,
    /// After playing a 7 (7–0 house rule): swap hands with this seat.
    SwapHands { with: Seat },
    /// Call UNO for yourself: on your turn with two cards or fewer, or with one card just
    /// after playing it, until the next player acts. Under rules with a false-call penalty
    /// (`uno.false_call_penalty`), a call with nothing to call costs the caller that many cards.
    CallUno,
    /// Catch `seat`, who went down to one card without calling UNO, before the next player
    /// acts: they draw `uno.penalty` cards. A catch of a seat that cannot be caught is refused,
    /// or, under rules with a false-call penalty, costs the catcher that many cards.
    CatchUno { seat: Seat },
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
pub struct ActionParseError(pub String);

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
#[serde(rename_all = "snake_case")]
pub enum IllegalAction {
    #[error("the game is over")]
    GameOver,
    #[error("the round is over: deal the next round")]
    RoundOver,
    #[error("no such seat")]
    NoSuchSeat,
    #[error("it is not your turn")]
    NotYourTurn,
    #[error("that card is not in your hand")]
    CardNotInHand,
    #[error("that card does not match the top card or the colour in play")]
    DoesNotMatch,
    #[error("a wild card needs a colour named")]
    ColorRequired,
    #[error("only a wild card takes a colour")]
    ColorNotAllowed,
    #[error("that colour is not in this game")]
    ColorNotInGame,
    #[error("a draw penalty is pending: stack a draw card on it or draw")]
    MustAnswerDrawPenalty,
    #[error("you must play a card when you can")]
    MustPlayWhenAble,
    #[error("you must draw before passing")]
    MustDrawBeforePass,
    #[error("you have already drawn this turn")]
    AlreadyDrawn,
    #[error("after drawing, only the drawn card may be played")]
    OnlyDrawnCard,
    #[error("the drawn card matches and must be played")]
    MustPlayDrawnCard,
    #[error("play another card of the same number, or pass to end your turn")]
    SameNumberOnly,
    #[error("nothing can be drawn: the draw pile is empty")]
    DrawPileEmpty,
    #[error("Wild Draw Four may only be played without a card of the colour in play")]
    WildDrawFourNotAllowed,
    #[error("answer the Wild Draw Four: challenge or accept")]
    MustAnswerChallenge,
    #[error("there is no Wild Draw Four to challenge")]
    NoChallengePending,
    #[error("name the colour first")]
    MustDeclareColor,
    #[error("there is no colour to name now")]
    NoColorToDeclare,
    #[error("choose whom to swap hands with")]
    MustChooseSwap,
    #[error("there is no swap to choose")]
    NoSwapPending,
    #[error("you cannot swap hands with that seat")]
    InvalidSwapTarget,
    #[error("a jump-in needs a card identical to the top card, outside a penalty, under the jump-in rule")]
    JumpInNotAllowed,
    #[error("UNO calls are not part of these rules")]
    UnoCallsOff,
    #[error("there is nothing to call UNO on: call it on your turn with two cards or fewer, or just after going down to one")]
    NothingToCall,
    #[error("you have already called UNO")]
    UnoAlreadyCalled,
    #[error("you cannot catch yourself: call UNO instead")]
    CannotCatchYourself,
    #[error("that player called UNO in time")]
    UnoCalledInTime,
    #[error("too late to catch that player: the next player has already acted")]
    CatchTooLate,
    #[error("that player does not hold exactly one card")]
    NotOnOneCard,
    #[error("the round is not over")]
    RoundNotOver,
}
