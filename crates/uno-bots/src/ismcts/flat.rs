//! Flat Monte Carlo over dealt worlds (`flat`): no tree.
//!
//! Each dealt world is played out once after every own move, by the playout policy for every
//! seat, from the same world (the same hands, the same draw pile): the moves are compared on
//! common luck, so their difference is measured with less noise than the luck of the deal.
//! With `heuristic` playouts against `heuristic` opponents, the other seats are modelled
//! exactly in each world and the playout after a move is deterministic; what remains uncertain
//! is only the world. The move played is the one that won most; ties go to the playout
//! policy's own choice, then to the earlier move.
//!
//! Unlike the tree, it spends no playouts exploring the bot's own later moves: beyond the
//! root the bot plays the playout policy too, so a move's value is exactly that of "this move,
//! then the policy" (the tree's own later nodes also stand for every card it might draw).

use std::sync::Arc;
use std::time::Instant;

use rand::Rng;
use uno::game::SimRng;
use uno::sample::Sampler;
use uno::{Action, Game, Rules, Seat};

use super::IsmctsBot;
use crate::Bot;

impl IsmctsBot {
    pub(super) fn search_flat(
        &mut self,
        me: Seat,
        rules: &Arc<Rules>,
        sampler: &mut Sampler,
        moves: &[Action],
    ) -> Action {
        let started = self.config.time_limit.map(|_| Instant::now());
        let mut world = self.first_world(sampler, rules);
        let preferred = match self.net_choice {
            Some(a) if self.config.net_prior && moves.contains(&a) => a,
            _ => self.policy_move(&world),
        };
        let mut scratch = world.clone();
        let k = moves.len() as u32;
        let worlds = (self.config.iterations / k).max(1);
        let most = worlds.saturating_mul(self.config.flat_extend.max(1));
        let mut wins = vec![0.0f64; moves.len()];
        // Each world's result for each move, for the test of a close call.
        let mut results: Vec<f64> = Vec::new();
        let mut fitted: Option<SimRng> = None;
        let mut done = 0u32;
        let check_plays = self.check_plays();
        for i in 0..most {
            // Past the budget, only while the call is close.
            if i >= worlds && (i - worlds).is_multiple_of(EXTEND_CHECK) && !close(&wins, &results, moves.len()) {
                break;
            }
            if let (Some(limit), Some(t0)) = (self.config.time_limit, started) {
                if t0.elapsed() >= limit {
                    break;
                }
            }
            if check_plays || i > 0 {
                self.deal(sampler, &mut world, i, &mut fitted);
            }
            self.dealt.count(&world, me);
            let luck: u64 = self.rng.gen();
            for (j, &a) in moves.iter().enumerate() {
                scratch.clone_from(&world);
                self.playout.reseed(luck);
                scratch.apply_unchecked(me, a);
                self.play_out(&mut scratch);
                let r = score(&scratch, me);
                wins[j] += r;
                if most > worlds {
                    results.push(r);
                }
            }
            done += 1;
            if self.config.early_stop && decided(&wins, (most - done) as f64) {
                break;
            }
        }
        self.world = Some(world);
        self.stats.searches += 1;
        self.stats.iterations += u64::from(done) * u64::from(k);
        if self.record_estimates {
            self.estimates.clear();
            let n = f64::from(done.max(1));
            self.estimates.extend(moves.iter().zip(&wins).map(|(&a, &w)| (a, w / n)));
            self.estimate_worlds = done;
        }
        let margin = self.config.flat_margin * f64::from(done);
        best(moves, &wins, preferred, margin)
    }
}

/// How often (in worlds) a search extended past its budget asks whether the call is still close.
const EXTEND_CHECK: u32 = 32;

/// Whether the two moves that won most are within two standard errors of each other, on the
/// worlds played so far (`results`: each world's result for each of `k` moves, paired).
fn close(wins: &[f64], results: &[f64], k: usize) -> bool {
    let mut order: Vec<usize> = (0..k).collect();
    order.sort_by(|&a, &b| wins[b].total_cmp(&wins[a]));
    let [first, second, ..] = order[..] else { return false };
    let lead = wins[first] - wins[second];
    let spread: f64 = results.chunks_exact(k).map(|w| (w[first] - w[second]).powi(2)).sum();
    lead < 2.0 * spread.sqrt()
}

/// The round's result for `me`: a win, a loss, or a share of a round without a winner.
fn score(world: &Game, me: Seat) -> f64 {
    match world.round_winner() {
        Some(w) if w == me => 1.0,
        Some(_) => 0.0,
        None => 1.0 / world.players() as f64,
    }
}

/// Whether the leader can no longer be caught with `left` worlds to come (each adds at most 1
/// to a move's wins). A tie at the end goes to the preferred move, so the runner-up must not
/// even draw level.
fn decided(wins: &[f64], left: f64) -> bool {
    super::stop::lead(wins.iter().copied(), f64::NEG_INFINITY) > left
}

/// The move that won most; ties: `preferred`, then the earlier move. `preferred` stays unless
/// the move that won most won more than `margin` more often.
fn best(moves: &[Action], wins: &[f64], preferred: Action, margin: f64) -> Action {
    let mut pick: Option<(f64, bool, Action)> = None;
    for (&a, &w) in moves.iter().zip(wins) {
        let key = (w, a == preferred);
        if pick.is_none_or(|(bw, bp, _)| key > (bw, bp)) {
            pick = Some((w, a == preferred, a));
        }
    }
    let kept = moves.iter().zip(wins).find(|&(&a, _)| a == preferred).map(|(_, &w)| w);
    match (pick, kept) {
        (Some((w, _, _)), Some(k)) if w - k <= margin => preferred,
        (Some((_, _, a)), _) => a,
        (None, _) => moves[0],
    }
}
