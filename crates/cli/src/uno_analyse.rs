//! `tabletop uno analyse`: every decision of one seat in a recorded game, valued from what the
//! seat knew (`uno_bots::analysis`): each legal action's win chance with its interval, the
//! chosen one's loss against the best, mistakes marked, a win-chance graph, luck and skill.

use std::io::IsTerminal;

use anyhow::Context;
use uno::Action;
use uno_bots::analysis::{
    analyse, Analysis, AnalysisConfig, DEFAULT_MISTAKE, DEFAULT_SAMPLES, DEFAULT_SEED, MAX_SAMPLES,
};

use crate::uno_replay::{load, seat_arg};

#[derive(clap::Args)]
pub struct Args {
    /// The record: a JSON file (`-` for standard input), as `uno watch --record` writes.
    record: std::path::PathBuf,
    /// The seat whose decisions are analysed (1 to the number of players).
    #[arg(long)]
    seat: usize,
    /// Worlds sampled per legal action: the intervals narrow as its square root (the default,
    /// 400, gives at most ±4.9 points; 100 about ±10; 2000 about ±2.2).
    #[arg(long, default_value_t = DEFAULT_SAMPLES, value_parser = clap::value_parser!(u32).range(1..=MAX_SAMPLES as i64))]
    samples: u32,
    /// Seed of the sampling and the playouts: the same record, seat, seed and samples give the
    /// same figures.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    seed: u64,
    /// A loss of at least this many points of win chance marks a mistake.
    #[arg(long, default_value_t = 100.0 * DEFAULT_MISTAKE)]
    mistake: f64,
    /// Write the analysis as JSON to this file (`-`: standard output, alone).
    #[arg(long, value_name = "FILE")]
    json: Option<std::path::PathBuf>,
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

fn action_words(action: Action) -> String {
    match action {
        Action::Play { card, color: Some(c) } => format!("play {} ({})", crate::uno_watch::card_words(card), c.name()),
        Action::Play { card, color: None } => format!("play {}", crate::uno_watch::card_words(card)),
        other => other.to_string(),
    }
}

/// Eight levels, one character per decision.
fn graph(values: &[f64]) -> String {
    const BARS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    values.iter().map(|v| BARS[((v.clamp(0.0, 1.0) * 7.0).round()) as usize]).collect()
}

fn report(a: &Analysis) -> String {
    let mut out = format!(
        "Seat {}: {} decisions, {} worlds per action, seed {}\n",
        a.seat.index() + 1,
        a.decisions.len(),
        a.samples,
        a.seed
    );
    for d in &a.decisions {
        let chosen = d.values.iter().find(|v| v.action == d.chosen);
        let best = &d.values[0];
        let mark = if d.mistake { "  ← mistake" } else { "" };
        out += &format!(
            "action {:>4} (round {}, turn {}): {} — {}",
            d.ply + 1,
            d.round,
            d.turn,
            action_words(d.chosen),
            chosen.map_or_else(|| "-".to_string(), |v| pct(v.win))
        );
        if d.loss > 0.0 {
            out += &format!(
                "; best {} {} (−{:.1} points){mark}\n",
                action_words(best.action),
                pct(best.win),
                100.0 * d.loss
            );
        } else {
            out += " (best)\n";
        }
        for v in &d.values {
            out += &format!(
                "    {:<34} {:>6}  [{} – {}]\n",
                action_words(v.action),
                pct(v.win),
                pct(v.ci95[0]),
                pct(v.ci95[1])
            );
        }
    }
    let after: Vec<f64> =
        a.decisions.iter().filter_map(|d| d.values.iter().find(|v| v.action == d.chosen)).map(|v| v.win).collect();
    out += &format!("win chance after each decision: {}\n", graph(&after));
    for r in &a.rounds {
        let result = match r.won {
            Some(true) => "won",
            Some(false) => "lost",
            None => "not finished",
        };
        let luck = r.luck.map_or_else(|| "-".to_string(), |l| format!("{:+.1}", 100.0 * l));
        out += &format!(
            "round {:>3}: {:>3} decisions, first chance {:>6}, {result:<12} skill {:+6.1}  luck {luck}\n",
            r.round,
            r.decisions,
            pct(r.first),
            100.0 * r.skill
        );
    }
    let mistakes = a.decisions.iter().filter(|d| d.mistake).count();
    out += &format!(
        "mistakes: {mistakes}; skill (chance lost to own choices) {:+.1} points, luck (draws and the others' play) {:+.1} points\n",
        100.0 * a.skill,
        100.0 * a.luck
    );
    out
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let record = load(&args.record)?;
    let seat = seat_arg(args.seat, record.players)?;
    if !(0.0..=100.0).contains(&args.mistake) {
        anyhow::bail!("--mistake: points of win chance, 0 to 100 (got {})", args.mistake);
    }
    let config =
        AnalysisConfig { seat, samples: args.samples, seed: args.seed, mistake: args.mistake / 100.0, deadline: None };
    let mut json_out = match &args.json {
        Some(path) if path.as_os_str() != "-" => Some(crate::uno_sim::JsonFile::open(path)?),
        _ => None,
    };
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new(0);
        bar.set_style(
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} decisions  eta {eta}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    });
    let progress = |done: usize, total: usize| {
        if let Some(bar) = &bar {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
        }
    };
    let analysis = analyse(&record, &config, &progress).context("analysis")?;
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let text = report(&analysis);
    match (&args.json, &mut json_out) {
        (Some(path), Some(file)) => {
            let json = serde_json::to_string_pretty(&analysis)? + "\n";
            file.write(&json).with_context(|| format!("cannot write {}", path.display()))?;
            Ok(crate::output::print(&text)?)
        }
        (Some(_), None) => Ok(crate::output::print(&(serde_json::to_string_pretty(&analysis)? + "\n"))?),
        _ => Ok(crate::output::print(&text)?),
    }
}
