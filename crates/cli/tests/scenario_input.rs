//! `tabletop uno scenario` through the real binary with the input users really give: a
//! trailing blank line, a file of empty lines, the standard input, process substitution, a huge
//! bad card, a huge file, a byte order mark and trailing spaces.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

mod common;

const OP: &str = "many-players-one-move";

fn official(kind: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../../tests/fixtures/csce322/official/{OP}.{kind}.uno"))
}

fn run(deck: &Path, discard: &Path, hands: &Path, stdin: Option<Vec<u8>>) -> Output {
    let mut child = common::tabletop()
        .args(["uno", "scenario", OP, "--deck"])
        .arg(deck)
        .arg("--discard")
        .arg(discard)
        .arg("--hands")
        .arg(hands)
        .stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    if let Some(bytes) = stdin {
        use std::io::Write;
        let mut pipe = child.stdin.take().expect("stdin");
        // A command that refuses its arguments may exit before it reads: a closed pipe is no failure.
        if let Err(e) = pipe.write_all(&bytes) {
            assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "stdin written: {e}");
        }
    }
    child.wait_with_output().expect("the binary ends")
}

/// The official example's output, the reference for every accepted variant.
fn expected() -> Vec<u8> {
    std::fs::read(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../../tests/fixtures/csce322/official/{OP}.expected")),
    )
    .expect("expected output")
}

fn with_hands(bytes: &[u8]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("hands.uno");
    std::fs::write(&path, bytes).expect("written");
    (dir, path)
}

fn hands_bytes() -> Vec<u8> {
    std::fs::read(official("hands")).expect("hands")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn trailing_blank_lines_are_not_players() {
    let mut bytes = hands_bytes();
    bytes.extend_from_slice(b"\n\n");
    let (_dir, hands) = with_hands(&bytes);
    let out = run(&official("deck"), &official("discard"), &hands, None);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(out.stdout, expected());
}

#[test]
fn a_hands_file_of_empty_lines_is_a_clear_error() {
    let (_dir, hands) = with_hands(b"\n\n  \n");
    let out = run(&official("deck"), &official("discard"), &hands, None);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("every line of the hands file is empty"), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
}

#[test]
fn the_standard_input_and_process_substitution_are_read() {
    let out = run(&official("deck"), &official("discard"), Path::new("-"), Some(hands_bytes()));
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(out.stdout, expected());

    let line = format!("\"$0\" uno scenario {OP} --deck <(cat \"$1\") --discard <(cat \"$2\") --hands <(cat \"$3\")");
    let out = Command::new("bash")
        .args(["-c", &line, common::BIN])
        .args([official("deck"), official("discard"), official("hands")])
        .output()
        .expect("bash runs");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(out.stdout, expected());

    // The standard input is one file: it cannot be two parts of a position.
    let out = run(Path::new("-"), &official("discard"), Path::new("-"), Some(hands_bytes()));
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("given as both --deck and --hands"), "{}", stderr(&out));
}

#[test]
fn a_huge_bad_card_is_quoted_in_a_short_excerpt() {
    let mut bytes = b"r,1;".to_vec();
    bytes.extend(vec![b'x'; 500_000]);
    let (_dir, hands) = with_hands(&bytes);
    let out = run(&official("deck"), &official("discard"), &hands, None);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.len() < 300, "a bounded message: {} bytes", err.len());
    assert!(err.contains("card 2 \"xxxxxxxxxxxxxxxxxxxxxxxx… (500000 bytes)\""), "{err}");
}

#[test]
fn a_file_past_the_limit_is_refused_by_its_size() {
    // 50 MB of cards: refused after reading one byte past the limit, not held whole.
    let dir = tempfile::tempdir().expect("tempdir");
    let deck = dir.path().join("deck.uno");
    let card = b"r,1;";
    std::fs::write(&deck, card.repeat(50 << 20 >> 2)).expect("written");
    let out = run(&deck, &official("discard"), &official("hands"), None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("the file is larger than 1048576 bytes, the most a .uno file may hold"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_byte_order_mark_and_trailing_spaces_are_accepted() {
    let text = String::from_utf8(hands_bytes()).expect("utf-8");
    let spaced: String = text.lines().map(|l| format!("{l}  \t\r\n")).collect();
    let mut bytes = b"\xEF\xBB\xBF".to_vec();
    bytes.extend_from_slice(spaced.as_bytes());
    let (_dir, hands) = with_hands(&bytes);
    let out = run(&official("deck"), &official("discard"), &hands, None);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(out.stdout, expected());
}

/// Runs an operation on three small files written from text, with `--trace`.
fn traced(op: &str, deck: &str, discard: &str, hands: &str) -> Output {
    let dir = tempfile::tempdir().expect("tempdir");
    let files = [("deck.uno", deck), ("discard.uno", discard), ("hands.uno", hands)].map(|(name, text)| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).expect("written");
        path
    });
    common::tabletop()
        .args(["uno", "scenario", op, "--trace", "--deck"])
        .arg(&files[0])
        .arg("--discard")
        .arg(&files[1])
        .arg("--hands")
        .arg(&files[2])
        .output()
        .expect("the binary runs")
}

#[test]
fn seed_000_a_penalty_on_an_empty_deck_places_the_marker_and_play_goes_on() {
    let out = traced("many-players-many-moves", "\n", "r,d;b,3\n", "y,1\nr,5;b,2\n");
    assert!(out.status.success(), "{}", stderr(&out));
    let trace = stderr(&out);
    assert!(trace.contains("turn 1: player 1 cannot extend a Draw Two: draws 0 of 2 and puts r,- on top"), "{trace}");
    assert!(trace.contains("turn 2: player 2 plays r,5 (rule 3: colour match)"), "{trace}");
}

#[test]
fn seed_000_many_players_one_move_takes_n_turns_past_a_player_who_cannot_move() {
    let out = traced("many-players-one-move", "\n", "b,3\n", "r,1;g,2\nb,9;y,9\n");
    assert!(out.status.success(), "{}", stderr(&out));
    let trace = stderr(&out);
    assert!(trace.contains("turn 1: player 1 can neither play nor draw: the turn passes"), "{trace}");
    assert!(trace.contains("turn 2: player 2 plays b,9 (rule 3: colour match)"), "{trace}");
    assert!(trace.ends_with("stop: every turn taken\n"), "{trace}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "discard\n[b9][b3]\ndeck\n\nhands\n[r1][g2]\n[y9]\n");
}
