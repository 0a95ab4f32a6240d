//! Integration tests of `pe_lab::math::attention` against a float64 reference written out here:
//! softmax(Q·Kᵀ/√d) with d2l's masked softmax (keys at index ≥ valid_len get weight 0), and the
//! multi-head split of the chapter (heads take consecutive column blocks, scale 1/√(d/heads), a
//! sequence's valid length masks all of its heads).
#![cfg(not(target_arch = "wasm32"))]

mod common;
use common::pseudo_random;

use ndarray::{s, Array2, Array3, ArrayView2};
use pe_lab::math::attention::{
    masked_softmax_row, multi_head_weights, multi_head_weights_qk, try_weights, weights,
    AttentionError,
};
use pe_lab::math::encoding::sinusoidal;
use proptest::prelude::*;

const TOLERANCE: f64 = 1e-6;

/// Float64 masked softmax attention; `valid` keys kept (all when None).
fn reference(q: ArrayView2<f32>, k: ArrayView2<f32>, valid: Option<usize>) -> Array2<f64> {
    let (nq, nk, d) = (q.nrows(), k.nrows(), q.ncols());
    let valid = valid.unwrap_or(nk).min(nk);
    let mut out = Array2::zeros((nq, nk));
    if valid == 0 {
        // d2l's masked_softmax: every score is −10⁶, so every weight is 1/nk.
        out.fill(1.0 / nk as f64);
        return out;
    }
    for i in 0..nq {
        let scores: Vec<f64> = (0..valid)
            .map(|j| {
                let dot: f64 = (0..d).map(|c| q[[i, c]] as f64 * k[[j, c]] as f64).sum();
                dot / (d as f64).sqrt()
            })
            .collect();
        let max = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let total: f64 = scores.iter().map(|s| (s - max).exp()).sum();
        for (j, s) in scores.iter().enumerate() {
            out[[i, j]] = (s - max).exp() / total;
        }
    }
    out
}

fn assert_close(w: &Array2<f32>, r: &Array2<f64>, what: &str) {
    assert_eq!(w.dim(), r.dim(), "{what}");
    for (&a, &b) in w.iter().zip(r) {
        assert!((a as f64 - b).abs() <= TOLERANCE, "{what}: {a} vs {b}");
    }
}

#[test]
fn matches_the_float64_reference_with_and_without_masks() {
    let x = pseudo_random((2, 9, 12), 1);
    let (q, k) = (x.slice(s![0, .., ..]), x.slice(s![1, .., ..]));
    for valid in [None, Some(1), Some(4), Some(9), Some(100)] {
        let w = weights(q, k, valid);
        assert_close(&w, &reference(q, k, valid), &format!("{valid:?}"));
    }
}

#[test]
fn rows_sum_to_one_over_valid_keys_and_masked_keys_are_exactly_zero() {
    let p = sinusoidal(20, 16, 10000.0);
    for valid in 1..=20 {
        let w = weights(p.view(), p.view(), Some(valid));
        for row in w.rows() {
            let kept: f64 = row.slice(s![..valid]).iter().map(|&v| v as f64).sum();
            assert!((kept - 1.0).abs() < 1e-6, "valid={valid}: sum {kept}");
            assert!(row.slice(s![valid..]).iter().all(|&v| v == 0.0));
            assert!(row.slice(s![..valid]).iter().all(|&v| v > 0.0));
        }
    }
}

#[test]
fn no_mask_equals_a_mask_at_or_past_the_end_and_valid_len_zero_is_uniform() {
    let x = pseudo_random((1, 5, 8), 3);
    let q = x.slice(s![0, .., ..]);
    let all = weights(q, q, None);
    assert_eq!(all, weights(q, q, Some(5)));
    assert_eq!(all, weights(q, q, Some(usize::MAX)));
    // d2l's masked_softmax sets masked scores to −10⁶: with no valid key every score is −10⁶ and
    // the softmax is uniform (each row sums to 1), not a row of zeros.
    assert_eq!(weights(q, q, Some(0)), Array2::from_elem((5, 5), 0.2f32));
}

#[test]
fn large_scores_do_not_overflow() {
    let q = Array2::from_elem((2, 4), 100.0f32);
    let k = Array2::from_shape_fn((3, 4), |(j, _)| 100.0 - j as f32);
    let w = weights(q.view(), k.view(), None);
    assert!(w.iter().all(|v| v.is_finite()));
    assert_close(&w, &reference(q.view(), k.view(), None), "large scores");
}

