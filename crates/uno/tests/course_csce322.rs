//! Seed 000's precedence policy, penalties, turn order and stopping, position by position.

use uno::courses::csce322::{choose_move, next_player, run, take_turn, Action, Move, Operation, Rule, Stop};
use uno::courses::notation::Layout;
use uno::Face;

fn pos(deck: &str, discard: &str, hands: &str) -> Layout {
    Layout::parse(deck.as_bytes(), discard.as_bytes(), hands.as_bytes()).expect("test position parses")
}

/// Plays one turn of hand 1 and returns (rule, discard file, hand 1 file, deck file).
fn turn(deck: &str, discard: &str, hand: &str) -> (Option<Rule>, String, String, String) {
    let mut p = pos(deck, discard, hand);
    let mv = take_turn(&mut p, 0);
    let hands = p.write_hands();
    let first = hands.lines().next().unwrap_or("").to_string();
    (mv.map(|m| m.rule), p.write_discard().trim_end().to_string(), first, p.write_deck().trim_end().to_string())
}

fn s(x: &str) -> String {
    x.to_string()
}

#[test]
fn rule_1_extends_a_wild_draw_four_behind_its_marker() {
    assert_eq!(
        turn("g,1", "b,-;w,d;r,3", "b,3;y,d;w,d;b,d"),
        (Some(Rule::ExtendWildDrawFour), s("b,-;w,d;b,-;w,d;r,3"), s("b,3;y,d;b,d"), s("g,1"))
    );
}

#[test]
fn rule_2_extends_a_draw_two_with_any_colour() {
    assert_eq!(
        turn("g,1", "g,d;b,3", "g,1;w,d;r,d"),
        (Some(Rule::ExtendDrawTwo), s("r,d;g,d;b,3"), s("g,1;w,d"), s("g,1"))
    );
}

#[test]
fn rule_3_plays_the_left_most_colour_match_before_everything_below() {
    assert_eq!(turn("g,1", "b,3", "r,3;w,d;w,-;b,7;b,1").0, Some(Rule::ColourMatch));
    assert_eq!(turn("g,1", "b,3", "r,3;w,d;w,-;b,7;b,1").2, s("r,3;w,d;w,-;b,1"));
    // On a marker, the colour is the marker's.
    assert_eq!(
        turn("", "g,-;w,-;r,1", "r,1;g,5;g,6"),
        (Some(Rule::ColourMatch), s("g,5;g,-;w,-;r,1"), s("r,1;g,6"), s(""))
    );
}

#[test]
fn rule_4_plays_the_wild_draw_four_before_a_symbol_match_and_declares_a_colour() {
    assert_eq!(
        turn("", "b,3", "r,3;w,-;w,d;y,7"),
        (Some(Rule::WildDrawFour), s("r,-;w,d;b,3"), s("r,3;w,-;y,7"), s(""))
    );
}

#[test]
fn rule_5_plays_the_left_most_symbol_match_before_a_wild() {
    assert_eq!(turn("", "b,3", "r,1;w,-;g,3;y,3"), (Some(Rule::SymbolMatch), s("g,3;b,3"), s("r,1;w,-;y,3"), s("")));
}

#[test]
fn rule_6_plays_a_wild_and_declares_the_left_most_non_wild_colour() {
    assert_eq!(turn("", "b,3", "r,1;w,-;g,2"), (Some(Rule::Wild), s("r,-;w,-;b,3"), s("r,1;g,2"), s("")));
    assert_eq!(turn("", "b,3", "w,-;g,2").1, s("g,-;w,-;b,3"), "the colour of the left-most non-wild card");
    assert_eq!(turn("", "b,3", "w,-;w,-").1, s("r,-;w,-;b,3"), "only wilds left: red");
    assert_eq!(turn("", "b,3", "w,-").1, s("-,-;w,-;b,3"), "an emptied hand: the end marker");
}

#[test]
fn rule_7_draws_the_first_card_to_the_back_of_the_hand() {
    assert_eq!(turn("g,2;y,3", "b,3", "r,1;y,2"), (Some(Rule::Draw), s("b,3"), s("r,1;y,2;g,2"), s("y,3")));
}

#[test]
fn a_marker_has_symbol_dash_so_a_wild_on_a_marker_is_a_symbol_match_without_marker() {
    // The course's reference does this (settled by many-players-many-moves, turn 28).
    assert_eq!(
        turn("", "g,-;g,d;b,d", "r,4;w,-;b,2"),
        (Some(Rule::SymbolMatch), s("w,-;g,-;g,d;b,d"), s("r,4;b,2"), s(""))
    );
}

