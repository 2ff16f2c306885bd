//! Seed 004 ("Hooray! Card Game UNO!"): every statement of the seed, checked on the engine under
//! the `two-color` preset and on the `cs205` status format. Test names quote the seed.

use uno::courses::cs205::{self, Status, Transcript};
use uno::{Action, Card, Color, Deal, Direction, EndReason, Face, Game, Phase, Rules, Seat};

fn rules() -> Rules {
    Rules::preset("two-color").expect("preset")
}

fn cards(text: &str) -> Vec<Card> {
    text.split_whitespace().map(|t| cs205::parse_card(t).expect("card")).collect()
}

/// A position: hands in seat order, piles written top card first, `current` to play, going Right.
fn deal(hands: &[&str], draw: &str, discard: &str, current: u8) -> Game {
    let deal =
        Deal::new(hands.iter().map(|h| cards(h)).collect(), bottom_first(draw), bottom_first(discard), Seat(current));
    Game::from_position(rules(), &deal.into_position(1)).expect("position")
}

fn play(game: &mut Game, card: &str) {
    let seat = game.current();
    let card = cards(card)[0];
    game.apply(seat, Action::Play { card, color: None }).unwrap_or_else(|e| panic!("{card}: {e}"));
}

#[test]
fn its_deck_contains_50_cards_of_which_there_are_38_number_cards_and_12_action_cards() {
    let deck = rules().deck().to_vec();
    assert_eq!(deck.len(), 50);
    assert_eq!(deck.iter().filter(|c| matches!(c.face(), Face::Digit(_))).count(), 38);
    assert_eq!(deck.iter().filter(|c| !matches!(c.face(), Face::Digit(_))).count(), 12);
}

#[test]
fn number_cards_2_colors_blue_red_each_color_has_one_0_card_and_two_cards_of_1_to_9() {
    let deck = rules().deck().to_vec();
    for color in [Color::Blue, Color::Red] {
        let count = |f: Face| deck.iter().filter(|c| c.color() == Some(color) && c.face() == f).count();
        assert_eq!(count(Face::Digit(0)), 1);
        for d in 1..=9 {
            assert_eq!(count(Face::Digit(d)), 2, "{color} {d}");
        }
        for f in [Face::Skip, Face::Reverse, Face::DrawTwo] {
            assert_eq!(count(f), 2, "4 {f} cards: 2 colors, each color has two cards");
        }
    }
    assert!(deck.iter().all(|c| matches!(c.color(), Some(Color::Blue | Color::Red))), "no other colour, no wild");
}

#[test]
fn a_card_may_only_be_played_on_a_matching_color_or_on_another_card_of_the_same_value_or_action() {
    let game = deal(&["7R 7B 3B SB RB DB SR", "1R"], "2R", "7R", 0);
    let legal = game.legal_actions();
    let can = |t: &str| legal.contains(&Action::Play { card: cards(t)[0], color: None });
    assert!(can("7B"), "another Number card whose value is the same");
    assert!(can("SR"), "a matching color");
    assert!(!can("3B") && !can("SB") && !can("RB") && !can("DB"), "neither colour nor value");
    let on_skip = deal(&["SB 3B", "1R"], "2R", "SR", 0);
    assert!(on_skip.check(Seat(0), Action::Play { card: cards("SB")[0], color: None }).is_ok(), "on another Skip");
    let on_draw_two = deal(&["DB 3B", "1R"], "2R", "DR", 0);
    assert!(on_draw_two.check(Seat(0), Action::Play { card: cards("DB")[0], color: None }).is_ok());
}

#[test]
fn skip_the_next_person_in_line_to_play_forfeits_his_her_turn_and_is_skipped() {
    let mut game = deal(&["SR 1B", "2B", "3B", "4B"], "5B 6B", "7R", 0);
    play(&mut game, "SR");
    assert_eq!(game.current(), Seat(2));
}

#[test]
fn reverse_the_direction_of_play_reverses_play_to_the_right_now_passes_to_the_left() {
    let mut game = deal(&["RR 1B", "2B", "3B", "4B"], "5B 6B", "7R", 0);
    play(&mut game, "RR");
    assert_eq!(game.direction(), Direction::CounterClockwise);
    assert_eq!(game.current(), Seat(3));
    assert_eq!(Status::of(&game).render().expect("printable").lines().nth(3), Some("Direction: Left"));
}

