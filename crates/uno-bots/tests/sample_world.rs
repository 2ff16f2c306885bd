//! Determinization: a world sampled from an observation looks, to the same viewer, exactly like
//! the game it was sampled from, and is a legal game in its own right.

use std::sync::Arc;

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use uno::sample::Sampler;
use uno::{Action, Game, Phase, Rules, Seat};

/// The shared list's presets and house-rule mixes (`uno::testing::core_rule_sets`).
fn rule_sets() -> Vec<Arc<Rules>> {
    uno::testing::core_rule_sets().into_iter().map(|s| s.rules).collect()
}

/// A random legal action of `seat`, mostly a card when one can be played: uniform choices
/// call UNO falsely so often (two cards each time) that hands never get down to one card.
fn random_action(game: &Game, seat: Seat, rng: &mut ChaCha8Rng) -> Option<Action> {
    let legal = game.legal_actions_for(seat);
    let plays: Vec<Action> = legal.iter().copied().filter(|a| matches!(a, Action::Play { .. })).collect();
    if !plays.is_empty() && rng.gen_bool(0.8) {
        return Some(plays[rng.gen_range(0..plays.len())]);
    }
    let others: Vec<Action> = legal.iter().copied().filter(|a| *a != Action::CallUno || rng.gen_bool(0.2)).collect();
    let pool = if others.is_empty() { &legal } else { &others };
    (!pool.is_empty()).then(|| pool[rng.gen_range(0..pool.len())])
}

/// Plays `steps` random legal actions, now and then by a seat out of turn (catches,
/// jump-ins), and returns the game (which may be over).
fn random_game(rules: &Arc<Rules>, players: usize, seed: u64, steps: usize) -> Game {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = Game::new(rules.clone(), players, seed).expect("valid setup");
    for _ in 0..steps {
        if game.is_round_over() {
            break;
        }
        let seat = if rng.gen_bool(0.1) { Seat(rng.gen_range(0..players) as u8) } else { game.current() };
        if let Some(action) = random_action(&game, seat, &mut rng) {
            game.apply(seat, action).expect("a listed action is legal");
        }
    }
    game
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 192, ..ProptestConfig::default() })]

    #[test]
    fn a_sampled_world_gives_the_viewer_the_same_observation(
        which in 0usize..6,
        players in 2usize..=6,
        seed in any::<u64>(),
        steps in 0usize..160,
        viewer in 0usize..7,
        sample_seed in any::<u64>(),
        prior in proptest::option::of(0.0f64..=1.0),
    ) {
        let sets = rule_sets();
        let rules = &sets[which % sets.len()];
        let players = players.clamp(rules.min_players(), rules.max_players().min(6));
        let game = random_game(rules, players, seed, steps);
        // Seat `players` and beyond: a spectator.
        let viewer = (viewer < players).then_some(Seat(viewer as u8));
        let obs = game.observation(viewer);
        let mut sampler = Sampler::new(&obs).expect("a real game's observation deals");
        sampler.set_wd4_guilt(prior);
        let mut rng = ChaCha8Rng::seed_from_u64(sample_seed);
        let mut world = sampler.sample(&mut rng);
        for round in 0..3 {
            if round > 0 {
                sampler.sample_into(&mut rng, &mut world);
            }
            prop_assert_eq!(&world.observation(viewer), &obs);
            prop_assert_eq!(world.all_cards(), rules.deck().to_vec(), "the world holds the deck");
            if let Some(v) = viewer {
                for s in 0..players {
                    let seat = Seat(s as u8);
                    prop_assert_eq!(world.observation(Some(seat)).hand_sizes, obs.hand_sizes.clone());
                    if seat == v {
                        prop_assert_eq!(world.hand(seat), &obs.hand[..]);
                    }
                }
            }
            if let Phase::DrawnCard = world.phase() {
                let drawn = world.drawn_card().expect("a drawn card is being decided on");
                let hand = world.hand(world.current());
                if Some(world.current()) == viewer {
                    // The viewer's own hand is its true one, in its true order: a penalty
                    // (a false UNO call) after the draw puts cards behind the drawn one.
                    prop_assert!(hand.contains(&drawn));
                } else {
                    // A hidden hand is dealt with the drawn card where the engine puts it.
                    prop_assert_eq!(hand.last(), Some(&drawn));
                }
            }
            // The world is a game: it plays on to its end under random legal actions.
            let mut copy = world.clone();
            let mut n = 0;
            while !copy.is_round_over() && n < 3000 {
                let legal = copy.legal_actions();
                prop_assert!(!legal.is_empty(), "a live world has a move in {:?}", copy.phase());
                let a = legal[rng.gen_range(0..legal.len())];
                prop_assert!(copy.apply(copy.current(), a).is_ok());
                n += 1;
            }
        }
    }
}

