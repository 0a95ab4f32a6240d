//! Integration tests of `pe_lab::math::rng`: the published FNV-1a 64 and splitmix64 test values,
//! an independent splitmix64 written out here from Vigna's reference C code, and the statistics of
//! the approximate normals.
#![cfg(not(target_arch = "wasm32"))] // native only: proptest

use pe_lab::math::rng::{fnv1a_64, seed_of, SplitMix64};
use proptest::prelude::*;

/// Vigna's `splitmix64.c`, transcribed: `z = (x += 0x9e3779b97f4a7c15); …`.
struct ReferenceSplitMix {
    x: u64,
}

impl ReferenceSplitMix {
    fn next(&mut self) -> u64 {
        self.x = self.x.wrapping_add(0x9e3779b97f4a7c15);
        let mut z = self.x;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58476d1ce4e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d049bb133111eb);
        z ^ (z >> 31)
    }
}

#[test]
fn fnv1a_64_matches_the_published_test_vectors() {
    // From the FNV reference test suite (Fowler, Noll, Vo).
    assert_eq!(fnv1a_64(b""), 0xcbf29ce484222325);
    assert_eq!(fnv1a_64(b"a"), 0xaf63dc4c8601ec8c);
    assert_eq!(fnv1a_64(b"foobar"), 0x85944171f73967e8);
    assert_eq!(seed_of("foobar"), 0x85944171f73967e8);
}

#[test]
fn splitmix64_from_seed_zero_matches_the_reference_output() {
    // The first outputs of splitmix64.c seeded with 0.
    let mut stream = SplitMix64::new(0);
    assert_eq!(stream.next_u64(), 0xe220a8397b1dcdaf);
    assert_eq!(stream.next_u64(), 0x6e789e6aa1b965f4);
    assert_eq!(stream.next_u64(), 0x06c45d188009454f);
}

#[test]
fn below_stays_in_range_and_zero_bound_gives_zero() {
    let mut stream = SplitMix64::new(7);
    assert_eq!(stream.below(0), 0);
    for bound in 1..200 {
        assert!(stream.below(bound) < bound);
    }
    // Every value of a small range is reached.
    let mut seen = [false; 5];
    for _ in 0..200 {
        seen[stream.below(5)] = true;
    }
    assert!(seen.iter().all(|&s| s), "{seen:?}");
}

#[test]
fn approximate_normals_have_mean_zero_variance_one_and_bounded_range() {
    let mut stream = SplitMix64::new(12345);
    let samples: Vec<f64> = (0..200_000)
        .map(|_| stream.approx_standard_normal())
        .collect();
    let count = samples.len() as f64;
    let mean = samples.iter().sum::<f64>() / count;
    let variance = samples.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / count;
    // Standard errors: 1/√N ≈ 0.0022 for the mean, √(2/N) ≈ 0.0032 for the variance.
    assert!(mean.abs() < 0.01, "mean {mean}");
    assert!((variance - 1.0).abs() < 0.015, "variance {variance}");
    assert!(samples.iter().all(|x| x.abs() < 6.0));
    // A normal has ~4.55 % of its mass beyond 2σ; the Irwin–Hall sum of 12 about 4.6 %.
    let tail = samples.iter().filter(|x| x.abs() > 2.0).count() as f64 / count;
    assert!((tail - 0.0455).abs() < 0.004, "tail beyond 2: {tail}");
}

#[test]
fn approximate_normal_is_the_exact_irwin_hall_sum_of_the_stream() {
    // Independent recomputation: twelve 32-bit halves, each (u + ½)/2³², summed, minus 6.
    let mut reference = ReferenceSplitMix { x: 99 };
    let mut halves = Vec::new();
    for _ in 0..6 {
        let bits = reference.next();
        halves.push(bits >> 32);
        halves.push(bits & 0xffff_ffff);
    }
    let expected: f64 = halves
        .iter()
        .map(|&u| (u as f64 + 0.5) / 4294967296.0)
        .sum::<f64>()
        - 6.0;
    let got = SplitMix64::new(99).approx_standard_normal();
    assert!((got - expected).abs() < 1e-14, "{got} vs {expected}");
}

proptest! {
    #[test]
    fn splitmix64_matches_the_reference_for_any_seed(seed in any::<u64>()) {
        let mut stream = SplitMix64::new(seed);
        let mut reference = ReferenceSplitMix { x: seed };
        for _ in 0..8 {
            prop_assert_eq!(stream.next_u64(), reference.next());
        }
    }

    #[test]
    fn fnv1a_64_matches_a_direct_transcription(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
        let mut hash: u64 = 0xcbf29ce484222325;
        for byte in &bytes {
            hash ^= u64::from(*byte);
            hash = hash.wrapping_mul(0x100000001b3);
        }
        prop_assert_eq!(fnv1a_64(&bytes), hash);
    }
}
