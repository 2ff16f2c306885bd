use super::*;
use crate::moments::Z95;

#[test]
fn rotate_moves_the_challenger_through_every_seat() {
    assert_eq!(seatings(Format::Rotate, 2, 4), [[0, 1, 1, 1], [1, 0, 1, 1], [1, 1, 0, 1], [1, 1, 1, 0]]);
    assert_eq!(lineup(3, 4), [0, 1, 2, 1]);
    assert_eq!(seatings(Format::AllSeatings, 2, 4).len(), 4);
    assert_eq!(seatings(Format::AllSeatings, 4, 4).len(), 24);
    assert_eq!(seatings(Format::AllSeatings, 3, 4).len(), 12);
    assert_eq!(multinomial(4, &[1, 2, 1]), 12);
    assert_eq!(multinomial(10, &[1, 1, 1, 1, 1, 1, 1, 1, 1, 1]), 3_628_800);
}

#[test]
fn a_round_robin_seats_every_group_in_every_seat() {
    let all = seatings(Format::RoundRobin, 5, 4);
    assert_eq!(all.len(), 5 * 4);
    assert_eq!(choose(5, 4), 5);
    assert_eq!(choose(7, 4), 35);
    for s in &all {
        let mut sorted = s.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), 4, "{s:?} seats a bot twice");
    }
    // Every pair of bots meets, and every bot sits in every seat equally often.
    for a in 0..5 {
        for b in 0..5 {
            if a != b {
                assert!(all.iter().any(|s| s.contains(&a) && s.contains(&b)), "{a} never meets {b}");
            }
        }
        for seat in 0..4 {
            assert_eq!(all.iter().filter(|s| s[seat] == a).count(), 4, "bot {a} at seat {seat}");
        }
    }
    assert_eq!(groups(3, 3), [[0, 1, 2]]);
}

/// Two deals of two games each, small enough to check by hand.
#[test]
fn the_variance_estimate_of_a_small_case_is_the_hand_computed_one() {
    let mut p = Paired::default();
    p.add_deal(&[1.0, 1.0]);
    p.add_deal(&[0.0, 0.0]);
    // Games 1, 1, 0, 0: mean 1/2, sample variance (4 · 1/4) / 3 = 1/3, of the mean 1/12.
    assert!((p.games.variance() - 1.0 / 3.0).abs() < 1e-12);
    // Deals 1, 0: sample variance 1/2, of the mean 1/4.
    assert!((p.deals.variance() - 0.5).abs() < 1e-12);
    // (1/12) / (1/4): these deals are worse than independent games.
    assert!((p.variance_reduction().expect("finite") - 1.0 / 3.0).abs() < 1e-12);
    let [lo, hi] = p.deals.ci95().expect("two deals");
    assert!((lo - (0.5 - Z95 * 0.5)).abs() < 1e-12 && (hi - (0.5 + Z95 * 0.5)).abs() < 1e-12);

    // Each deal won once in two games: the deals agree, the games do not.
    let mut q = Paired::default();
    q.add_deal(&[1.0, 0.0]);
    q.add_deal(&[0.0, 1.0]);
    q.add_deal(&[1.0, 0.0]);
    assert_eq!(q.deals.variance(), 0.0);
    assert_eq!(q.variance_reduction(), None);
    // A third deal that differs: deals 1/2, 1/2, 1 → var 1/12, of the mean 1/36; games
    // 1,0,0,1,1,1 → mean 2/3, var (4·1/9 + 2·4/9)/5 = 4/15, of the mean 4/90.
    let mut r = Paired::default();
    r.add_deal(&[1.0, 0.0]);
    r.add_deal(&[0.0, 1.0]);
    r.add_deal(&[1.0, 1.0]);
    assert!((r.deals.variance() - 1.0 / 12.0).abs() < 1e-12);
    assert!((r.games.variance() - 4.0 / 15.0).abs() < 1e-12);
    assert!((r.variance_reduction().expect("finite") - (4.0 / 90.0) / (1.0 / 36.0)).abs() < 1e-12);
}
