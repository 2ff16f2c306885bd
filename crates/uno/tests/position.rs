//! Positions: a game restored from `position()` plays on exactly as the original, through JSON
//! and text too; every kind of inconsistent position is refused with its own error.
//!
//! The generator's state travels in the position (`rng`), so a restored game reshuffles and
//! deals exactly as the original: the round trip needs no seed from the test.
//!
//! `UNO_POSITION_GAMES` sets the games per (preset, player count, generator).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use uno::rules::{JumpIn, MultiPlay, SevenZero};
use uno::{
    Action, Card, Color, EndReason, Face, Game, GameRecord, Outcome, Phase, Position, PositionError, Rules, Seat,
    PRESET_NAMES,
};

fn games() -> u64 {
    std::env::var("UNO_POSITION_GAMES").ok().and_then(|v| v.parse().ok()).unwrap_or(6)
}

/// A legal action of a random seat that has one (UNO calls and jump-ins included).
fn random_move(game: &Game, rng: &mut ChaCha8Rng) -> Option<(Seat, Action)> {
    let mut options = Vec::new();
    for s in 0..game.players() {
        let seat = Seat(s as u8);
        for a in game.legal_actions_for(seat) {
            options.push((seat, a));
        }
    }
    // Mostly the current player, so games move on rather than filling up with calls.
    let current: Vec<_> = options.iter().copied().filter(|(s, _)| *s == game.current()).collect();
    let pool = if !current.is_empty() && rng.gen_bool(0.9) { &current } else { &options };
    (!pool.is_empty()).then(|| pool[rng.gen_range(0..pool.len())])
}

/// Plays `a` and `b` on with the same moves to the end, comparing everything at every step.
fn play_on_together(mut a: Game, mut b: Game, rng: &mut ChaCha8Rng, label: &str) {
    for step in 0..5_000 {
        assert_eq!(a.state_hash(), b.state_hash(), "{label} step {step}");
        assert_eq!(a.position(), b.position(), "{label} step {step}");
        for s in 0..a.players() {
            let seat = Seat(s as u8);
            assert_eq!(a.legal_actions_for(seat), b.legal_actions_for(seat), "{label} step {step} seat {s}");
        }
        let Some((seat, action)) = random_move(&a, rng) else {
            assert!(a.is_over(), "{label}: only a finished game has no legal action");
            return;
        };
        let ea = a.apply(seat, action).expect("a listed action is legal");
        let eb = b.apply(seat, action).expect("the restored game takes it too");
        assert_eq!(ea, eb, "{label} step {step}: {action}");
    }
}

/// The official rules with the same-number house rule (and jump-ins, which meet it).
fn same_number_rules() -> Rules {
    let mut c = uno::rules::preset_config("official").expect("preset");
    c.name = "same-number".into();
    c.play.multi_play = MultiPlay::SameNumber;
    c.play.jump_in = JumpIn::On;
    Rules::new(c).expect("valid")
}

/// Every preset, and a rule set with the house rules whose phases no preset reaches.
fn rule_sets() -> Vec<Rules> {
    uno::testing::core_rule_sets().into_iter().map(|s| (*s.rules).clone()).collect()
}

/// Restores `game` from its position through JSON and text, and plays both restored games on
/// against the original.
fn restore_and_play_on(game: Game, rules: &Rules, rng: &mut ChaCha8Rng, label: &str) {
    let position = game.position();
    let restored = Game::from_position(rules.clone(), &position).expect(label);
    let from_json = Position::from_json(&position.to_json()).expect("JSON reads back");
    assert_eq!(from_json, position, "{label}: JSON");
    let from_text: Position = position.to_string().parse().expect("text reads back");
    assert_eq!(from_text, position, "{label}: text");
    let restored_text = Game::from_position(rules.clone(), &from_text).expect(label);
    play_on_together(game.clone(), restored, &mut rng.clone(), label);
    play_on_together(game, restored_text, rng, label);
}

