//! Seeded random legal setups for simulations.

use std::fmt;
use std::str::FromStr;

use rand::seq::SliceRandom;
use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::board::Board;

use crate::error::DuelError;
use crate::pieces::{Cell, Coord, Piece, Rank, Side, MAX_PIECES};

/// How a random setup is drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SetupMode {
    /// The same ranks for both sides, black's cells the mirror image of red's (top and bottom
    /// swapped), blocks symmetric: neither side starts ahead. Red sets up in the bottom rows,
    /// black in the top rows, with two neutral rows between them on 6x6.
    #[default]
    Mirrored,
    /// Independent counts, ranks and cells for each side (each in its own zone), blocks
    /// anywhere.
    Random,
}

impl fmt::Display for SetupMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SetupMode::Mirrored => "mirrored",
            SetupMode::Random => "random",
        })
    }
}

impl FromStr for SetupMode {
    type Err = String;
    fn from_str(s: &str) -> Result<SetupMode, String> {
        match s {
            "mirrored" => Ok(SetupMode::Mirrored),
            "random" => Ok(SetupMode::Random),
            other => Err(format!("unknown setup {other:?}: use mirrored or random")),
        }
    }
}

/// The twelve pieces one side may place: three 1s, two each of 2–5, one 6.
const ARMY: [u8; MAX_PIECES] = [1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6];

struct Halves {
    width: u8,
    height: u8,
    vertical: bool,
}

impl Halves {
    fn mirror(&self, c: Coord) -> Coord {
        if self.vertical {
            Coord::new(c.col, self.height - 1 - c.row)
        } else {
            Coord::new(self.width - 1 - c.col, c.row)
        }
    }
    /// Red's set-up zone: the bottom rows (right columns on a one-row grid), as many as leave
    /// at least two neutral rows between the armies (one row each on small grids). Without the
    /// gap, armies touch at the start and red, moving first, would decide the game at once
    /// through black's duty to attack.
    fn is_red(&self, c: Coord) -> bool {
        if self.vertical {
            c.row >= self.height - zone(self.height)
        } else {
            c.col >= self.width - zone(self.width)
        }
    }
}

fn zone(len: u8) -> u8 {
    (len.saturating_sub(2) / 2).max(1)
}

/// A random legal position ready for the play stage (red to move): 1–12 pieces per side drawn
/// from the allowed army and placed in the side's zone (see `SetupMode`), up to one block per 6
/// cells anywhere. Needs at least two cells.
///
/// # Errors
///
/// [`DuelError::BadSize`] when the grid is outside 1..=26 either way or has fewer than two cells.
pub fn random_setup<R: Rng + ?Sized>(width: u8, height: u8, mode: SetupMode, rng: &mut R) -> Result<Board, DuelError> {
    let mut pos = Board::empty(width, height)?;
    if usize::from(width) * usize::from(height) < 2 {
        return Err(DuelError::BadSize { width, height });
    }
    let halves = Halves { width, height, vertical: height >= 2 };
    let all: Vec<Coord> = (0..height).flat_map(|r| (0..width).map(move |c| Coord::new(c, r))).collect();
    let red_half: Vec<Coord> = all.iter().copied().filter(|&c| halves.is_red(c)).collect();
    let max_blocks = all.len() / 6;
    let blocks = rng.gen_range(0..=max_blocks);
    let mut placed = 0;
    while placed < blocks {
        let c = all[rng.gen_range(0..all.len())];
        if mode == SetupMode::Mirrored {
            pos.set(c, Cell::Block);
            pos.set(halves.mirror(c), Cell::Block);
            placed += 2;
        } else {
            pos.set(c, Cell::Block);
            placed += 1;
        }
    }
    let free_red: Vec<Coord> = red_half.iter().copied().filter(|&c| pos.get(c) == Some(Cell::Empty)).collect();
    let free_black: Vec<Coord> = all
        .iter()
        .copied()
        .filter(|&c| !halves.is_red(c) && halves.is_red(halves.mirror(c)))
        .filter(|&c| pos.get(c) == Some(Cell::Empty))
        .collect();
    if free_red.is_empty() || free_black.is_empty() {
        // Blocks filled a half: a grid this small gets no blocks.
        for c in &all {
            pos.set(*c, Cell::Empty);
        }
        return place_armies(pos, &halves, &red_half, &red_mirror(&halves, &red_half), mode, rng);
    }
    place_armies(pos, &halves, &free_red, &free_black, mode, rng)
}

fn red_mirror(h: &Halves, red: &[Coord]) -> Vec<Coord> {
    red.iter().map(|&c| h.mirror(c)).collect()
}

fn army<R: Rng + ?Sized>(n: usize, rng: &mut R) -> Vec<u8> {
    let mut a = ARMY.to_vec();
    a.shuffle(rng);
    a.truncate(n);
    a
}

fn place_armies<R: Rng + ?Sized>(
    mut pos: Board,
    halves: &Halves,
    free_red: &[Coord],
    free_black: &[Coord],
    mode: SetupMode,
    rng: &mut R,
) -> Result<Board, DuelError> {
    let piece = |side, r: u8| -> Result<Cell, DuelError> {
        let rank = Rank::new(r).ok_or(DuelError::BadPosition { reason: "rank out of range".to_string() })?;
        Ok(Cell::Piece(Piece { side, rank }))
    };
    let n_red = rng.gen_range(1..=free_red.len().min(MAX_PIECES));
    let ranks = army(n_red, rng);
    let cells: Vec<Coord> = free_red.choose_multiple(rng, n_red).copied().collect();
    for (&c, &r) in cells.iter().zip(&ranks) {
        pos.set(c, piece(Side::Red, r)?);
    }
    match mode {
        SetupMode::Mirrored => {
            for (&c, &r) in cells.iter().zip(&ranks) {
                pos.set(halves.mirror(c), piece(Side::Black, r)?);
            }
        }
        SetupMode::Random => {
            let n_black = rng.gen_range(1..=free_black.len().min(MAX_PIECES));
            let ranks = army(n_black, rng);
            let cells: Vec<Coord> = free_black.choose_multiple(rng, n_black).copied().collect();
            for (&c, &r) in cells.iter().zip(&ranks) {
                pos.set(c, piece(Side::Black, r)?);
            }
        }
    }
    pos.set_to_move(Side::Red);
    Ok(pos)
}
