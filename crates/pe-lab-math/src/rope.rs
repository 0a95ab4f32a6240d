//! Rotary position embedding, RoPE (Su et al. 2021, "RoFormer"): instead of adding a position
//! vector, the query and the key are rotated, pair by pair, by the angle m·θ_j with
//! θ_j = base^(−2j/d), j = 0..d/2. The score ⟨R_m q, R_n k⟩ = ⟨q, R_{n−m} k⟩ then depends on the
//! positions only through n − m.
//!
//! Two layouts of the pairs are in use and give the same scores up to a fixed permutation of the
//! dimensions ([`interleaved_to_half_split`]):
//! - interleaved, pairs (2j, 2j + 1): the paper, GPT-J, Mesh TensorFlow;
//! - half-split, pairs (j, j + d/2): GPT-NeoX and Hugging Face's `rotate_half`.

use ndarray::{Array2, ArrayView2};
use thiserror::Error;

use super::attention::score_scale;
use super::encoding::frequency;
use super::rng::SplitMix64;

/// Why a rotary computation cannot be done.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum RopeError {
    #[error("the rotary dimension d must be even and at least 2 (got {0})")]
    InvalidDimension(usize),
    #[error("the frequency base must be a finite number greater than 1 (got {0})")]
    InvalidBase(f64),
    #[error("the dimension d must be at least 1")]
    ZeroDimension,
    #[error("the query has {query} dimensions but the key has {key}")]
    LengthMismatch { query: usize, key: usize },
    #[error("{what} = {requested} is larger than the limit {limit}")]
    TooLarge {
        what: &'static str,
        requested: usize,
        limit: usize,
    },
}

/// Largest dimension accepted by the functions that build their own vectors.
pub const MAX_DIMENSION: usize = 1 << 14;
/// Largest number of random pairs [`random_pair_decay`] and [`mean_random_score`] draw.
pub const MAX_SAMPLES: usize = 1 << 20;

/// Where the two coordinates of each rotated pair live.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Pair j is (2j, 2j + 1).
    Interleaved,
    /// Pair j is (j, j + d/2).
    HalfSplit,
}

impl Layout {
    /// The two coordinates of pair `j` in dimension `d`.
    pub fn pair(self, j: usize, d: usize) -> (usize, usize) {
        match self {
            Layout::Interleaved => (2 * j, 2 * j + 1),
            Layout::HalfSplit => (j, j + d / 2),
        }
    }
}

/// Whether the rounding happens in float64 or float32.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Precision {
    F64,
    /// θ_j rounded to f32 (the stored `inv_freq`), the angle position·θ_j, its sine and cosine,
    /// the rotation and the dot product all in f32, as a float32 model computes them.
    F32,
}

fn check_dimension(d: usize, base: f64) -> Result<(), RopeError> {
    if d < 2 || d % 2 != 0 {
        return Err(RopeError::InvalidDimension(d));
    }
    if !base.is_finite() || base <= 1.0 {
        return Err(RopeError::InvalidBase(base));
    }
    Ok(())
}

/// `x` rotated by position `position`: pair j by the angle position·θ_j, in f64.
pub fn rotate(x: &[f64], position: f64, base: f64, layout: Layout) -> Result<Vec<f64>, RopeError> {
    let d = x.len();
    check_dimension(d, base)?;
    let mut out = x.to_vec();
    for j in 0..d / 2 {
        let (a, b) = layout.pair(j, d);
        let (sin, cos) = libm::sincos(position * frequency(j, d, base));
        out[a] = x[a] * cos - x[b] * sin;
        out[b] = x[a] * sin + x[b] * cos;
    }
    Ok(out)
}

