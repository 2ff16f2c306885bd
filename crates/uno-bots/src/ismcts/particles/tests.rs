//! Tests of `particles`.

use super::*;
use rand::SeedableRng;
use uno::{Color, Face};

const WILDS_MASK: u64 = (1u64 << Card::WILD.index()) | (1u64 << Card::WILD_DRAW_FOUR.index());

fn card(color: Color, face: Face) -> Card {
    Card::colored(color, face).unwrap_or(Card::WILD)
}

#[test]
fn taking_honours_the_mask_while_the_pool_allows() {
    let mut pool = [0; Card::KINDS];
    let red5 = card(Color::Red, Face::Digit(5));
    let blue5 = card(Color::Blue, Face::Digit(5));
    pool[red5.index()] = 3;
    pool[blue5.index()] = 1;
    let mut rng = uno::game::SimRng::seed_from_u64(1);
    let c = take(&mut pool, 1u64 << red5.index(), &mut rng);
    assert_eq!(c, Some(blue5));
    assert_eq!(pool[blue5.index()], 0);
    // Nothing outside the mask is left: the belief gives way.
    let c = take(&mut pool, 1u64 << red5.index(), &mut rng);
    assert_eq!(c, Some(red5));
    assert_eq!(pool[red5.index()], 2);
}

#[test]
fn fitting_replaces_seen_cards_and_restores_sizes() {
    let red5 = card(Color::Red, Face::Digit(5));
    let blue5 = card(Color::Blue, Face::Digit(5));
    let green1 = card(Color::Green, Face::Digit(1));
    let unseen = counts(&[blue5, blue5, green1, green1]);
    // Seat 1 holds a card the viewer has since seen (red 5) and is one card short.
    let held = |cards: &[Card]| -> Vec<Slot> {
        cards.iter().map(|&card| Slot { card, entry: 0, exit: HELD, not: 0 }).collect()
    };
    let mut slots = vec![Vec::new(), held(&[red5, blue5]), held(&[green1])];
    let mut rng = uno::game::SimRng::seed_from_u64(2);
    fit(&mut slots, &[], &unseen, &[5, 3, 1], Some(Seat(0)), &mut rng);
    let hands: Vec<Vec<Card>> = slots.iter().map(|s| s.iter().map(|x| x.card).collect()).collect();
    assert!(hands[0].is_empty());
    assert_eq!(hands[1].len(), 3);
    assert!(!hands[1].contains(&red5));
    let all = counts(&hands.concat());
    for k in 0..Card::KINDS {
        assert!(all[k] <= unseen[k], "kind {k} held {} times, {} unseen", all[k], unseen[k]);
    }
}

/// Two particles for seat 1 of three seats (seat 0 is the viewer): `a` and `b` as its hand.
fn two(a: &[Card], b: &[Card], unseen: &[Card]) -> (Particles, Pool) {
    let held = |cards: &[Card]| -> Vec<Slot> {
        cards.iter().map(|&card| Slot { card, entry: 0, exit: HELD, not: 0 }).collect()
    };
    let unseen = counts(unseen);
    let mut p = Particles {
        players: 3,
        me: Some(Seat(0)),
        checks: vec![Vec::new(); 3],
        slots: vec![Vec::new(), held(a), Vec::new(), Vec::new(), held(b), Vec::new()],
        log_w: vec![0.0; 2],
        ..Particles::default()
    };
    p.pools = (0..2).map(|i| pool_of(&unseen, &p.slots[i * 3..i * 3 + 3])).collect();
    (p, unseen)
}

#[test]
fn a_draw_weighs_down_the_hands_that_could_have_played() {
    let red5 = card(Color::Red, Face::Digit(5));
    let blue5 = card(Color::Blue, Face::Digit(5));
    let green1 = card(Color::Green, Face::Digit(1));
    let yellow2 = card(Color::Yellow, Face::Digit(2));
    let (mut p, _) = two(&[red5, green1], &[blue5, green1], &[red5, blue5, green1, green1, yellow2]);
    let mut rng = uno::game::SimRng::seed_from_u64(3);
    // On a red 7, seat 1 drew: a hand with the red 5 could have played it.
    let red7 = card(Color::Red, Face::Digit(7));
    let mask = Card::all().filter(|c| c.is_wild() || c.matches(red7, Color::Red)).fold(0, |m, c| m | bit(c));
    p.advance(&Step::Drew { seat: Seat(1), size: 2, mask }, &HeuristicConfig::default(), &mut rng);
    assert_eq!(p.log_w[1], 0.0);
    assert!((p.log_w[0] - MISFIT.ln()).abs() < 1e-12, "{:?}", p.log_w);
    // Each hand took one card, held from the next check on.
    for hand in [&p.slots[1], &p.slots[4]] {
        assert_eq!(hand.len(), 3);
        assert_eq!(hand[2].entry, 1);
    }
    // It kept the card it drew: that card is dealt again outside the kinds it could play.
    p.advance(&Step::Kept { seat: Seat(1), mask: mask & !WILDS_MASK }, &HeuristicConfig::default(), &mut rng);
    for hand in [&p.slots[1], &p.slots[4]] {
        assert_eq!(hand[2].not, mask & !WILDS_MASK);
        assert_ne!(hand[2].card.color(), Some(Color::Red), "{hand:?}");
    }
}

#[test]
fn a_card_played_that_a_particle_did_not_deal_takes_a_cards_place() {
    let red5 = card(Color::Red, Face::Digit(5));
    let blue5 = card(Color::Blue, Face::Digit(5));
    let green1 = card(Color::Green, Face::Digit(1));
    let (mut p, _) = two(&[green1, green1], &[blue5, green1], &[red5, blue5, green1, green1]);
    let mut rng = uno::game::SimRng::seed_from_u64(4);
    p.advance(
        &Step::Played { seat: Seat(1), card: blue5, size: 2, drawn: false, rest: 0, past: None },
        &HeuristicConfig::default(),
        &mut rng,
    );
    for hand in [&p.slots[1], &p.slots[4]] {
        let held: Vec<Card> = hand.iter().filter(|x| x.exit == HELD).map(|x| x.card).collect();
        assert_eq!(held, vec![green1], "{hand:?}");
        assert!(hand.iter().any(|x| x.card == blue5 && x.exit == 0));
    }
    assert_eq!(p.checks[1].len(), 1);
}
