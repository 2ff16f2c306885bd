//! `tabletop uno scenario` through the real binary: the course's four worked examples byte for
//! byte, `--out-dir`, `--trace`, and refusals of bad input (exit code 2, nothing written).

use std::path::{Path, PathBuf};
use std::process::Output;

mod common;

const OPERATIONS: [&str; 4] =
    ["one-player-one-move", "one-player-many-moves", "many-players-one-move", "many-players-many-moves"];

fn official() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/csce322/official")
}

fn scenario(op: &str, deck: &Path, discard: &Path, hands: &Path, extra: &[&str]) -> Output {
    common::tabletop()
        .args(["uno", "scenario", op, "--deck"])
        .arg(deck)
        .arg("--discard")
        .arg(discard)
        .arg("--hands")
        .arg(hands)
        .args(extra)
        .output()
        .expect("the binary runs")
}

fn official_files(op: &str) -> [PathBuf; 3] {
    ["deck", "discard", "hands"].map(|k| official().join(format!("{op}.{k}.uno")))
}

#[test]
fn the_four_official_examples_match_byte_for_byte() {
    for op in OPERATIONS {
        let [deck, discard, hands] = official_files(op);
        let out = scenario(op, &deck, &discard, &hands, &[]);
        let expected = std::fs::read(official().join(format!("{op}.expected"))).expect("expected output");
        assert!(out.status.success(), "{op}: {}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&expected), "{op}");
        assert_eq!(out.stdout, expected, "{op}");
        assert!(out.stderr.is_empty(), "{op}");
    }
}

#[test]
fn out_dir_writes_the_position_that_reads_back_to_the_same_output() {
    let dir = tempfile::tempdir().expect("temp dir");
    let op = "many-players-many-moves";
    let [deck, discard, hands] = official_files(op);
    let out = scenario(op, &deck, &discard, &hands, &["--out-dir", &dir.path().to_string_lossy()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stdout.is_empty(), "--out-dir prints nothing");
    let written = ["deck", "discard", "hands"].map(|k| dir.path().join(format!("{k}.uno")));
    let discard_text = std::fs::read_to_string(&written[1]).expect("discard written");
    assert!(discard_text.starts_with("w,d;w,-;g,-;g,d;b,d;"), "{discard_text}");
    assert!(discard_text.ends_with("g,r;g,0\n"));
    // Player 1 also faces the bare Wild Draw Four and holds none, so running the operation again
    // on the written position changes nothing and prints the official output again.
    let again = scenario(op, &written[0], &written[1], &written[2], &[]);
    let expected = std::fs::read(official().join(format!("{op}.expected"))).expect("expected");
    assert_eq!(again.stdout, expected);
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .expect("dir")
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn trace_goes_to_stderr_with_the_rule_of_each_move() {
    let op = "many-players-many-moves";
    let [deck, discard, hands] = official_files(op);
    let out = scenario(op, &deck, &discard, &hands, &["--trace"]);
    let expected = std::fs::read(official().join(format!("{op}.expected"))).expect("expected");
    assert_eq!(out.stdout, expected, "stdout stays the driver's format");
    let trace = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = trace.lines().collect();
    assert_eq!(lines.first(), Some(&"turn 1: player 1 plays g,r (rule 3: colour match)"));
    assert!(lines.contains(&"turn 2: player 9 plays w,d then b,- (rule 4: Wild Draw Four)"));
    assert!(lines.contains(&"turn 3: player 8 cannot extend a Wild Draw Four: draws 4 of 4 and puts b,- on top"));
    assert!(lines.contains(&"turn 28: player 9 plays w,- (rule 5: symbol match)"));
    assert_eq!(lines.last(), Some(&"stop: player 7 can neither play nor draw"));
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write fixture");
    p
}

fn refused(out: &Output) -> String {
    refused_with(out, 2)
}

/// Refused with `code`: 2 for bad input, 1 for a file the system cannot read.
fn refused_with(out: &Output, code: i32) -> String {
    assert_eq!(out.status.code(), Some(code), "exit code {code}");
    assert!(out.stdout.is_empty(), "nothing printed on stdout");
    String::from_utf8_lossy(&out.stderr).to_string()
}

#[test]
fn bad_cards_are_refused_with_file_line_and_card() {
    let dir = tempfile::tempdir().expect("temp dir");
    let deck = write(dir.path(), "deck.uno", "r,1;g,2\n");
    let discard = write(dir.path(), "discard.uno", "b,3\n");
    let hands = write(dir.path(), "hands.uno", "r,1;g,2\nr,1;g,2;b,3;x,7\n");
    let out_dir = dir.path().join("out");
    let out = scenario("one-player-one-move", &deck, &discard, &hands, &["--out-dir", &out_dir.to_string_lossy()]);
    let err = refused(&out);
    let name = hands.display().to_string();
    assert!(err.starts_with(&format!("error: {name}:2: card 4 \"x,7\": unknown colour 'x'")), "{err}");
    assert!(!out_dir.exists(), "nothing written");
}

#[test]
fn impossible_positions_are_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let deck = write(dir.path(), "deck.uno", "r,1;g,2\n");
    let discard = write(dir.path(), "discard.uno", "b,3\n");
    let hands = write(dir.path(), "hands.uno", "r,1\n");
    let empty = write(dir.path(), "empty.uno", "");
    let cases: [(&Path, &Path, &Path, &str); 4] = [
        (&deck, &discard, &empty, "the hands file holds no hand"),
        (&deck, &empty, &hands, "the discard pile is empty"),
        (&deck, &deck, &hands, "given as both --deck and --discard"),
        (&deck, &discard, &dir.path().join("missing.uno"), "cannot read"),
    ];
    for (d, x, h, want) in cases {
        for op in OPERATIONS {
            let code = if want == "cannot read" { 1 } else { 2 };
            let err = refused_with(&scenario(op, d, x, h, &[]), code);
            assert!(err.contains(want), "{op}: {err}");
        }
    }
    let bad_discard = write(dir.path(), "bad.uno", "b,3;-,-\n");
    let err = refused(&scenario("one-player-one-move", &deck, &bad_discard, &hands, &[]));
    assert!(err.contains("bad.uno:1: card 2 \"-,-\""), "{err}");
}

#[test]
fn an_unknown_operation_is_a_usage_error() {
    let [deck, discard, hands] = official_files("one-player-one-move");
    let out = scenario("two-players", &deck, &discard, &hands, &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown operation"));
}

#[test]
fn crlf_and_missing_newlines_give_the_same_output() {
    let dir = tempfile::tempdir().expect("temp dir");
    let op = "many-players-one-move";
    let [deck, discard, hands] = official_files(op);
    let convert = |p: &Path, name: &str| {
        let text = std::fs::read_to_string(p).expect("read");
        let crlf = text.trim_end().replace('\n', "\r\n");
        write(dir.path(), name, &crlf)
    };
    let out = scenario(op, &convert(&deck, "d.uno"), &convert(&discard, "x.uno"), &convert(&hands, "h.uno"), &[]);
    let expected = std::fs::read(official().join(format!("{op}.expected"))).expect("expected");
    assert_eq!(out.stdout, expected);
}

#[test]
fn the_documented_example_prints_what_docs_csce322_md_shows() {
    let dir = tempfile::tempdir().expect("temp dir");
    let deck = write(dir.path(), "deck.uno", "g,1;g,2;g,3\n");
    let discard = write(dir.path(), "discard.uno", "b,0\n");
    let hands = write(dir.path(), "hands.uno", "b,d;r,9\nr,1\ny,1\n");
    let out = scenario("many-players-one-move", &deck, &discard, &hands, &["--trace"]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "discard\n[b-][bd][b0]\ndeck\n\nhands\n[r9]\n[r1][g1][g2]\n[y1][g3]\n"
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "turn 1: player 1 plays b,d (rule 3: colour match)\n\
         turn 2: player 2 cannot extend a Draw Two: draws 2 of 2 and puts b,- on top\n\
         turn 3: player 3 draws g,3 (rule 7: draw)\n\
         stop: every turn taken\n"
    );
}
