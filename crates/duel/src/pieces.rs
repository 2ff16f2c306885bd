//! The grid's vocabulary: its size limits, the sides, ranks, pieces, cells, coordinates,
//! directions and moves, and how a game ends. Plain values that every other module reads and
//! that read nothing of the crate.

use std::fmt;

use serde::{Deserialize, Serialize};

/// Default grid width. The maintainer changes the default size here and nowhere else.
pub const DEFAULT_WIDTH: u8 = 6;
/// Default grid height.
pub const DEFAULT_HEIGHT: u8 = 6;
/// Largest width or height: columns are named by one letter `a`–`z`.
pub const MAX_DIMENSION: u8 = 26;
/// At most this many pieces per side.
pub const MAX_PIECES: usize = 12;
/// How many pieces of each rank (index 0 is rank 1) one side may place.
pub const RANK_LIMITS: [u8; 6] = [3, 2, 2, 2, 2, 1];

/// The two sides: red is the user, black the computer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// The user's side; it moves first in every play round.
    Red,
    /// The computer's side.
    Black,
}

impl Side {
    /// The other side.
    pub fn opponent(self) -> Side {
        match self {
            Side::Red => Side::Black,
            Side::Black => Side::Red,
        }
    }

    /// 0 for red, 1 for black: the index of per-side arrays (red first).
    pub fn index(self) -> usize {
        match self {
            Side::Red => 0,
            Side::Black => 1,
        }
    }

    /// `red` or `black`, as messages write it (also the `Display` form).
    pub fn name(self) -> &'static str {
        match self {
            Side::Red => "red",
            Side::Black => "black",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A piece's number, 1 to 6.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(type = "number"))]
#[serde(try_from = "u8", into = "u8")]
pub struct Rank(pub(crate) u8);

impl Rank {
    /// The rank `n`, or `None` unless `n` is 1 to 6.
    pub fn new(n: u8) -> Option<Rank> {
        (1..=6).contains(&n).then_some(Rank(n))
    }

    /// The number, 1 to 6.
    pub fn get(self) -> u8 {
        self.0
    }

    /// The combat ring of the seed: the attacker wins if its number is greater, or if it is a 1
    /// attacking a 6. Read literally, a 6 attacking a 1 also wins (6 > 1) and equal numbers
    /// eliminate the attacker.
    pub fn attacker_wins(self, defender: Rank) -> bool {
        beats(self.0, defender.0)
    }
}

impl TryFrom<u8> for Rank {
    type Error = String;
    fn try_from(n: u8) -> Result<Self, String> {
        Rank::new(n).ok_or_else(|| format!("rank {n} is not between 1 and 6"))
    }
}

impl From<Rank> for u8 {
    fn from(r: Rank) -> u8 {
        r.0
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[inline]
pub(crate) fn beats(attacker: u8, defender: u8) -> bool {
    attacker > defender || (attacker == 1 && defender == 6)
}

/// A piece: its side and its number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Piece {
    /// Whose piece it is.
    pub side: Side,
    /// Its number.
    pub rank: Rank,
}

/// What a grid cell holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Cell {
    /// Nothing: a piece may move here.
    Empty,
    /// A block, placed in setup round 1; it never moves and nothing may move onto it.
    Block,
    /// A red or black piece.
    Piece(Piece),
}

impl Cell {
    /// Describes the content for messages ("a block", "a red 5").
    pub fn describe(self) -> String {
        match self {
            Cell::Empty => "nothing".to_string(),
            Cell::Block => "a block".to_string(),
            Cell::Piece(p) => format!("a {} {}", p.side, p.rank),
        }
    }
}

/// A cell of the grid: column `a`.. from the left, row `1`.. from the top (text form `c4`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(type = "string"))]
#[serde(try_from = "String", into = "String")]
pub struct Coord {
    /// The column, 0-based from the left (`a` is 0).
    pub col: u8,
    /// The row, 0-based from the top (row `1` is 0).
    pub row: u8,
}

impl Coord {
    /// The cell at 0-based `col` and `row`; whether it lies on a grid is the grid's question.
    pub fn new(col: u8, row: u8) -> Coord {
        Coord { col, row }
    }
}

impl fmt::Display for Coord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letter = char::from(b'a' + self.col.min(25));
        write!(f, "{letter}{}", u32::from(self.row) + 1)
    }
}

impl From<Coord> for String {
    fn from(c: Coord) -> String {
        c.to_string()
    }
}

/// The four moves, typed as `w` (up), `a` (left), `s` (down), `d` (right).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Dir {
    /// Towards row 1 (key `w`).
    Up,
    /// Towards column `a` (key `a`).
    Left,
    /// Towards the last row (key `s`).
    Down,
    /// Towards the last column (key `d`).
    Right,
}

impl Dir {
    /// The four directions in key order `w`, `a`, `s`, `d`.
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Left, Dir::Down, Dir::Right];

    /// Only the four lower-case letters count: `W` is not `w`.
    pub fn from_key(key: &str) -> Option<Dir> {
        match key {
            "w" => Some(Dir::Up),
            "a" => Some(Dir::Left),
            "s" => Some(Dir::Down),
            "d" => Some(Dir::Right),
            _ => None,
        }
    }

    /// The key that makes this move: `w`, `a`, `s` or `d`.
    pub fn key(self) -> char {
        match self {
            Dir::Up => 'w',
            Dir::Left => 'a',
            Dir::Down => 's',
            Dir::Right => 'd',
        }
    }

    /// `up`, `left`, `down` or `right`, as messages write it.
    pub fn name(self) -> &'static str {
        match self {
            Dir::Up => "up",
            Dir::Left => "left",
            Dir::Down => "down",
            Dir::Right => "right",
        }
    }
}

/// A move in the compact form the search uses: cell indices (`row * width + col`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Move {
    /// The index of the cell the piece leaves.
    pub from: u16,
    /// The index of the neighbouring cell it moves to (or attacks).
    pub to: u16,
}

/// A fixed-capacity move list: 12 pieces × 4 directions, so no allocation in the search.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; 48],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList { moves: [Move::default(); 48], len: 0 }
    }
}

impl MoveList {
    #[inline]
    pub(crate) fn push(&mut self, m: Move) {
        if self.len < self.moves.len() {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }
    /// Empties the list, keeping its storage.
    pub fn clear(&mut self) {
        self.len = 0;
    }
    /// How many moves it holds (at most 48).
    pub fn len(&self) -> usize {
        self.len
    }
    /// Whether it holds no move.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// The moves, in generation order.
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }
    /// The moves, for reordering in place (move ordering in the search).
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
}

/// How the game ended, as the seed defines it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// No black piece left: the user wins.
    RedWins,
    /// No red piece left: the computer wins.
    BlackWins,
    /// Both sides still have pieces (or neither has).
    Draw,
}

impl Outcome {
    /// The message shown at the end of the game.
    pub fn message(self) -> &'static str {
        match self {
            Outcome::RedWins => "You win: no black piece is left.",
            Outcome::BlackWins => "The computer wins: no red piece is left.",
            Outcome::Draw => "Draw: both sides still have pieces on the grid.",
        }
    }

    /// Score for red: win 1, draw ½, loss 0.
    pub fn red_score(self) -> f64 {
        match self {
            Outcome::RedWins => 1.0,
            Outcome::Draw => 0.5,
            Outcome::BlackWins => 0.0,
        }
    }
}
