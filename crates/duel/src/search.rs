//! The `search` opponent: alpha-beta (negamax, principal variation search) with iterative
//! deepening, a transposition table, move ordering (table move, winning attacks, killers,
//! history), a quiescence step through forced attacks, and a node and time budget.
//!
//! The node budget binds first at every difficulty, which keeps a bot deterministic: the same
//! position always gets the same move. The time budget (200 ms) is a safety cap for slow
//! machines and large grids.

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::board::{code_rank, code_side, Board, BLOCK, EMPTY};

use crate::bot::Bot;
use crate::endgame::{Endgame, Verdict};
use crate::pieces::{beats, Move, MoveList, Side};

/// Score of a won position (minus the plies to reach it, so faster wins score higher).
pub const WIN: i32 = 30_000;
const INF: i32 = 32_000;
const MATE_BOUND: i32 = WIN - 1_000;
const MAX_PLY: usize = 96;

/// How hard the computer thinks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Difficulty {
    /// Two plies: sees immediate captures and replies.
    Easy,
    /// Four plies.
    Medium,
    /// Deepening within a budget of 60,000 nodes (the default).
    #[default]
    Hard,
    /// Deepening within 600,000 nodes.
    Expert,
}

impl Difficulty {
    /// Every difficulty, easiest first.
    pub const ALL: [Difficulty; 4] = [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard, Difficulty::Expert];

    /// The budget a bot of this difficulty gets per move.
    pub fn limits(self) -> Limits {
        let time = Duration::from_millis(200);
        match self {
            Difficulty::Easy => Limits { max_depth: 2, max_nodes: 20_000, time },
            Difficulty::Medium => Limits { max_depth: 4, max_nodes: 50_000, time },
            Difficulty::Hard => Limits { max_depth: 64, max_nodes: 60_000, time },
            Difficulty::Expert => Limits { max_depth: 64, max_nodes: 600_000, time },
        }
    }
}

impl fmt::Display for Difficulty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
            Difficulty::Expert => "expert",
        })
    }
}

impl FromStr for Difficulty {
    type Err = String;
    fn from_str(s: &str) -> Result<Difficulty, String> {
        match s {
            "easy" => Ok(Difficulty::Easy),
            "medium" => Ok(Difficulty::Medium),
            "hard" => Ok(Difficulty::Hard),
            "expert" => Ok(Difficulty::Expert),
            other => Err(format!("unknown difficulty {other:?}: use easy, medium, hard or expert")),
        }
    }
}

/// The budget of one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration of iterative deepening, in plies.
    pub max_depth: u32,
    /// Positions visited before the search stops and keeps its best move so far.
    pub max_nodes: u64,
    /// Wall-clock cap per move; `Duration::MAX` for none.
    pub time: Duration,
}

/// What the last search did (for benchmarks and logs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchInfo {
    /// The last iteration that finished, in plies (0 when no search ran: one legal move, or
    /// the endgame solver answered).
    pub depth: u32,
    /// Positions visited.
    pub nodes: u64,
    /// The chosen move's score for the side to move: about 100 per piece of material, or
    /// within 1,000 of ±[`WIN`] for a forced win or loss.
    pub score: i32,
    /// Wall-clock time the move took.
    pub elapsed: Duration,
    /// The move came from the exact endgame solver.
    pub solved: bool,
}

#[derive(Clone, Copy, Default)]
struct TtEntry {
    key: u64,
    mv: Move,
    score: i16,
    depth: i8,
    flag: u8,
}

const EXACT: u8 = 1;
const LOWER: u8 = 2;
const UPPER: u8 = 3;
const TT_BITS: u32 = 18;

mod eval;

/// Alpha-beta search bot; plays either side.
pub struct SearchBot {
    difficulty: Difficulty,
    limits: Limits,
    tt: Vec<TtEntry>,
    killers: Vec<[Move; 2]>,
    history: Vec<i32>,
    dist: Vec<u8>,
    dist_key: Option<(u8, u8, Vec<u16>)>,
    nodes: u64,
    start: Instant,
    aborted: bool,
    endgame: Endgame,
    last: SearchInfo,
}

