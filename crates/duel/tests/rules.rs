//! The rules of seed 001, one test per rule or error sentence (test names quote the seed).

use duel::{Action, Board, Cell, Coord, DuelError, DuelGame, EndReason, Event, Outcome, Piece, Rank, Side, Stage};

fn c(s: &str) -> Coord {
    s.parse().expect("cell name")
}

fn game_in_round(round: u8) -> DuelGame {
    let mut g = DuelGame::default();
    if round >= 2 {
        g.apply(Action::NextRound).expect("to round 2");
    }
    if round >= 3 {
        g.apply(Action::place(c("f6"), "1")).expect("a red piece");
        g.apply(Action::NextRound).expect("to round 3");
    }
    g
}

/// A game in the play stage on the given position text, red to move.
fn playing(text: &str) -> DuelGame {
    let pos: Board = text.parse().expect("position text");
    DuelGame::from_position(pos)
}

fn assert_unchanged(before: &DuelGame, after: &DuelGame) {
    assert_eq!(before, after, "a refused action must change nothing");
}

#[test]
fn the_game_always_starts_in_the_setup_stage_and_the_setup_stage_consists_of_three_rounds() {
    let mut g = DuelGame::default();
    assert_eq!(g.stage(), Stage::Setup { round: 1 });
    g.apply(Action::NextRound).expect("1 -> 2");
    assert_eq!(g.stage(), Stage::Setup { round: 2 });
    g.apply(Action::place(c("a6"), "3")).expect("red");
    g.apply(Action::NextRound).expect("2 -> 3");
    assert_eq!(g.stage(), Stage::Setup { round: 3 });
    g.apply(Action::place(c("a1"), "3")).expect("black");
    let ev = g.apply(Action::NextRound).expect("3 -> play");
    assert_eq!(g.stage(), Stage::Play { round: 1, to_move: Side::Red });
    assert!(ev.contains(&Event::PlayStarted));
}

#[test]
fn in_the_first_round_the_user_places_an_arbitrary_number_of_blocks_by_typing_the_letter_b() {
    let mut g = DuelGame::default();
    for r in 0..6u8 {
        for col in 0..6u8 {
            g.apply(Action::place(Coord::new(col, r), "b")).expect("any number of blocks");
        }
    }
    assert_eq!(g.cell(c("f6")), Some(Cell::Block));
}

#[test]
fn if_the_user_types_a_character_different_to_the_letter_b_an_error_message_should_be_shown_and_nothing_is_placed() {
    let mut g = DuelGame::default();
    for key in ["B", "a", "1", "x", " ", "", "bb", "é"] {
        let before = g.clone();
        let e = g.apply(Action::place(c("c3"), key)).expect_err("only b places a block");
        assert_eq!(e, DuelError::NotBlockKey { key: key.to_string() });
        assert_eq!(
            e.to_string(),
            format!("In round 1 of the setup only blocks can be placed: type the letter \"b\" (you typed \"{key}\"). Nothing was placed.")
        );
        assert_unchanged(&before, &g);
    }
    assert_eq!(g.cell(c("c3")), Some(Cell::Empty));
}

#[test]
fn if_the_user_tries_to_change_an_object_already_on_the_grid_an_error_message_should_be_shown_and_nothing_changes() {
    // Round 1: a block on a block.
    let mut g = DuelGame::default();
    g.apply(Action::place(c("b2"), "b")).expect("block");
    let before = g.clone();
    let e = g.apply(Action::place(c("b2"), "b")).expect_err("occupied");
    assert_eq!(
        e.to_string(),
        "Cell b2 already holds a block; an object on the grid cannot be changed. Nothing changed."
    );
    assert_unchanged(&before, &g);
    // Round 2: a red piece on the block and on a red piece.
    g.apply(Action::NextRound).expect("round 2");
    g.apply(Action::place(c("a6"), "5")).expect("red 5");
    for (cell, holds) in [("b2", "a block"), ("a6", "a red 5")] {
        let before = g.clone();
        let e = g.apply(Action::place(c(cell), "4")).expect_err("occupied");
        assert_eq!(e, DuelError::CellOccupied { cell: c(cell), holds: holds.to_string() });
        assert_unchanged(&before, &g);
    }
    // Round 3: a black piece on anything already there.
    g.apply(Action::NextRound).expect("round 3");
    g.apply(Action::place(c("a1"), "2")).expect("black 2");
    for cell in ["b2", "a6", "a1"] {
        let before = g.clone();
        assert!(matches!(g.apply(Action::place(c(cell), "3")), Err(DuelError::CellOccupied { .. })));
        assert_unchanged(&before, &g);
    }
}

