//! The Rust value network computes what the trainer's numpy network computes (a tiny model
//! written by `python training/train_value.py --fixture crates/uno-nn/tests/fixtures`), changing
//! one input in place agrees with running the whole network, and the shipped file loads.

use std::sync::Arc;

use uno::{Game, Rules};
use uno_nn::{obs, ModelError, ValueNet};

const TINY: &[u8] = include_bytes!("fixtures/tiny-value.safetensors");
const TINY_JSON: &str = include_str!("fixtures/tiny-value.json");

fn fixture() -> (ValueNet, Vec<Vec<f32>>, Vec<f32>) {
    let net = ValueNet::from_safetensors(TINY).expect("the fixture loads");
    let expected: serde_json::Value = serde_json::from_str(TINY_JSON).expect("json");
    let rows = expected["obs"]
        .as_array()
        .expect("obs")
        .iter()
        .map(|row| row.as_array().expect("row").iter().map(|v| v.as_f64().expect("number") as f32).collect())
        .collect();
    let win = expected["win"].as_array().expect("win").iter().map(|v| v.as_f64().expect("number") as f32).collect();
    (net, rows, win)
}

#[test]
fn win_chances_match_the_training_framework_within_1e_5() {
    let (net, rows, want) = fixture();
    assert_eq!(rows.len(), want.len());
    for (k, (row, w)) in rows.iter().zip(&want).enumerate() {
        let got = net.win_chance(row);
        assert!((got - w).abs() <= 1e-5, "row {k}: rust {got}, numpy {w}");
    }
}

#[test]
fn changing_one_input_in_place_is_running_the_network_again() {
    let (net, rows, _) = fixture();
    let mut hidden = Vec::new();
    net.first_layer(&rows[0], &mut hidden);
    for index in [0, 17, obs::HAND_SIZES, obs::DRAW_PILE] {
        let mut changed = hidden.clone();
        net.add_input(&mut changed, index, 1.0);
        let mut row = rows[0].clone();
        row[index] += 1.0;
        let (fast, full) = (net.finish(&changed), net.win_chance(&row));
        assert!((fast - full).abs() <= 1e-6, "input {index}: in place {fast}, again {full}");
    }
}

#[test]
fn the_shipped_value_loads_and_the_table_sums_to_one() {
    let net = uno_nn::shipped_value();
    assert!(net.parameters() > 1_000);
    assert!(uno_nn::SHIPPED_VALUE.len() <= 2 * 1024 * 1024, "the value file stays under 2 MB");
    let game = Game::new_fast(Arc::new(Rules::preset("official").expect("preset")), 4, 7).expect("a game");
    let mut table = Vec::new();
    net.table(&game, &mut table);
    assert_eq!(table.len(), 4);
    assert!((table.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    assert!(table.iter().all(|p| *p > 0.05 && *p < 0.95), "a fresh deal is nobody's yet: {table:?}");
}

/// Trained at every table size the official rules allow (`value_data --players`), and it says so.
#[test]
fn the_shipped_value_was_trained_at_every_table_size() {
    let net = uno_nn::shipped_value();
    assert_eq!(net.metadata().get("seats").map(String::as_str), Some("2,3,4,5,6,7,8,9,10"));
    let rules = Arc::new(Rules::preset("official").expect("preset"));
    for players in 2..=10 {
        let game = Game::new_fast(rules.clone(), players, 7).expect("a game");
        let mut table = Vec::new();
        net.table(&game, &mut table);
        assert_eq!(table.len(), players);
        assert!((table.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{players} seats: {table:?}");
        assert!(table.iter().all(|p| *p > 0.0 && *p < 0.9), "{players} seats, a fresh deal: {table:?}");
    }
}

#[test]
fn a_q_network_file_is_not_a_value_network() {
    let q_file = include_bytes!("fixtures/tiny.safetensors");
    assert!(matches!(ValueNet::from_safetensors(q_file), Err(ModelError::Format { .. })));
}
