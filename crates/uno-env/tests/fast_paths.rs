//! The shortcuts of a batched step answer as the general checks do: the legal bits are the
//! mask, the mask (read from the engine's sets) is its listing encoded, every listed index
//! passes `is_legal`, and `has_reaction` agrees with asking the engine
//! about every reaction, on every preset, the house rules and a false-call penalty.

use std::sync::Arc;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use uno::game::Game;
use uno::{Action, Rules, Seat};
use uno_env::action;
use uno_env::mapping::{encode, has_reaction, is_legal, legal_mask, legal_mask_bits};

/// The shared list's presets and house-rule mixes (`uno::testing::core_rule_sets`).
fn rule_sets() -> Vec<Arc<Rules>> {
    uno::testing::core_rule_sets().into_iter().map(|s| s.rules).collect()
}

/// `has_reaction` without its shortcut: the engine asked about each reaction.
fn reaction_by_checks(game: &Game, seat: Seat) -> bool {
    if seat == game.current()
        || game.is_round_over()
        || game.phase() != uno::Phase::Play && game.uno_exposed().is_none()
    {
        return false;
    }
    // A false call (taken under a false-call penalty) is never offered, so it opens no window.
    if game.view(seat).can_call_own_uno() && game.check(seat, Action::CallUno).is_ok() {
        return true;
    }
    if let Some(exposed) = game.uno_exposed().filter(|&v| v != seat) {
        if game.check(seat, Action::CatchUno { seat: exposed }).is_ok() {
            return true;
        }
    }
    let top = game.top();
    !top.is_wild() && game.check(seat, Action::Play { card: top, color: None }).is_ok()
}

#[test]
fn the_shortcuts_agree_with_the_engine() {
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    let mut reactions = 0;
    for rules in rule_sets() {
        for deal in 0..40u64 {
            let players = 2 + (deal as usize % 3);
            let mut game = Game::new_fast(rules.clone(), players, deal).expect("a table the rules allow");
            let mut legal = Vec::new();
            for _ in 0..400 {
                if game.is_round_over() {
                    break;
                }
                for s in 0..players {
                    let seat = Seat(s as u8);
                    let fast = has_reaction(&game, seat);
                    assert_eq!(fast, reaction_by_checks(&game, seat), "{} deal {deal} seat {s}", rules.name());
                    reactions += usize::from(fast);
                    for window in [false, true] {
                        let mut mask = vec![0; action::COUNT];
                        let mut plain = vec![0; action::COUNT];
                        let bits = legal_mask_bits(&game, seat, window, &mut mask);
                        legal_mask(&game, seat, window, &mut plain);
                        assert_eq!(mask, plain);
                        // The mask is the engine's listing, encoded: nothing more, nothing less.
                        let mut listed = vec![0; action::COUNT];
                        for &a in &legal_for(&game, seat, &mut legal) {
                            if let Some(i) = encode(&game, seat, a) {
                                listed[i] = 1;
                            }
                        }
                        listed[action::DECLINE] = i8::from(window);
                        assert_eq!(mask, listed, "{} deal {deal} seat {s} at {:?}", rules.name(), game.phase());
                        for (i, &m) in mask.iter().enumerate() {
                            assert_eq!(bits >> i & 1 == 1, m == 1);
                            if m == 1 {
                                assert!(is_legal(&game, seat, window, i), "index {i} listed but not legal");
                            }
                        }
                    }
                }
                let current = game.current();
                let moves = game.legal_actions_for(current);
                let Some(&a) = moves.get(rng.gen_range(0..moves.len().max(1))) else { break };
                game.apply(current, a).expect("a listed action is legal");
            }
        }
    }
    assert!(reactions > 0, "no reaction window was ever open: the comparison proved little");
}

/// The engine's listing of `seat`'s actions, into `scratch`.
fn legal_for(game: &Game, seat: Seat, scratch: &mut Vec<Action>) -> Vec<Action> {
    game.legal_actions_into(seat, scratch);
    scratch.clone()
}
