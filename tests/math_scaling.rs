//! Integration tests of `pe_lab::math::scaling`: magnitudes of X, X·√d and P (P's rows have mean
//! square exactly ½ for even d, from sin² + cos² = 1), and the dot-product decomposition
//! (x_i + p_i)·(x_j + p_j) = x·x + x·p + p·x + p·p versus [x_i; p_i]·[x_j; p_j] = x·x + p·p,
//! checked against sums written out here and as a property over random matrices.
#![cfg(not(target_arch = "wasm32"))] // native only: proptest

use ndarray::Array2;
use pe_lab::math::encoding::sinusoidal;
use pe_lab::math::scaling::{
    concatenate_columns, dot_decomposition, dot_decomposition_for_tokens, magnitude_curve,
    magnitudes, mean_abs, rms, ScalingError, MAX_CURVE_POINTS,
};
use pe_lab::math::tokens::{embed_tokens, tokenize, DEFAULT_SENTENCE};
use pe_lab::math::MathError;
use proptest::prelude::*;

fn dot64(a: &[f32], b: &[f32]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(&x, &y)| f64::from(x) * f64::from(y))
        .sum()
}

#[test]
fn rms_and_mean_abs_of_known_values() {
    assert_eq!(rms(&[3.0f32, -4.0]), (12.5f64).sqrt());
    assert_eq!(mean_abs(&[3.0f32, -4.0]), 3.5);
    assert!(rms(&[] as &[f32]).is_nan());
    assert!(mean_abs(&[] as &[f32]).is_nan());
}

#[test]
fn default_magnitudes_show_why_embeddings_are_scaled() {
    let tokens = tokenize(DEFAULT_SENTENCE);
    let m = magnitudes(&tokens, 32, 10000.0).unwrap();
    // P: mean square exactly ½ per row for even d.
    assert!((m.encoding_rms - 0.5f64.sqrt()).abs() < 1e-7, "{m:?}");
    // X: 256 samples of N(0, 1/32), so within ~15 % of 1/√32 ≈ 0.177.
    let expected = 1.0 / 32f64.sqrt();
    assert!((m.embedding_rms / expected - 1.0).abs() < 0.15, "{m:?}");
    // X·√d is X scaled exactly.
    assert!((m.scaled_embedding_rms / m.embedding_rms - 32f64.sqrt()).abs() < 1e-5);
    assert!((m.scaled_embedding_mean_abs / m.embedding_mean_abs - 32f64.sqrt()).abs() < 1e-5);
    // Unscaled, position outweighs content about 4 : 1; scaled, content leads.
    assert!(m.unscaled_ratio < 0.3 && m.scaled_ratio > 1.0, "{m:?}");
    assert!((m.unscaled_ratio - m.embedding_rms / m.encoding_rms).abs() < 1e-15);
    // N(0, 1) embeddings of the same words are the entries of X·√d: RMS ≈ 1, and × √d ≈ √32.
    assert_eq!(m.unit_normal_embedding_rms, m.scaled_embedding_rms);
    assert!((m.unit_normal_scaled_rms - m.unit_normal_embedding_rms * 32f64.sqrt()).abs() < 1e-12);
    // Computed independently (splitmix64 normals of each word, NumPy): 0.1752, 0.9910, 5.6059.
    assert!((m.embedding_rms - 0.1752).abs() < 5e-5, "{m:?}");
    assert!((m.scaled_embedding_rms - 0.9910).abs() < 5e-5, "{m:?}");
    assert!((m.unit_normal_scaled_rms - 5.6059).abs() < 5e-5, "{m:?}");
    // That content outweighs P's √½ by ≈ √(2d) = 8 (7.928 here), where the page's x·√d is ≈ √2.
    assert!((m.unit_normal_scaled_ratio - 7.928).abs() < 1e-3, "{m:?}");
    assert!((m.scaled_ratio - 1.4015).abs() < 1e-3, "{m:?}");
}

#[test]
fn unit_normal_embeddings_scaled_by_sqrt_d_grow_like_sqrt_d() {
    let tokens = tokenize(DEFAULT_SENTENCE);
    for m in magnitude_curve(&tokens, &[8, 32, 128, 512], 10000.0).unwrap() {
        let root_d = (m.d as f64).sqrt();
        assert!((m.unit_normal_embedding_rms - 1.0).abs() < 0.2, "{m:?}");
        assert!(
            (m.unit_normal_scaled_rms / root_d - 1.0).abs() < 0.2,
            "{m:?}"
        );
        let expected = (2.0 * m.d as f64).sqrt();
        assert!(
            (m.unit_normal_scaled_ratio / expected - 1.0).abs() < 0.2,
            "{m:?}"
        );
    }
}

