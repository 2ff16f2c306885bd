//! Ratings of several bots from one match: a Plackett–Luce model over seats, fitted to who won.
//!
//! A UNO round names one winner, so each game is a choice of one seat among the seats at the
//! table: the Plackett–Luce model cut at first place (Luce's choice model). Every entrant `e` has a
//! strength `γ_e = exp(θ_e)`; a seat is as strong as its entrant, so in a game where entrant `e`
//! holds `n_e` seats, `P(e wins) = n_e γ_e / Σ_j n_j γ_j`. Several seats of one entrant (a lineup of
//! two bots at four seats) are handled exactly, and so is any mix of seatings.
//!
//! The fit is the maximum of the likelihood found by the MM iteration of Hunter (2004, "MM
//! algorithms for generalized Bradley–Terry models"), with one virtual win and one virtual loss of
//! every entrant against a fixed anchor of strength 1, so an entrant that never wins still has a
//! finite rating (its effect fades as games accumulate). Ratings are printed on the Elo scale,
//! `400 · log10 γ`, centred so they sum to zero: a 100-point gap means the stronger entrant's seat
//! wins 64% of two-seat contests between them.
//!
//! Intervals take the deal, not the game, as the unit, like every other figure of a duplicate
//! match: the games of a deal share their cards and are not independent. The variance is the
//! cluster-robust (sandwich) one, `H⁻¹ (Σ_deals s_d s_dᵀ) H⁻¹`, with `H` the information of the
//! whole match and `s_d` the score of deal `d` at the fitted strengths. It needs no per-deal
//! storage: a deal's score is its win counts less the model's expected wins, and the expected wins
//! depend only on which of its seatings ended with a winner, so deals are summed per such set.

use std::collections::HashMap;

use serde::Serialize;

use crate::moments::Z95;

/// One game of a deal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MatchGame {
    /// The entrant in each seat.
    pub seating: Vec<usize>,
    /// The winning seat, if any.
    pub winner: Option<usize>,
    /// Points the winner scored.
    pub points: u32,
    /// Decisions taken in the game.
    pub decisions: u32,
    /// Abandoned after too many decisions.
    pub stuck: bool,
}

/// Elo points per unit of `θ = ln γ`.
const ELO: f64 = 400.0 / std::f64::consts::LN_10;
/// The MM iteration stops when no strength moves by more than this, relative.
const TOLERANCE: f64 = 1e-12;
const MAX_ITERATIONS: usize = 100_000;

/// Running totals of a match, enough for the fit and its deal-level variance.
#[derive(Clone, Debug)]
pub struct RatingData {
    entrants: usize,
    /// Each seating's seats per entrant (`n[k][e]`), filled by the first deal.
    seats: Vec<Vec<f64>>,
    /// Games of seating `k` won by entrant `e`.
    wins: Vec<Vec<f64>>,
    /// Deals summed by the set of seatings that had a winner.
    groups: HashMap<Vec<bool>, Group>,
    /// Virtual games against the anchor (one win and one loss each); 0 for the bare likelihood.
    prior: f64,
}

/// Deals that share the set of seatings with a winner: their count, win counts summed, and
/// the sum of the win counts' outer products.
#[derive(Clone, Debug)]
struct Group {
    deals: f64,
    sum: Vec<f64>,
    outer: Vec<Vec<f64>>,
}

/// One entrant's rating.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rating {
    pub bot: String,
    /// Elo-scale rating, the entrants' ratings summing to zero.
    pub elo: f64,
    /// 95% interval of `elo` over deals; null when the match cannot tell (fewer than two deals,
    /// or an entrant without a single win).
    pub ci95: Option<[f64; 2]>,
}

/// The ratings of a match.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ratings {
    /// `"plackett-luce-first-place"`: the model, named for the JSON's readers.
    pub model: &'static str,
    pub ratings: Vec<Rating>,
    /// Games that had a winner (the others say nothing about strength).
    pub games: u64,
}

impl Default for RatingData {
    fn default() -> RatingData {
        RatingData::new(0)
    }
}

impl RatingData {
    /// No games yet, for `entrants` entrants.
    pub fn new(entrants: usize) -> RatingData {
        RatingData { entrants, seats: Vec::new(), wins: Vec::new(), groups: HashMap::new(), prior: 1.0 }
    }

    /// The same data fitted without the virtual games: the plain maximum-likelihood estimate.
    pub fn without_prior(mut self) -> RatingData {
        self.prior = 0.0;
        self
    }

