//! Seed 003 (the `uno-engine` npm README): every statement of the seed, checked on
//! `uno::courses::uno_engine::Table` under the `uno-engine` preset. Test names quote the seed.

use std::sync::{Arc, Mutex};

use uno::courses::uno_engine::{Table, TableError, TableEvent, Yell};
use uno::{Card, Color, Deal, Direction, Face, IllegalAction, Rules, Seat};

const NAMES: [&str; 3] = ["Ann", "Bob", "Cid"];

use uno::testing::{card, cards};

fn uno_engine() -> Rules {
    Rules::preset("uno-engine").expect("preset")
}

/// A dealt table: hands in seat order, piles written top card first, `current` to play, clockwise.
fn table(names: &[&str], hands: &[&str], draw: &str, discard: &str, current: u8) -> Table {
    let deal =
        Deal::new(hands.iter().map(|h| cards(h)).collect(), bottom_first(draw), bottom_first(discard), Seat(current));
    Table::from_deal(names.iter().copied(), uno_engine(), deal, 5).expect("position")
}

fn current(t: &Table) -> String {
    t.current_player().expect("dealt").name().to_string()
}

#[test]
fn maximum_10_players_with_unique_names() {
    let names: Vec<String> = (1..=11).map(|i| format!("Player {i}")).collect();
    assert!(Table::new(names[..10].to_vec()).is_ok());
    assert_eq!(Table::new(names.clone()).err(), Some(TableError::PlayerCount(11)));
    assert_eq!(Table::new(["Solo"]).err(), Some(TableError::PlayerCount(1)));
    assert_eq!(Table::new(["Ann", "Bob", "Ann"]).err(), Some(TableError::DuplicateName("Ann".into())));
    assert_eq!(Table::new(["Ann", " "]).err(), Some(TableError::EmptyName));
}

#[test]
fn after_starting_a_new_game_the_first_card_is_random_hands_of_7_are_dealt_and_a_random_player_goes_first() {
    let mut firsts = std::collections::BTreeSet::new();
    let mut tops = std::collections::BTreeSet::new();
    for seed in 0..60 {
        let mut t = Table::with_seed(NAMES, seed).expect("table");
        assert!(t.current_player().is_none(), "no current player before new_game");
        t.new_game().expect("dealt");
        firsts.insert(current(&t));
        tops.insert(t.discarded_card().expect("a card in play"));
        let dealt: usize = t.players().iter().map(|p| p.hand().len()).sum();
        let game = t.game().expect("dealt");
        let penalty = if game.top().face() == Face::DrawTwo { 2 } else { 0 };
        assert_eq!(dealt, 21 + penalty, "hands of 7 (a first Draw Two adds 2)");
        assert_eq!(game.all_cards().len(), 108);
    }
    assert_eq!(firsts.len(), 3);
    assert!(tops.len() > 20);
}

#[test]
fn current_player_get_player_hand_and_get_card_by_value() {
    let t = table(&NAMES, &["R7 W B2", "G3", "Y4"], "R1", "R9", 0);
    let me = t.current_player().expect("dealt");
    assert_eq!(me.name(), "Ann");
    assert_eq!(me.hand(), &cards("R7 W B2")[..]);
    let bob = t.player("Bob").expect("non-current player");
    assert_eq!(bob.hand(), &cards("G3")[..]);
    assert!(t.player("Zed").is_none());
    assert_eq!(me.card_by_value(Face::Digit(7), Some(Color::Red)), Some(card("R7")));
    assert_eq!(me.card_by_value(Face::Digit(7), Some(Color::Blue)), None);
    assert_eq!(me.card_by_value(Face::Wild, None), Some(Card::WILD), "a wild has no colour to give");
    assert_eq!(t.discarded_card(), Some(card("R9")));
}

