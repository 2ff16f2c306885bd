//! Every way an action can be refused. `Display` is the message the user sees; on any error the
//! game is unchanged.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::pieces::{Coord, Dir, Side};

/// Why an action was refused. The `Display` text is exactly the user-facing message.
#[derive(Clone, Debug, PartialEq, Eq, Error, Serialize, Deserialize)]
#[serde(tag = "error", rename_all = "snake_case")]
pub enum DuelError {
    /// Setup round 1 accepts only the letter `b`.
    #[error("In round 1 of the setup only blocks can be placed: type the letter \"b\" (you typed \"{key}\"). Nothing was placed.")]
    NotBlockKey {
        /// What the user typed instead.
        key: String,
    },
    /// Setup rounds 2 and 3 accept only the numbers 1 to 6.
    #[error("In this round of the setup only {side} pieces can be placed: type a number from 1 to 6 (you typed \"{key}\"). Nothing was placed.")]
    NotRankKey {
        /// The side whose pieces this round places.
        side: Side,
        /// What the user typed instead.
        key: String,
    },
    /// Objects on the grid cannot be changed.
    #[error("Cell {cell} already holds {holds}; an object on the grid cannot be changed. Nothing changed.")]
    CellOccupied {
        /// The cell asked for.
        cell: Coord,
        /// What the cell holds, as the message names it (`a red 5`, `a block`).
        holds: String,
    },
    /// More pieces of one number than the seed allows.
    #[error("At most {limit} {side} {piece} may have the number {rank}. Nothing was placed.", piece = if *limit == 1 { "piece" } else { "pieces" })]
    TooManyOfRank {
        /// The side placing.
        side: Side,
        /// The number asked for, 1 to 6.
        rank: u8,
        /// How many pieces of that number one side may have ([`RANK_LIMITS`](crate::RANK_LIMITS)).
        limit: u8,
    },
    /// More than 12 pieces of one side.
    #[error("At most 12 {side} pieces may be placed. Nothing was placed.")]
    TooManyPieces {
        /// The side that already has 12 pieces.
        side: Side,
    },
    /// Proceeding from setup round 2 without a red piece.
    #[error("Place at least one red piece before proceeding to the next round.")]
    NoRedPiece,
    /// Proceeding from setup round 3 without a black piece.
    #[error("Place at least one black piece before proceeding to the play stage.")]
    NoBlackPiece,
    /// A cell outside the grid was named.
    #[error("Cell {cell} is not on the {width}x{height} grid.")]
    OutsideGrid {
        /// The cell named.
        cell: Coord,
        /// The grid's width in columns.
        width: u8,
        /// The grid's height in rows.
        height: u8,
    },
    /// A cell name that does not parse (the terminal and the API take `c4`).
    #[error("\"{text}\" is not a cell: name a column letter and a row number, like c4.")]
    BadCell {
        /// The text given as a cell.
        text: String,
    },
    /// A move key other than w, a, s, d.
    #[error("Type \"w\" (up), \"a\" (left), \"s\" (down) or \"d\" (right) to move the selected piece (you typed \"{key}\").")]
    NotMoveKey {
        /// What the user typed instead.
        key: String,
    },
    /// The selected cell does not hold a piece of the side to move.
    #[error("Select one of the {side} pieces: cell {cell} holds {holds}.")]
    NotOwnPiece {
        /// The side to move.
        side: Side,
        /// The cell selected.
        cell: Coord,
        /// What the cell holds, as the message names it (`nothing`, `a block`, `a black 3`).
        holds: String,
    },
    /// The move would leave the grid.
    #[error("The piece on {cell} cannot move {dir_name}: it would leave the grid. It did not move; move it another way or pick another piece.", dir_name = dir.name())]
    OffGrid {
        /// The cell of the piece asked to move.
        cell: Coord,
        /// The direction asked for.
        dir: Dir,
    },
    /// The move would end on a block.
    #[error("The piece on {cell} cannot move {dir_name}: that cell holds a block. It did not move; move it another way or pick another piece.", dir_name = dir.name())]
    OntoBlock {
        /// The cell of the piece asked to move.
        cell: Coord,
        /// The direction asked for.
        dir: Dir,
    },
    /// The move would end on a piece of the same side.
    #[error("The piece on {cell} cannot move {dir_name}: that cell holds another {side} piece. It did not move; move it another way or pick another piece.", dir_name = dir.name())]
    OntoOwnPiece {
        /// The cell of the piece asked to move.
        cell: Coord,
        /// The direction asked for.
        dir: Dir,
        /// The side of both pieces.
        side: Side,
    },
    /// Black can attack a red piece, so it must.
    #[error("A black piece can attack a red piece, so black must attack.")]
    MustAttack,
    /// A move asked of a side whose turn it is not.
    #[error("It is not {side}'s turn.")]
    NotTurnOf {
        /// The side that was asked to move.
        side: Side,
    },
    /// Placing or proceeding after the setup stage.
    #[error("The setup stage is over; objects can no longer be placed.")]
    SetupOver,
    /// Moving or ending during the setup stage.
    #[error("The play stage has not started yet; finish the setup first.")]
    NotPlaying,
    /// Any input in the end stage.
    #[error("The game is over; it no longer reacts to input.")]
    GameOver,
    /// A grid size outside 1..=26 in either direction.
    #[error("The grid must be 1 to 26 cells in each direction (asked for {width}x{height}).")]
    BadSize {
        /// The width asked for, in columns.
        width: u8,
        /// The height asked for, in rows.
        height: u8,
    },
    /// A position text that does not parse.
    #[error("Not a position: {reason}.")]
    BadPosition {
        /// What is wrong with the text, ready to follow "Not a position: ".
        reason: String,
    },
    /// The computer opponent found no move (cannot happen in the play stage; kept typed).
    #[error("The computer has no move to play.")]
    NoBotMove,
}

