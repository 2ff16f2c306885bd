//! The compact [`Board`] that both the game state machine and the search work on, and the
//! text forms of a position and of a cell.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::error::DuelError;
use crate::pieces::{
    beats, Cell, Coord, Dir, Move, MoveList, Outcome, Piece, Rank, Side, MAX_DIMENSION, MAX_PIECES, RANK_LIMITS,
};

impl FromStr for Coord {
    type Err = DuelError;
    fn from_str(s: &str) -> Result<Coord, DuelError> {
        let bad = || DuelError::BadCell { text: s.to_string() };
        let t = s.trim();
        let mut chars = t.chars();
        let letter = chars.next().ok_or_else(bad)?.to_ascii_lowercase();
        if !letter.is_ascii_lowercase() {
            return Err(bad());
        }
        let digits = chars.as_str();
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let row: u32 = digits.parse().map_err(|_| bad())?;
        if row == 0 || row > u32::from(MAX_DIMENSION) {
            return Err(bad());
        }
        Ok(Coord { col: letter as u8 - b'a', row: (row - 1) as u8 })
    }
}

impl TryFrom<String> for Coord {
    type Error = DuelError;
    fn try_from(s: String) -> Result<Coord, DuelError> {
        s.parse()
    }
}

// Cell codes of the compact position. Ranks are packed so that `code - base` is rank - 1.
pub(crate) const EMPTY: u8 = 0;
pub(crate) const BLOCK: u8 = 1;
const RED_BASE: u8 = 2;
const BLACK_BASE: u8 = 8;

#[inline]
pub(crate) fn code_side(c: u8) -> Option<Side> {
    match c {
        2..=7 => Some(Side::Red),
        8..=13 => Some(Side::Black),
        _ => None,
    }
}

#[inline]
pub(crate) fn code_rank(c: u8) -> u8 {
    (c - RED_BASE) % 6 + 1
}

#[inline]
fn is_side(c: u8, side: Side) -> bool {
    match side {
        Side::Red => (2..=7).contains(&c),
        Side::Black => (8..=13).contains(&c),
    }
}

#[inline]
pub(crate) fn piece_code(side: Side, rank: u8) -> u8 {
    match side {
        Side::Red => RED_BASE + rank - 1,
        Side::Black => BLACK_BASE + rank - 1,
    }
}

fn cell_code(cell: Cell) -> u8 {
    match cell {
        Cell::Empty => EMPTY,
        Cell::Block => BLOCK,
        Cell::Piece(p) => piece_code(p.side, p.rank.get()),
    }
}

fn code_cell(c: u8) -> Cell {
    match code_side(c) {
        None if c == BLOCK => Cell::Block,
        None => Cell::Empty,
        Some(side) => Cell::Piece(Piece { side, rank: Rank(code_rank(c)) }),
    }
}

// Zobrist keys computed on the fly (splitmix64 of cell and content) so that any board size works
// without a table; the cost is a few multiplications per move.
#[inline]
fn zobrist(cell: u16, code: u8) -> u64 {
    if code == EMPTY {
        return 0;
    }
    seeding::splitmix(u64::from(cell) << 4 | u64::from(code))
}

const SIDE_KEY: u64 = 0x6A09_E667_F3BC_C908;

/// What [`Board::make`] needs to take a move back.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    mv: Move,
    moved: u8,
    target: u8,
    hash: u64,
}

impl Undo {
    /// The piece that stood on the target cell, if the move was an attack.
    pub fn defender(&self) -> Option<Piece> {
        match code_cell(self.target) {
            Cell::Piece(p) => Some(p),
            _ => None,
        }
    }
}

/// A compact position: the grid as one byte per cell, the side to move, piece counts and a
/// Zobrist hash. The search makes and unmakes moves on one position without allocating.
///
/// Text form (for tests and logs): rows from the top separated by `/`, cells separated by
/// spaces, `.` empty, `#` block, `R1`–`R6` red, `B1`–`B6` black, then `|` and the side to move:
/// `R1 . # / . B6 . | red`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Board {
    width: u8,
    height: u8,
    cells: Vec<u8>,
    to_move: Side,
    counts: [u8; 2],
    hash: u64,
}

impl Board {
    /// An empty grid of `width` columns and `height` rows, red to move.
    ///
    /// # Errors
    ///
    /// [`DuelError::BadSize`] unless both are 1 to [`MAX_DIMENSION`].
    pub fn empty(width: u8, height: u8) -> Result<Board, DuelError> {
        if width == 0 || height == 0 || width > MAX_DIMENSION || height > MAX_DIMENSION {
            return Err(DuelError::BadSize { width, height });
        }
        let mut p = Board {
            width,
            height,
            cells: vec![EMPTY; usize::from(width) * usize::from(height)],
            to_move: Side::Red,
            counts: [0, 0],
            hash: 0,
        };
        p.rehash();
        Ok(p)
    }

