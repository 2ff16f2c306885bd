//! Seed 002 (CS410 "Uno Design"): every statement of the seed, checked on `uno::courses::cs410::GameState`.
//! Test names quote the seed.

use uno::courses::cs410::{Choice, GameState, StartError};
use uno::{Card, Color, Deal, Direction, Face, Seat};

use uno::testing::{card, cards};

/// Hands in seat order, piles written top card first, `current` to play, clockwise.
fn position(hands: &[&str], draw: &str, discard: &str, current: u8) -> GameState {
    let deal =
        Deal::new(hands.iter().map(|h| cards(h)).collect(), bottom_first(draw), bottom_first(discard), Seat(current));
    GameState::from_deal(deal, 3).expect("position")
}

#[test]
fn it_requires_at_least_two_players() {
    assert_eq!(GameState::start_game(1, 7, 1, 1, 4).err(), Some(StartError::TooFewPlayers(1)));
    assert_eq!(GameState::start_game(0, 7, 1, 1, 4).err(), Some(StartError::TooFewPlayers(0)));
    assert!(GameState::start_game(2, 7, 1, 1, 4).is_ok());
}

#[test]
fn counts_that_cannot_make_a_game_are_a_typed_error() {
    assert_eq!(GameState::start_game(2, 7, 0, 0, 0).err(), Some(StartError::EmptyDeck));
    assert_eq!(GameState::start_game(4, 10, 1, 0, 0).err(), Some(StartError::DeckTooSmall { needed: 41, have: 40 }));
    assert!(GameState::start_game(4, 9, 1, 0, 3).is_ok(), "40 + 3 cards deal 36 and start the pile");
    assert_eq!(GameState::start_game(2, 0, 1, 1, 1).err(), Some(StartError::NoInitialCards));
    assert_eq!(GameState::start_game(11, 1, 2, 2, 4).err(), Some(StartError::TooManyPlayers(11)));
    assert!(
        matches!(GameState::start_game(2, 1, 65, 0, 0), Err(StartError::Rules(_))),
        "more copies than the engine takes"
    );
    assert!(GameState::start_game(2, 7, 0, 0, 15).is_ok(), "a deck of wilds only is a deck");
}

#[test]
fn count_digit_cards_per_color_2_means_2_red_0_cards_2_yellow_0_cards_etc() {
    let game = GameState::start_game_seeded(1, 2, 1, 2, 0, 0).expect("game");
    let all = game.game().all_cards();
    for color in Color::ALL {
        for d in 0..=9 {
            let n = all.iter().filter(|c| c.color() == Some(color) && c.face() == Face::Digit(d)).count();
            assert_eq!(n, 2, "{color} {d}");
        }
    }
    assert_eq!(all.len(), 80);
}

#[test]
fn count_special_cards_per_color_1_means_1_red_skip_1_yellow_skip_1_red_reverse_and_may_be_0() {
    let game = GameState::start_game_seeded(1, 2, 1, 0, 1, 0).expect("game");
    let all = game.game().all_cards();
    for color in Color::ALL {
        for f in [Face::Skip, Face::Reverse, Face::DrawTwo] {
            assert_eq!(all.iter().filter(|c| c.color() == Some(color) && c.face() == f).count(), 1);
        }
    }
    assert!(all.iter().all(|c| !matches!(c.face(), Face::Digit(_))));
    let none = GameState::start_game_seeded(1, 2, 1, 1, 0, 0).expect("specials may be 0");
    assert!(none.game().all_cards().iter().all(|c| matches!(c.face(), Face::Digit(_))));
}

#[test]
fn count_wild_cards_number_of_total_wild_cards_may_be_0() {
    let game = GameState::start_game_seeded(1, 2, 1, 1, 0, 5).expect("game");
    let all = game.game().all_cards();
    assert_eq!(all.iter().filter(|c| **c == Card::WILD).count(), 5, "5 in all, not per colour");
    assert!(!all.contains(&Card::WILD_DRAW_FOUR), "no Wild Draw Four in this deck");
    let none = GameState::start_game_seeded(1, 2, 1, 1, 0, 0).expect("wilds may be 0");
    assert!(none.game().all_cards().iter().all(|c| !c.is_wild()));
}

