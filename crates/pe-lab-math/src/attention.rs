//! Scaled dot-product attention weights with the masked softmax of d2l.ai ("Attention Scoring
//! Functions", `masked_softmax`), single- and multi-head. CPU twin of the GPU kernel
//! `gpu::attention`.
//!
//! Conventions shared with the GPU kernel:
//! - scores are f32 dot products ([`dot_products`](super::gram::dot_products): a GEMM, not summed
//!   in the GPU's column order, see below), then multiplied by the f32 scale `(1/√d_head) as f32`;
//! - keys at index ≥ valid_len get weight **exactly 0**; the valid ones are `exp(s − max)/Σ exp`,
//!   max and sum over the valid keys only (numerically stable: the largest exponent is 0);
//! - valid_len ≥ n_keys (or no mask) keeps every key; valid_len = 0 gives every key of the row the
//!   weight 1/n_keys, a uniform row, as d2l's `masked_softmax` does (it fills every masked score
//!   with −10⁶, so all scores are equal).
//!
//! How far the twins may differ: each score is a d-term f32 dot product, within
//! γ_d·Σ_k |q_k·k_k| (γ_d = d·u/(1 − d·u), u = 2⁻²⁴) of the exact value on either side, whatever
//! the summation order, so the two scores differ by at most δ = scale·2γ_d·Σ_k |q_k·k_k| (plus one
//! rounding of the scale multiply each). The softmax is well conditioned: shifting every score of
//! a row by at most δ multiplies each weight by a factor in [e^(−2δ), e^(2δ)], so a weight w moves
//! by at most about 2δ·w. The exp, the sum and the division add a few ulp on each side.

use ndarray::{s, Array2, Array4, ArrayView2, ArrayView3};
use thiserror::Error;

use super::gram::products_into;

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
    // Multiplying by 1 is exact: the scores are used as they are.
    scaled_masked_softmax_row(row, 1.0, valid);
}

/// Independent accumulators of the row maximum and of the sum of exponentials: the compiler keeps
/// them in SIMD registers (a single f32 accumulator cannot be vectorised without reordering).
const LANES: usize = 16;

/// [`masked_softmax_row`] of the scores fl(s·`scale`) for `scale` > 0, multiplied on the fly:
/// the exponent of each valid entry is fl(s·scale) − fl(max·scale), which is exactly what scaling
/// the row first and then taking its maximum gives (rounding is monotonic, so fl(max·scale) is the
/// largest scaled score). `scale` = 0 (d = 0) makes every valid weight 1/valid.
fn scaled_masked_softmax_row(row: &mut [f32], scale: f32, valid: usize) {
    let valid = valid.min(row.len());
    if valid == 0 {
        let uniform = 1.0 / row.len().max(1) as f32;
        row.fill(uniform);
        return;
    }
    let (kept, masked) = row.split_at_mut(valid);
    masked.fill(0.0);
    let shift = row_max(kept) * scale;
    let mut sums = [0.0f32; LANES];
    let mut chunks = kept.chunks_exact_mut(LANES);
    for chunk in &mut chunks {
        for (s, sum) in chunk.iter_mut().zip(sums.iter_mut()) {
            *s = exp_nonpositive(*s * scale - shift);
            *sum += *s;
        }
    }
    for (s, sum) in chunks.into_remainder().iter_mut().zip(sums.iter_mut()) {
        *s = exp_nonpositive(*s * scale - shift);
        *sum += *s;
    }
    let sum: f32 = sums.iter().sum();
    for s in kept.iter_mut() {
        *s /= sum;
    }
}

/// The largest entry of a non-empty slice (NaN entries are skipped, like `f32::max`).
fn row_max(values: &[f32]) -> f32 {
    let mut maxima = [f32::NEG_INFINITY; LANES];
    let mut chunks = values.chunks_exact(LANES);
    for chunk in &mut chunks {
        for (&v, m) in chunk.iter().zip(maxima.iter_mut()) {
            // A comparison and a select, which vectorise (`f32::max`'s NaN rule does not).
            *m = if v > *m { v } else { *m };
        }
    }
    chunks
        .remainder()
        .iter()
        .chain(&maxima)
        .copied()
        .fold(f32::NEG_INFINITY, f32::max)
}

