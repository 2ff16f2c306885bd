//! Every bot, on every preset and many table sizes: only legal actions (checked by
//! `Game::apply`), the same answer through `choose` and `choose_view`, the same game for the
//! same seed. Then each bot's own rules, on positions built for them.

use std::sync::Arc;

use uno::rules::MultiPlay;
use uno::{Action, Card, Color, Deal, Face, Game, Phase, Rules, Seat, PRESET_NAMES};
use uno_bots::heuristic::chance_holds;
use uno_bots::{make_bot, Bot, HeuristicBot, HeuristicConfig, IsmctsBot, IsmctsConfig, PrecedenceBot, BOT_NAMES};

/// The bots under test: every name `make_bot` knows, the search ones on a tiny budget.
fn bot_names() -> Vec<String> {
    let mut names: Vec<String> =
        BOT_NAMES.iter().map(|n| if is_search(n) { format!("{n}:24") } else { n.to_string() }).collect();
    names.push("ismcts:16:heuristic".to_string());
    names.push("ismcts:16:random:plays".to_string());
    names
}

/// Whether a bot name is a search's, slow enough to play fewer games with.
fn is_search(name: &str) -> bool {
    name.starts_with("ismcts") || name.starts_with("flat")
}

fn presets() -> Vec<Arc<Rules>> {
    PRESET_NAMES.iter().map(|n| Arc::new(Rules::preset(n).expect("a shipped preset"))).collect()
}

fn seat_counts(rules: &Rules) -> Vec<usize> {
    [2, 3, 4, 6].into_iter().filter(|&n| n >= rules.min_players() && n <= rules.max_players()).collect()
}

/// Plays one round with `names[s % names.len()]` in seat `s`; every decision goes through
/// `choose_view` of one bot and `choose` of its twin (same name, same seed),
/// which must agree, and the action through the checked `Game::apply`. Returns the actions.
fn play_checked(rules: &Arc<Rules>, players: usize, names: &[String], seed: u64) -> Vec<(Seat, Action)> {
    let mut game = Game::new(rules.clone(), players, seed).expect("valid setup");
    let mut viewing: Vec<Box<dyn Bot>> = Vec::new();
    let mut observing: Vec<Box<dyn Bot>> = Vec::new();
    for s in 0..players {
        let name = &names[s % names.len()];
        let bot_seed = seed.wrapping_mul(31).wrapping_add(s as u64);
        viewing.push(make_bot(name, bot_seed).expect("a known bot"));
        observing.push(make_bot(name, bot_seed).expect("a known bot"));
    }
    let mut log = Vec::new();
    // Uniform play calls UNO falsely so often (two cards each time) that a round may never
    // end: such games stop after a while, as `simulate` abandons them.
    let cap = if names.iter().any(|n| n == "uniform") { 3000 } else { 100_000 };
    while !game.is_round_over() && log.len() < cap {
        let seat = game.current();
        let obs = game.observation(Some(seat));
        let by_view = viewing[seat.index()].choose_view(&game.view(seat));
        let by_obs = observing[seat.index()].choose(&obs);
        assert_eq!(
            by_view,
            by_obs,
            "{} on {} (seat {seat}, {:?}): choose_view and choose disagree",
            names[seat.index() % names.len()],
            rules.name(),
            obs.phase
        );
        if let Err(e) = game.apply(seat, by_view) {
            panic!(
                "{} chose {by_view} on {} in {:?} with hand {:?}: {e}",
                names[seat.index() % names.len()],
                rules.name(),
                obs.phase,
                obs.hand
            );
        }
        log.push((seat, by_view));
    }
    assert!(
        game.is_round_over() || cap < 100_000,
        "the round ends: {names:?} on {} with {players} seats, seed {seed}",
        rules.name()
    );
    log
}

#[test]
fn every_bot_plays_only_legal_actions_on_every_preset_and_table_size() {
    for rules in presets() {
        for players in seat_counts(&rules) {
            for name in bot_names() {
                let games = if is_search(&name) { 2 } else { 40 };
                for g in 0..games {
                    play_checked(&rules, players, std::slice::from_ref(&name), 1000 + g);
                }
            }
        }
    }
}

