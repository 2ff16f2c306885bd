//! `tabletop uno analyse`: every decision of one seat in a recorded game, valued from what the
//! seat knew (`uno_lab::analysis`): each legal action's win chance with its interval, the
//! chosen one's loss against the best, mistakes marked, a win-chance graph, luck and skill.

use std::io::IsTerminal;

use uno_lab::analysis::{
    Analysis, AnalysisConfig, AnalysisError, Decision, Method, RoundSummary, DEFAULT_MISTAKE, DEFAULT_SAMPLES,
    DEFAULT_SEED, MAX_SAMPLES, MIN_MISTAKE_SAMPLES,
};

use crate::record_file::{load, replay_words};
use crate::seats_arg::seat_arg;
use crate::sim_run::signed;
use crate::words::action_words;

#[derive(clap::Args)]
pub struct Args {
    /// The record: a JSON file (`-` for standard input), as `uno watch --record` writes.
    record: std::path::PathBuf,
    /// The seat whose decisions are analysed (1 to the number of players).
    #[arg(long, value_parser = crate::sim_run::parse_seat)]
    seat: usize,
    /// Worlds sampled per legal action: the intervals narrow as its square root (the default,
    /// 400, gives at most ±4.9 points; 100 about ±10; 2000 about ±2.2).
    #[arg(long, default_value_t = DEFAULT_SAMPLES, value_parser = parse_samples)]
    samples: u32,
    /// Seed of the sampling and the playouts: the same record, seat, seed and samples give the
    /// same figures.
    #[arg(long, default_value_t = DEFAULT_SEED, value_parser = crate::sim_run::parse_seed)]
    seed: u64,
    /// A loss of at least this many points of win chance marks a mistake.
    #[arg(long, default_value_t = 100.0 * DEFAULT_MISTAKE, value_parser = crate::sim_run::parse_points)]
    mistake: f64,
    /// Value each action with the shipped value network instead of playouts: the seat's chance
    /// right after the action, from what it knew (at most 32 worlds for an action that draws,
    /// one for the others); much faster, and as good as the network (`docs/replays.md`).
    #[arg(long)]
    value: bool,
    /// Write the analysis as JSON to this file (`-`: standard output, alone); its `seat` and
    /// each decision's `action` count from 1, as the text does.
    #[arg(long, value_name = "FILE")]
    json: Option<std::path::PathBuf>,
}

/// `--samples`: a whole number from 1 to [`MAX_SAMPLES`].
fn parse_samples(text: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(n) if (1..=MAX_SAMPLES).contains(&n) => Ok(n),
        _ => Err(format!(
            "worlds per action: a whole number from 1 to {MAX_SAMPLES} (got '{}')",
            text.chars().take(32).collect::<String>()
        )),
    }
}

fn pct(x: f64) -> String {
    format!("{}%", crate::sim_run::fixed(100.0 * x, 1))
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
        out += &decision_lines(d);
    }
    let after: Vec<f64> =
        a.decisions.iter().filter_map(|d| d.values.iter().find(|v| v.action == d.chosen)).map(|v| v.win).collect();
    // The graph in lines of 78 characters, so that it fits 80 columns however long the game.
    let bars: Vec<char> = graph(&after).chars().collect();
    out += "win chance after each decision:\n";
    for line in bars.chunks(78) {
        out += &format!("  {}\n", line.iter().collect::<String>());
    }
    for r in &a.rounds {
        out += &round_line(r);
    }
    let mistakes = a.decisions.iter().filter(|d| d.mistake).count();
    let mistakes = if a.samples < MIN_MISTAKE_SAMPLES {
        format!(
            "none marked ({} world{} per action cannot tell a mistake from chance; {MIN_MISTAKE_SAMPLES} or more can)",
            a.samples,
            if a.samples == 1 { "" } else { "s" }
        )
    } else {
        mistakes.to_string()
    };
    out += &format!("mistakes: {mistakes}\n");
    out += &format!(
        "skill (chance lost to own choices) {} points, luck (draws and the others' play) {} points\n",
        signed(100.0 * a.skill, 1),
        signed(100.0 * a.luck, 1)
    );
    out
}