#[test]
fn encoding_rms_for_odd_d_follows_the_unpaired_column() {
    let tokens = tokenize(DEFAULT_SENTENCE);
    let (n, d, base) = (tokens.len(), 5, 10.0);
    let m = magnitudes(&tokens, d, base).unwrap();
    // Rows of P have 2 complete pairs (mean square 2/5) plus sin²(i·ω_2)/5 with ω_2 = 10^(−4/5).
    let omega = f64::powf(base, -4.0 / 5.0);
    let mean_square = (0..n)
        .map(|i| (2.0 + (i as f64 * omega).sin().powi(2)) / d as f64)
        .sum::<f64>()
        / n as f64;
    assert!((m.encoding_rms - mean_square.sqrt()).abs() < 1e-6);
}

#[test]
fn without_scaling_the_embedding_fades_as_d_grows() {
    let tokens = tokenize(DEFAULT_SENTENCE);
    let curve = magnitude_curve(&tokens, &[8, 32, 128, 512], 10000.0).unwrap();
    let ratios: Vec<f64> = curve.iter().map(|m| m.unscaled_ratio).collect();
    assert!(ratios.windows(2).all(|w| w[1] < w[0]), "{ratios:?}");
    for m in &curve {
        // ≈ √(2/d) unscaled, ≈ √2 scaled.
        let expected = (2.0 / m.d as f64).sqrt();
        assert!((m.unscaled_ratio / expected - 1.0).abs() < 0.2, "{m:?}");
        assert!((m.scaled_ratio / 2f64.sqrt() - 1.0).abs() < 0.2, "{m:?}");
    }
    let too_many = vec![8; MAX_CURVE_POINTS + 1];
    assert!(matches!(
        magnitude_curve(&tokens, &too_many, 10000.0),
        Err(ScalingError::TooManyPoints { .. })
    ));
}

#[test]
fn magnitudes_reject_bad_arguments() {
    let none: [&str; 0] = [];
    assert_eq!(
        magnitudes(&none, 8, 10000.0),
        Err(ScalingError::Math(MathError::ZeroPositions(0)))
    );
    assert_eq!(
        magnitudes(&["a"], 0, 10000.0),
        Err(ScalingError::Math(MathError::ZeroDimension(0)))
    );
    assert!(matches!(
        magnitudes(&["a"], 8, 0.5),
        Err(ScalingError::Math(MathError::InvalidBase(_)))
    ));
}

#[test]
fn decomposition_of_the_default_sentence() {
    let tokens = tokenize(DEFAULT_SENTENCE);
    let (d, base) = (32, 10000.0);
    let x = embed_tokens(&tokens, d, true).unwrap();
    let p = sinusoidal(tokens.len(), d, base);
    // "3" (position 3) and "4" (position 6).
    let parts = dot_decomposition_for_tokens(&tokens, d, base, true, 3, 6).unwrap();
    let (x3, x6) = (x.row(3).to_vec(), x.row(6).to_vec());
    let (p3, p6) = (p.row(3).to_vec(), p.row(6).to_vec());
    assert!((parts.xx - dot64(&x3, &x6)).abs() < 1e-12);
    assert!((parts.xp - dot64(&x3, &p6)).abs() < 1e-12);
    assert!((parts.px - dot64(&p3, &x6)).abs() < 1e-12);
    assert!((parts.pp - dot64(&p3, &p6)).abs() < 1e-12);
    let sum = parts.xx + parts.xp + parts.px + parts.pp;
    assert!((parts.added - sum).abs() < 1e-4, "{parts:?}");
    assert!((parts.concatenated - (parts.xx + parts.pp)).abs() < 1e-12);
    assert!((parts.added - parts.concatenated - parts.cross_terms()).abs() < 1e-4);
    // The cross terms are what concatenation drops: here they are not negligible in absolute
    // terms, but small relative to the norms: |−1.4009| / 48.2901 = 0.0290 (NumPy).
    assert!(parts.cross_terms().abs() > 0.1, "{parts:?}");
    let norm = |v: &[f32]| dot64(v, v).sqrt();
    let bound = norm(&x3) * norm(&p6) + norm(&p3) * norm(&x6);
    assert!((parts.cross_bound - bound).abs() < 1e-9);
    assert!((parts.cross_terms() - -1.4009).abs() < 1e-4, "{parts:?}");
    assert!((parts.cross_bound - 48.2901).abs() < 1e-4, "{parts:?}");
    assert!(
        (parts.cross_terms_relative() - 0.0290).abs() < 1e-4,
        "{parts:?}"
    );
    // Both parts are linear in x: the ratio does not depend on the √d factor.
    let unscaled = dot_decomposition_for_tokens(&tokens, d, base, false, 3, 6).unwrap();
    assert!((unscaled.cross_terms_relative() - parts.cross_terms_relative()).abs() < 1e-6);
}

