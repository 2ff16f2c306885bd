//! The search on positions from random games: a fresh `SearchBot` per position (no table
//! carried over, the worst case of a move), as `tabletop duel bench` measures it.
//!
//! `cargo bench -p duel --bench search`; criterion reports positions per second (its
//! "elements/s"). The node budget, not the clock, ends these searches (`Difficulty::limits`),
//! so the time per position is the search's speed.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use duel::sim::{setup_for, SimConfig};
use duel::{Board, Bot, BotKind, Difficulty, DuelGame, SearchBot, SetupMode, Side, Stage};

const POSITIONS: u64 = 20;

/// Positions with black to move, a few rounds into random games on the default grid.
fn positions() -> Vec<Board> {
    let cfg = SimConfig {
        red: BotKind::Random,
        black: BotKind::Random,
        seed: 1,
        width: duel::DEFAULT_WIDTH,
        height: duel::DEFAULT_HEIGHT,
        max_rounds: 200,
        setup: SetupMode::Mirrored,
    };
    let mut out = Vec::new();
    let mut i = 0u64;
    while (out.len() as u64) < POSITIONS {
        let mut game = DuelGame::from_position(setup_for(&cfg, i).expect("a setup"));
        let seed = seeding::duel_game_seed(cfg.seed, i);
        let (mut red, mut black) = (BotKind::Random.build(seed ^ 1), BotKind::Random.build(seed ^ 2));
        for p in 0..(seed % 30) * 2 + 1 {
            if game.is_over() {
                break;
            }
            let bot: &mut dyn Bot = if p % 2 == 0 { red.as_mut() } else { black.as_mut() };
            game.bot_move(bot).expect("a legal move");
        }
        if matches!(game.stage(), Stage::Play { to_move: Side::Black, .. }) {
            out.push(game.position().clone());
        }
        i += 1;
    }
    out
}

/// Searches every position with a fresh bot; the nodes searched in all.
fn nodes(d: Difficulty, positions: &[Board]) -> u64 {
    positions
        .iter()
        .map(|p| {
            let mut bot = SearchBot::new(d);
            bot.choose(p);
            bot.last_info().nodes
        })
        .sum()
}

fn search(c: &mut Criterion) {
    let positions = positions();
    let mut group = c.benchmark_group("search");
    group.throughput(Throughput::Elements(POSITIONS));
    group.sample_size(10);
    for d in [Difficulty::Medium, Difficulty::Hard] {
        // The nodes searched, a fingerprint of the search: a change that should not alter what
        // it searches leaves it as it was.
        println!("search/{d}: {} nodes over {POSITIONS} positions", nodes(d, &positions));
        group.bench_with_input(BenchmarkId::from_parameter(d), &positions, |b, positions| {
            b.iter(|| nodes(d, positions))
        });
    }
    group.finish();
}

criterion_group!(benches, search);
criterion_main!(benches);