#[test]
fn if_the_user_types_a_character_that_is_not_among_the_numbers_1_to_6_an_error_message_should_be_shown_and_nothing_is_placed(
) {
    for (round, side) in [(2, Side::Red), (3, Side::Black)] {
        let mut g = game_in_round(round);
        for key in ["0", "7", "b", "w", "12", "", "٣"] {
            let before = g.clone();
            let e = g.apply(Action::place(c("c3"), key)).expect_err("not 1-6");
            assert_eq!(e, DuelError::NotRankKey { side, key: key.to_string() });
            assert_eq!(e.to_string(), format!("In this round of the setup only {side} pieces can be placed: type a number from 1 to 6 (you typed \"{key}\"). Nothing was placed."));
            assert_unchanged(&before, &g);
        }
        for key in ["1", "2", "3", "4", "5", "6"] {
            let cell = Coord::new(key.as_bytes()[0] - b'1', 2);
            g.apply(Action::place(cell, key)).expect("1-6 accepted");
        }
    }
}

#[test]
fn if_the_user_tries_to_place_more_pieces_with_a_particular_number_than_is_allowed_an_error_message_should_be_shown() {
    // "e.g., the user tries to place three pieces with the number 5"; every rank, both sides.
    let limits = [3u8, 2, 2, 2, 2, 1];
    for (round, side) in [(2, Side::Red), (3, Side::Black)] {
        for rank in 1..=6u8 {
            let mut g = game_in_round(round);
            let limit = limits[usize::from(rank - 1)];
            for k in 0..limit {
                g.apply(Action::place(Coord::new(k, 1), rank.to_string())).expect("within the limit");
            }
            let before = g.clone();
            let e = g.apply(Action::place(Coord::new(5, 1), rank.to_string())).expect_err("over the limit");
            assert_eq!(e, DuelError::TooManyOfRank { side, rank, limit });
            assert_unchanged(&before, &g);
        }
    }
    let mut g = game_in_round(2);
    g.apply(Action::place(c("a2"), "5")).expect("first 5");
    g.apply(Action::place(c("b2"), "5")).expect("second 5");
    assert_eq!(
        g.apply(Action::place(c("c2"), "5")).expect_err("third 5").to_string(),
        "At most 2 red pieces may have the number 5. Nothing was placed."
    );
}

#[test]
fn if_the_user_tries_to_place_more_than_12_red_pieces_then_an_error_message_should_be_shown_and_nothing_is_placed() {
    for (round, side) in [(2, Side::Red), (3, Side::Black)] {
        let mut g = game_in_round(round);
        let army = ["1", "1", "1", "2", "2", "3", "3", "4", "4", "5", "5", "6"];
        for (i, k) in army.iter().enumerate() {
            g.apply(Action::place(Coord::new(i as u8 % 6, 1 + i as u8 / 6), *k)).expect("twelve pieces");
        }
        let before = g.clone();
        let e = g.apply(Action::place(c("a4"), "3")).expect_err("a 13th");
        assert_eq!(e, DuelError::TooManyPieces { side });
        assert_eq!(e.to_string(), format!("At most 12 {side} pieces may be placed. Nothing was placed."));
        assert_unchanged(&before, &g);
    }
}

#[test]
fn if_the_user_tries_to_proceed_to_the_next_round_without_placing_any_red_piece_an_error_message_should_be_shown_and_the_game_remains_in_the_current_round(
) {
    let mut g = game_in_round(2);
    let before = g.clone();
    let e = g.apply(Action::NextRound).expect_err("no red piece");
    assert_eq!(e, DuelError::NoRedPiece);
    assert_eq!(e.to_string(), "Place at least one red piece before proceeding to the next round.");
    assert_unchanged(&before, &g);
    assert_eq!(g.stage(), Stage::Setup { round: 2 });
}

