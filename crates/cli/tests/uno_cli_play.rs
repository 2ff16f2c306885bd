//! `tabletop uno play` end to end through the real binary, with scripted stdin.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn play(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabletop"))
        .args(["uno", "play"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().expect("stdin");
    // Ignore a broken pipe: the game may end before the script does.
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    child.wait_with_output().expect("exits")
}

fn text(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn end_of_input_ends_the_game_cleanly() {
    let out = play(&["--seed", "3"], "");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let t = text(&out);
    assert!(t.contains("you are Player 1"), "{t}");
    assert!(t.contains("Your hand: 1) "), "{t}");
    assert!(t.contains("Top card: "), "{t}");
    assert!(t.contains("Player 2 has "), "others' hand sizes: {t}");
    assert!(t.trim_end().ends_with("End of input: leaving the game."), "{t}");
}

#[test]
fn bad_input_is_explained_and_asked_again() {
    let out = play(&["--seed", "3"], "xyzzy\n99\n\nswap 42\nhelp\n");
    assert!(out.status.success());
    let t = text(&out);
    assert!(t.contains("'xyzzy' is not a command"), "{t}");
    assert!(t.contains("pick a number from 1 to"), "{t}");
    assert!(t.contains("type a command"), "{t}");
    assert!(t.contains("give a player number"), "{t}");
    assert!(t.contains("Commands: "), "{t}");
    assert_eq!(t.matches("> ").count(), 6, "one prompt per line read, and one more before the end: {t}");
}

#[test]
fn a_refused_move_says_why() {
    // Drawing twice in one turn is never allowed.
    let out = play(&["--seed", "4"], "draw\ndraw\n");
    let t = text(&out);
    assert!(t.contains("You drew") || t.contains("Player 1 (you) draws"), "{t}");
    assert!(t.contains("Not allowed: you have already drawn this turn"), "{t}");
}

#[test]
fn a_whole_game_can_be_played_from_the_keyboard() {
    // Try every card, else draw and keep it, name a colour, take a Wild Draw Four: whatever the
    // position, one of these lines is accepted, so the script finishes any game.
    let cycle: String = (1..=25).map(|i| format!("{i}\n")).collect::<String>() + "draw\npass\nred\naccept\n";
    let script = cycle.repeat(800);
    for (preset, players) in [("two-color", "2"), ("official", "3")] {
        let out = play(&["--preset", preset, "--players", players, "--seed", "11"], &script);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let t = text(&out);
        assert!(t.contains("Final scores: "), "{preset}: {}", &t[t.len().saturating_sub(2000)..]);
        assert!(t.contains("Player 1 (you) plays "), "{preset}");
    }
}

#[test]
fn bad_options_are_refused_with_exit_code_2() {
    for args in [
        &["--preset", "two-color", "--players", "6"][..],
        &["--bots", "nope"][..],
        &["--rules", "/nonexistent.toml"][..],
    ] {
        let out = play(args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn under_csce322_the_human_is_held_to_the_card_precedence_picks() {
    // Seed 2, two players: the hand is blue Skip, red 2, blue 7, red Reverse, … on a red 3.
    // Precedence (colour match, left-most) plays red 2; blue Skip and red Reverse are refused.
    let out = play(&["--preset", "csce322", "--players", "2", "--seed", "2"], "1\n4\n2\n");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let t = text(&out);
    let refusal = "Not allowed: under seed 000's rules precedence decides every move; here you must play red 2.";
    assert_eq!(t.matches(refusal).count(), 2, "{t}");
    assert!(!t.contains("Player 1 (you) plays blue Skip"), "{t}");
    assert!(!t.contains("Player 1 (you) plays red Reverse"), "{t}");
    assert!(t.contains("Player 1 (you) plays red 2."), "{t}");
}