#[test]
fn the_unseen_cards_are_the_deck_less_the_hand_and_the_discard_pile() {
    let rules = Arc::new(Rules::preset("official").expect("preset"));
    let game = random_game(&rules, 4, 7, 40);
    let obs = game.observation(Some(Seat(2)));
    let sampler = Sampler::new(&obs).expect("deals");
    let mut expected: Vec<_> = game
        .hands()
        .iter()
        .enumerate()
        .filter(|&(s, _)| s != 2)
        .flat_map(|(_, h)| h.iter().copied())
        .chain(game.draw_pile().iter().copied())
        .collect();
    expected.sort();
    let mut unseen = sampler.unseen().to_vec();
    unseen.sort();
    assert_eq!(unseen, expected);
}

#[test]
fn hidden_hands_differ_between_samples_but_the_viewers_never_does() {
    let rules = Arc::new(Rules::preset("official").expect("preset"));
    let game = random_game(&rules, 4, 11, 12);
    let obs = game.observation(Some(Seat(0)));
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let a = obs.sample_world(&mut rng).expect("deals");
    let b = obs.sample_world(&mut rng).expect("deals");
    assert_eq!(a.hand(Seat(0)), b.hand(Seat(0)));
    assert!((1..4).any(|s| a.hand(Seat(s)) != b.hand(Seat(s))), "the other hands are resampled");
}

#[test]
fn an_observation_that_no_deck_can_explain_is_refused() {
    let rules = Arc::new(Rules::preset("two-color").expect("preset"));
    let game = random_game(&rules, 3, 5, 10);
    let mut obs = game.observation(Some(Seat(1)));
    // Two-colour decks hold no wilds: a hand with one cannot be dealt around.
    obs.hand.push(uno::Card::WILD);
    obs.hand_sizes[1] += 1;
    assert!(Sampler::new(&obs).is_err());
    let mut obs = game.observation(Some(Seat(1)));
    obs.draw_pile_size += 1;
    assert!(Sampler::new(&obs).is_err());
}

#[test]
fn a_guilt_prior_sets_how_often_the_offender_was_guilty() {
    // Find an official game waiting on a Wild Draw Four challenge.
    let rules = Arc::new(Rules::preset("official").expect("preset"));
    let game = (0..5000u64)
        .flat_map(|seed| (0..120).step_by(3).map(move |steps| (seed, steps)))
        .map(|(seed, steps)| random_game(&rules, 4, seed, steps))
        .find(|g| matches!(g.phase(), Phase::Challenge { .. }))
        .expect("some random game reaches a challenge");
    let obs = game.observation(Some(game.current()));
    let mut sampler = Sampler::new(&obs).expect("deals");
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let guilty_share = |sampler: &mut Sampler, rng: &mut ChaCha8Rng| {
        let mut guilty = 0;
        for _ in 0..400 {
            let mut w = sampler.sample(rng);
            // Challenging shows the guilt: a guilty offender draws, an innocent one does not.
            let Phase::Challenge { offender } = w.phase() else { unreachable!("the phase is kept") };
            let before = w.hand(offender).len();
            w.apply(w.current(), uno::Action::Challenge).expect("a challenge is legal");
            guilty += usize::from(w.hand(offender).len() > before);
        }
        guilty as f64 / 400.0
    };
    sampler.set_wd4_guilt(Some(0.1));
    let low = guilty_share(&mut sampler, &mut rng);
    sampler.set_wd4_guilt(Some(0.9));
    let high = guilty_share(&mut sampler, &mut rng);
    assert!(low < 0.2 && high > 0.8, "guilt follows the prior: {low} at 0.1, {high} at 0.9");
}