fn round_trip_over(fast: bool) {
    let mut checked = 0;
    for rules in rule_sets() {
        let preset = rules.name().to_string();
        for players in [rules.min_players(), rules.max_players()] {
            for g in 0..games() {
                let seed = g * 7919 + players as u64;
                let mut game = if fast {
                    Game::new_fast(rules.clone(), players, seed).expect("game")
                } else {
                    Game::new(rules.clone(), players, seed).expect("game")
                };
                let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
                let moment = rng.gen_range(0..400);
                for _ in 0..moment {
                    match random_move(&game, &mut rng) {
                        Some((seat, action)) => game.apply_unchecked(seat, action),
                        None => break,
                    }
                }
                let label = format!("{preset} players {players} seed {seed} fast {fast} after {moment}");
                restore_and_play_on(game, &rules, &mut rng, &label);
                checked += 1;
            }
        }
    }
    assert!(checked >= PRESET_NAMES.len() * 2, "every preset was tried");
}

#[test]
fn a_position_taken_at_a_random_moment_plays_on_identically() {
    round_trip_over(false);
}

#[test]
fn a_fast_game_position_plays_on_identically() {
    round_trip_over(true);
}

#[test]
fn a_position_taken_in_a_same_number_run_plays_on_identically() {
    let rules = same_number_rules();
    let mut runs = 0;
    for seed in 0..40 {
        let mut game = Game::new(rules.clone(), 3, seed).expect("game");
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        while game.phase() != Phase::SameNumber {
            match random_move(&game, &mut rng) {
                Some((seat, action)) => game.apply_unchecked(seat, action),
                None => break,
            }
        }
        if game.phase() == Phase::SameNumber {
            assert!(game.position().to_string().contains("phase same_number"));
            restore_and_play_on(game, &rules, &mut rng, &format!("same-number run, seed {seed}"));
            runs += 1;
        }
    }
    assert!(runs >= 10, "only {runs} of 40 games reached a run");
}

#[test]
fn a_game_recorded_from_a_position_replays() {
    let rules = Rules::preset("official").expect("preset");
    let mut game = Game::new(rules.clone(), 3, 11).expect("game");
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for _ in 0..25 {
        if let Some((seat, action)) = random_move(&game, &mut rng) {
            game.apply(seat, action).expect("legal");
        }
    }
    let mut record = GameRecord::from_position(&rules, game.position());
    while let Some((seat, action)) = random_move(&game, &mut rng) {
        game.apply(seat, action).expect("legal");
        record.push(seat, action);
    }
    let back = GameRecord::from_json(&record.to_json()).expect("record reads back");
    assert_eq!(back, record);
    let replayed = back.replay().expect("replays");
    assert_eq!(replayed.state_hash(), game.state_hash());
    assert!(replayed.is_over());
}

#[test]
fn a_position_with_the_first_card_still_to_turn_turns_it() {
    let rules = Rules::preset("official").expect("preset");
    for seed in 0..20 {
        let game = Game::new(rules.clone(), 4, seed).expect("game");
        let mut p = fresh_round(&game);
        p.seed = seed;
        let restored = Game::from_position(rules.clone(), &p).expect("a dealt round, first card to turn");
        assert_eq!(restored.discard_pile().len(), 1, "one card turned");
        assert_eq!(restored.all_cards(), game.all_cards());
        assert!(!restored.legal_actions().is_empty());
        let next = p.draw_pile[p.draw_pile.len() - 1];
        assert!(
            restored.top() == next || next == Card::WILD_DRAW_FOUR,
            "the top of the draw pile is turned, unless the rules send it back"
        );
        // A position is not a game in progress: nothing called, nothing pending.
        let mut wrong = p.clone();
        wrong.pending_draw = 2;
        assert_eq!(Game::from_position(rules.clone(), &wrong).err(), Some(PositionError::FirstCardToTurn));
    }
}

/// A dealt round of `game` before its first card is turned: the discard pile back on top of
/// the draw pile, the first player after the dealer.
fn fresh_round(game: &Game) -> Position {
    let mut p = game.position();
    let mut discard = std::mem::take(&mut p.discard);
    p.draw_pile.append(&mut discard);
    p.first_card_to_turn = true;
    p.rng = None;
    p.color = None;
    p.phase = Phase::Play;
    p.pending_draw = 0;
    p.turns = 0;
    p.direction = uno::Direction::Clockwise;
    p.current = Seat(((p.dealer.index() + 1) % p.hands.len()) as u8);
    // A first-card Draw Two dealt the first player two cards: give them back.
    for hand in &mut p.hands {
        while hand.len() > 7 {
            if let Some(c) = hand.pop() {
                p.draw_pile.push(c);
            }
        }
    }
    p
}

