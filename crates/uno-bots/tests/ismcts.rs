//! The search's budget: stopping early gives the moves of the whole budget; worlds found to fit
//! the others' plays can be reused; the flat search's options each change its play.

use std::sync::Arc;

use uno::{Game, Rules, Seat};
use uno_bots::{make_bot, Bot, HeuristicConfig, IsmctsBot, IsmctsConfig, SearchStats};

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
    let (actions, stats) = play_and_count(config, games);
    (actions, stats.resamples)
}

/// [`play_against_heuristic`], with the search's totals.
fn play_and_count(config: &IsmctsConfig, games: u64) -> (Vec<uno::Action>, SearchStats) {
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
    (actions, search.stats())
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

#[test]
fn the_flat_bot_is_deterministic() {
    let config = IsmctsConfig { iterations: 120, ..IsmctsConfig::flat_model() };
    let (a, dealt) = play_against_heuristic(&config, 4);
    let (b, _) = play_against_heuristic(&config, 4);
    assert!(a.len() > 20, "{} decisions", a.len());
    assert_eq!(a, b, "the same seed plays the same game");
    assert!(dealt > 0, "its worlds fit the others' plays");
    let named: uno_bots::BotSpec = "flat:120".parse().expect("a bot name");
    assert_eq!(named.ismcts_config(), Some(config));
}

#[test]
fn the_flat_options_are_deterministic_and_change_its_play() {
    let flat = IsmctsConfig { iterations: 120, ..IsmctsConfig::flat_model() };
    let (base, base_stats) = play_and_count(&flat, 4);
    let variants = [
        ("particles", IsmctsConfig { particles: 64, ..flat.clone() }),
        ("flat_extend", IsmctsConfig { flat_extend: 3, ..flat.clone() }),
        (
            "own_weights",
            IsmctsConfig {
                own_weights: Some(HeuristicConfig { keep_wild: -200.0, ..HeuristicConfig::default() }),
                ..flat.clone()
            },
        ),
    ];
    for (name, config) in variants {
        let (a, stats) = play_and_count(&config, 4);
        let (b, _) = play_and_count(&config, 4);
        assert_eq!(a, b, "{name}: the same seed plays the same game");
        assert_ne!(a, base, "{name} changed no decision");
        if name == "flat_extend" {
            // Close calls get more worlds than the budget: more playouts a search.
            let per = |s: SearchStats| s.iterations as f64 / s.searches.max(1) as f64;
            assert!(per(stats) > per(base_stats), "{} playouts a search, {} without", per(stats), per(base_stats));
        }
    }
    // The default weights given as the bot's own are the same bot.
    let same = IsmctsConfig { own_weights: Some(HeuristicConfig::default()), ..flat.clone() };
    assert_eq!(play_against_heuristic(&same, 4).0, base);
}

/// Seat 0's hand and the next seat's (its last card, which seat 0 is told), red 1 on top;
/// seat 0 has called UNO.
fn last_card_position(next: &str) -> Game {
    let rules = Arc::new(Rules::preset("official").expect("preset"));
    let cards = |s: &str| -> Vec<uno::Card> { s.split_whitespace().map(|c| c.parse().expect("a card")).collect() };
    let hands = vec![cards("R4 B1"), cards(next), cards("G2 G3 G4 G5 G6"), cards("Y2 Y3 Y4 Y5 Y6")];
    let mut rest = rules.deck().to_vec();
    for c in hands.iter().flatten().chain(&cards("R1")) {
        let i = rest.iter().position(|x| x == c).expect("in the deck");
        rest.remove(i);
    }
    // The deck's order read top card first, as before piles were listed bottom first.
    rest.reverse();
    let deal = uno::game::Deal::new(hands, rest, cards("R1"), Seat(0));
    let mut game = Game::from_position(rules, &deal.into_position(5)).expect("a valid position");
    game.apply(Seat(0), uno::Action::CallUno).expect("two cards: UNO may be called");
    game
}

#[test]
fn the_flat_bot_keeps_the_next_seat_from_going_out() {
    // The heuristic dumps the red 4 (more points while a seat is down to one card), and the
    // next seat goes out with its red 7; the blue 1 (on the red 1's face) stops it.
    let game = last_card_position("R7");
    let view = game.view(Seat(0));
    let red_four = uno::Action::Play { card: "R4".parse().expect("a card"), color: None };
    let blue_one = uno::Action::Play { card: "B1".parse().expect("a card"), color: None };
    assert_eq!(make_bot("heuristic", 0).expect("a bot").choose_view(&view), red_four);
    let mut flat = IsmctsBot::new(IsmctsConfig { iterations: 400, ..IsmctsConfig::flat_model() }, 1);
    flat.know_cards(Seat(1), vec!["R7".parse().expect("a card")]);
    assert_eq!(flat.choose_view(&view), blue_one);
    // With a margin no move can pass, it plays the heuristic's move whatever it knows.
    let config = IsmctsConfig { iterations: 400, flat_margin: 1.0, ..IsmctsConfig::flat_model() };
    let mut timid = IsmctsBot::new(config, 1);
    timid.know_cards(Seat(1), vec!["R7".parse().expect("a card")]);
    assert_eq!(timid.choose_view(&view), red_four);
    // Told the next seat holds a blue 7 instead, it plays the red 4.
    let game = last_card_position("B7");
    let mut flat = IsmctsBot::new(IsmctsConfig { iterations: 400, ..IsmctsConfig::flat_model() }, 1);
    flat.know_cards(Seat(1), vec!["B7".parse().expect("a card")]);
    assert_eq!(flat.choose_view(&game.view(Seat(0))), red_four);
}
