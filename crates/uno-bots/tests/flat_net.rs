//! `flat`'s root estimates (the teacher data of `training/train_distill.py`) and `flat+net`
//! (the search over the learned network's best moves): legal on random tables of every preset,
//! recording changes no move, and the pruned search compares exactly the network's best moves.

use std::sync::Arc;

use proptest::prelude::*;
use uno::game::Game;
use uno::{Action, Rules, PRESET_NAMES};
use uno_bots::{make_bot, Bot, BotSpec, IsmctsBot, IsmctsConfig, NetBot};

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    #[test]
    fn flat_net_never_picks_an_illegal_action(preset in 0..PRESET_NAMES.len(), players in 2usize..=6, seed: u64) {
        let rules = Arc::new(Rules::preset(PRESET_NAMES[preset]).expect("preset"));
        let Ok(mut game) = Game::new(rules, players, seed) else { return Ok(()) };
        let mut guided = make_bot("flat+net:40", seed).expect("flat+net");
        let mut other = make_bot("random", seed).expect("random");
        for _ in 0..2_000 {
            if game.is_round_over() {
                break;
            }
            let seat = game.current();
            let view = game.view(seat);
            let action = if seat.index() % 2 == 0 { guided.choose_view(&view) } else { other.choose_view(&view) };
            prop_assert!(game.check(seat, action).is_ok(), "seat {} chose {:?}", seat.index(), action);
            game.apply(seat, action).expect("legal");
        }
    }
}

fn official() -> Arc<Rules> {
    Arc::new(Rules::preset("official").expect("official"))
}

/// Plays a four-seat game with `bot` at seat 0 against `heuristic` bots, calling `each` after
/// every decision of seat 0 with the game before the move and the move.
fn play(seed: u64, bot: &mut IsmctsBot, mut each: impl FnMut(&Game, &IsmctsBot, Action)) -> Vec<Action> {
    let mut game = Game::new(official(), 4, seed).expect("game");
    let mut others: Vec<Box<dyn Bot>> = (0..4).map(|s| make_bot("heuristic", seed + s).expect("heuristic")).collect();
    let mut moves = Vec::new();
    for _ in 0..3_000 {
        if game.is_round_over() {
            break;
        }
        let seat = game.current();
        let view = game.view(seat);
        let action = if seat.index() == 0 {
            let a = bot.choose_view(&view);
            each(&game, bot, a);
            moves.push(a);
            a
        } else {
            others[seat.index()].choose_view(&view)
        };
        game.apply(seat, action).expect("legal");
    }
    moves
}

fn flat(iterations: u32) -> IsmctsConfig {
    BotSpec::Flat { iterations }.ismcts_config().expect("flat is a search")
}

#[test]
fn flat_reports_its_estimate_of_every_move_it_compared_without_changing_its_moves() {
    let mut searched = 0;
    for seed in 0..4 {
        let plain = play(seed, &mut IsmctsBot::new(flat(200), seed), |_, b, _| assert!(b.estimates().is_none()));
        let mut recording = IsmctsBot::new(flat(200), seed);
        recording.record_estimates();
        let recorded = play(seed, &mut recording, |game, bot, action| {
            let Some((estimates, worlds)) = bot.estimates() else { return };
            searched += 1;
            let legal = game.legal_actions_for(game.current());
            assert!(estimates.len() >= 2, "a search compares two moves or more");
            assert!(worlds >= 1);
            for &(a, share) in estimates {
                assert!(legal.contains(&a), "{a:?} is legal");
                assert!((0.0..=1.0).contains(&share), "{share} is a share");
                // Each share is a count of worlds (a round without a winner counts a quarter).
                let quarters = share * f64::from(worlds) * 4.0;
                assert!((quarters - quarters.round()).abs() < 1e-6, "{share} of {worlds} worlds");
            }
            let best = estimates.iter().map(|e| e.1).fold(f64::MIN, f64::max);
            let played = estimates.iter().find(|e| e.0 == action).expect("the move played was compared");
            // `flat` plays a move that won most (ties go to its playout policy's choice).
            assert_eq!(played.1, best, "{action:?} won most");
        });
        assert_eq!(plain, recorded, "recording changes no move (seed {seed})");
    }
    assert!(searched > 10, "the games searched ({searched} decisions)");
}

#[test]
fn flat_net_compares_only_the_networks_best_moves() {
    let config = IsmctsConfig { net_prune: 2, ..flat(200) };
    let mut net = NetBot::new();
    let mut pruned = 0;
    for seed in 0..4 {
        let mut bot = IsmctsBot::new(config.clone(), seed);
        bot.record_estimates();
        play(seed, &mut bot, |game, bot, _| {
            let Some((estimates, _)) = bot.estimates() else { return };
            let mut scores = net.scores(&game.view(game.current()));
            scores.retain(|&(a, _)| !matches!(a, Action::CallUno | Action::CatchUno { .. }));
            scores.sort_by(|a, b| b.1.total_cmp(&a.1));
            assert_eq!(estimates.len(), 2, "two moves searched of {}", scores.len());
            let mut top: Vec<Action> = scores[..2].iter().map(|s| s.0).collect();
            let mut got: Vec<Action> = estimates.iter().map(|e| e.0).collect();
            top.sort_by_key(|a| format!("{a:?}"));
            got.sort_by_key(|a| format!("{a:?}"));
            assert_eq!(got, top, "the network's two best");
            pruned += usize::from(scores.len() > 2);
        });
    }
    assert!(pruned > 0, "some decision had more than two moves to prune");
}

#[test]
fn flat_net_is_a_named_bot_with_the_pruned_search() {
    let spec: BotSpec = "flat+net".parse().expect("flat+net");
    let config = spec.ismcts_config().expect("a search");
    assert!(config.flat && config.net_prune > 0);
    let mut bot = make_bot("flat+net:60", 3).expect("flat+net:60");
    let game = Game::new(official(), 4, 3).expect("game");
    let view = game.view(game.current());
    let action = bot.choose_view(&view);
    assert!(game.check(game.current(), action).is_ok());
}