/// Rounds of `net` bots end at every table size: the shipped model was trained at four seats,
/// and elsewhere its best was to draw rather than play (six of ten six-seat rounds ran past
/// 3,000 actions; see `uno_bots::net`).
#[test]
fn net_bots_end_their_rounds_at_every_table_size() {
    let net = ["net".to_string()];
    for rules in presets() {
        for players in (2..=6).filter(|&n| n >= rules.min_players() && n <= rules.max_players()) {
            for seed in 0..10 {
                let log = play_checked(&rules, players, &net, 2000 + seed);
                assert!(
                    log.len() <= 1000,
                    "{} at {players} seats, seed {}: a round of net bots took {} actions",
                    rules.name(),
                    2000 + seed,
                    log.len()
                );
            }
        }
    }
}

#[test]
fn mixed_tables_play_only_legal_actions() {
    let names = bot_names();
    for rules in presets() {
        for players in seat_counts(&rules) {
            for g in 0..4u64 {
                // Rotate who sits where.
                let mut table = names.clone();
                table.rotate_left(g as usize % names.len());
                play_checked(&rules, players, &table, 77 + g);
            }
        }
    }
}

#[test]
fn the_same_seed_plays_the_same_game() {
    let names = bot_names();
    for rules in presets() {
        let players = 4.min(rules.max_players());
        for g in 0..3u64 {
            let a = play_checked(&rules, players, &names, 500 + g);
            let b = play_checked(&rules, players, &names, 500 + g);
            assert_eq!(a, b, "{}: the same seeds gave different games", rules.name());
        }
    }
}

#[test]
fn a_seeded_bot_is_a_pure_function_of_its_seed_and_its_inputs() {
    // The search bot after `reseed` answers as a fresh one: simulations rely on it.
    let rules = Arc::new(Rules::preset("official").expect("preset"));
    let game = Game::new(rules.clone(), 4, 9).expect("setup");
    let seat = game.current();
    let mut used = IsmctsBot::new(IsmctsConfig { iterations: 64, ..IsmctsConfig::default() }, 1);
    let _ = used.choose(&game.observation(Some(seat)));
    used.reseed(5);
    let mut fresh = IsmctsBot::new(IsmctsConfig { iterations: 64, ..IsmctsConfig::default() }, 5);
    for _ in 0..3 {
        assert_eq!(used.choose_view(&game.view(seat)), fresh.choose_view(&game.view(seat)));
    }
}

/// A position that accounts for the whole deck: the draw pile holds every card not in a hand
/// or on the discard pile (in the deck's order, bottom card first), so search bots can deal
/// worlds from it.
fn full_position(rules: &Arc<Rules>, hands: &[&str], discard: &str, current: u8) -> Game {
    let cards = |s: &str| -> Vec<Card> { s.split_whitespace().map(|c| c.parse().expect("a card")).collect() };
    let hands: Vec<Vec<Card>> = hands.iter().map(|h| cards(h)).collect();
    let discard = cards(discard);
    let mut pile = rules.deck().to_vec();
    for c in hands.iter().flatten().chain(&discard) {
        let i = pile.iter().position(|x| x == c).expect("the card is in the deck");
        pile.remove(i);
    }
    // Until piles were listed bottom first, the deck's order was read top first: keep that deal.
    pile.reverse();
    Game::from_position(rules.clone(), &Deal::new(hands, pile, discard, Seat(current)).into_position(3))
        .expect("a valid position")
}

use uno::testing::card;

fn official() -> Arc<Rules> {
    Arc::new(Rules::preset("official").expect("preset"))
}

#[test]
fn precedence_follows_the_seed_order_in_engine_terms() {
    let rules = official();
    let choose = |hand: &str, top: &str| {
        let game = full_position(&rules, &[hand, "G1 G2 G3", "B1 B2"], top, 0);
        PrecedenceBot.choose(&game.observation(Some(Seat(0))))
    };
    // Colour match, left-most, before the Wild Draw Four and the symbol match.
    assert_eq!(choose("B7 R3 W4 R9 Y5", "R5"), Action::Play { card: card("R3"), color: None });
    // No colour match: the Wild Draw Four, naming the left-most non-wild colour left.
    assert_eq!(choose("B7 W W4 Y5", "R5"), Action::Play { card: Card::WILD_DRAW_FOUR, color: Some(Color::Blue) });
    // Then the symbol match before the Wild.
    assert_eq!(choose("B7 W Y5", "R5"), Action::Play { card: card("Y5"), color: None });
    // Then the Wild; only wilds left after it: the rules' first colour.
    assert_eq!(choose("G2 W B7", "R5"), Action::Play { card: Card::WILD, color: Some(Color::Green) });
    assert_eq!(choose("W W W", "R5"), Action::Play { card: Card::WILD, color: Some(Color::Red) });
    // Nothing to play: draw. With two cards, UNO is called first.
    assert_eq!(choose("B7 G2 Y1", "R5"), Action::Draw);
    assert_eq!(choose("B7 G2", "R5"), Action::CallUno);
}

