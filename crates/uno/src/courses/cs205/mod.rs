//! Seed 004's printed game status (the course's `cs205` format) and its transcript checks.
//!
//! A status block shows both piles top card first, whose turn it is, the direction and every
//! hand, cards written face first and colour last (`7R`, `SB` blue Skip, `RR` red Reverse,
//! `DB` blue Draw Two):
//!
//! ```text
//! Draw: [9B, 9R, DR, 6R, 5B]
//! Discard: [2B]
//! Current: Player 2
//! Direction: Right
//! Player 1: [7R, 6B, 7B, 3R, 1R, 2B, RR]
//! Player 2: [SR, 4R, 6B, RR, 8B, RB, 0B]
//! ```
//!
//! A transcript is one block after the set-up and one after every turn, separated by blank
//! lines, then one line naming the winner and the points they won (`Player 2 (53)`), or an
//! empty line when nobody won. Players are `Player 1` … `Player N` in seat order; the seed's
//! "play passes to the right" is the engine's clockwise (increasing seats), printed `Right`.
//!
//! [`Transcript::check`] replays a transcript against the rules without knowing the shuffles:
//! every card is accounted for, every play matches, every draw takes the top of the draw pile,
//! the pile is rebuilt only when it is empty, the next player and direction follow the card
//! played, and the final line names the right winner and score.

mod check;
mod status;
mod transcript;

pub use check::Summary;
pub use status::{winner_line, Status};
pub use transcript::Transcript;

use thiserror::Error;

use crate::card::{Card, Color, Direction, Face};

/// Why a card, a block or a transcript cannot be read or written in this format.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Cs205Error {
    /// A wild card, which the format cannot write.
    #[error("the cs205 format has no notation for {0} (wild cards are not in seed 004's deck)")]
    NoNotation(Card),
    /// Text that is not a card of the format; holds the text.
    #[error("unknown card '{0}' (expected e.g. 7R, 0B, SB, RR, DB)")]
    UnknownCard(String),
    /// A line that does not read as the line the format expects there.
    #[error("line {line}: expected {expected}, found '{found}'")]
    Syntax {
        /// The line's number, from 1.
        line: usize,
        /// What the format expects there.
        expected: String,
        /// The line as found (or `end of text`).
        found: String,
    },
    /// Empty text.
    #[error("the transcript has no status block")]
    Empty,
}

/// A transcript that does not follow the rules: the block (0 is the set-up) and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("block {block}: {reason}")]
pub struct Violation {
    /// The block where the rules were broken, 0 for the set-up, `n` after turn `n`.
    pub block: usize,
    /// What is wrong, in words.
    pub reason: String,
}

/// A card in the course's notation: face (`0`-`9`, `S`, `R`, `D`) then colour letter.
///
/// # Errors
///
/// [`Cs205Error::NoNotation`] for a wild card.
pub fn card_text(card: Card) -> Result<String, Cs205Error> {
    let color = card.color().ok_or(Cs205Error::NoNotation(card))?;
    let face = match card.face() {
        Face::Digit(d) => char::from(b'0' + d),
        Face::Skip => 'S',
        Face::Reverse => 'R',
        Face::DrawTwo => 'D',
        Face::Wild | Face::WildDrawFour => return Err(Cs205Error::NoNotation(card)),
    };
    Ok(format!("{face}{}", color.letter()))
}

/// Reads a card written as [`card_text`] writes it (surrounding spaces allowed).
///
/// # Errors
///
/// [`Cs205Error::UnknownCard`] for any other text.
pub fn parse_card(text: &str) -> Result<Card, Cs205Error> {
    let bad = || Cs205Error::UnknownCard(text.to_string());
    let t = text.trim();
    let mut chars = t.chars();
    let (Some(f), Some(c), None) = (chars.next(), chars.next(), chars.next()) else {
        return Err(bad());
    };
    let face = match f {
        '0'..='9' => Face::Digit(f as u8 - b'0'),
        'S' => Face::Skip,
        'R' => Face::Reverse,
        'D' => Face::DrawTwo,
        _ => return Err(bad()),
    };
    let color = match c {
        'R' => Color::Red,
        'Y' => Color::Yellow,
        'G' => Color::Green,
        'B' => Color::Blue,
        _ => return Err(bad()),
    };
    Card::colored(color, face).ok_or_else(bad)
}

/// `Right` for the engine's clockwise (the seed's starting direction), `Left` for the other.
pub fn direction_text(direction: Direction) -> &'static str {
    match direction {
        Direction::Clockwise => "Right",
        Direction::CounterClockwise => "Left",
    }
}

/// The name of a seat (0-based) in the course's output.
pub fn player_name(seat: usize) -> String {
    format!("Player {}", seat + 1)
}
fn step(from: usize, steps: usize, direction: Direction, n: usize) -> usize {
    crate::effect::next_seat(from, direction, n, steps)
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cards_round_trip_in_the_course_notation() {
        for card in Card::all().filter(|c| !c.is_wild()) {
            let text = card_text(card).expect("coloured");
            assert_eq!(parse_card(&text), Ok(card), "{text}");
        }
        assert_eq!(card_text(Card::WILD), Err(Cs205Error::NoNotation(Card::WILD)));
        assert!(parse_card("1X").is_err());
        assert!(parse_card("10B").is_err());
        assert_eq!(parse_card("DB").map(|c| c.face()), Ok(Face::DrawTwo));
    }

    #[test]
    fn steps_go_round_both_ways() {
        assert_eq!(step(0, 1, Direction::Clockwise, 4), 1);
        assert_eq!(step(3, 2, Direction::Clockwise, 4), 1);
        assert_eq!(step(0, 1, Direction::CounterClockwise, 4), 3);
        assert_eq!(step(1, 2, Direction::CounterClockwise, 4), 3);
        assert_eq!(step(0, 2, Direction::CounterClockwise, 2), 0);
    }
}
