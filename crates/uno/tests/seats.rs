//! Seats past the table: every public entry point that takes a seat answers (nothing to do,
//! nothing held, a typed refusal) and never panics or overflows, whatever the seat number.

use uno::{Action, Color, Game, PlayerCount, Rules, Seat, PRESET_NAMES};

/// A game of `players` after `steps` legal actions chosen by a small LCG.
fn played(rules: &Rules, players: usize, seed: u64, steps: usize) -> Game {
    let mut game = Game::new(rules.clone(), players, seed).expect("setup");
    let mut x = seed | 1;
    for _ in 0..steps {
        if game.is_round_over() {
            break;
        }
        let seat = game.current();
        let legal = game.legal_actions();
        x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        let action = legal[(x >> 33) as usize % legal.len()];
        game.apply(seat, action).expect("a listed action is legal");
    }
    game
}

#[test]
fn seats_past_the_table_are_answered_not_panicked_on() {
    for name in PRESET_NAMES {
        let rules = Rules::preset(name).expect("preset");
        for players in [rules.min_players(), rules.max_players()] {
            for (seed, steps) in [(1, 0), (2, 7), (3, 40)] {
                let mut game = played(&rules, players, seed, steps);
                let hash = game.state_hash();
                for bad in [players, 15, 16, 17, 200, 255].map(|s| Seat(s as u8)) {
                    assert!(!game.player_count().has(bad));
                    assert!(game.hand(bad).is_empty(), "{name}: seat {bad}");
                    assert!(!game.uno_called(bad), "{name}: seat {bad}");
                    assert!(game.legal_actions_for(bad).is_empty(), "{name}: seat {bad}");
                    assert!(game.playable(bad).is_empty(), "{name}: seat {bad}");
                    assert!(game.playable(bad).is_empty(), "{name}: seat {bad}");
                    let obs = game.observation(Some(bad));
                    assert_eq!(obs.viewer, None, "a seat past the table sees as a spectator");
                    assert!(obs.hand.is_empty() && obs.legal_actions.is_empty());
                    let view = game.view(bad);
                    assert!(view.hand().is_empty() && view.legal_actions().is_empty());
                    assert_eq!(view.hand_size(bad), 0);
                    assert!(!view.uno_called(bad) && !view.can_call_own_uno());
                    for action in [
                        Action::Draw,
                        Action::Pass,
                        Action::CallUno,
                        Action::Challenge,
                        Action::Accept,
                        Action::DeclareColor { color: Color::Red },
                        Action::CatchUno { seat: Seat(0) },
                    ] {
                        assert!(game.check(bad, action).is_err(), "{name}: seat {bad} {action}");
                        assert!(game.apply(bad, action).is_err(), "{name}: seat {bad} {action}");
                    }
                    let current = game.current();
                    for action in [Action::CatchUno { seat: bad }, Action::SwapHands { with: bad }] {
                        assert!(game.apply(current, action).is_err(), "{name}: {action}");
                    }
                    assert_eq!(game.state_hash(), hash, "{name}: a refusal changes nothing");
                }
            }
        }
    }
}

#[test]
fn a_game_knows_its_checked_player_count() {
    let rules = Rules::preset("official").expect("preset");
    for players in 2..=10 {
        let game = Game::new(rules.clone(), players, 1).expect("setup");
        assert_eq!(game.player_count(), PlayerCount::new(players).expect("fits"));
        assert_eq!(game.player_count().seats().count(), players);
    }
    for players in [0, 1, 11, 16, 300] {
        assert!(Game::new(rules.clone(), players, 1).is_err(), "{players}");
        assert!(Game::new_fast(rules.clone(), players, 1).is_err(), "{players}");
    }
}
