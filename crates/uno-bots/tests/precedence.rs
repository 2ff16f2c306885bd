//! Under seed 000's precedence every bot makes the engine's move: the `precedence` bot (which
//! reads the same list on its own, under any rules) agrees with `Game::precedence_move`
//! wherever the precedence decides, and every other bot, through a view or an observation,
//! can only make that move (or call or catch UNO).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use uno::testing::rule_sets;
use uno::{Action, Game};
use uno_bots::{make_bot, Bot};

#[test]
fn every_bot_makes_the_precedences_move_where_it_decides() {
    let names = ["precedence", "random", "heuristic", "uniform", "first"];
    let mut checked = 0;
    for set in rule_sets().into_iter().filter(|s| s.rules.precedence_decides()) {
        for players in [2, 4, 7] {
            for seed in 0..4 {
                let mut game = Game::new(set.rules.clone(), players, seed).expect("deal");
                let mut bots: Vec<Box<dyn Bot>> = names.iter().map(|n| make_bot(n, seed).expect("a bot")).collect();
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                for _ in 0..800 {
                    if game.is_over() {
                        break;
                    }
                    let seat = game.current();
                    let forced = game.precedence_move();
                    for (name, bot) in names.iter().zip(bots.iter_mut()) {
                        let by_view = bot.choose_view(&game.view(seat));
                        let by_observation = bot.choose(&game.observation(Some(seat)));
                        for a in [by_view, by_observation] {
                            game.check(seat, a).unwrap_or_else(|e| panic!("{}: {name} chose {a}: {e}", set.name));
                            if let Some(f) = forced.filter(|_| !matches!(a, Action::CallUno | Action::CatchUno { .. }))
                            {
                                assert_eq!(a, f, "{}: {name}", set.name);
                                checked += 1;
                            }
                        }
                    }
                    let action = bots[rng.gen_range(0..names.len())].choose_view(&game.view(seat));
                    game.apply(seat, action).expect("checked above");
                }
            }
        }
    }
    assert!(checked > 5_000, "{checked}");
}
