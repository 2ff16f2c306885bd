//! The smaller behaviours of the terminal tools, through the real binary: exit codes for the
//! system's failures, options named in refusals, help that names every subcommand.

use std::process::{Command, Output, Stdio};

mod common;

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_port_in_use_and_an_unreadable_file_exit_with_1() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    let addr = taken.local_addr().expect("addr").to_string();
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("t.db");
    let out = common::run(&["serve", "--addr", &addr, "--db", db.to_str().expect("utf-8")]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.starts_with(&format!("error: --addr {addr}")), "{err}");
    for args in [
        &["uno", "sim", "--rules", "/no/such/rules.toml", "--games", "1"][..],
        &["uno", "replay", "/no/such/record.json"][..],
    ] {
        let out = common::run(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn zero_deals_names_the_option() {
    let out = common::run(&["uno", "match", "--bots", "heuristic,random", "--deals", "0"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("--deals"), "{err}");
    assert!(err.contains("the number of deals must be at least 1"), "{err}");
}

#[test]
fn the_sequential_test_echoes_the_points_it_was_given() {
    let out =
        common::run(&["uno", "match", "--bots", "heuristic,random", "--until-decided", "--diff0", "2", "--diff1", "1"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("--diff1 must be above --diff0 (got --diff0 2 and --diff1 1)"), "{err}");
    let out = common::run(&["uno", "match", "--bots", "heuristic,random", "--until-decided", "--diff1", "inf"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("'inf' is not a number of points"), "{err}");
    let out = common::run(&["uno", "match", "--bots", "heuristic,random", "--until-decided", "--diff1", "200"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("--diff1: points of win share, -100 to 100 (got 200)"), "{err}");
}

#[test]
fn the_uno_summary_names_every_subcommand() {
    let out = common::run(&["--help"]);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let line = text.lines().find(|l| l.trim_start().starts_with("uno ")).expect("the uno line");
    for sub in ["play", "sim", "match", "scenario", "rules", "watch", "replay", "analyse"] {
        assert!(line.contains(sub), "{sub}: {line}");
    }
}

#[test]
fn the_default_player_count_is_the_nearest_the_deck_deals() {
    // 30 cards a hand from 108: three hands at most, so the default (4) becomes 3.
    let dir = tempfile::tempdir().expect("tempdir");
    let rules = dir.path().join("big-hands.toml");
    std::fs::write(&rules, "[deal]\nhand_size = 30\n").expect("write");
    let out = common::run(&["uno", "sim", "--rules", rules.to_str().expect("utf-8"), "--games", "3"]);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(text.contains("players=3"), "{text}");
}

#[test]
fn duel_refuses_a_one_cell_grid_in_every_command_and_selects_only_own_pieces() {
    for cmd in ["play", "sim", "bench"] {
        let out = common::run(&["duel", cmd, "--width", "1", "--height", "1"]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{cmd}: {err}");
        assert!(err.contains("a game needs at least 2 cells, one for each side (asked for 1x1)"), "{cmd}: {err}");
    }
    // A 2x2 grid: a block at a1, red 3 at b2, black 5 at a2; then in play select each cell.
    let mut child = common::tabletop()
        .args(["duel", "play", "--width", "2", "--height", "2", "--difficulty", "easy"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    let keys = "a1 b\nnext\nb2 3\nnext\na2 5\nnext\na1\na2\nb1\nb2\n";
    std::io::Write::write_all(&mut child.stdin.take().expect("stdin"), keys.as_bytes()).expect("write");
    let out = child.wait_with_output().expect("ends");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(text.contains("Error: Select one of the red pieces: cell a1 holds a block."), "{text}");
    assert!(text.contains("Error: Select one of the red pieces: cell a2 holds a black 5."), "{text}");
    assert!(text.contains("Error: Select one of the red pieces: cell b1 holds nothing."), "{text}");
    assert!(text.contains("Piece b2 selected"), "{text}");
    assert!(!text.contains("Piece a1 selected") && !text.contains("Piece a2 selected"), "{text}");
}

#[test]
fn a_played_game_can_be_recorded_and_analysed() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("mine.json");
    let mut child = common::tabletop()
        .args(["uno", "play", "--players", "2", "--seed", "7", "--record", path.to_str().expect("utf-8")])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    // Draw, keep what was drawn if asked, draw again; then leave.
    std::io::Write::write_all(&mut child.stdin.take().expect("stdin"), b"d\np\nd\np\nq\ny\n").expect("write");
    let out = child.wait_with_output().expect("ends");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("the record is written")).expect("json");
    let actions = record["actions"].as_array().expect("actions");
    assert!(actions.iter().any(|a| a["seat"] == 0), "the human's actions are recorded: {record}");
    let p = path.to_str().expect("utf-8");
    let replay = common::run(&["uno", "replay", p, "--print"]);
    assert_eq!(replay.status.code(), Some(0), "{}", stderr(&replay));
    let analysis = common::run(&["uno", "analyse", p, "--seat", "1", "--samples", "4"]);
    assert_eq!(analysis.status.code(), Some(0), "{}", stderr(&analysis));
    assert!(String::from_utf8_lossy(&analysis.stdout).starts_with("Seat 1: "));
    // Standard output shows the game, so the record cannot go there too.
    for target in ["-", "/dev/stdout"] {
        let out = common::tabletop()
            .args(["uno", "play", "--record", target])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(2), "{target}");
        assert!(stderr(&out).contains("--record: standard output shows the game"), "{}", stderr(&out));
    }
}

#[test]
fn completions_offer_presets_operations_and_bots() {
    let out = common::run(&["completions", "bash"]);
    let script = String::from_utf8_lossy(&out.stdout).into_owned();
    for name in ["two-color", "csce322", "one-player-many-moves", "many-players-one-move", "heuristic", "ismcts"] {
        assert!(script.contains(name), "{name} is not offered");
    }
}

/// Every line of `text` fits 80 columns, but the machine-readable last line of a table.
fn fits_80(args: &[&str], skip_last: bool) {
    let out = common::run(args);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let lines: Vec<&str> = text.lines().collect();
    let lines = if skip_last { &lines[..lines.len() - 1] } else { &lines[..] };
    for line in lines {
        assert!(line.chars().count() <= 80, "{args:?}: {} columns: {line}", line.chars().count());
    }
}

#[test]
fn tables_and_lists_fit_80_columns() {
    fits_80(&["uno", "rules", "--list"], false);
    fits_80(&["uno", "sim", "--games", "20", "--bots", "heuristic,precedence,random,first"], true);
    fits_80(
        &["uno", "match", "--bots", "heuristic,precedence", "--players", "2", "--deals", "64", "--until-decided"],
        true,
    );
}

#[test]
fn typos_in_the_games_get_a_suggestion() {
    let run = |args: &[&str], keys: &str| {
        let mut child = common::tabletop()
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("runs");
        std::io::Write::write_all(&mut child.stdin.take().expect("stdin"), keys.as_bytes()).expect("write");
        String::from_utf8_lossy(&child.wait_with_output().expect("ends").stdout).into_owned()
    };
    let uno = run(&["uno", "play", "--players", "2", "--seed", "7"], "drwa\nhelpp\n");
    assert!(uno.contains("'drwa' is not a command: did you mean 'draw'?"), "{uno}");
    assert!(uno.contains("'helpp' is not a command: did you mean 'help'?"), "{uno}");
    let duel = run(&["duel", "play", "--width", "4", "--height", "4"], "nxt\n");
    assert!(duel.contains("'nxt' is not a command: did you mean 'next'?"), "{duel}");
}

#[test]
fn scenario_out_dir_writes_only_positions_it_can_read_back() {
    let dir = tempfile::tempdir().expect("tempdir");
    let write = |name: &str, text: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).expect("write");
        p.to_str().expect("utf-8").to_string()
    };
    // One player with one matching card: it plays it and its hand is empty.
    let (deck, discard, hands) = (write("d.uno", "g,3\n"), write("x.uno", "r,2\n"), write("h.uno", "r,1\n"));
    let out_dir = dir.path().join("out");
    let out = common::run(&[
        "uno",
        "scenario",
        "one-player-one-move",
        "--deck",
        &deck,
        "--discard",
        &discard,
        "--hands",
        &hands,
        "--out-dir",
        out_dir.to_str().expect("utf-8"),
    ]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("cannot be read back as .uno files"), "{err}");
    assert!(!out_dir.join("hands.uno").exists(), "nothing written");
}

#[test]
fn messages_speak_of_the_users_values_not_rust_types() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cases = [
        ("[deal]\nhand_size = \"x\"\n", "expected a whole number of 0 or more"),
        ("{\"deal\": 3}", "expected a section of settings"),
    ];
    for (text, want) in cases {
        let path = dir.path().join("r.toml");
        std::fs::write(&path, text).expect("write");
        let out = common::run(&["uno", "rules", "--check", path.to_str().expect("utf-8")]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(want), "{err}");
        assert!(!err.contains("u32") && !err.contains("struct"), "{err}");
    }
    for (args, internal) in [
        (&["uno", "sim", "--seed", "abc"][..], "invalid digit"),
        (&["uno", "sim", "--players", "x"][..], "invalid digit"),
        (&["uno", "analyse", "-", "--seat", "1", "--samples", "0"][..], "is not in 1..="),
    ] {
        let out = common::run(args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(!err.contains(internal), "{args:?}: {err}");
    }
}

#[test]
fn the_format_hints_never_point_at_each_other() {
    let bots = "heuristic,random,first,uniform,precedence,ismcts,flat,heuristic,random,first";
    let out = common::run(&["uno", "match", "--bots", bots, "--format", "round-robin", "--deals", "1"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("name fewer bots"), "{err}");
    assert!(!err.contains("use rotate"), "{err}");
}

#[test]
fn the_progress_rate_is_a_whole_number_per_second() {
    // `script` gives the command a terminal, so the bar is drawn.
    let line = format!("\"{}\" uno sim --games 300000 --threads 1", common::BIN);
    let out = Command::new("script").args(["-qec", &line, "/dev/null"]).stdin(Stdio::null()).output().expect("script");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let frames: Vec<&str> = text.split(['\r', '\n']).filter(|f| f.contains("/300000 games")).collect();
    assert!(frames.len() > 1, "no progress drawn: {text:?}");
    for frame in frames {
        let rate = frame.split_whitespace().find(|w| w.ends_with("/s")).expect("a rate");
        assert!(!rate.contains('.'), "{rate} in {frame:?}");
    }
}

#[test]
fn serve_options_speak_of_numbers_not_rust_types() {
    for (args, want) in [
        (&["serve", "--record-days", "0"][..], "a whole number from 1 to 36500 (got '0')"),
        (&["serve", "--idle-secs", "soon"][..], "'soon' is not a whole number of 0 or more"),
        (&["serve", "--lease-ms", "5"][..], "at least 100 (got '5')"),
    ] {
        let out = common::run(args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(!err.contains("invalid digit") && !err.contains("is not in"), "{args:?}: {err}");
    }
}

#[test]
fn text_that_is_not_utf8_is_bad_input() {
    let mut child = common::tabletop()
        .args(["uno", "rules", "--check", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    std::io::Write::write_all(&mut child.stdin.take().expect("stdin"), b"[deal]\nhand_size = \xff\n").expect("write");
    let out = child.wait_with_output().expect("ends");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).starts_with("error: cannot read the rules from standard input"), "{}", stderr(&out));
}

#[test]
fn the_simulator_numbers_seats_from_1() {
    let out = common::run(&["uno", "sim", "--players", "3", "--games", "30", "--bots", "random,first,uniform"]);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let seats: Vec<&str> = text.lines().skip(2).take(3).filter_map(|l| l.split_whitespace().next()).collect();
    assert_eq!(seats, ["1", "2", "3"], "{text}");
    assert!(text.lines().nth(2).is_some_and(|l| l.split_whitespace().nth(1) == Some("random")), "{text}");
}

#[test]
fn a_long_game_in_the_terminal_stays_within_80_columns() {
    // Drawing and passing for long enough reshuffles the pile: the longest sentence there is.
    let mut child = common::tabletop()
        .args(["uno", "play", "--players", "2", "--seed", "7", "--bots", "first"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    let script = "d\np\nzz\n".repeat(400);
    std::io::Write::write_all(&mut child.stdin.take().expect("stdin"), script.as_bytes()).expect("write");
    let out = child.wait_with_output().expect("ends");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words.contains("shuffled into a new one"), "no reshuffle in this game:\n{text}");
    let long: Vec<&str> = text.lines().map(|l| l.trim_start_matches("> ")).filter(|l| l.chars().count() > 80).collect();
    assert!(long.is_empty(), "{long:?}");
}
