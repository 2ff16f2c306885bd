//! Tests of `infer`.

use std::sync::Arc;

use super::*;

#[test]
fn masks_cover_colour_face_and_wilds() {
    let top = Card::colored(Color::Red, uno::Face::Digit(5)).unwrap_or(Card::WILD);
    let m = playable_mask(top, Some(Color::Red));
    assert_eq!(m.count_ones(), 13 + 3 + 2);
    assert_ne!(m & bit(Card::WILD_DRAW_FOUR), 0);
    let m = playable_mask(Card::WILD, None);
    assert_eq!(m, WILDS);
}

#[test]
fn merged_groups_keep_only_what_both_excluded() {
    let mut g = vec![(2, 0b0111), (1, 0b0110), (3, 0b1000), (1, 0b1001)];
    merge_groups(&mut g);
    assert_eq!(g, vec![(3, 0b0110), (3, 0b1000), (1, 0b1001)]);
    let mut g = vec![(1, 0b01), (1, 0b10), (1, 0b100), (1, 0b1000)];
    merge_groups(&mut g);
    assert_eq!(g.len(), 2, "disjoint masks merge into nothing: {g:?}");
    assert_eq!(g.iter().map(|&(n, _)| n).sum::<usize>(), 2);
}

/// What another seat did on its turn, as the engine played it.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Truth {
    Drew(Seat),
    Played(Seat, Card),
}

/// The public skeleton of a history: the cards played in order with their players, and each
/// seat's draws on its turn. (Which of two plays came from the hand and which from a draw can be
/// told from neither; the replay may pick either.)
fn skeleton(steps: impl Iterator<Item = Truth>, players: usize) -> (Vec<(Seat, Card)>, Vec<usize>) {
    let (mut plays, mut draws) = (Vec::new(), vec![0; players]);
    for t in steps {
        match t {
            Truth::Drew(seat) => draws[seat.index()] += 1,
            Truth::Played(seat, card) => plays.push((seat, card)),
        }
    }
    (plays, draws)
}

fn step_truth(step: &Step) -> Option<Truth> {
    match *step {
        Step::Drew { seat, .. } => Some(Truth::Drew(seat)),
        Step::Kept { .. } => None,
        Step::Played { seat, card, .. } => Some(Truth::Played(seat, card)),
    }
}

/// Every rule set of the shared list (`uno::testing::rule_sets`): every preset, every house rule.
fn every_rule_set() -> Vec<(String, Arc<Rules>)> {
    uno::testing::rule_sets().into_iter().map(|s| (s.name, s.rules)).collect()
}

/// The replay is a copy of the public side of the turn (who plays after whom, what a card
/// does to the next seats, draws, challenges), so it is held to the engine on every preset and
/// house rule, with `heuristic` seats: on the rules it supports it explains the engine's
/// histories (all but a fiftieth: a reshuffle may hide one), and at two seats, where who played
/// what is public, each history it explains has the engine's skeleton (the same cards played
/// by the same seats in the same order, the same draws per seat); every draw's mask is within
/// the rule book's matching set on a card the history showed. On the rules it does not
/// support it explains nothing.
#[test]
fn the_replay_explains_the_engines_history_on_every_rule_set_it_supports() {
    use rand::SeedableRng;
    let (mut explained, mut compared) = (0u64, 0usize);
    for (name, rules) in every_rule_set() {
        let supported = supported(&rules);
        let (mut explained_here, mut unexplained_here) = (0, 0);
        for players in [2, 3, 4].into_iter().filter(|&n| rules.check_players(n).is_ok()) {
            for g in 0..6u64 {
                let mut game = uno::Game::new_fast(rules.clone(), players, 70 + g).expect("a table the rules deal");
                let mut bots: Vec<Box<dyn crate::Bot>> =
                    (0..players).map(|s| crate::make_bot("heuristic", g * 10 + s as u64).expect("a bot")).collect();
                let mut tracker = Tracker::default();
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(g);
                let mut truth: Vec<Truth> = Vec::new();
                // The rule book's matching sets on every top card and colour since the last
                // decision: a seat drew on one of them.
                let mut seen_tops = 0u64;
                let mut decisions = 0;
                while !game.is_round_over() && decisions < 3_000 {
                    decisions += 1;
                    let seat = game.current();
                    let action = bots[seat.index()].choose_view(&game.view(seat));
                    if seat == Seat(0) {
                        let obs = game.observation(Some(seat));
                        let before = tracker.explained;
                        tracker.observe(&obs, &rules, true, false, &mut rng);
                        if tracker.explained > before && players == 2 {
                            let found = skeleton(tracker.steps().iter().filter_map(step_truth), players);
                            assert_eq!(
                                found,
                                skeleton(truth.iter().copied(), players),
                                "{name}, {players}p game {g}, turn {}",
                                obs.turns
                            );
                            compared += found.0.len();
                            for step in tracker.steps() {
                                if let Step::Drew { mask, .. } = step {
                                    assert_eq!(mask & !seen_tops, 0, "{name}: a draw's mask beyond the rule book");
                                }
                            }
                        }
                        tracker.acted(&obs, action);
                        truth.clear();
                        seen_tops = game.color().map_or(0, |c| CardSet::matching(game.top(), c).bits());
                    } else {
                        match (game.phase(), action) {
                            (Phase::Play, Action::Draw) => truth.push(Truth::Drew(seat)),
                            (_, Action::Play { card, .. }) => truth.push(Truth::Played(seat, card)),
                            _ => {}
                        }
                    }
                    game.apply(seat, action).expect("a legal action");
                    if let Some(colour) = game.color() {
                        seen_tops |= CardSet::matching(game.top(), colour).bits();
                    }
                }
                explained_here += tracker.explained;
                unexplained_here += tracker.unexplained;
            }
        }
        if supported {
            assert!(explained_here > 100, "{name}: only {explained_here} histories explained");
            assert!(unexplained_here * 50 <= explained_here, "{name}: {unexplained_here} histories not explained");
        } else {
            assert_eq!(explained_here, 0, "{name}: a rule set the replay does not model");
        }
        explained += explained_here;
    }
    assert!(explained > 3_000 && compared > 500, "{explained} histories, {compared} plays: too little seen");
}