#[test]
fn play_throws_if_the_player_does_not_have_the_card_if_it_does_not_match_or_if_a_wild_has_no_color() {
    let mut t = table(&NAMES, &["R7 W B2", "G3", "Y4"], "R1", "R9", 0);
    assert_eq!(t.play(card("G5"), None), Err(TableError::Refused(IllegalAction::CardNotInHand)));
    assert_eq!(t.play(card("B2"), None), Err(TableError::Refused(IllegalAction::DoesNotMatch)));
    assert_eq!(t.play(Card::WILD, None), Err(TableError::Refused(IllegalAction::ColorRequired)));
    assert_eq!(t.player("Ann").expect("Ann").hand().len(), 3, "a refused play changes nothing");
    t.play(Card::WILD, Some(Color::Blue)).expect("a wild with its colour");
    assert_eq!(t.color(), Some(Color::Blue));
}

#[test]
fn draw_draws_a_card_for_the_current_player_and_pass_throws_unless_they_have_drawn() {
    let mut t = table(&NAMES, &["R7 B2", "G3", "Y4"], "G1 Y2", "R9", 0);
    assert_eq!(t.pass(), Err(TableError::Refused(IllegalAction::MustDrawBeforePass)));
    t.draw().expect("draw");
    assert_eq!(t.player("Ann").expect("Ann").hand(), &cards("R7 B2 G1")[..]);
    assert_eq!(t.draw(), Err(TableError::Refused(IllegalAction::AlreadyDrawn)), "never twice in a turn");
    assert_eq!(t.play(card("R7"), None), Err(TableError::Refused(IllegalAction::OnlyDrawnCard)));
    t.pass().expect("pass after drawing");
    assert_eq!(current(&t), "Bob");
}

#[test]
fn if_that_card_can_be_played_play_it() {
    let mut t = table(&NAMES, &["B2 B3", "G3", "Y4"], "R1", "R9", 0);
    t.draw().expect("draw");
    t.play(card("R1"), None).expect("the drawn card matches");
    assert_eq!(t.discarded_card(), Some(card("R1")));
}

#[test]
fn uno_the_current_player_with_2_or_less_cards_is_just_marked_as_yelled() {
    let mut t = table(&NAMES, &["R7 B2", "G3 G4 G5", "Y4 Y5"], "R1 R2 R3", "R9", 0);
    assert_eq!(t.uno(None).expect("yell").0, Yell::Marked);
    assert!(t.player("Ann").expect("Ann").has_yelled_uno());
    assert_eq!(t.uno(Some("Ann")).expect("again").0, Yell::Marked, "a second yell is harmless");
    assert_eq!(t.player("Ann").expect("Ann").hand().len(), 2);
    t.play(card("R7"), None).expect("play");
    assert!(t.player("Ann").expect("Ann").has_yelled_uno());
}

#[test]
fn uno_a_yeller_with_more_than_2_cards_makes_a_player_with_1_card_who_did_not_yell_draw_2() {
    let mut t = table(&NAMES, &["R7 B2", "G3 G4 G5", "Y4 Y5"], "R1 R2 R3", "R9", 0);
    t.play(card("R7"), None).expect("Ann goes down to one card without yelling");
    let (yell, _) = t.uno(Some("Bob")).expect("Bob yells");
    assert_eq!(yell, Yell::Caught("Ann".into()));
    assert_eq!(t.player("Ann").expect("Ann").hand().len(), 3);
}

#[test]
fn uno_if_there_is_no_one_to_catch_the_yelling_player_draws_instead() {
    let mut t = table(&NAMES, &["R7 B2 B3", "G3 G4 G5", "Y4 Y5"], "R1 R2 R3", "R9", 0);
    let (yell, _) = t.uno(Some("Bob")).expect("Bob yells");
    assert_eq!(yell, Yell::FalseCall);
    assert_eq!(t.player("Bob").expect("Bob").hand().len(), 5);
}

#[test]
fn uno_caught_not_saying_uno_before_any_card_has_been_played() {
    let mut t = table(&NAMES, &["R7 B2", "G3 G4 G5", "Y4 Y5"], "R1 R2 R3", "R9", 0);
    t.play(card("R7"), None).expect("Ann goes down to one card without yelling");
    t.draw().expect("Bob cannot play on R7 and draws");
    // Bob has acted: Ann can no longer be caught, so Cid's yell is a false call.
    let (yell, _) = t.uno(Some("Cid")).expect("Cid yells");
    assert_eq!(yell, Yell::FalseCall);
    assert_eq!(t.player("Ann").expect("Ann").hand().len(), 1);
}

