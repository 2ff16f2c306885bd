//! Quick strength check while tuning: `cargo run --release -p duel --example duel_tune -- RED BLACK GAMES SEED`.
//! The published figures come from `tabletop duel sim`, which runs the same library code.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use duel::sim::{simulate_one, SimConfig, Tally};
use duel::{BotKind, SetupMode};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let red: BotKind = args.get(1).map_or("random", String::as_str).parse().expect("red bot");
    let black: BotKind = args.get(2).map_or("search", String::as_str).parse().expect("black bot");
    let games: u64 = args.get(3).map_or(Ok(200), |s| s.parse()).expect("games");
    let seed: u64 = args.get(4).map_or(Ok(1), |s| s.parse()).expect("seed");
    let cfg = SimConfig { red, black, seed, width: 6, height: 6, max_rounds: 200, setup: SetupMode::Mirrored };
    if let Ok(t) = std::env::var("SOLVE") {
        let mut p: duel::Board = t.parse().expect("position");
        p.set_to_move(duel::Side::Black);
        let mut bot = duel::SearchBot::new(duel::Difficulty::Hard);
        use duel::Bot;
        let t0 = std::time::Instant::now();
        let m = bot.choose(&p);
        println!("{:?} {:?} {:?}", m, bot.last_info(), t0.elapsed());
        return;
    }
    if let Ok(t) = std::env::var("TRACE") {
        trace(&cfg, t.parse().expect("index"));
        return;
    }
    let lost = Mutex::new(Vec::new());
    let next = AtomicU64::new(0);
    let tally = Mutex::new(Tally::default());
    let by_size = Mutex::new(vec![[0u64; 3]; 13]);
    let start = std::time::Instant::now();
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= games {
                    break;
                }
                let pos = duel::sim::setup_for(&cfg, i).expect("setup");
                let n = pos.count(duel::Side::Red);
                let r = simulate_one(&cfg, i).expect("game");
                tally.lock().expect("lock").add(&r);
                if r.outcome == duel::Outcome::RedWins {
                    lost.lock().expect("lock").push(i);
                }
                if r.outcome == duel::Outcome::Draw {
                    println!("draw {i} {:?} rounds {}", r.reason, r.rounds);
                }
                let k = match r.outcome {
                    duel::Outcome::RedWins => 0,
                    duel::Outcome::Draw => 1,
                    duel::Outcome::BlackWins => 2,
                };
                by_size.lock().expect("lock")[n][k] += 1;
            });
        }
    });
    let t = tally.into_inner().expect("tally");
    println!("lost games: {:?}", lost.into_inner().expect("lost"));
    for (n, row) in by_size.into_inner().expect("sizes").iter().enumerate().skip(1) {
        println!("n={n:2} red {:4} draw {:4} black {:4}", row[0], row[1], row[2]);
    }
    println!(
        "red {} draws {} black {}  black_score={:.3} ±{:.3}  avg rounds {:.1}  {:.1}s",
        t.red_wins,
        t.draws,
        t.black_wins,
        t.black_score(),
        t.ci95(),
        t.rounds as f64 / t.games() as f64,
        start.elapsed().as_secs_f64()
    );
}

/// Prints game `index` move by move (set TRACE=index).
#[allow(dead_code)]
pub fn trace(cfg: &SimConfig, index: u64) {
    let pos = duel::sim::setup_for(cfg, index).expect("setup");
    let s = seeding::duel_game_seed(cfg.seed, index);
    let mut red = cfg.red.build(s ^ 0x5245_4400);
    let mut black = duel::SearchBot::new(duel::Difficulty::Hard);
    let mut g = duel::DuelGame::from_position(pos);
    g.set_max_rounds(Some(cfg.max_rounds));
    while !g.is_over() {
        let p = g.position().clone();
        println!("{p}");
        let ev = if p.to_move() == duel::Side::Red {
            g.bot_move(red.as_mut())
        } else {
            let e = g.bot_move(&mut black);
            println!("  info {:?}", black.last_info());
            e
        };
        println!("  {:?}", ev.expect("move"));
    }
    println!("{:?}", g.stage());
}
