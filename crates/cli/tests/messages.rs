//! Refusals through the real binary name the real problem, each in one line of plain words.

mod common;

/// Runs the binary with `args` (and, if given, a rules file holding `rules`), expecting exit 2.
fn refusal(args: &[&str], rules: Option<&str>) -> String {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut cmd = common::tabletop();
    cmd.args(args);
    if let Some(text) = rules {
        let path = dir.path().join("rules.toml");
        std::fs::write(&path, text).expect("written");
        cmd.arg("--rules").arg(path);
    }
    let out = cmd.output().expect("the binary runs");
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_player_count_outside_the_rules_names_the_range_and_the_count() {
    let err = refusal(&["uno", "sim", "--preset", "two-color", "--players", "6"], None);
    assert_eq!(err, "error: --players: these rules seat 2 to 4 players, not 6\n");
}

#[test]
fn a_hand_size_too_large_for_the_deck_is_named_as_such() {
    let err = refusal(&["uno", "sim", "--players", "4"], Some("[deal]\nhand_size = 30\n"));
    assert!(err.contains("deal.hand_size 30 is too large for 4 players"), "{err}");
    assert!(err.contains("needs 121 cards, the deck has 108"), "{err}");
    assert!(!err.contains("seat"), "not a player-count problem: {err}");
}

#[test]
fn a_one_cell_duel_grid_is_refused_for_what_it_lacks() {
    let err = refusal(&["duel", "sim", "--width", "1", "--height", "1"], None);
    assert!(err.contains("a game needs at least 2 cells, one for each side (asked for 1x1)"), "{err}");
    let err = refusal(&["duel", "sim", "--width", "27"], None);
    assert!(err.contains("a grid side is 1 to 26 cells (got '27')"), "{err}");
}

#[test]
fn a_bad_ismcts_count_is_not_an_unknown_bot() {
    let err = refusal(&["uno", "sim", "--bots", "ismcts:0"], None);
    assert!(err.contains("ismcts iterations must be a whole number from 1 to 50000 (got '0')"), "{err}");
    assert!(!err.contains("unknown bot"), "{err}");
}

#[test]
fn a_wrong_digit_scoring_is_explained_without_internal_names() {
    for (value, shown) in [("\"double\"", "(got \"double\")"), ("-3", "(got -3)")] {
        let err = refusal(&["uno", "sim"], Some(&format!("[scoring]\ndigits = {value}\n")));
        assert!(
            err.contains(&format!("scoring.digits must be \"face_value\" or a whole number of points {shown}")),
            "{err}"
        );
        assert!(!err.contains("DigitPoints"), "{err}");
    }
}
