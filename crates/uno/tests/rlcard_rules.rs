//! The `rlcard` preset plays RLCard's UNO (`rlcard` 1.2.0, `rlcard/games/uno`): one scenario
//! for each rule where it differs from the published rules, the three rule options it needs
//! (`draw_one_auto_play`, `last_resort`, the `rlcard` first card) among them.

use std::collections::BTreeSet;

use uno::{Action, Card, Color, Deal, Direction, DrawReason, Event, Face, Game, IllegalAction, Phase, Rules, Seat};

fn rlcard() -> Rules {
    Rules::preset("rlcard").expect("preset")
}

fn cards(text: &str) -> Vec<Card> {
    text.split_whitespace().map(|t| t.parse().expect("card")).collect()
}

fn card(text: &str) -> Card {
    cards(text)[0]
}

/// A position of the `rlcard` rules: hands in seat order, piles written top card first.
fn position(hands: &[&str], draw: &str, discard: &str, color: Option<Color>, current: u8) -> Game {
    let deal = Deal {
        hands: hands.iter().map(|h| cards(h)).collect(),
        draw_pile: cards(draw).into_iter().rev().collect(),
        discard: cards(discard).into_iter().rev().collect(),
        color,
        current: Seat(current),
        direction: Direction::Clockwise,
        dealer: Seat(0),
    };
    Game::from_position(rlcard(), &deal.into_position(9)).expect("position")
}

fn plays(game: &Game) -> Vec<Action> {
    game.legal_actions()
}

#[test]
fn the_preset_is_rlcards_table_of_rules() {
    use uno::rules::*;
    let r = rlcard();
    assert_eq!(r.deck().len(), 108);
    assert_eq!(r.hand_size(), 7);
    assert_eq!(r.first_player(), FirstPlayer::Seat0);
    assert_eq!(r.first_card(), FirstCard::Rlcard);
    assert_eq!(r.draw_rule(), DrawRule::DrawOneAutoPlay);
    assert_eq!(r.forced_play(), ForcedPlay::Required);
    assert_eq!(r.wild_draw_four(), WildDrawFourRule::LastResort);
    assert_eq!(r.two_players(), TwoPlayerRule::ReverseReverses);
    assert_eq!(r.stacking(), Stacking::Off);
    assert_eq!(r.uno_call(), UnoCall::Off);
    assert_eq!(r.exhausted(), Exhausted::Reshuffle);
    assert_eq!(r.target(), None, "one round is the game");
}

#[test]
fn a_wild_draw_four_is_playable_only_when_nothing_else_is() {
    // A card of the colour in play: that card only (RLCard lists no Wild Draw Four then).
    let game = position(&["W4 R5 G1", "B2 B3"], "Y1 Y2", "R3", None, 0);
    assert_eq!(plays(&game), vec![Action::Play { card: card("R5"), color: None }]);
    let refused = game.check(Seat(0), Action::Play { card: Card::WILD_DRAW_FOUR, color: Some(Color::Red) });
    assert_eq!(refused, Err(IllegalAction::WildDrawFourLastResort));
    // A plain Wild plays, so the Wild Draw Four still waits.
    let game = position(&["W4 W G1", "B2 B3"], "Y1 Y2", "R3", None, 0);
    let legal = plays(&game);
    assert_eq!(legal.len(), 4, "the Wild in four colours: {legal:?}");
    assert!(legal.iter().all(|a| matches!(a, Action::Play { card, .. } if *card == Card::WILD)));
    // A card matching by number alone counts as playable, as in RLCard.
    let game = position(&["W4 G3", "B2 B3"], "Y1 Y2", "R3", None, 0);
    assert_eq!(plays(&game), vec![Action::Play { card: card("G3"), color: None }]);
    // Nothing else plays: the Wild Draw Four must be played (no draw), and nobody challenges.
    let mut game = position(&["W4 G1", "B2 B3"], "Y1 Y2 Y4 Y5 Y6", "R3", None, 0);
    let legal = plays(&game);
    assert_eq!(legal.len(), 4, "{legal:?}");
    assert_eq!(game.check(Seat(0), Action::Draw), Err(IllegalAction::MustPlayWhenAble));
    game.apply(Seat(0), Action::Play { card: Card::WILD_DRAW_FOUR, color: Some(Color::Blue) }).expect("legal");
    assert_eq!(game.hand(Seat(1)).len(), 6, "the next player drew 4 at once");
    // Two players: the victim loses the turn, so the player of the Wild Draw Four goes on.
    assert_eq!((game.current(), game.phase(), game.color()), (Seat(0), Phase::Play, Some(Color::Blue)));
}

