//! Every seed the project derives from another, in one place: the seed of each game of a run,
//! of each bot at a table, of each episode of a learning environment.
//!
//! The formulas differ where their users differ on purpose, and each is named for its use. Every
//! value is pinned: records, golden files, the server's stored tables and the Python package's
//! parity tests depend on them, so a formula here never changes (add a new one instead).
//!
//! A crate of its own, depending only on serde (for [`wide`], the one JSON form of a 64-bit
//! seed), so that Duel (which knows nothing of UNO) and the UNO crates share it.

pub mod wide;

/// 2^64 divided by the golden ratio: SplitMix64's increment, and the seat multiplier below.
pub const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's finaliser: a bijective mix of 64 bits that spreads neighbouring inputs over
/// the whole range.
#[inline]
pub const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One SplitMix64 output for the state `z`: [`mix`] of `z` plus [`GOLDEN`].
#[inline]
pub const fn splitmix(z: u64) -> u64 {
    mix(z.wrapping_add(GOLDEN))
}

/// The deal seed of game `g` in a UNO simulation or match run seeded `run` (`tabletop uno sim`,
/// `uno match`, the benchmarks).
#[inline]
pub const fn sim_game_seed(run: u64, g: u64) -> u64 {
    mix(run.wrapping_add(mix(g.wrapping_add(0x5EED))))
}

/// The seed of the bot in `seat` of a simulated game dealt from `game_seed`
/// ([`sim_game_seed`]).
#[inline]
pub const fn sim_bot_seed(game_seed: u64, seat: usize) -> u64 {
    mix(game_seed ^ GOLDEN.wrapping_mul(seat as u64 + 1))
}

/// The seed of the bot in `seat` at a table dealt from `game_seed`: a game watched or played
/// in the terminal (`uno watch`, `uno play`) and a server table whose creator named no bot seed.
/// Unmixed, unlike [`sim_bot_seed`]: tables stored with it must replay alike.
#[inline]
pub const fn table_bot_seed(game_seed: u64, seat: usize) -> u64 {
    game_seed ^ GOLDEN.wrapping_mul(seat as u64 + 1)
}

/// The deal seed of episode `episode` of environment `env` in a learning environment seeded
/// `run` (`uno_env::VecEnv` and the Python package): an environment's games do not depend on
/// the batch size.
#[inline]
pub const fn episode_seed(run: u64, env: u64, episode: u64) -> u64 {
    splitmix(splitmix(splitmix(run) ^ env) ^ episode)
}

/// The seed of the bot at `seat` in an episode dealt from `episode_seed` ([`episode_seed`]).
#[inline]
pub const fn episode_bot_seed(episode_seed: u64, seat: usize) -> u64 {
    splitmix(episode_seed ^ (seat as u64 + 1).wrapping_mul(0xD6E8_FEB8_6659_FD93))
}

/// The seed of Duel game `index` in a run seeded `run`: a game's result depends only on
/// `(run, index)`, never on how games are spread over threads.
#[inline]
pub const fn duel_game_seed(run: u64, index: u64) -> u64 {
    mix(run.wrapping_mul(GOLDEN).wrapping_add(index.wrapping_mul(0xD1B5_4A32_D192_ED03)))
}

/// The seed of Duel's red player in a game seeded `game_seed` ([`duel_game_seed`]).
#[inline]
pub const fn duel_red_seed(game_seed: u64) -> u64 {
    game_seed ^ 0x5245_4400
}

/// The seed of Duel's black player in a game seeded `game_seed` ([`duel_game_seed`]).
#[inline]
pub const fn duel_black_seed(game_seed: u64) -> u64 {
    game_seed ^ 0x424c_4143_4b00
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values of the formulas as they stood in their crates before they moved here (computed
    /// independently): records, golden files and the Python parity depend on them.
    #[test]
    fn every_formula_keeps_its_values() {
        assert_eq!(splitmix(0), 0xE220_A839_7B1D_CDAF, "SplitMix64's first output for seed 0");
        assert_eq!(sim_game_seed(42, 7), 0x8BF7_B916_4B2A_17CE);
        assert_eq!(sim_bot_seed(0x8BF7_B916_4B2A_17CE, 3), 0x0212_3ACD_22A8_EF67);
        assert_eq!(table_bot_seed(42, 3), 0x78DD_E6E5_FD29_F07E);
        assert_eq!(episode_seed(5, 2, 1), 0x001E_DB30_E887_0A64);
        assert_eq!(episode_bot_seed(0x001E_DB30_E887_0A64, 3), 0x1ED5_5F5A_1628_3417);
        assert_eq!(duel_game_seed(9, 4), 0x4CF8_CA2E_9B29_9CE8);
        assert_eq!(duel_red_seed(0), 0x5245_4400);
        assert_eq!(duel_black_seed(0), 0x424c_4143_4b00);
    }

    #[test]
    fn neighbouring_inputs_give_distinct_seeds() {
        let mut seen = std::collections::HashSet::new();
        for g in 0..1000 {
            assert!(seen.insert(sim_game_seed(42, g)));
            assert!(seen.insert(episode_seed(42, g, 0)));
            assert!(seen.insert(duel_game_seed(42, g)));
        }
        for seat in 0..10 {
            assert_ne!(sim_bot_seed(5, seat), table_bot_seed(5, seat));
            assert_ne!(episode_bot_seed(5, seat), episode_bot_seed(5, seat + 1));
        }
    }
}
