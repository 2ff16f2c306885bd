//! The same-number house rule (`play.multi_play = "same_number"`, `docs/rules.md`): after a
//! number card its player may play more cards of that number, one at a time, and passes to end
//! the turn. One scenario per clause of the definition.

use uno::rules::{ForcedPlay, JumpIn, MultiPlay, SevenZero};
use uno::{Action, Card, Color, Deal, Event, Game, IllegalAction, Phase, Rules, RulesConfig, RulesError, Seat};

fn rules_with(change: impl FnOnce(&mut RulesConfig)) -> Rules {
    let mut c = RulesConfig::default();
    c.play.multi_play = MultiPlay::SameNumber;
    change(&mut c);
    Rules::new(c).expect("valid rules")
}

fn same_number() -> Rules {
    rules_with(|_| {})
}

use uno::testing::{card, cards};

/// Hands in seat order; piles written top card first; seat 0 to play, clockwise.
fn position(rules: Rules, hands: &[&str], draw: &str, discard: &str) -> Game {
    let deal = Deal::new(hands.iter().map(|h| cards(h)).collect(), bottom_first(draw), bottom_first(discard), Seat(0));
    Game::from_position(rules, &deal.into_position(3)).expect("position")
}

fn play(text: &str) -> Action {
    Action::Play { card: card(text), color: None }
}

#[test]
fn a_number_card_lets_its_player_play_more_of_that_number_and_a_pass_ends_the_turn() {
    let mut game = position(same_number(), &["R5 B5 G5 Y2", "Y1 Y3", "Y4 Y6"], "B9 B8", "R9");
    let events = game.apply(Seat(0), play("R5")).expect("R5 matches red");
    assert_eq!((game.phase(), game.current()), (Phase::SameNumber, Seat(0)));
    assert!(!events.iter().any(|e| matches!(e, Event::TurnStarted { .. })), "the turn goes on: {events:?}");
    assert_eq!(game.legal_actions(), vec![play("B5"), play("G5"), Action::Pass], "any colour of the number, or pass");
    game.apply(Seat(0), play("B5")).expect("another 5");
    assert_eq!((game.phase(), game.color()), (Phase::SameNumber, Some(Color::Blue)), "the last card sets the colour");
    let events = game.apply(Seat(0), Action::Pass).expect("a run ends with a pass");
    assert_eq!(events, vec![Event::RunEnded { seat: Seat(0) }, Event::TurnStarted { seat: Seat(1) }]);
    assert_eq!(
        (game.phase(), game.current(), game.color(), game.turns()),
        (Phase::Play, Seat(1), Some(Color::Blue), 1)
    );
    assert_eq!(game.hand(Seat(0)), &cards("G5 Y2")[..]);
}

#[test]
fn without_the_rule_or_another_card_of_the_number_the_turn_ends_at_once() {
    let hands = ["R5 B5 Y2", "Y1 Y3", "Y4 Y6"];
    let mut off = position(Rules::preset("official").expect("preset"), &hands, "B9 B8", "R9");
    off.apply(Seat(0), play("R5")).expect("legal");
    assert_eq!((off.phase(), off.current()), (Phase::Play, Seat(1)), "off: one card a turn");
    let mut alone = position(same_number(), &["R5 B6 Y2", "Y1 Y3", "Y4 Y6"], "B9 B8", "R9");
    alone.apply(Seat(0), play("R5")).expect("legal");
    assert_eq!((alone.phase(), alone.current()), (Phase::Play, Seat(1)), "no other 5: nothing to wait for");
}

