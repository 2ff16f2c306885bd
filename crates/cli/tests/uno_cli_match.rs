//! `tabletop uno match` through the real binary: the table, the last line, the JSON schema
//! (documented in docs/bots.md), the sequential test, and clear refusals.

use std::process::Output;

mod common;

fn last_line(out: &Output) -> Vec<(String, String)> {
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let last = text.lines().last().expect("output").to_string();
    last.split(' ').filter_map(|f| f.split_once('=')).map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

#[test]
fn a_match_prints_a_row_per_bot_and_a_machine_readable_last_line() {
    let out =
        common::run(&["uno", "match", "--bots", "heuristic,random", "--deals", "80", "--seed", "4", "--threads", "2"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.lines().any(|l| l.starts_with("heuristic ")), "{text}");
    assert!(text.lines().any(|l| l.starts_with("random ")), "{text}");
    let fields = last_line(&out);
    let keys: Vec<&str> = fields.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(keys, ["deals", "games", "diff", "diff_lo", "diff_hi", "decision"], "{text}");
    assert_eq!(fields[0].1, "80");
    assert_eq!(fields[1].1, "320");
    let diff: f64 = fields[2].1.parse().expect("number");
    let lo: f64 = fields[3].1.parse().expect("number");
    assert!(lo < diff && diff > 0.0, "{text}");
}

#[test]
fn the_json_keeps_its_documented_schema() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("m.json");
    let out = common::run(&[
        "uno",
        "match",
        "--bots",
        "heuristic,precedence",
        "--deals",
        "64",
        "--format",
        "all-seatings",
        "--until-decided",
        "--json",
        path.to_str().expect("utf-8"),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("written")).expect("json");
    let keys = |v: &serde_json::Value| -> Vec<String> {
        let mut k: Vec<String> = v.as_object().expect("object").keys().cloned().collect();
        k.sort();
        k
    };
    assert_eq!(
        keys(&v),
        [
            "deals",
            "decisions",
            "difference",
            "entrants",
            "format",
            "games",
            "no_winner",
            "players",
            "ratings",
            "rules",
            "seatings",
            "seed",
            "sprt",
            "stuck"
        ]
    );
    assert_eq!(v["format"], "all-seatings");
    assert_eq!(v["seatings"].as_array().expect("seatings").len(), 4);
    let entrant = &v["entrants"][0];
    assert_eq!(keys(entrant), ["bot", "mean_points", "points", "seat_games", "win_share", "wins"]);
    assert_eq!(keys(&entrant["win_share"]), ["ci95", "mean", "variance_reduction"]);
    assert_eq!(keys(&v["difference"]), ["a", "b", "win_share"]);
    assert_eq!(keys(&v["sprt"]), ["alpha", "beta", "bounds", "decision", "llr", "mu0", "mu1", "n"]);
    assert_eq!(v["entrants"][0]["bot"], "heuristic");
    assert_eq!(keys(&v["ratings"]), ["games", "model", "ratings"]);
    assert_eq!(keys(&v["ratings"]["ratings"][0]), ["bot", "ci95", "elo"]);
}

/// Five bots at four seats: every group of four, each turned round the table; the ratings put
/// the heuristic above the random bots, with intervals that say so.
#[test]
fn a_round_robin_rates_more_bots_than_seats() {
    let out = common::run(&[
        "uno",
        "match",
        "--bots",
        "heuristic,random,precedence,random,uniform",
        "--deals",
        "200",
        "--format",
        "round-robin",
        "--json",
        "-",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["format"], "round-robin");
    assert_eq!(v["seatings"].as_array().expect("seatings").len(), 20);
    let ratings = v["ratings"]["ratings"].as_array().expect("ratings");
    assert_eq!(ratings.len(), 5);
    let elo = |i: usize| ratings[i]["elo"].as_f64().expect("elo");
    let ci = |i: usize| -> [f64; 2] {
        let c = ratings[i]["ci95"].as_array().expect("an interval");
        [c[0].as_f64().expect("lo"), c[1].as_f64().expect("hi")]
    };
    assert!(ci(0)[0] > ci(1)[1], "heuristic {:?} not clearly above random {:?}", ci(0), ci(1));
    assert!(elo(0) > elo(4), "heuristic below uniform");
    let sum: f64 = (0..5).map(elo).sum();
    assert!(sum.abs() < 1e-6, "ratings sum to {sum}");

    let few = common::run(&["uno", "match", "--bots", "heuristic,random", "--format", "round-robin"]);
    assert!(!few.status.success());
    assert!(String::from_utf8_lossy(&few.stderr).contains("round-robin seats every group of 4 of the bots"));
}

#[test]
fn bad_input_is_refused_with_a_reason() {
    for (args, reason) in [
        (&["--bots", "heuristic"][..], "at least two"),
        (&["--bots", "heuristic,nobody"][..], "nobody"),
        (&["--bots", "heuristic,random", "--format", "swiss"][..], "rotate"),
        (&["--bots", "heuristic,random", "--deals", "0"][..], "--deals"),
        (&["--bots", "heuristic,random", "--until-decided", "--diff1", "-1"][..], "--diff1 must be above --diff0"),
        (&["--bots", "heuristic,random", "--until-decided", "--alpha", "1.5"][..], "alpha"),
    ] {
        let mut full = vec!["uno", "match"];
        full.extend_from_slice(args);
        let out = common::run(&full);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(reason), "{args:?}: {err}");
    }
}

#[test]
fn json_to_standard_output_is_the_json_alone_and_a_bad_path_fails_before_the_run() {
    let out = common::run(&["uno", "match", "--bots", "heuristic,random", "--deals", "10", "--json", "-"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is one JSON document");
    assert!(v.is_object());

    let out = common::run(&[
        "uno",
        "match",
        "--bots",
        "heuristic,random",
        "--deals",
        "1000000000",
        "--json",
        "/no/such/dir/m.json",
    ]);
    // A path the system cannot create: exit code 1, as for a full disk.
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--json: cannot write /no/such/dir/m.json"));
}

/// Under csce322 seed 000's precedence is the engine's rule: two different bots make the same
/// moves, so the match reports a difference of exactly 0.
#[test]
fn under_csce322_different_bots_are_exactly_even() {
    let out = common::run(&["uno", "match", "--preset", "csce322", "--bots", "heuristic,random", "--deals", "500"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let fields = last_line(&out);
    let text = String::from_utf8_lossy(&out.stdout);
    for (key, want) in [("diff", "0.0000"), ("diff_lo", "0.0000"), ("diff_hi", "0.0000")] {
        let got = fields.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str());
        assert_eq!(got, Some(want), "{key}: {text}");
    }
    assert!(text.contains("heuristic − random: +0.00 points of win share"), "{text}");
}
