use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::MultiTeamOutcome;

use super::*;

const DAY: u64 = 86_400_000;

fn placed(rating: Rating, place: u8) -> RatedSeat {
    RatedSeat::new(rating, Finish::Placed(Place::new(place).expect("valid")))
}

fn rating(mean: f64, deviation: f64) -> Rating {
    Rating::from_fields(RatingFields { mean, deviation, games: 3, last_played: Some(Time::from_millis(0)) })
        .expect("valid")
}

#[test]
fn an_update_is_the_crates_multi_team_form_with_each_seat_a_team() {
    let model = Model::FITTED;
    let rs = [rating(27.0, 5.0), rating(24.0, 7.0), rating(30.0, 3.0), rating(22.0, 8.0)];
    let places = [2usize, 1, 4, 3];
    let seats: Vec<RatedSeat> = rs.iter().zip(places).map(|(r, p)| placed(*r, p as u8)).collect();
    let ours = model.rate(&seats, Time::from_millis(0)).expect("valid");
    let teams: Vec<[WengLinRating; 1]> =
        rs.iter().map(|r| [WengLinRating { rating: r.mean(), uncertainty: r.deviation() }]).collect();
    let input: Vec<(&[WengLinRating], MultiTeamOutcome)> =
        teams.iter().zip(places).map(|(t, p)| (&t[..], MultiTeamOutcome::new(p))).collect();
    let theirs = weng_lin_multi_team(&input, &WengLinConfig { beta: FITTED_BETA, ..WengLinConfig::new() });
    for (o, t) in ours.iter().zip(&theirs) {
        assert!((o.mean() - t[0].rating).abs() < 1e-12);
        assert!((o.deviation() - t[0].uncertainty).abs() < 1e-12);
        assert_eq!(o.games(), 4);
        assert_eq!(o.last_played(), Some(Time::from_millis(0)));
    }
    // The winner gains, the last loses, everyone is surer.
    assert!(ours[1].mean() > rs[1].mean() && ours[2].mean() < rs[2].mean());
    assert!(ours.iter().zip(&rs).all(|(o, r)| o.deviation() < r.deviation()));
}

#[test]
fn leaving_counts_as_last_place() {
    let model = Model::FITTED;
    let now = Time::from_millis(5 * DAY);
    let r = Rating::newcomer();
    let left =
        model.rate(&[placed(r, 1), placed(r, 2), placed(r, 3), RatedSeat::new(r, Finish::Left)], now).expect("valid");
    let last = model.rate(&[placed(r, 1), placed(r, 2), placed(r, 3), placed(r, 4)], now).expect("valid");
    assert_eq!(left, last);
    // Two leavers tie for last, below the one who finished third.
    let two = model
        .rate(&[placed(r, 1), placed(r, 2), RatedSeat::new(r, Finish::Left), RatedSeat::new(r, Finish::Left)], now)
        .expect("valid");
    assert_eq!(two[2], two[3]);
    assert!(two[3].mean() < two[1].mean() && two[3].mean() < INITIAL_MEAN);
}

#[test]
fn refusals_are_named() {
    let model = Model::FITTED;
    let r = Rating::newcomer();
    let now = Time::default();
    assert_eq!(model.rate(&[placed(r, 1)], now), Err(RateError::Seats(1)));
    assert_eq!(model.rate(&vec![placed(r, 1); 11], now), Err(RateError::Seats(11)));
    assert_eq!(model.rate(&[placed(r, 1), placed(r, 3)], now), Err(RateError::PlaceOutOfRange { place: 3, seats: 2 }));
    assert_eq!(
        model.rate(&[RatedSeat::new(r, Finish::Left), RatedSeat::new(r, Finish::Left)], now),
        Err(RateError::NobodyFinished)
    );
    assert_eq!(Place::new(0), Err(RateError::PlaceZero));
    assert_eq!(Model::new(0.0, 1.0, 1.0), Err(RateError::BadModel));
    assert_eq!(Model::with_beta(f64::NAN), Err(RateError::BadModel));
    for (mean, deviation) in [(f64::NAN, 1.0), (25.0, 0.0), (25.0, 9.0), (f64::INFINITY, 1.0)] {
        let f = RatingFields { mean, deviation, games: 0, last_played: None };
        assert!(matches!(Rating::from_fields(f), Err(RateError::BadRating { .. })));
    }
    // Stored ratings are checked when read back.
    let bad = r#"{"mean":25.0,"deviation":-1.0,"games":0,"last_played":null}"#;
    assert!(serde_json::from_str::<Rating>(bad).is_err());
    assert!(serde_json::from_str::<Place>("0").is_err());
}

