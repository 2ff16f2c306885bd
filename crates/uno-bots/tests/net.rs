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