#[test]
fn the_same_error_conditions_apply_as_for_the_second_round_only_with_red_replaced_by_black() {
    let mut g = game_in_round(3);
    let before = g.clone();
    let e = g.apply(Action::NextRound).expect_err("no black piece");
    assert_eq!(e, DuelError::NoBlackPiece);
    assert_eq!(e.to_string(), "Place at least one black piece before proceeding to the play stage.");
    assert_unchanged(&before, &g);
    assert_eq!(g.stage(), Stage::Setup { round: 3 });
}

#[test]
fn at_the_start_of_a_round_the_number_of_the_round_is_increased_by_one_the_first_round_has_the_number_1() {
    let mut g = playing(". . . / R3 . B1 / . . .");
    assert_eq!(g.status().round, 1);
    g.apply(Action::mv(c("a2"), "w")).expect("red moves");
    assert_eq!(g.status().round, 1, "the round ends after black's turn");
    let ev = g.apply(Action::mv(c("c2"), "s")).expect("black moves");
    assert!(ev.contains(&Event::RoundStarted { round: 2 }));
    let st = g.status();
    assert_eq!((st.round, st.red_left, st.black_left), (2, 1, 1));
}

#[test]
fn a_d_w_s_move_the_selected_piece_one_grid_cell_left_right_up_down() {
    for (key, to) in [("a", "a2"), ("d", "c2"), ("w", "b1"), ("s", "b3")] {
        let mut g = playing(". . . . / . R2 . . / . . . . / . . . B2");
        g.apply(Action::mv(c("b2"), key)).expect("a legal move");
        assert_eq!(g.cell(c(to)), Some(Cell::Piece(Piece { side: Side::Red, rank: Rank::new(2).expect("rank") })));
        assert_eq!(g.cell(c("b2")), Some(Cell::Empty));
    }
}

#[test]
fn if_the_user_types_any_other_character_then_an_error_message_should_be_shown_and_the_user_can_type_another_character()
{
    let mut g = playing(". . . / . R2 . / . . B2");
    for key in ["W", "x", "b", "1", "", "ww", " "] {
        let before = g.clone();
        let e = g.apply(Action::mv(c("b2"), key)).expect_err("not a move key");
        assert_eq!(e, DuelError::NotMoveKey { key: key.to_string() });
        assert_eq!(e.to_string(), format!("Type \"w\" (up), \"a\" (left), \"s\" (down) or \"d\" (right) to move the selected piece (you typed \"{key}\")."));
        assert_unchanged(&before, &g);
    }
    g.apply(Action::mv(c("b2"), "w")).expect("the user types another character");
}

#[test]
fn if_the_move_would_end_outside_the_grid_on_a_block_or_on_a_red_piece_the_piece_does_not_move_an_error_is_shown_and_the_turn_does_not_end(
) {
    let mut g = playing("R1 # . / R2 . . / . . B3");
    let cases = [
        ("a1", "w", DuelError::OffGrid { cell: c("a1"), dir: duel::Dir::Up }),
        ("a1", "a", DuelError::OffGrid { cell: c("a1"), dir: duel::Dir::Left }),
        ("a1", "d", DuelError::OntoBlock { cell: c("a1"), dir: duel::Dir::Right }),
        ("a1", "s", DuelError::OntoOwnPiece { cell: c("a1"), dir: duel::Dir::Down, side: Side::Red }),
    ];
    for (cell, key, want) in cases {
        let before = g.clone();
        assert_eq!(g.apply(Action::mv(c(cell), key)), Err(want));
        assert_unchanged(&before, &g);
    }
    assert_eq!(
        g.apply(Action::mv(c("a1"), "w")).expect_err("off").to_string(),
        "The piece on a1 cannot move up: it would leave the grid. It did not move; move it another way or pick another piece."
    );
    // The user may move a different piece: the turn did not end.
    g.apply(Action::mv(c("a2"), "d")).expect("another piece");
    assert!(matches!(g.stage(), Stage::Play { to_move: Side::Black, .. }));
}

#[test]
fn selecting_a_cell_without_a_red_piece_is_refused() {
    let mut g = playing("R1 # . / . . . / . . B3");
    for (cell, holds) in [("b1", "a block"), ("c3", "a black 3"), ("c1", "nothing")] {
        let e = g.apply(Action::mv(c(cell), "s")).expect_err("not red");
        assert_eq!(e, DuelError::NotOwnPiece { side: Side::Red, cell: c(cell), holds: holds.to_string() });
    }
    assert!(matches!(g.apply(Action::mv(c("d9"), "s")), Err(DuelError::OutsideGrid { .. })));
}

