//! Exact solving of small endgames: with at most three pieces on the grid, every placement of
//! those pieces (on this game's blocks) is solved by value iteration, so the bot plays a forced
//! win by its shortest route, delays a forced loss, and in a drawn position never plays a move
//! that loses.
//!
//! Tables depend on the blocks and the pieces' sides and ranks, are built on first need (a few
//! milliseconds to a few tens of milliseconds on 6x6) and kept for the rest of the game.

use std::collections::HashMap;

use crate::board::{code_rank, code_side, Board, BLOCK};

use crate::pieces::{beats, Dir, Move, Side};

/// Largest number of pieces (both sides together) the solver handles.
pub const MAX_SOLVED_PIECES: usize = 3;
/// Larger grids are left to the search: tables grow with cells³.
const MAX_CELLS: usize = 64;

/// The solver's verdict on a position, for the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A forced win in `plies`; `best` is the move that keeps it shortest.
    Win { best: Move, plies: u32 },
    /// A forced loss in `plies`; `best` delays it longest.
    Loss { best: Move, plies: u32 },
    /// Neither side can force a win; `safe` are the moves that keep the draw.
    Draw { safe: Vec<Move> },
}

type PieceSet = Vec<(Side, u8)>;

/// Value of a state for its side to move: `d > 0` wins in `d` plies, `-(d + 1)` loses in `d`
/// plies, `DRAW` neither.
const DRAW: i16 = 0;
const UNKNOWN: i16 = i16::MIN;

struct Table {
    vals: Vec<i16>,
}

/// Solved tables for one board (its size and blocks).
#[derive(Default)]
pub struct Endgame {
    board: Option<(u8, u8, Vec<bool>)>,
    nbr: Vec<[u16; 4]>,
    tables: HashMap<PieceSet, Table>,
}

const NONE: u16 = u16::MAX;

impl Endgame {
    /// The exact verdict when at most three pieces are left, else `None`.
    pub fn probe(&mut self, pos: &Board) -> Option<Verdict> {
        let n = pos.num_cells();
        if n > MAX_CELLS {
            return None;
        }
        let total = pos.count(Side::Red) + pos.count(Side::Black);
        if total > MAX_SOLVED_PIECES || pos.count(Side::Red) == 0 || pos.count(Side::Black) == 0 {
            return None;
        }
        self.prepare(pos);
        let (set, cells) = pieces_of(pos);
        self.solve(&set);
        let stm = pos.to_move();
        let mut moves = pos.legal_moves_vec();
        if moves.is_empty() {
            return None;
        }
        // Value of each move for the mover (negated child value).
        let mut scored: Vec<(Move, i16)> = Vec::with_capacity(moves.len());
        for &m in &moves {
            let v = self.child_value(&set, &cells, stm, m)?;
            scored.push((m, v));
        }
        let own = |child: i16| -> i16 {
            if child == DRAW {
                DRAW
            } else if child < 0 {
                // Child loses in d plies: we win in d + 1.
                -child
            } else {
                -(child + 1)
            }
        };
        let best_win = scored.iter().filter(|(_, c)| *c < 0).min_by_key(|(_, c)| -*c);
        if let Some(&(m, c)) = best_win {
            return Some(Verdict::Win { best: m, plies: (-c) as u32 });
        }
        let safe: Vec<Move> = scored.iter().filter(|(_, c)| *c == DRAW).map(|(m, _)| *m).collect();
        if !safe.is_empty() {
            return Some(Verdict::Draw { safe });
        }
        moves.sort_by_key(|m| scored.iter().find(|(x, _)| x == m).map_or(0, |(_, c)| own(*c)));
        let worst = moves.first().copied()?;
        let plies = scored.iter().find(|(x, _)| *x == worst).map_or(0, |(_, c)| (-own(*c) - 1).max(0) as u32);
        Some(Verdict::Loss { best: worst, plies })
    }

    fn prepare(&mut self, pos: &Board) {
        let n = pos.num_cells();
        let blocks: Vec<bool> = (0..n).map(|i| pos.code(i) == BLOCK).collect();
        let key = (pos.width(), pos.height(), blocks);
        if self.board.as_ref() == Some(&key) {
            return;
        }
        self.nbr = (0..n)
            .map(|i| {
                let mut a = [NONE; 4];
                for (k, d) in Dir::ALL.into_iter().enumerate() {
                    if let Some(t) = pos.step(i, d) {
                        if pos.code(t) != BLOCK {
                            a[k] = t as u16;
                        }
                    }
                }
                a
            })
            .collect();
        self.tables.clear();
        self.board = Some(key);
    }

