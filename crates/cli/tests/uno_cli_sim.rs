//! `tabletop uno sim` through the real binary: the table, the machine-readable last line,
//! results that do not depend on the thread count, JSON output, and clear refusals.

use std::process::Output;

mod common;

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The output without the one figure that depends on the clock.
fn without_speed(text: &str) -> String {
    text.lines()
        .map(|l| match l.split_once(" games_per_sec=") {
            Some((head, tail)) => format!("{head} {}", tail.split_once(' ').map_or("", |(_, t)| t)),
            None => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_last_line_is_games_games_per_sec_and_turns_per_game() {
    let out = common::run(&["uno", "sim", "--preset", "official", "--players", "4", "--games", "300", "--seed", "5"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = stdout(&out);
    let last = text.lines().last().expect("output");
    let fields: Vec<(&str, &str)> = last.split(' ').filter_map(|f| f.split_once('=')).collect();
    let keys: Vec<&str> = fields.iter().map(|(k, _)| *k).collect();
    assert_eq!(keys, ["games", "games_per_sec", "turns_per_game"], "{last}");
    assert_eq!(fields[0].1, "300");
    let turns: f64 = fields[2].1.parse().expect("a number");
    assert!((20.0..200.0).contains(&turns), "turns per game {turns}");
    // One row per seat, with wins adding up to at most the games played.
    let wins: u64 = text
        .lines()
        .filter(|l| l.split_whitespace().nth(1) == Some("random"))
        .map(|l| l.split_whitespace().nth(2).and_then(|w| w.parse::<u64>().ok()).expect("wins"))
        .sum();
    assert!(wins > 0 && wins <= 300, "{text}");
}

#[test]
fn results_are_the_same_for_one_and_two_threads() {
    for bots in ["random", "uniform,first,random"] {
        let args = ["uno", "sim", "--preset", "official", "--players", "3", "--games", "5000", "--seed", "11"];
        let one = common::run(&[&args[..], &["--bots", bots, "--threads", "1"]].concat());
        let two = common::run(&[&args[..], &["--bots", bots, "--threads", "2"]].concat());
        assert!(one.status.success() && two.status.success());
        assert_eq!(without_speed(&stdout(&one)), without_speed(&stdout(&two)), "{bots}");
    }
    let other_seed =
        common::run(&["uno", "sim", "--players", "3", "--games", "5000", "--seed", "12", "--threads", "1"]);
    let seed_11 = common::run(&["uno", "sim", "--players", "3", "--games", "5000", "--seed", "11", "--threads", "1"]);
    assert_ne!(without_speed(&stdout(&other_seed)), without_speed(&stdout(&seed_11)), "the seed matters");
}

#[test]
fn checked_runs_find_no_illegal_action_and_json_holds_the_totals() {
    for preset in ["official", "cs410", "two-color", "csce322"] {
        let out = common::run(&["uno", "sim", "--preset", preset, "--games", "200", "--checked", "--json", "-"]);
        assert!(out.status.success(), "{preset}: {}", String::from_utf8_lossy(&out.stderr));
        let text = stdout(&out);
        // JSON alone on standard output: the whole of it parses.
        let v: serde_json::Value = serde_json::from_str(&text).expect("standard output is one JSON value");
        assert_eq!(v["games"], 200, "{preset}");
        assert_eq!(v["illegal"], 0, "{preset}");
        assert_eq!(v["stuck"], 0, "{preset}");
        let seats = v["seats"].as_array().expect("seats");
        let wins: u64 = seats.iter().map(|s| s["wins"].as_u64().expect("wins")).sum();
        assert_eq!(wins + v["no_winner"].as_u64().expect("no_winner"), 200, "{preset}");
    }
}

#[test]
fn bad_arguments_are_refused_with_exit_code_2() {
    for args in [
        &["uno", "sim", "--bots", "nope"][..],
        &["uno", "sim", "--players", "4", "--bots", "random,random"],
        &["uno", "sim", "--threads", "0"],
        &["uno", "sim", "--preset", "two-color", "--players", "9"],
    ] {
        let out = common::run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).starts_with("error: "), "{args:?}");
    }
}
