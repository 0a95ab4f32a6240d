//! Integration tests of `pe_lab::math::encoding` against an independent float64 reference.
//!
//! The reference is `pe_lab_math::f64_reference` (feature `f64-reference`), written from the
//! definition (d2l.ai, positional-encoding-def): `p[i, 2j] = sin(i·ω_j)`, `p[i, 2j+1] =
//! cos(i·ω_j)`, `ω_j = base^(−2j/d)`; it calls nothing of the encoding code it checks.
#![cfg(not(target_arch = "wasm32"))] // native only: proptest and large sizes

use ndarray::Array2;
use pe_lab::math::encoding::{
    frequency, frequency_count, is_sine_column, pair_of_column, period, sinusoidal,
    sinusoidal_from, textbook_angle_error, textbook_sinusoidal, textbook_sinusoidal_from,
    try_sinusoidal, try_sinusoidal_from, try_textbook_sinusoidal_from,
};
use pe_lab::math::f64_reference;
use pe_lab::math::MathError;
use proptest::prelude::*;

/// Required accuracy of every entry against the float64 reference.
const TOLERANCE: f64 = 1e-6;

/// Float64 reference value of entry (i, column) straight from the definition.
fn reference(i: usize, column: usize, d: usize, base: f64) -> f64 {
    f64_reference::entry(i, column, d, base)
}

/// Largest |P[i, c] − reference| over the given rows and all columns.
fn max_error_on_rows(
    p: &Array2<f32>,
    base: f64,
    rows: impl IntoIterator<Item = usize>,
) -> (f64, usize, usize) {
    f64_reference::max_error_on_rows(p.view(), 0, base, rows)
}

fn max_error(p: &Array2<f32>, base: f64) -> (f64, usize, usize) {
    max_error_on_rows(p, base, 0..p.nrows())
}

/// Rows 0..head, every `stride`-th row, and the last `tail` rows.
fn sampled_rows(n: usize, head: usize, stride: usize, tail: usize) -> Vec<usize> {
    let mut rows: Vec<usize> = (0..head.min(n))
        .chain((0..n).step_by(stride))
        .chain(n.saturating_sub(tail)..n)
        .collect();
    rows.sort_unstable();
    rows.dedup();
    rows
}

fn assert_accurate(n: usize, d: usize, base: f64) {
    let p = sinusoidal(n, d, base);
    assert_eq!(p.dim(), (n, d));
    let (err, i, c) = max_error(&p, base);
    assert!(
        err <= TOLERANCE,
        "n={n} d={d} base={base}: error {err:e} at ({i}, {c})"
    );
}

/// Largest |P[r, c] − reference(first + r, c)| over all entries: P's rows are the positions
/// first, first + 1, ….
fn max_error_from(p: &Array2<f32>, first: usize, base: f64) -> f64 {
    f64_reference::max_error(p.view(), first, base).0
}

// ---------------------------------------------------------------------------------------------
// Shapes and known values
// ---------------------------------------------------------------------------------------------

#[test]
fn shapes_are_exact() {
    for &(n, d) in &[
        (1, 1),
        (1, 2),
        (2, 1),
        (7, 3),
        (64, 64),
        (65, 33),
        (100, 16),
        (129, 2047),
    ] {
        let p = try_sinusoidal(n, d, 10000.0).unwrap();
        assert_eq!(p.dim(), (n, d), "try_sinusoidal({n}, {d})");
        assert_eq!(
            sinusoidal(n, d, 10000.0).dim(),
            (n, d),
            "sinusoidal({n}, {d})"
        );
        assert!(p.is_standard_layout());
    }
}

#[test]
fn degenerate_sizes_give_empty_matrices() {
    assert_eq!(sinusoidal(0, 8, 10000.0).dim(), (0, 8));
    assert_eq!(sinusoidal(8, 0, 10000.0).dim(), (8, 0));
    assert_eq!(sinusoidal(0, 0, 10000.0).dim(), (0, 0));
}

#[test]
fn row_zero_is_sin_zero_cos_one() {
    for &d in &[1usize, 2, 3, 16, 33, 512, 2047] {
        for &base in &[1.5, 100.0, 10000.0, 1e6] {
            let p = sinusoidal(3, d, base);
            for (c, &v) in p.row(0).iter().enumerate() {
                let expected = if c % 2 == 0 { 0.0 } else { 1.0 };
                assert_eq!(v, expected, "d={d} base={base} column {c}");
            }
        }
    }
}

