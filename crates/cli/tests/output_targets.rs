//! `--json FILE` and `--record FILE` through the real binary, to every kind of target a shell
//! offers: `/dev/null`, `/dev/stdout`, a FIFO, `/dev/full` (a full disk), `-` (standard output);
//! and rules files from standard input.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

mod common;

fn bin() -> Command {
    let mut c = common::tabletop();
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn run(args: &[&str]) -> Output {
    bin().args(args).stdin(Stdio::null()).output().expect("the binary runs")
}

/// A two-player game's record, written by `uno watch --record`.
fn record(dir: &Path) -> PathBuf {
    let path = dir.join("game.json");
    let out = run(&["uno", "watch", "--players", "2", "--seed", "5", "--record", path.to_str().expect("test setup")]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    path
}

/// Every command that writes `--json` (or `--record`) after a run, with `TARGET` for the path.
fn writers(record: &Path) -> Vec<Vec<String>> {
    let r = record.to_str().expect("test setup").to_string();
    let cmds: [&[&str]; 5] = [
        &["uno", "sim", "--games", "20", "--threads", "1", "--json", "TARGET"],
        &["uno", "match", "--bots", "heuristic,random", "--players", "2", "--deals", "4", "--json", "TARGET"],
        &["uno", "analyse", "RECORD", "--seat", "1", "--samples", "3", "--json", "TARGET"],
        &["duel", "sim", "--red", "random", "--black", "random", "--games", "3", "--json", "TARGET"],
        &["uno", "watch", "--players", "2", "--seed", "5", "--record", "TARGET"],
    ];
    cmds.iter().map(|c| c.iter().map(|a| if *a == "RECORD" { r.clone() } else { (*a).to_string() }).collect()).collect()
}

fn with_target(args: &[String], target: &str) -> Vec<String> {
    args.iter().map(|a| if a == "TARGET" { target.to_string() } else { a.clone() }).collect()
}

#[test]
fn dev_null_takes_the_output_of_every_command() {
    let dir = tempfile::tempdir().expect("test setup");
    let record = record(dir.path());
    for args in writers(&record) {
        let args = with_target(&args, "/dev/null");
        let out = bin().args(&args).output().expect("runs");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", text(&out.stderr));
        assert!(out.stderr.is_empty(), "{args:?}: {}", text(&out.stderr));
    }
}

#[test]
fn a_full_disk_says_no_space_with_exit_code_1() {
    let dir = tempfile::tempdir().expect("test setup");
    let record = record(dir.path());
    for args in writers(&record) {
        let args = with_target(&args, "/dev/full");
        let out = bin().args(&args).output().expect("runs");
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error: cannot write /dev/full: No space left on device"), "{args:?}: {err}");
    }
}

#[test]
fn dev_stdout_is_standard_output_and_the_json_comes_alone() {
    let dir = tempfile::tempdir().expect("test setup");
    let record = record(dir.path());
    for args in writers(&record) {
        let args = with_target(&args, "/dev/stdout");
        let out = bin().args(&args).output().expect("runs");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", text(&out.stderr));
        let value: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{args:?}: not one JSON document ({e}): {}", text(&out.stdout)));
        assert!(value.is_object(), "{args:?}");
    }
}

#[test]
fn a_fifo_is_written_as_a_stream() {
    let dir = tempfile::tempdir().expect("test setup");
    let record = record(dir.path());
    for (i, args) in writers(&record).into_iter().enumerate() {
        let fifo = dir.path().join(format!("fifo{i}"));
        let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs");
        assert!(made.success());
        let reader_path = fifo.clone();
        let reader = std::thread::spawn(move || {
            let mut text = String::new();
            std::fs::File::open(reader_path).expect("fifo opens").read_to_string(&mut text).expect("fifo reads");
            text
        });
        let args = with_target(&args, fifo.to_str().expect("test setup"));
        let out = bin().args(&args).output().expect("runs");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", text(&out.stderr));
        let got = reader.join().expect("reader ends");
        let value: serde_json::Value =
            serde_json::from_str(&got).unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {got}"));
        assert!(value.is_object(), "{args:?}");
    }
}

#[test]
fn record_dash_is_standard_output_and_feeds_the_analysis() {
    let out = run(&["uno", "watch", "--players", "2", "--seed", "5", "--record", "-"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let record: serde_json::Value = serde_json::from_slice(&out.stdout).expect("the record alone, as JSON");
    assert!(record.get("actions").is_some(), "{record}");
    assert!(!Path::new(env!("CARGO_MANIFEST_DIR")).join("-").exists(), "no file named '-'");
    let mut analyse = bin()
        .args(["uno", "analyse", "-", "--seat", "2", "--samples", "3"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    analyse.stdin.take().expect("test setup").write_all(&out.stdout).expect("test setup");
    let done = analyse.wait_with_output().expect("test setup");
    assert_eq!(done.status.code(), Some(0), "{}", text(&done.stderr));
    assert!(text(&done.stdout).starts_with("Seat 2: "), "{}", text(&done.stdout));
}

#[test]
fn record_errors_name_the_record_option() {
    let out = run(&["uno", "watch", "--record", "/nonexistent-folder/game.json"]);
    let err = text(&out.stderr);
    assert!(err.starts_with("error: --record: cannot write /nonexistent-folder/game.json"), "{err}");
}

#[test]
fn the_analysis_never_overwrites_the_record_it_reads() {
    let dir = tempfile::tempdir().expect("test setup");
    let record = record(dir.path());
    let before = std::fs::read(&record).expect("test setup");
    let r = record.to_str().expect("test setup");
    let out = run(&["uno", "analyse", r, "--seat", "1", "--samples", "3", "--json", r]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("is the record being analysed"), "{err}");
    assert_eq!(std::fs::read(&record).expect("test setup"), before, "the record is untouched");
}

#[test]
fn rules_files_can_come_from_standard_input() {
    let toml = std::fs::read("../uno/presets/csce322.toml").expect("test setup");
    for args in [&["uno", "rules", "--check", "-"][..], &["uno", "sim", "--rules", "-", "--games", "5"][..]] {
        let mut child = bin()
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("test setup");
        child.stdin.take().expect("test setup").write_all(&toml).expect("test setup");
        let out = child.wait_with_output().expect("test setup");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", text(&out.stderr));
        let stdout = text(&out.stdout);
        assert!(
            stdout.starts_with("standard input: valid rules \"csce322\"") || stdout.starts_with("rules=csce322"),
            "{stdout}"
        );
    }
}

#[test]
fn dev_stderr_redirected_to_a_file_is_appended_not_truncated() {
    let dir = tempfile::tempdir().expect("tempdir");
    let log = dir.path().join("log.txt");
    std::fs::write(&log, "kept\n").expect("write");
    let file = std::fs::OpenOptions::new().append(true).open(&log).expect("opens");
    let out = bin()
        .args(["uno", "sim", "--games", "5", "--threads", "1", "--json", "/dev/stderr"])
        .stderr(Stdio::from(file))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    let text = std::fs::read_to_string(&log).expect("reads");
    let json = text.strip_prefix("kept\n").unwrap_or_else(|| panic!("the log was truncated: {text}"));
    let value: serde_json::Value = serde_json::from_str(json).expect("the JSON after what was there");
    assert_eq!(value["games"], 5);
}
