//! `Bot::policy` states the distribution the bot's choices are drawn from: for `random` and
//! `uniform`, the frequencies of many seeded choices at one view agree with it, every stated
//! action is legal and the probabilities sum to one; the deterministic bots state none.

use std::collections::HashMap;
use std::sync::Arc;

use uno::{Game, Rules};
use uno_bots::{Bot, BotSpec};

#[test]
fn the_stated_policy_is_the_distribution_of_the_choices() {
    let rules = Arc::new(Rules::preset("official").expect("preset"));
    let mut checked = 0;
    for spec in [BotSpec::Random, BotSpec::Uniform] {
        for seed in 0..30u64 {
            let mut game = Game::new_fast(rules.clone(), 4, seed).expect("a game");
            let mut players: Vec<Box<dyn Bot>> = (0..4).map(|s| spec.build(seed * 4 + s)).collect();
            for step in 0..40 {
                if game.is_round_over() {
                    break;
                }
                let seat = game.current();
                let view = game.view(seat);
                let policy = players[seat.index()].policy(&view).expect("a stated policy");
                let total: f64 = policy.iter().map(|(_, p)| p).sum();
                assert!((total - 1.0).abs() < 1e-12, "{policy:?}");
                for (action, _) in &policy {
                    assert!(view.is_legal(*action), "{action} is not legal");
                }
                if policy.len() > 1 && step % 5 == 0 {
                    let n = 4000;
                    let mut counts: HashMap<uno::Action, u32> = HashMap::new();
                    for k in 0..n {
                        let mut bot = spec.build(1_000_000 + k);
                        *counts.entry(bot.choose_view(&view)).or_default() += 1;
                    }
                    for (action, p) in &policy {
                        let seen = f64::from(counts.remove(action).unwrap_or(0)) / f64::from(n as u32);
                        let sd = (p * (1.0 - p) / n as f64).sqrt();
                        assert!((seen - p).abs() < 5.0 * sd + 1e-9, "{spec}: {action} {seen} against {p}");
                    }
                    assert!(counts.is_empty(), "{spec} chose actions outside its policy: {counts:?}");
                    checked += 1;
                }
                let action = players[seat.index()].choose_view(&view);
                game.apply_unchecked(seat, action);
            }
        }
    }
    assert!(checked > 20, "{checked} views checked");
    let view_game = Game::new_fast(rules, 4, 1).expect("a game");
    let view = view_game.view(view_game.current());
    assert!(BotSpec::Heuristic.build(1).policy(&view).is_none());
}
