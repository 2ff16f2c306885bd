//! `uno sim` and `duel sim` through the real binary behave alike: the same refusals for games
//! and threads, thread counts capped at the cores, honest intervals for a few games, JSON alone
//! on standard output (a 64-bit seed in it a string), a bad `--json` path refused before the
//! run, progress on a terminal.

use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

mod common;

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

const UNO: &[&str] = &["uno", "sim", "--players", "2"];
const DUEL: &[&str] = &["duel", "sim", "--red", "random", "--black", "random"];

#[test]
fn games_and_threads_are_refused_alike_by_both_simulators() {
    for (extra, message) in [
        (&["--games", "0"][..], "the number of games must be at least 1"),
        (&["--threads", "0"], "the number of threads must be at least 1"),
        (&["--threads", "many"], "'many' is not a whole number of threads"),
    ] {
        for sim in [UNO, DUEL] {
            let out = common::run(&[sim, extra].concat());
            assert_eq!(out.status.code(), Some(2), "{sim:?} {extra:?}");
            assert!(stderr(&out).contains(message), "{sim:?} {extra:?}: {}", stderr(&out));
        }
    }
}

#[test]
fn a_thousand_threads_give_the_same_results_as_one() {
    for sim in [UNO, DUEL] {
        let run = |threads: &str| {
            let out =
                common::run(&[sim, &["--games", "40", "--seed", "3", "--threads", threads, "--json", "-"]].concat());
            assert!(out.status.success(), "{sim:?}: {}", stderr(&out));
            let mut v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON alone on stdout");
            let obj = v.as_object_mut().expect("an object");
            for clock in ["seconds", "games_per_sec"] {
                obj.remove(clock);
            }
            v
        };
        assert_eq!(run("1000"), run("1"), "{sim:?}");
    }
}

#[test]
fn both_simulators_write_a_seed_above_2_pow_53_as_a_string_with_every_digit() {
    // A reader whose numbers are doubles (JavaScript, jq) would round the number 18446744073709551557.
    for sim in [UNO, DUEL] {
        let out = common::run(&[sim, &["--games", "2", "--seed", "18446744073709551557", "--json", "-"]].concat());
        assert!(out.status.success(), "{sim:?}: {}", stderr(&out));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON alone on stdout");
        assert_eq!(v["seed"], "18446744073709551557", "{sim:?}");
    }
}

#[test]
fn intervals_of_two_games_stay_within_zero_and_one_hundred_percent() {
    let out = common::run(&[DUEL, &["--games", "2", "--json", "-"]].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    for side in ["red", "black"] {
        let score = v[side]["score"].as_f64().expect("score");
        let lo = v[side]["ci95"][0].as_f64().expect("lo");
        let hi = v[side]["ci95"][1].as_f64().expect("hi");
        assert!((0.0..=score).contains(&lo) && (score..=1.0).contains(&hi), "{side}: {lo} {score} {hi}");
    }
    // The table prints rates as percentages, as `uno sim` does.
    let out = common::run(&[DUEL, &["--games", "2"]].concat());
    let text = String::from_utf8_lossy(&out.stdout);
    let red = text.lines().find(|l| l.starts_with("red ")).expect("a red row");
    assert!(red.contains('%') && !red.contains('±'), "{red}");
}

#[test]
fn json_to_a_file_leaves_stdout_empty_and_a_bad_path_fails_before_the_run() {
    let dir = tempfile::tempdir().expect("tempdir");
    for sim in [UNO, DUEL] {
        let path = dir.path().join("out.json");
        let path_text = path.to_str().expect("utf-8 path");
        let out = common::run(&[sim, &["--games", "10", "--json", path_text]].concat());
        assert!(out.status.success(), "{sim:?}: {}", stderr(&out));
        assert!(out.stdout.is_empty(), "{sim:?}: the results went to the file");
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).expect("written")).expect("JSON in the file");
        assert_eq!(v["games"], 10, "{sim:?}");

        // A run of a billion games would take hours: the refusal must come first.
        let bad = dir.path().join("no-such-dir").join("out.json");
        let started = Instant::now();
        let mut child = common::tabletop()
            .args([sim, &["--games", "1000000000", "--json", bad.to_str().expect("utf-8")]].concat())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary starts");
        let status = loop {
            if let Some(status) = child.try_wait().expect("wait") {
                break status;
            }
            if started.elapsed() > Duration::from_secs(60) {
                let _ = child.kill();
                panic!("{sim:?}: the run started before the --json path was checked");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let out = child.wait_with_output().expect("output");
        // A path the system cannot create is its failure, as a full disk: exit code 1.
        assert_eq!(status.code(), Some(1), "{sim:?}");
        assert!(stderr(&out).contains("--json: cannot write"), "{sim:?}: {}", stderr(&out));
    }
}

#[test]
fn both_simulators_show_progress_on_a_terminal() {
    // `script` gives the command a terminal; the bar names the games done out of the total.
    for sim in [UNO, DUEL] {
        let line = format!("\"{}\" {} --games 3000 --threads 1", common::BIN, sim.join(" "));
        let out = Command::new("script")
            .args(["-qec", &line, "/dev/null"])
            .stdin(Stdio::null())
            .output()
            .expect("script runs");
        assert!(out.status.success(), "{sim:?}: {}", String::from_utf8_lossy(&out.stdout));
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("/3000 games"), "{sim:?}: no progress bar in {text:?}");
    }
}
