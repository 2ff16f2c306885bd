//! The engine's random-table path against the simulation kernel, on the same seeds, in one run.
//!
//! Each repetition times, one after the other on this thread, the same `--games` rounds of a
//! table of `random` bots:
//!
//! * `kernel`: `RandomKernel::play`, what `uno sim` runs for such a table today;
//! * `engine`: `Game::new_fast` / `restart`, `RandomBot::choose_view`, `Game::apply_unchecked`,
//!   the engine's loop as the runner plays it without `--checked`;
//! * `checked`: the same with `Game::check` before each `apply_unchecked`, the `--checked`
//!   path (validated once, no events built: `apply_unchecked`'s contract).
//!
//! The three take turns (A B C A B C …) so a shared machine's drift falls on all of them, and
//! the report gives each one's median games per CPU-second and the median of the per-repetition
//! ratios against the kernel. Every path must end every round the same way (turns summed), or
//! the run stops: a figure for different games would mean nothing.
//!
//! `cargo bench -p uno-lab --bench engine_kernel -- [--games N] [--reps R] [--preset P]
//! [--players K]` (defaults: 100000 games, 7 repetitions, `official`, 4 players).

use std::sync::Arc;
use std::time::Instant;

use uno::{Game, Rules};
use uno_bots::{Bot, RandomBot};
use uno_lab::kernel::RandomKernel;

struct Args {
    games: u64,
    reps: usize,
    preset: String,
    players: usize,
    /// Only this path (`kernel`, `engine` or `checked`), for a profiler; no ratios then.
    only: Option<String>,
}

fn args() -> Args {
    let mut out = Args { games: 100_000, reps: 7, preset: "official".into(), players: 4, only: None };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut value = || it.next().unwrap_or_default();
        match a.as_str() {
            "--games" => out.games = value().parse().unwrap_or(out.games),
            "--reps" => out.reps = value().parse().unwrap_or(out.reps),
            "--preset" => out.preset = value(),
            "--players" => out.players = value().parse().unwrap_or(out.players),
            "--only" => out.only = Some(value()),
            // `cargo bench` adds `--bench`; anything else is ignored too.
            _ => {}
        }
    }
    out
}

/// This thread's CPU time in nanoseconds (Linux's scheduler statistics), or the wall clock
/// since `start` where that is not readable: a neighbour's load then shows in the figures.
fn cpu_ns(start: Instant) -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|t| t.parse().ok()))
        .unwrap_or_else(|| start.elapsed().as_nanos() as u64)
}

fn kernel_block(rules: &Rules, players: usize, games: u64) -> u64 {
    let mut kernel = RandomKernel::new(rules, players).expect("the kernel plays these rules");
    let mut turns = 0;
    for g in 0..games {
        turns += u64::from(kernel.play(seeding::sim_game_seed(1, g)).turns);
    }
    turns
}

fn engine_block(rules: &Arc<Rules>, players: usize, games: u64, checked: bool) -> u64 {
    let mut game = Game::new_fast(rules.clone(), players, 0).expect("a valid table");
    let mut bots: Vec<RandomBot> = (0..players).map(|_| RandomBot::new(0)).collect();
    let mut turns = 0;
    for g in 0..games {
        let seed = seeding::sim_game_seed(1, g);
        game.restart(seed);
        for (s, bot) in bots.iter_mut().enumerate() {
            bot.reseed(seeding::sim_bot_seed(seed, s));
        }
        while !game.is_round_over() {
            let seat = game.current();
            let action = bots[seat.index()].choose_view(&game.view(seat));
            // As the runner does with `--checked`: validated once, applied without events.
            if checked {
                if let Err(e) = game.check(seat, action) {
                    panic!("the random bot chose {action:?}, refused: {e}");
                }
            }
            game.apply_unchecked(seat, action);
        }
        turns += u64::from(game.turns());
    }
    turns
}

fn turn_block(rules: &Arc<Rules>, players: usize, games: u64) -> u64 {
    let mut game = Game::new_fast(rules.clone(), players, 0).expect("a valid table");
    let mut bots: Vec<RandomBot> = (0..players).map(|_| RandomBot::new(0)).collect();
    let mut turns = 0;
    for g in 0..games {
        let seed = seeding::sim_game_seed(1, g);
        game.restart(seed);
        for (s, bot) in bots.iter_mut().enumerate() {
            bot.reseed(seeding::sim_bot_seed(seed, s));
        }
        while !game.is_round_over() {
            let seat = game.current();
            game.play_turn(&mut bots[seat.index()]);
        }
        turns += u64::from(game.turns());
    }
    turns
}

/// Path `i` of `kernel`, `engine`, `checked`, `turn`: the turns of its rounds.
fn run(i: usize, rules: &Arc<Rules>, a: &Args) -> u64 {
    match i {
        0 => kernel_block(rules, a.players, a.games),
        1 => engine_block(rules, a.players, a.games, false),
        2 => engine_block(rules, a.players, a.games, true),
        _ => turn_block(rules, a.players, a.games),
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn main() {
    let a = args();
    let rules = Arc::new(Rules::preset(&a.preset).expect("a shipped preset"));
    let start = Instant::now();
    let names = ["kernel", "engine", "checked", "turn"];
    if let Some(only) = &a.only {
        let i = names.iter().position(|n| n == only).expect("--only kernel, engine or checked");
        for _ in 0..a.reps {
            let t0 = cpu_ns(start);
            let turns = run(i, &rules, &a);
            let secs = (cpu_ns(start) - t0) as f64 / 1e9;
            println!("{only}: {:.0} games/s ({turns} turns)", a.games as f64 / secs);
        }
        return;
    }
    let mut rates: [Vec<f64>; 4] = Default::default();
    let mut ratios: [Vec<f64>; 4] = Default::default();
    println!("{} with {} random players, {} games a run, {} repetitions", a.preset, a.players, a.games, a.reps);
    for rep in 0..a.reps {
        let mut turns = [0u64; 4];
        let mut secs = [0f64; 4];
        for (i, t) in turns.iter_mut().enumerate() {
            let t0 = cpu_ns(start);
            *t = run(i, &rules, &a);
            secs[i] = (cpu_ns(start) - t0) as f64 / 1e9;
        }
        assert!(turns.iter().all(|&t| t == turns[0]), "the paths played different games: {turns:?}");
        for i in 0..4 {
            rates[i].push(a.games as f64 / secs[i]);
            ratios[i].push(secs[0] / secs[i]);
        }
        println!(
            "rep {rep}: kernel {:.0}  engine {:.0} ({:.3}x)  checked {:.0} ({:.3}x)  turn {:.0} ({:.3}x) games/s",
            rates[0][rep], rates[1][rep], ratios[1][rep], rates[2][rep], ratios[2][rep], rates[3][rep], ratios[3][rep]
        );
    }
    for i in 0..4 {
        println!(
            "{:<8} median {:>10.0} games/s  {:.3}x the kernel (median of the repetitions' ratios)",
            names[i],
            median(rates[i].clone()),
            median(ratios[i].clone())
        );
    }
}