    fn rehash(&mut self) {
        let mut h = 0;
        let mut counts = [0u8; 2];
        for (i, &c) in self.cells.iter().enumerate() {
            h ^= zobrist(i as u16, c);
            if let Some(s) = code_side(c) {
                counts[s.index()] += 1;
            }
        }
        if self.to_move == Side::Black {
            h ^= SIDE_KEY;
        }
        self.hash = h;
        self.counts = counts;
    }

    /// Columns, 1 to [`MAX_DIMENSION`].
    pub fn width(&self) -> u8 {
        self.width
    }
    /// Rows, 1 to [`MAX_DIMENSION`].
    pub fn height(&self) -> u8 {
        self.height
    }
    /// The side whose turn it is.
    pub fn to_move(&self) -> Side {
        self.to_move
    }
    /// Gives the turn to `side`, keeping the hash in step.
    pub fn set_to_move(&mut self, side: Side) {
        if side != self.to_move {
            self.to_move = side;
            self.hash ^= SIDE_KEY;
        }
    }
    /// The Zobrist hash of the cells and the side to move: equal positions hash equal on any
    /// grid size, and [`make`](Board::make)/[`unmake`](Board::unmake) keep it current.
    pub fn hash(&self) -> u64 {
        self.hash
    }
    /// Width × height: cell indices run from 0 to this, exclusive.
    pub fn num_cells(&self) -> usize {
        self.cells.len()
    }
    /// Pieces of `side` on the grid.
    pub fn count(&self, side: Side) -> usize {
        usize::from(self.counts[side.index()])
    }

    /// Whether `c` lies on this grid.
    pub fn contains(&self, c: Coord) -> bool {
        c.col < self.width && c.row < self.height
    }
    /// The cell index of `c` (`row * width + col`), the form [`Move`] uses; meaningful only
    /// for a `c` the grid [`contains`](Board::contains).
    pub fn index(&self, c: Coord) -> usize {
        usize::from(c.row) * usize::from(self.width) + usize::from(c.col)
    }
    /// The coordinate of a cell index, the inverse of [`index`](Board::index).
    pub fn coord(&self, index: usize) -> Coord {
        let w = usize::from(self.width);
        Coord::new((index % w) as u8, (index / w) as u8)
    }

    /// The cell at `c`, `None` if it is off the grid.
    pub fn get(&self, c: Coord) -> Option<Cell> {
        self.contains(c).then(|| code_cell(self.cells[self.index(c)]))
    }

    /// The cell at a cell index, which must be below [`num_cells`](Board::num_cells).
    pub fn cell_at(&self, index: usize) -> Cell {
        code_cell(self.cells[index])
    }

    #[inline]
    pub(crate) fn code(&self, index: usize) -> u8 {
        self.cells[index]
    }

    /// Puts `cell` on `c` without any rule check (setup validation lives in the game).
    pub fn set(&mut self, c: Coord, cell: Cell) {
        if self.contains(c) {
            let i = self.index(c);
            self.cells[i] = cell_code(cell);
            self.rehash();
        }
    }

    /// Pieces of `side` with the given rank.
    pub fn count_rank(&self, side: Side, rank: u8) -> usize {
        let code = piece_code(side, rank);
        self.cells.iter().filter(|&&c| c == code).count()
    }

    /// The neighbour of `index` in direction `dir`, `None` off the grid.
    #[inline]
    pub fn step(&self, index: usize, dir: Dir) -> Option<usize> {
        let w = usize::from(self.width);
        let x = index % w;
        match dir {
            Dir::Up => index.checked_sub(w),
            Dir::Down => (index + w < self.cells.len()).then_some(index + w),
            Dir::Left => (x > 0).then(|| index - 1),
            Dir::Right => (x + 1 < w).then_some(index + 1),
        }
    }

    /// The direction `mv` goes, its two cells being neighbours.
    pub fn dir_of(&self, mv: Move) -> Dir {
        let (f, t) = (usize::from(mv.from), usize::from(mv.to));
        // Neighbours in one row differ by one index; on a one-column grid so do the cells above
        // and below, so the row decides, not the difference.
        let w = usize::from(self.width);
        if f / w == t / w {
            if t < f {
                Dir::Left
            } else {
                Dir::Right
            }
        } else if t < f {
            Dir::Up
        } else {
            Dir::Down
        }
    }