// ---- refusals, one per kind ----

fn official() -> Rules {
    Rules::preset("official").expect("preset")
}

/// A valid official position, 3 players, seat 0 to play, with `top` moved onto the discard
/// pile (from wherever it was) and the colour in play set to `color`.
fn base(top: Card, color: Option<Color>) -> Position {
    let game = Game::new(official(), 3, 5).expect("game");
    let mut p = game.position();
    p.phase = Phase::Play;
    p.pending_draw = 0;
    p.drawn_card = None;
    p.uno_called.clear();
    p.uno_exposed = None;
    p.current = Seat(0);
    let from_draw = p.draw_pile.iter().position(|&c| c == top);
    match from_draw {
        Some(i) => {
            p.draw_pile.remove(i);
        }
        None => {
            let (s, i) = p
                .hands
                .iter()
                .enumerate()
                .find_map(|(s, h)| h.iter().position(|&c| c == top).map(|i| (s, i)))
                .or_else(|| p.discard.iter().position(|&c| c == top).map(|i| (usize::MAX, i)))
                .expect("the card is somewhere");
            if s == usize::MAX {
                p.discard.remove(i);
            } else {
                p.hands[s].remove(i);
                // Keep the hand its size with a card from the draw pile.
                let c = p.draw_pile.pop().expect("cards left");
                p.hands[s].push(c);
            }
        }
    }
    p.discard.push(top);
    p.color = color;
    p
}

fn refused(p: &Position) -> PositionError {
    refused_under(official(), p)
}

fn refused_under(rules: Rules, p: &Position) -> PositionError {
    Game::from_position(rules, p).expect_err("the position is refused")
}

use uno::testing::card;

#[test]
fn the_base_position_is_valid() {
    let p = base(card("R5"), None);
    let game = Game::from_position(official(), &p).expect("valid");
    assert_eq!(game.color(), Some(Color::Red), "a coloured top gives its colour");
    assert!(Game::from_position(official(), &base(card("W"), Some(Color::Blue))).is_ok());
}

#[test]
fn refuses_a_player_count_the_rules_do_not_seat() {
    let mut p = base(card("R5"), None);
    let extra = p.hands.remove(2);
    p.draw_pile.extend(extra);
    let mut one = p.clone();
    let h = one.hands.remove(1);
    one.draw_pile.extend(h);
    assert_eq!(refused(&one), PositionError::PlayerCount { got: 1, min: 2, max: 10 });
}

#[test]
fn refuses_a_seat_not_at_the_table() {
    let mut p = base(card("R5"), None);
    p.current = Seat(3);
    assert_eq!(refused(&p), PositionError::NoSuchSeat { what: "current", seat: Seat(3) });
    let mut p = base(card("R5"), None);
    p.uno_called = vec![Seat(9)];
    assert_eq!(refused(&p), PositionError::NoSuchSeat { what: "uno_called", seat: Seat(9) });
}

#[test]
fn refuses_scores_not_one_per_seat() {
    let mut p = base(card("R5"), None);
    p.scores = vec![0, 0];
    assert_eq!(refused(&p), PositionError::Scores { got: 2, players: 3 });
}

#[test]
fn refuses_cards_that_are_not_the_deck() {
    let mut p = base(card("R5"), None);
    let lost = p.draw_pile.pop().expect("a card");
    p.hands[1].push(card("R5"));
    assert_eq!(refused(&p), PositionError::Cards { missing: vec![lost], extra: vec![card("R5")] });
}

