//! Panel "scale and add vs concatenate" (the seeds' forum: "why multiply the embedding by √d?",
//! "why add the position instead of appending it?").
//!
//! Scale: every entry of P lies in [−1, 1] and, for even d, each row of P has mean square exactly ½
//! (sin² + cos² = 1 per pair), RMS √½ ≈ 0.7071. Whether × √d balances the embeddings with P depends
//! on how they were initialised. This page's embeddings have entries of variance 1/d (‖x‖² ≈ 1),
//! like the original Transformer's code (tensor2tensor draws its shared embedding matrix from
//! N(0, 1/d) and multiplies by √d): without the factor their RMS 1/√d is drowned by P's as d grows
//! (0.18 vs 0.71 at d = 32); with it both are of order 1. Embeddings drawn N(0, 1) (PyTorch's
//! `nn.Embedding`, Flux's `Embedding` by default) already have RMS 1, and × √d makes them √d, √(2d)
//! times P's RMS (8 at d = 32): there the factor unbalances them.
//!
//! Add vs concatenate: (x_i + p_i)·(x_j + p_j) = x_i·x_j + x_i·p_j + p_i·x_j + p_i·p_j, whereas
//! [x_i; p_i]·[x_j; p_j] = x_i·x_j + p_i·p_j: concatenation removes the two cross terms (content
//! meets position only through later weights) at the price of twice the width. In high dimension a
//! random x and a row of P are nearly orthogonal (cosine of order 1/√d), so the cross terms are
//! small *relative to* ‖x‖‖p‖ — the forum's "approximate orthogonality"; see
//! [`DotDecomposition::cross_terms_relative`]. They need not be small next to x·x or p·p.

use ndarray::{concatenate, Array2, ArrayView1, ArrayView2, Axis};
use thiserror::Error;

use super::encoding::sinusoidal;
use super::tokens::embed_tokens;
use super::{validate, MathError};

/// Why a scaling computation cannot be done.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum ScalingError {
    #[error(transparent)]
    Math(#[from] MathError),
    #[error(
        "X is {x_rows} × {x_cols} but P is {p_rows} × {p_cols}: they must have the same shape"
    )]
    ShapeMismatch {
        x_rows: usize,
        x_cols: usize,
        p_rows: usize,
        p_cols: usize,
    },
    #[error("position {position} does not exist: there are {rows} positions")]
    PositionOutOfRange { position: usize, rows: usize },
    #[error("{requested} widths were asked for; at most {limit} are plotted")]
    TooManyPoints { requested: usize, limit: usize },
}

/// The most widths d a magnitude curve may have.
pub const MAX_CURVE_POINTS: usize = 64;

/// Root mean square of the entries (in f64); NaN for no entries.
pub fn rms<'a>(values: impl IntoIterator<Item = &'a f32>) -> f64 {
    let (sum, count) = values.into_iter().fold((0.0f64, 0usize), |(s, c), &v| {
        (s + f64::from(v).powi(2), c + 1)
    });
    (sum / count as f64).sqrt()
}

/// Mean absolute value of the entries (in f64); NaN for no entries.
pub fn mean_abs<'a>(values: impl IntoIterator<Item = &'a f32>) -> f64 {
    let (sum, count) = values.into_iter().fold((0.0f64, 0usize), |(s, c), &v| {
        (s + f64::from(v).abs(), c + 1)
    });
    sum / count as f64
}

/// Entry magnitudes of the embeddings and of P for one sentence at one width d.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Magnitudes {
    pub d: usize,
    /// RMS of X (entries ≈ N(0, 1/d)): ≈ 1/√d.
    pub embedding_rms: f64,
    /// RMS of X·√d: ≈ 1.
    pub scaled_embedding_rms: f64,
    /// RMS of the same words' embeddings drawn N(0, 1) instead (PyTorch's and Flux's default):
    /// ≈ 1. They are exactly the entries of X·√d (each is the same unit normal, not divided by √d).
    pub unit_normal_embedding_rms: f64,
    /// RMS of those N(0, 1) embeddings × √d: `unit_normal_embedding_rms`·√d ≈ √d.
    pub unit_normal_scaled_rms: f64,
    /// RMS of P's rows 0 … n−1: exactly 1/√2 (up to f32 rounding) for even d.
    pub encoding_rms: f64,
    /// Mean |x|: ≈ √(2/π)/√d for normal entries.
    pub embedding_mean_abs: f64,
    pub scaled_embedding_mean_abs: f64,
    pub encoding_mean_abs: f64,
    /// embedding_rms / encoding_rms: how much of X + P is content rather than position (≈ √(2/d)).
    pub unscaled_ratio: f64,
    /// scaled_embedding_rms / encoding_rms (≈ √2 for even d).
    pub scaled_ratio: f64,
    /// unit_normal_scaled_rms / encoding_rms (≈ √(2d) for even d).
    pub unit_normal_scaled_ratio: f64,
}

