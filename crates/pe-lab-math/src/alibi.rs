//! ALiBi, "Attention with Linear Biases" (Press, Smith and Lewis, ICLR 2022): no positional
//! encoding is added to the tokens; instead head h adds the bias m_h·(j − i) to the score of query
//! i and key j (j ≤ i, causal), a penalty that grows linearly with the distance i − j.
//!
//! The slopes m_h follow the reference code (`get_slopes` in ofirpress/attention_with_linear_biases):
//! for a power-of-two number of heads H they are the geometric sequence 2^(−8/H), 2^(−16/H), …,
//! 2^(−8); for other H they are the slopes of the closest lower power of two n followed by every
//! other slope of 2n, as many as are missing.

use ndarray::{Array2, ArrayView2};

use super::attention::{masked_softmax_row, score_scale};
use super::gram::dot_products;

/// Largest number of heads [`slopes`] computes; more are clamped to it (a model has tens).
pub const MAX_HEADS: usize = 4096;

/// Largest sequence length [`bias`] builds a matrix for; longer ones are clamped to it (the n × n
/// f64 matrix is then 128 MiB).
pub const MAX_POSITIONS: usize = 4096;

/// The slopes of a power-of-two number of heads `n`: 2^(−8·(h+1)/n) for h = 0..n.
///
/// Each slope is one `powf` of the exact exponent rather than the reference's repeated product
/// start·ratio^h, so no rounding accumulates (they agree to a few ulp).
fn power_of_two_slopes(n: usize) -> Vec<f64> {
    (1..=n)
        .map(|h| libm::pow(2.0, -8.0 * h as f64 / n as f64))
        .collect()
}

/// The ALiBi slope of every head, head 0 first. `heads = 0` gives an empty vector; more than
/// [`MAX_HEADS`] heads are clamped to it.
///
/// H = 8 gives 1/2, 1/4, …, 1/256; H = 12 gives those eight followed by 2^(−0.5), 2^(−1.5),
/// 2^(−2.5), 2^(−3.5) (the odd-numbered slopes of H = 16), as the reference code does.
pub fn slopes(heads: usize) -> Vec<f64> {
    let heads = heads.min(MAX_HEADS);
    if heads == 0 {
        return Vec::new();
    }
    if heads.is_power_of_two() {
        return power_of_two_slopes(heads);
    }
    // The largest power of two below `heads` (heads ≥ 3 here, so the shift is ≥ 1).
    let lower = 1usize << (usize::BITS - 1 - heads.leading_zeros());
    let mut out = power_of_two_slopes(lower);
    out.extend(
        power_of_two_slopes(2 * lower)
            .into_iter()
            .step_by(2)
            .take(heads - lower),
    );
    out
}

/// The causal ALiBi bias of one head, shape (n, n): entry (i, j) is `slope`·(j − i) for j ≤ i
/// (0 on the diagonal, more negative the further back the key) and −∞ above the diagonal, so that
/// adding it to the scores and taking a plain softmax also applies the causal mask
/// (exp(−∞) = 0). `n` is clamped to [`MAX_POSITIONS`].
///
/// The reference implementation adds `slope·j` to every row instead of `slope·(j − i)`: the two
/// differ by `slope·i`, constant along a row, which a softmax ignores. This form is the paper's.
pub fn bias(slope: f64, n: usize) -> Array2<f64> {
    let n = n.min(MAX_POSITIONS);
    Array2::from_shape_fn((n, n), |(i, j)| {
        if j <= i {
            slope * (j as f64 - i as f64)
        } else {
            f64::NEG_INFINITY
        }
    })
}

/// Causal attention weights of one head with the ALiBi bias: row i is the softmax over keys
/// j ≤ i of `scores[i, j]` + slope·(j − i), and keys j > i get weight exactly 0.
///
/// The bias is added in f32 and the row goes through the crate's masked softmax
/// ([`masked_softmax_row`]) with `i + 1` valid keys, so the causal mask follows the same
/// convention as the d2l valid-length mask (masked keys are exactly 0, the maximum is subtracted
/// first). The scores are used as given: scale them by 1/√d first if they are raw dot products.
/// Rectangular scores are accepted (row i keeps min(i + 1, columns) keys); an empty matrix gives
/// an empty result.
pub fn causal_weights(scores: ArrayView2<f32>, slope: f64) -> Array2<f32> {
    // Standard layout, so that every row is a contiguous slice (a transposed view would not be).
    let mut out = scores.as_standard_layout().into_owned();
    for (i, mut row) in out.rows_mut().into_iter().enumerate() {
        for (j, s) in row.iter_mut().enumerate().take(i + 1) {
            *s += (slope * (j as f64 - i as f64)) as f32;
        }
        if let Some(values) = row.as_slice_mut() {
            masked_softmax_row(values, i + 1);
        }
    }
    out
}

/// Causal ALiBi weights of one head from queries and keys (n_q × d and n_k × d, f32): the scores
/// Q·Kᵀ by ndarray's matrix product ([`dot_products`]: matrixmultiply's SGEMM over the common
/// columns), multiplied by the f32 scale `(1/√d) as f32` ([`score_scale`]), then
/// [`causal_weights`] with `slope`. CPU twin of `gpu::alibi_scores`.
///
/// The slope is an f32, as the kernel receives it: the bias f32(slope·(j − i)) is then the
/// correctly rounded f32 product on both sides (the f64 product of an f32 and an integer below 2²⁹
/// is exact). Never panics: d = 0 (or no common columns) gives scores of 0, i.e. the bias alone.
pub fn causal_weights_f32(q: ArrayView2<f32>, k: ArrayView2<f32>, slope: f32) -> Array2<f32> {
    let d = q.ncols().min(k.ncols());
    let scale = if d == 0 { 0.0 } else { score_scale(d) };
    let mut scores = dot_products(q, k);
    scores.mapv_inplace(|s| s * scale);
    causal_weights(scores.view(), f64::from(slope))
}