#[test]
fn a_bare_wild_has_colour_w_so_a_wild_card_on_it_is_a_colour_match_without_marker() {
    // Settled by many-players-many-moves, turn 29.
    assert_eq!(
        turn("", "w,-;g,-;g,d", "y,6;w,d;w,-"),
        (Some(Rule::ColourMatch), s("w,d;w,-;g,-;g,d"), s("y,6;w,-"), s(""))
    );
}

#[test]
fn a_bare_wild_draw_four_must_be_extended_and_builds_up_nothing() {
    // Settled by many-players-many-moves: player 7 cannot extend and the game stops.
    let p = pos("g,2;r,r", "w,d;w,-;g,-", "y,7;b,5;r,1");
    assert_eq!(choose_move(&p, 0), None);
    let out = run(Operation::ManyPlayersManyMoves, &p);
    assert_eq!(out.stop, Stop::CannotContinue { player: 1 });
    assert_eq!(out.position, p);
    // A Wild Draw Four in hand still extends it, with a marker.
    assert_eq!(turn("", "w,d;w,-;g,-", "y,7;w,d").1, s("y,-;w,d;w,d;w,-;g,-"));
}

#[test]
fn a_stack_of_draw_twos_is_served_in_full_and_marked_with_the_top_colour() {
    let (rule, discard, hand, deck) = turn("g,1;g,2;g,3;g,4;g,5;g,6;g,7", "r,d;b,d;y,d;y,5", "r,1;w,d");
    assert_eq!(rule, Some(Rule::ExtendDrawTwo));
    assert_eq!(discard, "r,-;r,d;b,d;y,d;y,5");
    assert_eq!(hand, "r,1;w,d;g,1;g,2;g,3;g,4;g,5;g,6");
    assert_eq!(deck, "g,7");
}

#[test]
fn a_served_draw_two_stack_ends_at_its_marker() {
    let p = pos("g,1;g,2;g,3;g,4", "b,d;r,-;r,d;r,d", "y,1");
    let mv = choose_move(&p, 0).map(|m| m.action);
    assert_eq!(mv, Some(Action::ServePenalty { owed: 2, drawn: 2, marker: uno::Color::Blue }));
}

#[test]
fn a_stack_of_wild_draw_fours_is_served_in_full_and_the_marker_copied() {
    let deck = "g,1;g,2;g,3;g,4;g,5;g,6;g,7;g,8;g,9";
    let (rule, discard, hand, rest) = turn(deck, "g,-;w,d;b,-;w,d;r,5", "r,5;g,d");
    assert_eq!(rule, Some(Rule::ExtendWildDrawFour));
    assert_eq!(discard, "g,-;g,-;w,d;b,-;w,d;r,5");
    assert_eq!(hand, "r,5;g,d;g,1;g,2;g,3;g,4;g,5;g,6;g,7;g,8");
    assert_eq!(rest, "g,9");
    // After the copy, nothing is owed any more: the next move is an ordinary colour match.
    let (rule, ..) = turn("", &discard, "r,5;g,d");
    assert_eq!(rule, Some(Rule::ColourMatch));
}

#[test]
fn a_wild_draw_four_stack_ends_at_a_served_copy() {
    let p = pos("g,1;g,2;g,3;g,4;g,5", "y,-;w,d;b,-;b,-;w,d;r,5", "r,5");
    assert_eq!(
        choose_move(&p, 0).map(|m| m.action),
        Some(Action::ServePenalty { owed: 4, drawn: 4, marker: uno::Color::Yellow })
    );
}

#[test]
fn a_deck_that_runs_out_mid_penalty_gives_what_it_has() {
    assert_eq!(
        turn("g,1;g,2;g,3", "r,d;b,d", "y,1"),
        (Some(Rule::ExtendDrawTwo), s("r,-;r,d;b,d"), s("y,1;g,1;g,2;g,3"), s(""))
    );
    assert_eq!(
        turn("g,1", "y,-;w,d;y,-;w,d", "r,1"),
        (Some(Rule::ExtendWildDrawFour), s("y,-;y,-;w,d;y,-;w,d"), s("r,1;g,1"), s(""))
    );
}

#[test]
fn a_penalty_with_an_empty_deck_draws_nothing_places_the_marker_and_play_goes_on() {
    // The seed: "Once you draw the number of cards required (or the size of the deck, whichever
    // is smaller), place a copy of the … marker": the smaller is 0.
    assert_eq!(turn("", "r,d;b,3", "y,1;g,2"), (Some(Rule::ExtendDrawTwo), s("r,-;r,d;b,3"), s("y,1;g,2"), s("")));
    assert_eq!(turn("", "g,-;w,d;b,3", "y,1"), (Some(Rule::ExtendWildDrawFour), s("g,-;g,-;w,d;b,3"), s("y,1"), s("")));
    // The next player answers the marker: a colour match.
    let out = run(Operation::ManyPlayersManyMoves, &pos("", "r,d;b,3", "y,1\nr,5;b,2"));
    let got: Vec<(usize, Rule)> = out.steps.iter().map(|s| (s.player, s.mv.rule)).collect();
    assert_eq!(got[..2], [(1, Rule::ExtendDrawTwo), (2, Rule::ColourMatch)]);
}

