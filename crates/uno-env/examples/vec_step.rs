//! Learner steps per second of the batched environment from Rust alone (no Python): the ceiling
//! the Python binding can reach. Steps a fixed number of batches, so that `perf stat` can count
//! the work of two builds exactly:
//! `cargo run --release -p uno-env --example vec_step -- [N] [BATCHES] [BOT]`

use std::sync::Arc;
use std::time::Instant;

use uno::Rules;
use uno_bots::BotSpec;
use uno_env::{action, EnvConfig, OwnedBuffers, VecEnv, DEFAULT_MAX_ACTIONS, DEFAULT_MAX_STALL};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().map_or(Ok(4096), |s| s.parse())?;
    let batches: u64 = args.next().map_or(Ok(500), |s| s.parse())?;
    let bot: BotSpec = args.next().unwrap_or_else(|| "random".into()).parse()?;
    let config = EnvConfig {
        rules: Arc::new(Rules::preset("official")?),
        players: 4,
        learners: vec![uno::Seat(0)],
        opponents: vec![bot],
        seed: 1,
        max_actions: DEFAULT_MAX_ACTIONS,
        max_stall: DEFAULT_MAX_STALL,
        auto_reset: true,
    };
    let mut env = VecEnv::new(n, config)?;
    let mut out = OwnedBuffers::new(n);
    env.reset(None, &mut out.as_buffers())?;
    let mut actions = vec![0i64; n];
    let mut steps = 0u64;
    let start = Instant::now();
    for _ in 0..batches {
        for (i, a) in actions.iter_mut().enumerate() {
            let row = &out.mask[i * action::COUNT..(i + 1) * action::COUNT];
            // The first legal action, as the Python benchmark's `mask.argmax`.
            *a = row.iter().position(|&m| m != 0).unwrap_or(0) as i64;
        }
        env.step(&actions, &mut out.as_buffers())?;
        steps += n as u64;
    }
    let rate = steps as f64 / start.elapsed().as_secs_f64();
    println!("N={n} {bot}: {rate:.0} learner steps/s");
    Ok(())
}
