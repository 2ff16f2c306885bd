//! A `csce322` game written as seed 000's `.uno` files, at any point of its record.
//!
//! The notation holds less than a game: no seat to move, no direction, and no colour in play
//! except as markers on the discard pile. So the position is written from the mover's chair:
//! Player 1 is the seat to move and the other hands follow in the order of play, which is the
//! order in which seed 000's operations take turns. The discard pile is rebuilt from the
//! record's events in the seed's own way: a `c,-` marker in front of every wild, naming the
//! colour declared, and after a served Draw Two or Wild Draw Four a copy of the marker (a Draw
//! Two's own colour), so the next player is not asked to extend it again. Only the `csce322`
//! rule set is written: it is the seed's, and other rule sets have moves the files cannot hold.
//!
//! The files are as the seed's reference would read them; what seed 000's operations then do
//! from them is theirs (they compare cards as characters, markers included, where the engine
//! compares colours: see [`crate::courses`]).

use thiserror::Error;

use crate::card::Face;
use crate::courses::notation::{Entry, Layout, LayoutError};
use crate::event::{DrawReason, Event};
use crate::game::Phase;
use crate::record::{GameRecord, ReplayError};
use crate::rules::{preset_config, Rules, RulesConfig};

/// Why a point of a game cannot be written as `.uno` files.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ExportError {
    /// The record does not replay.
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// The game is not played by the `csce322` rules.
    #[error("only games of the csce322 rules (seed 000) can be written as .uno files; this one plays {0:?}")]
    NotSeed000(String),
    /// No seat is to play or draw at this point.
    #[error("the .uno files describe a player to play or draw; at action {0} nobody is (the game is over or waits for another decision)")]
    NotPlaying(usize),
    /// The game started from a position whose discard pile holds a wild below the top card:
    /// the colour it named is not known.
    #[error("the game started from a position with a wild below the top card; the colour it named is unknown")]
    UnknownDeclaration,
    /// The point asked for is past the record's end.
    #[error("there is no action {ply}: the record has {len}")]
    NoSuchPly {
        /// The point asked for.
        ply: usize,
        /// The record's length.
        len: usize,
    },
    /// The files would not make a position (an empty discard pile).
    #[error(transparent)]
    Layout(#[from] LayoutError),
}

/// The `.uno` position of a `csce322` game after its first `ply` actions.
///
/// # Errors
///
/// [`ExportError`]: another rule set, a point where nobody is to play or draw, a record that
/// does not replay, or a start position whose older wilds' colours are unknown.
pub fn export(record: &GameRecord, ply: usize) -> Result<Layout, ExportError> {
    if !plays_as_seed000(&record.rules) {
        return Err(ExportError::NotSeed000(record.rules.name.clone()));
    }
    if ply > record.actions.len() {
        return Err(ExportError::NoSuchPly { ply, len: record.actions.len() });
    }
    let mut upto = record.clone();
    upto.actions.truncate(ply);
    // The discard pile as the notation has it, the bottom first (reversed at the end).
    let mut pile: Vec<Entry> = match &record.start {
        Some(start) => {
            let mut pile: Vec<Entry> = start.discard.iter().map(|&c| Entry::Card(c)).collect();
            if start.discard.iter().rev().skip(1).any(|c| c.is_wild()) {
                return Err(ExportError::UnknownDeclaration);
            }
            if let (Some(top), Some(colour)) = (start.discard.last(), start.color) {
                if top.is_wild() {
                    pile.push(Entry::Marker(colour));
                }
            }
            pile
        }
        None => Vec::new(),
    };
    // A Wild Draw Four turned up first, waiting for its colour: it asks nothing of anyone
    // (the rules' first card has no effect), so its marker is copied once named.
    let mut first_wild_draw_four = false;
    let game = upto.replay_with_events(|_, events| {
        for e in events {
            match e {
                Event::RoundStarted { .. } => pile.clear(),
                Event::StartCard { card, returned: false } => {
                    pile.push(Entry::Card(card));
                    // A first card has no effect here, but on the pile seed 000 would read a
                    // Draw Two or Wild Draw Four as owed: the copy of a marker says it is not.
                    match (card.face(), card.color()) {
                        (Face::DrawTwo, Some(c)) => pile.push(Entry::Marker(c)),
                        (Face::WildDrawFour, _) => first_wild_draw_four = true,
                        _ => {}
                    }
                }
                Event::CardPlayed { card, .. } => pile.push(Entry::Card(card)),
                Event::ColorDeclared { color, .. } => {
                    pile.push(Entry::Marker(color));
                    if std::mem::take(&mut first_wild_draw_four) {
                        pile.push(Entry::Marker(color));
                    }
                }
                Event::CardsDrawn { reason: DrawReason::Penalty, .. } => {
                    let copy = match pile.last() {
                        Some(&Entry::Marker(c)) => Some(c),
                        Some(Entry::Card(c)) if c.face() == Face::DrawTwo => c.color(),
                        _ => None,
                    };
                    if let Some(c) = copy {
                        pile.push(Entry::Marker(c));
                    }
                }
                _ => {}
            }
        }
    })?;
    if game.phase() != Phase::Play {
        return Err(ExportError::NotPlaying(ply));
    }
    let position = game.position();
    let n = position.hands.len();
    // The hands from the seat to play on, in the direction of play: the engine's seat steps.
    let hands = (0..n)
        .map(|k| crate::effect::next_seat(position.current.index(), position.direction, n, k))
        .map(|seat| position.hands[seat].clone())
        .collect();
    let deck = position.draw_pile.iter().rev().copied().collect();
    pile.reverse();
    Ok(Layout::new(deck, pile, hands)?)
}

/// Whether games of `rules` are played as seed 000's, the only ones [`export`] writes: the
/// `csce322` preset's moves (its play and UNO-call rules, and a first card without effect).
/// The deck, the deal's size, the scoring and the end may differ: the files hold any cards, and
/// a match's target changes nothing on the table.
pub fn writes(rules: &Rules) -> bool {
    plays_as_seed000(rules.config())
}

fn plays_as_seed000(config: &RulesConfig) -> bool {
    preset_config("csce322")
        .is_ok_and(|c| c.play == config.play && c.uno == config.uno && c.deal.first_card == config.deal.first_card)
}