#[test]
fn precedence_extends_a_stackable_penalty_and_plays_a_drawn_card() {
    let rules = Arc::new(Rules::preset("csce322").expect("preset"));
    // Seat 2 plays a Draw Two on seat 0: under stacking, seat 0 extends it with its own.
    let mut game = full_position(&rules, &["R3 G2 YD2", "B1 B2 B3", "RD2 G7 G8"], "R5", 2);
    game.apply(Seat(2), Action::Play { card: card("RD2"), color: None }).expect("legal");
    let seat = game.current();
    assert_eq!(PrecedenceBot.choose(&game.observation(Some(seat))), Action::Play { card: card("YD2"), color: None });
    // Official rules: draw one, and play it when it can be played.
    let rules = official();
    let mut game = full_position(&rules, &["B7 G2", "G1 G3", "B1 B2"], "R5", 0);
    game.apply(Seat(0), Action::Draw).expect("legal");
    let obs = game.observation(Some(Seat(0)));
    let drawn = obs.drawn_card.expect("a drawn card");
    let expected = if obs.legal_actions.iter().any(|a| matches!(a, Action::Play { .. })) {
        Action::Play { card: drawn, color: drawn.is_wild().then_some(Color::Blue) }
    } else {
        Action::Pass
    };
    assert_eq!(PrecedenceBot.choose(&obs), expected);
}

#[test]
fn the_heuristic_keeps_wilds_while_anything_else_plays() {
    let rules = official();
    let game = full_position(&rules, &["W W4 R9 B3", "G1 G3 G4 G5", "B1 B2 B4 B5"], "R5", 0);
    let action = HeuristicBot::new(0).choose(&game.observation(Some(Seat(0))));
    assert_eq!(action, Action::Play { card: card("R9"), color: None });
    // With only a wild playable, it plays it and names the colour it holds most of.
    let game = full_position(&rules, &["W G7 B3 B8 G9 B1", "G1 G3 G4 G5", "B4 B5 B6 B7"], "R5", 0);
    let action = HeuristicBot::new(0).choose(&game.observation(Some(Seat(0))));
    assert_eq!(action, Action::Play { card: Card::WILD, color: Some(Color::Blue) });
}

/// The official rules with the same-number house rule.
fn same_number() -> Arc<Rules> {
    let mut config = uno::rules::preset_config("official").expect("preset");
    config.play.multi_play = MultiPlay::SameNumber;
    Arc::new(Rules::new(config).expect("valid"))
}

#[test]
fn every_bot_plays_only_legal_actions_under_the_same_number_rule() {
    let rules = same_number();
    let mut runs = 0;
    for players in [2, 3, 4] {
        for name in bot_names() {
            let games = if is_search(&name) { 2 } else { 20 };
            for g in 0..games {
                let log = play_checked(&rules, players, std::slice::from_ref(&name), 300 + g);
                // One seat playing two number cards of one number in a row: a run.
                let number = |a: Action| match a {
                    Action::Play { card, .. } if matches!(card.face(), Face::Digit(_)) => Some(card.face()),
                    _ => None,
                };
                runs += log
                    .windows(2)
                    .filter(|w| w[0].0 == w[1].0 && number(w[0].1).is_some() && number(w[0].1) == number(w[1].1))
                    .count();
            }
        }
    }
    assert!(runs > 0, "the bots never played a run");
}

