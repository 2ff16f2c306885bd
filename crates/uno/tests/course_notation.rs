//! The `.uno` notation: byte-exact round trips, error locations, and property tests (round trip,
//! no input makes the parser or an operation panic).

use std::path::PathBuf;

use proptest::prelude::*;
use uno::courses::csce322::{run, Operation, Stop};
use uno::courses::notation::{Entry, FileKind, Layout, Problem};
use uno::{Card, Color};

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/csce322")
}

fn read(path: &PathBuf) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn every_course_file_reads_and_writes_back_byte_for_byte() {
    let mut checked = 0;
    for dir in ["official", "inputs"] {
        let entries = std::fs::read_dir(fixtures().join(dir)).expect("fixtures present");
        for entry in entries {
            let path = entry.expect("dir entry").path();
            let name = path.to_string_lossy().to_string();
            let Some(base) = name.strip_suffix(".deck.uno") else {
                continue;
            };
            let files = ["deck", "discard", "hands"].map(|k| PathBuf::from(format!("{base}.{k}.uno")));
            let [deck, discard, hands] = files.clone().map(|p| read(&p));
            let p = Layout::parse(&deck, &discard, &hands).expect(&name);
            assert_eq!(p.write_deck().as_bytes(), deck, "{name}");
            assert_eq!(p.write_discard().as_bytes(), discard, "{name}");
            assert_eq!(p.write_hands().as_bytes(), hands, "{name}");
            checked += 1;
        }
    }
    assert_eq!(checked, 10, "4 official examples and 6 course inputs");
}

#[test]
fn the_seed_figure_with_its_line_breaks_reads_like_the_real_file() {
    let figure = "r,6;r,r;g,5;y,4;b,0;g,6;g,s;g,4;y,1;g,d;g,0;r,r;b,2;r,0;y,9;g,2;g,3;\n\
b,3;y,5;b,2;r,8;b,d;g,s;g,d;g,9;w,d;y,5;y,2;r,4;y,8;b,8;r,3;r,s;r\n\
,5;y,3;b,8;g,1;g,r;r,8;g,9;y,4;y,1;b,1;b,d;r,4;g,7;b,s;r,s;r,7;y,\n\
r;y,6;b,9;y,s;r,1;b,1;w,d;w,-;y,6;b,7;y,7;g,6;y,d;y,9;w,-;y,d;b,r\n\
;w,d;b,4;r,6;w,-;g,7";
    let real = read(&fixtures().join("inputs/test02.deck.uno"));
    let a = Layout::parse(figure.as_bytes(), b"g,3", b"r,1").expect("figure");
    let b = Layout::parse(&real, b"g,3", b"r,1").expect("real");
    assert_eq!(a, b);
    assert_eq!(a.deck().len(), 71);
}

#[test]
fn errors_carry_the_file_the_line_and_the_card() {
    let e = Layout::parse(b"r,1", b"b,3", b"r,1;g,2\r\nr,1;g,2;b,3;x,7\r\n").expect_err("unknown colour");
    assert_eq!(e.kind, FileKind::Hands);
    assert_eq!(e.line, Some(2));
    assert_eq!(e.card, Some((4, "x,7".to_string())));
    assert_eq!(e.problem, Problem::UnknownColour('x'));
    assert!(e.to_string().starts_with("hands.uno:2: card 4 \"x,7\": unknown colour 'x'"));

    let e = Layout::parse(b"r,1;\ng,2;y,-", b"b,3", b"r,1").expect_err("marker in deck");
    assert_eq!((e.line, e.card.clone()), (Some(2), Some((3, "y,-".into()))));
    assert_eq!(e.problem, Problem::MarkerOutsideDiscard);

    let e = Layout::parse(b"", b"b,3", b"r,1;-,-").expect_err("end marker in hand");
    assert_eq!(e.problem, Problem::EndMarkerMisplaced);
    let e = Layout::parse(b"", b"b,3", b"").expect_err("no hand");
    assert_eq!((e.problem, e.line), (Problem::NoHands, None));
    let e = Layout::parse(b"", b"\r\n", b"r,1").expect_err("empty discard");
    assert_eq!(e.problem, Problem::EmptyDiscard);
    let e = Layout::parse(b"w,s", b"b,3", b"r,1").expect_err("wild skip");
    assert_eq!(e.problem, Problem::BadWild);
    let e = Layout::parse(b"", b"b,3", b"r, 1").expect_err("space");
    assert_eq!(e.problem, Problem::Malformed);
    let e = Layout::parse(b"", b"b,3", b"r,\xff").expect_err("not ascii");
    assert_eq!(e.problem, Problem::UnknownSymbol(char::REPLACEMENT_CHARACTER));
}

