//! `mapping::has_reaction` answers from a shortcut (a jump-in needs a copy of the top card in
//! hand) before it asks the rule book; here it is proven equal to the rule book's own answer
//! (some out-of-turn play, UNO call or catch among `legal_actions_into` of the seat) at every
//! state of random games of every preset and of the house rules, for every seat. The encoder's
//! owned-observation path is checked against the view path on the same states, and both against
//! a plain reading of the layout (`reference_observation`), written over a row of garbage.

use std::sync::Arc;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use uno::game::Game;
use uno::{Action, Direction, Rules, Seat};
use uno_nn::mapping::{encode, encode_at, has_reaction};
use uno_nn::obs;
use uno_nn::observe::{phase_index, write_observation, write_owned_observation};

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

/// The observation as `uno_nn::space::obs` describes it, block by block, from a cleared row:
/// the plain reading the encoder's one-pass writer must agree with.
fn reference_observation(game: &Game, seat: Seat, window: bool) -> Vec<f32> {
    let mut out = vec![0.0; obs::SIZE];
    let players = game.players();
    let relative = |other: Seat| (other.index() + players - seat.index()) % players;
    for &card in game.hand(seat) {
        out[obs::HAND + card.index()] += 1.0;
    }
    out[obs::TOP + game.top().index()] = 1.0;
    if let Some(color) = game.color() {
        out[obs::COLOR + color.index()] = 1.0;
    }
    for s in 0..players {
        let other = Seat(s as u8);
        out[obs::HAND_SIZES + relative(other)] = game.hand(other).len() as f32;
        out[obs::UNO_CALLED + relative(other)] = if game.uno_called(other) { 1.0 } else { 0.0 };
        out[obs::SEATED + relative(other)] = 1.0;
    }
    if let Some(exposed) = game.uno_exposed() {
        out[obs::UNO_EXPOSED + relative(exposed)] = 1.0;
    }
    out[obs::CURRENT + relative(game.current())] = 1.0;
    out[obs::DIRECTION] = if game.direction() == Direction::Clockwise { 1.0 } else { 0.0 };
    out[obs::PENDING] = game.pending_draw() as f32;
    out[obs::PHASE + phase_index(game.phase())] = 1.0;
    out[obs::ROLE + usize::from(window)] = 1.0;
    if let Some(card) = game.view(seat).drawn_card() {
        out[obs::DRAWN + card.index()] = 1.0;
    }
    for &card in game.discard_pile() {
        out[obs::DISCARD + card.index()] += 1.0;
    }
    out[obs::DRAW_PILE] = game.draw_pile().len() as f32;
    out
}

#[test]
fn the_encoder_writes_every_entry_as_the_layout_says() {
    let mut row = vec![0.0; obs::SIZE];
    let mut states = 0;
    each_state(6, |game| {
        for s in 0..game.players() {
            let seat = Seat(s as u8);
            for window in [false, true] {
                let expected = reference_observation(game, seat, window);
                // A row left as garbage: an entry the encoder does not write shows.
                row.fill(f32::NAN);
                write_observation(game, seat, window, &mut row);
                assert_eq!(row, expected, "seat {s} at {:?} under {}", game.phase(), game.rules().name());
                row.fill(7.0);
                write_owned_observation(&game.view(seat).observation(), window, &mut row);
                assert_eq!(row, expected, "owned, seat {s} at {:?} under {}", game.phase(), game.rules().name());
                states += 1;
            }
        }
    });
    assert!(states > 10_000, "{states} states");
}