#[test]
fn concatenation_doubles_the_width() {
    let x = Array2::from_shape_fn((3, 4), |(i, c)| (i * 4 + c) as f32);
    let p = Array2::from_shape_fn((3, 4), |(i, c)| -((i * 4 + c) as f32));
    let wide = concatenate_columns(x.view(), p.view()).unwrap();
    assert_eq!(wide.dim(), (3, 8));
    for i in 0..3 {
        for c in 0..4 {
            assert_eq!(wide[[i, c]], x[[i, c]]);
            assert_eq!(wide[[i, c + 4]], p[[i, c]]);
        }
    }
    assert!(matches!(
        concatenate_columns(x.view(), Array2::<f32>::zeros((3, 5)).view()),
        Err(ScalingError::ShapeMismatch { .. })
    ));
}

#[test]
fn decomposition_rejects_bad_positions_and_shapes() {
    let x = Array2::<f32>::ones((3, 4));
    assert_eq!(
        dot_decomposition(x.view(), x.view(), 0, 3),
        Err(ScalingError::PositionOutOfRange {
            position: 3,
            rows: 3
        })
    );
    assert!(matches!(
        dot_decomposition(x.view(), Array2::<f32>::ones((4, 4)).view(), 0, 1),
        Err(ScalingError::ShapeMismatch { .. })
    ));
    assert!(matches!(
        dot_decomposition_for_tokens(&["a"], 4, 10000.0, true, 0, 1),
        Err(ScalingError::PositionOutOfRange { .. })
    ));
}

proptest! {
    #[test]
    fn added_splits_into_four_terms_and_concatenated_into_two(
        n in 1usize..6,
        d in 1usize..24,
        values in proptest::collection::vec(-3.0f32..3.0, 2 * 6 * 24),
        i in 0usize..6,
        j in 0usize..6,
    ) {
        let (i, j) = (i % n, j % n);
        let x = Array2::from_shape_fn((n, d), |(r, c)| values[r * 24 + c]);
        let p = Array2::from_shape_fn((n, d), |(r, c)| values[144 + r * 24 + c]);
        let parts = dot_decomposition(x.view(), p.view(), i, j).unwrap();
        let (xi, xj, pi, pj) = (x.row(i).to_vec(), x.row(j).to_vec(), p.row(i).to_vec(), p.row(j).to_vec());
        let four = dot64(&xi, &xj) + dot64(&xi, &pj) + dot64(&pi, &xj) + dot64(&pi, &pj);
        // x + p is rounded to f32 before the product: relative error 2⁻²⁴ per factor.
        let magnitude: f64 = xi.iter().zip(&pi).zip(xj.iter().zip(&pj))
            .map(|((a, b), (c, e))| (f64::from(*a) + f64::from(*b)).abs() * (f64::from(*c) + f64::from(*e)).abs())
            .sum();
        prop_assert!((parts.added - four).abs() <= 2.5e-7 * magnitude + 1e-12, "{:?} vs {}", parts, four);
        let two = dot64(&xi, &xj) + dot64(&pi, &pj);
        prop_assert!((parts.concatenated - two).abs() <= 1e-12 * (1.0 + two.abs()));
        // Cauchy–Schwarz: the cross terms never exceed ‖x_i‖‖p_j‖ + ‖p_i‖‖x_j‖.
        let relative = parts.cross_terms_relative();
        prop_assert!((0.0..=1.0 + 1e-12).contains(&relative), "{}", relative);
    }
}