    /// The child's value (for the child's side to move) after `m` from the state `cells`.
    fn child_value(&self, set: &PieceSet, cells: &[u16], stm: Side, m: Move) -> Option<i16> {
        let mover = cells.iter().position(|&c| c == m.from)?;
        let victim = cells.iter().position(|&c| c == m.to);
        self.value_of(after_move(set, cells, mover, victim, m.to), stm.opponent())
    }

    /// The value, for `stm` to move, of the position of the pieces `pieces` (side, rank, cell):
    /// won or lost at once when a side has no piece left, else its table's (`None`: not solved).
    fn value_of(&self, pieces: Vec<(Side, u8, u16)>, stm: Side) -> Option<i16> {
        let (cs, cc) = canon(pieces);
        let reds = cs.iter().filter(|p| p.0 == Side::Red).count();
        let blacks = cs.len() - reds;
        if reds == 0 || blacks == 0 {
            // The side to move has no piece (it lost) or the opponent has none.
            let has = cs.iter().any(|p| p.0 == stm);
            return Some(if has { 1 } else { -1 });
        }
        let t = self.tables.get(&cs)?;
        Some(t.vals[index(&cc, stm, self.nbr.len())])
    }

    fn solve(&mut self, set: &PieceSet) {
        if self.tables.contains_key(set) {
            return;
        }
        // Sub-tables first: a capture leads into them.
        if set.len() > 2 {
            for k in 0..set.len() {
                let mut sub = set.clone();
                sub.remove(k);
                let both = sub.iter().any(|p| p.0 == Side::Red) && sub.iter().any(|p| p.0 == Side::Black);
                if both {
                    self.solve(&sub);
                }
            }
        }
        let n = self.nbr.len();
        let k = set.len();
        let states = n.pow(k as u32) * 2;
        let mut vals = vec![UNKNOWN; states];
        let mut cells = vec![0u16; k];
        // Children of every live state, computed once.
        let mut kids: Vec<Vec<Child>> = Vec::with_capacity(0);
        kids.resize_with(states, Vec::new);
        let mut live = Vec::new();
        for idx in 0..states / 2 {
            decode(idx, n, &mut cells);
            let blocks = self.board.as_ref().map_or(&[][..], |b| &b.2[..]);
            if !valid(&cells, blocks) {
                continue;
            }
            for stm in [Side::Red, Side::Black] {
                let i = idx * 2 + usize::from(stm == Side::Black);
                if !self.can_move(set, &cells, Side::Red) || !self.can_move(set, &cells, Side::Black) {
                    // Both sides still have pieces, so the play stage ends in a draw.
                    vals[i] = DRAW;
                    continue;
                }
                kids[i] = self.children(set, &cells, stm);
                live.push(i as u32);
            }
        }
        settle(&mut vals, &live, &kids);
        self.tables.insert(set.clone(), Table { vals });
    }

    /// The children of the state `cells` with `stm` to move, one a legal move.
    fn children(&self, set: &PieceSet, cells: &[u16], stm: Side) -> Vec<Child> {
        let n = self.nbr.len();
        let moves = self.moves(set, cells, stm);
        let mut list = Vec::with_capacity(moves.len());
        for (mover, to) in moves {
            match cells.iter().position(|&c| c == to) {
                None => {
                    let mut c2 = cells.to_vec();
                    c2[mover] = to;
                    // Same pieces, same order: identical pieces may swap, which is the same
                    // position under another index.
                    list.push(Child::Same(index(&c2, stm.opponent(), n) as u32));
                }
                Some(v) => {
                    let pieces = after_move(set, cells, mover, Some(v), to);
                    list.push(Child::Fixed(self.value_of(pieces, stm.opponent()).unwrap_or(DRAW)));
                }
            }
        }
        list
    }

    fn can_move(&self, set: &PieceSet, cells: &[u16], side: Side) -> bool {
        set.iter().zip(cells).any(|(&(s, _), &c)| {
            s == side
                && self.nbr[usize::from(c)]
                    .iter()
                    .any(|&t| t != NONE && !set.iter().zip(cells).any(|(&(s2, _), &c2)| s2 == side && c2 == t))
        })
    }

