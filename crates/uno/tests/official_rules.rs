//! The official rules engines commonly get wrong, one scenario each, on the `official` preset.

use uno::{
    Action, Card, Color, Deal, Direction, DrawReason, EndReason, Event, Face, Game, IllegalAction, Phase, Rules, Seat,
};

fn official() -> Rules {
    Rules::preset("official").expect("preset")
}

use uno::testing::{card, cards};

fn position(hands: &[&str], draw: &str, discard: &str, color: Option<Color>, current: u8) -> Game {
    let deal = Deal {
        hands: hands.iter().map(|h| cards(h)).collect(),
        // Written top card first; a pile lists them bottom card first.
        draw_pile: cards(draw).into_iter().rev().collect(),
        discard: cards(discard).into_iter().rev().collect(),
        color,
        current: Seat(current),
        direction: Direction::Clockwise,
        dealer: Seat(0),
    };
    Game::from_position(official(), &deal.into_position(9)).expect("position")
}

fn play(game: &mut Game, text: &str, color: Option<Color>) -> Vec<Event> {
    let seat = game.current();
    game.apply(seat, Action::Play { card: card(text), color }).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// A dealt 4-player game whose first card (the one kept) has `face`, with its deal events.
fn first_card(face: Face) -> (Game, Vec<Event>) {
    for seed in 0..5000 {
        let mut events = Vec::new();
        let mut game = Game::new(official(), 4, seed).expect("game");
        game.restart_with_events(seed, &mut events);
        if game.discard_pile().len() == 1 && game.top().face() == face {
            return (game, events);
        }
    }
    panic!("no seed turns up {face}");
}

fn after_dealer(game: &Game, k: usize) -> Seat {
    Seat(((game.dealer().index() + k) % 4) as u8)
}

#[test]
fn first_card_skip_skips_the_first_player() {
    let (game, events) = first_card(Face::Skip);
    assert!(events.contains(&Event::PlayerSkipped { seat: after_dealer(&game, 1) }));
    assert_eq!(game.current(), after_dealer(&game, 2));
}

#[test]
fn first_card_reverse_the_dealer_plays_first_and_play_goes_the_other_way() {
    let (game, _) = first_card(Face::Reverse);
    assert_eq!(game.direction(), Direction::CounterClockwise);
    assert_eq!(game.current(), game.dealer());
}

#[test]
fn first_card_draw_two_the_first_player_draws_two_and_loses_the_turn() {
    let (game, _) = first_card(Face::DrawTwo);
    assert_eq!(game.hand(after_dealer(&game, 1)).len(), 9);
    assert_eq!(game.current(), after_dealer(&game, 2));
}

#[test]
fn first_card_wild_the_first_player_names_the_colour() {
    let (mut game, _) = first_card(Face::Wild);
    let first = after_dealer(&game, 1);
    assert_eq!((game.current(), game.phase()), (first, Phase::ChooseColor));
    assert_eq!(game.color(), None, "no colour is in play until one is named");
    for viewer in [None, Some(first)] {
        assert_eq!(game.observation(viewer).color, None);
    }
    let json = serde_json::to_value(game.observation(None)).expect("json");
    assert_eq!(json["color"], serde_json::Value::Null);
    assert!(game.apply(first, Action::Draw).is_err(), "the colour comes first");
    game.apply(first, Action::DeclareColor { color: Color::Green }).expect("declare");
    assert_eq!((game.color(), game.phase(), game.current()), (Some(Color::Green), Phase::Play, first));
    assert_eq!(game.observation(None).color, Some(Color::Green));
}

#[test]
fn first_card_wild_draw_four_is_returned_and_another_card_turned() {
    for seed in 0..5000 {
        let mut events = Vec::new();
        let mut game = Game::new(official(), 4, seed).expect("game");
        game.restart_with_events(seed, &mut events);
        if events.contains(&Event::StartCard { card: Card::WILD_DRAW_FOUR, returned: true }) {
            assert_ne!(game.top(), Card::WILD_DRAW_FOUR);
            assert_eq!(game.all_cards(), official().deck());
            assert!(game.hands().iter().all(|h| h.len() == 7));
            return;
        }
    }
    panic!("no seed turned up a Wild Draw Four first");
}

#[test]
fn wild_draw_four_legality_is_judged_on_the_colour_in_play_before_it() {
    // Holding the colour the Wild Draw Four names does not matter; holding the one in play does.
    let cases = [
        ("W4 G1", "R9", None, false),
        ("W4 B9", "R9", None, false),
        ("W4 R1", "R9", None, true),
        ("W4 B1", "W", Some(Color::Blue), true),
    ];
    for (hand, top, color, guilty) in cases {
        let mut game = position(&[hand, "Y1", "Y2"], "Y3 Y4 Y5 Y6 Y7 Y8 Y9", top, color, 0);
        play(&mut game, "W4", Some(Color::Green));
        let events = game.apply(Seat(1), Action::Challenge).expect("challenge");
        assert!(
            events.contains(&Event::ChallengeResolved { challenger: Seat(1), offender: Seat(0), guilty }),
            "{hand} on {top}"
        );
    }
}

#[test]
fn challenge_guilty_the_offender_draws_four_and_the_challenger_plays_on() {
    let mut game = position(&["W4 R1", "Y1", "Y2"], "Y3 Y4 Y5 Y6 Y7 Y8 Y9", "R9", None, 0);
    play(&mut game, "W4", Some(Color::Green));
    game.apply(Seat(1), Action::Challenge).expect("challenge");
    assert_eq!(game.hand(Seat(0)).len(), 5);
    assert_eq!(game.hand(Seat(1)).len(), 1);
    assert_eq!((game.current(), game.phase(), game.color()), (Seat(1), Phase::Play, Some(Color::Green)));
}

#[test]
fn challenge_innocent_the_challenger_draws_six_and_loses_the_turn() {
    let mut game = position(&["W4 B1", "Y1", "Y2"], "Y3 Y4 Y5 Y6 Y7 Y8 Y9", "R9", None, 0);
    play(&mut game, "W4", Some(Color::Green));
    game.apply(Seat(1), Action::Challenge).expect("challenge");
    assert_eq!(game.hand(Seat(1)).len(), 7);
    assert_eq!(game.current(), Seat(2));
}

#[test]
fn after_a_draw_only_the_drawn_card_may_be_played() {
    let mut game = position(&["R1 B2", "Y1", "Y2"], "R5", "R9", None, 0);
    game.apply(Seat(0), Action::Draw).expect("drawing is allowed with a playable card");
    assert_eq!(game.check(Seat(0), Action::Play { card: card("R1"), color: None }), Err(IllegalAction::OnlyDrawnCard));
    assert_eq!(game.check(Seat(0), Action::Draw), Err(IllegalAction::AlreadyDrawn));
    play(&mut game, "R5", None);
    assert_eq!(game.current(), Seat(1));
}

#[test]
fn two_players_reverse_acts_as_skip_and_skip_and_draw_two_give_the_turn_back() {
    for c in ["RR", "RS", "RD2"] {
        let mut game = position(&[&format!("{c} B1"), "G1 G2"], "Y1 Y2", "R9", None, 0);
        play(&mut game, c, None);
        assert_eq!(game.current(), Seat(0), "{c}");
        assert_eq!(game.direction(), Direction::Clockwise, "{c}");
    }
    let mut game = position(&["W4 B1", "G1 G2"], "Y1 Y2 Y3 Y4", "R9", None, 0);
    play(&mut game, "W4", Some(Color::Blue));
    game.apply(Seat(1), Action::Accept).expect("accept");
    assert_eq!((game.hand(Seat(1)).len(), game.current()), (6, Seat(0)));
}

#[test]
fn the_reshuffle_keeps_the_top_card() {
    let mut game = position(&["B1 B2", "G1"], "", "R9 Y1 Y2 Y3", None, 0);
    let events = game.apply(Seat(0), Action::Draw).expect("draw");
    assert!(events.contains(&Event::DeckReshuffled { cards: 3 }));
    assert_eq!(game.discard_pile(), &cards("R9")[..]);
    assert_eq!(game.draw_pile().len() + 1, 3);
}

#[test]
fn going_out_on_a_draw_two_still_makes_the_next_player_draw_and_those_cards_count() {
    let mut game = position(&["RD2", "G1", "Y2"], "B9 B8 B7", "R9", None, 0);
    let events = play(&mut game, "RD2", None);
    assert_eq!(game.hand(Seat(1)), &cards("G1 B9 B8")[..]);
    assert!(events.contains(&Event::RoundScored { winner: Seat(0), points: 1 + 9 + 8 + 2, totals: vec![20, 0, 0] }));
}

#[test]
fn the_uno_catch_window_closes_when_the_next_player_acts() {
    let mut game = position(&["R1 R2", "R3 G1 G2", "Y2 Y3 Y4"], "B9 B8 B7", "R9", None, 0);
    play(&mut game, "R1", None);
    assert_eq!(game.uno_exposed(), Some(Seat(0)));
    assert!(game.legal_actions_for(Seat(2)).contains(&Action::CatchUno { seat: Seat(0) }));
    let mut caught = game.clone();
    let events = caught.apply(Seat(2), Action::CatchUno { seat: Seat(0) }).expect("catch");
    assert!(events.contains(&Event::UnoPenalty { seat: Seat(0), caught_by: Seat(2) }));
    assert_eq!(caught.hand(Seat(0)).len(), 3);
    play(&mut game, "R3", None);
    assert_eq!(game.uno_exposed(), None);
    assert!(!game.legal_actions_for(Seat(2)).iter().any(|a| matches!(a, Action::CatchUno { .. })));
    // The published rules have no false-call penalty: a late catch is refused and costs nothing.
    let before = game.state_hash();
    assert_eq!(game.apply(Seat(2), Action::CatchUno { seat: Seat(0) }), Err(IllegalAction::CatchTooLate));
    assert_eq!(game.state_hash(), before);
    assert_eq!(game.hand(Seat(0)).len(), 1);
    assert_eq!(game.hand(Seat(2)).len(), 3);
}

#[test]
fn under_seed_003_rules_a_late_catch_is_a_false_call_that_costs_the_catcher_two_cards() {
    let deal = Deal {
        hands: ["R1 R2", "R3 G1 G2", "Y2 Y3 Y4"].iter().map(|h| cards(h)).collect(),
        draw_pile: cards("B5 B6 B7 B8 B9"),
        discard: cards("R9"),
        color: None,
        current: Seat(0),
        direction: Direction::Clockwise,
        dealer: Seat(0),
    };
    let mut game =
        Game::from_position(Rules::preset("uno-engine").expect("preset"), &deal.into_position(9)).expect("position");
    play(&mut game, "R1", None);
    play(&mut game, "R3", None);
    let events = game.apply(Seat(2), Action::CatchUno { seat: Seat(0) }).expect("a false call");
    assert!(events.contains(&Event::FalseUnoCall { seat: Seat(2) }));
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::CardsDrawn { seat: Seat(2), reason: DrawReason::FalseUnoCall, .. })));
    assert_eq!(game.hand(Seat(0)).len(), 1);
    assert_eq!(game.hand(Seat(2)).len(), 5);
    // So does a call with nothing to call, and neither is ever offered as a legal action.
    let events = game.apply(Seat(0), Action::CallUno).expect("a false call");
    assert!(events.contains(&Event::FalseUnoCall { seat: Seat(0) }));
    assert_eq!(game.hand(Seat(0)).len(), 3);
    for seat in 0..3 {
        assert!(!game
            .legal_actions_for(Seat(seat))
            .iter()
            .any(|a| matches!(a, Action::CallUno | Action::CatchUno { .. })));
    }
}

