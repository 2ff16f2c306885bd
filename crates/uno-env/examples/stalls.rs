//! How long real rounds go without progress (`uno_env::progress`), so the stall bound's default
//! cuts policies that loop and leaves rounds that are being played alone.
//!
//! `cargo run --release -p uno-env --example stalls -- [ROUNDS] [BOUND...]`: for every preset,
//! at 2 and 4 seats, `ROUNDS` rounds (default 2,000) of each bot lineup (every seat `uniform`,
//! `random` or `heuristic`), played to their end (or the rules' own turn limit) with no stall
//! bound; it prints the longest stall of each round (median, 99th percentile, largest) and the
//! share of rounds a bound would have cut (default bounds 100, 200, 400, 800).

use std::sync::Arc;

use uno::game::Game;
use uno::{Rules, PRESET_NAMES};
use uno_bots::{Bot, BotSpec};
use uno_env::Progress;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let rounds: u64 = args.next().map_or(Ok(2_000), |s| s.parse())?;
    let mut bounds: Vec<u32> = args.map(|s| s.parse()).collect::<Result<_, _>>()?;
    if bounds.is_empty() {
        bounds = vec![100, 200, 400, 800];
    }
    let cut_header: Vec<String> = bounds.iter().map(|b| format!("cut at {b}")).collect();
    println!(
        "| rules | seats | bots | rounds | actions (median) | longest stall: median | p99 | max | {} |",
        cut_header.join(" | ")
    );
    println!("|---|---:|---|---:|---:|---:|---:|---:|{}", "---:|".repeat(bounds.len()));
    for name in PRESET_NAMES {
        let rules = Arc::new(Rules::preset(name)?);
        for players in [2, 4] {
            if rules.check_players(players).is_err() {
                continue;
            }
            for bot in [BotSpec::Uniform, BotSpec::Random, BotSpec::Heuristic] {
                let mut longest = Vec::with_capacity(rounds as usize);
                let mut lengths = Vec::with_capacity(rounds as usize);
                for r in 0..rounds {
                    let seed = seeding::episode_seed(7, r, 0);
                    let mut game = Game::new_fast(rules.clone(), players, seed)?;
                    let mut bots: Vec<Box<dyn Bot>> =
                        (0..players).map(|s| bot.build(seeding::episode_bot_seed(seed, s))).collect();
                    let mut progress = Progress::start(&game);
                    let (mut worst, mut actions) = (0u32, 0u32);
                    while !game.is_round_over() {
                        let seat = game.current();
                        let action = bots[seat.index()].choose_view(&game.view(seat));
                        game.apply_unchecked(seat, action);
                        actions += 1;
                        worst = worst.max(progress.record(&game));
                    }
                    longest.push(worst);
                    lengths.push(actions);
                }
                longest.sort_unstable();
                lengths.sort_unstable();
                let at = |v: &[u32], q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
                let cuts: Vec<String> = bounds
                    .iter()
                    .map(|&b| {
                        format!("{:.2}%", 100.0 * longest.iter().filter(|&&s| s >= b).count() as f64 / rounds as f64)
                    })
                    .collect();
                println!(
                    "| `{name}` | {players} | `{bot}` | {rounds} | {} | {} | {} | {} | {} |",
                    at(&lengths, 0.5),
                    at(&longest, 0.5),
                    at(&longest, 0.99),
                    longest[longest.len() - 1],
                    cuts.join(" | ")
                );
            }
        }
    }
    Ok(())
}
