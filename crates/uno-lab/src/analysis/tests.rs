use super::*;
use uno::Rules;

/// Plays a whole round with heuristic bots and records it.
fn recorded(preset: &str, players: usize, seed: u64) -> GameRecord {
    let rules = Rules::preset(preset).expect("preset");
    let mut record = GameRecord::new(&rules, players, seed);
    let mut game = record.start().expect("deal");
    let mut bots: Vec<HeuristicBot> = (0..players).map(|s| HeuristicBot::new(seed + s as u64)).collect();
    while !game.is_round_over() {
        let seat = game.current();
        let action = bots[seat.index()].choose_view(&game.view(seat));
        game.apply(seat, action).expect("legal");
        record.push(seat, action);
    }
    record
}

fn config(seat: u8, samples: u32) -> AnalysisConfig {
    AnalysisConfig { seat: Seat(seat), samples, seed: 7, mistake: 0.05, deadline: None }
}

#[test]
fn the_same_record_seed_and_samples_give_the_same_numbers() {
    let record = recorded("official", 3, 11);
    let a = analyse(&record, &config(0, 24), &|_, _| {}).expect("analysis");
    let b = analyse(&record, &config(0, 24), &|_, _| {}).expect("analysis");
    assert!(!a.decisions.is_empty());
    assert_eq!(a, b);
    for d in &a.decisions {
        assert!(d.values.len() > 1);
        assert!(d.values.windows(2).all(|w| w[0].win >= w[1].win), "best first");
        assert!(d.values.iter().any(|v| v.action == d.chosen));
        assert!(d.loss >= 0.0 && d.loss <= 1.0);
    }
    assert!(a.skill <= 0.0);
    // One round, seen to its end: result − first chance = skill + luck.
    assert_eq!(a.rounds.len(), 1);
    let round = &a.rounds[0];
    let result = f64::from(u8::from(round.won.expect("the round ended")));
    let luck = round.luck.expect("luck of an ended round");
    assert!((result - round.first - (round.skill + luck)).abs() < 1e-9);
    assert!((a.skill - round.skill).abs() < 1e-12 && (a.luck - luck).abs() < 1e-12);
    for d in a.decisions.iter().filter(|d| d.mistake) {
        assert!(d.loss >= 0.05 && d.loss_ci95[0] > 0.0);
    }
}

#[test]
fn the_seed_is_written_as_a_string_so_a_page_keeps_every_digit() {
    let record = recorded("official", 2, 3);
    let config = AnalysisConfig { seed: u64::MAX - 58, ..config(0, 2) };
    let a = analyse(&record, &config, &|_, _| {}).expect("analysis");
    let json = serde_json::to_value(&a).expect("json");
    assert_eq!(json["seed"], "18446744073709551557", "{}", json["seed"]);
}

/// A position with one obviously winning move: going out ranks first, at a certain win.
#[test]
fn going_out_ranks_first() {
    // Recorded games are searched for a decision where one action (of several) ends the
    // round; the record is cut there with that action chosen.
    for seed in 1..200 {
        let record = recorded("official", 2, seed);
        let mut game = record.start().expect("deal");
        for (index, m) in record.actions.iter().enumerate() {
            let seat = m.seat;
            let legal = game.legal_actions_for(seat);
            let going_out: Option<Action> = legal.iter().copied().find(|&a| {
                let mut g = game.clone();
                g.apply(seat, a).is_ok() && g.is_round_over() && g.round_winner() == Some(seat)
            });
            if let (Some(out), true) = (going_out, legal.len() > 1) {
                let mut cut = record.clone();
                cut.actions.truncate(index + 1);
                cut.actions[index].action = out;
                let analysis = analyse(&cut, &config(seat.0, 16), &|_, _| {}).expect("analysis");
                let last = analysis.decisions.last().expect("a decision");
                assert_eq!(last.ply, index);
                assert_eq!(last.values[0].action, out, "{:?}", last.values);
                assert_eq!(last.values[0].win, 1.0);
                assert_eq!(last.loss, 0.0);
                assert_eq!(analysis.rounds.last().and_then(|r| r.won), Some(true));
                return;
            }
            game.apply(seat, m.action).expect("legal");
        }
    }
    panic!("no recorded game offered a way out among other actions");
}