/// Samples at every step of whole random games, from a random seat's view, and insists that
/// the rare states (an exposed UNO, a pending penalty, a challenge, a drawn card being decided
/// by the viewer and by another seat, a colour or a swap to choose) were all met: the property
/// above stops at random points and can miss states that last a single decision.
#[test]
fn every_kind_of_state_samples_to_the_same_observation() {
    let mut seen = std::collections::BTreeMap::<&str, usize>::new();
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    for rules in rule_sets() {
        for g in 0..30u64 {
            let players = 2 + (g as usize % 4).min(rules.max_players() - 2);
            let mut game = Game::new(rules.clone(), players, g).expect("valid setup");
            let mut steps = 0;
            while !game.is_round_over() && steps < 400 {
                let viewer = Seat(rng.gen_range(0..players) as u8);
                let obs = game.observation(Some(viewer));
                let mut kinds = vec![format!("{:?}", game.phase()).split(' ').next().unwrap_or("").to_string()];
                if obs.uno_exposed.is_some() {
                    kinds.push("exposed".into());
                }
                if obs.pending_draw > 0 {
                    kinds.push("pending".into());
                }
                if game.phase() == Phase::DrawnCard && viewer != game.current() {
                    kinds.push("drawn by another".into());
                }
                for k in kinds {
                    *seen.entry(Box::leak(k.into_boxed_str())).or_default() += 1;
                }
                let world = obs.sample_world(&mut rng).expect("deals");
                assert_eq!(world.observation(Some(viewer)), obs, "{} after {steps} steps", rules.name());
                let seat = if rng.gen_bool(0.15) { viewer } else { game.current() };
                if let Some(a) = random_action(&game, seat, &mut rng) {
                    game.apply(seat, a).expect("listed");
                }
                steps += 1;
            }
        }
    }
    for kind in
        ["Play", "DrawnCard", "ChooseColor", "Challenge", "ChooseSwap", "exposed", "pending", "drawn by another"]
    {
        assert!(seen.get(kind).copied().unwrap_or(0) > 0, "no {kind} state was sampled: {seen:?}");
    }
}

#[test]
fn known_cards_are_always_dealt_to_their_seat() {
    let rules = Arc::new(Rules::preset("official").expect("preset"));
    let game = random_game(&rules, 4, 31, 30);
    let obs = game.observation(Some(Seat(0)));
    let mut sampler = Sampler::new(&obs).expect("deals");
    let known: Vec<_> = game.hand(Seat(2)).iter().copied().take(3).collect();
    sampler.set_known(Seat(2), &known).expect("real cards of that hand");
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for _ in 0..50 {
        let world = sampler.sample(&mut rng);
        assert_eq!(world.observation(Some(Seat(0))), obs);
        let mut hand = world.hand(Seat(2)).to_vec();
        for c in &known {
            let i = hand.iter().position(|x| x == c).expect("a known card is in its hand");
            hand.remove(i);
        }
    }
    // Refused: the viewer's own seat, more cards than the hand holds, a card nobody can hold.
    assert!(sampler.set_known(Seat(0), &known).is_err());
    let too_many = vec![known[0]; game.hand(Seat(2)).len() + 1];
    assert!(sampler.set_known(Seat(2), &too_many).is_err());
    let everywhere = [obs.discard[0]; 9];
    assert!(sampler.set_known(Seat(1), &everywhere[..game.hand(Seat(1)).len().min(9)]).is_err());
}