    /// Legal moves of `stm` as (piece index, target cell); black must attack when it can.
    fn moves(&self, set: &PieceSet, cells: &[u16], stm: Side) -> Vec<(usize, u16)> {
        let mut quiet = Vec::new();
        let mut attacks = Vec::new();
        for (k, (&(s, _), &c)) in set.iter().zip(cells).enumerate() {
            if s != stm {
                continue;
            }
            for &t in &self.nbr[usize::from(c)] {
                if t == NONE {
                    continue;
                }
                match set.iter().zip(cells).find(|(_, &c2)| c2 == t) {
                    None => quiet.push((k, t)),
                    Some((&(s2, _), _)) if s2 != stm => attacks.push((k, t)),
                    Some(_) => {}
                }
            }
        }
        if stm == Side::Black && !attacks.is_empty() {
            return attacks;
        }
        attacks.extend(quiet);
        attacks
    }
}

fn pieces_of(pos: &Board) -> (PieceSet, Vec<u16>) {
    let list: Vec<(Side, u8, u16)> = (0..pos.num_cells())
        .filter_map(|i| {
            let c = pos.code(i);
            code_side(c).map(|s| (s, code_rank(c), i as u16))
        })
        .collect();
    canon(list)
}

/// Sorts pieces by (side, rank) so one piece set has one table.
/// A child of a state in a table: a state of the same table (no capture), or a fixed value
/// (a capture, which leads into a smaller table or ends the play stage).
enum Child {
    Same(u32),
    Fixed(i16),
}

/// The pieces (side, rank, cell) after piece `mover` moves to `to`, onto piece `victim` if
/// any: the attacker that wins takes the cell, the one that loses is gone.
fn after_move(set: &PieceSet, cells: &[u16], mover: usize, victim: Option<usize>, to: u16) -> Vec<(Side, u8, u16)> {
    let mut next: Vec<(Side, u8, u16)> = set.iter().zip(cells).map(|(&(s, r), &c)| (s, r, c)).collect();
    match victim {
        None => next[mover].2 = to,
        Some(v) => {
            if beats(next[mover].1, next[v].1) {
                next[mover].2 = to;
                next.remove(v);
            } else {
                next.remove(mover);
            }
        }
    }
    next
}

/// Value iteration until nothing changes; what is left unknown is a draw (play goes on
/// forever, which the round cap turns into a draw).
fn settle(vals: &mut [i16], live: &[u32], kids: &[Vec<Child>]) {
    loop {
        let mut changed = false;
        for &i in live {
            let i = i as usize;
            if vals[i] != UNKNOWN {
                continue;
            }
            let mut best_win: Option<i16> = None;
            let mut all_lose = true;
            let mut longest_loss = 0i16;
            for ch in &kids[i] {
                let v = match ch {
                    Child::Same(j) => vals[*j as usize],
                    Child::Fixed(v) => *v,
                };
                if v == UNKNOWN || v == DRAW {
                    all_lose = false;
                    continue;
                }
                if v < 0 {
                    let w = -v; // child loses in (-v - 1) plies: we win in -v
                    best_win = Some(best_win.map_or(w, |b: i16| b.min(w)));
                } else {
                    longest_loss = longest_loss.max(v);
                }
                if v < 0 {
                    all_lose = false;
                }
            }
            if let Some(w) = best_win {
                vals[i] = w;
                changed = true;
            } else if all_lose && !kids[i].is_empty() {
                vals[i] = -(longest_loss + 1);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    for v in vals.iter_mut() {
        if *v == UNKNOWN {
            *v = DRAW;
        }
    }
}

fn canon(mut list: Vec<(Side, u8, u16)>) -> (PieceSet, Vec<u16>) {
    list.sort_by_key(|&(s, r, c)| (s.index(), r, c));
    (list.iter().map(|&(s, r, _)| (s, r)).collect(), list.iter().map(|&(_, _, c)| c).collect())
}

fn index(cells: &[u16], stm: Side, n: usize) -> usize {
    let mut i = 0usize;
    for &c in cells {
        i = i * n + usize::from(c);
    }
    i * 2 + usize::from(stm == Side::Black)
}

fn decode(mut idx: usize, n: usize, cells: &mut [u16]) {
    for c in cells.iter_mut().rev() {
        *c = (idx % n) as u16;
        idx /= n;
    }
}

/// Pieces on distinct cells, none on a block.
fn valid(cells: &[u16], blocks: &[bool]) -> bool {
    cells
        .iter()
        .enumerate()
        .all(|(k, &c)| !cells[..k].contains(&c) && !blocks.get(usize::from(c)).copied().unwrap_or(true))
}