#[test]
fn ratings_round_trip_through_their_stored_form() {
    let r = rating(26.5, 4.25);
    let text = serde_json::to_string(&r).expect("valid");
    assert_eq!(text, r#"{"mean":26.5,"deviation":4.25,"games":3,"last_played":0}"#);
    assert_eq!(serde_json::from_str::<Rating>(&text).expect("valid"), r);
}

#[test]
fn deviation_grows_with_the_time_away_as_the_formula_says() {
    let model = Model::FITTED;
    let r = rating(30.0, 2.0);
    let after = |days: u64| model.at(&r, Time::from_millis(days * DAY)).deviation();
    assert_eq!(after(0), 2.0);
    for days in [1, 10, 100] {
        let want = (4.0 + FITTED_TAU.powi(2) * days as f64).sqrt().min(INITIAL_DEVIATION);
        assert!((after(days) - want).abs() < 1e-12, "{days} days");
    }
    // Never past a newcomer's; the mean never moves; no last game or a clock behind: no growth.
    assert_eq!(after(1_000_000), INITIAL_DEVIATION);
    assert_eq!(model.at(&r, Time::from_millis(1_000_000 * DAY)).mean(), 30.0);
    assert_eq!(model.at(&Rating::newcomer(), Time::from_millis(DAY)), Rating::newcomer());
    let later =
        Rating::from_fields(RatingFields { last_played: Some(Time::from_millis(9 * DAY)), ..r.into() }).expect("valid");
    assert_eq!(model.at(&later, Time::from_millis(DAY)).deviation(), 2.0);
}

/// A newcomer's 300 games at a table of three newcomers, placing 1st to 4th in turn.
fn settled(model: &Model) -> Rating {
    let mut me = Rating::newcomer();
    for g in 0..300u16 {
        let seats: Vec<RatedSeat> =
            (0..4u16).map(|s| placed(if s == 0 { me } else { Rating::newcomer() }, ((g + s) % 4 + 1) as u8)).collect();
        me = model.rate(&seats, Time::from_millis(u64::from(g) * 1000)).expect("valid")[0];
    }
    me
}

#[test]
fn a_settled_player_turns_provisional_after_about_ninety_days_away() {
    let model = Model::FITTED;
    let me = settled(&model);
    let last = me.last_played().expect("valid");
    assert!(!model.shown(&me, last).provisional, "settled after 300 games: σ {}", me.deviation());
    // τ is the formula of the module's docs: 90 days from this deviation to the threshold.
    let days = (PROVISIONAL_DEVIATION.powi(2) - me.deviation().powi(2)) / FITTED_TAU.powi(2);
    assert!((80.0..100.0).contains(&days), "{days} days");
    let away = |days: u64| model.shown(&me, last.plus(std::time::Duration::from_millis(days * DAY)));
    assert!(!away(75).provisional, "75 days");
    assert!(away(105).provisional, "105 days");
}

#[test]
fn a_newcomer_is_provisional_for_between_100_and_300_games() {
    let model = Model::FITTED;
    let mut me = Rating::newcomer();
    let mut settled_at = None;
    for g in 0..300u16 {
        let seats: Vec<RatedSeat> =
            (0..4u16).map(|s| placed(if s == 0 { me } else { Rating::newcomer() }, ((g + s) % 4 + 1) as u8)).collect();
        me = model.rate(&seats, Time::default()).expect("valid")[0];
        if settled_at.is_none() && !model.shown(&me, Time::default()).provisional {
            settled_at = Some(g + 1);
        }
    }
    let settled_at = settled_at.expect("settled within 300 games");
    assert!((100..300).contains(&settled_at), "settled after {settled_at} games");
    // The threshold is the formula of the module's docs at the fitted beta.
    let formula = 0.05 * std::f64::consts::SQRT_2 * FITTED_BETA / (1.96 * 0.1875);
    assert!((PROVISIONAL_DEVIATION - formula).abs() < 0.01, "{formula}");
}

#[test]
fn a_newcomer_shows_1500_provisionally() {
    let shown = Model::FITTED.shown(&Rating::newcomer(), Time::default());
    assert_eq!(shown, Shown { points: ShownPoints(1500), provisional: true });
}

#[test]
fn a_hundred_shown_points_mean_finishing_ahead_64_percent_of_the_time() {
    let model = Model::FITTED;
    let gap = 100.0 / model.points_per_mean();
    let (a, b) = (Rating::fixed(25.0 + gap, 1e-9), Rating::fixed(25.0, 1e-9));
    let now = Time::default();
    assert_eq!(model.shown(&a, now).points.0 - model.shown(&b, now).points.0, 100);
    let (p, _) = skillratings::weng_lin::expected_score(
        &WengLinRating { rating: a.mean(), uncertainty: a.deviation() },
        &WengLinRating { rating: b.mean(), uncertainty: b.deviation() },
        &WengLinConfig { beta: model.beta(), ..WengLinConfig::new() },
    );
    assert!((p - 0.640).abs() < 0.001, "{p}");
}

#[test]
fn win_chances_sum_to_one_and_favour_the_stronger() {
    let model = Model::FITTED;
    let c = model.win_chances(&[rating(30.0, 1.0), rating(25.0, 1.0), rating(25.0, 1.0)], Time::default());
    assert!((c.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    assert!(c[0] > c[1] && (c[1] - c[2]).abs() < 1e-12);
}

#[test]
fn pools_split_by_preset_and_table_size() {
    let official: PresetName = "official".parse().expect("valid");
    assert_eq!(Pool::of(official.clone(), 4).expect("valid"), Pool::of(official.clone(), 3).expect("valid"));
    assert_ne!(Pool::of(official.clone(), 2).expect("valid"), Pool::of(official.clone(), 4).expect("valid"));
    assert_eq!(Pool::of(official.clone(), 7).expect("valid").size, SizeGroup::Crowd);
    assert_eq!(Pool::of(official.clone(), 4).expect("valid").to_string(), "official/table");
    assert_eq!(Pool::of(official, 11), Err(PoolError::Seats(11)));
    for bad in ["", "Official", "a b", "x".repeat(65).as_str()] {
        assert_eq!(bad.parse::<PresetName>(), Err(PoolError::PresetName), "{bad:?}");
    }
}