#[test]
fn beliefs_shape_the_hands_while_the_deck_allows_and_give_way_when_not() {
    let rules = Arc::new(Rules::preset("official").expect("preset"));
    let game = random_game(&rules, 4, 41, 12);
    let obs = game.observation(Some(Seat(0)));
    let red: u64 = uno::Card::all().filter(|c| c.color() == Some(uno::Color::Red)).fold(0, |m, c| m | 1 << c.index());
    let mut sampler = Sampler::new(&obs).expect("deals");
    let size = obs.hand_sizes[1];
    sampler.set_beliefs(Seat(1), &[(size, red)]);
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    for _ in 0..50 {
        let world = sampler.sample(&mut rng);
        assert_eq!(world.observation(Some(Seat(0))), obs);
        assert!(world.hand(Seat(1)).iter().all(|c| c.color() != Some(uno::Color::Red)), "no red for seat 1");
    }
    // A belief no card can honour (every kind excluded) is given up, not obeyed.
    sampler.set_beliefs(Seat(1), &[(size, u64::MAX)]);
    for _ in 0..5 {
        let world = sampler.sample(&mut rng);
        assert_eq!(world.observation(Some(Seat(0))), obs);
        assert_eq!(world.all_cards(), rules.deck().to_vec());
    }
}

/// The hidden hands are uniform over what the beliefs allow: seat 1 is believed to hold no red
/// in three of its cards, so its copies of each kind, over many worlds, average what three
/// cards dealt from the unseen non-red ones and four from what they left would give; seats 2
/// and 3, dealt after it, what seven cards from the rest would. A deal that took the allowed
/// cards in the pool's order, or left a part of the pool in deck order, fails it.
#[test]
fn hidden_hands_are_uniform_over_what_the_beliefs_allow() {
    use uno::{Card, Color};
    let rules = Arc::new(Rules::preset("official").expect("a preset"));
    let game = Game::new(rules, 4, 3).expect("four seats");
    let obs = game.view(Seat(0)).observation();
    let mut sampler = Sampler::new(&obs).expect("a dealable observation");
    let red = Card::all().filter(|c| c.color() == Some(Color::Red)).fold(0u64, |m, c| m | 1 << c.index());
    sampler.set_beliefs(Seat(1), &[(3, red)]);
    let unseen = sampler.unseen().to_vec();
    let copies = |k: Card| unseen.iter().filter(|&&c| c == k).count() as f64;
    let n = unseen.len() as f64;
    let allowed = unseen.iter().filter(|c| c.color() != Some(Color::Red)).count() as f64;
    let worlds = 40_000;
    let mut held = vec![[0u32; Card::KINDS]; 4];
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for _ in 0..worlds {
        let world = sampler.sample(&mut rng);
        for (s, counts) in held.iter_mut().enumerate().skip(1) {
            for c in world.hand(Seat(s as u8)) {
                counts[c.index()] += 1;
            }
        }
    }
    for k in Card::all().filter(|&k| copies(k) > 0.0) {
        let c = copies(k);
        let in_group = if k.color() == Some(Color::Red) { 0.0 } else { 3.0 * c / allowed };
        let seat1 = in_group + 4.0 * (c - in_group) / (n - 3.0);
        let rest = (c - seat1) / (n - 7.0) * 7.0;
        for (s, want) in [(1, seat1), (2, rest), (3, rest)] {
            let got = f64::from(held[s][k.index()]) / f64::from(worlds);
            // Five standard errors of a mean of counts of at most two copies.
            let tolerance = 5.0 * (want.max(0.01) / f64::from(worlds)).sqrt();
            assert!((got - want).abs() < tolerance, "seat {s}, {k}: {got:.4} copies a world, expected {want:.4}");
        }
    }
}