/// The value network's analysis values the same decisions as the playouts', with chances
/// in 0..1; an action that draws nothing into the seat's hand has one value in every
/// world (a zero-width interval), and going out ranks first at a certain win.
#[test]
fn the_value_network_values_the_same_decisions() {
    let net = uno_nn::shipped_value();
    let record = recorded("official", 4, 11);
    let played = analyse(&record, &config(0, 8), &|_, _| {}).expect("analysis");
    let valued = analyse_with_value(&record, &config(0, 64), &net, &|_, _| {}, &|| false).expect("analysis");
    assert_eq!(valued, analyse_with_value(&record, &config(0, 64), &net, &|_, _| {}, &|| false).expect("again"));
    assert_eq!(played.decisions.len(), valued.decisions.len());
    assert!(!valued.decisions.is_empty());
    // Each says how it was made, and `analyse_with` is the same analysis by its method's name.
    assert_eq!((played.method, valued.method), (Method::Playouts, Method::Value));
    let by_name = analyse_with(&record, &config(0, 64), Method::Value, &|_, _| {}, &|| false).expect("analysis");
    assert_eq!(by_name, valued);
    assert_eq!(serde_json::to_value(valued.method).expect("json"), "value");
    for (p, v) in played.decisions.iter().zip(&valued.decisions) {
        assert_eq!((p.ply, p.chosen), (v.ply, v.chosen));
        assert_eq!(p.values.len(), v.values.len());
        assert!(v.values.windows(2).all(|w| w[0].win >= w[1].win), "best first");
        for value in &v.values {
            assert!((0.0..=1.0).contains(&value.win), "{value:?}");
            if matches!(value.action, Action::Play { .. }) {
                // A play draws nothing into the seat's hand: one value in every world.
                assert_eq!(value.ci95[0], value.ci95[1], "{value:?}");
            }
        }
    }
    // A draw is valued over the cards it could bring: a spread where the pile holds both
    // good and bad cards.
    assert!(valued
        .decisions
        .iter()
        .flat_map(|d| &d.values)
        .any(|v| matches!(v.action, Action::Draw) && v.ci95[1] > v.ci95[0]));
    let round = &valued.rounds[0];
    let result = f64::from(u8::from(round.won.expect("ended")));
    assert!((result - round.first - (round.skill + round.luck.expect("luck"))).abs() < 1e-9);
}

/// One world per action can show no spread: no mistake is marked from it, and a value's
/// interval is Wilson's (never a point at 0% or 100%).
#[test]
fn single_playouts_mark_no_mistake_and_keep_wide_intervals() {
    let record = recorded("official", 3, 11);
    let a = analyse(&record, &config(0, 1), &|_, _| {}).expect("analysis");
    assert!(!a.decisions.is_empty());
    assert!(a.decisions.iter().all(|d| !d.mistake));
    for v in a.decisions.iter().flat_map(|d| &d.values) {
        assert!(v.ci95[1] - v.ci95[0] > 0.5, "{v:?}");
    }
}

#[test]
fn bad_requests_are_refused() {
    let record = recorded("official", 2, 3);
    assert!(matches!(
        analyse(&record, &config(5, 8), &|_, _| {}),
        Err(AnalysisError::NoSuchSeat { seat: 5, players: 2 })
    ));
    assert!(matches!(analyse(&record, &config(0, 0), &|_, _| {}), Err(AnalysisError::Samples(0))));
    let mut broken = record.clone();
    broken.actions.swap(0, 1);
    assert!(analyse(&broken, &config(0, 8), &|_, _| {}).is_err());
    let past = AnalysisConfig { deadline: Some(std::time::Instant::now()), ..config(0, 8) };
    assert!(matches!(analyse(&record, &past, &|_, _| {}), Err(AnalysisError::OutOfTime { done: 0, .. })));
}

/// `stop` is asked between worlds: answering true after some worlds stops the analysis
/// there, and the worlds asked about are exactly those played until then.
#[test]
fn a_stop_is_heeded_between_worlds() {
    let record = recorded("official", 2, 3);
    let asked = std::cell::Cell::new(0_u32);
    let stop = || {
        asked.set(asked.get() + 1);
        asked.get() > 5
    };
    let got = analyse_until(&record, &config(0, 100), &|_, _| {}, &stop);
    assert!(matches!(got, Err(AnalysisError::Stopped { done: 0, .. })), "{got:?}");
    assert_eq!(asked.get(), 6);
    // Never asked to stop: the same numbers as `analyse`.
    let whole = analyse_until(&record, &config(0, 8), &|_, _| {}, &|| false).expect("analysis");
    assert_eq!(whole, analyse(&record, &config(0, 8), &|_, _| {}).expect("analysis"));
}

/// The deadline is checked inside the work, not only between actions: a playout of a long
/// round (the largest deck the engine plays, hands as large as it deals) stops within a few of its steps
/// once the deadline passes, rather than after the action's every world.
#[test]
fn a_deadline_stops_the_work_inside_a_playout() {
    let mut rules = uno::rules::preset_config("official").expect("preset");
    rules.deck = uno::RulesConfig::deck_from_counts(8, 8, 16);
    rules.deal.hand_size = uno::rules::MAX_HAND_SIZE;
    rules.scoring.target = None;
    let record = GameRecord {
        engine_version: uno::ENGINE_VERSION.into(),
        rules,
        players: 2,
        seed: 5,
        start: None,
        actions: Vec::new(),
    };
    let mut game = record.replay().expect("a long deal");
    let mut record = record;
    // Two plies, so seat 0 has a decision to analyse.
    for _ in 0..2 {
        let seat = game.current();
        let action = game.legal_actions_for(seat)[0];
        game.apply(seat, action).expect("legal");
        record.actions.push(uno::Move { seat, action });
    }
    let seat = record.actions[0].seat;
    let limit = std::time::Duration::from_millis(50);
    let start = std::time::Instant::now();
    let config = AnalysisConfig { seat, samples: 2_000, seed: 1, mistake: 0.05, deadline: Some(start + limit) };
    let got = analyse(&record, &config, &|_, _| {});
    let took = start.elapsed();
    assert!(matches!(got, Err(AnalysisError::OutOfTime { .. })), "{got:?}");
    assert!(took < limit * 20, "stopped {took:?} after a deadline of {limit:?}");
}