#[test]
fn events_cardplay_nextplayer_and_end_with_the_winner_and_score() {
    let mut t = table(&NAMES, &["R7", "G3 W RS", "Y4 R4"], "R1 R2 R3", "R9", 0);
    let seen = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&seen);
    t.on(move |e| sink.lock().expect("lock").push(e.clone()));
    let events = t.play(card("R7"), None).expect("Ann goes out");
    assert_eq!(events[0], TableEvent::CardPlay { card: card("R7"), color: None, played_by: "Ann".into() });
    // Number cards their value, wild 50, skip/reverse/draw two 20: 3 + 50 + 20 + 4 + 4.
    assert!(events.contains(&TableEvent::End { winner: "Ann".into(), score: 81 }));
    assert_eq!(*seen.lock().expect("lock"), events);
    assert_eq!(t.winner(), Some("Ann"));
    assert_eq!(t.scores(), vec![("Ann", 81), ("Bob", 0), ("Cid", 0)]);
    assert_eq!(t.play(card("G3"), None), Err(TableError::Refused(IllegalAction::RoundOver)), "no play after the end");
    assert_eq!(t.draw(), Err(TableError::Refused(IllegalAction::RoundOver)));
    t.next_round().expect("the game begins over again");
    assert_eq!(t.scores()[0], ("Ann", 81), "points are kept towards 500");
    let mut t = table(&NAMES, &["R7 R8", "G3", "Y4"], "R1", "R9", 0);
    let events = t.play(card("R7"), None).expect("play");
    assert!(events.contains(&TableEvent::NextPlayer { player: "Bob".into() }));
}

#[test]
fn game_rules_108_cards() {
    let deck = uno_engine().deck().to_vec();
    assert_eq!(deck.len(), 108);
    for color in Color::ALL {
        let n = |f: Face| deck.iter().filter(|c| c.color() == Some(color) && c.face() == f).count();
        assert_eq!((0..=9).map(|d| n(Face::Digit(d))).sum::<usize>(), 19, "19 number cards, only one 0");
        assert_eq!(n(Face::Digit(0)), 1);
        assert_eq!((n(Face::DrawTwo), n(Face::Reverse), n(Face::Skip)), (2, 2, 2));
    }
    assert_eq!(deck.iter().filter(|c| **c == Card::WILD).count(), 4);
    assert_eq!(deck.iter().filter(|c| **c == Card::WILD_DRAW_FOUR).count(), 4);
}

#[test]
fn draw_two_the_next_player_picks_up_two_cards_and_forfeits_the_turn() {
    let mut t = table(&NAMES, &["RD2 B1", "G3", "Y4"], "R1 R2 R3", "R9", 0);
    t.play(card("RD2"), None).expect("play");
    assert_eq!(t.player("Bob").expect("Bob").hand(), &cards("G3 R1 R2")[..]);
    assert_eq!(current(&t), "Cid");
}

#[test]
fn reverse_if_going_clockwise_switch_to_counterclockwise() {
    let mut t = table(&NAMES, &["RR B1", "G3", "Y4"], "R1", "R9", 0);
    t.play(card("RR"), None).expect("play");
    assert_eq!(t.game().expect("dealt").direction(), Direction::CounterClockwise);
    assert_eq!(current(&t), "Cid");
}

#[test]
fn skip_the_next_player_has_to_skip_their_turn() {
    let mut t = table(&NAMES, &["RS B1", "G3", "Y4"], "R1", "R9", 0);
    t.play(card("RS"), None).expect("play");
    assert_eq!(current(&t), "Cid");
}

