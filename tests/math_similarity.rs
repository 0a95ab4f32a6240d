//! Integration tests of `pe_lab::math::similarity`: the Stack Exchange answer's numbers (d = 16,
//! base 10000: p_5·p_6 = p_105·p_106 = 7.4852, p_5·p_10 = 6.1370), the closed form
//! p_i·p_{i+k} = Σ_j cos(k·ω_j) for even d written out here, constant Gram diagonals (a property
//! test), normalised positions, distances, and why neighbouring rows look alike at every position.
#![cfg(not(target_arch = "wasm32"))] // native only: proptest

use ndarray::{array, Array2};
use pe_lab::math::encoding::sinusoidal;
use pe_lab::math::gram::gram;
use pe_lab::math::similarity::{
    compare_lengths, compare_stretched, diagonal_spread, diagonal_spread_by_offset,
    distance_matrix, dot_by_offset, normalized_positions, normalized_similarity, row_resemblance,
    SimilarityError, MAX_POSITIONS,
};
use pe_lab::math::MathError;
use proptest::prelude::*;

/// Σ_j cos(k·ω_j), ω_j = base^(−2j/d): p_i·p_{i+k} for even d, independent of i.
fn closed_form_dot(k: usize, d: usize, base: f64) -> f64 {
    (0..d / 2)
        .map(|j| (k as f64 * base.powf(-((2 * j) as f64) / d as f64)).cos())
        .sum()
}

#[test]
fn the_stack_exchange_numbers_are_reproduced() {
    let p = sinusoidal(120, 16, 10000.0);
    let from_5 = dot_by_offset(p.view(), 5, 5);
    let from_105 = dot_by_offset(p.view(), 105, 1);
    assert!((from_5[1] - 7.4852).abs() < 1e-4, "p5·p6 = {}", from_5[1]);
    assert!(
        (from_105[1] - 7.4852).abs() < 1e-4,
        "p105·p106 = {}",
        from_105[1]
    );
    assert!((from_5[5] - 6.1370).abs() < 1e-4, "p5·p10 = {}", from_5[5]);
    // ‖p_i‖² = d/2.
    assert!((from_5[0] - 8.0).abs() < 1e-5);
}

#[test]
fn dot_by_offset_follows_the_closed_form_and_stops_at_the_last_row() {
    let (n, d, base) = (60, 32, 10000.0);
    let p = sinusoidal(n, d, base);
    for i in [0, 7, 40] {
        let dots = dot_by_offset(p.view(), i, 100);
        assert_eq!(dots.len(), n - i);
        for (k, dot) in dots.iter().enumerate() {
            let expected = closed_form_dot(k, d, base);
            assert!(
                (dot - expected).abs() < 1e-5,
                "i={i} k={k}: {dot} vs {expected}"
            );
        }
    }
    assert_eq!(dot_by_offset(p.view(), 59, 3).len(), 1);
    assert!(dot_by_offset(p.view(), 60, 3).is_empty());
    assert_eq!(dot_by_offset(p.view(), 0, 0).len(), 1);
}

#[test]
fn gram_diagonals_are_constant_for_even_d() {
    let p = sinusoidal(60, 32, 10000.0);
    let spread = diagonal_spread(gram(p.view()).view());
    assert!(spread < 1e-5, "spread {spread}");
    let by_offset = diagonal_spread_by_offset(gram(p.view()).view());
    assert_eq!(by_offset.len(), 60);
}

#[test]
fn the_unpaired_column_of_odd_d_makes_diagonals_vary() {
    // d = 3, base 10: the last (sine) column has ω = 10^(−2/3) ≈ 0.22, fast enough to matter.
    let p = sinusoidal(60, 3, 10.0);
    let spread = diagonal_spread(gram(p.view()).view());
    assert!(spread > 0.4, "odd d spread {spread}");
    // At base 10000 and d = 33 the unpaired frequency is the slowest one: small but far above
    // the even-d rounding.
    let p33 = sinusoidal(60, 33, 10000.0);
    let p32 = sinusoidal(60, 32, 10000.0);
    let odd = diagonal_spread(gram(p33.view()).view());
    let even = diagonal_spread(gram(p32.view()).view());
    assert!(odd > 5.0 * even, "odd {odd} even {even}");
}