#[test]
fn a_player_who_can_play_must_and_nobody_calls_uno() {
    let game = position(&["R5 G1", "B2 B3"], "Y1 Y2", "R3", None, 0);
    assert_eq!(game.check(Seat(0), Action::Draw), Err(IllegalAction::MustPlayWhenAble));
    assert_eq!(game.check(Seat(0), Action::CallUno), Err(IllegalAction::UnoCallsOff));
    let game = position(&["G1", "B2 B3"], "Y1 Y2", "R3", None, 0);
    assert_eq!(plays(&game), vec![Action::Draw], "nothing plays: draw, and only draw");
}

#[test]
fn a_drawn_card_of_the_colour_in_play_is_played_at_once_and_acts() {
    // Three players: seat 0 draws a red Skip on a red 3, which skips seat 1.
    let mut game = position(&["G1 G2", "B2 B3", "Y7 Y8"], "RS Y1 Y2", "R3", None, 0);
    let events = game.apply(Seat(0), Action::Draw).expect("legal");
    assert_eq!(game.top(), card("RS"));
    assert_eq!(game.hand(Seat(0)).len(), 2, "drawn and played");
    assert!(events.contains(&Event::PlayerSkipped { seat: Seat(1) }), "{events:?}");
    assert_eq!(game.current(), Seat(2));
    // A drawn red Draw Two makes the next player draw 2 and lose the turn.
    let mut game = position(&["G1 G2", "B2 B3", "Y7 Y8"], "RD2 Y1 Y2", "R3", None, 0);
    game.apply(Seat(0), Action::Draw).expect("legal");
    assert_eq!((game.top(), game.hand(Seat(1)).len(), game.current()), (card("RD2"), 4, Seat(2)));
    // A drawn red number: played, and the next player is next.
    let mut game = position(&["G1 G2", "B2 B3", "Y7 Y8"], "R9 Y1 Y2", "R3", None, 0);
    game.apply(Seat(0), Action::Draw).expect("legal");
    assert_eq!((game.top(), game.current(), game.phase()), (card("R9"), Seat(1), Phase::Play));
}

#[test]
fn a_drawn_wild_is_played_at_once_in_a_colour_at_random_and_without_effect() {
    let mut colors = BTreeSet::new();
    for seed in 0..64 {
        let deal = Deal {
            hands: vec![cards("G1 G2"), cards("B2 B3"), cards("Y7 Y8")],
            draw_pile: cards("W4 Y1 Y2 Y3 Y4").into_iter().rev().collect(),
            discard: cards("R3"),
            color: None,
            current: Seat(0),
            direction: Direction::Clockwise,
            dealer: Seat(0),
        };
        let mut game = Game::from_position(rlcard(), &deal.into_position(seed)).expect("position");
        let events = game.apply(Seat(0), Action::Draw).expect("legal");
        assert_eq!(game.top(), Card::WILD_DRAW_FOUR);
        assert_eq!(game.hand(Seat(0)).len(), 2, "drawn and played");
        assert_eq!(game.hand(Seat(1)).len(), 2, "a drawn Wild Draw Four makes nobody draw");
        assert_eq!((game.current(), game.phase()), (Seat(1), Phase::Play), "and skips nobody");
        let color = game.color().expect("a colour is in play");
        assert!(events.contains(&Event::ColorDeclared { seat: Seat(0), color }), "{events:?}");
        colors.insert(color as u8);
    }
    assert_eq!(colors.len(), 4, "the generator draws every colour");
}

