//! The conventions docs/terminal.md states, through the real binary: help wrapped to the
//! terminal, exit codes (2 bad input, 1 the system's refusal), one numbering from 1, JSON whose
//! numbers are the figures, intervals within what a quantity can be, a rules file's refusals
//! pointing at the line and column, and no table of zeros for a benchmark that measured
//! nothing.

use std::path::Path;
use std::process::Output;

use serde_json::Value;

mod common;

fn stdout(out: &Output) -> String {
    common::text(&out.stdout)
}

fn stderr(out: &Output) -> String {
    common::text(&out.stderr)
}

/// Every command and subcommand, found from the help's own lists (`Commands:`).
fn every_command() -> Vec<Vec<String>> {
    let mut all = vec![Vec::new()];
    let mut i = 0;
    while i < all.len() {
        let path = all[i].clone();
        let out = common::run(&[path.clone(), vec!["--help".to_string()]].concat());
        let text = stdout(&out);
        let listed = text.split("Commands:\n").nth(1).map(|rest| rest.split("\n\n").next().unwrap_or(""));
        for line in listed.unwrap_or("").lines() {
            // Continuation lines of a wrapped description are indented further.
            if line.starts_with("  ") && !line.starts_with("   ") {
                let name = line.split_whitespace().next().expect("a command's name");
                if name != "help" {
                    all.push([path.clone(), vec![name.to_string()]].concat());
                }
            }
        }
        i += 1;
    }
    all
}

#[test]
fn help_is_wrapped_to_the_terminal_s_width_and_at_most_100_columns() {
    let commands = every_command();
    assert!(commands.len() >= 15, "{commands:?}");
    assert!(commands.iter().any(|c| c == &["duel", "bench"]), "{commands:?}");
    for (columns, width) in [(Some(60), 60), (Some(80), 80), (None, 100), (Some(250), 100)] {
        for command in &commands {
            for flag in ["--help", "-h"] {
                let mut cmd = common::tabletop();
                cmd.args(command).arg(flag);
                if let Some(c) = columns {
                    cmd.env("COLUMNS", c.to_string());
                }
                let out = cmd.output().expect("the binary runs");
                assert!(out.status.success(), "{command:?} {flag}");
                let text = stdout(&out);
                // A word wider than the room left for it (a URL pattern) stays whole, alone.
                for line in text.lines().filter(|l| l.trim().contains(' ')) {
                    let n = line.chars().count();
                    assert!(n <= width, "{command:?} {flag} at COLUMNS={columns:?}: a line of {n}:\n{text}");
                }
            }
        }
    }
}

#[test]
fn watch_help_shows_the_key_its_json_has() {
    let help = stdout(&common::run(&["uno", "watch", "--help"]));
    let out = common::run(&["uno", "watch", "--json", "--players", "2", "--seed", "3"]);
    let text = stdout(&out);
    let first = text.lines().next().expect("a line");
    serde_json::from_str::<Value>(first).expect("JSON");
    // The key as the line writes it first.
    let key = first.split('"').nth(1).expect("a key");
    let flat = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains(&format!("{{\"{key}\":")), "the help shows no {{\"{key}\":…}}:\n{help}");
    assert!(!flat.contains("{\"event\""), "{help}");
}

/// What the conventions say a failure ends with: the code, and the one line that starts it.
fn fails(args: &[&str], code: i32, starts: &str) -> String {
    let out = common::run(args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(code), "{args:?}: {err}");
    assert!(err.starts_with(starts), "{args:?}: {err}");
    assert!(out.stdout.is_empty(), "{args:?}: {}", stdout(&out));
    err
}

#[test]
fn exit_codes_say_whose_trouble_it_is() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("t.db");
    let db = db.to_str().expect("utf-8");
    // Bad input: 2.
    for addr in ["nonsense", "127.0.0.1", "127.0.0.1:99999", ":8080"] {
        fails(&["serve", "--addr", addr, "--db", db], 2, "error: invalid value");
    }
    fails(&["serve", "--addr", "no-such-host.invalid:8080", "--db", db], 2, "error: --addr no-such-host.invalid:8080");
    assert!(!Path::new(db).exists(), "a refused address left a database file");
    // The system's refusal: 1, a path it will not open and a folder read as a file alike.
    let err = fails(&["serve", "--addr", "127.0.0.1:0", "--db", "/no/such/folder/t.db"], 1, "error: --db");
    assert!(err.contains("No such file or directory"), "{err}");
    fails(&["serve", "--addr", "127.0.0.1:0", "--db", dir.path().to_str().expect("utf-8")], 1, "error: --db");
    let folder = dir.path().to_str().expect("utf-8");
    let official = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/csce322/official");
    let file = |kind: &str| format!("{official}/many-players-one-move.{kind}.uno");
    let (discard, hands) = (file("discard"), file("hands"));
    let args = ["uno", "scenario", "many-players-one-move", "--deck", folder, "--discard", &discard, "--hands", &hands];
    fails(&args, 1, &format!("error: {folder}: is a folder"));
    fails(&["uno", "sim", "--games", "1", "--rules", folder], 1, "error: cannot read rules file");
    // A file that is not a tabletop database is bad input.
    std::fs::write(dir.path().join("text.db"), "not a database, only words ".repeat(200)).expect("written");
    let text_db = dir.path().join("text.db");
    fails(&["serve", "--addr", "127.0.0.1:0", "--db", text_db.to_str().expect("utf-8")], 2, "error: --db");
}