/// See [`Magnitudes`]; P has one row per token. Errors: no tokens, and the checks of
/// [`embed_tokens`] and of the encoding (d, base, at most `MAX_TOKENS` tokens).
pub fn magnitudes<S: AsRef<str>>(
    tokens: &[S],
    d: usize,
    base: f64,
) -> Result<Magnitudes, ScalingError> {
    validate(tokens.len(), d, base)?;
    let x = embed_tokens(tokens, d, false)?;
    let scaled = embed_tokens(tokens, d, true)?;
    let p = sinusoidal(tokens.len(), d, base);
    let (embedding_rms, scaled_embedding_rms, encoding_rms) = (rms(&x), rms(&scaled), rms(&p));
    // The rows of `scaled` are the unit normals themselves (see `embed_tokens`), so they are the
    // N(0, 1) embeddings; scaling every entry by √d scales the RMS by √d (computed in f64).
    let unit_normal_embedding_rms = scaled_embedding_rms;
    let unit_normal_scaled_rms = unit_normal_embedding_rms * (d as f64).sqrt();
    Ok(Magnitudes {
        d,
        embedding_rms,
        scaled_embedding_rms,
        unit_normal_embedding_rms,
        unit_normal_scaled_rms,
        encoding_rms,
        embedding_mean_abs: mean_abs(&x),
        scaled_embedding_mean_abs: mean_abs(&scaled),
        encoding_mean_abs: mean_abs(&p),
        unscaled_ratio: embedding_rms / encoding_rms,
        scaled_ratio: scaled_embedding_rms / encoding_rms,
        unit_normal_scaled_ratio: unit_normal_scaled_rms / encoding_rms,
    })
}

/// [`magnitudes`] at every width in `ds` (a curve against d). Errors: those of [`magnitudes`] at
/// any width, and more than [`MAX_CURVE_POINTS`] widths.
pub fn magnitude_curve<S: AsRef<str>>(
    tokens: &[S],
    ds: &[usize],
    base: f64,
) -> Result<Vec<Magnitudes>, ScalingError> {
    if ds.len() > MAX_CURVE_POINTS {
        return Err(ScalingError::TooManyPoints {
            requested: ds.len(),
            limit: MAX_CURVE_POINTS,
        });
    }
    ds.iter().map(|&d| magnitudes(tokens, d, base)).collect()
}

/// The four terms of (x_i + p_i)·(x_j + p_j) and the two ways of combining content and position.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DotDecomposition {
    /// x_i·x_j: content meets content.
    pub xx: f64,
    /// x_i·p_j: content of i meets the position of j.
    pub xp: f64,
    /// p_i·x_j.
    pub px: f64,
    /// p_i·p_j: position meets position (depends on j − i only, for even d).
    pub pp: f64,
    /// (x_i + p_i)·(x_j + p_j), with x + p formed in f32 like the attention input: equals
    /// xx + xp + px + pp up to that f32 rounding.
    pub added: f64,
    /// [x_i; p_i]·[x_j; p_j] of the concatenated 2d-wide rows: equals xx + pp, no cross terms.
    pub concatenated: f64,
    /// ‖x_i‖‖p_j‖ + ‖p_i‖‖x_j‖: the largest |xp + px| can be (Cauchy–Schwarz).
    pub cross_bound: f64,
}

impl DotDecomposition {
    /// xp + px: what adding has and concatenating lacks.
    pub fn cross_terms(&self) -> f64 {
        self.xp + self.px
    }

