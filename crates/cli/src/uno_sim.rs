//! `tabletop uno sim`: many bot games, in parallel, with a table of wins, points and speed.
//!
//! The last line is machine-readable: `games=G games_per_sec=X turns_per_game=Y`.

use std::io::IsTerminal;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use uno_bots::{SimConfig, SimResults};

use crate::rules_arg::RulesArgs;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    rules: RulesArgs,
    /// Number of players (default: 4, or the nearest count the rules allow).
    #[arg(long)]
    players: Option<usize>,
    /// One bot for every seat, or a comma-separated list, one per seat
    /// (random, uniform, first, heuristic, precedence, ismcts, ismcts:ITERATIONS,
    /// ismcts:ITERATIONS:heuristic).
    #[arg(long, default_value = "random")]
    bots: String,
    /// Number of games (one round each).
    #[arg(long, default_value_t = 10_000)]
    games: u64,
    /// Seed of the whole run: the same seed gives the same results on any number of threads.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Check every action with the engine instead of trusting the bots (slower; all-random
    /// tables then play through the engine instead of the simulation kernel).
    #[arg(long)]
    checked: bool,
    /// Also write the full results as JSON to this file (`-`: standard output).
    #[arg(long, value_name = "FILE")]
    json: Option<std::path::PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let rules = args.rules.load()?;
    let players = crate::uno_watch::player_count(&rules, args.players)?;
    let names: Vec<String> = args.bots.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect();
    let bots = match names.len() {
        0 => bail!("--bots: name at least one bot ({})", uno_bots::BOT_NAMES.join(", ")),
        1 => vec![names[0].clone(); players],
        n if n == players => names,
        n => bail!("--bots: give one bot name, or one per seat ({n} names for {players} seats)"),
    };
    for b in &bots {
        uno_bots::make_bot(b, 0).context("--bots")?;
    }
    if args.threads == Some(0) {
        bail!("--threads must be at least 1");
    }
    let config = SimConfig {
        rules: Arc::new(rules),
        players,
        bots,
        games: args.games,
        seed: args.seed,
        threads: args.threads.unwrap_or(0),
        checked: args.checked,
    };
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new(config.games);
        bar.set_style(
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} games  {per_sec}  eta {eta}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar.enable_steady_tick(Duration::from_millis(200));
        bar
    });
    let progress = |n: u64| {
        if let Some(bar) = &bar {
            bar.inc(n);
        }
    };
    let start = Instant::now();
    let results = uno_bots::simulate(&config, &progress)?;
    let secs = start.elapsed().as_secs_f64();
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    if let Some(path) = &args.json {
        let mut value = serde_json::to_value(&results)?;
        if let Some(obj) = value.as_object_mut() {
            obj.insert("seconds".into(), serde_json::json!(secs));
            obj.insert("games_per_sec".into(), serde_json::json!(results.games as f64 / secs.max(1e-9)));
            obj.insert("turns_per_game".into(), serde_json::json!(results.turns_per_game()));
            let rates: Vec<_> = (0..results.seats.len())
                .map(|s| {
                    let (lo, hi) = results.win_rate_ci(s);
                    serde_json::json!({ "win_rate": results.win_rate(s), "ci95": [lo, hi] })
                })
                .collect();
            obj.insert("win_rates".into(), serde_json::json!(rates));
        }
        let text = serde_json::to_string_pretty(&value)?;
        if path.as_os_str() == "-" {
            println!("{text}");
        } else {
            std::fs::write(path, text + "\n").with_context(|| format!("cannot write {}", path.display()))?;
        }
    }
    print!("{}", table(&results, secs));
    Ok(())
}

/// The per-seat table and the machine-readable last line.
fn table(r: &SimResults, secs: f64) -> String {
    let games = r.games.max(1) as f64;
    let mut out = format!("rules={} players={} seed={}\n", r.rules, r.players, r.seed);
    out += &format!(
        "{:<5} {:<14} {:>10} {:>8} {:>17} {:>11} {:>10}\n",
        "seat", "bot", "wins", "win%", "95% CI", "mean pts", "turns/game"
    );
    for (s, seat) in r.seats.iter().enumerate() {
        let (lo, hi) = r.win_rate_ci(s);
        out += &format!(
            "{:<5} {:<14} {:>10} {:>7.2}% {:>7.2}%-{:>6.2}% {:>11.2} {:>10.2}\n",
            s,
            seat.bot,
            seat.wins,
            100.0 * r.win_rate(s),
            100.0 * lo,
            100.0 * hi,
            seat.points as f64 / games,
            seat.turns as f64 / games
        );
    }
    if r.no_winner > 0 {
        out += &format!("no winner (stalemate or turn cap): {}\n", r.no_winner);
    }
    if r.stuck > 0 || r.illegal > 0 {
        out += &format!("abandoned: {} (illegal actions: {})\n", r.stuck, r.illegal);
    }
    out += &format!(
        "games={} games_per_sec={:.0} turns_per_game={:.2}\n",
        r.games,
        r.games as f64 / secs.max(1e-9),
        r.turns_per_game()
    );
    out
}
