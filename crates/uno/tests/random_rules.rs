//! Property tests: random rule sets (valid or not) and random actions, legal or not, never
//! panic, and whenever a game runs its cards are conserved.

use proptest::prelude::*;
use uno::rules::{
    DrawRule, Exhausted, FirstCard, FirstPlayer, ForcedPlay, JumpIn, MultiPlay, SevenZero, Stacking, TwoPlayerRule,
    UnoCall, WildDrawFourRule,
};
use uno::{Action, Card, Color, Direction, Game, Phase, Rules, RulesConfig, Seat};

fn config() -> impl Strategy<Value = RulesConfig> {
    (
        (0u32..4, 0u32..4, 0u32..3, 0u32..5, 0u32..3),
        (1u32..4, 2u32..11, 1u32..12),
        (0usize..4, 0usize..4, 0usize..2, 0usize..5, 0usize..3),
        (0usize..2, any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>()),
        (proptest::option::of(1u32..60), 0u32..4, 0u32..4, 1usize..5, 1u32..20_000),
    )
        .prop_map(|(counts, sizes, choices, toggles, extra)| {
            let (digits, specials, wilds, wd4, zeros) = counts;
            let (min, max, hand) = sizes;
            let (draw, first_card, first_player, stacking, wd4_rule) = choices;
            let (target, jump, seven, forced, reshuffle, multi) = toggles;
            let (cap, penalty, false_pen, colors, max_turns) = extra;
            let mut c =
                RulesConfig { deck: RulesConfig::deck_from_counts(digits, specials, wilds), ..Default::default() };
            c.deck.per_color.insert("0".into(), zeros);
            c.deck.wild.insert("wild_draw_four".into(), wd4);
            c.deck.colors = Color::ALL[..colors].to_vec();
            c.players.min = min;
            c.players.max = max;
            c.deal.hand_size = hand;
            c.deal.first_card =
                [FirstCard::Official, FirstCard::NoEffect, FirstCard::RedrawUntilNumber, FirstCard::RedrawWilds]
                    [first_card];
            c.deal.first_player = [FirstPlayer::AfterDealer, FirstPlayer::Seat0][first_player];
            c.deal.direction = if jump ^ seven { Direction::CounterClockwise } else { Direction::Clockwise };
            c.play.draw = [
                DrawRule::DrawOneMayPlay,
                DrawRule::DrawOneMustPlay,
                DrawRule::DrawOneEndTurn,
                DrawRule::DrawUntilPlayable,
            ][draw];
            c.play.stacking =
                [Stacking::Off, Stacking::DrawTwo, Stacking::WildDrawFour, Stacking::Both, Stacking::Cross][stacking];
            c.play.wild_draw_four =
                [WildDrawFourRule::Unrestricted, WildDrawFourRule::Restricted, WildDrawFourRule::Challenge][wd4_rule];
            c.play.two_players =
                if forced ^ reshuffle { TwoPlayerRule::ReverseSkips } else { TwoPlayerRule::ReverseReverses };
            c.play.jump_in = if jump { JumpIn::On } else { JumpIn::Off };
            c.play.seven_zero = if seven { SevenZero::On } else { SevenZero::Off };
            c.play.multi_play = if multi { MultiPlay::SameNumber } else { MultiPlay::Off };
            c.play.forced_play = if forced { ForcedPlay::Required } else { ForcedPlay::Optional };
            c.play.exhausted_draw_pile = if reshuffle { Exhausted::Reshuffle } else { Exhausted::NoReshuffle };
            c.play.turn_cap = cap;
            c.uno.call = if penalty > 0 { UnoCall::Required } else { UnoCall::Off };
            c.uno.penalty = penalty;
            c.uno.false_call_penalty = false_pen;
            c.scoring.target = if target == 1 { Some(100) } else { None };
            c.end.max_turns = max_turns;
            c
        })
}

fn action() -> impl Strategy<Value = (u8, Action)> {
    let card = (0usize..Card::KINDS).prop_map(|i| Card::from_index(i).unwrap_or(Card::WILD));
    let color = proptest::option::of((0usize..4).prop_map(|i| Color::ALL[i]));
    let act = prop_oneof![
        (card, color).prop_map(|(card, color)| Action::Play { card, color }),
        Just(Action::Draw),
        Just(Action::Pass),
        (0usize..4).prop_map(|i| Action::DeclareColor { color: Color::ALL[i] }),
        Just(Action::Challenge),
        Just(Action::Accept),
        (0u8..12).prop_map(|s| Action::SwapHands { with: Seat(s) }),
        Just(Action::CallUno),
        (0u8..12).prop_map(|s| Action::CatchUno { seat: Seat(s) }),
        Just(Action::NextRound),
    ];
    (0u8..12, act)
}

