//! What runs on top of the engine, timed on one thread: the `flat` bot's milliseconds per
//! decision at 3,000 playouts against three `heuristic` bots, an analysis (`uno analyse`'s
//! default 400 worlds per action) per game, and a duplicate match of `heuristic` bots (`uno
//! match`) in games per second.
//!
//! `cargo bench -p uno-lab --bench consumers -- [--only flat|analyse|match] [--reps R]
//! [--deals D] [--decisions N]` (the match's deals, 5000 by default, four games each; the flat
//! seat's decisions a repetition, 12 by default: more where two builds decide differently,
//! so that both are timed over many positions); each
//! figure is the median over the repetitions, and a digest of what was decided is printed
//! beside it, so two builds compared side by side can be seen to play the same games.

use std::sync::Arc;
use std::time::Instant;

use uno::{Game, GameRecord, Rules, Seat};
use uno_bots::{make_bot, Bot, BotSpec, HeuristicBot};
use uno_lab::analysis::{analyse, AnalysisConfig, DEFAULT_SAMPLES};
use uno_lab::{play_match, Format, MatchConfig};

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// This thread's CPU seconds (Linux's scheduler statistics), or wall seconds since `start`.
fn cpu(start: Instant) -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|t| t.parse::<u64>().ok()))
        .map_or_else(|| start.elapsed().as_secs_f64(), |ns| ns as f64 / 1e9)
}

/// The process's CPU seconds, every thread's (`/proc/self/stat`'s user and system ticks, at
/// the usual 100 a second); 0 where that is not readable.
fn process_cpu() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // The fields after the command's name, which is in parentheses and may hold spaces.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<&str> = rest.split_whitespace().collect();
    // utime and stime: fields 14 and 15 of the line, 11 and 12 (from 0) after the name.
    let tick = |i: usize| f.get(i).and_then(|t| t.parse::<u64>().ok()).unwrap_or(0);
    (tick(11) + tick(12)) as f64 / 100.0
}

fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

fn rules() -> Arc<Rules> {
    Arc::new(Rules::preset("official").expect("a shipped preset"))
}

/// A game of four `heuristic` bots, recorded.
fn record(seed: u64) -> GameRecord {
    let rules = rules();
    let mut game = Game::new(rules.clone(), 4, seed).expect("four seats");
    let mut record = GameRecord::new(&rules, 4, seed);
    let mut bots: Vec<HeuristicBot> = (0..4).map(|s| HeuristicBot::new(seeding::sim_bot_seed(seed, s))).collect();
    while !game.is_over() {
        let seat = game.current();
        let action = bots[seat.index()].choose_view(&game.view(seat));
        record.push(seat, action);
        game.apply_unchecked(seat, action);
    }
    record
}

/// `flat:3000` at seat 0 against three `heuristic` bots: seconds per decision of seat 0 over
/// `decisions` of them, and a digest of its choices.
fn flat(start: Instant, rep: u64, decisions: u32) -> (f64, u64) {
    let rules = rules();
    let mut spent = 0.0;
    let mut taken = 0;
    let mut chosen = String::new();
    let mut g = 0;
    while taken < decisions {
        let seed = seeding::sim_game_seed(rep, g);
        g += 1;
        let mut game = Game::new(rules.clone(), 4, seed).expect("four seats");
        let mut bots: Vec<Box<dyn Bot>> = (0..4)
            .map(|s| {
                let seed = seeding::sim_bot_seed(seed, s);
                if s == 0 {
                    make_bot("flat:3000", seed).expect("a bot")
                } else {
                    Box::new(HeuristicBot::new(seed)) as Box<dyn Bot>
                }
            })
            .collect();
        while !game.is_over() && taken < decisions {
            let seat = game.current();
            let t0 = cpu(start);
            let action = bots[seat.index()].choose_view(&game.view(seat));
            if seat == Seat(0) {
                spent += cpu(start) - t0;
                taken += 1;
                chosen += &action.to_string();
            }
            game.apply_unchecked(seat, action);
        }
    }
    (spent / f64::from(taken), fnv(chosen.as_bytes()))
}

fn main() {
    let mut only = None;
    let mut reps = 5;
    let mut deals = 5000;
    let mut decisions = 12;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--only" => only = args.next(),
            "--reps" => reps = args.next().and_then(|r| r.parse().ok()).unwrap_or(reps),
            "--deals" => deals = args.next().and_then(|r| r.parse().ok()).unwrap_or(deals),
            "--decisions" => decisions = args.next().and_then(|r| r.parse().ok()).unwrap_or(decisions),
            _ => {}
        }
    }
    let wants = |name: &str| only.as_deref().is_none_or(|o| o == name);
    let start = Instant::now();
    if wants("flat") {
        let mut ms = Vec::new();
        let mut digests = Vec::new();
        for rep in 0..reps {
            let (secs, digest) = flat(start, rep, decisions);
            ms.push(secs * 1e3);
            digests.push(format!("{digest:016x}"));
        }
        println!(
            "flat:3000 vs 3 heuristic: {:.2} ms a decision (median of {reps}) [{}]",
            median(ms),
            digests.join(" ")
        );
    }
    if wants("analyse") {
        let mut secs = Vec::new();
        let mut digest = String::new();
        for rep in 0..reps {
            let record = record(seeding::sim_game_seed(77, rep));
            let config =
                AnalysisConfig { seat: Seat(0), samples: DEFAULT_SAMPLES, seed: 1, mistake: 0.1, deadline: None };
            let t0 = cpu(start);
            let a = analyse(&record, &config, &|_, _| {}).expect("an analysable record");
            secs.push(cpu(start) - t0);
            let wins: f64 = a.decisions.iter().flat_map(|d| d.values.iter().map(|v| v.win)).sum();
            digest += &format!(" {wins:.6}");
        }
        println!(
            "analyse ({DEFAULT_SAMPLES} worlds an action): {:.3} s a game (median of {reps}) [{}]",
            median(secs),
            digest.trim()
        );
    }
    if wants("match") {
        let mut rates = Vec::new();
        let mut digest = String::new();
        for rep in 0..reps {
            let bots: Vec<BotSpec> = ["heuristic", "heuristic"].iter().map(|b| b.parse().expect("a bot")).collect();
            let config = MatchConfig {
                rules: rules(),
                players: 4,
                bots,
                format: Format::Rotate,
                deals,
                seed: rep,
                threads: 1,
                sprt: None,
                adjust: None,
            };
            // The match runs on a pool thread of its own: the process's CPU time.
            let t0 = process_cpu();
            let r = play_match(&config, &|_| {}).expect("a valid match");
            rates.push(r.games as f64 / (process_cpu() - t0));
            let json = serde_json::to_string(&r).expect("serialisable");
            digest += &format!(" {:016x}", fnv(json.as_bytes()));
        }
        println!(
            "match heuristic vs heuristic, rotate: {:.0} games/s (median of {reps}) [{}]",
            median(rates),
            digest.trim()
        );
    }
}
