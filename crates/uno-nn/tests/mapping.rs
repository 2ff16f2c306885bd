//! `mapping::has_reaction` answers from a shortcut (a jump-in needs a copy of the top card in
//! hand) before it asks the rule book; here it is proven equal to the rule book's own answer
//! (some out-of-turn play, UNO call or catch among `legal_actions_into` of the seat) at every
//! state of random games of every preset and of the house rules, for every seat. The encoder's
//! owned-observation path is checked against the view path on the same states.

use std::sync::Arc;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use uno::game::Game;
use uno::{Action, Rules, Seat};
use uno_nn::mapping::{encode, encode_at, has_reaction};
use uno_nn::obs;
use uno_nn::observe::{write_observation, write_owned_observation};

/// The shared list's presets and house-rule mixes (`uno::testing::core_rule_sets`).
fn rule_sets() -> Vec<Arc<Rules>> {
    uno::testing::core_rule_sets().into_iter().map(|s| s.rules).collect()
}

/// The rule book's answer: the seat is not to act, and the engine lists an out-of-turn play,
/// call or catch for it.
fn reaction_by_rule_book(game: &Game, seat: Seat) -> bool {
    if seat == game.current() || game.is_round_over() {
        return false;
    }
    let mut legal = Vec::new();
    game.legal_actions_into(seat, &mut legal);
    legal.iter().any(|a| matches!(a, Action::Play { .. } | Action::CallUno | Action::CatchUno { .. }))
}

/// Plays random rounds, out-of-turn actions included, and calls `check` at every state.
fn each_state(games: u64, mut check: impl FnMut(&Game)) {
    let mut rng = ChaCha8Rng::seed_from_u64(31);
    for rules in rule_sets() {
        for g in 0..games {
            let players = [2, 3, 4, 5, 6][(g % 5) as usize];
            let Ok(mut game) = Game::new(rules.clone(), players, rng.gen()) else { continue };
            for _ in 0..400 {
                if game.is_round_over() {
                    break;
                }
                check(&game);
                let mut options: Vec<(Seat, Action)> = Vec::new();
                for s in 0..players {
                    let seat = Seat(s as u8);
                    options.extend(game.legal_actions_for(seat).into_iter().map(|a| (seat, a)));
                }
                // The player to act moves most of the time; out-of-turn actions sometimes.
                let current = game.current();
                let own: Vec<_> = options.iter().copied().filter(|(s, _)| *s == current).collect();
                let pick =
                    if rng.gen_bool(0.7) && !own.is_empty() { own.choose(&mut rng) } else { options.choose(&mut rng) };
                let Some(&(seat, action)) = pick else { break };
                game.apply(seat, action).expect("a listed action is legal");
            }
        }
    }
}

#[test]
fn has_reaction_agrees_with_the_rule_book_in_every_rule_set() {
    let (mut states, mut reactions) = (0, 0);
    each_state(150, |game| {
        for s in 0..game.players() {
            let seat = Seat(s as u8);
            let expected = reaction_by_rule_book(game, seat);
            assert_eq!(
                has_reaction(game, seat),
                expected,
                "seat {s} at {:?} under {}: it may {:?}; exposed {:?}, hand {}",
                game.phase(),
                game.rules().name(),
                game.legal_actions_for(seat),
                game.uno_exposed(),
                game.hand(seat).len()
            );
            states += 1;
            reactions += usize::from(expected);
        }
    });
    assert!(states > 10_000 && reactions > 100, "{states} states, {reactions} reactions");
}

#[test]
fn the_owned_observation_encodes_as_the_view_does_and_actions_alike() {
    let (mut a, mut b) = (vec![0.0; obs::SIZE], vec![0.0; obs::SIZE]);
    each_state(4, |game| {
        for s in 0..game.players() {
            let seat = Seat(s as u8);
            write_observation(game, seat, false, &mut a);
            write_owned_observation(&game.view(seat).observation(), false, &mut b);
            assert_eq!(a, b);
            for action in game.legal_actions_for(seat) {
                assert_eq!(encode(game, seat, action), encode_at(game.players(), seat, action));
            }
        }
    });
}
