//! `tabletop duel`: play Duel (seed 001) in the terminal, simulate bot against bot, benchmark
//! the search.

mod play;

use std::io::{self, Write};
use std::num::NonZeroUsize;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use duel::sim::{simulate_one, SimConfig, Tally};
use duel::{
    Bot, BotKind, Difficulty, DuelError, DuelGame, SearchBot, SetupMode, Side, Stage, DEFAULT_HEIGHT, DEFAULT_WIDTH,
};
use rayon::prelude::*;

use crate::output::{self, Out};
use crate::sim_run;

#[derive(clap::Subcommand)]
pub enum DuelCommand {
    /// Play Duel in the terminal: you are red, the computer is black.
    ///
    /// Setup: type a cell and a key, e.g. `c3 b` (round 1, blocks), `a6 5` (round 2, your
    /// red pieces) and `b1 4` (round 3, black pieces); `next` proceeds to the next round.
    /// Play: type a red piece's cell and w (up), a (left), s (down) or d (right), e.g. `a6 w`;
    /// a cell alone selects the piece and the key can follow on the next line. `end` ends the
    /// play stage. Cells are a column letter and a row number, a1 at the top left.
    Play(PlayArgs),
    /// Simulate bot against bot from seeded random setups and report wins, draws and losses.
    ///
    /// Bots: random, greedy (best immediate capture, else a random move), search (default
    /// difficulty, hard) or search:easy|medium|hard|expert. The last line is
    /// `games=G red_score=X black_score=Y` (win 1, draw ½, loss 0; the round cap is a draw).
    /// Results depend only on the arguments, not on the number of threads.
    Sim(SimArgs),
    /// Measure the search: nodes per second and time per move at each difficulty, on
    /// positions from random games.
    Bench(BenchArgs),
}

#[derive(clap::Args)]
pub struct PlayArgs {
    /// Grid width (1-26).
    #[arg(long, default_value_t = DEFAULT_WIDTH, value_parser = grid_side)]
    width: u8,
    /// Grid height (1-26).
    #[arg(long, default_value_t = DEFAULT_HEIGHT, value_parser = grid_side)]
    height: u8,
    /// The computer's strength: easy, medium, hard or expert.
    #[arg(long, default_value = "hard")]
    difficulty: Difficulty,
}

#[derive(clap::Args)]
pub struct SimArgs {
    /// The bot playing red (moves first).
    #[arg(long, default_value = "random")]
    red: BotKind,
    /// The bot playing black (must attack when it can).
    #[arg(long, default_value = "search")]
    black: BotKind,
    /// Number of games, at least 1.
    #[arg(long, default_value_t = 100, value_parser = sim_run::parse_games)]
    games: u64,
    /// Seed of the run: the setups and every bot's random choices follow from it.
    #[arg(long, default_value_t = 1, value_parser = crate::sim_run::parse_seed)]
    seed: u64,
    /// Grid width (1-26).
    #[arg(long, default_value_t = DEFAULT_WIDTH, value_parser = grid_side)]
    width: u8,
    /// Grid height (1-26).
    #[arg(long, default_value_t = DEFAULT_HEIGHT, value_parser = grid_side)]
    height: u8,
    /// A game still running after this many rounds is a draw.
    #[arg(long, default_value_t = 200, value_parser = |s: &str| sim_run::parse_count(s).and_then(|n| u32::try_from(n).map_err(|_| "too many rounds".to_string())))]
    max_rounds: u32,
    /// mirrored: same ranks, black's cells the mirror image of red's, symmetric blocks;
    /// random: independent armies.
    #[arg(long, default_value = "mirrored")]
    setup: SetupMode,
    /// Worker threads (default and maximum: the number of cores; the results do not depend on it).
    #[arg(long, value_parser = sim_run::parse_threads)]
    threads: Option<NonZeroUsize>,
    /// Write the results as JSON to this file instead of the table; `-`: to standard output.
    #[arg(long, value_name = "FILE")]
    json: Option<std::path::PathBuf>,
}

#[derive(clap::Args)]
pub struct BenchArgs {
    /// Number of positions searched at each difficulty.
    #[arg(long, default_value_t = 100, value_parser = sim_run::parse_count)]
    positions: u64,
    /// Seed of the positions.
    #[arg(long, default_value_t = 1, value_parser = crate::sim_run::parse_seed)]
    seed: u64,
    /// Grid width (1-26).
    #[arg(long, default_value_t = DEFAULT_WIDTH, value_parser = grid_side)]
    width: u8,
    /// Grid height (1-26).
    #[arg(long, default_value_t = DEFAULT_HEIGHT, value_parser = grid_side)]
    height: u8,
}