/// [`rotate`] in f32 arithmetic (see [`Precision::F32`]).
pub fn rotate_f32(
    x: &[f32],
    position: f32,
    base: f64,
    layout: Layout,
) -> Result<Vec<f32>, RopeError> {
    let d = x.len();
    check_dimension(d, base)?;
    let mut out = x.to_vec();
    for j in 0..d / 2 {
        let (a, b) = layout.pair(j, d);
        let theta = frequency(j, d, base) as f32;
        let (sin, cos) = libm::sincosf(position * theta);
        out[a] = x[a] * cos - x[b] * sin;
        out[b] = x[a] * sin + x[b] * cos;
    }
    Ok(out)
}

/// The rotation frequencies θ_t = base^(−2t/d), t = 0..⌊d/2⌋, computed in f64 and rounded once to
/// f32: the stored `inv_freq` of a float32 model. For odd d the exponent keeps the full d and the
/// last dimension has no pair (it is not rotated).
///
/// This one table feeds both [`rotate_rows_f32`] and the GPU kernel `gpu::rope_scores`, which
/// uploads it, so that both twins start from the same f32 θ_t bits. In rope_rotate.wgsl too the angle is
/// f32(m)·θ_t, one f32 multiply, and pair t is (2t, 2t + 1) (pe-lab-gpu's
/// tests/gpu_positional_scores.rs compares the two).
pub fn theta_table_f32(d: usize, base: f64) -> Vec<f32> {
    (0..d / 2).map(|t| frequency(t, d, base) as f32).collect()
}

/// Every row of `x` (n × d) rotated, in the interleaved layout, by its row index m: pair
/// (2t, 2t + 1) by the angle f32(m)·θ_t with θ_t from [`theta_table_f32`], all in f32 arithmetic
/// (as [`rotate_f32`] does for one vector). For odd d the last column is copied unrotated.
///
/// Precision: the angle is one f32 multiply, so it is off from m·θ_t by up to 2⁻²⁴·m·θ_t rad (the
/// rounding of the product) plus the same again from θ_t's own rounding to f32: an absolute error
/// that grows with the position, about 2.4e-4 rad at m = 4095 for θ_0 = 1. That is the float32
/// model being taught, not noise to remove. sin and cos of the f32 angle are Rust's (within an ulp).
/// Row indices are exact in f32 below 2²⁴.
///
/// The GPU twin is the `rotate` entry point of rope_rotate.wgsl (layout, angle, rotation formula;
/// pe-lab-gpu's tests/gpu_positional_scores.rs compares them).
/// Never panics; an invalid base gives NaN entries (see [`scores_f32`] for the checked use).
pub fn rotate_rows_f32(x: ArrayView2<f32>, base: f64) -> Array2<f32> {
    let thetas = theta_table_f32(x.ncols(), base);
    let mut out = x.to_owned();
    for (m, mut row) in out.rows_mut().into_iter().enumerate() {
        let position = m as f32;
        for (t, &theta) in thetas.iter().enumerate() {
            let (sin, cos) = libm::sincosf(position * theta);
            let (a, b) = (row[2 * t], row[2 * t + 1]);
            row[2 * t] = a * cos - b * sin;
            row[2 * t + 1] = a * sin + b * cos;
        }
    }
    out
}

/// RoPE attention scores S = (R Q)·(R K)ᵀ/√d (n_q × n_k): S[i, j] = (R_i q_i)·(R_j k_j)/√d, rows
/// rotated by [`rotate_rows_f32`] (positions = row indices), the product by ndarray's `dot`
/// (matrixmultiply's SGEMM), then multiplied by the f32 scale `(1/√d) as f32`
/// ([`score_scale`]). CPU twin of `gpu::rope_scores`.
///
/// Errors: Q and K with different column counts, d = 0, or a base that is not a finite number
/// greater than 1. Odd d is accepted (the last column is not rotated); empty Q or K gives an empty
/// matrix.
pub fn scores_f32(
    q: ArrayView2<f32>,
    k: ArrayView2<f32>,
    base: f64,
) -> Result<Array2<f32>, RopeError> {
    let d = q.ncols();
    if k.ncols() != d {
        return Err(RopeError::LengthMismatch {
            query: d,
            key: k.ncols(),
        });
    }
    if d == 0 {
        return Err(RopeError::ZeroDimension);
    }
    if !base.is_finite() || base <= 1.0 {
        return Err(RopeError::InvalidBase(base));
    }
    let rotated_q = rotate_rows_f32(q, base);
    let rotated_k = rotate_rows_f32(k, base);
    let scale = score_scale(d);
    let mut scores = rotated_q.dot(&rotated_k.t());
    scores.mapv_inplace(|s| s * scale);
    Ok(scores)
}