#[test]
fn draw_2_the_next_person_to_play_must_draw_2_cards_and_forfeit_his_her_turn() {
    let mut game = deal(&["DR 1B", "2B", "3B"], "5B 6B 8B", "7R", 0);
    play(&mut game, "DR");
    assert_eq!(game.hand(Seat(1)), &cards("2B 5B 6B")[..], "the two top cards, at once");
    assert_eq!(game.current(), Seat(2));
}

#[test]
fn if_the_draw_pile_is_used_up_shuffle_the_discard_pile_and_turn_it_over_to_regenerate_the_draw_pile() {
    // A Draw Two with one card left: the second comes from the rebuilt pile; the top stays.
    let mut game = deal(&["DR 1B", "2B", "3B"], "5B", "7R 4R 9R", 0);
    play(&mut game, "DR");
    assert_eq!(game.hand(Seat(1)).len(), 3);
    assert_eq!(game.discard_pile(), &cards("DR")[..], "the top card is kept");
    let mut rest: Vec<Card> = game.draw_pile().to_vec();
    rest.push(game.hand(Seat(1))[2]);
    rest.sort();
    let mut old = cards("7R 4R 9R");
    old.sort();
    assert_eq!(rest, old);
}

#[test]
fn the_draw_pile_is_rebuilt_only_when_it_is_used_up() {
    let mut game = deal(&["1B", "2B"], "3B", "7R 4R 9R", 0);
    game.apply(Seat(0), Action::Draw).expect("nothing playable: draw");
    assert_eq!(game.hand(Seat(0)), &cards("1B 3B")[..], "the top of the draw pile");
    assert!(game.draw_pile().is_empty(), "now used up, not yet rebuilt");
    assert_eq!(game.discard_pile().len(), 3);
}

#[test]
fn two_to_four_players_can_join_the_game() {
    for n in 2..=4 {
        assert!(Game::new(rules(), n, 1).is_ok(), "{n}");
    }
    assert!(Game::new(rules(), 1, 1).is_err());
    assert!(Game::new(rules(), 5, 1).is_err());
}

#[test]
fn first_randomly_choose_a_dealer_shuffle_the_draw_pile_and_deal_7_cards_from_the_pile_to_each_player() {
    let mut dealers = std::collections::BTreeSet::new();
    for seed in 0..40 {
        let game = Game::new(rules(), 4, seed).expect("game");
        dealers.insert(game.dealer());
        assert!(game.hands().iter().all(|h| h.len() == 7));
        assert_eq!(game.draw_pile().len(), 50 - 28 - 1);
    }
    assert_eq!(dealers.len(), 4, "every seat deals in some game");
}

#[test]
fn turn_over_the_top_card_to_start_the_discard_pile_even_an_action_card_will_not_take_any_special_effect() {
    let mut seen = 0;
    for seed in 0..200 {
        let game = Game::new(rules(), 3, seed).expect("game");
        let top = game.top();
        assert_eq!(game.discard_pile().len(), 1);
        if !matches!(top.face(), Face::Digit(_)) {
            seen += 1;
            assert_eq!(game.current().index(), (game.dealer().index() + 1) % 3, "{top}: nobody skipped");
            assert_eq!(game.direction(), Direction::Clockwise, "{top}: no reverse");
            assert!(game.hands().iter().all(|h| h.len() == 7), "{top}: nobody draws");
        }
    }
    assert!(seen > 0);
}

#[test]
fn the_player_to_the_right_of_the_dealer_plays_first_and_play_passes_to_the_right() {
    for seed in 0..20 {
        let mut game = Game::new(rules(), 4, seed).expect("game");
        assert_eq!(game.current().index(), (game.dealer().index() + 1) % 4);
        let first = game.current();
        let action = game.legal_actions()[0];
        game.apply(first, action).expect("legal");
        if !matches!(game.top().face(), Face::Skip | Face::Reverse | Face::DrawTwo) {
            assert_eq!(game.current().index(), (first.index() + 1) % 4, "to the right: the next seat");
        }
    }
    let text = Status::of(&Game::new(rules(), 2, 3).expect("game")).render().expect("printable");
    assert_eq!(text.lines().nth(3), Some("Direction: Right"));
}

#[test]
fn if_the_player_has_multiple_playable_cards_he_she_can_choose_to_play_any_one_of_them() {
    let game = deal(&["7B 3R 9R 1B", "2B"], "5B", "7R", 0);
    let plays: Vec<Action> = game.legal_actions().into_iter().filter(|a| matches!(a, Action::Play { .. })).collect();
    assert_eq!(plays.len(), 3);
    assert!(game.check(Seat(0), Action::Draw).is_err(), "a player who can play does not draw");
}

