//! NoPE, no positional encoding at all (Kazemnejad et al. 2023, "The Impact of Positional
//! Encoding on Length Generalization in Transformers"): a causal mask alone lets a decoder recover
//! absolute positions. With uniform scores, causal attention at position t averages the first t
//! values; if only the first token carries a "start" indicator 1, the output at position t is 1/t,
//! a strictly decreasing function of the position. Without the mask (bidirectional) every position
//! gets the same 1/n: nothing distinguishes the positions.

use ndarray::{Array2, ArrayView2};

/// Largest sequence length [`start_indicator_outputs`] builds (an n × n matrix of weights).
pub const MAX_POSITIONS: usize = 4096;

/// Row-wise softmax in f64 of an (n_q, n_k) score matrix. With `causal`, row i keeps keys
/// 0..=i only (min(i + 1, n_k) of them) and the later keys get weight exactly 0; the maximum of
/// the kept scores is subtracted first, so no exponent is positive. Non-finite maxima (a row of
/// −∞) give a uniform row over the kept keys. An empty matrix gives an empty result.
pub fn softmax_rows(scores: ArrayView2<f64>, causal: bool) -> Array2<f64> {
    let (nq, nk) = scores.dim();
    let mut out = Array2::<f64>::zeros((nq, nk));
    for (i, (row, mut target)) in scores.rows().into_iter().zip(out.rows_mut()).enumerate() {
        let kept = if causal { (i + 1).min(nk) } else { nk };
        if kept == 0 {
            continue;
        }
        let top = row
            .iter()
            .take(kept)
            .copied()
            .fold(f64::NEG_INFINITY, f64::max);
        if !top.is_finite() {
            target
                .iter_mut()
                .take(kept)
                .for_each(|w| *w = 1.0 / kept as f64);
            continue;
        }
        let mut sum = 0.0;
        for (w, &s) in target.iter_mut().zip(row.iter()).take(kept) {
            *w = (s - top).exp();
            sum += *w;
        }
        target.iter_mut().take(kept).for_each(|w| *w /= sum);
    }
    out
}

/// The attention output at positions t = 1..=n of a sequence whose only feature is the start
/// indicator (1 for the first token, 0 for the others), with all scores equal (no positional
/// information in the queries and keys). Computed from the attention weights themselves: causal
/// gives 1/t at position t, bidirectional 1/n everywhere. `n` is clamped to [`MAX_POSITIONS`];
/// n = 0 gives an empty vector.
pub fn start_indicator_outputs(n: usize, causal: bool) -> Vec<f64> {
    let n = n.min(MAX_POSITIONS);
    // One query row at a time (an n × n matrix at n = 4096 would be 134 MB): the same softmax as
    // `softmax_rows`, of a 1 × n row of equal scores whose kept keys are those of row t.
    let zeros = Array2::<f64>::zeros((1, n));
    (0..n)
        .map(|t| {
            let kept = if causal { t + 1 } else { n };
            let row = softmax_rows(zeros.slice(ndarray::s![.., ..kept]), false);
            // The output is Σ_j w_tj·x_j with x_0 = 1 and every other x_j = 0.
            row[[0, 0]]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn causal_rows_sum_to_one_and_mask_the_future() {
        let w = softmax_rows(Array2::<f64>::zeros((3, 3)).view(), true);
        assert_eq!(w[[0, 0]], 1.0);
        assert_eq!(w[[0, 1]], 0.0);
        assert!((w[[2, 1]] - 1.0 / 3.0).abs() < 1e-16);
    }

    #[test]
    fn empty_and_huge_lengths_do_not_panic() {
        assert!(start_indicator_outputs(0, true).is_empty());
        assert_eq!(
            start_indicator_outputs(usize::MAX, false).len(),
            MAX_POSITIONS
        );
    }
}