#[test]
fn diagonal_spread_of_a_known_matrix() {
    // Diagonal 1 holds 1 (above) and 3 (below): mean 2, spread 1. Diagonal 0 is constant.
    assert_eq!(
        diagonal_spread(array![[5.0f32, 1.0], [3.0, 5.0]].view()),
        1.0
    );
    assert_eq!(
        diagonal_spread(array![[5.0f32, 1.0], [1.0, 7.0]].view()),
        1.0
    );
    assert_eq!(diagonal_spread(Array2::<f32>::zeros((1, 1)).view()), 0.0);
    assert_eq!(diagonal_spread(Array2::<f32>::zeros((0, 0)).view()), 0.0);
    // Non-square: the leading square is used.
    assert_eq!(
        diagonal_spread(array![[1.0f32, 2.0, 9.0], [2.0, 1.0, 9.0]].view()),
        0.0
    );
}

#[test]
fn normalized_positions_use_i_over_n() {
    assert_eq!(normalized_positions(4), [0.0, 0.25, 0.5, 0.75]);
    assert_eq!(normalized_positions(1), [0.0]);
    assert!(normalized_positions(0).is_empty());
    assert_eq!(normalized_positions(usize::MAX).len(), MAX_POSITIONS);
}

#[test]
fn normalized_similarity_depends_on_the_length_but_sinusoidal_does_not() {
    assert_eq!(normalized_similarity(1, 2, 4), 0.125);
    assert_eq!(normalized_similarity(1, 2, 8), 1.0 / 32.0);
    assert_eq!(normalized_similarity(1, 2, 0), 0.0);
    // "river bank": positions 4 and 5 of a 6-token sentence, then the same pair in 14 tokens.
    let c = compare_lengths(4, 1, 6, 14, 32, 10000.0).unwrap();
    assert!((c.normalized_short - 20.0 / 36.0).abs() < 1e-15);
    assert!((c.normalized_long - 20.0 / 196.0).abs() < 1e-15);
    assert!(c.normalized_short - c.normalized_long > 0.4);
    assert_eq!(c.sinusoidal_short, c.sinusoidal_long);
    assert!((c.sinusoidal_short - closed_form_dot(1, 32, 10000.0)).abs() < 1e-5);
}

#[test]
fn stretched_pairs_look_alike_only_to_normalized_positions() {
    // Neighbours 1, 2 of 4 against 25, 50 of 100: the same (i/n)(j/n) = 1/8.
    let c = compare_stretched(1, 1, 4, 25, 32, 10000.0).unwrap();
    assert_eq!((c.near, c.far, c.stretched_n), ((1, 2), (25, 50), 100));
    assert!((c.normalized_near - 0.125).abs() < 1e-15);
    assert!((c.normalized_far - 0.125).abs() < 1e-15);
    assert!((c.sinusoidal_near - closed_form_dot(1, 32, 10000.0)).abs() < 1e-5);
    assert!((c.sinusoidal_far - closed_form_dot(25, 32, 10000.0)).abs() < 1e-5);
    assert!(c.sinusoidal_near - c.sinusoidal_far > 1.0, "{c:?}");
}

#[test]
fn length_comparisons_report_bad_arguments() {
    assert_eq!(
        compare_lengths(5, 1, 6, 14, 32, 10000.0),
        Err(SimilarityError::RowOutOfRange { row: 6, rows: 6 })
    );
    assert_eq!(
        compare_lengths(0, 1, 14, 6, 32, 10000.0),
        Err(SimilarityError::LengthsOutOfOrder {
            short_n: 14,
            long_n: 6
        })
    );
    assert!(matches!(
        compare_lengths(0, 1, 6, MAX_POSITIONS + 1, 32, 10000.0),
        Err(SimilarityError::Math(MathError::TooLarge { .. }))
    ));
    assert!(matches!(
        compare_lengths(0, 1, 6, 14, 0, 10000.0),
        Err(SimilarityError::Math(MathError::ZeroDimension(0)))
    ));
    assert_eq!(
        compare_stretched(1, 1, 4, 0, 32, 10000.0),
        Err(SimilarityError::ZeroFactor)
    );
    assert!(matches!(
        compare_stretched(1, 1, 4, usize::MAX, 32, 10000.0),
        Err(SimilarityError::Math(MathError::TooLarge { .. }))
    ));
    assert!(matches!(
        compare_stretched(0, 1, 4, 2, 32, f64::NAN),
        Err(SimilarityError::Math(MathError::InvalidBase(_)))
    ));
}