#[test]
fn a_grid_with_nothing_to_search_is_refused_not_measured_as_zeros() {
    let err = fails(&["duel", "bench", "--width", "2", "--height", "1", "--positions", "3"], 2, "error: a 2x1 grid");
    assert!(err.contains("no position"), "{err}");
    let out = common::run(&["duel", "bench", "--width", "4", "--height", "4", "--positions", "2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).starts_with("Search benchmark: 2 positions"), "{}", stdout(&out));
}

/// Writes `text` as `name` in `dir`.
fn file(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("written");
    path.to_str().expect("utf-8").to_string()
}

#[test]
fn a_rules_file_s_refusal_points_at_the_setting() {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, text, at, says) in [
        ("a.toml", "name = \"mine\"\n\n[deal]\nhand_size = 0\n", "4:13", "deal.hand_size must be at least 1"),
        ("b.toml", "[players]\nmin = 2\nmax = 99\n", "3:7", "players: min 2 and max 99"),
        ("c.toml", "[deck.per_color]\nskip = 1000\n", "2:8", "1000 copies of skip"),
        ("d.toml", "[deal]\nhand_size = 60\n", "2:13", "deal.hand_size 60 is too large"),
        ("e.json", "{\n  \"play\": {\n    \"turn_cap\": 0\n  }\n}\n", "3:17", "play.turn_cap must be at least 1"),
    ] {
        let path = file(dir.path(), name, text);
        let err = fails(&["uno", "rules", "--check", &path], 2, &format!("error: {path}:{at}: "));
        assert!(err.contains(says), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        // `--rules` reads the file the same way.
        fails(&["uno", "sim", "--games", "1", "--rules", &path], 2, &format!("error: {path}:{at}: "));
    }
    // Standard input is named so.
    let out = common::run_with_input(&["uno", "rules", "--check", "-"], b"[end]\nmax_turns = 0\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).starts_with("error: standard input:2:13: end.max_turns"), "{}", stderr(&out));
}

#[test]
fn rules_check_takes_several_files_and_calls_none_a_preset() {
    let dir = tempfile::tempdir().expect("tempdir");
    let good = file(dir.path(), "good.toml", "[deal]\nhand_size = 5\n");
    let bad = file(dir.path(), "bad.toml", "[deal]\nhand_size = 0\n");
    let missing = dir.path().join("missing.toml").to_str().expect("utf-8").to_string();
    let out = common::run(&["uno", "rules", "--check", &good, &bad, &missing, &good]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let said = stdout(&out);
    assert_eq!(said.lines().count(), 2, "{said}");
    assert!(said.lines().all(|l| l.starts_with(&format!("{good}: valid rules"))), "{said}");
    let err = stderr(&out);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(lines[0].starts_with(&format!("error: {bad}:2:13: ")), "{err}");
    assert!(lines[1].starts_with(&format!("error: cannot read rules file {missing}")), "{err}");
    assert!(!err.contains("PRESET") && !err.contains("preset"), "{err}");
    // Only a file that cannot be read: the system's trouble.
    let out = common::run(&["uno", "rules", "--check", &good, &missing]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    // Every file good: success.
    let out = common::run(&["uno", "rules", "--check", &good, &good]);
    assert!(out.status.success(), "{}", stderr(&out));
}

/// A three-player game of random bots (seed 1) kept as a record in `dir`.
fn record(dir: &Path) -> String {
    let path = dir.join("game.json").to_str().expect("utf-8").to_string();
    let out = common::run(&["uno", "watch", "--players", "3", "--seed", "1", "--record", &path]);
    assert!(out.status.success(), "{}", stderr(&out));
    path
}

/// Every number in a JSON document, with where it is.
fn numbers(value: &Value, at: &str, out: &mut Vec<(String, f64)>) {
    match value {
        Value::Number(n) => out.push((at.to_string(), n.as_f64().expect("a number"))),
        Value::Array(items) => items.iter().enumerate().for_each(|(i, v)| numbers(v, &format!("{at}[{i}]"), out)),
        Value::Object(members) => members.iter().for_each(|(k, v)| numbers(v, &format!("{at}.{k}"), out)),
        _ => {}
    }
}

#[test]
fn analyse_counts_turns_from_1_and_its_json_has_no_float_dust() {
    let dir = tempfile::tempdir().expect("tempdir");
    let record = record(dir.path());
    let mut first_turns = 0;
    for seat in ["1", "2", "3"] {
        let args = ["uno", "analyse", &record, "--seat", seat, "--samples", "30"];
        let out = common::run(&[&args[..], &["--json", "-"]].concat());
        assert!(out.status.success(), "{}", stderr(&out));
        let json: Value = serde_json::from_str(&stdout(&out)).expect("JSON");
        let decisions = json["decisions"].as_array().expect("decisions");
        assert!(!decisions.is_empty());
        for d in decisions {
            assert!(d["turn"].as_u64() >= Some(1), "{d}");
            // The record's first action opens the first round: its first turn.
            if d["action"] == 1 {
                assert_eq!(d["turn"], 1, "{d}");
                first_turns += 1;
            }
        }
        let mut all = Vec::new();
        numbers(&json, "", &mut all);
        for (at, x) in all {
            assert!(x == 0.0 || x.abs() >= 1e-9, "seat {seat}: {at} is {x:e}");
        }
        let text = stdout(&out);
        assert!(!text.contains("-0.0,") && !text.contains("-0.0\n") && !text.contains("e-"), "{text}");
        // The words count the same way.
        let words = stdout(&common::run(&args));
        assert!(!words.contains(", turn 0)"), "{words}");
        if let Some(first) = decisions.iter().find(|d| d["action"] == 1) {
            assert!(words.contains("action 1 (round 1, turn 1)"), "{first}\n{words}");
        }
    }
    assert_eq!(first_turns, 1, "one seat made the first decision");
}

#[test]
fn match_intervals_stay_within_what_a_share_and_points_can_be() {
    // Two deals of heuristic against random, seed 2: a normal interval of the win share runs
    // from -24% to 124% there.
    let args = ["uno", "match", "--bots", "heuristic,random", "--players", "2", "--deals", "2", "--seed", "2"];
    let out = common::run(&[&args[..], &["--threads", "1", "--json", "-"]].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    let json: Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    let within = |e: &Value, lo: f64, hi: f64, what: &str| {
        let ci = e["ci95"].as_array().expect("an interval");
        let (a, b) = (ci[0].as_f64().expect("lo"), ci[1].as_f64().expect("hi"));
        assert!(lo <= a && a <= b && b <= hi, "{what}: {a}–{b} outside {lo}–{hi}");
        (a, b)
    };
    let mut cut = false;
    for e in json["entrants"].as_array().expect("entrants") {
        let (a, b) = within(&e["win_share"], 0.0, 1.0, "win share");
        within(&e["mean_points"], 0.0, f64::INFINITY, "points");
        cut |= a == 0.0 || b == 1.0;
    }
    assert!(cut, "this seed's interval reached past 0–100%: {json}");
    within(&json["difference"]["win_share"], -1.0, 1.0, "difference");
    // The table says the same: each entrant's win% interval (column 5) and points interval
    // (column 7).
    let table = stdout(&common::run(&[&args[..], &["--threads", "1"]].concat()));
    let bounds = |ci: &str| -> (f64, f64) {
        let (a, b) = ci.split_once('–').unwrap_or_else(|| panic!("an interval: {ci}"));
        (a.parse().expect("a bound"), b.parse().expect("a bound"))
    };
    for line in table.lines().skip(2).take(2) {
        let columns: Vec<&str> = line.split_whitespace().collect();
        let (a, b) = bounds(columns[4]);
        assert!((0.0..=100.0).contains(&a) && (0.0..=100.0).contains(&b), "{line}");
        assert!(bounds(columns[6]).0 >= 0.0, "{line}");
    }
}

#[test]
fn the_readme_says_what_a_machine_needs_and_builds_only_the_binary() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let readme = std::fs::read_to_string(format!("{root}/README.md")).expect("README.md");
    let run_it = readme.split("## Run it").nth(1).and_then(|r| r.split("\n## ").next()).expect("a Run it section");
    for needed in ["Rust", "C compiler", "Node ≥ 20.10", "venv"] {
        assert!(run_it.contains(needed), "Run it does not say a machine needs {needed}");
    }
    // A plain `cargo run` here builds every member of the workspace, the Python bindings too.
    let mut docs = vec![format!("{root}/README.md")];
    for entry in std::fs::read_dir(format!("{root}/docs")).expect("docs/") {
        let path = entry.expect("an entry").path();
        if path.extension().is_some_and(|e| e == "md") {
            docs.push(path.to_str().expect("utf-8").to_string());
        }
    }
    for doc in docs {
        let text = std::fs::read_to_string(&doc).expect("a doc");
        for line in text.lines().filter(|l| l.contains("cargo run")) {
            for run in line.split("cargo run").skip(1) {
                let package = run.trim_start().trim_start_matches("--release").trim_start();
                assert!(package.starts_with("-p "), "{doc}: `cargo run` names no package: {line}");
            }
        }
    }
}
