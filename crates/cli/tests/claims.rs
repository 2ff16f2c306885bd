//! Through the real binary: one numbering (players, seats and actions count from 1 in text, JSON
//! and errors), claims the data supports (the sequential test's wording, identical bots, single
//! playouts, no `-0.0`, no `NaN`), and the csce322 rules' forced precedence in play and analysis.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

mod common;

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn record(dir: &Path, preset: &str, seed: &str) -> PathBuf {
    let path = dir.join(format!("{preset}-{seed}.json"));
    let out = common::run(&[
        "uno",
        "watch",
        "--preset",
        preset,
        "--players",
        "2",
        "--seed",
        seed,
        "--bots",
        "heuristic",
        "--record",
        path.to_str().expect("utf-8"),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    path
}

#[test]
fn a_record_that_does_not_replay_names_the_action_and_player_from_1() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = record(dir.path(), "official", "5");
    let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("read")).expect("json");
    // The first action taken by the other seat: not its turn.
    let first = v["actions"][0]["seat"].as_u64().expect("seat");
    v["actions"][0]["seat"] = serde_json::json!(1 - first);
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, v.to_string()).expect("write");
    for cmd in ["replay", "analyse"] {
        let out = common::run(&["uno", cmd, bad.to_str().expect("utf-8"), "--seat", "1"]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains("action 1 ("), "{cmd}: {err}");
        assert!(err.contains(&format!("by Player {})", 2 - first)), "{cmd}: {err}");
    }
}

#[test]
fn the_analysis_json_counts_seats_and_actions_as_the_text_does() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = record(dir.path(), "official", "5");
    let p = path.to_str().expect("utf-8");
    let text = common::run(&["uno", "analyse", p, "--seat", "2", "--samples", "4"]);
    assert!(text.status.success(), "{}", stderr(&text));
    let text = stdout(&text);
    assert!(text.starts_with("Seat 2: "), "{text}");
    let numbers: Vec<u64> = text
        .lines()
        .filter_map(|l| l.strip_prefix("action "))
        .map(|l| l.split_whitespace().next().expect("number").parse().expect("number"))
        .collect();
    assert!(!numbers.is_empty(), "{text}");
    let json = common::run(&["uno", "analyse", p, "--seat", "2", "--samples", "4", "--json", "-"]);
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).expect("json");
    assert_eq!(v["seat"], 2, "{v}");
    let from_json: Vec<u64> =
        v["decisions"].as_array().expect("decisions").iter().map(|d| d["action"].as_u64().expect("action")).collect();
    assert_eq!(from_json, numbers);
    // And the replay shows each of those actions as taken by Player 2.
    let replay = stdout(&common::run(&["uno", "replay", p, "--print"]));
    let n = numbers[0];
    let block = replay.split(&format!("-- action {n}/")).nth(1).expect("the action in the replay");
    let first_line = block.lines().nth(1).expect("an event");
    assert!(first_line.starts_with("Player 2"), "action {n}: {first_line}");
}

#[test]
fn the_sequential_test_claims_only_which_hypothesis_the_data_favour() {
    let out = common::run(&[
        "uno",
        "match",
        "--bots",
        "heuristic,random",
        "--players",
        "2",
        "--deals",
        "2000",
        "--until-decided",
        "--diff1",
        "30",
        "--seed",
        "3",
    ]);
    let text = stdout(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(text.contains("H1 accepted: the data favour a difference of +30.00 over +0.00"), "{text}");
    assert!(!text.contains("at least 30"), "{text}");
    assert!(text.contains("the difference itself: +"), "{text}");
}

#[test]
fn identical_bots_give_no_absurd_likelihood_ratio_nor_negative_zero() {
    let out = common::run(&[
        "uno",
        "match",
        "--bots",
        "heuristic,heuristic",
        "--players",
        "2",
        "--deals",
        "200",
        "--until-decided",
    ]);
    let text = stdout(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(text.contains("LLR unbounded (deals all alike)"), "{text}");
    assert!(text.contains("H0 accepted"), "{text}");
    assert!(!text.contains("-0 ") && !text.contains("-0.0") && !text.contains("-0\n"), "{text}");
    let json = common::run(&[
        "uno",
        "match",
        "--bots",
        "heuristic,heuristic",
        "--players",
        "2",
        "--deals",
        "200",
        "--until-decided",
        "--json",
        "-",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).expect("json");
    assert!(v["sprt"]["llr"].is_null(), "{}", v["sprt"]);
}

#[test]
fn one_deal_prints_no_nan() {
    let out = common::run(&["uno", "match", "--bots", "heuristic,random", "--players", "2", "--deals", "1"]);
    let text = stdout(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!text.to_lowercase().contains("nan"), "{text}");
    assert!(text.lines().last().expect("last line").contains("diff_lo=none diff_hi=none"), "{text}");
}

#[test]
fn single_playouts_mark_no_mistake_and_say_why() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = record(dir.path(), "official", "5");
    let out = common::run(&["uno", "analyse", path.to_str().expect("utf-8"), "--seat", "1", "--samples", "1"]);
    let text = stdout(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!text.contains("← mistake"), "{text}");
    assert!(!text.contains("[100.0% – 100.0%]") && !text.contains("[0.0% – 0.0%]"), "{text}");
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words.contains("mistakes: none marked (1 world per action cannot tell a mistake from chance"), "{text}");
    assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
    let json =
        common::run(&["uno", "analyse", path.to_str().expect("utf-8"), "--seat", "1", "--samples", "1", "--json", "-"]);
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).expect("json");
    assert_eq!(v["min_mistake_samples"], 30, "{v}");
    for d in v["decisions"].as_array().expect("decisions") {
        assert_eq!(d["mistake"], false, "{d}");
    }
    assert!(!text.contains("-0.0"), "{text}");
}

#[test]
fn under_csce322_every_bot_plays_the_precedence_and_analysis_finds_nothing_to_choose() {
    let mut child = common::tabletop()
        .args(["uno", "play", "--preset", "csce322", "--seed", "4"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    child.stdin.take().expect("stdin").write_all(b"q\ny\n").expect("write");
    let out = child.wait_with_output().expect("ends");
    let text = stdout(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(text.contains("bot(s) (precedence)"), "{text}");
    assert!(text.contains("precedence decides every move, yours and every bot's"), "{text}");

    let dir = tempfile::tempdir().expect("tempdir");
    let path = record(dir.path(), "csce322", "5");
    let p = path.to_str().expect("utf-8");
    let out = common::run(&["uno", "analyse", p, "--seat", "1", "--samples", "40"]);
    let text = stdout(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words.contains("there was nothing to choose"), "{text}");
    assert!(!text.contains("mistake\n") && !text.contains("← mistake"), "{text}");
    let json = common::run(&["uno", "analyse", p, "--seat", "1", "--json", "-"]);
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).expect("json");
    assert_eq!(v["decisions"].as_array().map(Vec::len), Some(0), "{v}");
    assert!(v["nothing_to_choose"].is_string(), "{v}");
}
