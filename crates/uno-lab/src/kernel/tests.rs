//! Tests of `kernel`.

use super::nth_bit;

#[test]
fn nth_bit_finds_every_set_bit_in_order() {
    let mut state = 0x1234_5678_9ABC_DEF0u64;
    for _ in 0..20_000 {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let bits = state & (state >> 7) ^ (1 << (state % 64));
        let expected: Vec<u8> = (0..64).filter(|i| bits & (1u64 << i) != 0).collect();
        for (k, &want) in expected.iter().enumerate() {
            assert_eq!(nth_bit(bits, k), want, "bits {bits:#x}, k {k}");
        }
    }
    assert_eq!(nth_bit(u64::MAX, 63), 63);
    assert_eq!(nth_bit(1 << 63, 0), 63);
}
