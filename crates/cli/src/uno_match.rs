//! `tabletop uno match`: duplicate comparisons of bots. Every deal is played once per seating,
//! on the same seeds, and the statistics are taken over deals (`uno_lab::duplicate`).
//!
//! The last line is machine-readable: `deals=D games=G diff=X diff_lo=L diff_hi=H decision=…`.

use std::io::IsTerminal;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Context};
use uno_bots::BotSpec;
use uno_lab::duplicate::Estimate;
use uno_lab::{Decision, Format, MatchConfig, MatchResults, Sprt};

use crate::rules_arg::RulesArgs;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    rules: RulesArgs,
    /// The entrants, comma-separated, at least two: the first is the challenger, seated once,
    /// the others fill the other seats in turn.
    #[arg(long, help = crate::names::bots_help("The entrants, comma-separated, at least two: the first is the challenger, seated once, the others fill the other seats in turn", ""), value_parser = crate::names::bot_list(), hide_possible_values = true)]
    bots: String,
    /// Number of players (default: 4, or the nearest count the rules allow).
    #[arg(long, value_parser = crate::sim_run::parse_players)]
    players: Option<usize>,
    /// Deals to play (the most, with --until-decided); each is played once per seating.
    #[arg(long, default_value_t = 1000, value_parser = parse_deals)]
    deals: u64,
    /// Seed of the whole match: the same seed gives the same results on any number of threads.
    #[arg(long, default_value_t = 1, value_parser = crate::sim_run::parse_seed)]
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
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true, value_parser = crate::sim_run::parse_points)]
    diff0: f64,
    /// H1 of the sequential test, in points (above --diff0).
    #[arg(long, default_value_t = 2.0, allow_negative_numbers = true, value_parser = crate::sim_run::parse_points)]
    diff1: f64,
    /// The sequential test's chance of accepting H1 when H0 holds.
    #[arg(long, default_value_t = 0.05)]
    alpha: f64,
    /// The sequential test's chance of accepting H0 when H1 holds.
    #[arg(long, default_value_t = 0.05)]
    beta: f64,
    /// Also report the luck-adjusted difference: each card drawn counts for what it was worth
    /// against what the draw pile could have given, as the shipped value network judges
    /// (unbiased whatever the rules; most useful under the official rules, at two to ten seats,
    /// where the network was trained). The games are the same; the run is slower.
    #[arg(long)]
    adjust: bool,
    /// Also write the results as JSON to this file (`-`: standard output).
    #[arg(long, value_name = "FILE")]
    json: Option<std::path::PathBuf>,
}

/// `--deals`: a whole number, at least 1.
fn parse_deals(text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(0) => Err("the number of deals must be at least 1".to_string()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("'{}' is not a whole number of deals", text.chars().take(32).collect::<String>())),
    }
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let rules = args.rules.load()?;
    let players = crate::seats_arg::player_count(&rules, args.players)?;
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
        for (option, value) in [("--diff0", args.diff0), ("--diff1", args.diff1)] {
            if !value.is_finite() || value.abs() > 100.0 {
                bail!("{option}: points of win share, -100 to 100 (got {value})");
            }
        }
        if args.diff1 <= args.diff0 {
            bail!("--diff1 must be above --diff0 (got --diff0 {} and --diff1 {})", args.diff0, args.diff1);
        }
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
        adjust: args.adjust.then(uno_lab::shipped_value),
    };
    let seatings = uno_lab::duplicate::check(&config).map_err(|e| match (e, format) {
        // Round-robin already seats groups: the way out is fewer bots, not another format.
        (uno_lab::MatchError::TooManySeatings(n), Format::RoundRobin) => anyhow::anyhow!(
            "--format round-robin: {n} seatings per deal, at most {}: name fewer bots",
            uno_lab::duplicate::MAX_SEATINGS
        ),
        (e, _) => e.into(),
    })?;
    // The --json file is opened (so checked) before the run; `-` puts the JSON alone on stdout.
    let mut json_out = args.json.as_deref().map(|path| crate::output::Target::open("--json", path)).transpose()?;
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new(config.deals);
        bar.set_style(crate::sim_run::style(&format!(
            "{{bar:30}} {{pos}}/{{len}} deals ({} games each)  {{rate}}  eta {{eta}}",
            seatings.len()
        )));
        bar.enable_steady_tick(Duration::from_millis(200));
        bar
    });
    let progress = |n: u64| {
        if let Some(bar) = &bar {
            bar.inc(n);
        }
    };
    let results = uno_lab::play_match(&config, &progress)?;
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    if let Some(target) = &mut json_out {
        target.write(&(crate::output::json_text(&results)? + "\n"))?;
        if target.is_stdout() {
            return Ok(());
        }
    }
    Ok(crate::output::print(&table(&results))?)
}

use crate::sim_run::fixed;

fn pct(x: f64) -> String {
    fixed(100.0 * x, 2)
}

fn signed(x: f64) -> String {
    crate::sim_run::signed(x, 2)
}

