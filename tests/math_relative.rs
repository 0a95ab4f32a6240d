//! Integration tests of `pe_lab::math::relative`: the offset-δ projection matrices and the
//! measured projection error, checked against an independent float64 reference
//! (`ω_j = base^(−2j/d)`, written out here without crate helpers).
#![cfg(not(target_arch = "wasm32"))] // native only: proptest and large sizes

use ndarray::{Array2, ShapeBuilder};
use pe_lab::math::encoding::{sinusoidal, sinusoidal_from, textbook_sinusoidal};
use pe_lab::math::relative::{
    apply, max_projection_error, projection_error_of, rotation, rotation_for_pair,
    try_max_projection_error, valid_positions,
};
use pe_lab::math::MathError;
use proptest::prelude::*;

/// Bound on the projection error on the float32 encoding: a few float32 roundings (~6e-8 each).
const PROJECTION_TOLERANCE: f64 = 5e-7;

/// The same two computations agree to this: the crate takes ω_j with `libm`'s pow (the same bits
/// natively and in the page), this file with the platform's `powf`; the two may differ by one
/// ulp of ω, which the angle δ·ω multiplies by up to δ.
const SAME_COMPUTATION: f64 = 1e-12;

fn omega(j: usize, d: usize, base: f64) -> f64 {
    base.powf(-((2 * j) as f64) / d as f64)
}

/// The expected matrix [[cos δω, sin δω], [−sin δω, cos δω]].
fn expected_matrix(j: usize, d: usize, base: f64, delta: i64) -> [[f64; 2]; 2] {
    let a = delta as f64 * omega(j, d, base);
    [[a.cos(), a.sin()], [-a.sin(), a.cos()]]
}

/// Largest |M_j·(p[i,2j], p[i,2j+1]) − (p[i+δ,2j], p[i+δ,2j+1])| computed here from scratch.
fn reference_projection_error(p: &Array2<f32>, base: f64, delta: i64) -> f64 {
    let (n, d) = p.dim();
    let mut worst = 0.0f64;
    for i in 0..n as i64 {
        let t = i + delta;
        if t < 0 || t >= n as i64 {
            continue;
        }
        let (i, t) = (i as usize, t as usize);
        for j in 0..d / 2 {
            let m = expected_matrix(j, d, base, delta);
            let (x, y) = (p[[i, 2 * j]] as f64, p[[i, 2 * j + 1]] as f64);
            let ex = (m[0][0] * x + m[0][1] * y - p[[t, 2 * j]] as f64).abs();
            let ey = (m[1][0] * x + m[1][1] * y - p[[t, 2 * j + 1]] as f64).abs();
            worst = worst.max(ex).max(ey);
        }
    }
    worst
}

// ---------------------------------------------------------------------------------------------
// The matrices
// ---------------------------------------------------------------------------------------------

#[test]
fn rotation_has_one_matrix_per_frequency() {
    for &d in &[1usize, 2, 3, 4, 16, 33, 512, 2047, 2048] {
        assert_eq!(rotation(d, 10000.0, 3).len(), d.div_ceil(2), "d={d}");
    }
}

#[test]
fn rotation_entries_match_the_definition() {
    for &(d, base) in &[
        (16usize, 10000.0),
        (33, 10000.0),
        (2048, 10000.0),
        (7, 1.5),
        (64, 1e6),
    ] {
        for &delta in &[-9000i64, -100, -7, -1, 0, 1, 2, 7, 100, 8191] {
            let ms = rotation(d, base, delta);
            for (j, m) in ms.iter().enumerate() {
                let e = expected_matrix(j, d, base, delta);
                for r in 0..2 {
                    for c in 0..2 {
                        assert!(
                            (m[r][c] - e[r][c]).abs() < 1e-12,
                            "d={d} base={base} δ={delta} j={j} [{r}][{c}]: {} vs {}",
                            m[r][c],
                            e[r][c]
                        );
                    }
                }
                // Structure: a rotation, [[c, s], [−s, c]], with c² + s² = 1.
                assert_eq!(m[0][0], m[1][1]);
                assert_eq!(m[0][1], -m[1][0]);
                assert!((m[0][0].powi(2) + m[0][1].powi(2) - 1.0).abs() < 1e-14);
                assert_eq!(*m, rotation_for_pair(j, d, base, delta));
            }
        }
    }
}