#[test]
fn mismatched_columns_use_the_common_prefix_or_fail_when_checked() {
    let q = pseudo_random((1, 3, 6), 4).slice(s![0, .., ..]).to_owned();
    let k = pseudo_random((1, 4, 8), 5).slice(s![0, .., ..]).to_owned();
    let w = weights(q.view(), k.view(), None);
    assert_close(
        &w,
        &reference(q.view(), k.slice(s![.., ..6]), None),
        "prefix",
    );
    assert_eq!(
        try_weights(q.view(), k.view(), None),
        Err(AttentionError::DimensionMismatch {
            queries: 6,
            keys: 8
        })
    );
    assert_eq!(weights(q.slice(s![..0, ..]), k.view(), None).dim(), (0, 4));
}

#[test]
fn masked_softmax_row_in_place() {
    let mut row = [1.0f32, 2.0, 3.0, 4.0];
    masked_softmax_row(&mut row, 2);
    let e = 1.0f32.exp();
    assert!((row[0] - 1.0 / (1.0 + e)).abs() < 1e-7);
    assert!((row[1] - e / (1.0 + e)).abs() < 1e-7);
    assert_eq!(&row[2..], &[0.0, 0.0]);
    let mut empty: [f32; 0] = [];
    masked_softmax_row(&mut empty, 3);
}

#[test]
fn the_chapters_multi_head_example() {
    // d2l: batch 2, 4 positions, num_hiddens 100, 5 heads, valid_lens [3, 2].
    let x = pseudo_random((2, 4, 100), 6);
    let w = multi_head_weights(x.view(), 5, &[3, 2]).expect("valid shape");
    assert_eq!(w.dim(), (2, 5, 4, 4));
    for (b, valid) in [(0usize, 3usize), (1, 2)] {
        for h in 0..5usize {
            let cols = s![b, .., h * 20..(h + 1) * 20];
            let expected = reference(x.slice(cols), x.slice(cols), Some(valid));
            let got = w.slice(s![b, h, .., ..]).to_owned();
            assert_close(&got, &expected, &format!("b={b} h={h}"));
        }
    }
}

#[test]
fn valid_lens_are_repeated_per_sequence_not_tiled() {
    // batch 2, heads 2, valid_lens [1, 3]. Repeating (d2l's repeat_interleave) gives the heads of
    // sequence 0 one key each; tiling would give head 1 of sequence 0 the length 3.
    let x = pseudo_random((2, 4, 8), 7);
    let w = multi_head_weights(x.view(), 2, &[1, 3]).expect("valid shape");
    for h in 0..2usize {
        let first = w.slice(s![0usize, h, .., ..]);
        assert!(first.column(0).iter().all(|&v| v == 1.0), "head {h}");
        assert!(
            first.slice(s![.., 1..]).iter().all(|&v| v == 0.0),
            "head {h}"
        );
        let second = w.slice(s![1usize, h, .., ..]);
        assert!(
            second.slice(s![.., ..3]).iter().all(|&v| v > 0.0),
            "head {h}"
        );
        assert!(second.column(3).iter().all(|&v| v == 0.0), "head {h}");
    }
    // What the tiled lengths [1, 3, 1, 3] (over batch·heads) would have given head 1 of sequence
    // 0: three keys. It differs, so the test tells the two apart.
    let cols = s![0usize, .., 4..8];
    let tiled = reference(x.slice(cols), x.slice(cols), Some(3));
    assert!(tiled.column(1).iter().any(|&v| v > 0.0));
}

#[test]
fn multi_head_errors_are_typed() {
    let x = pseudo_random((2, 4, 6), 8);
    assert_eq!(
        multi_head_weights(x.view(), 0, &[1, 1]),
        Err(AttentionError::ZeroHeads)
    );
    assert_eq!(
        multi_head_weights(x.view(), 4, &[1, 1]),
        Err(AttentionError::HeadsDoNotDivide { d: 6, heads: 4 })
    );
    assert_eq!(
        multi_head_weights(x.view(), 2, &[1]),
        Err(AttentionError::ValidLensLength { batch: 2, got: 1 })
    );
    let empty = Array3::<f32>::zeros((0, 4, 6));
    assert_eq!(
        multi_head_weights(empty.view(), 1, &[]),
        Err(AttentionError::Empty { what: "batch" })
    );
    let k = pseudo_random((3, 4, 6), 9);
    assert_eq!(
        multi_head_weights_qk(x.view(), k.view(), 1, &[1, 1]),
        Err(AttentionError::BatchMismatch {
            queries: 2,
            keys: 3
        })
    );
}