    /// Whether some piece of `side` has a cell to go to: on the grid, not a block, not a piece
    /// of its own side (an enemy piece counts: it can be attacked).
    pub fn can_move(&self, side: Side) -> bool {
        if self.counts[side.index()] == 0 {
            return false;
        }
        let w = usize::from(self.width);
        let n = self.cells.len();
        for i in 0..n {
            let c = self.cells[i];
            if !is_side(c, side) {
                continue;
            }
            let x = i % w;
            let free = |j: usize| {
                let t = self.cells[j];
                t != BLOCK && !is_side(t, side)
            };
            if (i >= w && free(i - w))
                || (i + w < n && free(i + w))
                || (x > 0 && free(i - 1))
                || (x + 1 < w && free(i + 1))
            {
                return true;
            }
        }
        false
    }

    /// The play stage ends at the start of a turn when either side has no piece that can move.
    pub fn is_terminal(&self) -> bool {
        !self.can_move(Side::Red) || !self.can_move(Side::Black)
    }

    /// The outcome as the seed defines it: red (the user) wins when no black piece is left,
    /// black when no red piece is left, otherwise a draw.
    pub fn outcome(&self) -> Outcome {
        if self.counts[1] == 0 && self.counts[0] > 0 {
            Outcome::RedWins
        } else if self.counts[0] == 0 && self.counts[1] > 0 {
            Outcome::BlackWins
        } else {
            Outcome::Draw
        }
    }

    /// Every move of `side` that does not leave the grid, hit a block or an own piece; with
    /// `captures_only` only attacks on enemy pieces.
    pub fn pseudo_moves(&self, side: Side, captures_only: bool, out: &mut MoveList) {
        out.clear();
        let w = usize::from(self.width);
        let n = self.cells.len();
        let enemy = side.opponent();
        for i in 0..n {
            if !is_side(self.cells[i], side) {
                continue;
            }
            let x = i % w;
            let mut consider = |j: usize| {
                let t = self.cells[j];
                let ok = if captures_only { is_side(t, enemy) } else { t != BLOCK && !is_side(t, side) };
                if ok {
                    out.push(Move { from: i as u16, to: j as u16 });
                }
            };
            if i >= w {
                consider(i - w);
            }
            if x > 0 {
                consider(i - 1);
            }
            if i + w < n {
                consider(i + w);
            }
            if x + 1 < w {
                consider(i + 1);
            }
        }
    }

    /// Whether black has an attack available (and so must attack).
    pub fn black_must_attack(&self) -> bool {
        let mut l = MoveList::default();
        self.pseudo_moves(Side::Black, true, &mut l);
        !l.is_empty()
    }

    /// The legal moves of the side to move. Black must attack when it can, so when black has
    /// an attack the list holds attacks only.
    pub fn legal_moves(&self, out: &mut MoveList) {
        if self.to_move == Side::Black {
            self.pseudo_moves(Side::Black, true, out);
            if !out.is_empty() {
                return;
            }
        }
        self.pseudo_moves(self.to_move, false, out);
    }

    /// [`legal_moves`](Board::legal_moves) as a `Vec`, for callers outside the search.
    pub fn legal_moves_vec(&self) -> Vec<Move> {
        let mut l = MoveList::default();
        self.legal_moves(&mut l);
        l.as_slice().to_vec()
    }

    /// Whether `mv` ends on a piece (of the other side, `mv` being legal): an attack.
    #[inline]
    pub fn is_capture(&self, mv: Move) -> bool {
        code_side(self.cells[usize::from(mv.to)]).is_some()
    }

    /// Plays `mv` (assumed legal), resolving combat, and passes the turn.
    #[inline]
    pub fn make(&mut self, mv: Move) -> Undo {
        let (f, t) = (usize::from(mv.from), usize::from(mv.to));
        let a = self.cells[f];
        let d = self.cells[t];
        let undo = Undo { mv, moved: a, target: d, hash: self.hash };
        let mut h = self.hash ^ zobrist(mv.from, a) ^ zobrist(mv.to, d) ^ SIDE_KEY;
        self.cells[f] = EMPTY;
        let stays = match code_side(d) {
            None => a,
            Some(ds) => {
                if beats(code_rank(a), code_rank(d)) {
                    self.counts[ds.index()] -= 1;
                    a
                } else {
                    self.counts[ds.opponent().index()] -= 1;
                    d
                }
            }
        };
        self.cells[t] = stays;
        h ^= zobrist(mv.to, stays);
        self.hash = h;
        self.to_move = self.to_move.opponent();
        undo
    }

