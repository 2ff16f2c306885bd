//! Luck-adjusted matches (`uno_lab::adjust`): the adjustment takes nothing from the expected
//! difference. Identical bots stay at zero, the luck taken away averages zero, and a real
//! difference is found where the plain estimate finds it.

use std::sync::Arc;

use uno::{Game, Rules};
use uno_bots::{Bot, BotSpec};
use uno_lab::adjust::{play_out, LuckAdjuster};
use uno_lab::duplicate::Estimate;
use uno_lab::moments::Moments;
use uno_lab::{play_match, Format, MatchConfig};

fn config(bots: &[&str], deals: u64, seed: u64, adjust: bool) -> MatchConfig {
    MatchConfig {
        rules: Arc::new(Rules::preset("official").expect("preset")),
        players: 4,
        bots: bots.iter().map(|b| b.parse::<BotSpec>().expect("bot")).collect(),
        format: Format::Rotate,
        deals,
        seed,
        threads: 2,
        sprt: None,
        adjust: adjust.then(uno_lab::shipped_value),
    }
}

fn contains(e: &Estimate, x: f64) -> bool {
    let [lo, hi] = e.ci95.expect("an interval");
    lo - 1e-12 <= x && x <= hi + 1e-12
}

/// Identical bots: the adjusted difference's interval holds zero, and so does the interval of
/// the per-deal luck taken away. (Rotation makes both exactly zero for identical bots on the
/// same seeds: each seat's luck is credited to both entrants alike.)
#[test]
fn identical_bots_stay_at_zero_after_the_adjustment() {
    let r = play_match(&config(&["random", "random"], 24, 5, true), &|_| {}).expect("match");
    let a = r.adjusted.expect("adjusted");
    assert!(contains(&a.win_share, 0.0), "{a:?}");
    assert!(contains(&a.correction, 0.0), "{a:?}");
    assert!(a.win_share.mean.abs() < 1e-9 && a.correction.mean.abs() < 1e-9, "{a:?}");
}

/// The luck of one seat, over independent games, averages zero: its mean's 99.9% interval
/// (z = 3.29: one false alarm in a thousand) holds zero, with the look-ahead valuation and
/// without, while the luck itself varies. The seat is `heuristic` among three `random` bots:
/// at a table of alike bots every seat's mean luck would
/// be zero by symmetry alone (the dealer is random and the luck sums to zero over the table),
/// whatever the estimator.
#[test]
fn a_seats_luck_averages_zero_over_independent_games() {
    let rules = Arc::new(Rules::preset("official").expect("preset"));
    for lookahead in [true, false] {
        let mut adjuster = LuckAdjuster::with_lookahead(uno_lab::shipped_value(), lookahead);
        let mut seat0 = Moments::default();
        for seed in 0..300u64 {
            let mut game = Game::new_fast(rules.clone(), 4, 1_000 + seed).expect("a game");
            let mut bots: Vec<Box<dyn Bot>> =
                (0..4).map(|s| if s == 0 { BotSpec::Heuristic } else { BotSpec::Random }.build(seed * 8 + s)).collect();
            let mut luck = [0.0; 4];
            let (_, stuck) = play_out(&mut game, &mut bots, &mut adjuster, &mut luck, 100_000);
            assert!(!stuck);
            seat0.add(luck[0]);
        }
        let half = 3.29 * seat0.variance_of_mean().sqrt();
        let (lo, hi) = (seat0.mean() - half, seat0.mean() + half);
        assert!(lo <= 0.0 && 0.0 <= hi, "lookahead {lookahead}: mean luck {} in [{lo}, {hi}]", seat0.mean());
        assert!(seat0.variance() > 1e-3, "lookahead {lookahead}: the luck varies");
    }
}

/// A known difference (`heuristic` against `random`, about +13 points, measured plainly on
/// 3,000 deals here): the adjusted estimate of 150 other deals finds it within its interval and
/// within the same run's plain interval.
#[test]
fn a_known_difference_is_recovered_by_the_adjusted_estimate() {
    let reference = play_match(&config(&["heuristic", "random"], 3_000, 77, false), &|_| {}).expect("match");
    let truth = reference.difference.win_share.mean;
    assert!(truth > 0.05, "heuristic beats random: {truth}");
    let r = play_match(&config(&["heuristic", "random"], 150, 78, true), &|_| {}).expect("match");
    let a = r.adjusted.expect("adjusted");
    assert!(contains(&a.win_share, truth), "adjusted {:?}, plain reference {truth}", a.win_share);
    assert!(
        contains(&r.difference.win_share, a.win_share.mean),
        "adjusted {:?} in plain {:?}",
        a.win_share,
        r.difference.win_share
    );
    assert!(contains(&a.correction, 0.0), "luck taken away {:?}", a.correction);
}
