//! Helpers shared by the native test binaries (each test file that needs them says `mod common;`):
//! floating-point error bounds, test data and array comparisons. The GPU crate's tests include
//! this file too (crates/pe-lab-gpu/tests/common), beside their shared GPU context.
// Every test binary compiles this module and uses only part of it.
#![allow(dead_code)]

use ndarray::{Array, ArrayView2, Dimension, ShapeBuilder};

/// u = 2⁻²⁴, the unit roundoff of f32.
pub const UNIT_ROUNDOFF: f64 = 1.0 / (1u64 << 24) as f64;

/// γ_m = m·u/(1 − m·u): an m-term f32 sum or dot product, in any order (with or without fused
/// multiply-adds), is within γ_m·Σ|terms| of the exact value (Higham, "Accuracy and Stability of
/// Numerical Algorithms", §3.1).
pub fn gamma(m: usize) -> f64 {
    let mu = m as f64 * UNIT_ROUNDOFF;
    mu / (1.0 - mu)
}

/// Deterministic values in [−1, 1) from a seeded 64-bit LCG (Knuth's MMIX constants): test data
/// any shape, the same on every machine, with no dependency.
pub fn pseudo_random<D: Dimension, Sh: ShapeBuilder<Dim = D>>(
    shape: Sh,
    seed: u64,
) -> Array<f32, D> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(1);
    Array::from_shape_simple_fn(shape, || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0
    })
}

/// Largest |a − b| over two arrays of the same shape.
pub fn max_abs_diff(a: ArrayView2<f32>, b: ArrayView2<f32>) -> f32 {
    assert_eq!(a.dim(), b.dim());
    a.iter()
        .zip(b)
        .fold(0.0f32, |m, (&x, &y)| m.max((x - y).abs()))
}
