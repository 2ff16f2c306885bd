//! Random games over every preset, every allowed player count and many seeds, checking the
//! engine's invariants at every step (in the style of OpenSpiel's random-simulation tests).
//!
//! `UNO_SIM_GAMES` sets the games per (preset, player count); CI runs the default.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use uno::{Action, Card, CardSet, Color, Event, Game, GameRecord, Phase, Rules, RulesConfig, Seat, PRESET_NAMES};

fn games_per_config() -> u64 {
    std::env::var("UNO_SIM_GAMES").ok().and_then(|v| v.parse().ok()).unwrap_or(60)
}

/// Every action a seat could name, legal or not.
fn candidates(game: &Game) -> Vec<Action> {
    let mut out =
        vec![Action::Draw, Action::Pass, Action::Challenge, Action::Accept, Action::CallUno, Action::NextRound];
    for card in Card::all() {
        if card.is_wild() {
            for c in Color::ALL {
                out.push(Action::Play { card, color: Some(c) });
            }
            out.push(Action::Play { card, color: None });
        } else {
            out.push(Action::Play { card, color: None });
            out.push(Action::Play { card, color: Some(Color::Red) });
        }
    }
    for c in Color::ALL {
        out.push(Action::DeclareColor { color: c });
    }
    for s in 0..=game.players() {
        out.push(Action::SwapHands { with: Seat(s as u8) });
        out.push(Action::CatchUno { seat: Seat(s as u8) });
    }
    out
}

/// How many strings in a JSON value name a card.
fn cards_named(value: &serde_json::Value) -> usize {
    match value {
        serde_json::Value::String(s) => usize::from(s.parse::<Card>().is_ok()),
        serde_json::Value::Array(items) => items.iter().map(cards_named).sum(),
        serde_json::Value::Object(fields) => fields.values().map(cards_named).sum(),
        _ => 0,
    }
}

fn check_invariants(game: &Game, deck: &[Card]) {
    assert_eq!(game.all_cards(), deck, "cards are conserved");
    if !game.is_over() {
        assert!(!game.legal_actions().is_empty(), "a live game has a legal action: {:?}", game.phase());
    }
    for s in 0..game.players() {
        let seat = Seat(s as u8);
        let obs = game.observation(Some(seat));
        assert_eq!(obs.hand, game.hand(seat));
        let json = serde_json::to_string(&obs).expect("observation serializes");
        for (o, hand) in game.hands().iter().enumerate() {
            if o != s {
                // Another hand shows as its size; the card count below proves it shows no more.
                assert_eq!(obs.hand_sizes[o], hand.len());
            }
        }
        // Every card the JSON names is one the viewer may see: its hand, the face-up discard
        // pile, the top card again, its drawn card and the cards of its legal plays. Another
        // hand, under any key, would add cards to this count.
        let value: serde_json::Value = serde_json::from_str(&json).expect("json");
        let plays = obs.legal_actions.iter().filter(|a| matches!(a, Action::Play { .. })).count();
        let visible = obs.hand.len() + obs.discard.len() + 1 + usize::from(obs.drawn_card.is_some()) + plays;
        assert_eq!(cards_named(&value), visible, "an observation holds no other hand: {json}");
        if obs.drawn_card.is_some() {
            assert_eq!(seat, game.current());
        }
        // The bit-set fast path lists exactly the cards of the legal plays.
        let mut listed = CardSet::EMPTY;
        for a in &obs.legal_actions {
            if let Action::Play { card, .. } = a {
                listed.insert(*card);
            }
        }
        assert_eq!(game.playable(seat), listed, "playable in {:?}", game.phase());
        let plays: Vec<Card> = game.plays_for(seat).to_vec();
        assert_eq!(plays.len(), listed.len(), "plays_for lists each playable kind once");
        assert!(plays.iter().all(|c| listed.contains(*c)));
    }
    let spectator = game.observation(None);
    assert!(spectator.hand.is_empty() && spectator.legal_actions.is_empty() && spectator.drawn_card.is_none());
}

/// How a game under test was dealt: `Game::new` (ChaCha, replayable from its record) or
/// `Game::new_fast` (the simulator's generator and unordered draw pile).
#[derive(Clone, Copy, PartialEq)]
enum Dealt {
    Portable,
    Fast,
}

fn run(rules: &Rules, players: usize, seed: u64) -> usize {
    run_dealt(rules, players, seed, Dealt::Portable)
}

