//! Duplicate matches: the seating and seed bookkeeping, through the public runner.

use std::sync::Arc;

use uno::Rules;
use uno_bots::BotSpec;
use uno_lab::duplicate::{check, play_deal};
use uno_lab::{play_match, Decision, Format, MatchConfig, MatchError, Sprt};

fn config(bots: &[&str], format: Format, deals: u64) -> MatchConfig {
    MatchConfig {
        rules: Arc::new(Rules::preset("official").expect("preset")),
        players: 4,
        bots: bots.iter().map(|b| b.parse::<BotSpec>().expect("bot")).collect(),
        format,
        deals,
        seed: 7,
        threads: 2,
        sprt: None,
        adjust: None,
    }
}

/// Identical bots on the same seeds play the same game in every seating: only who is credited
/// changes, and it moves with the seat.
#[test]
fn identical_bots_in_rotate_play_each_deal_as_the_same_game_permuted() {
    for bot in ["heuristic", "random", "ismcts:20"] {
        let c = config(&[bot, bot], Format::Rotate, 12);
        let seatings = check(&c).expect("valid");
        let mut credited = [0u32; 2];
        for deal in 0..12 {
            let games = play_deal(&c, &seatings, deal).expect("plays");
            assert_eq!(games.len(), 4);
            for g in &games[1..] {
                assert_eq!((g.winner, g.points, g.decisions), (games[0].winner, games[0].points, games[0].decisions));
            }
            if let Some(w) = games[0].winner {
                // Entrant 0 sits in seat k of seating k: it wins exactly the seating that put
                // it in the winning seat.
                let won: Vec<bool> = games.iter().map(|g| g.seating[w] == 0).collect();
                assert_eq!(won.iter().filter(|&&x| x).count(), 1, "{won:?}");
                assert!(won[w]);
                credited[0] += 1;
                credited[1] += 3;
            }
        }
        let results = play_match(&c, &|_| {}).expect("match");
        assert_eq!(results.entrants[0].wins as u32, credited[0], "{bot}");
        assert_eq!(results.entrants[1].wins as u32, credited[1], "{bot}");
        // Both win a quarter of their seats in every deal: the difference never varies.
        let d = results.difference.win_share;
        assert!(d.mean.abs() < 1e-12, "{d:?}");
        let [lo, hi] = d.ci95.expect("interval");
        assert!(hi - lo < 1e-12 && d.variance_reduction.is_none(), "{d:?}");
    }
}

/// Different bots on one deal see the same cards: the first seating's game differs from an
/// independent deal's, and replaying gives the same records on any thread count.
#[test]
fn a_match_replays_exactly_on_any_thread_count() {
    let mut one = config(&["heuristic", "random"], Format::AllSeatings, 70);
    one.threads = 1;
    let two = MatchConfig { threads: 2, ..one.clone() };
    let a = play_match(&one, &|_| {}).expect("match");
    let b = play_match(&two, &|_| {}).expect("match");
    assert_eq!(a, b);
    assert_eq!(a.games, 70 * 4);
    assert_eq!(a.entrants[0].seat_games, 70 * 4);
    assert_eq!(a.entrants[1].seat_games, 70 * 12);
    // heuristic beats random clearly, and the interval says so.
    let [lo, _] = a.difference.win_share.ci95.expect("interval");
    assert!(lo > 0.0, "{:?}", a.difference);
}

#[test]
fn the_sequential_test_stops_early_once_decided() {
    let mut c = config(&["heuristic", "heuristic"], Format::Rotate, 10_000);
    c.sprt = Some(Sprt::new(0.0, 0.02, 0.05, 0.05).expect("valid"));
    let r = play_match(&c, &|_| {}).expect("match");
    let report = r.sprt.expect("a test ran");
    assert_eq!(report.decision, Decision::AcceptH0);
    assert!(r.deals < 10_000 && r.deals == report.n, "{} deals", r.deals);

    let mut c = config(&["heuristic", "random"], Format::Rotate, 10_000);
    c.sprt = Some(Sprt::new(0.0, 0.02, 0.05, 0.05).expect("valid"));
    let r = play_match(&c, &|_| {}).expect("match");
    assert_eq!(r.sprt.expect("a test ran").decision, Decision::AcceptH1);
    assert!(r.deals < 10_000);
}

#[test]
fn refuses_matches_that_cannot_be_played() {
    let err = |c: MatchConfig| play_match(&c, &|_| {}).expect_err("refused");
    assert!(matches!(err(config(&["heuristic"], Format::Rotate, 5)), MatchError::TooFewBots(1)));
    assert!(matches!(
        err(config(&["random", "random", "random", "random", "random"], Format::Rotate, 5)),
        MatchError::TooManyBots { .. }
    ));
    assert!(matches!(err(config(&["random", "heuristic"], Format::Rotate, 0)), MatchError::NoDeals));
    let mut ten = config(&["random", "heuristic", "first", "precedence"], Format::AllSeatings, 5);
    ten.players = 10;
    assert!(matches!(err(ten), MatchError::TooManySeatings(_)));
}

/// Under seed 000's precedence the engine leaves no choice: two different bots make the same
/// moves, so a match between them is exactly even, deal by deal.
#[test]
fn under_the_precedence_different_bots_are_exactly_even() {
    for bots in [["heuristic", "random"], ["uniform", "first"]] {
        let mut c = config(&bots, Format::Rotate, 40);
        c.rules = Arc::new(Rules::preset("csce322").expect("preset"));
        let results = play_match(&c, &|_| {}).expect("match");
        let (a, b) = (&results.entrants[0], &results.entrants[1]);
        // Per seat held (the lineup seats them unequally): the same wins and points exactly.
        assert_eq!(a.wins * b.seat_games, b.wins * a.seat_games, "{bots:?}");
        assert_eq!(a.points * b.seat_games, b.points * a.seat_games, "{bots:?}");
        assert!(a.wins > 0, "{bots:?}: the games had winners");
        let d = results.difference.win_share;
        assert!(d.mean.abs() < 1e-12, "{bots:?}: {d:?}");
    }
}