#[test]
fn a_player_who_can_neither_play_nor_draw_stops_every_operation_but_many_players_one_move() {
    let p = pos("", "b,3", "r,1;g,2\nb,9;y,9");
    assert_eq!(choose_move(&p, 0), None);
    for op in [Operation::OnePlayerOneMove, Operation::OnePlayerManyMoves, Operation::ManyPlayersManyMoves] {
        let out = run(op, &p);
        assert_eq!(out.stop, Stop::CannotContinue { player: 1 }, "{op}");
        assert!(out.steps.is_empty());
        assert_eq!(out.position, p, "{op}: nothing changes");
    }
    // The seed: "the result of n turns being taken": player 1's turn passes, player 2 plays.
    let out = run(Operation::ManyPlayersOneMove, &p);
    let got: Vec<(usize, Action)> = out.steps.iter().map(|s| (s.player, s.mv.action)).collect();
    assert_eq!(got.len(), 2);
    assert_eq!(got[0], (1, Action::Pass));
    assert!(matches!(got[1], (2, Action::Play { .. })), "{got:?}");
    assert_eq!(out.stop, Stop::TurnsTaken);
    assert_eq!(out.position.write_hands(), "r,1;g,2\ny,9\n");
}

#[test]
fn one_player_one_move_is_one_move_even_a_draw() {
    let out = run(Operation::OnePlayerOneMove, &pos("g,9;b,1", "b,3", "r,1\nb,7"));
    assert_eq!(out.steps.len(), 1);
    assert_eq!(out.position.write_hands(), "r,1;g,9\nb,7\n");
    assert_eq!(out.stop, Stop::TurnsTaken);
}

#[test]
fn one_player_many_moves_counts_draws_and_stops_on_an_empty_hand_without_end_marker() {
    let out = run(Operation::OnePlayerManyMoves, &pos("r,2;b,0;y,4", "b,8", "b,7;r,5;r,0\ng,1"));
    let rules: Vec<Rule> = out.steps.iter().map(|s| s.mv.rule).collect();
    assert_eq!(
        rules,
        [
            Rule::ColourMatch,
            Rule::Draw,
            Rule::Draw,
            Rule::ColourMatch,
            Rule::SymbolMatch,
            Rule::ColourMatch,
            Rule::ColourMatch
        ]
    );
    assert_eq!(out.stop, Stop::HandEmptied { player: 1 });
    assert_eq!(out.position.write_discard(), "r,2;r,5;r,0;b,0;b,7;b,8\n");
    assert_eq!(out.position.write_hands(), "\ng,1\n");
    assert_eq!(out.position.write_deck(), "y,4\n");
}

#[test]
fn one_player_many_moves_serves_its_own_draw_two_then_stops_when_stuck() {
    let out = run(Operation::OnePlayerManyMoves, &pos("g,1;g,2", "r,3", "r,d;y,5"));
    assert_eq!(out.position.write_discard(), "r,-;r,d;r,3\n");
    assert_eq!(out.position.write_hands(), "y,5;g,1;g,2\n");
    assert_eq!(out.stop, Stop::CannotContinue { player: 1 });
    assert_eq!(out.steps.len(), 2);
}

#[test]
fn skip_and_reverse_follow_section_4() {
    let asc = |p: usize, n: usize, f| next_player(p - 1, n, true, f);
    let desc = |p: usize, n: usize, f| next_player(p - 1, n, false, f);
    let (s, r) = (Some(Face::Skip), Some(Face::Reverse));
    // 2 players: a Skip gives the turn back to its player, a Reverse passes it on.
    assert_eq!(asc(1, 2, s), (0, true));
    assert_eq!(asc(2, 2, s), (1, true));
    assert_eq!(asc(1, 2, r), (1, false));
    assert_eq!(desc(2, 2, r), (0, true));
    assert_eq!(desc(1, 2, s), (0, false));
    // 3 players.
    assert_eq!(asc(1, 3, s), (2, true));
    assert_eq!(asc(2, 3, s), (0, true), "Player n-1 skips: Player 1");
    assert_eq!(asc(3, 3, s), (1, true), "Player n skips: Player 2");
    assert_eq!(asc(1, 3, r), (2, false), "Player 1 reverses: Player n");
    assert_eq!(desc(3, 3, r), (0, true), "Player n reverses descending: Player 1");
    assert_eq!(desc(1, 3, s), (1, false), "Player 1 skips descending: Player n-1");
    assert_eq!(desc(2, 3, s), (2, false), "Player 2 skips descending: Player n");
    // 6 players.
    assert_eq!(asc(4, 6, s), (5, true));
    assert_eq!(asc(5, 6, s), (0, true));
    assert_eq!(asc(6, 6, s), (1, true));
    assert_eq!(asc(4, 6, r), (2, false));
    assert_eq!(desc(4, 6, r), (4, true));
    assert_eq!(desc(4, 6, s), (1, false));
    assert_eq!(desc(2, 6, s), (5, false));
    assert_eq!(desc(1, 6, s), (4, false));
    assert_eq!(desc(4, 6, None), (2, false));
    assert_eq!(asc(6, 6, None), (0, true));
}