#[test]
fn after_start_game_the_state_is_immediately_before_the_first_player_takes_their_first_turn() {
    for seed in 0..20 {
        let game = GameState::start_game_seeded(seed, 3, 5, 1, 1, 2).expect("game");
        assert!(game.hands().iter().all(|h| h.len() == 5), "each player is initially dealt 5 cards");
        assert_eq!(game.discard_pile().len(), 1, "the next card starts the discard pile");
        assert_eq!(game.draw_pile().len(), 40 + 12 + 2 - 15 - 1, "the undealt cards are the draw pile");
        assert_eq!(game.current_player(), 0);
        assert_eq!(game.game().turns(), 0);
        assert!(!game.is_game_over());
    }
}

#[test]
fn players_take_turns_in_order_around_the_circle() {
    let mut game = position(&["R1 R2", "R3 R4", "R5 R6"], "B1 B2", "R9", 0);
    let mut order = Vec::new();
    for _ in 0..4 {
        order.push(game.current_player());
        game.run_one_turn();
    }
    assert_eq!(order, [0, 1, 2, 0]);
}

#[test]
fn players_play_cards_face_up_on_the_top_of_the_discard_pile_and_draw_from_the_top_of_the_draw_pile() {
    let mut game = position(&["R1 B5", "G3 G4"], "B7 Y2", "R9", 0);
    game.run_one_turn();
    assert_eq!(game.top_card(), card("R1"));
    assert_eq!(game.discard_pile(), cards("R1 R9"));
    game.run_one_turn();
    assert_eq!(game.hand(1), &cards("G3 G4 B7")[..], "the top of the draw pile");
    assert_eq!(game.draw_pile(), cards("Y2"));
}

#[test]
fn if_the_player_has_any_playable_cards_they_must_play_one_of_them_and_then_their_turn_ends() {
    let mut game = position(&["B5 R1 R2", "G3 G4"], "B7", "R9", 0);
    let events = game.run_one_turn();
    assert!(events.iter().any(|e| matches!(e, uno::Event::CardPlayed { .. })));
    assert!(!events.iter().any(|e| matches!(e, uno::Event::CardsDrawn { .. })), "no draw while able to play");
    assert_eq!(game.hand(0), &cards("B5 R2")[..], "by default the first playable card");
    assert_eq!(game.current_player(), 1);
}