#[test]
fn a_position_with_a_deck_of_its_own_is_checked_against_it_and_keeps_it() {
    // A made-up table: a few cards, not the rules' deck; the position names its own.
    let deal = uno::Deal::new(
        vec![vec![card("R1"), card("G2")], vec![card("B3"), card("Y4"), card("W")]],
        vec![card("R9"), card("G9")],
        vec![card("R5")],
        Seat(0),
    );
    let p = deal.into_position(7);
    let mut own = [card("R1"), card("G2"), card("B3"), card("Y4"), card("W"), card("R9"), card("G9"), card("R5")];
    own.sort();
    assert_eq!(p.deck.as_deref(), Some(&own[..]));
    let mut game = Game::from_position(official(), &p).expect("the deal's own cards");
    assert_eq!(game.position().deck, p.deck, "a game on a deck of its own keeps it");
    // Through JSON and the text form, and on after a move.
    assert_eq!(Position::from_json(&p.to_json()).expect("json"), p);
    assert_eq!(p.to_string().parse::<Position>().expect("text"), p);
    assert!(p.to_string().contains("\ndeck "), "{p}");
    game.apply(Seat(0), Action::Play { card: card("R1"), color: None }).expect("legal");
    let restored = Game::from_position(official(), &game.position()).expect("restored");
    assert_eq!(restored.state_hash(), game.state_hash());
    // The cards must be exactly its deck: a card beyond it, or one of it lost, is refused.
    let mut extra = p.clone();
    extra.draw_pile.push(card("R5"));
    assert_eq!(refused(&extra), PositionError::Cards { missing: vec![], extra: vec![card("R5")] });
    let mut lost = p.clone();
    lost.draw_pile.pop();
    assert_eq!(refused(&lost), PositionError::Cards { missing: vec![card("G9")], extra: vec![] });
    // A game on the rules' deck names none.
    assert_eq!(Game::new(official(), 3, 5).expect("game").position().deck, None);
}

/// A deck of a position's own is held to a rules deck's bounds: hands of 150 red fives (a deck
/// of 300 of them) were played, and their rounds outlasted any analysis.
#[test]
fn a_position_s_own_deck_is_held_to_the_rules_deck_bounds() {
    let five = card("R5");
    let deal =
        |hands: Vec<Vec<Card>>, draw: Vec<Card>| uno::Deal::new(hands, draw, vec![five], Seat(0)).into_position(3);
    let fives = deal(vec![vec![five; 150], vec![five; 149]], Vec::new());
    let over = |what: &str, value: usize, max: usize| PositionError::DeckOverLimit { what: what.into(), value, max };
    assert_eq!(refused(&fives), over("copies of R5", 300, uno::rules::MAX_COPIES as usize));
    assert!(refused(&fives).is_over_limit());
    // As many copies as a rules deck may hold is a deck.
    let most = deal(vec![vec![five; 32], vec![five; 31]], Vec::new());
    assert!(Game::from_position(official(), &most).is_ok());
    // Within the copies, past the cards: every kind 9 times is 486 cards.
    let all: Vec<Card> = uno::Card::all().flat_map(|c| std::iter::repeat_n(c, 9)).collect();
    let big = deal(vec![vec![card("G1")], vec![card("B2")]], all);
    assert_eq!(refused(&big).to_string(), over("cards", 489, uno::rules::MAX_DECK_CARDS).to_string());
}

#[test]
fn a_deal_is_held_to_the_position_checks() {
    let deal = |color: Option<Color>, hands: Vec<Vec<Card>>| uno::Deal {
        color,
        ..uno::Deal::new(hands, vec![card("R9")], vec![card("R5")], Seat(0))
    };
    let two = || vec![vec![card("R1")], vec![card("B3")]];
    assert!(Game::from_position(official(), &deal(None, two()).into_position(1)).is_ok());
    assert_eq!(
        refused(&deal(Some(Color::Blue), two()).into_position(1)),
        PositionError::ColorMismatch { top: card("R5"), color: Color::Blue }
    );
    assert_eq!(
        refused(&deal(None, vec![vec![card("R1")], vec![]]).into_position(1)),
        PositionError::EmptyHand { seat: Seat(1) }
    );
    assert_eq!(
        refused(&deal(None, vec![vec![card("R1")]]).into_position(1)),
        PositionError::PlayerCount { got: 1, min: 2, max: 10 }
    );
}

#[test]
fn refuses_an_empty_discard_pile_once_the_first_card_is_turned() {
    let mut p = base(card("R5"), None);
    let pile = std::mem::take(&mut p.discard);
    p.draw_pile.extend(pile);
    assert_eq!(refused(&p), PositionError::EmptyDiscard);
}

