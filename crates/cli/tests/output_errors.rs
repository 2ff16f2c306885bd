//! Every subcommand through the real binary with a standard output that fails: a reader that
//! closed the pipe ends the command quietly with success; a full disk is one clear message
//! and exit code 1. Never an abort.

use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Output, Stdio};

mod common;

fn bin() -> Command {
    common::tabletop()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Every subcommand that prints, with arguments that make it print at once and end.
const PRINTING: &[&[&str]] = &[
    &["uno", "rules", "official"],
    &["uno", "rules", "--list"],
    &["uno", "sim", "--games", "50", "--threads", "1"],
    &["uno", "sim", "--games", "50", "--json", "-"],
    &["uno", "watch", "--seed", "3"],
    &["uno", "watch", "--preset", "two-color", "--players", "2", "--format", "cs205"],
    &["duel", "sim", "--red", "random", "--black", "random", "--games", "4"],
    &["duel", "sim", "--red", "random", "--black", "random", "--games", "4", "--json", "-"],
    &["duel", "bench", "--positions", "1"],
    &[
        "uno",
        "scenario",
        "one-player-one-move",
        "--deck",
        "../../tests/fixtures/csce322/official/one-player-one-move.deck.uno",
        "--discard",
        "../../tests/fixtures/csce322/official/one-player-one-move.discard.uno",
        "--hands",
        "../../tests/fixtures/csce322/official/one-player-one-move.hands.uno",
    ],
];

#[test]
fn a_full_disk_is_one_clear_message_and_exit_code_1() {
    for args in PRINTING {
        let full = File::create("/dev/full").expect("/dev/full opens");
        let out = bin()
            .args(*args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(Stdio::from(full))
            .output()
            .expect("the binary runs");
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: one line: {err}");
        assert!(err.starts_with("error: cannot write to standard output: "), "{args:?}: {err}");
        assert!(err.contains("No space left on device"), "{args:?}: {err}");
    }
}

#[test]
fn a_pipe_closed_before_the_output_ends_the_command_quietly() {
    // The shell closes the reading end as soon as `true` ends; every command here still has
    // its output to write (the simulations take far longer than `true`).
    for args in PRINTING {
        let line = format!("\"$0\" {} | true; exit ${{PIPESTATUS[0]}}", args.join(" "));
        let out = Command::new("bash")
            .arg("-c")
            .arg(&line)
            .arg(common::BIN)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .expect("bash runs");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        assert_eq!(stderr(&out), "", "{args:?}: nothing on standard error");
    }
}

#[test]
fn interactive_play_ends_quietly_when_its_reader_goes_away() {
    // Deterministic: the reader reads the first prompt, closes, and only then is a command sent.
    for args in [&["duel", "play"][..], &["uno", "play", "--seed", "1"]] {
        let mut child = bin()
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary starts");
        let mut reader = BufReader::new(child.stdout.take().expect("stdout"));
        let mut first = String::new();
        reader.read_line(&mut first).expect("a first line");
        assert!(!first.is_empty(), "{args:?}");
        drop(reader);
        let mut stdin = child.stdin.take().expect("stdin");
        // The answer to `help` is written to the closed pipe.
        let _ = stdin.write_all(b"help\nhelp\nhelp\n");
        drop(stdin);
        let out = child.wait_with_output().expect("the binary ends");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        assert_eq!(stderr(&out), "", "{args:?}");
    }
}