#[test]
fn a_repeated_own_uno_call_is_refused_and_costs_nothing() {
    let mut game = position(&["R1 R2", "R3 G1 G2", "Y2 Y3 Y4"], "B9 B8 B7", "R9", None, 0);
    assert!(game.legal_actions().contains(&Action::CallUno));
    let events = game.apply(Seat(0), Action::CallUno).expect("own call");
    assert_eq!(events, vec![Event::UnoCalled { seat: Seat(0) }]);
    assert!(!game.legal_actions().contains(&Action::CallUno));
    let before = game.state_hash();
    assert_eq!(game.apply(Seat(0), Action::CallUno), Err(IllegalAction::UnoAlreadyCalled));
    assert_eq!(game.state_hash(), before);
    assert_eq!(game.hand(Seat(0)).len(), 2);
    play(&mut game, "R1", None);
    assert_eq!(game.uno_exposed(), None, "called in time: nobody can catch seat 0");
    assert_eq!(game.apply(Seat(1), Action::CatchUno { seat: Seat(0) }), Err(IllegalAction::UnoCalledInTime));
}

#[test]
fn an_uno_call_or_catch_that_means_nothing_is_refused_with_its_reason() {
    let mut game = position(&["R1 R2 R5", "R3 G1 G2", "Y2 Y3 Y4"], "B9 B8 B7", "R9", None, 0);
    let refused = |game: &mut Game, seat: u8, action: Action| game.apply(Seat(seat), action).map(|_| ());
    assert_eq!(refused(&mut game, 0, Action::CallUno), Err(IllegalAction::NothingToCall));
    assert_eq!(refused(&mut game, 1, Action::CallUno), Err(IllegalAction::NothingToCall));
    assert_eq!(refused(&mut game, 1, Action::CatchUno { seat: Seat(0) }), Err(IllegalAction::NotOnOneCard));
    assert_eq!(refused(&mut game, 1, Action::CatchUno { seat: Seat(1) }), Err(IllegalAction::CannotCatchYourself));
    assert_eq!(refused(&mut game, 1, Action::CatchUno { seat: Seat(7) }), Err(IllegalAction::NoSuchSeat));
    assert_eq!(game.hand(Seat(0)).len(), 3);
    assert_eq!(game.hand(Seat(1)).len(), 3);
}