    /// Adds one deal: its games, one per seating, in the same seating order every deal.
    pub fn add_deal(&mut self, games: &[MatchGame]) {
        let e_count = self.entrants;
        if self.seats.is_empty() {
            self.seats = games
                .iter()
                .map(|g| {
                    let mut n = vec![0.0; e_count];
                    for &e in &g.seating {
                        n[e] += 1.0;
                    }
                    n
                })
                .collect();
            self.wins = vec![vec![0.0; e_count]; games.len()];
        }
        let mut won = vec![0.0; e_count];
        let mut decided = Vec::with_capacity(games.len());
        for (k, g) in games.iter().enumerate() {
            let winner = g.winner.map(|seat| g.seating[seat]);
            decided.push(winner.is_some());
            if let Some(e) = winner {
                self.wins[k][e] += 1.0;
                won[e] += 1.0;
            }
        }
        let group = self.groups.entry(decided).or_insert_with(|| Group {
            deals: 0.0,
            sum: vec![0.0; e_count],
            outer: vec![vec![0.0; e_count]; e_count],
        });
        group.deals += 1.0;
        for i in 0..e_count {
            group.sum[i] += won[i];
            for j in 0..e_count {
                group.outer[i][j] += won[i] * won[j];
            }
        }
    }

    /// Games of seating `k` that had a winner.
    fn decided(&self, k: usize) -> f64 {
        self.wins[k].iter().sum()
    }

    /// The fitted strengths `γ` (the anchor is 1; without a prior, their geometric mean is 1).
    pub fn strengths(&self) -> Vec<f64> {
        let e_count = self.entrants;
        let mut gamma = vec![1.0; e_count];
        let total_wins: Vec<f64> = (0..e_count).map(|e| self.wins.iter().map(|w| w[e]).sum::<f64>()).collect();
        for _ in 0..MAX_ITERATIONS {
            let mut next = vec![0.0; e_count];
            for e in 0..e_count {
                let mut denominator = 0.0;
                for (k, n) in self.seats.iter().enumerate() {
                    if n[e] > 0.0 {
                        let strength: f64 = n.iter().zip(&gamma).map(|(n, g)| n * g).sum();
                        denominator += self.decided(k) * n[e] / strength;
                    }
                }
                denominator += 2.0 * self.prior / (gamma[e] + 1.0);
                next[e] = if denominator > 0.0 { (total_wins[e] + self.prior) / denominator } else { gamma[e] };
            }
            if self.prior == 0.0 {
                // Only ratios are identified: pin the geometric mean, for a fixed point to exist.
                let positive: Vec<f64> = next.iter().copied().filter(|g| *g > 0.0).collect();
                if !positive.is_empty() {
                    let mean = (positive.iter().map(|g| g.ln()).sum::<f64>() / positive.len() as f64).exp();
                    next.iter_mut().for_each(|g| *g /= mean);
                }
            }
            let moved = next.iter().zip(&gamma).map(|(a, b)| ((a - b) / b.max(1e-300)).abs()).fold(0.0, f64::max);
            gamma = next;
            if moved < TOLERANCE {
                break;
            }
        }
        gamma
    }

    /// The win probabilities of each seating at strengths `gamma`.
    fn chances(&self, gamma: &[f64]) -> Vec<Vec<f64>> {
        self.seats
            .iter()
            .map(|n| {
                let strength: f64 = n.iter().zip(gamma).map(|(n, g)| n * g).sum();
                n.iter().zip(gamma).map(|(n, g)| n * g / strength).collect()
            })
            .collect()
    }

    /// The covariance of `θ = ln γ` over deals, with the last entrant's `θ` held at its fitted
    /// value (the model fixes only differences); `None` when it is singular.
    fn covariance(&self, gamma: &[f64]) -> Option<Vec<Vec<f64>>> {
        let free = self.entrants - 1;
        let p = self.chances(gamma);
        // Information: Σ_k N_k (diag p_k − p_k p_kᵀ).
        let mut h = vec![vec![0.0; free]; free];
        for (k, pk) in p.iter().enumerate() {
            let n = self.decided(k);
            for i in 0..free {
                h[i][i] += n * pk[i];
                for j in 0..free {
                    h[i][j] -= n * pk[i] * pk[j];
                }
            }
        }
        // Σ_d s_d s_dᵀ with s_d = a_d − b, b the expected wins of the group's decided seatings:
        // Σ a aᵀ − (Σ a) bᵀ − b (Σ a)ᵀ + D b bᵀ per group.
        let mut m = vec![vec![0.0; free]; free];
        for (decided, g) in &self.groups {
            let mut b = vec![0.0; self.entrants];
            for (k, pk) in p.iter().enumerate() {
                if decided.get(k).copied().unwrap_or(false) {
                    b.iter_mut().zip(pk).for_each(|(b, p)| *b += p);
                }
            }
            for i in 0..free {
                for j in 0..free {
                    m[i][j] += g.outer[i][j] - g.sum[i] * b[j] - b[i] * g.sum[j] + g.deals * b[i] * b[j];
                }
            }
        }
        let h_inv = invert(&h)?;
        Some(product(&product(&h_inv, &m), &h_inv))
    }

