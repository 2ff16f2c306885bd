//! The search's budget: stopping early gives the moves of the whole budget; worlds found to fit
//! the others' plays can be reused.

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

/// Plays rounds of a search in seat 0 against `heuristic` bots; returns its actions and the
/// extra worlds it dealt to fit the others' plays.
fn play_against_heuristic(config: &IsmctsConfig, games: u64) -> (Vec<uno::Action>, u64) {
    let rules = Arc::new(Rules::preset("official").expect("preset"));
    let mut search = IsmctsBot::new(config.clone(), 3);
    let mut actions = Vec::new();
    for g in 0..games {
        let mut game = Game::new_fast(rules.clone(), 4, 70 + g).expect("four seats");
        let mut others: Vec<Box<dyn Bot>> = (0..4).map(|s| make_bot("heuristic", s).expect("a bot")).collect();
        search.reseed(g);
        while !game.is_round_over() {
            let seat = game.current();
            let view = game.view(seat);
            let action = if seat == Seat(0) {
                let a = search.choose_view(&view);
                actions.push(a);
                a
            } else {
                others[seat.index()].choose_view(&view)
            };
            game.apply(seat, action).expect("a legal action");
        }
    }
    (actions, search.stats().resamples)
}

#[test]
fn reusing_fitted_worlds_is_deterministic_and_deals_fewer() {
    let config = IsmctsConfig { iterations: 200, infer_plays: true, ..IsmctsConfig::default() };
    let reusing = IsmctsConfig { world_reuse: 4, ..config.clone() };
    let (a, _) = play_against_heuristic(&reusing, 4);
    let (b, dealt_reusing) = play_against_heuristic(&reusing, 4);
    assert_eq!(a, b, "the same seed plays the same game");
    let (_, dealt) = play_against_heuristic(&config, 4);
    assert!(dealt > 0, "the plays ruled worlds out");
    assert!(dealt_reusing * 2 < dealt, "{dealt_reusing} extra deals reusing worlds, {dealt} not");
}