#[test]
fn in_a_run_only_the_number_may_follow_and_nothing_may_be_drawn() {
    let mut game = position(same_number(), &["R5 B5 R1 W RS", "Y1 Y3", "Y4 Y6"], "B9 B8", "R9");
    game.apply(Seat(0), play("R5")).expect("legal");
    let before = game.state_hash();
    assert_eq!(game.apply(Seat(0), play("R1")), Err(IllegalAction::SameNumberOnly), "red, not a 5");
    assert_eq!(game.apply(Seat(0), play("RS")), Err(IllegalAction::SameNumberOnly));
    let wild = Action::Play { card: Card::WILD, color: Some(Color::Green) };
    assert_eq!(game.apply(Seat(0), wild), Err(IllegalAction::SameNumberOnly));
    assert_eq!(game.apply(Seat(0), Action::Draw), Err(IllegalAction::SameNumberOnly));
    assert_eq!(game.apply(Seat(1), play("Y1")), Err(IllegalAction::NotYourTurn));
    assert_eq!(game.state_hash(), before, "refusals change nothing");
    assert_eq!(game.playable(Seat(0)).iter().collect::<Vec<_>>(), vec![card("B5")]);
}

#[test]
fn action_cards_and_wilds_never_start_a_run() {
    let mut game = position(same_number(), &["RS BS W W Y2", "Y1 Y3", "Y4 Y6"], "B9 B8", "R9");
    game.apply(Seat(0), play("RS")).expect("legal");
    assert_eq!((game.phase(), game.current()), (Phase::Play, Seat(2)), "the skip acts and the turn is over");
    let mut wild = position(same_number(), &["W W Y2", "Y1 Y3", "Y4 Y6"], "B9 B8", "R9");
    wild.apply(Seat(0), Action::Play { card: Card::WILD, color: Some(Color::Blue) }).expect("legal");
    assert_eq!((wild.phase(), wild.current()), (Phase::Play, Seat(1)));
}

#[test]
fn under_seven_zero_a_seven_swaps_and_does_not_start_a_run() {
    let rules = rules_with(|c| c.play.seven_zero = SevenZero::On);
    let mut game = position(rules, &["R7 B7 Y2", "Y1 Y3", "Y4 Y6"], "B9 B8", "R9");
    game.apply(Seat(0), play("R7")).expect("legal");
    assert_eq!(game.phase(), Phase::ChooseSwap);
    game.apply(Seat(0), Action::SwapHands { with: Seat(1) }).expect("swap");
    assert_eq!((game.phase(), game.current()), (Phase::Play, Seat(1)));
}

#[test]
fn a_drawn_number_card_played_at_once_starts_a_run() {
    let mut game = position(same_number(), &["B5 Y7", "Y1 Y3", "Y4 Y6"], "R5 B8", "R9");
    game.apply(Seat(0), Action::Draw).expect("draw");
    assert_eq!(game.drawn_card(), Some(card("R5")));
    game.apply(Seat(0), play("R5")).expect("the drawn card matches");
    assert_eq!(game.phase(), Phase::SameNumber);
    assert_eq!(game.drawn_card(), None);
    game.apply(Seat(0), play("B5")).expect("from the hand, a card of the number");
    assert_eq!((game.phase(), game.current()), (Phase::Play, Seat(1)), "no 5 left: the turn ends by itself");
}

#[test]
fn forced_play_does_not_force_more_cards_of_a_run() {
    let rules = rules_with(|c| c.play.forced_play = ForcedPlay::Required);
    let mut game = position(rules, &["R5 B5 Y2", "Y1 Y3", "Y4 Y6"], "B9 B8", "R9");
    game.apply(Seat(0), play("R5")).expect("legal");
    assert_eq!(game.check(Seat(0), Action::Pass), Ok(()));
}

#[test]
fn going_out_in_a_run_ends_the_round_and_scores_the_other_hands() {
    let mut game = position(same_number(), &["R5 B5", "Y1 Y3", "Y4 R6"], "B9 B8", "R9");
    game.apply(Seat(0), Action::CallUno).expect("two cards on one's turn");
    game.apply(Seat(0), play("R5")).expect("legal");
    let events = game.apply(Seat(0), play("B5")).expect("the last card");
    assert!(events.contains(&Event::RoundScored { winner: Seat(0), points: 1 + 3 + 4 + 6, totals: vec![14, 0, 0] }));
    assert!(game.is_round_over());
}