/// `--width` and `--height`: 1 to 26 cells (the columns are the letters a to z).
fn grid_side(text: &str) -> Result<u8, String> {
    match text.parse::<u8>() {
        Ok(n) if (1..=26).contains(&n) => Ok(n),
        _ => Err(format!("a grid side is 1 to 26 cells (got '{}')", text.chars().take(16).collect::<String>())),
    }
}

pub fn run(cmd: DuelCommand) -> anyhow::Result<()> {
    match cmd {
        DuelCommand::Play(a) => {
            let stdin = io::stdin();
            play::play(&mut stdin.lock(), &mut Out::new(), &a)
        }
        DuelCommand::Sim(a) => sim(&a),
        DuelCommand::Bench(a) => bench(&a),
    }
}

/// Every Duel command's grid: at least one cell for each side (a 1x1 grid could never leave setup).
fn check_grid(width: u8, height: u8) -> anyhow::Result<()> {
    if usize::from(width) * usize::from(height) < 2 {
        bail!("a game needs at least 2 cells, one for each side (asked for {width}x{height})");
    }
    Ok(())
}

fn sim(a: &SimArgs) -> anyhow::Result<()> {
    if a.max_rounds == 0 {
        bail!("--max-rounds must be at least 1");
    }
    let cfg = SimConfig {
        red: a.red,
        black: a.black,
        seed: a.seed,
        width: a.width,
        height: a.height,
        max_rounds: a.max_rounds,
        setup: a.setup,
    };
    check_grid(a.width, a.height)?;
    // Fail early on a bad grid size rather than once per game.
    duel::sim::setup_for(&cfg, 0).map_err(anyhow::Error::new)?;
    let mut json_file = a.json.as_deref().map(|path| output::Target::open("--json", path)).transpose()?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(sim_run::threads(a.threads))
        .build()
        .context("starting worker threads")?;
    let progress = sim_run::Progress::new(a.games);
    let start = Instant::now();
    let results: Result<Vec<_>, DuelError> = pool.install(|| {
        (0..a.games)
            .into_par_iter()
            .map(|i| {
                let r = simulate_one(&cfg, i);
                progress.inc(1);
                r
            })
            .collect()
    });
    progress.finish();
    let results = results.map_err(anyhow::Error::new)?;
    let mut t = Tally::default();
    for r in &results {
        t.add(r);
    }
    let secs = start.elapsed().as_secs_f64();
    match &mut json_file {
        Some(target) => target.write(&(output::json_text(&sim_json(a, &t, secs))? + "\n")),
        None => Ok(output::print(&sim_table(a, &t, secs))?),
    }
}

/// Red's and black's score (win 1, draw ½) with its 95% interval.
fn side_scores(t: &Tally) -> [(f64, (f64, f64)); 2] {
    let n = t.games();
    let red = t.red_wins as f64 + 0.5 * t.draws as f64;
    let black = t.black_wins as f64 + 0.5 * t.draws as f64;
    [(t.red_score(), sim_run::wilson(red, n)), (t.black_score(), sim_run::wilson(black, n))]
}

fn sim_table(a: &SimArgs, t: &Tally, secs: f64) -> String {
    let mut s = format!(
        "Duel simulation: {} games, seed {}, {}x{} grid, {} setups, round cap {}\n",
        a.games, a.seed, a.width, a.height, a.setup, a.max_rounds
    );
    s += &format!(
        "{:<6} {:<14} {:>6} {:>6} {:>7} {:>8} {:>17}\n",
        "side", "bot", "wins", "draws", "losses", "score", "95% CI"
    );
    let [red, black] = side_scores(t);
    for (side, bot, wins, losses, (score, ci)) in
        [("red", a.red, t.red_wins, t.black_wins, red), ("black", a.black, t.black_wins, t.red_wins, black)]
    {
        s += &format!(
            "{:<6} {:<14} {:>6} {:>6} {:>7} {:>8} {:>17}\n",
            side,
            bot.to_string(),
            wins,
            t.draws,
            losses,
            sim_run::percent(score),
            sim_run::interval(ci)
        );
    }
    s += &format!("average rounds per game {:.1}; {secs:.1} s\n", t.rounds as f64 / t.games().max(1) as f64);
    s += &format!("games={} red_score={:.4} black_score={:.4}\n", t.games(), t.red_score(), t.black_score());
    s
}