#[test]
fn which_playable_card_is_played_is_a_pluggable_strategy() {
    let mut game = position(&["B5 R1 R2", "G3 G4"], "B7", "R9", 0);
    game.set_strategy(0, |view: &Choice<'_>| *view.playable.last().expect("some"));
    game.run_one_turn();
    assert_eq!(game.top_card(), card("R2"));
    // A strategy cannot cheat: an unplayable answer falls back to the first playable card.
    let mut game = position(&["B5 R1 R2", "G3 G4"], "B7", "R9", 0);
    game.set_strategy(0, |_: &Choice<'_>| "B5".parse::<Card>().expect("card"));
    game.run_one_turn();
    assert_eq!(game.top_card(), card("R1"));
}

#[test]
fn if_they_draw_a_playable_card_they_must_immediately_play_it_and_then_their_turn_ends() {
    let mut game = position(&["B5 G1", "G3 G4"], "R4 Y2", "R9", 0);
    game.run_one_turn();
    assert_eq!(game.top_card(), card("R4"));
    assert_eq!(game.hand(0), &cards("B5 G1")[..]);
    assert_eq!(game.current_player(), 1);
}

#[test]
fn otherwise_they_add_the_drawn_card_to_their_hand_and_their_turn_ends() {
    let mut game = position(&["B5 G1", "G3 G4"], "Y4 Y2", "R9", 0);
    game.run_one_turn();
    assert_eq!(game.hand(0), &cards("B5 G1 Y4")[..]);
    assert_eq!(game.top_card(), card("R9"));
    assert_eq!(game.current_player(), 1);
}

#[test]
fn skip_the_next_player_is_skipped_and_the_player_after_the_skipped_player_takes_the_next_turn() {
    let mut game = position(&["RS B1", "G3", "G4", "G5"], "Y4", "R9", 0);
    game.run_one_turn();
    assert_eq!(game.current_player(), 2);
}

#[test]
fn reverse_the_order_of_play_around_the_circle_is_reversed() {
    let mut game = position(&["RR B1", "G3", "G4", "G5"], "Y4", "R9", 0);
    game.run_one_turn();
    assert_eq!(game.direction(), Direction::CounterClockwise);
    assert_eq!(game.current_player(), 3);
    // With two players a Reverse only reverses (the seed has no two-player rule): the other
    // player is next either way.
    let mut two = position(&["RR B1", "G3"], "Y4", "R9", 0);
    two.run_one_turn();
    assert_eq!((two.current_player(), two.direction()), (1, Direction::CounterClockwise));
}

#[test]
fn draw_two_the_next_player_must_draw_two_cards_and_then_their_turn_is_over() {
    let mut game = position(&["RD2 B1", "R3", "G4"], "Y4 Y5 Y6", "R9", 0);
    game.run_one_turn();
    assert_eq!(game.hand(1), &cards("R3 Y4 Y5")[..], "no opportunity to play the R3");
    assert_eq!(game.current_player(), 2, "play continues with the player after them");
}

#[test]
fn a_wild_card_is_always_playable_and_the_player_declares_its_effective_color() {
    let mut game = position(&["W B1 G2 G3", "Y3"], "Y4", "R9", 0);
    game.run_one_turn();
    assert_eq!(game.top_card(), Card::WILD);
    assert_eq!(game.current_color(), Color::Green, "the default strategy names the colour it holds most of");
}

#[test]
fn if_the_top_card_is_a_wild_card_it_is_treated_as_the_color_declared() {
    let deal = Deal {
        hands: vec![cards("R1 B1"), cards("Y3")],
        draw_pile: cards("Y4"),
        discard: cards("W"),
        color: Some(Color::Blue),
        current: Seat(0),
        direction: Direction::Clockwise,
        dealer: Seat(1),
    };
    let mut game = GameState::from_deal(deal, 1).expect("position");
    game.run_one_turn();
    assert_eq!(game.top_card(), card("B1"));
}

#[test]
fn a_normal_card_is_playable_if_it_matches_either_the_color_or_the_face_of_the_top_card() {
    for (top, playable) in [("R3", true), ("RS", true), ("B7", true), ("B3", false)] {
        let mut game = position(&["R7", "Y1"], "Y4", top, 0);
        game.run_one_turn();
        assert_eq!(game.top_card() == card("R7"), playable, "a Red 7 on {top}");
    }
}

#[test]
fn if_the_draw_pile_becomes_empty_it_is_refreshed_from_the_discard_pile_the_top_card_is_retained() {
    let mut game = position(&["B5", "G3 G4"], "", "R9 Y1 Y2 Y3", 0);
    game.run_one_turn();
    assert_eq!(game.discard_pile(), cards("R9"), "the new discard pile consists of only that card");
    assert_eq!(game.hand(0).len(), 2);
    let mut recycled = game.draw_pile();
    recycled.push(game.hand(0)[1]);
    recycled.sort();
    assert_eq!(recycled, {
        let mut v = cards("Y1 Y2 Y3");
        v.sort();
        v
    });
}

#[test]
fn the_first_player_to_get_rid_of_all_of_their_cards_wins_the_game() {
    let mut game = position(&["R1", "G3 G4"], "Y4", "R9", 0);
    assert!(!game.is_game_over());
    game.run_one_turn();
    assert!(game.is_game_over());
    assert_eq!(game.winner(), Some(0));
    assert!(!game.is_stalemate());
}

#[test]
fn calling_run_one_turn_on_a_finished_game_changes_nothing() {
    let mut game = position(&["R1", "G3 G4"], "Y4", "R9", 0);
    game.run_one_turn();
    let before = game.game().state_hash();
    assert!(game.run_one_turn().is_empty());
    assert_eq!(game.game().state_hash(), before);
}

#[test]
fn a_game_in_which_nobody_can_play_or_draw_ends_as_a_stalemate_instead_of_looping() {
    let mut game = position(&["B1 B2", "G3 G4"], "", "R9", 0);
    let mut turns = 0;
    while !game.is_game_over() && turns < 100 {
        game.run_one_turn();
        turns += 1;
    }
    assert!(game.is_game_over() && game.is_stalemate());
    assert_eq!(game.winner(), None);
    assert_eq!(turns, 2, "once every player in turn could do nothing");
}

#[test]
fn random_games_end_and_conserve_every_card() {
    for seed in 0..100 {
        let players = 2 + (seed % 5) as u32;
        let mut game = GameState::start_game_seeded(seed, players, 5, 1, 1, 4).expect("game");
        let deck = game.game().all_cards();
        let mut turns = 0;
        while !game.is_game_over() {
            game.run_one_turn();
            turns += 1;
            assert!(turns < 100_000, "seed {seed} did not end");
            assert_eq!(game.game().all_cards(), deck);
        }
        assert!(game.winner().is_some() || game.is_stalemate());
    }
}

/// Cards written top card first, as a pile lists them: bottom card first.
fn bottom_first(text: &str) -> Vec<Card> {
    cards(text).into_iter().rev().collect()
}