#[test]
fn position_new_refuses_impossible_positions() {
    assert!(Layout::new(vec![], vec![], vec![vec![]]).is_err());
    assert!(Layout::new(vec![], vec![Entry::Card(Card::WILD)], vec![]).is_err());
    assert!(Layout::new(vec![], vec![Entry::Card(Card::WILD), Entry::End], vec![vec![]]).is_err());
    assert!(Layout::new(vec![], vec![Entry::End, Entry::Card(Card::WILD)], vec![vec![]]).is_ok());
}

fn card() -> impl Strategy<Value = Card> {
    prop::sample::select(Card::all().collect::<Vec<_>>())
}

fn entry() -> impl Strategy<Value = Entry> {
    prop_oneof![
        4 => card().prop_map(Entry::Card),
        1 => prop::sample::select(Color::ALL.to_vec()).prop_map(Entry::Marker),
    ]
}

fn position() -> impl Strategy<Value = Layout> {
    (
        prop::collection::vec(card(), 0..40),
        any::<bool>(),
        prop::collection::vec(entry(), 1..8),
        prop::collection::vec(prop::collection::vec(card(), 0..8), 1..8),
    )
        .prop_filter_map("valid", |(deck, end, mut discard, hands)| {
            if end {
                discard.insert(0, Entry::End);
            }
            Layout::new(deck, discard, hands).ok()
        })
}

/// Bytes that are mostly the format's own characters, so the parser gets past the first card.
fn uno_bytes() -> impl Strategy<Value = Vec<u8>> {
    let alphabet: Vec<u8> = b"rgbyw-0123456789sd,;\n\r,;,;x ".to_vec();
    prop_oneof![prop::collection::vec(prop::sample::select(alphabet), 0..60), prop::collection::vec(any::<u8>(), 0..60),]
}

/// The position a hands file can show: empty lines at its end are not players, so an empty
/// last hand (a game the last player won) reads back without it.
fn as_files_show(p: &Layout) -> Layout {
    let mut hands = p.hands().to_vec();
    while hands.len() > 1 && hands.last().is_some_and(Vec::is_empty) {
        hands.pop();
    }
    Layout::new(p.deck().to_vec(), p.discard().to_vec(), hands).unwrap_or_else(|_| p.clone())
}

fn cards_in(p: &Layout) -> usize {
    p.deck().len()
        + p.discard().iter().filter(|e| e.card().is_some()).count()
        + p.hands().iter().map(Vec::len).sum::<usize>()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn write_then_read_gives_the_same_position(p in position()) {
        let again = Layout::parse(
            p.write_deck().as_bytes(),
            p.write_discard().as_bytes(),
            p.write_hands().as_bytes(),
        );
        prop_assert_eq!(again.ok(), Some(as_files_show(&p)).filter(|p| p.hands().iter().any(|h| !h.is_empty())));
    }

    #[test]
    fn no_input_makes_the_parser_panic(d in uno_bytes(), x in uno_bytes(), h in uno_bytes()) {
        if let Ok(p) = Layout::parse(&d, &x, &h) {
            // Whatever was accepted is canonical after one write.
            let again = Layout::parse(
                p.write_deck().as_bytes(),
                p.write_discard().as_bytes(),
                p.write_hands().as_bytes(),
            );
            prop_assert_eq!(again, Ok(p.clone()));
            for op in Operation::ALL {
                let _ = run(op, &p);
            }
        }
    }

    #[test]
    fn operations_end_conserve_cards_and_respect_their_turn_counts(p in position()) {
        let total = cards_in(&p);
        let bound = total + p.deck().len() + 1;
        for op in Operation::ALL {
            let out = run(op, &p);
            prop_assert_eq!(cards_in(&out.position), total);
            prop_assert!(out.steps.len() <= bound);
            match op {
                Operation::OnePlayerOneMove => prop_assert!(out.steps.len() <= 1),
                Operation::ManyPlayersOneMove => {
                    prop_assert!(out.steps.len() <= p.hands().len());
                }
                _ => prop_assert!(!matches!(out.stop, Stop::TurnsTaken)),
            }
            // Hands other than the first never change in the one-player operations.
            if op.is_one_player() {
                prop_assert_eq!(&out.position.hands()[1..], &p.hands()[1..]);
            }
            // The result is itself a valid position that writes and reads back.
            let again = Layout::parse(
                out.position.write_deck().as_bytes(),
                out.position.write_discard().as_bytes(),
                out.position.write_hands().as_bytes(),
            );
            let shown = as_files_show(&out.position);
            prop_assert_eq!(again.ok(), Some(shown).filter(|p| p.hands().iter().any(|h| !h.is_empty())));
        }
    }
}
