//! The search's budget: stopping early gives the moves of the whole budget.

use std::sync::Arc;

use uno::{Game, Rules, Seat};
use uno_bots::{make_bot, Bot, IsmctsBot, IsmctsConfig};

/// Plays rounds of a stopping search in seat 0 against `heuristic` bots; at each of its
/// decisions a search with the same seed and the whole budget must choose the same move.
/// Returns the iterations both spent.
fn compare_at_each_decision(iterations: u32, games: u64) -> (u64, u64) {
    let rules = Arc::new(Rules::preset("official").expect("preset"));
    let stopping = IsmctsConfig { iterations, early_stop: true, ..IsmctsConfig::default() };
    let whole = IsmctsConfig { early_stop: false, ..stopping.clone() };
    let (mut spent, mut budget) = (0, 0);
    for g in 0..games {
        let mut game = Game::new_fast(rules.clone(), 4, 40 + g).expect("four seats");
        let mut others: Vec<Box<dyn Bot>> = (0..4).map(|s| make_bot("heuristic", s).expect("a bot")).collect();
        let mut decision = 0;
        while !game.is_round_over() {
            let seat = game.current();
            let view = game.view(seat);
            let action = if seat == Seat(0) {
                decision += 1;
                // Fresh bots: one decision each, from the same seed.
                let seed = g * 1000 + decision;
                let mut a = IsmctsBot::new(stopping.clone(), seed);
                let mut b = IsmctsBot::new(whole.clone(), seed);
                let (x, y) = (a.choose_view(&view), b.choose_view(&view));
                assert_eq!(x, y, "game {g}, decision {decision}");
                spent += a.stats().iterations;
                budget += b.stats().iterations;
                x
            } else {
                others[seat.index()].choose_view(&view)
            };
            game.apply(seat, action).expect("a legal action");
        }
    }
    (spent, budget)
}

#[test]
fn stopping_early_chooses_what_the_whole_budget_would() {
    let (spent, budget) = compare_at_each_decision(1024, 6);
    assert!(budget > 10_000, "searches ran: {budget}");
    assert!(spent < budget, "some searches stopped early: {spent} of {budget}");
}