#[test]
fn distances_are_euclidean_and_depend_on_the_offset_only() {
    let (n, d, base) = (40, 32, 10000.0);
    let p = sinusoidal(n, d, base);
    let distances = distance_matrix(p.view());
    assert_eq!(distances.dim(), (n, n));
    for i in 0..n {
        assert_eq!(distances[[i, i]], 0.0);
        for j in 0..n {
            assert_eq!(distances[[i, j]], distances[[j, i]]);
            let direct: f64 = p
                .row(i)
                .iter()
                .zip(p.row(j))
                .map(|(&a, &b)| (f64::from(a) - f64::from(b)).powi(2))
                .sum::<f64>()
                .sqrt();
            assert!((f64::from(distances[[i, j]]) - direct).abs() < 1e-6);
            if j >= i {
                // ‖p_i − p_{i+k}‖² = 2·Σ_j (1 − cos kω_j) = d − 2·Σ cos kω_j.
                let expected = (d as f64 - 2.0 * closed_form_dot(j - i, d, base)).sqrt();
                assert!((f64::from(distances[[i, j]]) - expected).abs() < 1e-4);
            }
        }
    }
    assert_eq!(
        distance_matrix(Array2::<f32>::zeros((0, 3)).view()).dim(),
        (0, 0)
    );
}

#[test]
fn neighbouring_rows_look_alike_at_every_position_because_the_slow_half_barely_moves() {
    let p = sinusoidal(60, 32, 10000.0);
    let first = row_resemblance(p.view(), 0, 1).unwrap();
    assert_eq!(first.split_column, 16);
    // Column 16 is sin(ω_8) with ω_8 = 10000^(−1/2) = 0.01: the largest change in the slow half.
    assert!((first.low_frequency_max_difference - 0.01f64.sin()).abs() < 1e-6);
    // Column 0 is sin(1) − sin(0).
    assert!((first.high_frequency_max_difference - 1f64.sin()).abs() < 1e-6);
    assert!(first.low_frequency_share < 1e-3, "{first:?}");
    // The distance itself is the same for every pair of neighbours (translation invariance).
    let later = row_resemblance(p.view(), 40, 41).unwrap();
    assert!((first.distance - later.distance).abs() < 1e-5);
    let expected = (32.0 - 2.0 * closed_form_dot(1, 32, 10000.0)).sqrt();
    assert!((first.distance - expected).abs() < 1e-5);
    // NumPy: ‖p_0 − p_1‖ = ‖p_40 − p_41‖ = 1.1716 at d = 32.
    assert!((first.distance - 1.1716).abs() < 5e-5, "{first:?}");
    // Early rows are not special: the slow half moves as little between p_40 and p_41 (at most
    // 2·sin(ω_8/2)·|cos| ≤ 0.01; 0.00919 there) and holds the same share of the squared distance
    // (each pair contributes 2·(1 − cos ω_j), whatever the position): 0.0107 % (NumPy).
    assert!(later.low_frequency_max_difference <= 0.01, "{later:?}");
    assert!(
        (later.low_frequency_max_difference - 0.00919).abs() < 1e-5,
        "{later:?}"
    );
    assert!((later.low_frequency_share - first.low_frequency_share).abs() < 1e-6);
    assert!(
        (100.0 * first.low_frequency_share - 0.0107).abs() < 1e-4,
        "{first:?}"
    );
    // Far rows differ in the slow half too.
    let far = row_resemblance(p.view(), 0, 59).unwrap();
    assert!(far.low_frequency_max_difference > 0.5, "{far:?}");
}

#[test]
fn row_resemblance_edge_cases() {
    let p = sinusoidal(5, 1, 10000.0);
    let single = row_resemblance(p.view(), 0, 1).unwrap();
    assert_eq!(single.split_column, 1);
    assert_eq!(single.low_frequency_max_difference, 0.0);
    let same = row_resemblance(p.view(), 2, 2).unwrap();
    assert_eq!((same.distance, same.low_frequency_share), (0.0, 0.0));
    assert_eq!(
        row_resemblance(p.view(), 0, 5),
        Err(SimilarityError::RowOutOfRange { row: 5, rows: 5 })
    );
    // d = 33: 17 frequencies, the faster 9 (columns 0..18) count as high.
    let odd = sinusoidal(3, 33, 10000.0);
    assert_eq!(row_resemblance(odd.view(), 0, 1).unwrap().split_column, 18);
}

proptest! {
    #[test]
    fn gram_diagonals_are_constant_for_any_even_d(
        half_d in 1usize..=32,
        n in 1usize..=80,
        base in 10.0f64..1e5,
    ) {
        let d = 2 * half_d;
        let p = sinusoidal(n, d, base);
        let spread = diagonal_spread(gram(p.view()).view());
        // Each of the d/2 pairs contributes at most a few float32 roundings of 1.
        prop_assert!(spread < 1e-6 * d as f64, "d={} n={} spread {}", d, n, spread);
    }
}