#[test]
fn refuses_a_first_card_to_turn_with_a_discard_pile() {
    let mut p = base(card("R5"), None);
    p.first_card_to_turn = true;
    assert_eq!(refused(&p), PositionError::FirstCardToTurn);
}

#[test]
fn refuses_a_colour_the_rules_do_not_play() {
    let rules = Rules::preset("two-color").expect("preset");
    let game = Game::new(rules.clone(), 2, 3).expect("game");
    let mut p = game.position();
    let missing = Color::ALL.into_iter().find(|c| !rules.colors().contains(c)).expect("a colour out of play");
    p.color = Some(missing);
    assert_eq!(refused_under(rules, &p), PositionError::ColorNotInGame(missing));
}

#[test]
fn refuses_a_red_nine_on_top_with_blue_in_play() {
    let p = base(card("R9"), Some(Color::Blue));
    assert_eq!(refused(&p), PositionError::ColorMismatch { top: card("R9"), color: Color::Blue });
}

#[test]
fn refuses_a_wild_on_top_without_a_colour() {
    let p = base(card("W"), None);
    assert_eq!(refused(&p), PositionError::ColorMissing { top: card("W") });
}

#[test]
fn refuses_a_colour_still_to_be_chosen_but_given() {
    let mut p = base(card("W"), Some(Color::Green));
    p.phase = Phase::ChooseColor;
    assert_eq!(refused(&p), PositionError::ColorTooEarly);
    p.color = None;
    assert!(Game::from_position(official(), &p).is_ok(), "without the colour it is a first-card wild");
}

#[test]
fn refuses_a_colour_to_choose_without_a_wild() {
    let mut p = base(card("G3"), None);
    p.phase = Phase::ChooseColor;
    assert_eq!(refused(&p), PositionError::NothingToChoose { top: card("G3") });
}

#[test]
fn refuses_a_challenge_without_a_wild_draw_four() {
    let mut p = base(card("G3"), None);
    p.phase = Phase::Challenge { offender: Seat(2) };
    p.pending_draw = 4;
    assert_eq!(refused(&p), PositionError::ChallengeImpossible);
    let mut ok = base(Card::WILD_DRAW_FOUR, Some(Color::Red));
    ok.phase = Phase::Challenge { offender: Seat(2) };
    ok.pending_draw = 4;
    assert!(Game::from_position(official(), &ok).is_ok(), "with one it is a challenge");
}

#[test]
fn refuses_a_swap_without_the_seven_zero_rule() {
    let mut p = base(card("G7"), None);
    p.phase = Phase::ChooseSwap;
    assert_eq!(refused(&p), PositionError::SwapImpossible);
}

#[test]
fn refuses_a_same_number_run_the_rules_or_the_hand_do_not_allow() {
    let mut p = base(card("G5"), None);
    p.phase = Phase::SameNumber;
    // Seat 0 holds another 5, swapped in from wherever one is.
    if !p.hands[0].iter().any(|c| c.face() == Face::Digit(5)) {
        let five = |c: &Card| c.face() == Face::Digit(5);
        let other = p.hands[0].pop().expect("cards");
        let (seat, i) = (1..3)
            .find_map(|s| p.hands[s].iter().position(five).map(|i| (Some(s), i)))
            .or_else(|| p.draw_pile.iter().position(five).map(|i| (None, i)))
            .expect("a 5 somewhere");
        let pile = match seat {
            Some(s) => &mut p.hands[s],
            None => &mut p.draw_pile,
        };
        let taken = std::mem::replace(&mut pile[i], other);
        p.hands[0].push(taken);
    }
    assert_eq!(refused(&p), PositionError::SameNumberImpossible, "the official rules have no runs");
    assert!(Game::from_position(same_number_rules(), &p).is_ok(), "with the rule it is a run");
    let mut no_five = p.clone();
    let fives: Vec<Card> = no_five.hands[0].iter().copied().filter(|c| c.face() == Face::Digit(5)).collect();
    no_five.hands[0].retain(|c| c.face() != Face::Digit(5));
    no_five.draw_pile.extend(fives);
    assert_eq!(refused_under(same_number_rules(), &no_five), PositionError::SameNumberImpossible);
    let mut seven = base(card("G7"), None);
    seven.phase = Phase::SameNumber;
    let mut c = uno::rules::preset_config("official").expect("preset");
    c.play.multi_play = MultiPlay::SameNumber;
    c.play.seven_zero = SevenZero::On;
    let seven_zero = Rules::new(c).expect("valid");
    assert_eq!(refused_under(seven_zero, &seven), PositionError::SameNumberImpossible, "a 7 swaps, it starts no run");
}