#[test]
fn wild_draw_four_if_guilty_you_draw_4_if_not_the_challenger_draws_6() {
    let mut guilty = table(&NAMES, &["W4 R1 B1", "G3", "Y4"], "Y1 Y2 Y3 Y5 Y6 Y7 Y8", "R9", 0);
    guilty.play(Card::WILD_DRAW_FOUR, Some(Color::Green)).expect("play");
    guilty.challenge().expect("Bob challenges");
    assert_eq!(guilty.player("Ann").expect("Ann").hand().len(), 6, "Ann held a red card");
    let mut innocent = table(&NAMES, &["W4 B1 B2", "G3", "Y4"], "Y1 Y2 Y3 Y5 Y6 Y7 Y8", "R9", 0);
    innocent.play(Card::WILD_DRAW_FOUR, Some(Color::Green)).expect("play");
    innocent.challenge().expect("Bob challenges");
    assert_eq!(innocent.player("Bob").expect("Bob").hand().len(), 7);
    assert_eq!(current(&innocent), "Cid");
    let mut accepted = table(&NAMES, &["W4 B1 B2", "G3", "Y4"], "Y1 Y2 Y3 Y5 Y6 Y7 Y8", "R9", 0);
    accepted.play(Card::WILD_DRAW_FOUR, Some(Color::Green)).expect("play");
    accepted.draw().expect("drawing takes the four cards");
    assert_eq!(accepted.player("Bob").expect("Bob").hand().len(), 5);
    assert_eq!(current(&accepted), "Cid");
}

#[test]
fn for_two_players_skip_reverse_and_draw_two_give_the_turn_back() {
    for c in ["RS", "RR", "RD2"] {
        let mut t = table(&["Ann", "Bob"], &[&format!("{c} B1"), "G3"], "R1 R2 R3", "R9", 0);
        t.play(card(c), None).expect("play");
        assert_eq!(current(&t), "Ann", "{c}: you may immediately play another card");
    }
}

#[test]
fn the_deck_never_duplicates_cards_when_the_draw_pile_runs_out_the_discard_pile_is_reshuffled() {
    use uno::Action;
    let mut reshuffles = 0;
    for seed in 0..30 {
        let mut t = Table::with_seed(NAMES, seed).expect("table");
        t.new_game().expect("dealt");
        let mut steps = 0;
        while !t.is_round_over() && steps < 5000 {
            let action = t.game().expect("dealt").legal_actions()[0];
            let events = match action {
                Action::Play { card, color } => t.play(card, color),
                Action::Draw | Action::Accept => t.draw(),
                Action::Pass => t.pass(),
                Action::DeclareColor { color } => t.choose_color(color),
                Action::Challenge => t.challenge(),
                Action::CallUno => t.uno(None).map(|(_, e)| e),
                other => panic!("unexpected {other}"),
            }
            .expect("a legal action is accepted");
            reshuffles +=
                events.iter().filter(|e| matches!(e, TableEvent::Other(uno::Event::DeckReshuffled { .. }))).count();
            assert_eq!(t.game().expect("dealt").all_cards(), uno_engine().deck(), "seed {seed}");
            steps += 1;
        }
        assert!(t.is_round_over(), "seed {seed}");
    }
    assert!(reshuffles > 0, "some game ran through the draw pile");
}

#[test]
fn a_wild_first_card_returns_to_the_draw_pile_which_is_shuffled_and_another_is_turned() {
    let mut returned = 0;
    for seed in 0..300 {
        let mut t = Table::with_seed(NAMES, seed).expect("table");
        let events = t.new_game().expect("dealt");
        for e in &events {
            if let TableEvent::Other(uno::Event::StartCard { card, returned: back }) = e {
                assert_eq!(*back, card.is_wild(), "seed {seed}: {card}");
                returned += usize::from(*back);
            }
        }
        let top = t.discarded_card().expect("a first card");
        assert!(!top.is_wild(), "seed {seed}: the first card is {top}");
        assert_eq!(t.game().expect("dealt").phase(), uno::Phase::Play, "seed {seed}: no colour to name");
    }
    assert!(returned > 0, "300 deals turned up no wild first: the test proves nothing");
}

/// Cards written top card first, as a pile lists them: bottom card first.
fn bottom_first(text: &str) -> Vec<Card> {
    cards(text).into_iter().rev().collect()
}
