//! Time per decision of the `net` bot (and `heuristic`, for scale) over the decisions of
//! official 4-seat rounds: `cargo run --release -p uno-bots --example net_latency [ROUNDS]`.

use std::time::Instant;

use uno::game::Game;
use uno::{Rules, Seat};
use uno_bots::{make_bot, Bot};

fn main() {
    let rounds: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(200);
    let rules = std::sync::Arc::new(Rules::preset("official").expect("official"));
    for name in ["net", "heuristic"] {
        let mut times = Vec::new();
        for seed in 0..rounds {
            let mut game = Game::new(rules.clone(), 4, 1_000_000 + seed).expect("game");
            let mut bots: Vec<Box<dyn Bot>> = (0..4).map(|s| make_bot(name, seed * 4 + s).expect("bot")).collect();
            while !game.is_round_over() && game.turns() < 2_000 {
                let seat: Seat = game.current();
                let view = game.view(seat);
                let start = Instant::now();
                let action = bots[seat.index()].choose_view(&view);
                times.push(start.elapsed().as_secs_f64() * 1e6);
                game.apply(seat, action).expect("legal");
            }
        }
        times.sort_by(f64::total_cmp);
        let mean = times.iter().sum::<f64>() / times.len() as f64;
        println!(
            "{name}: {} decisions, median {:.1} µs, mean {:.1} µs, 99th percentile {:.1} µs",
            times.len(),
            times[times.len() / 2],
            mean,
            times[times.len() * 99 / 100]
        );
    }
}