fn run_dealt(rules: &Rules, players: usize, seed: u64, dealt: Dealt) -> usize {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    let mut game = match dealt {
        Dealt::Portable => Game::new(rules.clone(), players, seed),
        Dealt::Fast => Game::new_fast(rules.clone(), players, seed),
    }
    .expect("valid setup");
    let deck = rules.deck().to_vec();
    let mut record = GameRecord::new(rules, players, seed);
    let mut steps = 0;
    while !game.is_over() && steps < 1_500 {
        check_invariants(&game, &deck);
        // Sometimes an out-of-turn seat acts (catches, jump-ins), usually the current one.
        let seat = if rng.gen_bool(0.1) { Seat(rng.gen_range(0..players) as u8) } else { game.current() };
        let legal = game.legal_actions_for(seat);
        // legal ⇔ accepted, on a sample of everything a seat could name.
        for a in candidates(&game) {
            if rng.gen_bool(0.04) || legal.contains(&a) {
                let mut copy = game.clone();
                let before = copy.state_hash();
                match copy.apply(seat, a) {
                    // A false call is the one accepted action never listed (rules that punish
                    // it take it; no player wants it).
                    Ok(events) => assert!(
                        legal.contains(&a) || events.contains(&Event::FalseUnoCall { seat }),
                        "accepted but not listed: {a} in {:?}",
                        game.phase()
                    ),
                    Err(e) => {
                        assert!(!legal.contains(&a), "listed but refused: {a}: {e}");
                        assert_eq!(copy.state_hash(), before, "a refused action changes nothing");
                    }
                }
            }
        }
        if legal.is_empty() {
            continue;
        }
        // Prefer plays so games end; uniform otherwise.
        let plays: Vec<Action> = legal.iter().copied().filter(|a| matches!(a, Action::Play { .. })).collect();
        let others: Vec<Action> =
            legal.iter().copied().filter(|a| !matches!(a, Action::CallUno | Action::CatchUno { .. })).collect();
        let action = if !plays.is_empty() && rng.gen_bool(0.8) {
            plays[rng.gen_range(0..plays.len())]
        } else if !others.is_empty() && rng.gen_bool(0.95) {
            others[rng.gen_range(0..others.len())]
        } else if !plays.is_empty() && rng.gen_bool(0.8) {
            plays[rng.gen_range(0..plays.len())]
        } else {
            legal[rng.gen_range(0..legal.len())]
        };
        let events = game.apply(seat, action).expect("a listed action is accepted");
        for e in &events {
            for viewer in 0..players {
                if let Event::CardsDrawn { seat: s, cards, count, .. } = e.redacted_for(Some(Seat(viewer as u8))) {
                    assert!(s.index() == viewer || cards.is_empty(), "a draw is redacted for others");
                    assert!(cards.is_empty() || cards.len() as u32 == count);
                }
            }
        }
        record.push(seat, action);
        steps += 1;
        if game.phase() == Phase::RoundOver && rng.gen_bool(0.5) {
            break;
        }
    }
    check_invariants(&game, &deck);
    if dealt == Dealt::Fast {
        return steps;
    }
    let replayed = record.replay().expect("the record replays");
    assert_eq!(replayed.state_hash(), game.state_hash(), "replay reproduces the game");
    let json = record.to_json();
    assert_eq!(GameRecord::from_json(&json).expect("parses"), record);
    steps
}

#[test]
fn random_games_keep_every_invariant_on_every_preset() {
    let games = games_per_config();
    // A thread per preset: the presets' games are independent, and this is the slowest test.
    let total: usize = std::thread::scope(|scope| {
        let runs: Vec<_> = PRESET_NAMES
            .iter()
            .map(|name| {
                scope.spawn(move || {
                    let rules = Rules::preset(name).expect("preset");
                    let mut steps = 0;
                    for players in rules.min_players()..=rules.max_players() {
                        for g in 0..games {
                            let seed = (players as u64) << 32 | g;
                            steps += run(&rules, players, seed);
                        }
                    }
                    steps
                })
            })
            .collect();
        runs.into_iter().map(|r| r.join().expect("a preset's games panicked")).sum()
    });
    assert!(total > 0);
}

#[test]
fn random_games_keep_every_invariant_under_house_rules() {
    let games = games_per_config() / 2 + 1;
    let variants = [
        "[play]\nstacking = \"both\"\n",
        "[play]\nstacking = \"cross\"\nwild_draw_four = \"challenge\"\n",
        "[play]\njump_in = \"on\"\nseven_zero = \"on\"\n",
        "[play]\ndraw = \"draw_until_playable\"\nforced_play = \"required\"\n",
        "[play]\ndraw = \"draw_one_must_play\"\nexhausted_draw_pile = \"no_reshuffle\"\n",
        "[play]\nwild_draw_four = \"restricted\"\nturn_cap = 30\n[deal]\nfirst_card = \"redraw_until_number\"\n",
        "[deal]\nhand_size = 20\n[players]\nmax = 5\n[play]\nexhausted_draw_pile = \"no_reshuffle\"\n",
    ];
    for v in variants {
        let rules = Rules::new(RulesConfig::from_toml(v).expect("toml")).expect("valid");
        for players in [2, 3, 5] {
            for g in 0..games {
                run(&rules, players, g * 7 + players as u64);
            }
        }
    }
}

#[test]
fn fast_games_keep_every_invariant_on_every_preset() {
    let games = games_per_config() / 2 + 1;
    for name in PRESET_NAMES {
        let rules = Rules::preset(name).expect("preset");
        for players in rules.min_players()..=rules.max_players() {
            for g in 0..games {
                run_dealt(&rules, players, (players as u64) << 40 | g, Dealt::Fast);
            }
        }
    }
}

#[test]
fn fast_games_with_a_reused_buffer_equal_fresh_ones() {
    let rules = Rules::preset("official").expect("preset");
    let mut reused = Game::new_fast(rules.clone(), 4, 1).expect("game");
    for seed in 2..50 {
        reused.restart(seed);
        let fresh = Game::new_fast(rules.clone(), 4, seed).expect("game");
        assert_eq!(reused.state_hash(), fresh.state_hash(), "seed {seed}");
    }
}

#[test]
fn same_seed_same_game() {
    let rules = Rules::preset("official").expect("preset");
    let a = Game::new(rules.clone(), 4, 99).expect("game");
    let b = Game::new(rules.clone(), 4, 99).expect("game");
    let c = Game::new(rules, 4, 100).expect("game");
    assert_eq!(a.state_hash(), b.state_hash());
    assert_ne!(a.state_hash(), c.state_hash());
}