#[test]
fn if_the_player_has_no_playable_card_he_she_needs_to_draw_a_card_and_skip_the_turn() {
    let mut game = deal(&["1B 2B", "3B", "4B"], "7R 5B", "9R", 0);
    assert_eq!(game.legal_actions(), vec![Action::Draw]);
    game.apply(Seat(0), Action::Draw).expect("draw");
    assert_eq!(game.hand(Seat(0)), &cards("1B 2B 7R")[..]);
    assert_eq!(game.current(), Seat(1), "the turn is over even though 7R matches");
    assert_eq!(game.phase(), Phase::Play);
}

#[test]
fn the_winner_gets_all_other_players_cards_scored_number_face_value_skip_20_reverse_30_draw_2_40() {
    let mut game = deal(&["5R", "9B SB RB DB", "0R 3B"], "1B 2B", "7R", 0);
    play(&mut game, "5R");
    assert_eq!(game.round_winner(), Some(Seat(0)));
    assert_eq!(game.scores()[0], 9 + 20 + 30 + 40 + 3);
    assert_eq!(cs205::winner_line(&game), "Player 1 (102)");
    assert!(game.is_round_over(), "the game round is over");
}

#[test]
fn going_out_on_a_draw_2_still_makes_the_next_player_draw_and_those_cards_score() {
    let mut game = deal(&["DR", "9B", "3B"], "1B 2B 4R", "7R", 0);
    play(&mut game, "DR");
    assert_eq!(game.hand(Seat(1)), &cards("9B 1B 2B")[..]);
    assert_eq!(cs205::winner_line(&game), "Player 1 (15)");
    let status = Status::of(&game);
    assert_eq!(status.current, 2, "the block shows the turn past the victim");
}

#[test]
fn get_the_winner_after_a_player_wins_or_run_100_rounds() {
    assert_eq!(rules().turn_cap(), Some(100), "the preset stops after 100 turns");
    // The same cap, shortened to 5 turns, on a position nobody can win within it.
    let mut config = uno::rules::preset_config("two-color").expect("preset");
    config.play.turn_cap = Some(5);
    let deal = Deal {
        hands: vec![cards("1B 2B 3B 4B 5B 6B"), cards("1B 2B 3B 4B 5B 6B")],
        draw_pile: cards("8B"),
        discard: cards("9B"),
        color: None,
        current: Seat(0),
        direction: Direction::Clockwise,
        dealer: Seat(1),
    };
    let mut game = Game::from_position(Rules::new(config).expect("rules"), &deal.into_position(1)).expect("position");
    let mut blocks = vec![Status::of(&game)];
    while !game.is_over() {
        let seat = game.current();
        let action = game.legal_actions()[0];
        game.apply(seat, action).expect("legal");
        blocks.push(Status::of(&game));
    }
    assert_eq!(game.turns(), 5);
    assert_eq!(game.outcome().map(|o| o.reason), Some(EndReason::TurnCap));
    assert_eq!(cs205::winner_line(&game), "", "an empty line when nobody won");
    assert_eq!(blocks.len(), 6, "the set-up block and one per turn");
}

#[test]
fn the_status_block_prints_exactly_in_the_course_format() {
    let game = deal(&["7R 6B 7B 3R 1R 2B RR", "SR 4R 6B RR 8B RB 0B"], "9B 9R DR 6R 5B", "2B", 1);
    let expected = "Draw: [9B, 9R, DR, 6R, 5B]\nDiscard: [2B]\nCurrent: Player 2\nDirection: Right\n\
                    Player 1: [7R, 6B, 7B, 3R, 1R, 2B, RR]\nPlayer 2: [SR, 4R, 6B, RR, 8B, RB, 0B]\n";
    assert_eq!(Status::of(&game).render().expect("printable"), expected);
}

/// Plays a seeded game with the first legal action and prints it as `watch --format cs205`.
fn printed_game(players: usize, seed: u64) -> String {
    let mut game = Game::new(rules(), players, seed).expect("game");
    let mut t = Transcript { blocks: vec![Status::of(&game)], winner: None };
    while !game.is_round_over() {
        let seat = game.current();
        let legal = game.legal_actions();
        let action = legal[(seed as usize + game.turns() as usize) % legal.len()];
        game.apply(seat, action).expect("legal");
        t.blocks.push(Status::of(&game));
    }
    let line = cs205::winner_line(&game);
    t.winner = if line.is_empty() { None } else { game.round_winner().map(|w| (w.index(), game.scores()[w.index()])) };
    t.to_string()
}