#[test]
fn rotation_known_values() {
    // δ = 0 is the identity for every frequency.
    for m in rotation(33, 10000.0, 0) {
        assert_eq!(m, [[1.0, 0.0], [-0.0, 1.0]]);
    }
    // d = 4, base 10000: ω_0 = 1, ω_1 = 0.01; δ = 1.
    let ms = rotation(4, 10000.0, 1);
    let (s1, c1) = (0.841_470_984_807_896_5, 0.540_302_305_868_139_8);
    let (s01, c01) = (0.009_999_833_334_166_664, 0.999_950_000_416_665_3);
    let close = |a: [[f64; 2]; 2], b: [[f64; 2]; 2]| {
        (0..2).all(|r| (0..2).all(|c| (a[r][c] - b[r][c]).abs() < 1e-15))
    };
    assert!(close(ms[0], [[c1, s1], [-s1, c1]]), "{:?}", ms[0]);
    assert!(close(ms[1], [[c01, s01], [-s01, c01]]), "{:?}", ms[1]);
    // A negative offset is the inverse rotation (the transpose).
    let back = rotation(4, 10000.0, -1);
    assert!(close(back[0], [[c1, -s1], [s1, c1]]), "{:?}", back[0]);
}

#[test]
fn apply_multiplies_row_major() {
    let m = [[1.0, 2.0], [3.0, 4.0]];
    assert_eq!(apply(&m, 5.0, 6.0), (17.0, 39.0));
}

