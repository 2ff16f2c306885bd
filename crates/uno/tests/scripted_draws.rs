//! Draws decided outside the engine (`Game::restart_with_draws`, `Game::apply_with_draws`): the
//! given cards are the ones drawn, and the piles reported are the cards each draw could take.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use uno::game::Game;
use uno::{Action, Rules, Seat, PRESET_NAMES};

#[test]
fn a_scripted_deal_gives_each_seat_the_cards_chosen_for_it() {
    for name in PRESET_NAMES {
        let rules = Rules::preset(name).expect("preset");
        let players = 3;
        let mut plain = Game::new(rules.clone(), players, 9).expect("deal");
        let piles = plain.restart_with_draws(9, &[]);
        // Unscripted, the deal is the generator's: the same game `new` deals.
        let quiet = Game::new(rules.clone(), players, 9).expect("deal");
        assert_eq!(plain.state_hash(), quiet.state_hash(), "{name}");
        assert!(piles.len() > players * rules.hand_size(), "{name}: every dealt card is a draw");
        // Choose every dealt card by hand: the last card of each pile the deal saw.
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut chosen = Vec::new();
        loop {
            let mut game = Game::new(rules.clone(), players, 9).expect("deal");
            let piles = game.restart_with_draws(9, &chosen);
            if piles.len() == chosen.len() {
                for (k, card) in chosen.iter().take(players * rules.hand_size()).enumerate() {
                    let seat = k % players;
                    assert!(game.hand(Seat(seat as u8)).contains(card), "{name}: card {k}");
                }
                break;
            }
            let pile = &piles[chosen.len()];
            chosen.push(pile[rng.gen_range(0..pile.len())]);
        }
    }
}

#[test]
fn a_scripted_draw_takes_the_card_given_from_the_pile_it_reports() {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let mut checked = 0;
    for name in PRESET_NAMES {
        let rules = Rules::preset(name).expect("preset");
        let mut game = Game::new(rules, 2, 3).expect("deal");
        for _ in 0..400 {
            if game.is_round_over() {
                break;
            }
            let seat = game.current();
            let legal = game.legal_actions_for(seat);
            let action = if legal.contains(&Action::Draw) && rng.gen_bool(0.5) {
                Action::Draw
            } else {
                legal[rng.gen_range(0..legal.len())]
            };
            // Find the draws of this action, choosing each from the pile it reports.
            let mut chosen = Vec::new();
            loop {
                let mut copy = game.clone();
                let piles = copy.apply_with_draws(seat, action, &chosen).expect("legal");
                if piles.len() == chosen.len() {
                    break;
                }
                let pile = &piles[chosen.len()];
                chosen.push(pile[rng.gen_range(0..pile.len())]);
            }
            let before: Vec<usize> = (0..2).map(|s| game.hand(Seat(s)).len()).collect();
            let piles = game.apply_with_draws(seat, action, &chosen).expect("legal");
            assert_eq!(piles.len(), chosen.len());
            if action == Action::Draw && !chosen.is_empty() {
                // Kept, or (`draw_one_auto_play`) played at once.
                let played = game.top() == chosen[0] && game.hand(seat).len() == before[seat.index()];
                assert!(game.hand(seat).contains(&chosen[0]) || played || game.is_round_over(), "{name}");
                assert!(game.hand(seat).len() > before[seat.index()] || played || game.is_round_over());
                checked += 1;
            }
        }
    }
    assert!(checked > 20, "{checked} draws checked");
}
