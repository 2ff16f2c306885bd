//! The Duel refusals the pages word (`web/refusals.js`), as the server answers them: one of
//! each kept for the browser test of their words in every language.

use crate::error::{ApiError, DuelRefusal};

/// One of every Duel refusal a page shows, as the server answers it (code, sentence, fields),
/// several values for the fields that vary in words (sides, directions, what a cell holds, a
/// limit of one). Kept in `tests/e2e/data/duel-refusals.json`: the browser test checks that the
/// pages word each one as the server does in English, and in their own words in the others.
fn duel_refusal_samples() -> Vec<ApiError> {
    use duel::{Coord, Dir, DuelError, Side};
    let c = Coord::new(2, 3);
    let mut all: Vec<ApiError> = vec![
        DuelError::NotBlockKey { key: "3".into() }.into(),
        DuelError::CellOccupied { cell: c, holds: "a block".into() }.into(),
        DuelError::CellOccupied { cell: c, holds: "a red 5".into() }.into(),
        DuelError::CellOccupied { cell: c, holds: "a black 1".into() }.into(),
        DuelError::TooManyOfRank { side: Side::Red, rank: 6, limit: 1 }.into(),
        DuelError::TooManyOfRank { side: Side::Black, rank: 2, limit: 2 }.into(),
        DuelError::NoRedPiece.into(),
        DuelError::NoBlackPiece.into(),
        DuelError::OutsideGrid { cell: c, width: 2, height: 2 }.into(),
        DuelError::BadCell { text: "zz".into() }.into(),
        DuelError::NotMoveKey { key: "q".into() }.into(),
        DuelError::NotOwnPiece { side: Side::Red, cell: c, holds: "nothing".into() }.into(),
        DuelError::NotOwnPiece { side: Side::Red, cell: c, holds: "a black 4".into() }.into(),
        DuelError::OntoBlock { cell: c, dir: Dir::Left }.into(),
        DuelError::MustAttack.into(),
        DuelError::SetupOver.into(),
        DuelError::NotPlaying.into(),
        DuelError::GameOver.into(),
        DuelError::BadSize { width: 0, height: 30 }.into(),
        DuelError::NoBotMove.into(),
        DuelRefusal::NoSuchGame("feedbeef".into()).into(),
        DuelRefusal::TooManyGames(20).into(),
        super::too_small_refusal(1, 1).into(),
    ];
    for side in [Side::Red, Side::Black] {
        all.push(DuelError::NotRankKey { side, key: "b".into() }.into());
        all.push(DuelError::TooManyPieces { side }.into());
        all.push(DuelError::NotTurnOf { side }.into());
        all.push(DuelError::OntoOwnPiece { cell: c, dir: Dir::Down, side }.into());
    }
    for dir in [Dir::Up, Dir::Left, Dir::Down, Dir::Right] {
        all.push(DuelError::OffGrid { cell: c, dir }.into());
    }
    all
}

#[test]
fn protocol_duel_refusal_samples_cover_every_error_and_are_kept_for_the_pages() {
    let samples = duel_refusal_samples();
    // serde names every variant when asked for one it lacks: each is sampled, but the one whose
    // sentence quotes a reason in English (a position file's), which the pages show as it is.
    let unknown = serde_json::from_value::<duel::DuelError>(serde_json::json!({"error": "?"}))
        .expect_err("no such variant")
        .to_string();
    let codes: Vec<&str> = samples.iter().map(ApiError::code).collect();
    for code in unknown.split('`').skip(3).step_by(2) {
        assert!(codes.contains(&code) || code == "bad_position", "{code} has no sample ({unknown})");
    }
    let bodies: Vec<serde_json::Value> = samples
        .iter()
        .map(|e| {
            let b = e.body();
            serde_json::json!({"code": b.code, "message": b.message, "fields": b.fields})
        })
        .collect();
    let want = serde_json::to_string_pretty(&bodies).expect("json") + "\n";
    let path = format!("{}/../../tests/e2e/data/duel-refusals.json", env!("CARGO_MANIFEST_DIR"));
    if std::env::var_os("UPDATE_PROTOCOL_TYPES").is_some() {
        std::fs::create_dir_all(format!("{}/../../tests/e2e/data", env!("CARGO_MANIFEST_DIR"))).expect("folder");
        std::fs::write(&path, &want).expect("write the samples");
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "tests/e2e/data/duel-refusals.json is not what the server answers: regenerate it with \
         UPDATE_PROTOCOL_TYPES=1 cargo test -p server --lib protocol"
    );
}
