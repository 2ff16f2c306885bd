//! 64-bit numbers (seeds, generator state) in JSON, as [`seeding::wide`] writes and reads
//! them: decimal strings, a number read too. Use with `#[serde(with = "crate::wide")]`.

pub use seeding::wide::*;

#[cfg(test)]
mod tests {
    #[test]
    fn records_and_positions_keep_a_seed_above_2_pow_53() {
        let rules = crate::Rules::preset("official").expect("preset");
        let seed = u64::MAX - 58;
        let record = crate::GameRecord::new(&rules, 3, seed);
        let json = serde_json::to_value(&record).expect("json");
        assert_eq!(json["seed"], "18446744073709551557");
        assert_eq!(serde_json::from_value::<crate::GameRecord>(json.clone()).expect("back"), record);
        // An older record, its seed a number, reads the same.
        let mut old = json;
        old["seed"] = serde_json::json!(seed);
        assert_eq!(serde_json::from_value::<crate::GameRecord>(old).expect("old form"), record);

        let mut game = crate::Game::new(rules, 3, seed).expect("game");
        let first = game.legal_actions()[0];
        game.apply(game.current(), first).expect("legal");
        let position = game.position();
        let json = serde_json::to_value(&position).expect("json");
        assert_eq!(json["seed"], "18446744073709551557");
        assert!(json["rng"]["word_pos"].is_string(), "{json}");
        assert_eq!(serde_json::from_value::<crate::Position>(json).expect("back"), position);
    }
}