impl SearchBot {
    /// A bot with the budget of `difficulty`.
    pub fn new(difficulty: Difficulty) -> SearchBot {
        SearchBot::with_limits(difficulty, difficulty.limits())
    }

    /// A bot with a custom budget (benchmarks and experiments).
    pub fn with_limits(difficulty: Difficulty, limits: Limits) -> SearchBot {
        SearchBot {
            difficulty,
            limits,
            tt: vec![TtEntry::default(); 1 << TT_BITS],
            killers: vec![[Move::default(); 2]; MAX_PLY + 1],
            history: Vec::new(),
            dist: Vec::new(),
            dist_key: None,
            nodes: 0,
            start: Instant::now(),
            aborted: false,
            endgame: Endgame::default(),
            last: SearchInfo::default(),
        }
    }

    /// The difficulty it was built with (its name).
    pub fn difficulty(&self) -> Difficulty {
        self.difficulty
    }

    /// Statistics of the last `choose`.
    pub fn last_info(&self) -> SearchInfo {
        self.last
    }

    #[inline]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.limits.max_nodes || (self.nodes & 2047 == 0 && self.start.elapsed() >= self.limits.time) {
            self.aborted = true;
        }
        self.aborted
    }

    fn qsearch(&mut self, pos: &mut Board, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        if self.tick() {
            return 0;
        }
        if pos.is_terminal() {
            return Self::terminal_score(pos, ply);
        }
        if ply >= MAX_PLY {
            return self.evaluate(pos);
        }
        let mut list = MoveList::default();
        if pos.to_move() == Side::Black {
            return self.qsearch_black(pos, &mut list, alpha, beta, ply);
        }
        let stand = self.stand_pat(pos, &mut list, alpha, beta, ply);
        if self.aborted {
            return 0;
        }
        if stand >= beta {
            return stand;
        }
        alpha = alpha.max(stand);
        pos.pseudo_moves(Side::Red, true, &mut list);
        order_captures(pos, list.as_mut_slice());
        self.captures::<true>(pos, &list, stand, alpha, beta, ply)
    }

    /// Black's quiescence: its attacks are forced, so there is no standing pat.
    #[inline]
    fn qsearch_black(&mut self, pos: &mut Board, list: &mut MoveList, alpha: i32, beta: i32, ply: usize) -> i32 {
        pos.pseudo_moves(Side::Black, true, list);
        if list.is_empty() {
            return self.evaluate(pos);
        }
        order_captures(pos, list.as_mut_slice());
        self.captures::<false>(pos, list, -INF, alpha, beta, ply)
    }

    /// Searches the captures in `list` in order (with `WINNING`, only those the attacker wins),
    /// from `best` and `alpha` so far; 0 when the search was aborted.
    #[inline]
    fn captures<const WINNING: bool>(
        &mut self,
        pos: &mut Board,
        list: &MoveList,
        mut best: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        for &m in list.as_slice() {
            if WINNING && !beats(code_rank(pos.code(usize::from(m.from))), code_rank(pos.code(usize::from(m.to)))) {
                continue;
            }
            let u = pos.make(m);
            let s = -self.qsearch(pos, -beta, -alpha, ply + 1);
            pos.unmake(u);
            if self.aborted {
                return 0;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// What standing pat is worth to red (to move): playing a quiet move elsewhere; if black
    /// then has only losing attacks it must make one, so that is what the pat is worth. Leaves
    /// `list` to be filled again; 0 when the search was aborted.
    #[inline]
    fn stand_pat(&mut self, pos: &mut Board, list: &mut MoveList, alpha: i32, beta: i32, ply: usize) -> i32 {
        let mut stand = self.evaluate(pos);
        pos.pseudo_moves(Side::Black, true, list);
        if !list.is_empty()
            && list
                .as_slice()
                .iter()
                .all(|m| !beats(code_rank(pos.code(usize::from(m.from))), code_rank(pos.code(usize::from(m.to)))))
        {
            pos.pass();
            let s = -self.qsearch(pos, -beta, -alpha.max(stand), ply + 1);
            pos.pass();
            if self.aborted {
                return 0;
            }
            stand = stand.max(s);
        }
        stand
    }

    fn tt_index(&self, key: u64) -> usize {
        (key >> (64 - TT_BITS)) as usize
    }

    fn order(&self, pos: &Board, moves: &mut [Move], tt_move: Option<Move>, ply: usize) {
        let n = pos.num_cells();
        let k = self.killers[ply.min(MAX_PLY)];
        let key = |m: &Move| -> i32 {
            if Some(*m) == tt_move {
                return 1 << 30;
            }
            let t = pos.code(usize::from(m.to));
            if t != EMPTY {
                let a = code_rank(pos.code(usize::from(m.from)));
                let d = code_rank(t);
                return if beats(a, d) {
                    (1 << 28) + i32::from(d) * 16 - i32::from(a)
                } else {
                    (1 << 26) - i32::from(a) * 16
                };
            }
            if *m == k[0] {
                return 1 << 25;
            }
            if *m == k[1] {
                return (1 << 25) - 1;
            }
            self.history.get(usize::from(m.from) * n + usize::from(m.to)).copied().unwrap_or(0)
        };
        moves.sort_by_key(|m| std::cmp::Reverse(key(m)));
    }

    /// What the table knows of this position: a score that settles it at this depth and window,
    /// else the best move found before (if any), to try first.
    #[inline]
    fn probe(&self, idx: usize, key: u64, depth: i32, alpha: i32, beta: i32, ply: usize) -> Probe {
        let e = self.tt[idx];
        if e.key != key || e.flag == 0 {
            return Probe::Move(None);
        }
        if i32::from(e.depth) >= depth {
            let s = from_tt(i32::from(e.score), ply);
            match e.flag {
                EXACT => return Probe::Score(s),
                LOWER if s >= beta => return Probe::Score(s),
                UPPER if s <= alpha => return Probe::Score(s),
                _ => {}
            }
        }
        Probe::Move(Some(e.mv))
    }

    /// A quiet move that cut off: a killer at this ply, and history for its from/to cells
    /// (`n` cells on the board).
    #[inline]
    fn remember_cutoff(&mut self, m: Move, n: usize, depth: i32, ply: usize) {
        let kl = &mut self.killers[ply.min(MAX_PLY)];
        if kl[0] != m {
            kl[1] = kl[0];
            kl[0] = m;
        }
        if let Some(h) = self.history.get_mut(usize::from(m.from) * n + usize::from(m.to)) {
            *h += depth * depth;
        }
    }

    fn negamax(&mut self, pos: &mut Board, mut depth: i32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        if pos.is_terminal() {
            self.nodes += 1;
            return Self::terminal_score(pos, ply);
        }
        if depth <= 0 || ply >= MAX_PLY {
            return self.qsearch(pos, alpha, beta, ply);
        }
        if self.tick() {
            return 0;
        }
        let key = pos.hash();
        let idx = self.tt_index(key);
        let tt_move = match self.probe(idx, key, depth, alpha, beta, ply) {
            Probe::Score(s) => return s,
            Probe::Move(m) => m,
        };
        let mut list = MoveList::default();
        pos.legal_moves(&mut list);
        // A single forced attack costs no depth: it shortens the game, so this terminates.
        if list.len() == 1 && pos.is_capture(list.as_slice()[0]) {
            depth += 1;
        }
        self.order(pos, list.as_mut_slice(), tt_move, ply);
        let orig_alpha = alpha;
        let mut best = -INF;
        let mut best_move = Move::default();
        let n = pos.num_cells();
        for (k, &m) in list.as_slice().iter().enumerate() {
            let u = pos.make(m);
            let mut s;
            if k == 0 {
                s = -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1);
            } else {
                s = -self.negamax(pos, depth - 1, -alpha - 1, -alpha, ply + 1);
                if s > alpha && s < beta && !self.aborted {
                    s = -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1);
                }
            }
            pos.unmake(u);
            if self.aborted {
                return 0;
            }
            if s > best {
                best = s;
                best_move = m;
                if s > alpha {
                    alpha = s;
                    if s >= beta {
                        if !pos.is_capture(m) {
                            self.remember_cutoff(m, n, depth, ply);
                        }
                        break;
                    }
                }
            }
        }
        let flag = if best >= beta {
            LOWER
        } else if best > orig_alpha {
            EXACT
        } else {
            UPPER
        };
        self.tt[idx] =
            TtEntry { key, mv: best_move, score: to_tt(best, ply) as i16, depth: depth.clamp(0, 127) as i8, flag };
        best
    }

    /// One iteration at the root, `moves` in order: the best move found and its score (`None`
    /// if aborted before the first finished).
    fn root(&mut self, work: &mut Board, moves: &[Move], depth: i32) -> (Option<Move>, i32) {
        let mut alpha = -INF;
        let beta = INF;
        let mut iter_best = None;
        let mut iter_score = -INF;
        for (k, &m) in moves.iter().enumerate() {
            let u = work.make(m);
            let mut s;
            if k == 0 {
                s = -self.negamax(work, depth - 1, -beta, -alpha, 1);
            } else {
                s = -self.negamax(work, depth - 1, -alpha - 1, -alpha, 1);
                if s > alpha && !self.aborted {
                    s = -self.negamax(work, depth - 1, -beta, -alpha, 1);
                }
            }
            work.unmake(u);
            if self.aborted {
                break;
            }
            if s > iter_score {
                iter_score = s;
                iter_best = Some(m);
            }
            alpha = alpha.max(s);
        }
        (iter_best, iter_score)
    }

    /// Iterative deepening at the root; returns the best move and fills `last`.
    fn search(&mut self, pos: &Board) -> Option<Move> {
        self.start = Instant::now();
        self.nodes = 0;
        self.aborted = false;
        let mut moves = pos.legal_moves_vec();
        if moves.is_empty() {
            return None;
        }
        self.prepare_distances(pos);
        match self.endgame.probe(pos) {
            Some(Verdict::Win { best, .. } | Verdict::Loss { best, .. }) => {
                self.last = SearchInfo { elapsed: self.start.elapsed(), solved: true, ..SearchInfo::default() };
                return Some(best);
            }
            // Drawn under best play: the search picks among the moves that keep the draw,
            // for the chances a weaker opponent gives.
            Some(Verdict::Draw { safe }) => moves = safe,
            None => {}
        }
        if moves.len() == 1 {
            self.last = SearchInfo { elapsed: self.start.elapsed(), ..SearchInfo::default() };
            return moves.first().copied();
        }
        for h in self.history.iter_mut() {
            *h /= 8;
        }
        let mut work = pos.clone();
        let mut best = moves[0];
        let mut best_score = -INF;
        let mut completed = 0;
        for depth in 1..=self.limits.max_depth {
            // The previous best first, then the usual order.
            self.order(&work, &mut moves, Some(best), 0);
            let (iter_best, iter_score) = self.root(&mut work, &moves, depth as i32);
            // A partial iteration still counts when its first move (the old best) finished:
            // anything found after it is a proven improvement.
            if let Some(m) = iter_best {
                best = m;
                best_score = iter_score;
            }
            if self.aborted {
                break;
            }
            completed = depth;
            if iter_score.abs() >= MATE_BOUND {
                break;
            }
        }
        self.last = SearchInfo {
            depth: completed,
            nodes: self.nodes,
            score: best_score,
            elapsed: self.start.elapsed(),
            solved: false,
        };
        Some(best)
    }
}

/// What the transposition table says of a position.
enum Probe {
    /// A score that settles the node.
    Score(i32),
    /// No score: the move to try first, if any.
    Move(Option<Move>),
}

fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

fn order_captures(pos: &Board, moves: &mut [Move]) {
    moves.sort_by_key(|m| {
        let a = code_rank(pos.code(usize::from(m.from)));
        let d = code_rank(pos.code(usize::from(m.to)));
        let win = beats(a, d);
        std::cmp::Reverse(if win { 1000 + i32::from(d) * 16 - i32::from(a) } else { -i32::from(a) })
    });
}

impl Bot for SearchBot {
    fn name(&self) -> String {
        format!("search:{}", self.difficulty)
    }
    fn choose(&mut self, position: &Board) -> Option<Move> {
        self.search(position)
    }
}
