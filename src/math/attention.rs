//! Scaled dot-product attention weights with the masked softmax of d2l.ai ("Attention Scoring
//! Functions", `masked_softmax`), single- and multi-head. CPU twin of the GPU kernel
//! `gpu::attention`.
//!
//! Conventions shared with the GPU kernel:
//! - scores are dot products accumulated in f32 in column order ([`dot_products`]), then multiplied
//!   by the f32 scale `(1/√d_head) as f32`;
//! - keys at index ≥ valid_len get weight **exactly 0**; the valid ones are `exp(s − max)/Σ exp`,
//!   max and sum over the valid keys only (numerically stable: the largest exponent is 0);
//! - valid_len ≥ n_keys (or no mask) keeps every key; valid_len = 0 masks every key, so the whole
//!   row is 0 (d2l instead fills masked scores with −10⁶ and would give a uniform row; a row of
//!   zeros says "nothing to attend to" without inventing weights).

use ndarray::{s, Array2, Array4, ArrayView2, ArrayView3};
use thiserror::Error;

use super::gram::dot_products;

/// Why a multi-head attention computation cannot be done.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum AttentionError {
    #[error("the number of heads must be at least 1")]
    ZeroHeads,
    #[error("d = {d} is not divisible by heads = {heads}")]
    HeadsDoNotDivide { d: usize, heads: usize },
    #[error("{got} valid lengths were given for a batch of {batch} sequences")]
    ValidLensLength { batch: usize, got: usize },
    #[error("the input is empty: {what} is 0")]
    Empty { what: &'static str },
    #[error("queries have {queries} columns but keys have {keys}")]
    DimensionMismatch { queries: usize, keys: usize },
    #[error("queries have batch {queries} but keys have batch {keys}")]
    BatchMismatch { queries: usize, keys: usize },
}

/// The f32 score scale 1/√d_head, rounded once from f64 (the GPU kernel receives the same value).
pub fn score_scale(head_dim: usize) -> f32 {
    (1.0 / (head_dim as f64).sqrt()) as f32
}

/// Masked softmax of one row in place, as d2l's `masked_softmax` (masked scores replaced by −10⁶
/// before the softmax): entries at index ≥ `valid` become exactly 0 (exp(−10⁶ − max) is 0 in f32)
/// and the first `valid` entries exp(s − max)/Σ exp(s − max). With `valid = 0` every score is
/// −10⁶, so every weight is 1/len: a uniform row, not zeros.
pub fn masked_softmax_row(row: &mut [f32], valid: usize) {
    let valid = valid.min(row.len());
    if valid == 0 {
        let uniform = 1.0 / row.len().max(1) as f32;
        row.fill(uniform);
        return;
    }
    let (kept, masked) = row.split_at_mut(valid);
    masked.fill(0.0);
    let max = kept.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut sum = 0.0f32;
    for s in kept.iter_mut() {
        *s = (*s - max).exp();
        sum += *s;
    }
    for s in kept.iter_mut() {
        *s /= sum;
    }
}

/// softmax(Q·Kᵀ/√d) per row, shape (n_q, n_k); keys at index ≥ `valid_len` get weight exactly 0.
///
/// Never panics: if Q and K have different numbers of columns only the first
/// min(q.ncols(), k.ncols()) columns are used, and d is that minimum (see [`try_weights`] for the
/// checked version). d = 0 gives scores of 0, i.e. uniform weights over the valid keys. Empty Q or
/// K gives an empty matrix.
pub fn weights(q: ArrayView2<f32>, k: ArrayView2<f32>, valid_len: Option<usize>) -> Array2<f32> {
    let d = q.ncols().min(k.ncols());
    let scale = if d == 0 { 0.0 } else { score_scale(d) };
    let valid = valid_len.unwrap_or(k.nrows());
    let mut scores = dot_products(q, k);
    for mut row in scores.rows_mut() {
        row.mapv_inplace(|dot| dot * scale);
        // Rows of a fresh standard-layout array are contiguous.
        if let Some(row) = row.as_slice_mut() {
            masked_softmax_row(row, valid);
        }
    }
    scores
}

/// [`weights`] with the column counts checked.
pub fn try_weights(
    q: ArrayView2<f32>,
    k: ArrayView2<f32>,
    valid_len: Option<usize>,
) -> Result<Array2<f32>, AttentionError> {
    if q.ncols() != k.ncols() {
        return Err(AttentionError::DimensionMismatch {
            queries: q.ncols(),
            keys: k.ncols(),
        });
    }
    Ok(weights(q, k, valid_len))
}

/// Multi-head self-attention weights with Q = K = X, shape (batch, heads, n, n).
///
/// Head h of every sequence uses the columns h·d/heads .. (h+1)·d/heads and the scale 1/√(d/heads).
/// Sequence b's `valid_lens[b]` masks the keys of **all of its own heads** (in d2l the lengths are
/// repeated per sequence with `repeat_interleave`; tiling them instead would give head 1 of
/// sequence 0 the length of sequence 1).
pub fn multi_head_weights(
    x: ArrayView3<f32>,
    heads: usize,
    valid_lens: &[usize],
) -> Result<Array4<f32>, AttentionError> {
    multi_head_weights_qk(x, x, heads, valid_lens)
}

/// Multi-head attention weights for queries Q (batch, n_q, d) and keys K (batch, n_k, d), shape
/// (batch, heads, n_q, n_k); the conventions of [`multi_head_weights`].
pub fn multi_head_weights_qk(
    q: ArrayView3<f32>,
    k: ArrayView3<f32>,
    heads: usize,
    valid_lens: &[usize],
) -> Result<Array4<f32>, AttentionError> {
    let (batch, nq, d) = q.dim();
    let (k_batch, nk, k_d) = k.dim();
    check_multi_head(batch, nq, nk, d, heads, valid_lens)?;
    if k_batch != batch {
        return Err(AttentionError::BatchMismatch {
            queries: batch,
            keys: k_batch,
        });
    }
    if k_d != d {
        return Err(AttentionError::DimensionMismatch {
            queries: d,
            keys: k_d,
        });
    }
    let head_dim = d / heads;
    let mut out = Array4::<f32>::zeros((batch, heads, nq, nk));
    for (b, &valid) in valid_lens.iter().enumerate() {
        for h in 0..heads {
            let columns = s![b, .., h * head_dim..(h + 1) * head_dim];
            let w = weights(q.slice(columns), k.slice(columns), Some(valid));
            out.slice_mut(s![b, h, .., ..]).assign(&w);
        }
    }
    Ok(out)
}

/// The argument checks shared by the CPU twin and the GPU kernel.
pub fn check_multi_head(
    batch: usize,
    nq: usize,
    nk: usize,
    d: usize,
    heads: usize,
    valid_lens: &[usize],
) -> Result<(), AttentionError> {
    for (what, value) in [("batch", batch), ("n_q", nq), ("n_k", nk), ("d", d)] {
        if value == 0 {
            return Err(AttentionError::Empty { what });
        }
    }
    if heads == 0 {
        return Err(AttentionError::ZeroHeads);
    }
    if d % heads != 0 {
        return Err(AttentionError::HeadsDoNotDivide { d, heads });
    }
    if valid_lens.len() != batch {
        return Err(AttentionError::ValidLensLength {
            batch,
            got: valid_lens.len(),
        });
    }
    Ok(())
}
