//! Weighs an IS-MCTS configuration against three `heuristic` bots and times its decisions:
//! `cargo run --release -p uno-lab --example ismcts_eval -- '{"iterations": 2000}' GAMES
//! [THREADS] [PRESET] [OPPONENT] [SEED]`. The IS-MCTS seat rotates with the game number, so every seat
//! is played equally often. Timings are per searched decision (forced moves and UNO calls are
//! answered without a search and left out) and per decision of any kind. With `KNOW_HANDS=1`
//! the search is told every other hand before each decision (not the draw pile): the ceiling
//! on what better inference about hidden cards could bring. With `GAMES_OUT=FILE` each game's
//! outcome is written to FILE; with `COMPARE=FILE` (another run's `GAMES_OUT`, on the same
//! games and seed) the difference in win share is measured game by game, with its 95% interval.

use std::sync::Arc;
use std::time::Instant;

use rayon::prelude::*;
use uno::{Game, Rules};
use uno_bots::{make_bot, Bot, IsmctsBot, IsmctsConfig};
use uno_lab::sim::wilson;

#[derive(Default, Clone)]
struct Tally {
    /// Seconds of each searched decision.
    times: Vec<f64>,
    /// Each game's number and whether the search won it.
    outcomes: Vec<(u64, bool)>,
    games: u64,
    wins: u64,
    decisions: u64,
    secs: f64,
    max_secs: f64,
    searches: u64,
    iterations: u64,
    resamples: u64,
    unfit: u64,
}

/// What every game of the run shares: the search's configuration, the rules, the opponents'
/// bot, the match seed, and whether the search is told the other hands.
struct Run {
    config: IsmctsConfig,
    rules: Arc<Rules>,
    opponent: String,
    match_seed: u64,
    know: bool,
}

impl Run {
    /// Game `g`, the search at seat `g % 4`: its tally.
    fn game(&self, g: u64) -> Tally {
        let seed = seeding::sim_game_seed(self.match_seed, g);
        let hero = (g % 4) as usize;
        let mut game = Game::new_fast(self.rules.clone(), 4, seed).expect("four seats fit");
        let mut search = IsmctsBot::new(self.config.clone(), seeding::sim_bot_seed(seed, hero));
        let mut others: Vec<Box<dyn Bot>> =
            (0..4).map(|s| make_bot(&self.opponent, seeding::sim_bot_seed(seed, s)).expect("checked above")).collect();
        let mut t = Tally { games: 1, ..Tally::default() };
        while !game.is_round_over() {
            let seat = game.current();
            if self.know && seat.index() == hero {
                // The ceiling experiment: the search is told every hand (not the pile).
                for o in uno::Seat::all(4).filter(|o| o.index() != hero) {
                    search.know_cards(o, game.hand(o).to_vec());
                }
            }
            let view = game.view(seat);
            let action = if seat.index() == hero {
                let start = Instant::now();
                let before = search.stats().searches;
                let a = search.choose_view(&view);
                let secs = start.elapsed().as_secs_f64();
                if search.stats().searches > before {
                    t.times.push(secs);
                }
                t.decisions += 1;
                t.secs += secs;
                t.max_secs = t.max_secs.max(secs);
                a
            } else {
                others[seat.index()].choose_view(&view)
            };
            game.apply(seat, action).expect("bots choose legal actions");
        }
        t.wins = u64::from(game.round_winner().map(|w| w.index()) == Some(hero));
        t.outcomes.push((g, t.wins == 1));
        let stats = search.stats();
        t.searches = stats.searches;
        t.iterations = stats.iterations;
        t.resamples = stats.resamples;
        t.unfit = stats.unfit;
        t
    }
}

