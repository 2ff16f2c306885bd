//! `tabletop uno match`: duplicate comparisons of bots. Every deal is played once per seating,
//! on the same seeds, and the statistics are taken over deals (`uno_bots::duplicate`).
//!
//! The last line is machine-readable: `deals=D games=G diff=X diff_lo=L diff_hi=H decision=…`.

use std::io::IsTerminal;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Context};
use uno_bots::duplicate::Estimate;
use uno_bots::{BotSpec, Decision, Format, MatchConfig, MatchResults, Sprt};

use crate::rules_arg::RulesArgs;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    rules: RulesArgs,
    /// The entrants, comma-separated, at least two: the first is the challenger, seated once,
    /// the others fill the other seats in turn (random, uniform, first, heuristic, precedence,
    /// ismcts, ismcts:ITERATIONS, ismcts:ITERATIONS:heuristic, ismcts:ITERATIONS:PLAYOUT:plays, flat,
    /// flat:PLAYOUTS).
    #[arg(long)]
    bots: String,
    /// Number of players (default: 4, or the nearest count the rules allow).
    #[arg(long)]
    players: Option<usize>,
    /// Deals to play (the most, with --until-decided); each is played once per seating.
    #[arg(long, default_value_t = 1000)]
    deals: u64,
    /// Seed of the whole match: the same seed gives the same results on any number of threads.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// rotate: the lineup turned through every seat; all-seatings: every permutation of it;
    /// round-robin (for at least as many bots as seats): every group of as many bots as seats,
    /// each turned through every seat, so that the ratings compare them all.
    #[arg(long, default_value = "rotate")]
    format: String,
    /// Worker threads (default and maximum: the number of cores; the results do not depend on it).
    #[arg(long, value_parser = crate::sim_run::parse_threads)]
    threads: Option<std::num::NonZeroUsize>,
    /// Stop as soon as a sequential test decides whether the first bot's win share beats the
    /// second's by --diff1 points (H1) or by at most --diff0 (H0).
    #[arg(long)]
    until_decided: bool,
    /// H0 of the sequential test: the first bot's win share less the second's, in points.
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    diff0: f64,
    /// H1 of the sequential test, in points (above --diff0).
    #[arg(long, default_value_t = 2.0, allow_negative_numbers = true)]
    diff1: f64,
    /// The sequential test's chance of accepting H1 when H0 holds.
    #[arg(long, default_value_t = 0.05)]
    alpha: f64,
    /// The sequential test's chance of accepting H0 when H1 holds.
    #[arg(long, default_value_t = 0.05)]
    beta: f64,
    /// Also write the results as JSON to this file (`-`: standard output).
    #[arg(long, value_name = "FILE")]
    json: Option<std::path::PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let rules = args.rules.load()?;
    let players = crate::uno_watch::player_count(&rules, args.players)?;
    let bots = args
        .bots
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.parse::<BotSpec>())
        .collect::<Result<Vec<_>, _>>()
        .context("--bots")?;
    if bots.len() < 2 {
        bail!("--bots: name at least two bots, comma-separated ({})", uno_bots::BOT_NAMES.join(", "));
    }
    let format: Format = args.format.parse().context("--format")?;
    let sprt = if args.until_decided {
        Some(Sprt::new(args.diff0 / 100.0, args.diff1 / 100.0, args.alpha, args.beta).context("--until-decided")?)
    } else {
        None
    };
    let config = MatchConfig {
        rules: Arc::new(rules),
        players,
        bots,
        format,
        deals: args.deals,
        seed: args.seed,
        threads: crate::sim_run::threads(args.threads),
        sprt,
    };
    let seatings = uno_bots::duplicate::check(&config)?;
    // The --json file is opened (so checked) before the run; `-` puts the JSON alone on stdout.
    let mut json_out = match &args.json {
        Some(path) if path.as_os_str() != "-" => Some(crate::uno_sim::JsonFile::open(path)?),
        _ => None,
    };
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new(config.deals);
        bar.set_style(
            indicatif::ProgressStyle::with_template(&format!(
                "{{bar:40}} {{pos}}/{{len}} deals ({} games each)  {{per_sec}}  eta {{eta}}",
                seatings.len()
            ))
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
    let results = uno_bots::play_match(&config, &progress)?;
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let Some(path) = &args.json else {
        crate::output::print(&table(&results))?;
        return Ok(());
    };
    let text = serde_json::to_string_pretty(&results)? + "\n";
    match &mut json_out {
        Some(file) => {
            file.write(&text).with_context(|| format!("cannot write {}", path.display()))?;
            Ok(crate::output::print(&table(&results))?)
        }
        None => Ok(crate::output::print(&text)?),
    }
}