#[test]
fn uno_may_be_called_during_a_run_and_a_player_down_to_one_stays_catchable_after_passing() {
    let mut game = position(same_number(), &["R5 B5 G5", "Y1 Y3", "Y4 Y6"], "B9 B8", "R9");
    game.apply(Seat(0), play("R5")).expect("legal");
    assert!(game.legal_actions().contains(&Action::CallUno), "two cards, own turn: a call is possible");
    game.apply(Seat(0), play("B5")).expect("legal");
    assert_eq!(game.uno_exposed(), Some(Seat(0)), "down to one without calling");
    game.apply(Seat(0), Action::Pass).expect("keeping G5 is allowed");
    assert_eq!(game.uno_exposed(), Some(Seat(0)), "their own pass does not close the window");
    let mut caught = game.clone();
    caught.apply(Seat(2), Action::CatchUno { seat: Seat(0) }).expect("caught before seat 1 acts");
    assert_eq!(caught.hand(Seat(0)).len(), 3);
    game.apply(Seat(1), Action::Draw).expect("the next player draws");
    assert_eq!(game.uno_exposed(), None, "the next player acted");
}

#[test]
fn jump_ins_wait_for_the_end_of_a_run_and_a_jump_in_may_start_one() {
    let rules = rules_with(|c| c.play.jump_in = JumpIn::On);
    let mut game = position(rules, &["R5 B5 G5 Y2", "Y1 Y3", "B5 R5 Y6"], "B9 B8", "R9");
    game.apply(Seat(0), play("R5")).expect("legal");
    game.apply(Seat(0), play("B5")).expect("legal");
    assert_eq!(game.check(Seat(2), play("B5")), Err(IllegalAction::JumpInNotAllowed), "not during a run");
    game.apply(Seat(0), Action::Pass).expect("pass");
    game.apply(Seat(2), play("B5")).expect("the identical card, out of turn");
    assert_eq!((game.phase(), game.current()), (Phase::SameNumber, Seat(2)), "the jumper holds another 5");
}

#[test]
fn a_rules_file_names_the_rule_and_validation_needs_number_cards() {
    let c = RulesConfig::from_toml("[play]\nmulti_play = \"same_number\"\n").expect("valid");
    assert_eq!(c.play.multi_play, MultiPlay::SameNumber);
    assert_eq!(RulesConfig::from_toml("").map(|c| c.play.multi_play), Ok(MultiPlay::Off), "off when absent");
    assert!(matches!(RulesConfig::from_toml("[play]\nmulti_play = \"any\"\n"), Err(RulesError::Syntax(_))));
    let mut numberless = c.clone();
    numberless.deck = RulesConfig::deck_from_counts(0, 2, 4);
    assert_eq!(Rules::new(numberless.clone()), Err(RulesError::MultiPlayWithoutNumbers));
    numberless.play.multi_play = MultiPlay::Off;
    assert!(Rules::new(numberless).is_ok(), "the same deck without the rule is fine");
    for name in uno::PRESET_NAMES {
        assert_eq!(Rules::preset(name).map(|r| r.multi_play()), Ok(MultiPlay::Off), "{name}");
    }
}

#[test]
fn a_recorded_game_with_runs_replays_from_its_json() {
    let rules = same_number();
    let mut runs = 0;
    for seed in 0..10 {
        let mut game = Game::new(rules.clone(), 3, seed).expect("game");
        let mut record = uno::GameRecord::new(&rules, 3, seed);
        while !game.is_over() {
            let seat = game.current();
            // The first legal action keeps every run going as long as it can.
            let action = game.legal_actions()[0];
            game.apply(seat, action).expect("legal");
            record.push(seat, action);
            runs += usize::from(game.phase() == Phase::SameNumber);
        }
        let back = uno::GameRecord::from_json(&record.to_json()).expect("reads back");
        assert_eq!(back.rules.play.multi_play, MultiPlay::SameNumber, "the record keeps the rule");
        assert_eq!(back.replay().expect("replays").state_hash(), game.state_hash());
    }
    assert!(runs > 0, "some game had a run");
}

/// Cards written top card first, as a pile lists them: bottom card first.
fn bottom_first(text: &str) -> Vec<Card> {
    cards(text).into_iter().rev().collect()
}