fn sim_json(a: &SimArgs, t: &Tally, secs: f64) -> serde_json::Value {
    let [red, black] = side_scores(t);
    let side = |bot: BotKind, wins: u64, losses: u64, (score, (lo, hi)): (f64, (f64, f64))| {
        serde_json::json!({ "bot": bot.to_string(), "wins": wins, "draws": t.draws, "losses": losses,
            "score": score, "ci95": [lo, hi] })
    };
    serde_json::json!({
        "games": t.games(),
        // A decimal string, as every 64-bit seed the project writes in JSON (`seeding::wide`).
        "seed": a.seed.to_string(),
        "width": a.width,
        "height": a.height,
        "setup": a.setup.to_string(),
        "max_rounds": a.max_rounds,
        "rounds": t.rounds,
        "seconds": secs,
        "red": side(a.red, t.red_wins, t.black_wins, red),
        "black": side(a.black, t.black_wins, t.red_wins, black),
    })
}

fn bench(a: &BenchArgs) -> anyhow::Result<()> {
    if a.positions == 0 {
        bail!("--positions must be at least 1");
    }
    check_grid(a.width, a.height)?;
    let positions = bench_positions(a)?;
    if positions.is_empty() {
        // Zeros in every column would read as a search that costs nothing.
        bail!(
            "a {}x{} grid gives no position with black to move (the random games end before black moves): \
             try a larger grid",
            a.width,
            a.height
        );
    }
    let mut out = Out::new();
    writeln!(
        out,
        "Search benchmark: {} positions (black to move, from random games), {}x{} grid, seed {}",
        positions.len(),
        a.width,
        a.height,
        a.seed
    )?;
    writeln!(
        out,
        "{:<10} {:>10} {:>10} {:>10} {:>12} {:>11} {:>9}",
        "difficulty", "ms/move", "max ms", "nodes/move", "nodes/s", "node budget", "avg depth"
    )?;
    for d in Difficulty::ALL {
        writeln!(out, "{}", bench_row(d, &positions))?;
    }
    Ok(())
}

/// Positions with black to move, taken from random games a few rounds in.
fn bench_positions(a: &BenchArgs) -> anyhow::Result<Vec<duel::Board>> {
    let mut positions = Vec::new();
    let cfg = SimConfig {
        red: BotKind::Random,
        black: BotKind::Random,
        seed: a.seed,
        width: a.width,
        height: a.height,
        max_rounds: 200,
        setup: SetupMode::Mirrored,
    };
    let mut i = 0u64;
    while (positions.len() as u64) < a.positions && i < a.positions * 20 {
        let mut game = DuelGame::from_position(duel::sim::setup_for(&cfg, i).map_err(anyhow::Error::new)?);
        let plies = (seeding::duel_game_seed(a.seed, i) % 30) * 2 + 1;
        let mut red = BotKind::Random.build(seeding::duel_game_seed(a.seed, i) ^ 1);
        let mut black = BotKind::Random.build(seeding::duel_game_seed(a.seed, i) ^ 2);
        for p in 0..plies {
            if game.is_over() {
                break;
            }
            let bot: &mut dyn Bot = if p % 2 == 0 { red.as_mut() } else { black.as_mut() };
            game.bot_move(bot).map_err(anyhow::Error::new)?;
        }
        if matches!(game.stage(), Stage::Play { to_move: Side::Black, .. }) {
            positions.push(game.position().clone());
        }
        i += 1;
    }
    Ok(positions)
}

/// One difficulty's line of the benchmark: each position searched by a fresh bot.
fn bench_row(d: Difficulty, positions: &[duel::Board]) -> String {
    let mut total = Duration::ZERO;
    let mut max = Duration::ZERO;
    let (mut nodes, mut depth, mut searched) = (0u64, 0u64, 0u64);
    for p in positions {
        // A fresh bot per position: no table carried over, the worst case of a move.
        let mut bot = SearchBot::new(d);
        let t0 = Instant::now();
        bot.choose(p);
        let el = t0.elapsed();
        total += el;
        max = max.max(el);
        let info = bot.last_info();
        nodes += info.nodes;
        if info.nodes > 0 {
            depth += u64::from(info.depth);
            searched += 1;
        }
    }
    let n = positions.len().max(1) as f64;
    format!(
        "{:<10} {:>10.2} {:>10.2} {:>10.0} {:>12.0} {:>11} {:>9.1}",
        d.to_string(),
        total.as_secs_f64() * 1e3 / n,
        max.as_secs_f64() * 1e3,
        nodes as f64 / n,
        nodes as f64 / total.as_secs_f64().max(1e-9),
        d.limits().max_nodes,
        depth as f64 / searched.max(1) as f64
    )
}