fn check_pair(q: &[f64], k: &[f64]) -> Result<(), RopeError> {
    if q.len() != k.len() {
        return Err(RopeError::LengthMismatch {
            query: q.len(),
            key: k.len(),
        });
    }
    Ok(())
}

/// The score s(m, n) = ⟨R_m q, R_n k⟩ (no 1/√d scale), computed at the given precision.
pub fn score(
    q: &[f64],
    k: &[f64],
    m: f64,
    n: f64,
    base: f64,
    layout: Layout,
    precision: Precision,
) -> Result<f64, RopeError> {
    check_pair(q, k)?;
    match precision {
        Precision::F64 => {
            let (rq, rk) = (rotate(q, m, base, layout)?, rotate(k, n, base, layout)?);
            Ok(rq.iter().zip(&rk).map(|(a, b)| a * b).sum())
        }
        Precision::F32 => {
            let q32: Vec<f32> = q.iter().map(|&v| v as f32).collect();
            let k32: Vec<f32> = k.iter().map(|&v| v as f32).collect();
            let rq = rotate_f32(&q32, m as f32, base, layout)?;
            let rk = rotate_f32(&k32, n as f32, base, layout)?;
            Ok(f64::from(
                rq.iter().zip(&rk).map(|(a, b)| a * b).sum::<f32>(),
            ))
        }
    }
}

fn norm(x: &[f64]) -> f64 {
    x.iter().map(|v| v * v).sum::<f64>().sqrt()
}

/// The shift residual |s(m, n) − s(m + Δ, n + Δ)| / (‖q‖·‖k‖) for every Δ in `deltas`, sorted
/// ascending without repeats: how far the computed score is from depending on n − m only. In
/// exact arithmetic it is 0. In f64 it stays at rounding level (below 1e-12 for positions
/// up to 10⁵); in f32 the angle (m + Δ)·θ_j is rounded to a relative 2⁻²⁴, an absolute error
/// that grows with Δ, so the residual grows with Δ on the whole (d = 64, seeded normal q and k:
/// about 4e-8 at Δ = 10, 1e-6 at 10³, 1e-5 at 10⁴ and 10⁵). For one pair q, k the sequence is
/// noisy and need not be monotone: the roundings of the two angles (m + Δ)·θ_j and (n + Δ)·θ_j
/// partly cancel, by chance. Zero vectors give 0.
#[allow(clippy::too_many_arguments)]
pub fn shift_residuals(
    q: &[f64],
    k: &[f64],
    m: u64,
    n: u64,
    deltas: &[u64],
    base: f64,
    layout: Layout,
    precision: Precision,
) -> Result<Vec<(u64, f64)>, RopeError> {
    check_pair(q, k)?;
    // A handful of offsets, kept sorted and distinct as they come (no sort routine in the page
    // for a list this short).
    let mut sorted: Vec<u64> = Vec::with_capacity(deltas.len());
    for &delta in deltas {
        if let Err(at) = sorted.binary_search(&delta) {
            sorted.insert(at, delta);
        }
    }
    let scale = norm(q) * norm(k);
    let at = |a: u64, b: u64| score(q, k, a as f64, b as f64, base, layout, precision);
    let reference = at(m, n)?;
    sorted
        .into_iter()
        .map(|delta| {
            let shifted = at(m.saturating_add(delta), n.saturating_add(delta))?;
            let residual = if scale > 0.0 {
                (reference - shifted).abs() / scale
            } else {
                0.0
            };
            Ok((delta, residual))
        })
        .collect()
}

