//! Weighs a heuristic configuration: `cargo run --release -p uno-bots --example tune --
//! '{"keep_wild": 20}' [GAMES] [PRESET]` plays it in seat 0 against three `random` bots and
//! against three default `heuristic` bots (seats rotate with the deal), and prints its win rates.

use std::sync::Arc;

use uno::{Game, Rules};
use uno_bots::sim::wilson;
use uno_bots::{Bot, HeuristicBot, HeuristicConfig, RandomBot};

fn run(rules: &Arc<Rules>, config: &HeuristicConfig, field: &str, games: u64) -> (u64, u64) {
    let mut wins = 0;
    for g in 0..games {
        let seed = seeding::sim_game_seed(7, g);
        let mut game = match Game::new_fast(rules.clone(), 4, seed) {
            Ok(game) => game,
            Err(_) => return (0, 0),
        };
        let hero = (g % 4) as usize;
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
            wins += 1;
        }
    }
    (wins, games)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let config: HeuristicConfig = serde_json::from_str(args.first().map_or("{}", String::as_str))?;
    let games: u64 = args.get(1).map_or(Ok(100_000), |g| g.parse())?;
    let rules = Arc::new(Rules::preset(args.get(2).map_or("official", String::as_str))?);
    for field in ["random", "heuristic"] {
        let (w, n) = run(&rules, &config, field, games);
        let (lo, hi) = wilson(w, n);
        print!("vs 3 {field}: {:.2}% [{:.2}, {:.2}]   ", 100.0 * w as f64 / n as f64, 100.0 * lo, 100.0 * hi);
    }
    println!("{}", args.first().map_or("{}", String::as_str));
    Ok(())
}