#[test]
fn rotation_identity_holds_exactly_in_f64() {
    // M_j(δ) carries (sin iω, cos iω) to (sin (i+δ)ω, cos (i+δ)ω) for every i: the identity itself,
    // independent of any float32 rounding of P.
    let (d, base) = (64usize, 10000.0);
    for &delta in &[-50i64, -1, 0, 1, 3, 17, 1000] {
        let ms = rotation(d, base, delta);
        for i in [0i64, 1, 5, 99, 4000, 8191] {
            for (j, m) in ms.iter().enumerate() {
                let w = omega(j, d, base);
                let a = i as f64 * w;
                let (x, y) = apply(m, a.sin(), a.cos());
                let b = (i + delta) as f64 * w;
                assert!((x - b.sin()).abs() < 1e-11, "δ={delta} i={i} j={j}");
                assert!((y - b.cos()).abs() < 1e-11, "δ={delta} i={i} j={j}");
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The measured projection error
// ---------------------------------------------------------------------------------------------

#[test]
fn valid_positions_are_the_rows_with_a_partner() {
    assert_eq!(valid_positions(10, 0), 0..10);
    assert_eq!(valid_positions(10, 3), 0..7);
    assert_eq!(valid_positions(10, -3), 3..10);
    assert_eq!(valid_positions(10, 9), 0..1);
    assert_eq!(valid_positions(10, -9), 9..10);
    assert_eq!(valid_positions(10, 10).len(), 0);
    assert_eq!(valid_positions(10, -10).len(), 0);
    assert_eq!(valid_positions(10, i64::MAX).len(), 0);
    assert_eq!(valid_positions(10, i64::MIN).len(), 0);
    assert_eq!(valid_positions(1, 0), 0..1);
}

#[test]
fn projection_error_is_float32_small() {
    let cases: &[(usize, usize, f64, i64)] = &[
        (8192, 512, 10000.0, 7),
        (8192, 512, 10000.0, -7),
        (8192, 64, 10000.0, 8000),
        (8192, 64, 10000.0, -8191),
        (4096, 1024, 10000.0, 1),
        (1000, 33, 10000.0, 5),
        (1000, 16, 1.5, -3),
        (1000, 16, 1e6, 250),
        (64, 2, 10000.0, 63),
    ];
    for &(n, d, base, delta) in cases {
        let err = max_projection_error(n, d, base, delta);
        assert!(
            err < PROJECTION_TOLERANCE,
            "n={n} d={d} base={base} δ={delta}: error {err:e}"
        );
        assert!(
            err > 0.0,
            "n={n} d={d} δ={delta}: float32 rounding should show"
        );
        assert_eq!(try_max_projection_error(n, d, base, delta).unwrap(), err);
    }
}

#[test]
fn projection_error_at_largest_size() {
    let err = max_projection_error(8192, 2048, 10000.0, 7);
    assert!(err < PROJECTION_TOLERANCE, "error {err:e}");
}

#[test]
fn projection_error_agrees_with_the_reference_computation() {
    for &(n, d, base, delta) in &[
        (300usize, 33usize, 10000.0, 4i64),
        (300, 32, 10000.0, -17),
        (97, 8, 2.0, 96),
        (120, 6, 10000.0, 5),
        (120, 7, 10000.0, -5),
        (120, 2, 10000.0, 1),
    ] {
        let p = sinusoidal(n, d, base);
        let ours = reference_projection_error(&p, base, delta);
        let theirs = projection_error_of(p.view(), base, delta);
        assert!(
            (ours - theirs).abs() < SAME_COMPUTATION,
            "{ours:e} vs {theirs:e}"
        );
        assert_eq!(max_projection_error(n, d, base, delta), theirs);
    }
}

#[test]
fn projection_error_of_accepts_non_contiguous_views() {
    let (n, d, base, delta) = (80usize, 10usize, 10000.0, 3i64);
    let p = sinusoidal(n, d, base);
    // Column-major copy: its rows are strided.
    let mut column_major = Array2::<f32>::zeros((n, d).f());
    column_major.assign(&p);
    let strided = column_major.view();
    assert!(strided.row(0).as_slice().is_none());
    assert_eq!(
        projection_error_of(strided, base, delta),
        projection_error_of(p.view(), base, delta)
    );
}

#[test]
fn projection_error_detects_a_wrong_encoding() {
    // Perturb one entry of P: the projection error must see it.
    let (n, d, base, delta) = (50usize, 8usize, 10000.0, 2i64);
    let mut p = sinusoidal(n, d, base);
    p[[20, 3]] += 1e-3;
    let err = projection_error_of(p.view(), base, delta);
    assert!(err > 5e-4, "error {err:e}");
}

#[test]
fn zero_offset_gives_zero_error() {
    for &(n, d) in &[(1usize, 1usize), (100, 16), (8192, 64), (513, 33)] {
        assert_eq!(max_projection_error(n, d, 10000.0, 0), 0.0, "n={n} d={d}");
    }
}

#[test]
fn offsets_without_partners_give_zero_error() {
    for &(n, delta) in &[
        (10usize, 10i64),
        (10, -10),
        (10, 11),
        (10, -1000),
        (1, 1),
        (8192, 8192),
        (8192, -8192),
        (5, i64::MAX),
        (5, i64::MIN),
    ] {
        assert_eq!(
            max_projection_error(n, 16, 10000.0, delta),
            0.0,
            "n={n} δ={delta}"
        );
    }
}

#[test]
fn single_column_has_no_complete_pair() {
    assert_eq!(max_projection_error(100, 1, 10000.0, 3), 0.0);
}

#[test]
fn try_max_projection_error_rejects_invalid_arguments() {
    assert_eq!(
        try_max_projection_error(4, 0, 10000.0, 1).unwrap_err(),
        MathError::ZeroDimension(0)
    );
    assert_eq!(
        try_max_projection_error(0, 4, 10000.0, 1).unwrap_err(),
        MathError::ZeroPositions(0)
    );
    for base in [
        1.0,
        0.5,
        0.0,
        -2.0,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
    ] {
        assert!(
            matches!(
                try_max_projection_error(4, 4, base, 1),
                Err(MathError::InvalidBase(_))
            ),
            "base {base}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn prop_rotation_carries_rows(
        n in 1usize..300,
        d in 1usize..300,
        base in 1.01f64..1e6,
        delta in -300i64..300,
    ) {
        let ms = rotation(d, base, delta);
        prop_assert_eq!(ms.len(), d.div_ceil(2));
        let p = sinusoidal(n, d, base);
        // On the float32 encoding, through the crate's measurement and the one written here.
        let err = max_projection_error(n, d, base, delta);
        prop_assert!(err < PROJECTION_TOLERANCE, "error {:e}", err);
        prop_assert!((reference_projection_error(&p, base, delta) - err).abs() < SAME_COMPUTATION);
        // On the exact float64 values, the identity holds to rounding.
        for i in valid_positions(n, delta) {
            let t = (i as i64 + delta) as f64;
            for (j, m) in ms.iter().enumerate() {
                let w = omega(j, d, base);
                let (x, y) = apply(m, (i as f64 * w).sin(), (i as f64 * w).cos());
                prop_assert!((x - (t * w).sin()).abs() < 1e-9);
                prop_assert!((y - (t * w).cos()).abs() < 1e-9);
            }
        }
    }

    #[test]
    fn prop_offsets_out_of_range_give_zero(n in 1usize..200, extra in 0i64..1000, negative: bool) {
        let delta = (n as i64 + extra) * if negative { -1 } else { 1 };
        prop_assert_eq!(max_projection_error(n, 8, 10000.0, delta), 0.0);
        prop_assert_eq!(valid_positions(n, delta).len(), 0);
    }

    #[test]
    fn prop_try_never_panics(
        n in 0usize..40,
        d in 0usize..40,
        base in proptest::num::f64::ANY,
        delta in any::<i64>(),
    ) {
        let valid = n >= 1 && d >= 1 && base.is_finite() && base > 1.0;
        match try_max_projection_error(n, d, base, delta) {
            Ok(err) => {
                prop_assert!(valid);
                prop_assert!(err.is_finite() && err >= 0.0);
            }
            Err(_) => prop_assert!(!valid),
        }
    }
}

#[test]
fn textbook_float32_breaks_the_projection_where_the_exact_p_does_not() {
    // n = 2048, d = 1024, δ = 1000: the rotation M of δ applied to the textbook float32 P misses
    // p_(i+δ) by ~1e-4 (its angles are off by that much), the exact P by float32 rounding only.
    let (n, d, base, delta) = (2048usize, 1024usize, 10000.0, 1000i64);
    let textbook = projection_error_of(textbook_sinusoidal(n, d, base).view(), base, delta);
    let exact = max_projection_error(n, d, base, delta);
    println!("n={n} d={d} δ={delta}: projection error textbook {textbook:.3e}, exact {exact:.3e}");
    assert!(textbook > 1e-5, "textbook {textbook:e}");
    assert!(textbook < 1e-3, "textbook {textbook:e}");
    assert!(exact < 2e-7, "exact {exact:e}");
}

#[test]
fn the_projection_error_is_the_same_for_1_based_rows() {
    // The error depends on the rows only through i·ω and (i+δ)·ω: starting at position 1 changes
    // nothing beyond float32 rounding.
    let (n, d, base, delta) = (500usize, 64usize, 10000.0, 37i64);
    let one = projection_error_of(sinusoidal_from(1, n, d, base).view(), base, delta);
    assert!(one < PROJECTION_TOLERANCE && one > 0.0, "{one:e}");
}
