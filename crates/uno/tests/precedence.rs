//! Seed 000's precedence is the engine's rule: under `forced_play = "precedence"` the current
//! player's legal moves are the precedence's move alone, any other move is refused with
//! `precedence_picks_another`, and a wild names the marker colour only.

use std::sync::Arc;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use uno::testing::{cards, rule_sets};
use uno::{Action, Color, Deal, Game, IllegalAction, Rules, Seat};

/// Every rule set of the shared list under which the precedence decides.
fn precedence_rules() -> Vec<(String, Arc<Rules>)> {
    let sets: Vec<_> =
        rule_sets().into_iter().filter(|s| s.rules.precedence_decides()).map(|s| (s.name, s.rules)).collect();
    assert!(sets.len() >= 2, "csce322 and the official rules with the precedence");
    sets
}

fn is_turn_move(a: &Action) -> bool {
    !matches!(a, Action::CallUno | Action::CatchUno { .. } | Action::NextRound)
}

/// Every move a player could think of in a position: the hand's cards in every colour, and the
/// rest.
fn candidates(game: &Game, seat: Seat) -> Vec<Action> {
    let mut out = vec![Action::Draw, Action::Pass, Action::Challenge, Action::Accept];
    for &c in game.rules().colors() {
        out.push(Action::DeclareColor { color: c });
    }
    for &card in game.hand(seat) {
        if card.is_wild() {
            out.extend(game.rules().colors().iter().map(|&c| Action::Play { card, color: Some(c) }));
        } else {
            out.push(Action::Play { card, color: None });
        }
    }
    out
}

#[test]
fn under_the_precedence_the_legal_moves_are_its_move_alone() {
    let mut states = 0;
    for (name, rules) in precedence_rules() {
        for players in [2, 3, 5, 10] {
            for seed in 0..6 {
                let mut game = Game::new(rules.clone(), players, seed).expect("deal");
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                for _ in 0..600 {
                    if game.is_over() {
                        break;
                    }
                    let seat = game.current();
                    let legal = game.legal_actions();
                    let turn: Vec<Action> = legal.iter().copied().filter(is_turn_move).collect();
                    if let Some(forced) = game.precedence_move() {
                        assert_eq!(turn, vec![forced], "{name} {players} seed {seed}");
                        for a in candidates(&game, seat) {
                            if a != forced && game.check(seat, a).is_ok() {
                                panic!("{name}: {a} is accepted beside the precedence's {forced}");
                            }
                        }
                        if let Action::Play { card, color: Some(c) } = forced {
                            assert_eq!(game.colors_to_name(seat), &[c], "{name}: one colour to name");
                            let other = game.rules().colors().iter().copied().find(|&o| o != c).expect("colours");
                            let wrong = Action::Play { card, color: Some(other) };
                            assert_eq!(game.check(seat, wrong), Err(IllegalAction::PrecedencePicksAnother));
                        }
                        states += 1;
                    } else {
                        assert!(game.is_round_over() || matches!(game.phase(), uno::Phase::ChooseSwap), "{name}");
                    }
                    let action = legal[rng.gen_range(0..legal.len())];
                    game.apply(seat, action).expect("a listed action is legal");
                }
            }
        }
    }
    assert!(states > 1000, "{states}");
}

#[test]
fn the_precedence_plays_the_left_most_colour_match_and_names_the_marker_colour() {
    let rules = Arc::new(Rules::preset("csce322").expect("preset"));
    // On a red 3: the blue Skip does not match, the red 2 is the left-most colour match (rule
    // 3) ahead of the red Reverse and the wild.
    let deal =
        Deal::new(vec![cards("BS R2 B7 RR W"), cards("G1 G2 G3 G4 G5 G6 G7")], cards("Y1 Y2 Y3"), cards("R3"), Seat(0));
    let game = Game::from_position(rules.clone(), &deal.into_position(0)).expect("position");
    assert_eq!(game.precedence_move(), Some(Action::Play { card: cards("R2")[0], color: None }));
    assert_eq!(
        game.check(Seat(0), Action::Play { card: cards("RR")[0], color: None }),
        Err(IllegalAction::PrecedencePicksAnother)
    );
    assert_eq!(game.check(Seat(0), Action::Draw), Err(IllegalAction::MustPlayWhenAble));
    // Only wilds and a blue card: the Wild Draw Four (rule 4) names blue, the marker colour.
    let deal =
        Deal::new(vec![cards("W B7 W4"), cards("G1 G2 G3 G4 G5 G6 G7")], cards("Y1 Y2 Y3"), cards("R3"), Seat(0));
    let game = Game::from_position(rules, &deal.into_position(0)).expect("position");
    assert_eq!(
        game.precedence_move(),
        Some(Action::Play { card: uno::Card::WILD_DRAW_FOUR, color: Some(Color::Blue) })
    );
    assert_eq!(game.colors_to_name(Seat(0)), &[Color::Blue]);
    assert_eq!(game.colors_to_name(Seat(1)), game.rules().colors(), "another seat's colours are the rules'");
}

#[test]
fn without_the_precedence_nothing_is_narrowed() {
    for set in rule_sets().into_iter().filter(|s| !s.rules.precedence_decides()) {
        let game = Game::new(set.rules.clone(), 3, 1).expect("deal");
        assert_eq!(game.precedence_move(), None, "{}", set.name);
        assert_eq!(game.colors_to_name(game.current()), game.rules().colors(), "{}", set.name);
    }
}