    /// Takes back the move `make` returned `undo` for.
    #[inline]
    pub fn unmake(&mut self, undo: Undo) {
        let (f, t) = (usize::from(undo.mv.from), usize::from(undo.mv.to));
        if let Some(ds) = code_side(undo.target) {
            if self.cells[t] == undo.moved {
                self.counts[ds.index()] += 1;
            } else {
                self.counts[ds.opponent().index()] += 1;
            }
        }
        self.cells[f] = undo.moved;
        self.cells[t] = undo.target;
        self.hash = undo.hash;
        self.to_move = self.to_move.opponent();
    }

    /// Passes the turn without moving (the search's null move).
    pub(crate) fn pass(&mut self) {
        self.to_move = self.to_move.opponent();
        self.hash ^= SIDE_KEY;
    }

    /// Formats a move as the user types it: the piece's cell and a key (`c4 w`).
    pub fn move_text(&self, mv: Move) -> String {
        format!("{} {}", self.coord(usize::from(mv.from)), self.dir_of(mv).key())
    }

    /// The move of the piece on `cell` in direction `dir`, if it stays on the grid.
    pub fn move_from(&self, cell: Coord, dir: Dir) -> Option<Move> {
        if !self.contains(cell) {
            return None;
        }
        let from = self.index(cell);
        self.step(from, dir).map(|to| Move { from: from as u16, to: to as u16 })
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let w = usize::from(self.width);
        for (r, row) in self.cells.chunks(w).enumerate() {
            if r > 0 {
                f.write_str(" / ")?;
            }
            for (k, &c) in row.iter().enumerate() {
                if k > 0 {
                    f.write_str(" ")?;
                }
                match code_cell(c) {
                    Cell::Empty => f.write_str(".")?,
                    Cell::Block => f.write_str("#")?,
                    Cell::Piece(p) => {
                        let s = if p.side == Side::Red { 'R' } else { 'B' };
                        write!(f, "{s}{}", p.rank)?;
                    }
                }
            }
        }
        write!(f, " | {}", self.to_move)
    }
}

impl FromStr for Board {
    type Err = DuelError;
    fn from_str(s: &str) -> Result<Board, DuelError> {
        let bad = |why: &str| DuelError::BadPosition { reason: why.to_string() };
        let (grid, side) = match s.split_once('|') {
            Some((g, side)) => (g, side.trim()),
            None => (s, "red"),
        };
        let to_move = match side {
            "red" => Side::Red,
            "black" => Side::Black,
            other => return Err(bad(&format!("unknown side to move {other:?}"))),
        };
        let rows: Vec<Vec<&str>> = grid
            .split(['/', '\n'])
            .map(|r| r.split_whitespace().collect::<Vec<_>>())
            .filter(|r| !r.is_empty())
            .collect();
        let height = rows.len();
        let width = rows.first().map_or(0, Vec::len);
        if rows.iter().any(|r| r.len() != width) {
            return Err(bad("rows have different lengths"));
        }
        let (w8, h8) =
            (u8::try_from(width).map_err(|_| bad("too wide"))?, u8::try_from(height).map_err(|_| bad("too high"))?);
        let mut p = Board::empty(w8, h8)?;
        let mut ranks = [[0u8; 6]; 2];
        for (r, row) in rows.iter().enumerate() {
            for (c, tok) in row.iter().enumerate() {
                let code = match *tok {
                    "." => EMPTY,
                    "#" => BLOCK,
                    t => {
                        let b = t.as_bytes();
                        let side = match b.first() {
                            Some(b'R') => Side::Red,
                            Some(b'B') => Side::Black,
                            _ => return Err(bad(&format!("unknown cell {t:?}"))),
                        };
                        let rank = match b.get(1..) {
                            Some([d @ b'1'..=b'6']) => d - b'0',
                            _ => return Err(bad(&format!("unknown cell {t:?}"))),
                        };
                        ranks[side.index()][usize::from(rank - 1)] += 1;
                        piece_code(side, rank)
                    }
                };
                p.cells[r * width + c] = code;
            }
        }
        for side in [Side::Red, Side::Black] {
            let rk = ranks[side.index()];
            if rk.iter().map(|&n| usize::from(n)).sum::<usize>() > MAX_PIECES
                || rk.iter().zip(RANK_LIMITS).any(|(&n, lim)| n > lim)
            {
                return Err(bad(&format!("too many {side} pieces")));
            }
        }
        p.to_move = to_move;
        p.rehash();
        Ok(p)
    }
}

impl TryFrom<String> for Board {
    type Error = DuelError;
    fn try_from(s: String) -> Result<Board, DuelError> {
        s.parse()
    }
}

impl From<Board> for String {
    fn from(p: Board) -> String {
        p.to_string()
    }
}