fn players_of(op: Operation, p: &Layout) -> Vec<usize> {
    run(op, p).steps.iter().map(|s| s.player).collect()
}

#[test]
fn turn_order_with_two_players() {
    // P1 skips (P1 again), P1 reverses (P2), P2, P1, then P2 empties their hand.
    let p = pos("", "r,0", "r,s;r,r;r,1;r,2\nr,5;r,6");
    assert_eq!(players_of(Operation::ManyPlayersManyMoves, &p), [1, 1, 2, 1, 2]);
    assert_eq!(players_of(Operation::ManyPlayersOneMove, &p), [1, 1]);
}

#[test]
fn turn_order_with_three_players() {
    // P1 reverses: P3, P2 (descending); P2 skips P1: P3, P2, who empties their hand.
    let p = pos("", "b,0", "b,r;b,1;b,2\nb,s;b,3\nb,4;b,5;b,6;b,7");
    assert_eq!(players_of(Operation::ManyPlayersManyMoves, &p), [1, 3, 2, 3, 2]);
}

#[test]
fn turn_order_with_six_players() {
    let p = pos("", "g,0", "g,1;g,2;g,3\ng,s;g,4;g,5\ng,6;g,7;g,8\ng,r;g,9;g,1\ng,2;g,3;g,4\ng,5;g,6;g,7");
    // 1, 2 skips 3, 4 reverses, 3, 2, 1, 6 (wraps), 5.
    assert_eq!(players_of(Operation::ManyPlayersOneMove, &p), [1, 2, 4, 3, 2, 1]);
    assert_eq!(players_of(Operation::ManyPlayersManyMoves, &p)[..9], [1, 2, 4, 3, 2, 1, 6, 5, 4]);
}

#[test]
fn many_players_many_moves_stops_when_a_hand_is_emptied() {
    let p = pos("y,1;y,2", "b,0", "b,1;r,1\nb,2\ny,3;y,4");
    let out = run(Operation::ManyPlayersManyMoves, &p);
    assert_eq!(out.stop, Stop::HandEmptied { player: 2 });
    assert_eq!(out.steps.len(), 2);
}

#[test]
fn a_draw_two_is_not_a_skip_the_next_player_answers_it() {
    let p = pos("g,1;g,2;g,3", "b,0", "b,d;r,9\nr,1\ny,1");
    let out = run(Operation::ManyPlayersOneMove, &p);
    let got: Vec<(usize, Rule)> = out.steps.iter().map(|s| (s.player, s.mv.rule)).collect();
    assert_eq!(got, [(1, Rule::ColourMatch), (2, Rule::ExtendDrawTwo), (3, Rule::Draw)]);
    assert_eq!(out.position.write_hands(), "r,9\nr,1;g,1;g,2\ny,1;g,3\n");
}

#[test]
fn an_already_finished_position_makes_no_move() {
    for (discard, hands) in [("-,-;w,-;b,1", "r,1\nb,2"), ("b,1", "r,1\n\nb,2")] {
        let p = pos("g,1", discard, hands);
        let out = run(Operation::ManyPlayersManyMoves, &p);
        assert_eq!(out.stop, Stop::AlreadyOver);
        assert_eq!(out.position, p);
    }
    // An empty hand that is not the one playing does not end a one-player operation.
    let p = pos("g,1", "b,1", "b,2\n");
    assert_eq!(run(Operation::OnePlayerOneMove, &p).steps.len(), 1);
}

#[test]
fn every_move_is_displayed_with_its_rule() {
    let mv = Move {
        rule: Rule::WildDrawFour,
        action: Action::Play {
            index: 0,
            card: uno::Card::WILD_DRAW_FOUR,
            declared: Some(uno::courses::notation::Entry::Marker(uno::Color::Blue)),
        },
    };
    assert_eq!(mv.to_string(), "plays w,d then b,- (rule 4: Wild Draw Four)");
}