    /// |xp + px| / (‖x_i‖‖p_j‖ + ‖p_i‖‖x_j‖), in [0, 1]: how small the cross terms are relative to
    /// the norms (0 when content and position are orthogonal, 1 when aligned). Both parts are
    /// linear in x, so it does not depend on the √d factor. 0 when a norm is 0.
    pub fn cross_terms_relative(&self) -> f64 {
        if self.cross_bound > 0.0 {
            self.cross_terms().abs() / self.cross_bound
        } else {
            0.0
        }
    }
}

/// See [`DotDecomposition`]; `x` and `p` are n × d (embeddings and encoding, same shape).
/// Errors: different shapes, i or j ≥ n.
pub fn dot_decomposition(
    x: ArrayView2<f32>,
    p: ArrayView2<f32>,
    i: usize,
    j: usize,
) -> Result<DotDecomposition, ScalingError> {
    check_same_shape(x, p)?;
    for position in [i, j] {
        if position >= x.nrows() {
            return Err(ScalingError::PositionOutOfRange {
                position,
                rows: x.nrows(),
            });
        }
    }
    let (x_i, x_j, p_i, p_j) = (x.row(i), x.row(j), p.row(i), p.row(j));
    let sum_i: Vec<f32> = x_i.iter().zip(p_i).map(|(a, b)| a + b).collect();
    let sum_j: Vec<f32> = x_j.iter().zip(p_j).map(|(a, b)| a + b).collect();
    let wide_i = concatenate(Axis(0), &[x_i, p_i]).map_err(|_| shape_error(x, p))?;
    let wide_j = concatenate(Axis(0), &[x_j, p_j]).map_err(|_| shape_error(x, p))?;
    Ok(DotDecomposition {
        xx: dot(x_i, x_j),
        xp: dot(x_i, p_j),
        px: dot(p_i, x_j),
        pp: dot(p_i, p_j),
        added: dot(ArrayView1::from(&sum_i), ArrayView1::from(&sum_j)),
        concatenated: dot(wide_i.view(), wide_j.view()),
        cross_bound: norm(x_i) * norm(p_j) + norm(p_i) * norm(x_j),
    })
}

/// [`dot_decomposition`] for the tokens of a sentence: X (·√d when `scale_by_sqrt_d`) and P of
/// one row per token. Errors: those of [`embed_tokens`], the encoding checks, positions ≥ n.
pub fn dot_decomposition_for_tokens<S: AsRef<str>>(
    tokens: &[S],
    d: usize,
    base: f64,
    scale_by_sqrt_d: bool,
    i: usize,
    j: usize,
) -> Result<DotDecomposition, ScalingError> {
    validate(tokens.len().max(1), d, base)?;
    let x = embed_tokens(tokens, d, scale_by_sqrt_d)?;
    let p = sinusoidal(tokens.len(), d, base);
    dot_decomposition(x.view(), p.view(), i, j)
}

/// [X | P]: the concatenated input, n × 2d — the alternative to X + P that keeps content and
/// position apart and doubles the width. Errors: different shapes.
pub fn concatenate_columns(
    x: ArrayView2<f32>,
    p: ArrayView2<f32>,
) -> Result<Array2<f32>, ScalingError> {
    check_same_shape(x, p)?;
    concatenate(Axis(1), &[x.view(), p.view()]).map_err(|_| shape_error(x, p))
}

fn check_same_shape(x: ArrayView2<f32>, p: ArrayView2<f32>) -> Result<(), ScalingError> {
    if x.dim() != p.dim() {
        return Err(shape_error(x, p));
    }
    Ok(())
}

fn shape_error(x: ArrayView2<f32>, p: ArrayView2<f32>) -> ScalingError {
    ScalingError::ShapeMismatch {
        x_rows: x.nrows(),
        x_cols: x.ncols(),
        p_rows: p.nrows(),
        p_cols: p.ncols(),
    }
}

fn norm(a: ArrayView1<f32>) -> f64 {
    dot(a, a).sqrt()
}

fn dot(a: ArrayView1<f32>, b: ArrayView1<f32>) -> f64 {
    a.iter()
        .zip(b)
        .map(|(&u, &v)| f64::from(u) * f64::from(v))
        .sum()
}
