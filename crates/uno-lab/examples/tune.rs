//! Weighs a heuristic configuration: `cargo run --release -p uno-lab --example tune --
//! '{"keep_wild": 20}' [DEALS] [PRESET] [FIELD]` plays each deal four times, the configuration in
//! each seat in turn against three `FIELD` bots (default `heuristic`, the default weights; or
//! `random`), on the same cards, and prints its win share with a 95% interval over deals. Against
//! default `heuristic` bots the default weights win exactly 25%: the four games of a deal are one
//! game seen from each seat, so a change is measured on the games it changes.

use std::sync::Arc;

use uno::{Game, Rules};
use uno_bots::{Bot, HeuristicBot, HeuristicConfig, RandomBot};
use uno_lab::duplicate::Moments;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let config: HeuristicConfig = serde_json::from_str(args.first().map_or("{}", String::as_str))?;
    let deals: u64 = args.get(1).map_or(Ok(25_000), |g| g.parse())?;
    let rules = Arc::new(Rules::preset(args.get(2).map_or("official", String::as_str))?);
    let field = args.get(3).map_or("heuristic", String::as_str);
    let mut share = Moments::default();
    for d in 0..deals {
        let seed = seeding::sim_game_seed(7, d);
        let mut wins = 0.0;
        for hero in 0..4 {
            let mut game = Game::new_fast(rules.clone(), 4, seed)?;
            let mut bots: Vec<Box<dyn Bot>> = (0..4)
                .map(|s| -> Box<dyn Bot> {
                    if s == hero {
                        Box::new(HeuristicBot::with_config(config.clone()))
                    } else if field == "random" {
                        Box::new(RandomBot::new(seeding::sim_bot_seed(seed, s)))
                    } else {
                        Box::new(HeuristicBot::with_config(HeuristicConfig::default()))
                    }
                })
                .collect();
            uno_bots::play_out(&mut game, &mut bots);
            if game.round_winner().map(|w| w.index()) == Some(hero) {
                wins += 1.0;
            }
        }
        share.add(wins / 4.0);
    }
    let [lo, hi] = share.ci95().unwrap_or([0.0, 1.0]);
    println!(
        "vs 3 {field}: {:.2}% [{:.2}, {:.2}] over {deals} deals   {}",
        100.0 * share.mean(),
        100.0 * lo,
        100.0 * hi,
        args.first().map_or("{}", String::as_str)
    );
    Ok(())
}
