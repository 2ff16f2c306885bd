//! A fused turn is the same game as its decisions taken one by one: under every preset and
//! house rule, `Game::play_turn` with the random bot or the heuristic leaves the state (cards, seats, the
//! deck's generator) that the bot's own decisions, applied one at a time, leave after the
//! same number of decisions.

use uno::testing::rule_sets;
use uno::{Game, TurnPolicy, TURN_DECISIONS};
use uno_bots::{Bot, HeuristicBot, RandomBot};

#[test]
fn fused_turns_replay_the_decisions_one_by_one() {
    let fused_turns = replay_both_ways("random", |seed| RandomBot::new(seed ^ 0x5eed));
    assert!(fused_turns > 10_000, "{fused_turns} fused turns");
}

/// The heuristic's fused turn: its UNO calls and catches, its best card and the colour it
/// scored it with, its answer to a drawn card.
#[test]
fn the_heuristics_fused_turns_replay_its_decisions() {
    let fused_turns = replay_both_ways("heuristic", HeuristicBot::new);
    assert!(fused_turns > 10_000, "{fused_turns} fused turns");
}

/// Plays every rule set at 2, 3, 4 and 6 seats, 6 seeds each, fused and one decision at a
/// time with two bots made alike; compares the states after every turn. Returns how many
/// turns took more than one decision.
fn replay_both_ways<B: Bot + TurnPolicy>(name: &str, make: impl Fn(u64) -> B) -> usize {
    let mut fused_turns = 0usize;
    let mut sets = 0;
    for set in rule_sets() {
        sets += 1;
        for players in [2, 3, 4, 6] {
            for seed in 0..6u64 {
                let Ok(mut fused) = Game::new(set.rules.clone(), players, seed) else { continue };
                let mut single = fused.clone();
                let mut fused_bot = make(seed);
                let mut single_bot = make(seed);
                for turn in 0..3_000 {
                    if fused.is_over() {
                        break;
                    }
                    let decisions = fused.play_turn(&mut fused_bot);
                    assert!((1..=TURN_DECISIONS).contains(&decisions), "{}: {decisions} decisions", set.name);
                    if decisions > 1 {
                        fused_turns += 1;
                    }
                    for _ in 0..decisions {
                        let seat = single.current();
                        let action = single_bot.choose_view(&single.view(seat));
                        single
                            .apply(seat, action)
                            .unwrap_or_else(|e| panic!("{name}, {}: turn {turn}: {action}: {e}", set.name));
                    }
                    assert_eq!(
                        fused.state_hash(),
                        single.state_hash(),
                        "{name}, {} with {players} players, seed {seed}: turn {turn}",
                        set.name
                    );
                    assert_eq!(fused.is_over(), single.is_over(), "{name}, {}", set.name);
                }
                assert_eq!(fused.turns(), single.turns(), "{name}, {}", set.name);
            }
        }
    }
    assert!(sets > 10, "{sets} rule sets");
    fused_turns
}

/// `pick` and `color` never name a card or colour the rules refuse.
#[test]
fn a_picked_card_is_playable() {
    for set in rule_sets() {
        let Ok(game) = Game::new(set.rules.clone(), 4, 1) else { continue };
        let seat = game.current();
        let view = game.view(seat);
        let playable = game.playable(seat);
        let mut bot = RandomBot::new(3);
        if let Some(card) = bot.pick(&view, playable) {
            assert!(playable.contains(card), "{}: {card}", set.name);
        }
    }
}