#[test]
fn a_player_choosing_uniformly_among_legal_actions_ends_a_two_player_game_in_a_sane_number_of_actions() {
    // With a false-call penalty among the legal actions such a player kept drawing 2 cards and
    // games ran to tens of thousands of actions.
    let mut total = 0usize;
    let games = 20;
    for seed in 0..games {
        let mut game = Game::new(official(), 2, seed).expect("game");
        let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut actions = 0usize;
        while !game.is_round_over() && !game.is_over() && actions < 100_000 {
            let legal = game.legal_actions();
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let action = legal[(rng % legal.len() as u64) as usize];
            game.apply(game.current(), action).expect("a legal action is accepted");
            actions += 1;
        }
        assert!(game.is_round_over() || game.is_over(), "seed {seed} did not end in 100,000 actions");
        total += actions;
    }
    let mean = total / games as usize;
    assert!(mean < 2_000, "{mean} actions a round on average");
}

#[test]
fn a_stalemate_ends_the_game() {
    let mut game = position(&["B1 B2", "G1 G2"], "", "R9", None, 0);
    for _ in 0..2 {
        let seat = game.current();
        game.apply(seat, Action::Draw).expect("a draw that finds nothing");
    }
    assert!(game.is_over());
    let outcome = game.outcome().expect("over");
    assert_eq!((outcome.winner, outcome.reason), (None, EndReason::Stalemate));
}