/// The permutation that turns an interleaved vector into its half-split twin: entry h is the
/// interleaved index that goes to position h (h = j ← 2j, h = j + d/2 ← 2j + 1). Applying it to
/// q and k with [`permute`] and rotating in the half-split layout gives the same scores as the
/// interleaved layout on the original vectors (the same pairs, rotated by the same angles, summed
/// in another order).
pub fn interleaved_to_half_split(d: usize) -> Vec<usize> {
    let half = d / 2;
    (0..2 * half)
        .map(|h| if h < half { 2 * h } else { 2 * (h - half) + 1 })
        .collect()
}

/// `x` reordered by `permutation`: out[h] = x[permutation[h]]. Indices outside `x` give 0.
pub fn permute(x: &[f64], permutation: &[usize]) -> Vec<f64> {
    permutation
        .iter()
        .map(|&i| x.get(i).copied().unwrap_or(0.0))
        .collect()
}

/// RoFormer's long-term-decay bound at relative distance r (the quantity of the paper's Fig. 2):
/// (1/(d/2))·Σ_{j=1}^{d/2} |S_j| with S_j = Σ_{k=0}^{j−1} e^{i·r·θ_k}.
///
/// By Abel summation |⟨R_m q, R_n k⟩| ≤ max_j |h_{j+1} − h_j| · Σ_j |S_j| where h_j are the
/// complex products of the query and key pairs; this is the second factor, averaged. It is an
/// upper bound that shrinks (with oscillations) as r grows, not the expected score: for random
/// q and k the score has mean 0 at every r (see [`mean_random_score`]). At r = 0 every S_j = j and
/// the value is (d/2 + 1)/2.
pub fn decay_bound(d: usize, base: f64, r: f64) -> Result<f64, RopeError> {
    check_dimension(d, base)?;
    if d > MAX_DIMENSION {
        return Err(RopeError::TooLarge {
            what: "d",
            requested: d,
            limit: MAX_DIMENSION,
        });
    }
    let (mut re, mut im, mut total) = (0.0f64, 0.0f64, 0.0f64);
    for k in 0..d / 2 {
        let (sin, cos) = libm::sincos(r * frequency(k, d, base));
        re += cos;
        im += sin;
        total += re.hypot(im);
    }
    Ok(total / (d / 2) as f64)
}

/// [`decay_bound`] at every distance in `distances`, as (r, bound) points.
pub fn decay_bound_curve(
    d: usize,
    base: f64,
    distances: &[f64],
) -> Result<Vec<(f64, f64)>, RopeError> {
    distances
        .iter()
        .map(|&r| decay_bound(d, base, r).map(|b| (r, b)))
        .collect()
}

/// The mean of ⟨R_0 q, R_r k⟩ over `samples` seeded random pairs q, k with independent approximate
/// standard normal entries ([`SplitMix64::approx_standard_normal`]): its expectation is 0 at every
/// distance (E[q_a k_b] = 0), so the average is of order √(d/samples), whereas the decay bound is
/// of order d. `samples = 0` gives 0.
pub fn mean_random_score(
    d: usize,
    base: f64,
    r: f64,
    samples: usize,
    seed: u64,
) -> Result<f64, RopeError> {
    // With no pairs every mean of random_pair_decay is 0.
    let decay = random_pair_decay(d, base, &[r], samples, seed)?;
    Ok(decay.points.first().map_or(0.0, |p| p.mean_score))
}