/// The weights of [`causal_weights`] with all scores 0: what the bias alone does. Row i is
/// proportional to e^(−slope·(i − j)), a geometric decay over the past.
pub fn bias_only_weights(slope: f64, n: usize) -> Array2<f32> {
    let n = n.min(MAX_POSITIONS);
    causal_weights(Array2::<f32>::zeros((n, n)).view(), slope)
}

/// How far one head looks from the bias alone: the number of most recent keys that hold `share` of
/// the weight e^(−m·t), t = 0 … i, of query position i: the smallest k with (1 − e^(−mk)) / (1 − e^(−m(i+1))) ≥ share (closed form, no
/// matrix), at most i + 1. A slope of 0 spreads the weight evenly.
pub fn span(slope: f64, i: usize, share: f64) -> usize {
    let keys = i as f64 + 1.0;
    if slope <= 0.0 {
        return (share * keys).ceil().clamp(1.0, keys) as usize;
    }
    let total = -(-slope * keys).exp_m1();
    let k = -(-(share * total)).ln_1p() / slope;
    // A tiny tolerance: k lands on an integer in exact arithmetic for some slopes.
    (k - 1e-9).ceil().clamp(1.0, keys) as usize
}

/// From the bias alone, the total weight that query position i gives to the keys more than
/// `context` positions back (distances t = context + 1 … i, whose biases −m·t are below any a
/// model trained on `context` positions has seen): e^(−m(L+1))·(1 − e^(−m(i−L))) / (1 − e^(−m(i+1)))
/// in closed form, 0 when i ≤ L. A slope of 0 gives the share (i − L)/(i + 1).
pub fn weight_beyond_context(slope: f64, i: usize, context: usize) -> f64 {
    if i <= context {
        return 0.0;
    }
    let (keys, beyond) = ((i + 1) as f64, (i - context) as f64);
    if slope <= 0.0 {
        return beyond / keys;
    }
    (-slope * (context as f64 + 1.0)).exp() * -(-slope * beyond).exp_m1()
        / -(-slope * keys).exp_m1()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weight_beyond_the_context_sums_the_far_keys() {
        for (m, i, l) in [
            (0.5, 40, 16),
            (1.0 / 256.0, 4096, 2048),
            (0.0, 10, 4),
            (0.1, 8, 8),
        ] {
            let weights: Vec<f64> = (0..=i).map(|t| (-m * t as f64).exp()).collect();
            let total: f64 = weights.iter().sum();
            let far: f64 = weights.iter().skip(l + 1).sum();
            let got = weight_beyond_context(m, i, l);
            assert!(
                (got - far / total).abs() < 1e-12 * (1.0 + far / total),
                "{m} {i} {l}: {got}"
            );
        }
    }

    #[test]
    fn the_span_is_the_same_at_every_position_past_it() {
        // m = 1/2: 1 − e^(−k/2) ≥ 0.9 first at k = 5 (e^(−2.5) = 0.082).
        assert_eq!(span(0.5, 10_000, 0.9), 5);
        assert_eq!(span(0.5, 100, 0.9), 5);
        // Few keys: at most i + 1 of them.
        assert_eq!(span(1.0 / 256.0, 3, 0.9), 4);
        assert_eq!(span(0.0, 9, 0.9), 9);
        // Brute force against the definition.
        for (m, i) in [(0.25, 40usize), (0.0625, 300), (0.0039, 5000)] {
            let w: Vec<f64> = (0..=i).map(|t| (-m * t as f64).exp()).collect();
            let total: f64 = w.iter().sum();
            let mut acc = 0.0;
            let k = w
                .iter()
                .position(|x| {
                    acc += x;
                    acc / total >= 0.9 - 1e-12
                })
                .unwrap()
                + 1;
            assert_eq!(span(m, i, 0.9), k, "m = {m}, i = {i}");
        }
    }

    #[test]
    fn eight_heads_halve_each_time() {
        let s = slopes(8);
        for (h, m) in s.iter().enumerate() {
            assert!((m - 0.5f64.powi(h as i32 + 1)).abs() < 1e-15);
        }
    }

    #[test]
    fn zero_heads_and_huge_counts_do_not_panic() {
        assert!(slopes(0).is_empty());
        assert_eq!(slopes(usize::MAX).len(), MAX_HEADS);
        assert_eq!(bias(0.5, 0).dim(), (0, 0));
    }

    #[test]
    fn bias_rows_are_causal() {
        let b = bias(0.25, 3);
        assert_eq!(b[[2, 0]], -0.5);
        assert_eq!(b[[1, 1]], 0.0);
        assert_eq!(b[[0, 1]], f64::NEG_INFINITY);
    }

    #[test]
    fn transposed_scores_are_handled_like_their_copy() {
        let scores = Array2::from_shape_fn((3, 3), |(i, j)| (i * 3 + j) as f32 * 0.1);
        let transposed = scores.t();
        let from_view = causal_weights(transposed, 0.5);
        let from_copy = causal_weights(transposed.to_owned().as_standard_layout().view(), 0.5);
        assert_eq!(from_view, from_copy);
        assert_eq!(
            from_view[[2, 2]] + from_view[[2, 1]] + from_view[[2, 0]],
            1.0
        );
    }

    #[test]
    fn weights_above_the_diagonal_are_zero() {
        let w = bias_only_weights(0.5, 4);
        assert_eq!(w[[0, 0]], 1.0);
        assert_eq!(w[[1, 2]], 0.0);
    }
}