#[test]
fn hand_checked_values() {
    // d = 4, base = 10000: ω_0 = 1, ω_1 = 10000^(−1/2) = 0.01.
    let p = sinusoidal(3, 4, 10000.0);
    let expected = [
        [0.0, 1.0, 0.0, 1.0],
        [
            0.841_470_984_807_896_5,   // sin 1
            0.540_302_305_868_139_8,   // cos 1
            0.009_999_833_334_166_664, // sin 0.01
            0.999_950_000_416_665_3,   // cos 0.01
        ],
        [
            0.909_297_426_825_681_7,  // sin 2
            -0.416_146_836_547_142_4, // cos 2
            0.019_998_666_693_333_08, // sin 0.02
            0.999_800_006_666_577_8,  // cos 0.02
        ],
    ];
    for (i, row) in expected.iter().enumerate() {
        for (c, &e) in row.iter().enumerate() {
            let got = p[[i, c]] as f64;
            assert!((got - e).abs() < 1e-7, "p[{i},{c}] = {got}, expected {e}");
        }
    }

    // Odd d = 3, base = 8: ω_1 = 8^(−2/3) = 1/4, so column 2 (a sine column) at i = 4 is sin 1.
    let p = sinusoidal(5, 3, 8.0);
    assert!((p[[4, 0]] as f64 - 4f64.sin()).abs() < 1e-7);
    assert!((p[[4, 1]] as f64 - 4f64.cos()).abs() < 1e-7);
    assert!((p[[4, 2]] as f64 - 0.841_470_984_807_896_5).abs() < 1e-7);

    // d = 1: the single column is sin(i).
    let p = sinusoidal(200, 1, 10000.0);
    for i in 0..200 {
        assert!(
            (p[[i, 0]] as f64 - (i as f64).sin()).abs() < 1e-7,
            "row {i}"
        );
    }

    // The entry-wise reference agrees with the hand values above.
    assert!((reference(2, 1, 4, 10000.0) - 2f64.cos()).abs() < 1e-15);
}

#[test]
fn helpers_match_the_definition() {
    assert_eq!(frequency_count(1), 1);
    assert_eq!(frequency_count(2), 1);
    assert_eq!(frequency_count(3), 2);
    assert_eq!(frequency_count(2047), 1024);
    assert_eq!(frequency_count(2048), 1024);
    assert!((frequency(0, 16, 10000.0) - 1.0).abs() < 1e-15);
    assert!((frequency(1, 4, 10000.0) - 0.01).abs() < 1e-15);
    assert!((frequency(1, 3, 8.0) - 0.25).abs() < 1e-15);
    assert!((period(0, 16, 10000.0) - std::f64::consts::TAU).abs() < 1e-12);
    assert!((period(1, 4, 10000.0) - 100.0 * std::f64::consts::TAU).abs() < 1e-9);
    assert!(is_sine_column(0) && !is_sine_column(1) && is_sine_column(2046));
    assert_eq!(pair_of_column(0), 0);
    assert_eq!(pair_of_column(5), 2);
    assert_eq!(pair_of_column(2046), 1023);
}

// ---------------------------------------------------------------------------------------------
// Accuracy against float64
// ---------------------------------------------------------------------------------------------

#[test]
fn accurate_at_8192_by_512() {
    assert_accurate(8192, 512, 10000.0);
}

#[test]
fn accurate_at_4096_by_1024() {
    assert_accurate(4096, 1024, 10000.0);
}

#[test]
fn accurate_at_8192_by_2048_sampled() {
    let (n, d, base) = (8192, 2048, 10000.0);
    let p = sinusoidal(n, d, base);
    assert_eq!(p.dim(), (n, d));
    // Every row just before and after a possible re-anchor is covered by the head and the stride
    // 61 (coprime with any power of two), plus the last rows where the angles are largest.
    let rows = sampled_rows(n, 200, 61, 200);
    let (err, i, c) = max_error_on_rows(&p, base, rows);
    assert!(err <= TOLERANCE, "error {err:e} at ({i}, {c})");
}