    /// Fits the model and names the entrants.
    pub fn ratings(&self, names: &[String]) -> Ratings {
        let gamma = self.strengths();
        let theta: Vec<f64> = gamma.iter().map(|g| g.max(1e-300).ln()).collect();
        let mean = theta.iter().sum::<f64>() / theta.len().max(1) as f64;
        let deals: f64 = self.groups.values().map(|g| g.deals).sum();
        let won_every: bool = (0..self.entrants).all(|e| self.wins.iter().any(|w| w[e] > 0.0));
        let covariance = (deals >= 2.0 && won_every && self.entrants >= 2).then(|| self.covariance(&gamma)).flatten();
        let ratings = (0..self.entrants)
            .map(|e| {
                let elo = ELO * (theta[e] - mean);
                // Centred rating c_e = θ_e − mean(θ) as a combination of the free θs.
                let ci95 = covariance.as_ref().map(|v| {
                    let free = self.entrants - 1;
                    let weight = |i: usize| if i == e { 1.0 } else { 0.0 } - 1.0 / self.entrants as f64;
                    let var: f64 = v
                        .iter()
                        .take(free)
                        .enumerate()
                        .map(|(i, row)| {
                            row.iter().take(free).enumerate().map(|(j, x)| weight(i) * x * weight(j)).sum::<f64>()
                        })
                        .sum();
                    let half = Z95 * ELO * var.max(0.0).sqrt();
                    [elo - half, elo + half]
                });
                Rating { bot: names.get(e).cloned().unwrap_or_default(), elo, ci95 }
            })
            .collect();
        let games = self.wins.iter().map(|w| w.iter().sum::<f64>()).sum::<f64>() as u64;
        Ratings { model: "plackett-luce-first-place", ratings, games }
    }
}

fn product(a: &[Vec<f64>], b: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let n = b.first().map_or(0, Vec::len);
    a.iter().map(|row| (0..n).map(|j| row.iter().zip(b).map(|(x, col)| x * col[j]).sum()).collect()).collect()
}

