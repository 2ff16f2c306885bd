//! The game's generators: ChaCha for dealt games (records replay them), SplitMix64 for
//! simulation.

use rand::{Rng, RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Fisher–Yates with the game's portable RNG, so every platform deals the same cards.
pub(crate) fn shuffle<T, R: Rng>(items: &mut [T], rng: &mut R) {
    for i in (1..items.len()).rev() {
        let j = rng.gen_range(0..=i as u32) as usize;
        items.swap(i, j);
    }
}

/// The game's source of randomness: ChaCha for dealt games (records replay them), or the fast
/// [`SimRng`] for simulation. A match per draw is cheaper than making `Game` generic.
// A game holds exactly one generator inline; boxing ChaCha would add a pointer chase to every
// draw of a recorded game to save bytes nobody has many copies of.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub(crate) enum GameRng {
    Portable(ChaCha8Rng),
    Fast(SimRng),
}

impl GameRng {
    /// How far the generator has run; part of the state hash.
    pub(crate) fn position(&self) -> u64 {
        match self {
            GameRng::Portable(r) => r.get_word_pos() as u64,
            GameRng::Fast(r) => r.0,
        }
    }
}

impl RngCore for GameRng {
    #[inline]
    fn next_u32(&mut self) -> u32 {
        match self {
            GameRng::Portable(r) => r.next_u32(),
            GameRng::Fast(r) => r.next_u32(),
        }
    }
    #[inline]
    fn next_u64(&mut self) -> u64 {
        match self {
            GameRng::Portable(r) => r.next_u64(),
            GameRng::Fast(r) => r.next_u64(),
        }
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        match self {
            GameRng::Portable(r) => r.fill_bytes(dest),
            GameRng::Fast(r) => r.fill_bytes(dest),
        }
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand::Error> {
        self.fill_bytes(dest);
        Ok(())
    }
}

/// SplitMix64 (Steele, Lea and Flood 2014): one add and two multiply-xorshifts per 64 bits,
/// statistically sound for simulation, and portable because it is plain wrapping `u64`
/// arithmetic. Not for anything an opponent could exploit: the state is the output's preimage.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimRng(pub(crate) u64);

impl SimRng {
    /// A value uniform in `0..n` (`n >= 1`) by Lemire's multiply-shift; the bias is below
    /// n / 2^64, far under anything a simulation can see, and there is no division.
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }
}

impl RngCore for SimRng {
    #[inline]
    fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }
    #[inline]
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        for chunk in dest.chunks_mut(8) {
            let bytes = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&bytes[..chunk.len()]);
        }
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand::Error> {
        self.fill_bytes(dest);
        Ok(())
    }
}

impl SeedableRng for SimRng {
    type Seed = [u8; 8];
    fn from_seed(seed: [u8; 8]) -> SimRng {
        SimRng(u64::from_le_bytes(seed))
    }
    fn seed_from_u64(state: u64) -> SimRng {
        SimRng(state)
    }
}