impl DuelError {
    /// The stable code of the refusal for programs: the `error` tag of its JSON form.
    pub fn code(&self) -> &'static str {
        use DuelError::*;
        match self {
            NotBlockKey { .. } => "not_block_key",
            NotRankKey { .. } => "not_rank_key",
            CellOccupied { .. } => "cell_occupied",
            TooManyOfRank { .. } => "too_many_of_rank",
            TooManyPieces { .. } => "too_many_pieces",
            NoRedPiece => "no_red_piece",
            NoBlackPiece => "no_black_piece",
            OutsideGrid { .. } => "outside_grid",
            BadCell { .. } => "bad_cell",
            NotMoveKey { .. } => "not_move_key",
            NotOwnPiece { .. } => "not_own_piece",
            OffGrid { .. } => "off_grid",
            OntoBlock { .. } => "onto_block",
            OntoOwnPiece { .. } => "onto_own_piece",
            MustAttack => "must_attack",
            NotTurnOf { .. } => "not_turn_of",
            SetupOver => "setup_over",
            NotPlaying => "not_playing",
            GameOver => "game_over",
            BadSize { .. } => "bad_size",
            BadPosition { .. } => "bad_position",
            NoBotMove => "no_bot_move",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pieces::{Coord, Dir, Side};

    #[test]
    fn each_code_is_the_json_tag() {
        let c = Coord::new(0, 0);
        let all = [
            DuelError::NotBlockKey { key: "x".into() },
            DuelError::NotRankKey { side: Side::Red, key: "x".into() },
            DuelError::CellOccupied { cell: c, holds: "a block".into() },
            DuelError::TooManyOfRank { side: Side::Red, rank: 6, limit: 1 },
            DuelError::TooManyPieces { side: Side::Black },
            DuelError::NoRedPiece,
            DuelError::NoBlackPiece,
            DuelError::OutsideGrid { cell: c, width: 1, height: 1 },
            DuelError::BadCell { text: "?".into() },
            DuelError::NotMoveKey { key: "x".into() },
            DuelError::NotOwnPiece { side: Side::Red, cell: c, holds: "nothing".into() },
            DuelError::OffGrid { cell: c, dir: Dir::Up },
            DuelError::OntoBlock { cell: c, dir: Dir::Up },
            DuelError::OntoOwnPiece { cell: c, dir: Dir::Up, side: Side::Red },
            DuelError::MustAttack,
            DuelError::NotTurnOf { side: Side::Red },
            DuelError::SetupOver,
            DuelError::NotPlaying,
            DuelError::GameOver,
            DuelError::BadSize { width: 0, height: 0 },
            DuelError::BadPosition { reason: "x".into() },
            DuelError::NoBotMove,
        ];
        for e in all {
            let json = serde_json::to_value(&e).expect("json");
            assert_eq!(json["error"].as_str(), Some(e.code()), "{e:?}");
        }
    }
}