#[test]
fn accurate_for_odd_dimensions() {
    for &d in &[1usize, 3, 33, 2047] {
        let n = if d == 2047 { 1024 } else { 8192 };
        let p = sinusoidal(n, d, 10000.0);
        assert_eq!(p.dim(), (n, d));
        let (err, i, c) = max_error(&p, 10000.0);
        assert!(err <= TOLERANCE, "d={d}: error {err:e} at ({i}, {c})");
        // The last column of an odd d is a sine column of frequency (d−1)/2.
        let last = d - 1;
        for i in [0, 1, 2, n / 2, n - 1] {
            let expected = (i as f64 * 10000f64.powf(-(last as f64) / d as f64)).sin();
            assert!(
                (p[[i, last]] as f64 - expected).abs() <= TOLERANCE,
                "d={d} row {i}"
            );
        }
    }
}

#[test]
fn accurate_for_other_bases() {
    for &base in &[1.01, 2.0, 100.0, 1e6, 1e12] {
        assert_accurate(1000, 64, base);
        assert_accurate(300, 33, base);
    }
}

#[test]
fn accurate_across_anchor_boundaries() {
    // Sizes around the re-anchor period of any recurrence, including n not a multiple of it.
    for &n in &[63usize, 64, 65, 127, 128, 129, 1000] {
        assert_accurate(n, 10, 10000.0);
    }
}

#[test]
fn values_lie_in_unit_interval_and_pairs_on_unit_circle() {
    for &(n, d, base) in &[
        (8192usize, 64usize, 10000.0),
        (2000, 33, 1.5),
        (500, 256, 1e6),
    ] {
        let p = sinusoidal(n, d, base);
        assert!(
            p.iter().all(|v| (-1.0..=1.0).contains(v)),
            "n={n} d={d} base={base}: value outside [−1, 1]"
        );
        for row in p.rows() {
            for pair in row.as_slice().unwrap().chunks_exact(2) {
                let (s, c) = (pair[0] as f64, pair[1] as f64);
                assert!(
                    (s * s + c * c - 1.0).abs() < 1e-6,
                    "n={n} d={d} base={base}: sin²+cos² = {}",
                    s * s + c * c
                );
            }
        }
    }
}

#[test]
fn d2l_forum_dot_products() {
    // d2l.ai forum (positional encoding exercise): with d = 16 and base 10000 the dot product of
    // neighbouring rows does not depend on the position, and decreases with the distance.
    let p = sinusoidal(200, 16, 10000.0);
    let dot = |a: usize, b: usize| -> f64 {
        p.row(a)
            .iter()
            .zip(p.row(b).iter())
            .map(|(&x, &y)| x as f64 * y as f64)
            .sum()
    };
    let near = 7.4852;
    assert!((dot(5, 6) - near).abs() < 5e-4, "p5·p6 = {}", dot(5, 6));
    assert!(
        (dot(105, 106) - near).abs() < 5e-4,
        "p105·p106 = {}",
        dot(105, 106)
    );
    assert!(
        (dot(5, 10) - 6.1370).abs() < 5e-4,
        "p5·p10 = {}",
        dot(5, 10)
    );
    assert!((dot(5, 6) - dot(105, 106)).abs() < 1e-5);
}

// ---------------------------------------------------------------------------------------------
// Invalid arguments
// ---------------------------------------------------------------------------------------------

