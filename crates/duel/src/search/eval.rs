//! The search's evaluation: material, rank and distance terms from black's point of view,
//! with the shortest paths around blocks computed once per board layout, and the scores of
//! finished games.

use super::*;

// Evaluation weights (black's point of view; tuned on mirrored 6x6 simulations).
const PIECE: i32 = 100;
const RANK_BONUS: [i32; 7] = [0, 12, 4, 8, 12, 16, 22];
const UNKILLABLE: i32 = 120;
const APPROACH: i32 = 6;

/// Ranks (bit `r`) that beat a piece of rank `r`.
const fn killers_of(r: u8) -> u8 {
    let mut m = 0u8;
    let mut a = 1u8;
    while a <= 6 {
        if a > r || (a == 1 && r == 6) {
            m |= 1 << a;
        }
        a += 1;
    }
    m
}
const KILLERS: [u8; 7] = [0, killers_of(1), killers_of(2), killers_of(3), killers_of(4), killers_of(5), killers_of(6)];

impl SearchBot {
    /// Shortest path lengths between cells around blocks (pieces ignored), recomputed only
    /// when the blocks change, which in one game they never do.
    pub(super) fn prepare_distances(&mut self, pos: &Board) {
        let blocks: Vec<u16> = (0..pos.num_cells()).filter(|&i| pos.code(i) == BLOCK).map(|i| i as u16).collect();
        let key = (pos.width(), pos.height(), blocks);
        if self.dist_key.as_ref() == Some(&key) {
            return;
        }
        let n = pos.num_cells();
        self.dist = vec![u8::MAX; n * n];
        let mut queue = Vec::with_capacity(n);
        for s in 0..n {
            if pos.code(s) == BLOCK {
                continue;
            }
            let row = &mut self.dist[s * n..(s + 1) * n];
            row[s] = 0;
            queue.clear();
            queue.push(s);
            let mut head = 0;
            while head < queue.len() {
                let c = queue[head];
                head += 1;
                for d in crate::pieces::Dir::ALL {
                    if let Some(t) = pos.step(c, d) {
                        if pos.code(t) != BLOCK && row[t] == u8::MAX {
                            row[t] = row[c].saturating_add(1);
                            queue.push(t);
                        }
                    }
                }
            }
        }
        self.history = vec![0; n * n.max(1)];
        self.dist_key = Some(key);
    }

    /// Static evaluation from black's point of view.
    pub(super) fn evaluate_black(&self, pos: &Board) -> i32 {
        let n = pos.num_cells();
        let mut red: [(u16, u8); 12] = [(0, 0); 12];
        let mut black: [(u16, u8); 12] = [(0, 0); 12];
        let (mut nr, mut nb) = (0usize, 0usize);
        let (mut red_mask, mut black_mask) = (0u8, 0u8);
        let mut score = 0;
        for i in 0..n {
            let c = pos.code(i);
            match code_side(c) {
                Some(Side::Red) if nr < 12 => {
                    let r = code_rank(c);
                    red[nr] = (i as u16, r);
                    nr += 1;
                    red_mask |= 1 << r;
                    score -= PIECE + RANK_BONUS[usize::from(r)];
                }
                Some(Side::Black) if nb < 12 => {
                    let r = code_rank(c);
                    black[nb] = (i as u16, r);
                    nb += 1;
                    black_mask |= 1 << r;
                    score += PIECE + RANK_BONUS[usize::from(r)];
                }
                _ => {}
            }
        }
        for &(ri, r) in &red[..nr] {
            if black_mask & KILLERS[usize::from(r)] == 0 {
                score -= UNKILLABLE;
                continue;
            }
            let mut best = 30i32;
            for &(bi, b) in &black[..nb] {
                if beats(b, r) {
                    let d = i32::from(self.dist[usize::from(bi) * n + usize::from(ri)]);
                    best = best.min(d);
                }
            }
            score -= APPROACH * best;
        }
        for &(_, b) in &black[..nb] {
            if red_mask & KILLERS[usize::from(b)] == 0 {
                score += UNKILLABLE / 2;
            }
        }
        score
    }

    pub(super) fn evaluate(&self, pos: &Board) -> i32 {
        let v = self.evaluate_black(pos);
        if pos.to_move() == Side::Black {
            v
        } else {
            -v
        }
    }

    pub(super) fn terminal_score(pos: &Board, ply: usize) -> i32 {
        let winner = match pos.outcome() {
            crate::pieces::Outcome::Draw => return 0,
            crate::pieces::Outcome::RedWins => Side::Red,
            crate::pieces::Outcome::BlackWins => Side::Black,
        };
        let v = WIN - ply as i32;
        if winner == pos.to_move() {
            v
        } else {
            -v
        }
    }
}
