//! `Game::round_result` is the round's tally as the engine scored it: on every rule set its
//! points are the `round_scored` event's, its hands the game's with the rules' points, its
//! totals the scores, and it exists exactly while a round (or the game) is over.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use uno::testing::rule_sets;
use uno::{Event, Game};

#[test]
fn the_round_result_is_what_the_engine_scored_on_every_rule_set() {
    let mut scored = 0;
    for set in rule_sets() {
        let players = 3.clamp(set.rules.min_players(), set.rules.max_players());
        for seed in 0..4 {
            let mut game = Game::new(set.rules.clone(), players, seed).expect("deal");
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            for _ in 0..3_000 {
                assert_eq!(game.round_result().is_some(), game.is_round_over(), "{}", set.name);
                if game.is_over() {
                    break;
                }
                let legal = game.legal_actions();
                let events = game.apply(game.current(), legal[rng.gen_range(0..legal.len())]).expect("legal");
                let result = game.round_result();
                for e in &events {
                    if let Event::RoundScored { winner, points, totals } = e {
                        let r = result.as_ref().expect("a scored round has a result");
                        assert_eq!((r.winner, r.points, &r.totals), (Some(*winner), *points, totals), "{}", set.name);
                        scored += 1;
                    }
                }
                if let Some(r) = result {
                    assert_eq!(r.round, game.round());
                    assert_eq!(r.totals, game.scores());
                    assert_eq!(r.game_over, game.is_over());
                    assert_eq!(r.match_winner, game.outcome().and_then(|o| o.winner));
                    for (h, hand) in r.hands.iter().zip(game.hands()) {
                        assert_eq!(h.cards, hand.as_slice());
                        assert_eq!(h.points, hand.iter().map(|&c| game.rules().points(c)).sum::<u32>());
                    }
                    let sum: u32 = r.hands.iter().map(|h| h.points).sum();
                    assert_eq!(r.points, if r.winner.is_some() { sum } else { 0 }, "{}", set.name);
                }
            }
        }
    }
    assert!(scored > 100, "{scored}");
}