#[test]
fn a_round_that_can_only_loop_ends_at_max_turns_as_a_stalemate_with_its_reason() {
    // Neither player can play a hand card; each draws the one card the reshuffle makes and
    // plays it back, for ever under the published rules.
    let mut game = position(&["G1 G2", "Y1 Y2"], "", "R9 R5", None, 0);
    let cap = official().max_turns();
    let mut actions = 0u64;
    while !game.is_over() && actions < 10 * u64::from(cap) {
        let seat = game.current();
        let first = game.legal_actions()[0];
        game.apply(seat, first).expect("legal");
        actions += 1;
    }
    let outcome = game.outcome().expect("the round ends");
    assert_eq!(outcome.reason, EndReason::MaxTurns);
    assert_eq!(outcome.winner, None);
    assert_eq!(game.turns(), cap);
    assert!(actions >= 2 * u64::from(cap), "every turn drew and played: {actions} actions");
}

#[test]
fn every_preset_terminates_even_for_players_choosing_uniformly_among_legal_actions() {
    for name in uno::PRESET_NAMES {
        let rules = Rules::preset(name).expect("preset");
        let limit = 200 * u64::from(rules.max_turns());
        for players in [rules.min_players(), rules.max_players()] {
            for seed in 0..4u64 {
                let mut game = Game::new(rules.clone(), players, seed).expect("game");
                let mut rng = (seed + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                let mut actions = 0u64;
                while !game.is_over() && actions < limit {
                    rng ^= rng << 13;
                    rng ^= rng >> 7;
                    rng ^= rng << 17;
                    let legal = game.legal_actions();
                    let action = legal[(rng % legal.len() as u64) as usize];
                    game.apply(game.current(), action).expect("a legal action is accepted");
                    actions += 1;
                }
                assert!(game.is_over(), "{name}, {players} players, seed {seed}: not over after {actions} actions");
            }
        }
    }
}

#[test]
fn a_seat_past_the_table_has_no_cards_no_call_and_no_legal_action() {
    let game = position(&["R1 R2", "R3 G1 G2", "Y2 Y3 Y4"], "B9 B8 B7", "R9", None, 0);
    for seat in [Seat(3), Seat(15), Seat(16), Seat(255)] {
        assert!(!game.uno_called(seat), "{seat}");
        assert!(game.hand(seat).is_empty(), "{seat}");
        assert!(game.legal_actions_for(seat).is_empty(), "{seat}");
        assert_eq!(game.check(seat, Action::CallUno), Err(IllegalAction::NoSuchSeat));
        assert_eq!(game.view(Seat(0)).hand_size(seat), 0);
    }
}
