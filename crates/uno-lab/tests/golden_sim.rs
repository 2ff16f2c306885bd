//! `simulate`'s totals, seed for seed, as golden data: every rule set of `uno::testing`, at two
//! players, four (where the rules seat four) and the most they seat, 300 games of `random`
//! bots (the speed benchmark's table, on whatever path the runner takes for it) and 60 of
//! `heuristic` against `random`. Each line of `tests/golden/sim.txt` is the run's results as
//! JSON, so the runner's games stay the same whatever plays them.
//!
//! `UNO_GOLDEN=update cargo test -p uno-lab --test golden_sim` rewrites the file, for a change
//! meant to alter behaviour.

use uno::testing::rule_sets;
use uno_lab::{simulate, SimConfig};

const FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/sim.txt");

fn golden_lines() -> Vec<String> {
    let mut lines = Vec::new();
    for set in rule_sets() {
        let (min, max) = (set.rules.min_players(), set.rules.max_players());
        let mut counts = vec![min, 4.clamp(min, max), max];
        counts.dedup();
        for players in counts {
            for (bots, games) in [("random", 300), ("heuristic+random", 60)] {
                let names = match bots {
                    "random" => vec!["random".to_string(); players],
                    _ => (0..players).map(|s| if s % 2 == 0 { "heuristic" } else { "random" }.to_string()).collect(),
                };
                let config = SimConfig {
                    rules: set.rules.clone(),
                    players,
                    bots: names,
                    games,
                    seed: 11,
                    threads: 1,
                    checked: false,
                };
                let results = simulate(&config, &|_| {}).expect("the rules seat them");
                let json = serde_json::to_string(&results).expect("serialisable");
                lines.push(format!("{} | {players} | {bots} | {json}", set.name));
            }
        }
    }
    lines
}

#[test]
fn the_runner_plays_every_rule_set_as_the_golden_data_says() {
    let lines = golden_lines();
    if std::env::var("UNO_GOLDEN").as_deref() == Ok("update") {
        std::fs::write(FILE, lines.join("\n") + "\n").expect("write the golden data");
        return;
    }
    let want = std::fs::read_to_string(FILE).expect("tests/golden/sim.txt (UNO_GOLDEN=update writes it)");
    let want: Vec<&str> = want.lines().collect();
    let differ: Vec<String> = lines
        .iter()
        .filter(|l| !want.contains(&l.as_str()))
        .map(|l| format!("  now {l}"))
        .chain(want.iter().filter(|w| !lines.contains(&w.to_string())).map(|w| format!("  was {w}")))
        .collect();
    assert!(differ.is_empty(), "{} lines differ from the golden data:\n{}", differ.len(), differ.join("\n"));
}