/// Plays one attack of `attacker` onto `defender` and reports which side lost a piece.
fn fight(attacker: Side, a: u8, d: u8) -> Side {
    let (ra, rb) = match attacker {
        Side::Red => (a, d),
        Side::Black => (d, a),
    };
    // Red on a2, black on b2; an extra far pair keeps both sides able to move.
    let text = format!("R{ra} B{rb} . / . . . / R1 . B1");
    let mut pos: Board = text.parse().expect("position");
    pos.set_to_move(attacker);
    let mut g = DuelGame::from_position(pos.clone());
    if attacker == Side::Black {
        // Let red pass its turn with the far piece first.
        g.apply(Action::mv(c("a3"), "w")).expect("red moves elsewhere");
        assert_eq!(
            g.apply(Action::mv(c("b1"), "s")).expect_err("must not retreat"),
            DuelError::MustAttack,
            "the attack is forced"
        );
    }
    let (cell, key) = match attacker {
        Side::Red => ("a1", "d"),
        Side::Black => ("b1", "a"),
    };
    let ev = g.apply(Action::mv(c(cell), key)).expect("attack");
    let eliminated = ev
        .iter()
        .find_map(|e| match e {
            Event::Combat { eliminated, .. } => Some(*eliminated),
            _ => None,
        })
        .expect("a combat event");
    let survivor = g.cell(c(if attacker == Side::Red { "b1" } else { "a1" }));
    let winner = eliminated.opponent();
    let rank = if winner == attacker { a } else { d };
    assert_eq!(
        survivor,
        Some(Cell::Piece(Piece { side: winner, rank: Rank::new(rank).expect("rank") })),
        "the winner stands on the attacked cell"
    );
    eliminated
}

#[test]
fn combat_the_attacker_wins_if_its_number_is_greater_or_it_is_a_1_and_the_other_a_6_else_the_attacker_is_eliminated() {
    for attacker in [Side::Red, Side::Black] {
        for a in 1..=6u8 {
            for d in 1..=6u8 {
                let attacker_wins = a > d || (a == 1 && d == 6);
                let lost = fight(attacker, a, d);
                let want = if attacker_wins { attacker.opponent() } else { attacker };
                assert_eq!(lost, want, "{attacker} {a} attacking {d}");
                assert_eq!(Rank::new(a).expect("a").attacker_wins(Rank::new(d).expect("d")), attacker_wins);
            }
        }
    }
}

#[test]
fn a_6_attacking_a_1_wins_and_equal_numbers_eliminate_the_attacker() {
    assert_eq!(fight(Side::Red, 6, 1), Side::Black);
    assert_eq!(fight(Side::Black, 6, 1), Side::Red);
    for r in 1..=6 {
        assert_eq!(fight(Side::Red, r, r), Side::Red);
        assert_eq!(fight(Side::Black, r, r), Side::Black);
    }
}

#[test]
fn if_a_black_piece_could_move_to_a_red_piece_then_one_black_piece_must_move_to_a_red_piece_and_the_computer_can_choose_which(
) {
    // Black 2 next to red 1 (wins) and black 3 next to red 5 (loses): both attacks are legal,
    // every quiet move is refused.
    let mut pos: Board = "R1 B2 . . / . . . . / R5 B3 . . / . . . .".parse().expect("position");
    pos.set_to_move(Side::Black);
    let moves = pos.legal_moves_vec();
    assert_eq!(moves.len(), 2);
    assert!(moves.iter().all(|m| pos.is_capture(*m)));
    let mut g = DuelGame::from_position(pos);
    g.apply(Action::mv(c("a3"), "s")).expect("red moves a piece away");
    // Now only b1 can attack a1.
    assert_eq!(g.apply(Action::mv(c("b3"), "s")), Err(DuelError::MustAttack));
    assert_eq!(g.apply(Action::mv(c("b1"), "d")), Err(DuelError::MustAttack));
    g.apply(Action::mv(c("b1"), "a")).expect("the remaining attack");
}