#[test]
fn printed_games_parse_back_and_pass_the_transcript_checks() {
    for players in 2..=4 {
        for seed in 0..60 {
            let text = printed_game(players, seed);
            let t = Transcript::parse(&text).expect("parses");
            assert_eq!(t.to_string(), text);
            t.check(&rules()).unwrap_or_else(|e| panic!("{players}p seed {seed}: {e}\n{text}"));
        }
    }
}

/// Cards written top card first, as a pile lists them: bottom card first.
fn bottom_first(text: &str) -> Vec<Card> {
    cards(text).into_iter().rev().collect()
}

/// A house-rule variant of the two-color preset.
fn variant(f: impl Fn(&mut uno::RulesConfig)) -> Rules {
    let mut config = uno::rules::preset_config("two-color").expect("preset");
    f(&mut config);
    Rules::new(config).expect("valid house rules")
}

/// Every preset, every house rule of the two-color preset changed one at a time (the shared
/// list's), and the deck and scoring changes the checker reads.
fn rule_variants() -> Vec<(String, Rules)> {
    use uno::rules::DigitPoints;
    let mut out: Vec<(String, Rules)> = uno::testing::presets()
        .into_iter()
        .chain(uno::testing::house_rules("two-color"))
        .map(|s| (s.name, (*s.rules).clone()))
        .collect();
    out.push(("digits 5 points".to_string(), variant(|c| c.scoring.digits = DigitPoints::Fixed(5))));
    out.push(("wilds in the deck".to_string(), variant(|c| _ = c.deck.wild.insert("wild".into(), 4))));
    out.push(("max turns 25".to_string(), variant(|c| c.end.max_turns = 25)));
    out
}

/// A game the engine plays with uniformly random legal actions, printed as a transcript.
fn random_transcript(rules: &Rules, players: usize, seed: u64) -> (Transcript, Game) {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut game = Game::new(rules.clone(), players, seed).expect("a table the rules deal");
    let mut t = Transcript { blocks: vec![Status::of(&game)], winner: None };
    while !game.is_round_over() {
        let seat = game.current();
        let legal = game.legal_actions();
        let action = legal[rng.gen_range(0..legal.len())];
        game.apply(seat, action).expect("legal");
        t.blocks.push(Status::of(&game));
    }
    t.winner = game.round_winner().map(|w| (w.index(), game.scores()[w.index()]));
    (t, game)
}

/// The checker and the engine agree on every rule set: where the checker knows the rules,
/// every game the engine plays passes its checks (so its turn order, effects, draws, caps and
/// scores are the engine's); where it does not, it refuses the rules at block 0 rather than
/// check a game by rules it does not follow.
#[test]
fn the_checker_passes_every_engine_game_under_the_rules_it_knows_and_refuses_the_others() {
    let (mut known, mut refused, mut won, mut capped) = (0, 0, 0, 0);
    for (name, rules) in rule_variants() {
        let players: Vec<usize> =
            (rules.min_players()..=rules.max_players().min(4)).filter(|&n| rules.check_players(n).is_ok()).collect();
        match Transcript::rule_refused(&rules) {
            None => {
                known += 1;
                for &n in &players {
                    for seed in 0..25 {
                        let (t, game) = random_transcript(&rules, n, seed);
                        let summary = t.check(&rules).unwrap_or_else(|e| panic!("{name}, {n}p seed {seed}: {e}\n{t}"));
                        assert_eq!(summary.turns as u32, game.turns(), "{name}");
                        assert_eq!(summary.winner, t.winner, "{name}");
                        won += usize::from(summary.winner.is_some());
                        capped += usize::from(summary.winner.is_none());
                    }
                }
            }
            Some(rule) => {
                refused += 1;
                let game = Game::new(rules.clone(), players[0], 1).expect("a table the rules deal");
                let t = Transcript { blocks: vec![Status::of(&game)], winner: None };
                let e = t.check(&rules).expect_err(&format!("{name}: rules the checker does not know"));
                assert_eq!(e.block, 0, "{name}");
                assert!(e.reason.contains(rule), "{name}: {e}");
            }
        }
    }
    // two-color and the variants that only change what the checker reads from the rules (the
    // shared list grows with the rule book: a new rule lands on one side or the other).
    assert!(known > 10, "{known} variants the checker takes");
    assert!(refused > uno::PRESET_NAMES.len() + 10, "{refused} presets and variants refused");
    assert!(won > 500 && capped > 20, "{won} games won, {capped} ended by a cap: too little seen");
}