#[test]
fn a_drawn_card_that_matches_only_by_number_is_kept_and_the_turn_ends() {
    let mut game = position(&["G1 G2", "B2 B3"], "G3 Y1 Y2", "R3", None, 0);
    let events = game.apply(Seat(0), Action::Draw).expect("legal");
    assert_eq!(game.hand(Seat(0)).len(), 3);
    assert_eq!((game.top(), game.current(), game.phase()), (card("R3"), Seat(1), Phase::Play));
    assert!(events.iter().any(|e| matches!(e, Event::CardsDrawn { reason: DrawReason::Turn, count: 1, .. })));
}

#[test]
fn a_reverse_between_two_players_passes_the_turn() {
    let mut game = position(&["RR G2", "B2 B3"], "Y1 Y2", "R3", None, 0);
    game.apply(Seat(0), Action::Play { card: card("RR"), color: None }).expect("legal");
    assert_eq!((game.current(), game.direction()), (Seat(1), Direction::CounterClockwise));
}

/// A dealt game whose first card (the one kept) has `face`, at a table of `players`.
fn first_card(face: Face, players: usize) -> Vec<Game> {
    let found: Vec<Game> = (0..2000)
        .map(|seed| Game::new(rlcard(), players, seed).expect("game"))
        .filter(|g| g.discard_pile().len() == 1 && g.top().face() == face)
        .collect();
    assert!(!found.is_empty(), "no seed turns up {face}");
    found
}

#[test]
fn rlcards_first_card() {
    // Seat 0 plays first.
    for game in first_card(Face::Digit(5), 3) {
        assert_eq!(game.current(), Seat(0));
    }
    // A Wild: nobody names its colour, it is drawn at random, and seat 0 plays on it.
    let mut colors = BTreeSet::new();
    for game in first_card(Face::Wild, 3) {
        assert_eq!((game.current(), game.phase()), (Seat(0), Phase::Play));
        colors.insert(game.color().expect("a colour is in play") as u8);
    }
    assert!(colors.len() >= 2, "the colour is drawn: {colors:?}");
    // A Wild Draw Four never stays first.
    assert!((0..2000).all(|seed| Game::new(rlcard(), 2, seed).expect("game").top() != Card::WILD_DRAW_FOUR));
    // A Draw Two: seat 0 draws two, and still plays.
    for game in first_card(Face::DrawTwo, 3) {
        assert_eq!((game.current(), game.hand(Seat(0)).len()), (Seat(0), 9));
    }
    // A Skip skips seat 0; a Reverse lets the dealer (the last seat) play first, the other way.
    for game in first_card(Face::Skip, 3) {
        assert_eq!(game.current(), Seat(1));
    }
    for game in first_card(Face::Reverse, 2) {
        assert_eq!((game.current(), game.direction()), (Seat(1), Direction::CounterClockwise));
    }
}

#[test]
fn a_round_is_the_game_and_its_winner_goes_out() {
    for seed in 0..200 {
        let mut game = Game::new(rlcard(), 2, seed).expect("game");
        while !game.is_over() {
            let legal = game.legal_actions();
            assert!(!legal.is_empty());
            let pick = legal[(seed as usize + game.turns() as usize) % legal.len()];
            game.apply(game.current(), pick).expect("legal");
            assert_eq!(game.all_cards(), rlcard().deck().to_vec(), "no card made or lost");
        }
        let outcome = game.outcome().expect("over");
        if let Some(winner) = outcome.winner {
            assert!(game.hand(winner).is_empty());
        }
        assert_eq!(game.round(), 1);
    }
}