/// Gauss–Jordan inverse with partial pivoting; `None` when singular.
fn invert(a: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut m: Vec<Vec<f64>> = a
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let mut r = row.clone();
            r.extend((0..n).map(|j| if i == j { 1.0 } else { 0.0 }));
            r
        })
        .collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| m[x][col].abs().total_cmp(&m[y][col].abs()))?;
        if m[pivot][col].abs() < 1e-12 {
            return None;
        }
        m.swap(col, pivot);
        let p = m[col][col];
        m[col].iter_mut().for_each(|x| *x /= p);
        for row in 0..n {
            if row != col {
                let f = m[row][col];
                if f != 0.0 {
                    let pivot_row = m[col].clone();
                    m[row].iter_mut().zip(&pivot_row).for_each(|(x, p)| *x -= f * p);
                }
            }
        }
    }
    Some(m.into_iter().map(|r| r[n..].to_vec()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(seating: &[usize], winner_seat: Option<usize>) -> MatchGame {
        MatchGame { seating: seating.to_vec(), winner: winner_seat, points: 0, decisions: 1, stuck: false }
    }

    fn names(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("bot{i}")).collect()
    }

    /// Four one-game deals, A wins three: θ_A − θ_B = ln 3; by hand, H = 4 · ¾ · ¼ = ¾, the deal
    /// scores are ¼ (three times) and −¾, so Σ s² = ¾ and var(θ_A − θ_B) = (4/3)(3/4)(4/3) = 4/3.
    #[test]
    fn a_small_case_matches_the_hand_computed_fit_and_variance() {
        let mut data = RatingData::new(2).without_prior();
        for winner in [0, 0, 0, 1] {
            data.add_deal(&[game(&[0, 1], Some(winner))]);
        }
        let r = data.ratings(&names(2));
        let gap = r.ratings[0].elo - r.ratings[1].elo;
        assert!((gap - 400.0 * 3f64.log10()).abs() < 1e-6, "gap {gap}");
        assert!((r.ratings[0].elo + r.ratings[1].elo).abs() < 1e-9);
        // Centred: c_A = (θ_A − θ_B)/2, so its standard error is half of sqrt(4/3).
        let [lo, hi] = r.ratings[0].ci95.expect("an interval");
        let half = Z95 * ELO * (4.0f64 / 3.0).sqrt() / 2.0;
        assert!(((hi - lo) / 2.0 - half).abs() < 1e-6, "half-width {} vs {half}", (hi - lo) / 2.0);
        assert_eq!(r.games, 4);
    }

    /// With identical bots, a rotated deal's winning seat is the same in every seating, so each
    /// entrant wins in proportion to the seats it holds: equal ratings and no variance at all.
    #[test]
    fn identical_bots_in_rotation_rate_equal_with_a_zero_width_interval() {
        let seatings = crate::duplicate::seatings(crate::Format::Rotate, 2, 4);
        let mut data = RatingData::new(2);
        for deal in 0..40usize {
            let seat = deal % 4;
            let games: Vec<MatchGame> = seatings.iter().map(|s| game(s, Some(seat))).collect();
            data.add_deal(&games);
        }
        let r = data.ratings(&names(2));
        for rating in &r.ratings {
            assert!(rating.elo.abs() < 1e-6, "{rating:?}");
            let [lo, hi] = rating.ci95.expect("an interval");
            assert!((hi - lo).abs() < 1e-6, "{rating:?}");
        }
    }

    /// Three entrants with known strengths 4 : 2 : 1, one seat each, winners drawn from the model:
    /// the fit finds the ratios and its intervals cover them.
    #[test]
    fn simulated_strengths_are_recovered_within_their_intervals() {
        let strength = [4.0, 2.0, 1.0];
        let seatings = crate::duplicate::seatings(crate::Format::AllSeatings, 3, 3);
        let mut data = RatingData::new(3);
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut uniform = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        for _ in 0..3000 {
            let games: Vec<MatchGame> = seatings
                .iter()
                .map(|s| {
                    let total: f64 = s.iter().map(|&e| strength[e]).sum();
                    let mut x = uniform() * total;
                    let mut winner = s.len() - 1;
                    for (seat, &e) in s.iter().enumerate() {
                        x -= strength[e];
                        if x < 0.0 {
                            winner = seat;
                            break;
                        }
                    }
                    game(s, Some(winner))
                })
                .collect();
            data.add_deal(&games);
        }
        let r = data.ratings(&names(3));
        let mean_ln = strength.iter().map(|s: &f64| s.ln()).sum::<f64>() / 3.0;
        for (e, rating) in r.ratings.iter().enumerate() {
            let truth = ELO * (strength[e].ln() - mean_ln);
            let [lo, hi] = rating.ci95.expect("an interval");
            assert!(lo <= truth && truth <= hi, "entrant {e}: {truth} outside {lo}..{hi}");
            assert!(hi - lo < 60.0, "entrant {e}: interval too wide {lo}..{hi}");
        }
        assert!(r.ratings[0].elo > r.ratings[1].elo && r.ratings[1].elo > r.ratings[2].elo);
    }

    #[test]
    fn an_entrant_that_never_wins_gets_a_finite_rating_and_no_interval() {
        let mut data = RatingData::new(2);
        for _ in 0..10 {
            data.add_deal(&[game(&[0, 1], Some(0)), game(&[1, 0], Some(1))]);
        }
        let r = data.ratings(&names(2));
        assert!(r.ratings.iter().all(|x| x.elo.is_finite()));
        assert!(r.ratings[0].elo > 0.0 && r.ratings[1].elo < 0.0);
        assert!(r.ratings.iter().all(|x| x.ci95.is_none()));
    }

    #[test]
    fn games_without_a_winner_are_left_out() {
        let mut data = RatingData::new(2).without_prior();
        for winner in [Some(0), Some(0), Some(0), Some(1), None, None] {
            data.add_deal(&[game(&[0, 1], winner)]);
        }
        let r = data.ratings(&names(2));
        assert_eq!(r.games, 4);
        assert!((r.ratings[0].elo - r.ratings[1].elo - 400.0 * 3f64.log10()).abs() < 1e-6);
    }
}
