//! A status block: what it shows of a game, and its lines.

use std::fmt::Write as _;

use super::{card_text, direction_text, player_name, step, Cs205Error};
use crate::card::{Card, Direction};
use crate::game::Game;

/// One status block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Status {
    /// The draw pile, top card (the next one drawn) first.
    pub draw: Vec<Card>,
    /// The discard pile, top card first.
    pub discard: Vec<Card>,
    /// The seat (0-based) whose turn it is.
    pub current: usize,
    /// The direction of play (`Right` is clockwise).
    pub direction: Direction,
    /// Hands in seat order, each in the order the cards were received.
    pub hands: Vec<Vec<Card>>,
}

impl Status {
    /// The status of a game. After a winning card, the turn and the direction are shown as the
    /// card leaves them (the player after a Skip's or Draw Two's victim, the direction after a
    /// Reverse), as after any other turn: the engine itself stops moving them once the round is
    /// won.
    pub fn of(game: &Game) -> Status {
        let (current, direction) = match game.round_winner() {
            Some(winner) => after_last_card(game, winner.index()),
            None => (game.current().index(), game.direction()),
        };
        Status {
            draw: game.draw_pile().iter().rev().copied().collect(),
            discard: game.discard_pile().iter().rev().copied().collect(),
            current,
            direction,
            hands: game.hands().iter().map(|h| h.to_vec()).collect(),
        }
    }

    /// The block's lines, each ending in `\n`.
    ///
    /// # Errors
    ///
    /// [`Cs205Error::NoNotation`] when a pile or hand holds a wild card.
    pub fn render(&self) -> Result<String, Cs205Error> {
        let mut out = String::new();
        let _ = writeln!(out, "Draw: {}", list(&self.draw)?);
        let _ = writeln!(out, "Discard: {}", list(&self.discard)?);
        let _ = writeln!(out, "Current: {}", player_name(self.current));
        let _ = writeln!(out, "Direction: {}", direction_text(self.direction));
        for (i, hand) in self.hands.iter().enumerate() {
            let _ = writeln!(out, "{}: {}", player_name(i), list(hand)?);
        }
        Ok(out)
    }

    /// Every card in the block, sorted (compare with `Rules::deck`).
    pub fn all_cards(&self) -> Vec<Card> {
        let mut all: Vec<Card> = self.hands.iter().flatten().chain(&self.draw).chain(&self.discard).copied().collect();
        all.sort();
        all
    }
}

fn list(cards: &[Card]) -> Result<String, Cs205Error> {
    let texts = cards.iter().map(|&c| card_text(c)).collect::<Result<Vec<_>, _>>()?;
    Ok(format!("[{}]", texts.join(", ")))
}

/// Where the turn and the direction go after the winner's last card, as they would after the
/// same card mid-game.
fn after_last_card(game: &Game, winner: usize) -> (usize, Direction) {
    let n = game.players();
    let mut direction = game.direction();
    let e = game.rules().effect(game.top(), n);
    if e.flip {
        direction = direction.flipped();
    }
    let steps = 1 + usize::from(e.skip);
    (step(winner, steps, direction, n), direction)
}
/// The line after the last block: `Player 2 (53)`, or empty when nobody won.
pub fn winner_line(game: &Game) -> String {
    match (game.round_winner(), game.outcome()) {
        (Some(w), _) => {
            let points = game.round_result().map_or(0, |r| r.points);
            format!("{} ({points})", player_name(w.index()))
        }
        _ => String::new(),
    }
}