/// One decision: the move chosen and its win chance, the best move when another, and every
/// action's chance with its interval.
fn decision_lines(d: &Decision) -> String {
    let chosen = d.values.iter().find(|v| v.action == d.chosen);
    let best = &d.values[0];
    let mark = if d.mistake { "  ← mistake" } else { "" };
    let mut out = format!(
        "action {} (round {}, turn {}): {} — {}",
        d.ply + 1,
        d.round,
        d.turn + 1,
        action_words(d.chosen),
        chosen.map_or_else(|| "-".to_string(), |v| pct(v.win))
    );
    if d.loss > 0.0 {
        out += &format!(
            "; best {} {} (−{} points){mark}\n",
            action_words(best.action),
            pct(best.win),
            crate::sim_run::fixed(100.0 * d.loss, 1)
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
    out
}

/// One round's line: its decisions, the first decision's chance, the result, skill and luck.
fn round_line(r: &RoundSummary) -> String {
    let result = match r.won {
        Some(true) => "won",
        Some(false) => "lost",
        None => "unfinished",
    };
    let luck = r.luck.map_or_else(|| "-".to_string(), |l| signed(100.0 * l, 1));
    format!(
        "round {:>3}: {:>3} decisions, first {:>6}, {result:<10} skill {:>6} luck {luck}\n",
        r.round,
        r.decisions,
        pct(r.first),
        signed(100.0 * r.skill, 1)
    )
}

/// The analysis as JSON, counted as the text counts: `seat` from 1, and each decision's
/// `action` (its place in the record) and `turn` (in its round) from 1, as every number the
/// terminal shows (the engine counts a decision's turn by the turns completed before it).
fn json(a: &Analysis) -> anyhow::Result<String> {
    let mut value = serde_json::to_value(a)?;
    value["seat"] = serde_json::json!(a.seat.index() + 1);
    // Below this many worlds per action no decision is marked a mistake (the text says so too).
    value["min_mistake_samples"] = serde_json::json!(MIN_MISTAKE_SAMPLES);
    if let Some(decisions) = value.get_mut("decisions").and_then(serde_json::Value::as_array_mut) {
        for (d, decision) in decisions.iter_mut().zip(&a.decisions) {
            if let Some(obj) = d.as_object_mut() {
                obj.remove("ply");
                obj.insert("action".into(), serde_json::json!(decision.ply + 1));
                obj.insert("turn".into(), serde_json::json!(decision.turn + 1));
            }
        }
    }
    crate::output::json_text(&value)
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let record = load(&args.record)?;
    let seat = seat_arg(args.seat, record.players)?;
    if !(0.0..=100.0).contains(&args.mistake) {
        anyhow::bail!("--mistake: points of win chance, 0 to 100 (got {})", args.mistake);
    }
    let config =
        AnalysisConfig { seat, samples: args.samples, seed: args.seed, mistake: args.mistake / 100.0, deadline: None };
    let method = if args.value { Method::Value } else { Method::Playouts };
    if let Some(path) = &args.json {
        if args.record.as_os_str() != "-" && crate::output::same_file(path, &args.record) {
            anyhow::bail!("--json: {} is the record being analysed; name another file", path.display());
        }
    }
    let mut json_out = args.json.as_deref().map(|path| crate::output::Target::open("--json", path)).transpose()?;
    if record.rules.play.forced_play.precedence_decides() {
        // Nothing to value: every move of every seat was the precedence's.
        let analysis = Analysis {
            method,
            seat,
            samples: args.samples,
            seed: args.seed,
            decisions: Vec::new(),
            rounds: Vec::new(),
            skill: 0.0,
            luck: 0.0,
        };
        let why = "under the csce322 rules seed 000's precedence decides every move: there was nothing to choose, so no decision is valued and none is a mistake";
        if let Some(target) = &mut json_out {
            let mut value: serde_json::Value = serde_json::from_str(&json(&analysis)?)?;
            value["nothing_to_choose"] = serde_json::json!(why);
            target.write(&(crate::output::json_text(&value)? + "\n"))?;
            if target.is_stdout() {
                return Ok(());
            }
        }
        return Ok(crate::output::print(&crate::output::wrap(&format!("Seat {}: {why}.\n", seat.index() + 1)))?);
    }
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
    let analysis = uno_lab::analysis::analyse_with(&record, &config, method, &progress, &|| false);
    let analysis = analysis.map_err(|e| match e {
        AnalysisError::Replay(e) => anyhow::anyhow!("analysis: {}", replay_words(&e)),
        AnalysisError::Sample { index, reason } => {
            anyhow::anyhow!("analysis: the seat's knowledge at action {} admits no world: {reason}", index + 1)
        }
        other => anyhow::Error::new(other).context("analysis"),
    })?;
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let text = crate::output::wrap(&report(&analysis));
    if let Some(target) = &mut json_out {
        target.write(&(json(&analysis)? + "\n"))?;
        if target.is_stdout() {
            return Ok(());
        }
    }
    Ok(crate::output::print(&text)?)
}