#[test]
fn every_bot_obeys_the_forced_attack_even_when_the_attack_loses() {
    let mut pos: Board = "R6 B2 . . / . . . . / . . . B5 / . . R1 .".parse().expect("position");
    pos.set_to_move(Side::Black);
    for kind in ["random", "greedy", "search:easy", "search"] {
        let kind: duel::BotKind = kind.parse().expect("bot");
        let mut bot = kind.build(3);
        let m = bot.choose(&pos).expect("a move");
        assert_eq!(
            (pos.coord(usize::from(m.from)), pos.coord(usize::from(m.to))),
            (c("b1"), c("a1")),
            "{kind} must make the only (losing) attack"
        );
    }
}

#[test]
fn black_pieces_can_not_leave_the_grid_or_move_onto_blocks_or_other_black_pieces() {
    // A black piece in the left-most column cannot wrap around to the right-most one.
    let mut pos: Board = "B1 B2 # / # . . / . . R6".parse().expect("position");
    pos.set_to_move(Side::Black);
    let moves = pos.legal_moves_vec();
    let texts: Vec<String> = moves.iter().map(|m| pos.move_text(*m)).collect();
    assert_eq!(texts, vec!["b1 s".to_string()]);
}

#[test]
fn there_are_no_red_pieces_left_that_could_move_ends_the_play_stage_including_no_red_pieces_at_all() {
    // Red's only piece is walled in by blocks and the edge.
    let g = playing("R3 # . / # . . / . . B1");
    assert_eq!(g.stage(), Stage::End { round: 1, outcome: Outcome::Draw, reason: EndReason::RedCannotMove });
    // Red's last piece is eliminated by black's attack.
    let mut g = playing(". . . . / R2 . . . / . B3 . .");
    g.apply(Action::mv(c("a2"), "d")).expect("red steps next to black");
    let ev = g.apply(Action::mv(c("b3"), "w")).expect("black attacks");
    assert!(ev.contains(&Event::PlayEnded { reason: EndReason::RedCannotMove, outcome: Outcome::BlackWins }));
    assert_eq!(g.status().outcome, Some(Outcome::BlackWins));
    assert_eq!(g.status().red_left, 0);
}

#[test]
fn there_are_no_black_pieces_left_that_could_move_ends_the_play_stage_including_no_black_pieces_at_all() {
    // Black is walled in: the end is found at the start of red's first turn.
    let g = playing(". . B3 / R1 . # / . . .");
    assert!(matches!(g.stage(), Stage::Play { .. }), "b3 can move left");
    let g = playing(". # B3 / R1 . # / . . .");
    assert_eq!(g.stage(), Stage::End { round: 1, outcome: Outcome::Draw, reason: EndReason::BlackCannotMove });
    // Black's last piece falls to red's attack: checked at the start of black's turn.
    let mut g = playing(". . . / R4 B2 . / . . .");
    let ev = g.apply(Action::mv(c("a2"), "d")).expect("red attacks");
    assert!(ev.contains(&Event::PlayEnded { reason: EndReason::BlackCannotMove, outcome: Outcome::RedWins }));
    // A move that walls in the other side ends the game at the start of the next turn.
    let mut g = playing("B5 . # / R1 . . / . . .");
    g.apply(Action::mv(c("a2"), "d")).expect("red moves away");
    assert!(matches!(g.stage(), Stage::Play { to_move: Side::Black, .. }));
}

#[test]
fn the_user_can_end_the_play_stage_at_any_time_and_the_outcome_is_a_draw_when_both_sides_have_pieces() {
    let mut g = playing(". . . / R4 . B2 / . . .");
    let ev = g.apply(Action::End).expect("end");
    assert_eq!(ev, vec![Event::PlayEnded { reason: EndReason::UserEnded, outcome: Outcome::Draw }]);
    assert_eq!(Outcome::Draw.message(), "Draw: both sides still have pieces on the grid.");
}

#[test]
fn during_the_end_stage_the_program_should_not_react_to_any_user_input_or_actions() {
    let mut g = playing(". . . / R4 . B2 / . . .");
    g.apply(Action::End).expect("end");
    let before = g.clone();
    for a in [Action::End, Action::NextRound, Action::mv(c("a2"), "d"), Action::place(c("a1"), "b")] {
        let e = g.apply(a).expect_err("no reaction");
        assert_eq!(e, DuelError::GameOver);
        assert_eq!(e.to_string(), "The game is over; it no longer reacts to input.");
    }
    let mut bot = duel::BotKind::Random.build(1);
    assert_eq!(g.computer_move(bot.as_mut()), Err(DuelError::GameOver));
    assert_unchanged(&before, &g);
}