/// RoFormer's bound and the actual scores of random pairs at one relative distance r.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DecayPoint {
    pub r: f64,
    /// Mean over the pairs of the bound on |⟨R_0 q, R_r k⟩| itself: max_j |h_(j+1) − h_j| ·
    /// Σ_j |S_j(r)|, with h_j = (q_2j + i·q_2j+1)·conj(k_2j + i·k_2j+1) and h_(d/2) = 0.
    pub bound: f64,
    /// Mean over the pairs of |⟨R_0 q, R_r k⟩|.
    pub mean_abs_score: f64,
    /// Mean over the pairs of ⟨R_0 q, R_r k⟩ (expected 0 at every r).
    pub mean_score: f64,
}

/// The largest |h_(j+1) − h_j| of one pair q, k (interleaved layout, h_(d/2) = 0): the factor
/// that turns RoFormer's Σ_j |S_j| into a bound on this pair's score.
pub fn max_pair_product_step(q: &[f64], k: &[f64]) -> f64 {
    let half = q.len().min(k.len()) / 2;
    let h = |j: usize| -> (f64, f64) {
        if j >= half {
            return (0.0, 0.0);
        }
        let (a, b) = (q[2 * j], q[2 * j + 1]);
        let (c, e) = (k[2 * j], k[2 * j + 1]);
        // (a + ib)(c − ie)
        (a * c + b * e, b * c - a * e)
    };
    (0..half)
        .map(|j| {
            let (x0, y0) = h(j);
            let (x1, y1) = h(j + 1);
            (x1 - x0).hypot(y1 - y0)
        })
        .fold(0.0, f64::max)
}

/// [`random_pair_decay`]'s result.
#[derive(Debug, Clone, PartialEq)]
pub struct PairDecay {
    /// The mean over the pairs of max_j |h_(j+1) − h_j|: the mean bound at any distance r is
    /// this times Σ_j |S_j(r)| = (d/2)·[`decay_bound`](r).
    pub mean_step: f64,
    pub points: Vec<DecayPoint>,
}

/// For `samples` seeded random pairs q, k (independent approximate N(0, 1) entries, the same
/// pairs at every distance): the mean bound on |score| and the mean |score| and score at each
/// distance in `distances` (float64, interleaved layout, scores not divided by √d).
pub fn random_pair_decay(
    d: usize,
    base: f64,
    distances: &[f64],
    samples: usize,
    seed: u64,
) -> Result<PairDecay, RopeError> {
    check_dimension(d, base)?;
    for (what, requested, limit) in [("d", d, MAX_DIMENSION), ("samples", samples, MAX_SAMPLES)] {
        if requested > limit {
            return Err(RopeError::TooLarge {
                what,
                requested,
                limit,
            });
        }
    }
    let mut stream = SplitMix64::new(seed);
    let pairs: Vec<(Vec<f64>, Vec<f64>)> = (0..samples)
        .map(|_| {
            let q: Vec<f64> = (0..d).map(|_| stream.approx_standard_normal()).collect();
            let k: Vec<f64> = (0..d).map(|_| stream.approx_standard_normal()).collect();
            (q, k)
        })
        .collect();
    let steps: Vec<f64> = pairs
        .iter()
        .map(|(q, k)| max_pair_product_step(q, k))
        .collect();
    let count = samples.max(1) as f64;
    let points = distances
        .iter()
        .map(|&r| {
            let sum_s = decay_bound(d, base, r)? * (d / 2) as f64;
            let (mut bound, mut abs, mut signed) = (0.0, 0.0, 0.0);
            for ((q, k), step) in pairs.iter().zip(&steps) {
                let s = score(q, k, 0.0, r, base, Layout::Interleaved, Precision::F64)?;
                bound += step * sum_s;
                abs += s.abs();
                signed += s;
            }
            Ok(DecayPoint {
                r,
                bound: bound / count,
                mean_abs_score: abs / count,
                mean_score: signed / count,
            })
        })
        .collect::<Result<Vec<_>, RopeError>>()?;
    Ok(PairDecay {
        mean_step: steps.iter().sum::<f64>() / count,
        points,
    })
}

#[cfg(test)]
mod tests;
