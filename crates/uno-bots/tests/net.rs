//! The `net` bot: it never picks an illegal action (property test over random tables of every
//! preset), and its two entry points (owned observation, borrowed view) answer alike.

use std::sync::Arc;

use proptest::prelude::*;
use uno::game::Game;
use uno::{Rules, PRESET_NAMES};
use uno_bots::{make_bot, Bot, NetBot};

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn net_never_picks_an_illegal_action(preset in 0..PRESET_NAMES.len(), players in 2usize..=6, seed: u64) {
        let rules = Arc::new(Rules::preset(PRESET_NAMES[preset]).expect("preset"));
        let Ok(mut game) = Game::new(rules, players, seed) else { return Ok(()) };
        let mut net = NetBot::new();
        let mut other = make_bot("random", seed).expect("random");
        for _ in 0..2_000 {
            if game.is_round_over() {
                break;
            }
            let seat = game.current();
            let view = game.view(seat);
            let action = if seat.index() % 2 == 0 { net.choose_view(&view) } else { other.choose_view(&view) };
            if seat.index() % 2 == 0 {
                let owned = net.choose(&view.observation());
                prop_assert_eq!(owned, action, "choose and choose_view answer alike");
            }
            prop_assert!(game.check(seat, action).is_ok(), "seat {} chose {:?}", seat.index(), action);
            game.apply(seat, action).expect("legal");
        }
    }
}

#[test]
fn net_is_a_named_bot() {
    let bot = make_bot("net", 1).expect("net");
    assert_eq!(bot.name(), "net");
    let mut net = NetBot::new();
    let game = Game::new(Arc::new(Rules::preset("official").expect("official")), 4, 9).expect("game");
    let scores = net.scores(&game.view(game.current()));
    assert!(!scores.is_empty() && scores.iter().all(|(_, q)| q.is_finite()));
}

#[test]
fn net_calls_uno_and_catches_who_did_not() {
    use uno::game::Deal;
    use uno::{Action, Card, Seat};
    let rules = Arc::new(Rules::preset("official").expect("official"));
    let cards = |s: &str| -> Vec<Card> { s.split_whitespace().map(|c| c.parse().expect("a card")).collect() };
    let position = || {
        let hands = vec![cards("R2 R3"), cards("G1 G2 G3"), cards("B1 B2 B5")];
        let discard = cards("R5");
        let mut pile = rules.deck().to_vec();
        for c in hands.iter().flatten().chain(&discard) {
            let i = pile.iter().position(|x| x == c).expect("the card is in the deck");
            pile.remove(i);
        }
        Game::from_position(rules.clone(), &Deal::new(hands, pile, discard, Seat(0)).into_position(3))
            .expect("a valid position")
    };
    assert_eq!(NetBot::new().choose_view(&position().view(Seat(0))), Action::CallUno);
    // Seat 0 goes down to one card without calling: seat 1 catches it.
    let mut game = position();
    game.apply(Seat(0), Action::Play { card: cards("R2")[0], color: None }).expect("legal");
    let catch = Action::CatchUno { seat: Seat(0) };
    assert!(game.check(Seat(1), catch).is_ok());
    assert_eq!(NetBot::new().choose_view(&game.view(Seat(1))), catch);
    assert_eq!(NetBot::new().choose(&game.observation(Some(Seat(1)))), catch);
}
