//! Full random games, per preset and player count, on one thread: the simulator's hot path
//! (`Game::new_fast`, `restart`, `RandomBot::choose_view`, `apply_unchecked`).
//!
//! `cargo bench -p uno-bots --bench simulate`; criterion reports games per second
//! (its "elements/s"). `tabletop uno sim … --threads 1` measures the same loop end to end.

use std::sync::Arc;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use uno::Rules;
use uno_bots::{simulate, SimConfig};

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

criterion_group!(benches, games);
criterion_main!(benches);
