//! The rating model against the stored bot rounds (`tests/data/bot-rounds.txt`, made by
//! `examples/bot_rounds.rs`): the published beta, the bots' levels and the calibration are what
//! the data give, so a change to the model or the data that moves them fails here.
use league::bots::BOT_LEVELS;
use league::fit::{self, BotGame, DataError};
use league::rating::{DEFAULT_BETA, FITTED_BETA};
use league::Model;

const BOTS: usize = 4;
const LEAGUE: usize = 200;

fn rounds() -> Vec<BotGame> {
    let text = include_str!("data/bot-rounds.txt");
    let games = fit::parse_games(text, BOTS).expect("the stored rounds parse");
    assert_eq!(games.len(), 20_000);
    games.iter().map(BotGame::winner_only).collect()
}

#[test]
fn the_stored_rounds_refit_to_the_published_beta() {
    let beta = fit::fit_beta(&rounds(), LEAGUE, 1.0, 400.0).expect("fits");
    assert!((beta / FITTED_BETA - 1.0).abs() < 0.01, "refitted {beta}, published {FITTED_BETA}");
}

#[test]
fn the_fitted_beta_predicts_winners_better_than_the_default_and_than_chance() {
    let games = rounds();
    let score = |beta: f64| fit::log_score(&Model::with_beta(beta).expect("valid"), &games, LEAGUE).expect("scores");
    let (fitted, default, uniform) = (score(FITTED_BETA), score(DEFAULT_BETA), 0.25f64.ln());
    assert!(fitted > default + 0.005, "fitted {fitted}, default {default}");
    assert!(fitted > uniform + 0.005, "fitted {fitted}, uniform {uniform}");
    // The optimum: a little either way is worse.
    assert!(fitted > score(FITTED_BETA * 0.7) && fitted > score(FITTED_BETA * 1.4));
}

#[test]
fn predicted_win_chances_match_measured_ones_in_bins() {
    let games = rounds();
    let edges = [0.0, 0.15, 0.18, 0.21, 0.24, 0.27, 0.30, 0.35, 1.0];
    let worst = |beta: f64| {
        let bins = fit::calibration(&Model::with_beta(beta).expect("valid"), &games, LEAGUE, &edges).expect("bins");
        let counted: usize = bins.iter().map(|b| b.count).sum();
        assert_eq!(counted, games.len() * BOTS, "every prediction is in a bin");
        bins.iter().filter(|b| b.count >= 1000).map(|b| (b.measured - b.predicted).abs()).fold(0.0, f64::max)
    };
    let (fitted, default) = (worst(FITTED_BETA), worst(DEFAULT_BETA));
    assert!(fitted < 0.025, "fitted: a bin off by {fitted}");
    assert!(default > 0.08, "default: the worst bin off by only {default}");
}

#[test]
fn the_bots_published_levels_are_what_the_rating_code_measures() {
    let games = rounds();
    let shares = fit::win_shares(&games);
    assert!(shares.windows(2).all(|w| w[0] < w[1]), "the bots win in their order of strength: {shares:?}");
    let end = fit::league(&Model::FITTED, &games, BOTS, |_, _, _| {}).expect("rates");
    for (level, measured) in BOT_LEVELS.iter().zip(&end) {
        let (published, now) = (level.rating.mean(), measured.mean());
        assert!((published - now).abs() < 0.01, "{}: published {published}, measured {now}", level.name.as_str());
        assert!((level.rating.deviation() - measured.deviation()).abs() < 0.01);
    }
    assert!(end.windows(2).all(|w| w[0].mean() < w[1].mean()));
}

#[test]
fn four_bots_are_ordered_only_after_thousands_of_rounds() {
    let order = fit::games_to_order(&Model::FITTED, &rounds(), 40, &[500, 40_000], 7).expect("runs");
    let (early, late) = (order.correct[0].1, order.correct[1].1);
    assert!(early < 0.7, "after 500 rounds {early}");
    assert!(late >= 0.9, "after 40,000 rounds {late}");
}

#[test]
fn bad_data_is_refused_with_its_line() {
    let bad = |text: &str| fit::parse_games(text, BOTS).expect_err("refused");
    assert!(matches!(bad("1 2 3 4\n1 2 3\n"), DataError::Line { line: 2, .. }));
    assert!(matches!(bad("# a comment\n1 1 3 4\n"), DataError::Line { line: 2, .. }));
    assert!(matches!(bad("1 2 3 0\n"), DataError::Line { line: 1, .. }));
    assert!(matches!(bad("1 2 3 5\n"), DataError::Line { line: 1, .. }));
    assert!(matches!(bad("1 2 x 4\n"), DataError::Line { line: 1, .. }));
    assert_eq!(bad("# nothing\n"), DataError::Empty);
    let one = fit::parse_games("2 1 4 3 # a comment\n", BOTS).expect("parses");
    assert_eq!(one[0].winner(), 1);
}