#[test]
fn actions_of_the_wrong_stage_are_refused_with_a_message() {
    let mut g = DuelGame::default();
    assert_eq!(g.apply(Action::mv(c("a1"), "w")), Err(DuelError::NotPlaying));
    assert_eq!(g.apply(Action::End), Err(DuelError::NotPlaying));
    let mut g = playing(". . . / R4 . B2 / . . .");
    assert_eq!(g.apply(Action::place(c("a1"), "b")), Err(DuelError::SetupOver));
    assert_eq!(g.apply(Action::NextRound), Err(DuelError::SetupOver));
    let mut bot = duel::BotKind::Random.build(1);
    assert_eq!(g.computer_move(bot.as_mut()), Err(DuelError::NotTurnOf { side: Side::Black }));
}

#[test]
fn the_size_of_the_grid_can_be_changed_independently_for_each_dimension() {
    let mut g = DuelGame::new(7, 3).expect("7x3");
    assert_eq!((g.width(), g.height()), (7, 3));
    g.apply(Action::place(c("g3"), "b")).expect("bottom right");
    assert_eq!(
        g.apply(Action::place(c("a4"), "b")),
        Err(DuelError::OutsideGrid { cell: c("a4"), width: 7, height: 3 })
    );
    assert_eq!(
        g.apply(Action::place(c("h1"), "b")).expect_err("column h").to_string(),
        "Cell h1 is not on the 7x3 grid."
    );
    g.apply(Action::NextRound).expect("round 2");
    g.apply(Action::place(c("a3"), "2")).expect("red");
    g.apply(Action::NextRound).expect("round 3");
    g.apply(Action::place(c("f1"), "2")).expect("black");
    g.apply(Action::NextRound).expect("play");
    g.apply(Action::mv(c("a3"), "d")).expect("right on a wide grid");
    // A 1-row grid: moving up or down leaves it.
    let mut g = playing("R1 . . . B1");
    assert!(matches!(g.apply(Action::mv(c("a1"), "s")), Err(DuelError::OffGrid { .. })));
    g.apply(Action::mv(c("a1"), "d")).expect("along the row");
    assert!(DuelGame::new(0, 5).is_err());
    assert!(DuelGame::new(27, 5).is_err());
    assert!(DuelGame::new(26, 1).is_ok());
}

#[test]
fn a_game_round_trips_through_json_in_every_stage() {
    let mut g = DuelGame::new(5, 4).expect("5x4");
    let check = |g: &DuelGame| {
        let json = serde_json::to_string(g).expect("serialize");
        let back: DuelGame = serde_json::from_str(&json).expect("deserialize");
        assert_eq!(&back, g);
    };
    check(&g);
    g.apply(Action::place(c("c2"), "b")).expect("block");
    g.apply(Action::NextRound).expect("2");
    g.apply(Action::place(c("a4"), "6")).expect("red");
    check(&g);
    g.apply(Action::NextRound).expect("3");
    g.apply(Action::place(c("e1"), "1")).expect("black");
    g.apply(Action::NextRound).expect("play");
    check(&g);
    g.apply(Action::End).expect("end");
    check(&g);
    let a: Action = serde_json::from_str(r#"{"action":"move","cell":"a4","key":"w"}"#).expect("an action from JSON");
    assert_eq!(a, Action::mv(c("a4"), "w"));
    let e = serde_json::to_value(DuelError::NoRedPiece).expect("error json");
    assert_eq!(e["error"], "no_red_piece");
}

#[test]
fn position_text_form_round_trips_and_rejects_nonsense() {
    for text in ["R1 . # / . B6 . | red", "B1 B2 # / # . . / . . R6 | black", "R1 . . . B1 | red"] {
        let p: Board = text.parse().expect("parse");
        assert_eq!(p.to_string(), text);
    }
    for bad in ["R1 . / .", "R7 .", "X1", "R1 R1 R1 R1 | red", "R1 . | green", ""] {
        assert!(bad.parse::<Board>().is_err(), "{bad:?} must be refused");
    }
}
