//! Full random games, per preset and player count, on one thread.
//!
//! `random_games`: what `simulate` runs for an all-`random` table: the kernel
//! (`uno_lab::kernel`) where the rules allow, the engine loop otherwise (`csce322` stacks).
//! `engine_games`: the same games through the general engine (`Game::new_fast`, `restart`,
//! `RandomBot::choose_view`, `apply_unchecked`), for comparison.
//!
//! `cargo bench -p uno-lab --bench simulate`; criterion reports games per second
//! (its "elements/s"). `tabletop uno sim … --threads 1` measures the first end to end.

use std::sync::Arc;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use uno::{Game, Rules};
use uno_bots::{Bot, RandomBot};
use uno_lab::{simulate, SimConfig};

const GAMES: u64 = 20_000;

fn games(c: &mut Criterion) {
    let mut group = c.benchmark_group("random_games");
    group.throughput(Throughput::Elements(GAMES));
    group.sample_size(10);
    for preset in ["official", "cs410", "two-color", "csce322"] {
        let rules = Arc::new(Rules::preset(preset).expect("a shipped preset"));
        for players in [2, 4, 7] {
            if rules.check_players(players).is_err() {
                continue;
            }
            let config = SimConfig {
                rules: rules.clone(),
                players,
                bots: vec!["random".into(); players],
                games: GAMES,
                seed: 1,
                threads: 1,
                checked: false,
            };
            group.bench_with_input(BenchmarkId::new(preset, players), &config, |b, config| {
                b.iter(|| simulate(config, &|_| {}).expect("a valid configuration"))
            });
        }
    }
    group.finish();
}

/// `GAMES` rounds through `Game` and `RandomBot`; returns the turns, so nothing is optimised out.
fn engine_block(rules: &Arc<Rules>, players: usize) -> u64 {
    let mut game = Game::new_fast(rules.clone(), players, 0).expect("a valid table");
    let mut bots: Vec<RandomBot> = (0..players).map(|_| RandomBot::new(0)).collect();
    let mut turns = 0;
    for g in 0..GAMES {
        let seed = seeding::sim_game_seed(1, g);
        game.restart(seed);
        for (s, bot) in bots.iter_mut().enumerate() {
            bot.reseed(seeding::sim_bot_seed(seed, s));
        }
        while !game.is_round_over() {
            let seat = game.current();
            let action = bots[seat.index()].choose_view(&game.view(seat));
            game.apply_unchecked(seat, action);
        }
        turns += game.turns() as u64;
    }
    turns
}

fn engine_games(c: &mut Criterion) {
    let mut group = c.benchmark_group("engine_games");
    group.throughput(Throughput::Elements(GAMES));
    group.sample_size(10);
    let rules = Arc::new(Rules::preset("official").expect("a shipped preset"));
    for players in [2, 4, 7] {
        group.bench_with_input(BenchmarkId::new("official", players), &players, |b, &players| {
            b.iter(|| engine_block(&rules, players))
        });
    }
    group.finish();
}

criterion_group!(benches, games, engine_games);
criterion_main!(benches);