#[test]
fn refuses_a_drawn_card_phase_without_the_card() {
    let mut p = base(card("G3"), None);
    p.phase = Phase::DrawnCard;
    assert_eq!(refused(&p), PositionError::DrawnCardMissing);
    let absent = p.draw_pile[0];
    p.drawn_card = Some(absent);
    assert_eq!(refused(&p), PositionError::DrawnCardMissing, "the drawn card is in the hand");
}

#[test]
fn refuses_a_drawn_card_outside_its_phase() {
    let mut p = base(card("G3"), None);
    p.drawn_card = Some(p.hands[0][0]);
    assert_eq!(refused(&p), PositionError::DrawnCardOutOfPhase);
}

#[test]
fn refuses_a_penalty_nothing_caused() {
    let mut p = base(card("G3"), None);
    p.pending_draw = 2;
    assert_eq!(refused(&p), PositionError::PenaltyImpossible { pending: 2 });
    let mut d2 = base(Card::colored(Color::Green, Face::DrawTwo).expect("card"), None);
    d2.pending_draw = 2;
    assert_eq!(refused(&d2), PositionError::PenaltyImpossible { pending: 2 }, "official rules do not stack");
}

#[test]
fn refuses_an_empty_hand_while_the_round_goes_on() {
    let mut p = base(card("G3"), None);
    let hand = std::mem::take(&mut p.hands[1]);
    p.draw_pile.extend(hand);
    assert_eq!(refused(&p), PositionError::EmptyHand { seat: Seat(1) });
}

#[test]
fn refuses_an_uno_call_on_many_cards() {
    let mut p = base(card("G3"), None);
    p.uno_called = vec![Seat(1)];
    let cards = p.hands[1].len();
    assert_eq!(refused(&p), PositionError::UnoCallTooManyCards { seat: Seat(1), cards });
}

#[test]
fn refuses_an_outcome_out_of_place() {
    let mut p = base(card("G3"), None);
    p.phase = Phase::GameOver;
    assert_eq!(refused(&p), PositionError::OutcomeMismatch);
    let mut q = base(card("G3"), None);
    q.outcome = Some(Outcome { winner: None, reason: EndReason::Stalemate, scores: vec![0; 3] });
    assert_eq!(refused(&q), PositionError::OutcomeMismatch);
    q.phase = Phase::GameOver;
    assert!(Game::from_position(official(), &q).is_ok(), "a stalemate over");
}

#[test]
fn refuses_text_that_is_not_a_position() {
    let err = "hello".parse::<Position>().expect_err("no header");
    assert!(matches!(err, PositionError::Syntax { line: 1, .. }), "{err:?}");
    let text = base(card("G3"), None).to_string().replace("phase play", "phase dancing");
    let err = text.parse::<Position>().expect_err("bad phase");
    assert!(matches!(err, PositionError::Syntax { ref message, .. } if message.contains("dancing")), "{err:?}");
    assert!(Position::from_json("{\"hands\": 3}").is_err());
}

#[test]
fn a_position_written_by_hand_in_json_and_text_is_the_same() {
    let p = base(card("G3"), None);
    let mut json: serde_json::Value = serde_json::from_str(&p.to_json()).expect("json");
    let fields = json.as_object_mut().expect("an object");
    // Fields with defaults may be left out.
    for k in ["seed", "rng", "direction", "dealer", "pending_draw", "acted", "dead_turns", "turns", "round"] {
        fields.remove(k);
    }
    let short = Position::from_json(&json.to_string()).expect("a short position reads");
    assert_eq!(short.round, 1);
    assert_eq!(short.rng, None);
    assert!(Game::from_position(official(), &short).is_ok());
    let text: Position = short.to_string().parse().expect("text");
    assert_eq!(text, short);
}