impl Tally {
    /// Two tallies as one.
    fn add(a: Tally, b: Tally) -> Tally {
        Tally {
            times: [a.times, b.times].concat(),
            outcomes: [a.outcomes, b.outcomes].concat(),
            games: a.games + b.games,
            wins: a.wins + b.wins,
            decisions: a.decisions + b.decisions,
            secs: a.secs + b.secs,
            max_secs: a.max_secs.max(b.max_secs),
            searches: a.searches + b.searches,
            iterations: a.iterations + b.iterations,
            resamples: a.resamples + b.resamples,
            unfit: a.unfit + b.unfit,
        }
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let json = args.first().map_or("{}", String::as_str);
    let config: IsmctsConfig = serde_json::from_str(json)?;
    let games: u64 = args.get(1).map_or(Ok(200), |g| g.parse())?;
    let threads: usize = args.get(2).map_or(Ok(1), |t| t.parse())?;
    let rules = Arc::new(Rules::preset(args.get(3).map_or("official", String::as_str))?);
    let opponent = args.get(4).map_or("heuristic", String::as_str).to_string();
    make_bot(&opponent, 0)?;
    let match_seed: u64 = args.get(5).map_or(Ok(11), |s| s.parse())?;
    let know = std::env::var("KNOW_HANDS").is_ok();
    let run = Run { config, rules, opponent, match_seed, know };
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build()?;
    let t0 = Instant::now();
    let total = pool.install(|| (0..games).into_par_iter().map(|g| run.game(g)).reduce(Tally::default, Tally::add));
    if let Ok(path) = std::env::var("GAMES_OUT") {
        // One line a game, `number won`, for paired comparisons of two configurations on the
        // same games.
        let mut outcomes = total.outcomes.clone();
        outcomes.sort();
        let lines: String = outcomes.iter().map(|(g, w)| format!("{g} {}\n", u8::from(*w))).collect();
        std::fs::write(path, lines)?;
    }
    if let Ok(path) = std::env::var("COMPARE") {
        compare(&path, &total.outcomes)?;
    }
    report(json, &run, &total, t0.elapsed().as_secs_f64());
    Ok(())
}

/// Prints the run's line: the wins with their 95% interval, the search's timings and figures.
fn report(json: &str, run: &Run, total: &Tally, wall: f64) {
    let (lo, hi) = wilson(total.wins as f64, total.games);
    let mut times = total.times.clone();
    times.sort_by(f64::total_cmp);
    let quantile = |q: f64| {
        times.get(((times.len() as f64 * q) as usize).min(times.len().saturating_sub(1))).map_or(0.0, |t| 1e3 * t)
    };
    let search_ms = 1e3 * times.iter().sum::<f64>() / times.len().max(1) as f64;
    println!(
        "{} vs 3 {} ({}): wins {}/{} = {:.1}% [{:.1}, {:.1}]  ms/search {:.2} (p50 {:.1} p99 {:.1} max {:.1}) ms/decision {:.2} \
         searches {} iterations/search {:.0} resamples/iteration {:.2} unfit worlds/search {:.0}  wall {:.0}s",
        json,
        run.opponent,
        run.rules.name(),
        total.wins,
        total.games,
        100.0 * total.wins as f64 / total.games.max(1) as f64,
        100.0 * lo,
        100.0 * hi,
        search_ms,
        quantile(0.5),
        quantile(0.99),
        1e3 * total.max_secs,
        1e3 * total.secs / total.decisions.max(1) as f64,
        total.searches,
        total.iterations as f64 / total.searches.max(1) as f64,
        total.resamples as f64 / total.iterations.max(1) as f64,
        total.unfit as f64 / total.searches.max(1) as f64,
        wall
    );
}

/// Prints this run's win share less that of the run whose outcomes are in `path`, over the
/// games both played: the mean of the paired differences and its normal 95% interval.
fn compare(path: &str, outcomes: &[(u64, bool)]) -> Result<(), Box<dyn std::error::Error>> {
    let text = std::fs::read_to_string(path)?;
    let mut other = std::collections::HashMap::new();
    for line in text.lines() {
        let mut parts = line.split_whitespace();
        if let (Some(g), Some(w)) = (parts.next(), parts.next()) {
            other.insert(g.parse::<u64>()?, w == "1");
        }
    }
    let mut diff = uno_lab::duplicate::Moments::default();
    let mut changed = 0;
    for (g, won) in outcomes {
        if let Some(&then) = other.get(g) {
            let d = f64::from(u8::from(*won)) - f64::from(u8::from(then));
            changed += u32::from(d != 0.0);
            diff.add(d);
        }
    }
    let [lo, hi] = diff.ci95().unwrap_or([f64::NAN, f64::NAN]);
    println!(
        "against {path}: {:+.1} points (95% CI {:+.1} to {:+.1}) over {} games, {changed} ending differently",
        100.0 * diff.mean(),
        100.0 * lo,
        100.0 * hi,
        diff.n
    );
    Ok(())
}