#[test]
fn try_sinusoidal_rejects_invalid_arguments() {
    assert_eq!(
        try_sinusoidal(4, 0, 10000.0).unwrap_err(),
        MathError::ZeroDimension(0)
    );
    assert_eq!(
        try_sinusoidal(0, 4, 10000.0).unwrap_err(),
        MathError::ZeroPositions(0)
    );
    for base in [
        1.0,
        0.5,
        0.0,
        -3.0,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
    ] {
        match try_sinusoidal(4, 4, base) {
            Err(MathError::InvalidBase(b)) => {
                assert!(
                    b.to_bits() == base.to_bits(),
                    "reported base {b} for {base}"
                )
            }
            other => panic!("base {base}: expected InvalidBase, got {other:?}"),
        }
    }
    // The smallest valid inputs work.
    assert_eq!(try_sinusoidal(1, 1, 1.0 + 1e-9).unwrap().dim(), (1, 1));
}

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn prop_matches_f64_reference(n in 1usize..300, d in 1usize..300, base in 1.01f64..1e6) {
        let p = try_sinusoidal(n, d, base).unwrap();
        prop_assert_eq!(p.dim(), (n, d));
        let (err, i, c) = max_error(&p, base);
        prop_assert!(err <= TOLERANCE, "error {:e} at ({}, {})", err, i, c);
    }

    #[test]
    fn prop_odd_d_last_column_is_sine(n in 1usize..300, half in 0usize..150, base in 1.01f64..1e6) {
        let d = 2 * half + 1;
        let p = sinusoidal(n, d, base);
        let omega = base.powf(-((d - 1) as f64) / d as f64);
        prop_assert_eq!(p[[0, d - 1]], 0.0);
        for i in 0..n {
            let expected = (i as f64 * omega).sin();
            prop_assert!((p[[i, d - 1]] as f64 - expected).abs() <= TOLERANCE, "row {}", i);
        }
    }

    #[test]
    fn prop_unit_circle(n in 1usize..300, d in 2usize..300, base in 1.01f64..1e6) {
        let p = sinusoidal(n, d, base);
        for row in p.rows() {
            for pair in row.as_slice().unwrap().chunks_exact(2) {
                let (s, c) = (pair[0] as f64, pair[1] as f64);
                prop_assert!((s * s + c * c - 1.0).abs() < 1e-6);
                prop_assert!(s.abs() <= 1.0 && c.abs() <= 1.0);
            }
        }
    }

    #[test]
    fn prop_try_never_panics(n in 0usize..40, d in 0usize..40, base in proptest::num::f64::ANY) {
        let valid = n >= 1 && d >= 1 && base.is_finite() && base > 1.0;
        match try_sinusoidal(n, d, base) {
            Ok(p) => {
                prop_assert!(valid);
                prop_assert_eq!(p.dim(), (n, d));
            }
            Err(_) => prop_assert!(!valid),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 1-based positions (the Julia edition) and the textbook float32 formula
// ---------------------------------------------------------------------------------------------

#[test]
fn one_based_rows_are_the_next_positions() {
    // With first = 1 (the Julia edition's `collect(1:max_len)`), row r is position r + 1: row r of
    // the 1-based P is row r + 1 of the 0-based P, bit for bit where both are anchored alike, and
    // within float32 rounding everywhere.
    for &(n, d, base) in &[
        (60usize, 32usize, 10000.0),
        (300, 33, 10000.0),
        (200, 7, 2.5),
    ] {
        let zero = sinusoidal(n + 1, d, base);
        let one = sinusoidal_from(1, n, d, base);
        assert_eq!(one.dim(), (n, d));
        for r in 0..n {
            for c in 0..d {
                let (a, b) = (one[[r, c]] as f64, zero[[r + 1, c]] as f64);
                assert!(
                    (a - b).abs() < 2e-7,
                    "n={n} d={d} row {r} col {c}: {a} vs {b}"
                );
            }
        }
        assert!(max_error_from(&one, 1, base) < TOLERANCE);
    }
    // Row 0 of the 1-based P is position 1: sin(ω_j), cos(ω_j); not (0, 1).
    let p = try_sinusoidal_from(1, 3, 4, 10000.0).unwrap();
    assert!((p[[0, 0]] as f64 - 1f64.sin()).abs() < 1e-7);
    assert!((p[[0, 1]] as f64 - 1f64.cos()).abs() < 1e-7);
    assert_eq!(sinusoidal_from(0, 9, 5, 10000.0), sinusoidal(9, 5, 10000.0));
    assert!(try_sinusoidal_from(1, 0, 4, 10000.0).is_err());
}

#[test]
fn the_julia_figure_is_columns_5_to_9_of_positions_1_to_60() {
    // `plot(P[6:10, :, 1]')`: the 1-based encoding dimensions 6…10 are the 0-based columns 5…9,
    // i.e. cos of pair 2, then sin and cos of pairs 3 and 4.
    let p = sinusoidal_from(1, 60, 32, 10000.0);
    for (julia_column, column) in (6..=10).zip(5..=9) {
        assert_eq!(julia_column - 1, column);
        let j = column / 2;
        let omega = 10000f64.powf(-((2 * j) as f64) / 32.0);
        for r in 0..60 {
            let position = (r + 1) as f64;
            let exact = if column % 2 == 0 {
                (position * omega).sin()
            } else {
                (position * omega).cos()
            };
            assert!((p[[r, column]] as f64 - exact).abs() < 1e-7);
        }
    }
}

#[test]
fn textbook_float32_is_what_the_python_code_computes() {
    // The formula of d2l's PyTorch/MXNet code, written out here in float32 with this platform's
    // powf, sin and cos: within one float32 step of them (the page's are the correctly rounded
    // ones, the same on every target; a C library's sinf may be one step off). The comparison
    // with NumPy's own float32 replay is tests/textbook_d2l.rs in the math crate.
    let (n, d, base) = (50usize, 12usize, 10000.0f64);
    let p = textbook_sinusoidal(n, d, base);
    for i in 0..n {
        for c in 0..d {
            let j = c / 2;
            let x = i as f32 / (10000f32).powf((2 * j) as f32 / d as f32);
            let expected = if c % 2 == 0 { x.sin() } else { x.cos() };
            let ulps = (p[[i, c]].to_bits() as i64 - expected.to_bits() as i64).abs();
            assert!(ulps <= 1, "({i}, {c}): {} vs {expected}", p[[i, c]]);
        }
    }
    // Odd d keeps the last sine column; 1-based rows are the next positions, exactly.
    assert_eq!(textbook_sinusoidal(5, 3, 10000.0).dim(), (5, 3));
    let zero = textbook_sinusoidal(21, 9, 10000.0);
    let one = textbook_sinusoidal_from(1, 20, 9, 10000.0);
    assert_eq!(one, zero.slice(ndarray::s![1.., ..]));
    assert!(try_textbook_sinusoidal_from(0, 4, 0, 10000.0).is_err());
}

#[test]
fn textbook_float32_loses_digits_at_large_positions() {
    // n = 2048, d = 1024 (the CPU path's largest P): the float32 angle is off by ~1e-4 rad at the
    // last positions, and P with it; the exact P stays at float32 rounding.
    let (n, d, base) = (2048usize, 1024usize, 10000.0);
    let textbook = textbook_sinusoidal(n, d, base);
    let exact = sinusoidal(n, d, base);
    let (textbook_error, i, c) = max_error(&textbook, base);
    let (exact_error, ..) = max_error(&exact, base);
    let angle_error = textbook_angle_error(0, n, d, base);
    println!(
        "n={n} d={d}: textbook P error {textbook_error:.3e} at ({i}, {c}), angle error \
         {angle_error:.3e} rad, exact P error {exact_error:.3e}"
    );
    assert!(
        (3e-5..5e-4).contains(&textbook_error),
        "textbook error {textbook_error:e}"
    );
    assert!(exact_error < 1e-7, "exact error {exact_error:e}");
    // sin and cos inherit the angle's error (plus their own float32 rounding).
    assert!(textbook_error <= angle_error + 1e-7);
    assert!((3e-5..5e-4).contains(&angle_error), "{angle_error:e}");
    // Small positions are still fine: the error grows with i.
    let (early, ..) = max_error_on_rows(&textbook, base, 0..16);
    assert!(early < 1e-5, "rows 0…15: {early:e}");
    assert_eq!(
        textbook_angle_error(0, 1, d, base),
        0.0,
        "position 0: angle 0"
    );
}

#[test]
#[ignore = "prints the textbook error at the sizes the docs quote; run with --ignored --nocapture"]
fn textbook_error_at_documented_sizes() {
    for &(n, d) in &[
        (2048usize, 1024usize),
        (4096, 1024),
        (4096, 2048),
        (8192, 512),
    ] {
        let p = textbook_sinusoidal(n, d, 10000.0);
        let (err, i, c) = max_error(&p, 10000.0);
        let angle = textbook_angle_error(0, n, d, 10000.0);
        println!("n={n} d={d}: textbook P error {err:.3e} at ({i}, {c}), angle error {angle:.3e}");
    }
}
