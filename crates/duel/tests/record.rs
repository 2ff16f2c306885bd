//! A game's record replays it exactly: the same game, and the same events action by action.

use duel::{move_action, Action, Actor, Coord, Difficulty, DuelGame, Event, GameRecord, LoggedAction, RandomBot};

fn cell(s: &str) -> Coord {
    s.parse().expect("cell")
}

/// A 3x2 game set up and played by random bots for both sides, recorded as the server does.
fn played(seed: u64) -> (GameRecord, DuelGame, Vec<Vec<Event>>) {
    let (mut record, mut game) = GameRecord::new(3, 2, Difficulty::Easy, seed).expect("size");
    let mut live = Vec::new();
    let setup = [
        Action::place(cell("b1"), "b"),
        Action::NextRound,
        Action::place(cell("a2"), "1"),
        Action::NextRound,
        Action::place(cell("c2"), "2"),
        Action::NextRound,
    ];
    for action in setup {
        live.push(game.apply(action.clone()).expect("setup step"));
        record.actions.push(LoggedAction { by: Actor::User, action });
    }
    let mut bot = RandomBot::new(seed);
    for i in 0..40 {
        if game.is_over() {
            break;
        }
        let events = game.bot_move(&mut bot).expect("a move");
        let action = move_action(&events).expect("the events of a move");
        let by = if i % 2 == 0 { Actor::User } else { Actor::Computer };
        record.actions.push(LoggedAction { by, action });
        live.push(events);
    }
    (record, game, live)
}

#[test]
fn a_record_replays_the_game_and_its_events() {
    for seed in 0..8 {
        let (record, game, live) = played(seed);
        let mut replayed = Vec::new();
        let mut befores = 0;
        let again = record
            .replay_with_events(|before, logged, events| {
                // `before` is the game the action was applied to: applying it again gives the events.
                let mut g = before.clone();
                assert_eq!(g.apply(logged.action.clone()).expect("replays"), events);
                befores += 1;
                replayed.push(events.to_vec());
            })
            .expect("replays");
        assert_eq!(again, game, "seed {seed}");
        assert_eq!(replayed, live, "seed {seed}");
        assert_eq!(befores, record.actions.len());
        assert_eq!(record.replay().expect("replays"), game);
    }
}

#[test]
fn a_stored_header_and_log_line_read_as_before() {
    // The form the server has stored since Duel games were kept: a header without actions, and
    // one `{by, action}` per log line.
    // Its seed was a number then; it is written as a string now, and both read the same.
    let header = r#"{"engine":"duel 0.1.0","width":6,"height":5,"difficulty":"hard","seed":42}"#;
    let record: GameRecord = serde_json::from_str(header).expect("header");
    assert_eq!((record.width, record.height, record.seed, record.actions.len()), (6, 5, 42, 0));
    let now = r#"{"engine":"duel 0.1.0","width":6,"height":5,"difficulty":"hard","seed":"42"}"#;
    assert_eq!(serde_json::to_string(&record.header()).expect("json"), now);
    assert_eq!(serde_json::from_str::<GameRecord>(now).expect("header"), record);
    let line = r#"{"by":"computer","action":{"action":"move","cell":"c4","key":"w"}}"#;
    let logged: LoggedAction = serde_json::from_str(line).expect("log line");
    assert_eq!(logged, LoggedAction { by: Actor::Computer, action: Action::mv(cell("c4"), "w") });
    assert_eq!(serde_json::to_string(&logged).expect("json"), line);
}

#[test]
fn a_seed_above_2_pow_53_is_written_as_a_string_and_read_back_exactly() {
    // A random u64 is above 2^53 but for about one in 2,000: a JavaScript number would round it.
    let (mut record, game, _) = played(3);
    record.seed = u64::MAX - 58;
    let json = serde_json::to_value(&record).expect("json");
    assert_eq!(json["seed"], "18446744073709551557", "{json}");
    let back: GameRecord = serde_json::from_value(json.clone()).expect("back");
    assert_eq!(back, record);
    assert_eq!(back.replay().expect("replays"), game);
    // A record written before, its seed a number, reads the same.
    let mut old = json;
    old["seed"] = serde_json::json!(u64::MAX - 58);
    assert_eq!(serde_json::from_value::<GameRecord>(old).expect("old form"), record);
    for bad in [serde_json::json!(-1), serde_json::json!("x"), serde_json::json!(1.5)] {
        let mut wrong = serde_json::to_value(&record).expect("json");
        wrong["seed"] = bad.clone();
        assert!(serde_json::from_value::<GameRecord>(wrong).is_err(), "{bad}");
    }
}

#[test]
fn a_refused_action_names_its_place_in_the_log() {
    let (mut record, _, _) = played(1);
    record.actions.truncate(2);
    // Round 2 takes numbers only.
    record.actions.push(LoggedAction { by: Actor::User, action: Action::place(cell("a1"), "b") });
    let err = record.replay().expect_err("refused");
    assert!(matches!(err, duel::ReplayError::Refused { index: 2, by: Actor::User, .. }), "{err}");
}