#[test]
fn the_heuristic_plays_out_a_run_leaving_its_deepest_colour_last() {
    let rules = same_number();
    let mut game = full_position(&rules, &["R5 B5 G5 G1 G2 Y9", "Y1 Y3 Y4 Y6", "B1 B2 B4 B6"], "R9", 0);
    game.apply(Seat(0), Action::Play { card: card("R5"), color: None }).expect("legal");
    assert_eq!(game.phase(), Phase::SameNumber);
    let mut bot = HeuristicBot::new(0);
    let first = bot.choose(&game.observation(Some(Seat(0))));
    assert_eq!(first, Action::Play { card: card("B5"), color: None }, "blue first: no blue stays in hand");
    game.apply(Seat(0), first).expect("legal");
    let second = bot.choose(&game.observation(Some(Seat(0))));
    assert_eq!(second, Action::Play { card: card("G5"), color: None }, "green last: G1 and G2 follow it");
    game.apply(Seat(0), second).expect("legal");
    assert_eq!((game.current(), game.color()), (Seat(1), Some(Color::Green)));
}

#[test]
fn the_heuristic_calls_uno_in_a_run_before_its_second_to_last_card() {
    let rules = same_number();
    let mut game = full_position(&rules, &["R5 B5 G1", "Y1 Y3 Y4 Y6", "B1 B2 B4 B6"], "R9", 0);
    game.apply(Seat(0), Action::Play { card: card("R5"), color: None }).expect("legal");
    assert_eq!(game.phase(), Phase::SameNumber);
    assert_eq!(HeuristicBot::new(0).choose(&game.observation(Some(Seat(0)))), Action::CallUno);
}

#[test]
fn the_heuristic_punishes_a_player_about_to_go_out() {
    let rules = official();
    // Seat 1, next, has one card: the Draw Two beats the number of the same colour.
    let game = full_position(&rules, &["R2 RD2 B3 B4", "G1", "B1 B2 B5 B6"], "R5", 0);
    let action = HeuristicBot::new(0).choose(&game.observation(Some(Seat(0))));
    assert_eq!(action, Action::Play { card: card("RD2"), color: None });
    // Nobody close: the number goes first, the Draw Two is kept.
    let game = full_position(&rules, &["R2 RD2 R3 B4", "G1 G2 G3 G4", "B1 B2 B5 B6"], "R5", 0);
    let action = HeuristicBot::new(0).choose(&game.observation(Some(Seat(0))));
    assert!(matches!(action, Action::Play { card, .. } if card != card_d2()), "{action}");
}

fn card_d2() -> Card {
    card("RD2")
}

#[test]
fn the_heuristic_calls_uno_and_catches_who_did_not() {
    let rules = official();
    let game = full_position(&rules, &["R2 R3", "G1 G2 G3", "B1 B2 B5"], "R5", 0);
    assert_eq!(HeuristicBot::new(0).choose(&game.observation(Some(Seat(0)))), Action::CallUno);
    // Seat 0 goes down to one card without calling: seat 1 catches it before playing.
    let mut game = full_position(&rules, &["R2 R3", "G1 G2 G3", "B1 B2 B5"], "R5", 0);
    game.apply(Seat(0), Action::Play { card: card("R2"), color: None }).expect("legal");
    assert_eq!(game.uno_exposed(), Some(Seat(0)));
    let catch = Action::CatchUno { seat: Seat(0) };
    assert_eq!(HeuristicBot::new(0).choose(&game.observation(Some(Seat(1)))), catch);
    assert_eq!(HeuristicBot::new(0).choose_view(&game.view(Seat(1))), catch);
    game.apply(Seat(1), catch).expect("a catch is legal");
    assert_eq!(game.hand(Seat(0)).len(), 3, "caught: two cards drawn");
}

#[test]
fn the_heuristic_challenges_when_the_odds_favour_it() {
    let rules = official();
    // Seat 1 plays a Wild Draw Four on a red 5 with a big hand: it most likely held red.
    let big = "W4 G1 G2 G3 G4 G5 G6 G7 G8 G9 B1 B2 B3 B4";
    let mut game = full_position(&rules, &["Y1 Y2 Y3", big, "B5 B6 B7"], "R5", 1);
    game.apply(Seat(1), Action::Play { card: Card::WILD_DRAW_FOUR, color: Some(Color::Green) }).expect("legal");
    assert_eq!(HeuristicBot::new(0).choose(&game.observation(Some(Seat(2)))), Action::Challenge);
    // With two cards left the odds are against it: accept.
    let mut game = full_position(&rules, &["Y1 Y2 Y3", "W4 G1 G2", "B5 B6 B7"], "R5", 1);
    game.apply(Seat(1), Action::Play { card: Card::WILD_DRAW_FOUR, color: Some(Color::Green) }).expect("legal");
    assert_eq!(HeuristicBot::new(0).choose(&game.observation(Some(Seat(2)))), Action::Accept);
}

