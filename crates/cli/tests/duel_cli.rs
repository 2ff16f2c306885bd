//! `tabletop duel play` and `tabletop duel sim` through the real binary.

use std::process::Output;

mod common;

fn tabletop(args: &[&str], stdin: &str) -> Output {
    common::run_with_input(args, stdin.as_bytes())
}

fn text(out: &[u8]) -> String {
    String::from_utf8_lossy(out).into_owned()
}

#[test]
fn play_shows_every_setup_error_of_the_seed_repeats_the_prompt_and_ends_with_the_outcome() {
    let script = [
        "c3 x", // not b
        "c3 B", // B is not b
        "c3 b", // a block
        "c3 b", // occupied
        "next", // round 2
        "next", // no red piece yet
        "a6 7", // not 1-6
        "a6 5", // red 5
        "b6 5", // red 5
        "c6 5", // a third 5
        "c3 4", // on the block
        "next", // round 3
        "next", // no black piece yet
        "a1 5", // black 5
        "next", // play
        "a6 q", // not a move key
        "a6 a", // off the grid
        "a6 d", // onto the own piece
        "c3 w", // not a red piece
        "end", "a6 w", // ignored: the program has stopped
    ]
    .join("\n");
    let out = tabletop(&["duel", "play", "--difficulty", "easy"], &script);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "stderr: {}", text(&out.stderr));
    // Messages are wrapped at 80 columns between words: compare the words.
    let words = stdout.split_whitespace().collect::<Vec<_>>().join(" ");
    for msg in [
        "Error: In round 1 of the setup only blocks can be placed: type the letter \"b\" (you typed \"x\"). Nothing was placed.",
        "(you typed \"B\")",
        "Error: Cell c3 already holds a block; an object on the grid cannot be changed. Nothing changed.",
        "Error: Place at least one red piece before proceeding to the next round.",
        "Error: In this round of the setup only red pieces can be placed: type a number from 1 to 6 (you typed \"7\").",
        "Error: At most 2 red pieces may have the number 5. Nothing was placed.",
        "Error: Place at least one black piece before proceeding to the play stage.",
        "Error: Type \"w\" (up), \"a\" (left), \"s\" (down) or \"d\" (right) to move the selected piece (you typed \"q\").",
        "Error: The piece on a6 cannot move left: it would leave the grid.",
        "Error: The piece on a6 cannot move right: that cell holds another red piece.",
        "Error: Select one of the red pieces: cell c3 holds a block.",
        "The play stage was ended by the user. Draw: both sides still have pieces on the grid.",
        "Game over. Draw",
        "Round 1   red pieces left: 2   black pieces left: 1",
    ] {
        assert!(stdout.contains(msg) || words.contains(msg), "missing {msg:?} in:\n{stdout}");
        // (The prompt `> ` is followed by the typed line on a terminal; here input is not echoed.)
        let long = stdout.lines().find(|l| l.trim_start_matches("> ").chars().count() > 80);
        assert!(long.is_none(), "a line over 80 columns: {long:?}");
    }
    // Ranks and sides are readable without colour.
    assert!(stdout.contains("(5)") && stdout.contains("[5]") && stdout.contains("###"));
    // The prompt is repeated after each error: once per input line up to `end`.
    let prompts = stdout.matches("\n> ").count() + usize::from(stdout.starts_with("> "));
    assert_eq!(prompts, 20, "{stdout}");
}

#[test]
fn play_lets_the_computer_answer_and_a_wrong_key_keeps_the_piece_selected() {
    let script = [
        "next", "a6 3", "next", "f1 2", "next", // set up
        "a6",   // select
        "x",    // a wrong key: still selected
        "w",    // moves up
        "end",
    ]
    .join("\n");
    let out = tabletop(&["duel", "play"], &script);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "stderr: {}", text(&out.stderr));
    assert!(stdout.contains("Piece a6 selected: type w (up)"), "{stdout}");
    assert!(stdout.contains("(you typed \"x\")"), "{stdout}");
    assert!(stdout.contains("You: red moves a6 up (w) to a5."), "{stdout}");
    assert!(stdout.contains("Computer: black moves f1"), "{stdout}");
    assert!(stdout.contains("Round 2"), "{stdout}");
}