fn interval(e: &Estimate, scale: f64) -> String {
    match e.ci95 {
        Some([lo, hi]) => format!("{}–{}", fixed(scale * lo, 2), fixed(scale * hi, 2)),
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
    out += &entrants(r);
    let d = &r.difference;
    out += &format!(
        "{} − {}: {} points of win share (95% CI {})\n",
        d.a,
        d.b,
        signed(100.0 * d.win_share.mean),
        interval(&d.win_share, 100.0)
    );
    out += &match d.win_share.variance_reduction {
        Some(f) => format!("  duplicate deals: {f:.1}× fewer games than independent games\n"),
        None => "  duplicate deals: no factor (fewer than two deals, or deals that never differ)\n".to_string(),
    };
    if let Some(a) = &r.adjusted {
        out += &format!(
            "  luck-adjusted: {} points (95% CI {}), luck taken away {} per deal (95% CI {}), {}\n",
            signed(100.0 * a.win_share.mean),
            interval(&a.win_share, 100.0),
            signed(100.0 * a.correction.mean),
            interval(&a.correction, 100.0),
            a.fewer_deals.map_or_else(|| "no factor".to_string(), |f| format!("{f:.2}× fewer deals"))
        );
    }
    out += &ratings(r);
    if r.no_winner > 0 || r.stuck > 0 {
        out += &format!("no winner: {} (abandoned: {})\n", r.no_winner, r.stuck);
    }
    let decision = sequential_test(r, &mut out);
    out + &last_line(r, &decision) + "\n"
}

/// The per-entrant table: games, wins and points of each bot with their intervals.
fn entrants(r: &MatchResults) -> String {
    // The bot column as wide as the longest name, so that the table fits 80 columns.
    let w = r.entrants.iter().map(|e| e.bot.chars().count()).max().unwrap_or(0).max(3);
    let mut out = format!(
        "{:<w$} {:>7} {:>7} {:>6} {:>11} {:>7} {:>11} {:>6}\n",
        "bot", "games", "wins", "win%", "95% CI", "pts", "95% CI", "×indep"
    );
    for e in &r.entrants {
        out += &format!(
            "{:<w$} {:>7} {:>7} {:>6} {:>11} {:>7} {:>11} {:>6}\n",
            e.bot,
            e.seat_games,
            e.wins,
            pct(e.win_share.mean),
            interval(&e.win_share, 100.0),
            fixed(e.mean_points.mean, 2),
            interval(&e.mean_points, 1.0),
            factor(&e.win_share)
        );
    }
    out
}

/// The ratings block: each bot's Elo from who won, with its interval.
fn ratings(r: &MatchResults) -> String {
    let mut out = format!("ratings (Plackett–Luce on who won, Elo, 95% CI over deals; {} games):\n", r.ratings.games);
    for rating in &r.ratings.ratings {
        let ci = rating.ci95.map_or_else(
            || "-".to_string(),
            |[lo, hi]| format!("{} to {}", crate::sim_run::signed(lo, 0), crate::sim_run::signed(hi, 0)),
        );
        out += &format!("  {:<24} {:>6}  ({ci})\n", rating.bot, crate::sim_run::signed(rating.elo, 0));
    }
    out
}

/// Appends the sequential test's lines, when the match ran one, and returns its decision's
/// name for the last line (`none` without a test).
fn sequential_test(r: &MatchResults, out: &mut String) -> String {
    let d = &r.difference;
    match &r.sprt {
        Some(s) => {
            let (mu0, mu1) = (100.0 * s.test.mu0, 100.0 * s.test.mu1);
            // The test weighs two hypotheses against each other: accepting one says which the
            // data favour, not that the difference is that large (the interval above says how large).
            let verdict = match s.decision {
                Decision::AcceptH0 => {
                    format!("H0 accepted: the data favour a difference of {} over {}", signed(mu0), signed(mu1))
                }
                Decision::AcceptH1 => {
                    format!("H1 accepted: the data favour a difference of {} over {}", signed(mu1), signed(mu0))
                }
                Decision::Undecided => "undecided at the deal limit".to_string(),
            };
            let llr = match s.llr {
                Some(llr) => format!("LLR {llr:.2} in [{:.2}, {:.2}]", s.bounds[0], s.bounds[1]),
                None => "LLR unbounded (deals all alike)".to_string(),
            };
            *out += &format!(
                "sequential test of {} − {}: H0 {} / H1 {} points\n  after {} deals (alpha {}, beta {}): {llr}\n  {verdict}\n  the difference itself: {} (95% CI {})\n",
                d.a,
                d.b,
                signed(mu0),
                signed(mu1),
                s.n,
                s.test.alpha,
                s.test.beta,
                signed(100.0 * d.win_share.mean),
                interval(&d.win_share, 100.0),
            );
            serde_json::to_value(s.decision).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
        }
        None => "none".to_string(),
    }
}

/// The machine-readable last line: the difference, its interval, the decision, and the
/// luck-adjusted difference when there is one.
fn last_line(r: &MatchResults, decision: &str) -> String {
    let d = &r.difference;
    // Below two deals there is no interval: `none`, never NaN.
    let (lo, hi) = match d.win_share.ci95 {
        Some([lo, hi]) => (fixed(lo, 4), fixed(hi, 4)),
        None => ("none".to_string(), "none".to_string()),
    };
    let mut out = format!(
        "deals={} games={} diff={} diff_lo={lo} diff_hi={hi} decision={decision}",
        r.deals,
        r.games,
        fixed(d.win_share.mean, 4)
    );
    if let Some(a) = &r.adjusted {
        let (lo, hi) = match a.win_share.ci95 {
            Some([lo, hi]) => (fixed(lo, 4), fixed(hi, 4)),
            None => ("none".to_string(), "none".to_string()),
        };
        out += &format!(" adj={} adj_lo={lo} adj_hi={hi}", fixed(a.win_share.mean, 4));
    }
    out
}