#[test]
fn the_hypergeometric_chance_is_right_on_small_cases() {
    // One card from 4, one of which is red: 1/4.
    assert!((chance_holds(4, 1, 1) - 0.25).abs() < 1e-12);
    // Two from 4 with 2 red: 1 - C(2,2)/C(4,2) = 5/6.
    assert!((chance_holds(4, 2, 2) - 5.0 / 6.0).abs() < 1e-12);
    assert_eq!(chance_holds(10, 0, 5), 0.0);
    assert_eq!(chance_holds(5, 3, 3), 1.0, "more cards than non-red ones");
}

#[test]
fn heuristic_config_round_trips_and_fills_in_defaults() {
    let c: HeuristicConfig = serde_json::from_str(r#"{"keep_wild": 10}"#).expect("valid");
    assert_eq!(c.keep_wild, 10.0);
    assert_eq!(c.threat_cards, HeuristicConfig::default().threat_cards);
    assert!(serde_json::from_str::<HeuristicConfig>(r#"{"nonsense": 1}"#).is_err());
    let back: HeuristicConfig = serde_json::from_str(&serde_json::to_string(&c).expect("json")).expect("valid");
    assert_eq!(back, c);
}

#[test]
fn the_search_goes_out_when_it_can() {
    // Two moves: play the last card and win, or draw. A few iterations see it.
    let rules = official();
    let mut game = full_position(&rules, &["R9", "G1 G2 G3", "B1 B2 B5"], "R5", 0);
    game.apply(Seat(0), Action::CallUno).expect("legal");
    let mut bot = IsmctsBot::new(IsmctsConfig { iterations: 200, ..IsmctsConfig::default() }, 1);
    assert_eq!(bot.choose_view(&game.view(Seat(0))), Action::Play { card: card("R9"), color: None });
}

#[test]
fn an_observation_read_back_from_json_carries_its_custom_rules_to_the_search() {
    // Rules no preset has (a 3-card UNO penalty on the two-colour deck): the observation's JSON
    // carries them whole, and the search answers from the read-back observation as from the view.
    let mut config = uno::rules::preset_config("two-color").expect("preset");
    config.name = "house".into();
    config.uno.penalty = 3;
    let rules = Arc::new(Rules::new(config).expect("valid"));
    for seed in 0..4 {
        let game = Game::new(rules.clone(), 3, seed).expect("setup");
        let seat = game.current();
        let json = serde_json::to_string(&game.observation(Some(seat))).expect("serialises");
        let obs: uno::Observation = serde_json::from_str(&json).expect("reads back");
        assert_eq!(*obs.rules, *rules, "the rules travel whole");
        assert_eq!(obs, game.observation(Some(seat)));
        let config = IsmctsConfig { iterations: 32, ..IsmctsConfig::default() };
        let by_obs = IsmctsBot::new(config.clone(), seed).choose(&obs);
        let by_view = IsmctsBot::new(config, seed).choose_view(&game.view(seat));
        assert_eq!(by_obs, by_view, "seed {seed}");
    }
}

#[test]
fn unknown_bot_names_are_refused() {
    for bad in ["nobody", "ismcts:0", "ismcts:x", "heuristic:3", "ismcts:5:greedy", "ismcts:5:random:1"] {
        assert!(make_bot(bad, 0).is_err(), "{bad}");
    }
    for good in ["ismcts", "ismcts:5", "ismcts:5:random", "ismcts:5:heuristic", "flat", "flat:5"] {
        assert!(make_bot(good, 0).is_ok(), "{good}");
    }
    // The phase after a round is over: every bot deals the next round of a match.
    let rules = official();
    let mut game = full_position(&rules, &["R9", "G1 G2 G3", "B1 B2 B5"], "R5", 0);
    game.apply(Seat(0), Action::CallUno).expect("legal");
    game.apply(Seat(0), Action::Play { card: card("R9"), color: None }).expect("legal");
    assert_eq!(game.phase(), Phase::RoundOver);
    for name in bot_names() {
        let mut bot = make_bot(&name, 0).expect("known");
        assert_eq!(bot.choose(&game.observation(Some(Seat(1)))), Action::NextRound, "{name}");
    }
}