#[test]
fn one_head_of_p_is_the_single_head_weights() {
    let p = sinusoidal(30, 32, 10000.0);
    let x = p.clone().insert_axis(ndarray::Axis(0));
    let w = multi_head_weights(x.view(), 1, &[17]).expect("valid");
    assert_eq!(
        w.slice(s![0, 0, .., ..]).to_owned(),
        weights(p.view(), p.view(), Some(17))
    );
}

#[test]
fn long_rows_match_the_float64_reference() {
    // Rows longer than the softmax's 16 lanes, valid lengths around multiples of 16.
    let q = pseudo_random((1, 5, 70), 21);
    let k = pseudo_random((1, 300, 70), 22);
    let (q, k) = (q.slice(s![0, .., ..]), k.slice(s![0, .., ..]));
    for valid in [
        None,
        Some(1),
        Some(15),
        Some(16),
        Some(17),
        Some(33),
        Some(299),
    ] {
        let w = weights(q, k, valid);
        assert_close(&w, &reference(q, k, valid), &format!("{valid:?}"));
    }
}

#[test]
fn self_attention_past_one_gram_block_matches_the_reference() {
    // Q = K: the scores come from the symmetric Gram product (blocks of rows, mirrored).
    let p = sinusoidal(300, 32, 10000.0);
    for valid in [None, Some(290)] {
        let w = weights(p.view(), p.view(), valid);
        assert_close(
            &w,
            &reference(p.view(), p.view(), valid),
            &format!("{valid:?}"),
        );
    }
}

#[test]
fn the_symmetric_shortcut_agrees_with_the_general_product() {
    // multi_head_weights passes the same view as Q and K (symmetric scores); a copy of X as K
    // goes through the general product. Both are within 1e-6 of the float64 reference (checked
    // above), so they are within 2e-6 of each other.
    let x = pseudo_random((2, 70, 24), 23);
    let copy = x.clone();
    let shortcut = multi_head_weights(x.view(), 3, &[50, 70]).expect("valid");
    let general = multi_head_weights_qk(x.view(), copy.view(), 3, &[50, 70]).expect("valid");
    for (&a, &b) in shortcut.iter().zip(&general) {
        assert!((a - b).abs() <= 2e-6, "{a} vs {b}");
    }
}

#[test]
fn tiny_weights_underflow_like_the_exact_exponential() {
    // Scores 0, −3, −6, …: e^(−3j) spans normal, subnormal (j ≥ 30) and zero (j ≥ 35) f32 values.
    let mut row: Vec<f32> = (0..40).map(|j| -3.0 * j as f32).collect();
    masked_softmax_row(&mut row, 40);
    let total: f64 = (0..40).map(|j| (-3.0 * j as f64).exp()).sum();
    for (j, &w) in row.iter().enumerate() {
        let exact = (-3.0 * j as f64).exp() / total;
        // A few ulp of the weight, or of the smallest subnormal.
        let bound = 4.0 * f32::EPSILON as f64 * exact + 1.5e-45;
        assert!((w as f64 - exact).abs() <= bound, "j={j}: {w} vs {exact}");
    }
}

proptest! {
    #[test]
    fn any_input_matches_the_reference(
        (nq, nk, d, valid, seed) in (1usize..12, 1usize..12, 1usize..24, 0usize..14, any::<u64>())
    ) {
        let q = pseudo_random((1, nq, d), seed);
        let k = pseudo_random((1, nk, d), seed ^ 1);
        let (q, k) = (q.slice(s![0, .., ..]), k.slice(s![0, .., ..]));
        let w = weights(q, k, Some(valid));
        let r = reference(q, k, Some(valid));
        for (&a, &b) in w.iter().zip(&r) {
            prop_assert!((a as f64 - b).abs() <= TOLERANCE, "{} vs {}", a, b);
            prop_assert!(b != 0.0 || a == 0.0);
        }
    }
}