#[test]
fn play_on_a_non_square_grid_and_input_ending_early() {
    let out = tabletop(&["duel", "play", "--width", "8", "--height", "3"], "h3 b\nh4 b\n");
    let stdout = text(&out.stdout);
    assert!(out.status.success());
    assert!(stdout.contains("Duel on a 8x3 grid"));
    assert!(stdout.contains("Error: Cell h4 is not on the 8x3 grid."), "{stdout}");
    assert!(stdout.contains("Input ended"), "{stdout}");
}

fn last_line(s: &str) -> String {
    s.lines().last().unwrap_or_default().to_string()
}

#[test]
fn sim_prints_a_table_and_the_score_line_independent_of_threads() {
    let args = ["duel", "sim", "--red", "random", "--black", "greedy", "--games", "40", "--seed", "5"];
    let one = tabletop(&[&args[..], &["--threads", "1"]].concat(), "");
    let two = tabletop(&[&args[..], &["--threads", "2"]].concat(), "");
    assert!(one.status.success(), "{}", text(&one.stderr));
    let (o1, o2) = (text(&one.stdout), text(&two.stdout));
    let line = last_line(&o1);
    assert_eq!(line, last_line(&o2), "results must not depend on threads");
    let rest = line.strip_prefix("games=40 red_score=").expect("score line");
    let (red, black) = rest.split_once(" black_score=").expect("black score");
    let (red, black): (f64, f64) = (red.parse().expect("red"), black.parse().expect("black"));
    assert!((red + black - 1.0).abs() < 1e-3, "{line}");
    assert!(o1.contains("95% CI") && o1.contains("greedy"), "{o1}");
}

#[test]
fn sim_runs_search_on_a_non_square_grid_with_random_setups() {
    let out = tabletop(
        &[
            "duel",
            "sim",
            "--red",
            "greedy",
            "--black",
            "search:easy",
            "--games",
            "6",
            "--width",
            "7",
            "--height",
            "4",
            "--setup",
            "random",
            "--max-rounds",
            "30",
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(last_line(&text(&out.stdout)).starts_with("games=6 red_score="));
}

#[test]
fn sim_refuses_bad_arguments_with_a_message() {
    let out = tabletop(&["duel", "sim", "--width", "0"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("a grid side is 1 to 26 cells (got '0')"));
    let out = tabletop(&["duel", "sim", "--black", "clever"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("unknown bot"));
}

#[test]
fn play_has_help_joined_keys_reselection_a_confirmed_quit_and_shows_the_fight_rule() {
    // A 1x2 grid: red 1 below black 6; `a2w` attacks at once, and a 1 beats a 6.
    let script = ["help", "next", "a2 1", "next", "a1 6", "next", "a2w"].join("\n");
    let out = tabletop(&["duel", "play", "--width", "1", "--height", "2"], &script);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "stderr: {}", text(&out.stderr));
    assert!(stdout.contains("Commands:\n  CELL KEY"), "{stdout}");
    assert!(stdout.contains("  q, quit     leave the game (asks first)."), "{stdout}");
    assert!(stdout.contains("Combat on a1: red 1 attacks black 6; the black 6 is eliminated."), "{stdout}");
    assert!(stdout.contains("a 1 attacking a 6"), "{stdout}");

    // Another own cell changes the selection; `q` asks, `n` goes on, `y` leaves.
    let script = ["next", "a6 3", "b6 2", "next", "f1 2", "next", "a6", "b6", "w", "q", "n", "q", "y", "end"];
    let out = tabletop(&["duel", "play"], &script.join("\n"));
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "stderr: {}", text(&out.stderr));
    assert!(stdout.contains("Piece b6 selected"), "{stdout}");
    assert!(stdout.contains("You: red moves b6 up (w) to b5."), "{stdout}");
    assert_eq!(stdout.matches("Leave the game? The game is not saved. Type y to leave: ").count(), 2, "{stdout}");
    assert!(stdout.contains("The game goes on."), "{stdout}");
    assert!(stdout.contains("Goodbye. Round 2"), "{stdout}");
    assert!(!stdout.contains("The play stage was ended by the user"), "left before `end`: {stdout}");
}
