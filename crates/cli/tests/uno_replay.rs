//! `tabletop uno watch --record`, `uno replay` and `uno analyse` through the real binary: a
//! recorded game replays to the same events, a seat's replay never shows another seat's cards,
//! the analysis repeats exactly, and bad input is refused in words.

use std::process::Output;

mod common;

fn text(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn record(dir: &tempfile::TempDir, players: &str, seed: &str) -> (String, String) {
    let path = dir.path().join(format!("game-{seed}.json"));
    let path = path.to_str().expect("utf-8").to_string();
    let out =
        common::run(&["uno", "watch", "--players", players, "--seed", seed, "--bots", "heuristic", "--record", &path]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    (path, text(&out))
}

#[test]
fn a_recorded_game_replays_to_the_events_watched() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (path, watched) = record(&dir, "3", "4");
    let out = common::run(&["uno", "replay", &path, "--print"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // From above, the replay's event lines are exactly what was watched.
    let replay = text(&out);
    let replayed: Vec<&str> = replay.lines().filter(|l| !l.starts_with("--") && !l.starts_with("  ")).collect();
    let watched: Vec<&str> = watched.lines().collect();
    assert_eq!(replayed, watched);
}

#[test]
fn a_seat_sees_its_own_cards_and_only_counts_of_the_others() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (path, _) = record(&dir, "3", "5");
    let out = common::run(&["uno", "replay", &path, "--seat", "2"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let replay = text(&out);
    let mut own_draws = 0;
    for line in replay.lines() {
        if line.starts_with("  Player 1:") || line.starts_with("  Player 3:") {
            assert!(line.ends_with(" cards") || line.ends_with(" card"), "another hand shown: {line}");
        }
        if (line.starts_with("Player 1 draws") || line.starts_with("Player 3 draws")) && line.contains('(') {
            panic!("another seat's drawn cards shown: {line}");
        }
        if line.starts_with("Player 2 draws") && line.contains('(') {
            own_draws += 1;
        }
    }
    assert!(replay.contains("  Player 2 (you): "));
    assert!(own_draws > 0, "the seat's own draws name their cards");
}

#[test]
fn the_analysis_repeats_exactly_and_ranks_every_decision() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (path, _) = record(&dir, "2", "9");
    let run = || {
        let out = common::run(&["uno", "analyse", &path, "--seat", "1", "--samples", "20", "--json", "-"]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice::<serde_json::Value>(&out.stdout).expect("json alone on stdout")
    };
    let a = run();
    assert_eq!(a, run());
    let decisions = a["decisions"].as_array().expect("decisions");
    assert!(!decisions.is_empty());
    for d in decisions {
        let values = d["values"].as_array().expect("values");
        let wins: Vec<f64> = values.iter().map(|v| v["win"].as_f64().expect("win")).collect();
        assert!(wins.windows(2).all(|w| w[0] >= w[1]), "best first: {wins:?}");
        assert!(values.iter().any(|v| v["action"] == d["chosen"]));
    }
    let mut keys: Vec<&String> = a.as_object().expect("object").keys().collect();
    keys.sort();
    assert_eq!(
        keys,
        ["decisions", "luck", "method", "min_mistake_samples", "rounds", "samples", "seat", "seed", "skill"]
    );
    assert_eq!(a["method"], "playouts");

    let words = common::run(&["uno", "analyse", &path, "--seat", "1", "--samples", "20"]);
    let words = text(&words);
    assert!(words.contains("win chance after each decision:\n  "), "{words}");
    assert!(words.contains("round   1:"), "{words}");
}

#[test]
fn bad_records_and_seats_are_refused_in_words() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (path, _) = record(&dir, "2", "1");
    let err = |args: &[&str]| {
        let out = common::run(args);
        assert!(!out.status.success(), "{args:?} succeeded");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    assert!(err(&["uno", "replay", &path, "--seat", "3"]).contains("this game has seats 1 to 2, not 3"));
    assert!(err(&["uno", "analyse", &path, "--seat", "0"]).contains("this game has seats 1 to 2, not 0"));
    assert!(err(&["uno", "replay", "/no/such/record.json"]).contains("cannot read /no/such/record.json"));
    let junk = dir.path().join("junk.json");
    std::fs::write(&junk, "{\"players\": 2}").expect("write");
    assert!(err(&["uno", "replay", junk.to_str().expect("utf-8")]).contains("not a game record"));
    // A record whose actions were tampered with does not replay.
    let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("read")).expect("json");
    let actions = v["actions"].as_array_mut().expect("actions");
    actions.swap(0, 1);
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, v.to_string()).expect("write");
    assert!(err(&["uno", "replay", bad.to_str().expect("utf-8")]).contains("the record does not replay"));
    assert!(err(&["uno", "analyse", &path, "--seat", "1", "--samples", "0"]).contains("--samples"));
}