fn pct(x: f64) -> String {
    format!("{:.2}", 100.0 * x)
}

fn interval(e: &Estimate, scale: f64) -> String {
    match e.ci95 {
        Some([lo, hi]) => format!("{:.2}–{:.2}", scale * lo, scale * hi),
        None => "-".to_string(),
    }
}

fn factor(e: &Estimate) -> String {
    e.variance_reduction.map_or_else(|| "-".to_string(), |f| format!("{f:.1}×"))
}

/// The per-entrant table, the head-to-head line, the test, and the machine-readable last line.
fn table(r: &MatchResults) -> String {
    let mut out = format!(
        "rules={} players={} format={} seed={} deals={} seatings={} games={}\n",
        r.rules,
        r.players,
        serde_json::to_value(r.format).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default(),
        r.seed,
        r.deals,
        r.seatings.len(),
        r.games
    );
    out += &format!(
        "{:<24} {:>10} {:>8} {:>7} {:>13} {:>9} {:>15} {:>9}\n",
        "bot", "seat-games", "wins", "win%", "95% CI", "mean pts", "95% CI", "vs indep."
    );
    for e in &r.entrants {
        out += &format!(
            "{:<24} {:>10} {:>8} {:>7} {:>13} {:>9.2} {:>15} {:>9}\n",
            e.bot,
            e.seat_games,
            e.wins,
            pct(e.win_share.mean),
            interval(&e.win_share, 100.0),
            e.mean_points.mean,
            interval(&e.mean_points, 1.0),
            factor(&e.win_share)
        );
    }
    let d = &r.difference;
    out += &format!(
        "{} − {}: {:+.2} points of win share (95% CI {}), {} fewer games than independent games\n",
        d.a,
        d.b,
        100.0 * d.win_share.mean,
        interval(&d.win_share, 100.0),
        factor(&d.win_share)
    );
    out += &format!("ratings (Plackett–Luce on who won, Elo scale, 95% CI over deals; {} games):\n", r.ratings.games);
    for rating in &r.ratings.ratings {
        let ci = rating.ci95.map_or_else(|| "-".to_string(), |[lo, hi]| format!("{lo:+.0} to {hi:+.0}"));
        out += &format!("  {:<24} {:>+6.0}  ({ci})\n", rating.bot, rating.elo);
    }
    if r.no_winner > 0 || r.stuck > 0 {
        out += &format!("no winner: {} (abandoned: {})\n", r.no_winner, r.stuck);
    }
    let decision = match &r.sprt {
        Some(s) => {
            let verdict = match s.decision {
                Decision::AcceptH0 => format!("H0: {} is not {:.2} points better", d.a, 100.0 * s.test.mu1),
                Decision::AcceptH1 => format!("H1: {} is at least {:.2} points better", d.a, 100.0 * s.test.mu1),
                Decision::Undecided => "undecided at the deal limit".to_string(),
            };
            out += &format!(
                "sequential test H0 ≤ {:.2} / H1 ≥ {:.2} points (alpha {}, beta {}): LLR {:.2} in [{:.2}, {:.2}] after {} deals: {verdict}\n",
                100.0 * s.test.mu0,
                100.0 * s.test.mu1,
                s.test.alpha,
                s.test.beta,
                s.llr,
                s.bounds[0],
                s.bounds[1],
                s.n
            );
            serde_json::to_value(s.decision).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
        }
        None => "none".to_string(),
    };
    let [lo, hi] = d.win_share.ci95.unwrap_or([f64::NAN, f64::NAN]);
    out += &format!(
        "deals={} games={} diff={:.4} diff_lo={:.4} diff_hi={:.4} decision={decision}\n",
        r.deals, r.games, d.win_share.mean, lo, hi
    );
    out
}
