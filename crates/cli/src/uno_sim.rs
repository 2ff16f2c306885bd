//! `tabletop uno sim`: many bot games, in parallel, with a table of wins, points and speed.
//!
//! The last line is machine-readable: `games=G games_per_sec=X turns_per_game=Y`.

use std::num::NonZeroUsize;
use std::sync::Arc;
use std::time::Instant;

use uno_bots::BotSpec;
use uno_lab::{SimConfig, SimResults};

use crate::rules_arg::RulesArgs;
use crate::{output, sim_run};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    rules: RulesArgs,
    /// Number of players (default: 4, or the nearest count the rules allow).
    #[arg(long, value_parser = crate::sim_run::parse_players)]
    players: Option<usize>,
    /// One bot for every seat, or a comma-separated list, one per seat.
    #[arg(long, help = crate::names::bots_help("One bot for every seat, or a comma-separated list, one per seat", ""), default_value = "random", value_delimiter = ',', value_parser = crate::names::bot(), hide_possible_values = true)]
    bots: Vec<BotSpec>,
    /// Number of games (one round each), at least 1.
    #[arg(long, default_value_t = 10_000, value_parser = sim_run::parse_games)]
    games: u64,
    /// Seed of the whole run: the same seed gives the same results on any number of threads.
    #[arg(long, default_value_t = 1, value_parser = crate::sim_run::parse_seed)]
    seed: u64,
    /// Worker threads (default and maximum: the number of cores; the results do not depend on it).
    #[arg(long, value_parser = sim_run::parse_threads)]
    threads: Option<NonZeroUsize>,
    /// Check every action with the engine instead of trusting the bots (slower; all-random
    /// tables then play through the engine instead of the simulation kernel).
    #[arg(long)]
    checked: bool,
    /// Write the full results as JSON to this file instead of the table; `-`: to standard
    /// output, alone. The file is opened before the run, so a bad path fails at once.
    #[arg(long, value_name = "FILE")]
    json: Option<std::path::PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let rules = args.rules.load()?;
    let players = crate::seats_arg::player_count(&rules, args.players)?;
    let bots = crate::bots_arg::per_seat(&args.bots, players)?;
    let mut json_out = args.json.as_deref().map(|path| output::Target::open("--json", path)).transpose()?;
    let config = SimConfig {
        rules: Arc::new(rules),
        players,
        bots: bots.iter().map(ToString::to_string).collect(),
        games: args.games,
        seed: args.seed,
        threads: sim_run::threads(args.threads),
        checked: args.checked,
    };
    let progress = sim_run::Progress::new(config.games);
    let start = Instant::now();
    let results = uno_lab::simulate(&config, &|n| progress.inc(n))?;
    let secs = start.elapsed().as_secs_f64();
    progress.finish();
    match &mut json_out {
        Some(target) => target.write(&(json(&results, secs)? + "\n")),
        None => Ok(output::print(&table(&results, secs))?),
    }
}

/// The results with their derived figures, as pretty JSON.
fn json(results: &SimResults, secs: f64) -> anyhow::Result<String> {
    let mut value = serde_json::to_value(results)?;
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
    output::json_text(&value)
}

/// The per-seat table and the machine-readable last line.
fn table(r: &SimResults, secs: f64) -> String {
    let games = r.games.max(1) as f64;
    let mut out = format!("rules={} players={} seed={}\n", r.rules, r.players, r.seed);
    // The bot column as wide as the longest name (14 at least): the table is 80 columns then.
    let w = r.seats.iter().map(|s| s.bot.chars().count()).max().unwrap_or(0).max(14);
    out += &format!(
        "{:<5} {:<w$} {:>10} {:>8} {:>17} {:>10} {:>10}\n",
        "seat", "bot", "wins", "win%", "95% CI", "mean pts", "turns/game"
    );
    for (s, seat) in r.seats.iter().enumerate() {
        let (lo, hi) = r.win_rate_ci(s);
        out += &format!(
            "{:<5} {:<w$} {:>10} {:>8} {:>17} {:>10.2} {:>10.2}\n",
            // Seats count from 1, as everywhere in the terminal.
            s + 1,
            seat.bot,
            seat.wins,
            sim_run::percent(r.win_rate(s)),
            sim_run::interval((lo, hi)),
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
