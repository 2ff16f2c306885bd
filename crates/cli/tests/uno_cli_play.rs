//! `tabletop uno play` end to end through the real binary, with scripted stdin.

use std::process::Output;

mod common;

fn play(args: &[&str], input: &str) -> Output {
    common::run_with_input(&[&["uno", "play"], args].concat(), input.as_bytes())
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
    assert!(t.contains("Commands (shortcut in brackets):"), "{t}");
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
    for args in [&["--preset", "two-color", "--players", "6"][..], &["--bots", "nope"][..]] {
        let out = play(args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
    // A file the system cannot read is its trouble, not bad input: 1, as for a full disk.
    let out = play(&["--rules", "/nonexistent.toml"], "");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn under_csce322_the_human_is_held_to_the_card_precedence_picks() {
    // Seed 2, two players: the hand is blue Skip, red 2, blue 7, red Reverse, … on a red 3.
    // Precedence (colour match, left-most) plays red 2; blue Skip and red Reverse are refused.
    let out = play(&["--preset", "csce322", "--players", "2", "--seed", "2"], "1\n4\n2\n");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // Messages are wrapped at 80 columns between words: compare the words.
    let t = text(&out).split_whitespace().collect::<Vec<_>>().join(" ");
    let refusal = "Not allowed: under seed 000's rules precedence decides every move; here you must play red 2.";
    assert_eq!(t.matches(refusal).count(), 2, "{t}");
    assert!(!t.contains("Player 1 (you) plays blue Skip"), "{t}");
    assert!(!t.contains("Player 1 (you) plays red Reverse"), "{t}");
    assert!(t.contains("Player 1 (you) plays red 2."), "{t}");
}

#[test]
fn the_precedence_holds_under_any_name_and_the_name_alone_holds_no_one() {
    // What holds the human is the rules' `forced_play = "precedence"`, not the preset's name:
    // the csce322 rules renamed still hold them; official rules named "csce322" do not.
    let dir = tempfile::tempdir().expect("test setup");
    let csce322 = std::fs::read_to_string("../uno/presets/csce322.toml").expect("test setup");
    let renamed = dir.path().join("renamed.toml");
    std::fs::write(&renamed, csce322.replace("name = \"csce322\"", "name = \"my-course\"")).expect("test setup");
    let out = play(&["--rules", renamed.to_str().expect("utf-8"), "--players", "2", "--seed", "2"], "1\n4\n2\n");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let t = text(&out).split_whitespace().collect::<Vec<_>>().join(" ");
    assert_eq!(t.matches("precedence decides every move; here you must play red 2.").count(), 2, "{t}");

    let official = std::fs::read_to_string("../uno/presets/official.toml").expect("test setup");
    let named = dir.path().join("named.toml");
    let text_named = official.replacen("name = \"official\"", "name = \"csce322\"", 1);
    assert_ne!(text_named, official, "the official preset names itself");
    std::fs::write(&named, text_named).expect("test setup");
    let out = play(
        &["--rules", named.to_str().expect("utf-8"), "--players", "2", "--seed", "2"],
        "1\n2\n3\n4\n5\n6\n7\nd\np\n",
    );
    let t = text(&out).split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(!t.contains("precedence decides every move"), "{t}");
}

#[test]
fn the_table_shows_direction_next_player_and_keeps_lines_within_80_columns() {
    // Drawing and passing grows the hand well past one line.
    let script = "d\np\n".repeat(40);
    let out = play(&["--players", "2", "--seed", "5", "--bots", "random"], &script);
    let t = text(&out);
    assert!(t.contains("Play goes clockwise; after you: Player 2."), "{t}");
    let table = t.lines().filter(|l| l.starts_with("Your hand: ") || l.starts_with("           "));
    let long: Vec<&str> = table.filter(|l| l.chars().count() > 80).collect();
    assert!(long.is_empty(), "lines over 80 columns: {long:?}");
    // A card is never split: every hand line ends with a whole card.
    assert!(t.lines().filter(|l| l.starts_with("           ")).count() > 0, "the hand wraps: {t}");
}

#[test]
fn help_lists_shortcuts_and_only_the_commands_the_rules_use() {
    let official = text(&play(&["--seed", "1"], "h\n"));
    assert!(official.contains("draw  (d)  draw a card"), "{official}");
    assert!(official.contains("uno   (u)  call UNO (before you play your second-to-last card)"), "{official}");
    assert!(!official.contains("swap"), "the 7-0 rule is off: {official}");
    let dir = tempfile::tempdir().expect("tempdir");
    let rules = dir.path().join("seven.toml");
    std::fs::write(&rules, "[play]\nseven_zero = \"on\"\n").expect("written");
    let seven = text(&play(&["--rules", rules.to_str().expect("utf-8"), "--seed", "1"], "?\n"));
    assert!(seven.contains("swap N     swap hands with player N"), "{seven}");
}

#[test]
fn uno_is_prompted_with_two_cards_and_shown_once_called() {
    let dir = tempfile::tempdir().expect("tempdir");
    let rules = dir.path().join("two.toml");
    std::fs::write(&rules, "[deal]\nhand_size = 2\nfirst_player = \"seat0\"\n").expect("written");
    let t = text(&play(&["--rules", rules.to_str().expect("utf-8"), "--players", "2", "--seed", "1"], "u\n"));
    assert!(t.contains("Two cards left: call UNO now ('uno' or 'u'), before you play one of them."), "{t}");
    assert!(t.contains("Player 1 (you) calls UNO!"), "{t}");
    assert!(t.contains("You have called UNO."), "{t}");
}

#[test]
fn quitting_asks_first_and_prints_the_score_and_a_round_end_shows_every_hand() {
    let t = text(&play(&["--seed", "3"], "q\nn\nq\ny\n"));
    assert!(t.contains("The game goes on."), "{t}");
    assert!(t.contains("You leave the game. Scores: Player 1 (you) 0, Player 2 0, Player 3 0, Player 4 0."), "{t}");

    // Seed 5, two players, always drawing: Player 2 wins round 1 of a game to 500 points.
    let script = "d\np\n1\n".repeat(300);
    let t = text(&play(&["--players", "2", "--seed", "5", "--bots", "random"], &script));
    let summary = t.find("The round is over. The hands:").expect("a round summary");
    let rest = &t[summary..];
    assert!(rest.contains("  Player 2: no cards\nScores: Player 1 (you) 0, Player 2 222.\n"), "{rest}");
    assert!(rest.contains("Press Enter for the next round (q to leave)."), "{rest}");
}

#[test]
fn a_same_number_run_is_offered_and_ended_with_pass() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("runs.toml");
    std::fs::write(&file, "name = \"runs\"\n[play]\nmulti_play = \"same_number\"\n").expect("written");
    let rules = std::sync::Arc::new(
        uno::Rules::new(uno::RulesConfig::from_toml(&std::fs::read_to_string(&file).expect("read")).expect("parses"))
            .expect("valid"),
    );
    // A deal where you play first and hold a playable number card and another of its number.
    let (seed, index) = (0..5000u64)
        .find_map(|seed| {
            let game = uno::Game::new(rules.clone(), 4, seed).expect("deal");
            let you = uno::Seat(0);
            if game.current() != you || game.phase() != uno::Phase::Play {
                return None;
            }
            let hand = game.hand(you);
            let playable = game.playable(you);
            hand.iter()
                .position(|&c| {
                    matches!(c.face(), uno::Face::Digit(_))
                        && playable.contains(c)
                        && hand.iter().filter(|d| d.face() == c.face()).count() >= 2
                })
                .map(|i| (seed, i + 1))
        })
        .expect("some seed deals a run");
    let path = file.to_str().expect("a UTF-8 path");
    let out = play(&["--rules", path, "--seed", &seed.to_string(), "--players", "4"], &format!("{index}\npass\n"));
    let t = text(&out);
    assert!(t.contains("of any colour (starred), or 'pass' to end your turn."), "{t}");
    assert!(t.contains("plays no more cards of that number."), "{t}");
    assert!(text(&play(&["--rules", path, "--seed", "1"], "help\n"))
        .contains("or play no more cards of the number you played"));
}