/// e^x for x ≤ 0, as a loop body the compiler vectorises: `f32::exp` is a libm call per entry, and
/// the 2048² exponentials of a softmax at n = 2048 took 17 ms with it, 7 ms with this (native).
///
/// Cephes' `expf` (S. L. Moshier): x = k·ln 2 + r with k = round(x·log₂e) and |r| ≤ ln 2/2, ln 2
/// split in two so that k·LN2_HI is exact and no fused multiply-add is needed; e^r by a degree-7
/// polynomial; 2^k built in the exponent bits in two halves so that results down to the smallest
/// subnormal come out right. Checked against f64 on **every** f32 in [−110, 0]: within 0.982 ulp
/// of e^x (99.2 % correctly rounded); e^x below half the smallest subnormal, including x = −∞, is
/// 0; NaN gives NaN. Positive x are never passed (the exponent is a score minus the row maximum).
#[inline(always)]
fn exp_nonpositive(x: f32) -> f32 {
    /// 1.5·2²³: adding it rounds x·log₂e to an integer, which then sits in the low mantissa bits.
    const ROUND: f32 = 12_582_912.0;
    const LN2_HI: f32 = 0.693_359_4;
    const LN2_LO: f32 = -2.121_944_4e-4;
    // e^−104 < 2⁻¹⁵⁰ rounds to 0; clamping keeps k in range. A comparison, so NaN passes through.
    let x = if x < -104.0 { -104.0 } else { x };
    let t = x * std::f32::consts::LOG2_E + ROUND;
    let k = t - ROUND;
    let k_int = (t.to_bits() as i32).wrapping_sub(ROUND.to_bits() as i32);
    let r = x - k * LN2_HI;
    let r = r - k * LN2_LO;
    // Cephes' coefficients; its last one, 5.0000001201e-1, is 0.5 in f32.
    let poly = ((((1.987_569_1e-4 * r + 1.398_199_9e-3) * r + 8.333_452e-3) * r + 4.166_579_6e-2)
        * r
        + 1.666_666_5e-1)
        * r
        + 0.5;
    let e_r = poly * (r * r) + r + 1.0;
    // k ∈ [−150, 0]: 2^k = 2^(k/2)·2^(k − k/2), both halves normal numbers.
    let half = k_int >> 1;
    let pow2 = |e: i32| f32::from_bits((e.wrapping_add(127) as u32) << 23);
    e_r * pow2(half) * pow2(k_int - half)
}

/// softmax(Q·Kᵀ/√d) per row, shape (n_q, n_k); keys at index ≥ `valid_len` get weight exactly 0.
///
/// Never panics: if Q and K have different numbers of columns only the first
/// min(q.ncols(), k.ncols()) columns are used, and d is that minimum (see [`try_weights`] for the
/// checked version). d = 0 gives scores of 0, i.e. uniform weights over the valid keys. Empty Q or
/// K gives an empty matrix.
pub fn weights(q: ArrayView2<f32>, k: ArrayView2<f32>, valid_len: Option<usize>) -> Array2<f32> {
    let mut out = Array2::<f32>::zeros((q.nrows(), k.nrows()));
    // A fresh array is in standard layout, so the slice is always there.
    if let Some(out) = out.as_slice_mut() {
        weights_into(q, k, valid_len, out);
    }
    out
}

/// [`weights`] written into `out`, the row-major n_q × n_k result (any other length leaves it
/// untouched).
fn weights_into(q: ArrayView2<f32>, k: ArrayView2<f32>, valid_len: Option<usize>, out: &mut [f32]) {
    let (nq, nk) = (q.nrows(), k.nrows());
    if nk == 0 || out.len() != nq * nk {
        return;
    }
    let d = q.ncols().min(k.ncols());
    let scale = if d == 0 { 0.0 } else { score_scale(d) };
    let valid = valid_len.unwrap_or(nk);
    products_into(q, k, out);
    for row in out.chunks_exact_mut(nk) {
        scaled_masked_softmax_row(row, scale, valid);
    }
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
    // A fresh array is in standard layout: (b, h) owns the n_q·n_k entries from
    // (b·heads + h)·n_q·n_k on, and each head's weights are written there directly.
    if let Some(all) = out.as_slice_mut() {
        let mut blocks = all.chunks_exact_mut(nq * nk);
        for (b, &valid) in valid_lens.iter().enumerate() {
            for (h, block) in (0..heads).zip(&mut blocks) {
                let columns = s![b, .., h * head_dim..(h + 1) * head_dim];
                weights_into(q.slice(columns), k.slice(columns), Some(valid), block);
            }
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

#[cfg(test)]
mod tests {
    use super::exp_nonpositive;

    /// |e^x − exp_nonpositive(x)| in ulp of the exact value (of the smallest subnormal below the
    /// normal range).
    fn ulp_error(x: f32) -> f64 {
        let exact = (x as f64).exp();
        let binade = exact.log2().floor().max(-126.0) as i32;
        let ulp = 2f64.powi(binade - 23);
        (exp_nonpositive(x) as f64 - exact).abs() / ulp
    }

    #[test]
    fn exp_is_within_one_ulp_on_a_sweep_of_every_binade() {
        // Every 997th f32 from −0 down to −110 (about 1.1 million values; the whole range was
        // checked once, natively: at most 0.982 ulp).
        let last = (-110.0f32).to_bits();
        let mut worst = (0.0, 0.0f32);
        for bits in (0x8000_0000u32..=last).step_by(997) {
            let x = f32::from_bits(bits);
            let err = ulp_error(x);
            if err > worst.0 {
                worst = (err, x);
            }
        }
        assert!(worst.0 <= 1.0, "{} ulp at x = {}", worst.0, worst.1);
    }

    #[test]
    fn exp_edges() {
        assert_eq!(exp_nonpositive(0.0), 1.0);
        assert_eq!(exp_nonpositive(-0.0), 1.0);
        assert_eq!(exp_nonpositive(f32::NEG_INFINITY), 0.0);
        assert_eq!(exp_nonpositive(-104.0), 0.0);
        assert_eq!(exp_nonpositive(-1e6), 0.0);
        assert!(exp_nonpositive(f32::NAN).is_nan());
        // Around the smallest normal, 2⁻¹²⁶ ≈ e^−87.34, and the smallest subnormal, 2⁻¹⁴⁹ ≈ e^−103.28.
        for x in [
            -87.0f32, -87.4, -88.0, -100.0, -103.0, -103.5, -1.0, -0.5, -1e-8,
        ] {
            assert!(ulp_error(x) <= 1.0, "x = {x}: {} ulp", ulp_error(x));
        }
    }
}
