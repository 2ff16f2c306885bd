//! Fits the rating model's beta to stored bot rounds and prints every figure of
//! `docs/ratings.md`:
//!
//!     cargo run --release -p league --example ratings_fit -- crates/league/tests/data/bot-rounds.txt [LEAGUES]
//!
//! LEAGUES (default 1000): the simulated leagues behind the games-to-order figures.
use anyhow::Context;
use league::fit;
use league::rating::{DEFAULT_BETA, FITTED_BETA};
use league::{Model, Time};

const BOTS: [&str; 4] = ["random", "precedence", "heuristic", "net"];
/// Games per league in the fit and the calibration: a player's first 200 rated games.
const LEAGUE: usize = 200;
const EDGES: [f64; 9] = [0.0, 0.15, 0.18, 0.21, 0.24, 0.27, 0.30, 0.35, 1.0];

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).context("the rounds file")?;
    let leagues: usize = args.get(2).map_or(Ok(1000), |s| s.parse())?;
    let text = std::fs::read_to_string(path).with_context(|| path.clone())?;
    let by_points = fit::parse_games(&text, 4)?;
    // A round is rated by its winner alone (every loser tied second); the losers' order by the
    // points left in their hands is kept in the file for the comparison at the end.
    let games: Vec<fit::BotGame> = by_points.iter().map(fit::BotGame::winner_only).collect();
    println!("{} rounds", games.len());
    let shares = fit::win_shares(&games);
    for (b, s) in BOTS.iter().zip(&shares) {
        println!("  {b:<10} wins {:.2}%", 100.0 * s);
    }
    for len in [50, 100, LEAGUE, 500, 1000] {
        let beta = fit::fit_beta(&games, len, 1.0, 400.0)?;
        println!("fitted beta over leagues of {len:>4} games: {beta:.2}");
    }
    let fitted = Model::with_beta(FITTED_BETA)?;
    let default = Model::with_beta(DEFAULT_BETA)?;
    for (name, model) in [("fitted", &fitted), ("default", &default)] {
        let uniform = (0.25f64).ln();
        let score = fit::log_score(model, &games, LEAGUE)?;
        println!(
            "\n{name} beta {:.3}: mean log-probability of the winner {score:.5} (uniform {uniform:.5})",
            model.beta()
        );
        println!("  calibration (leagues of {LEAGUE}): predicted   measured   count   ±2 s.e.");
        for bin in fit::calibration(model, &games, LEAGUE, &EDGES)? {
            if bin.count > 0 {
                println!(
                    "  [{:.2}, {:.2})   {:>6.2}%   {:>6.2}%   {:>6}   {:.2}",
                    bin.low,
                    bin.high,
                    100.0 * bin.predicted,
                    100.0 * bin.measured,
                    bin.count,
                    200.0 * bin.standard_error()
                );
            }
        }
        let mut sigma = Vec::new();
        fit::league(model, &games[..1000], 4, |_, _, r| sigma.push(r[0].deviation()))?;
        println!(
            "  deviation after 10/30/100/300/1000 games: {:.2} {:.2} {:.2} {:.2} {:.2}",
            sigma[9], sigma[29], sigma[99], sigma[299], sigma[999]
        );
        let checkpoints: Vec<usize> = [500, 1000, 2000].into_iter().chain((1..=16).map(|i| i * 2500)).collect();
        let order = fit::games_to_order(model, &games, leagues, &checkpoints, 40)?;
        let curve: Vec<String> = order.correct.iter().map(|(n, share)| format!("{n}: {:.1}%", 100.0 * share)).collect();
        println!("  leagues ordered correctly after so many games: {}", curve.join(", "));
        println!("  95% from {:?} games on", order.games_for_95);
    }
    println!("\nbot levels (one league of every round, fitted beta):");
    let end = fit::league(&fitted, &games, 4, |_, _, _| {})?;
    let ml = fit::levels(&games, FITTED_BETA);
    for ((b, r), (m, se)) in BOTS.iter().zip(&end).zip(&ml) {
        let shown = fitted.shown(r, Time::default());
        println!(
            "  {b:<10} mean {:.3} deviation {:.3} shown {} (winners' log odds alone: {m:.3} ± {se:.3})",
            r.mean(),
            r.deviation(),
            shown.points.0
        );
    }
    let places = fit::league(&fitted, &by_points, 4, |_, _, _| {})?;
    println!("\nthe same, the losers placed by the points left in their hands:");
    for (b, r) in BOTS.iter().zip(&places) {
        println!("  {b:<10} mean {:.3} shown {}", r.mean(), fitted.shown(r, Time::default()).points.0);
    }
    Ok(())
}