/// Every move but the UNO calls at a table of `players`, well formed or not.
fn every_move(players: usize) -> Vec<Action> {
    let mut moves = vec![Action::Draw, Action::Pass, Action::Challenge, Action::Accept, Action::NextRound];
    for i in 0..Card::KINDS {
        let card = Card::from_index(i).unwrap_or(Card::WILD);
        moves.push(Action::Play { card, color: None });
        moves.extend(Color::ALL.iter().map(|&c| Action::Play { card, color: Some(c) }));
    }
    moves.extend(Color::ALL.iter().map(|&color| Action::DeclareColor { color }));
    moves.extend((0..=players as u8).map(|s| Action::SwapHands { with: Seat(s) }));
    moves
}

static PLAYED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
/// Moves that left a same-number run going: the strategy's rule sets reach that phase.
static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

#[test]
fn most_random_rule_sets_make_a_game() {
    // Runs the property once more on its own to count how often a game was dealt.
    random_rules_and_random_actions_never_panic();
    assert!(PLAYED.load(std::sync::atomic::Ordering::Relaxed) > 50, "too few random rule sets made a game");
    assert!(RUNS.load(std::sync::atomic::Ordering::Relaxed) > 0, "no random game reached a same-number run");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn random_rules_and_random_actions_never_panic(
        config in config(),
        players in 2usize..11,
        seed in any::<u64>(),
        actions in proptest::collection::vec(action(), 0..300),
    ) {
        let Ok(rules) = Rules::new(config) else { return Ok(()) };
        // Seat a count the rules allow, so most cases get to play.
        let span = rules.max_players() - rules.min_players() + 1;
        let players = rules.min_players() + players % span;
        let Ok(mut game) = Game::new(rules.clone(), players, seed) else { return Ok(()) };
        PLAYED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let mut legal = Vec::new();
        for (i, (seat, action)) in actions.into_iter().enumerate() {
            if game.is_over() {
                break;
            }
            // Alternate garbage with a legal move so games get somewhere.
            if i % 2 == 0 {
                let before = game.state_hash();
                if game.apply(Seat(seat), action).is_err() {
                    prop_assert_eq!(game.state_hash(), before);
                }
            } else {
                let s = game.current();
                game.legal_actions_into(s, &mut legal);
                prop_assert!(!legal.is_empty());
                // The list holds every move the rule book takes, UNO calls aside (a false call
                // is taken under some rules and never listed).
                let turn_move = |a: &Action| !matches!(a, Action::CallUno | Action::CatchUno { .. });
                let mut listed: Vec<Action> = legal.iter().copied().filter(turn_move).collect();
                let mut accepted: Vec<Action> =
                    every_move(players).into_iter().filter(|&a| game.check(s, a).is_ok()).collect();
                listed.sort_by_key(|a| format!("{a:?}"));
                accepted.sort_by_key(|a| format!("{a:?}"));
                prop_assert_eq!(listed, accepted);
                let a = legal[seat as usize % legal.len()];
                prop_assert!(game.apply(s, a).is_ok());
            }
            prop_assert_eq!(game.all_cards(), rules.deck().to_vec());
            if game.phase() == Phase::SameNumber {
                RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
        }
    }

    #[test]
    fn a_rules_config_survives_toml_and_json(config in config()) {
        let toml = config.to_toml();
        prop_assert_eq!(RulesConfig::from_toml(&toml), Ok(config.clone()), "{}", toml);
        let json = serde_json::to_string(&config).expect("a config serializes");
        prop_assert_eq!(RulesConfig::from_json(&json), Ok(config));
    }

    #[test]
    fn random_bytes_give_the_rules_parser_a_value_or_a_typed_error(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(c) = RulesConfig::parse(&text) {
            // A config the parser accepted says the same when written back.
            prop_assert_eq!(RulesConfig::parse(&c.to_toml()), Ok(c.clone()));
            let _ = Rules::new(c);
        }
    }

    #[test]
    fn random_bytes_give_the_uno_notation_parser_a_position_or_a_typed_error(
        deck in proptest::collection::vec(any::<u8>(), 0..200),
        discard in proptest::collection::vec(any::<u8>(), 0..60),
        hands in proptest::collection::vec(any::<u8>(), 0..200),
        tokens in proptest::collection::vec(proptest::sample::select(vec![
            "r", "y", "g", "b", "w", "x", ",", ";", "\n", "\r\n", " ", "0", "7", "9", "s", "r", "d", "-", "e", ",-",
        ]), 0..80),
    ) {
        // Raw bytes, and bytes built from the notation's own letters (closer to valid files).
        let _ = uno::courses::notation::Layout::parse(&deck, &discard, &hands);
        let words: String = tokens.concat();
        let (a, b) = words.split_at(words.len() / 2);
        let _ = uno::courses::notation::Layout::parse(a.as_bytes(), b.as_bytes(), words.as_bytes());
    }

    #[test]
    fn arbitrary_text_never_panics_the_rules_parser(text in ".{0,200}") {
        if let Ok(c) = RulesConfig::parse(&text) {
            let _ = Rules::new(c);
        }
    }
}
