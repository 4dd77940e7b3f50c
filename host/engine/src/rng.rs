//! All randomness of a game comes from its one 64-bit seed, split into
//! independent ChaCha streams so that, e.g., a bot's seed does not shift the dice.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The independent random streams of one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    Deal = 1,
    Dice = 2,
    Board = 3,
    BotSeeds = 4,
    Starts = 5,
}

/// A reproducible generator for one stream of one game seed.
pub fn stream(seed: u64, which: Stream) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(which as u64);
    rng
}

/// Derives the seed of game `index` of a series from the series seed.
pub fn derive(seed: u64, index: u64) -> u64 {
    // SplitMix64 finaliser over the pair: distinct, well-mixed game seeds.
    let mut z = seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
