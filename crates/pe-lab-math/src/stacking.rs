//! Stacking self-attention layers (the chapter's exercise 1): what happens to the token
//! representations, and to the positional information in them, when attention is applied again
//! and again. Dong, Cordonnier and Loukas (2021, "Attention is not all you need: pure attention
//! loses rank doubly exponentially with depth") show that without skip connections the rows of
//! X_L converge to one shared row: the residual ‖X_L − 1μ_Lᵀ‖_F/‖X_L‖_F collapses to 0.
//!
//! Everything is f64 and seeded: the token embeddings E (n × d, approximate N(0, 1) entries), and
//! for every layer fresh W_q, W_k, W_v (d × d, approximate N(0, 1/d) entries), drawn in that order
//! from one [`SplitMix64`] stream. P is the sinusoidal encoding of the chapter (base 10000).

use ndarray::{Array1, Array2, ArrayView2, Axis};
use thiserror::Error;

use super::encoding::sinusoidal;
use super::nope::softmax_rows;
use super::rng::SplitMix64;

/// Why a stack cannot be run.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum StackingError {
    #[error("{what} must be at least 1")]
    Empty { what: &'static str },
    #[error("{what} = {requested} is larger than the limit {limit}")]
    TooLarge {
        what: &'static str,
        requested: usize,
        limit: usize,
    },
}

/// Deepest stack computed; deeper requests are clamped to it.
pub const MAX_LAYERS: usize = 48;
/// Largest number of tokens.
pub const MAX_POSITIONS: usize = 512;
/// Largest model dimension.
pub const MAX_DIMENSION: usize = 512;
/// The LayerNorm ε (PyTorch's default), added to the variance.
pub const LAYER_NORM_EPS: f64 = 1e-5;
/// The probe's ridge term, relative to the mean squared row norm ‖X_L‖²_F/n (see [`probe_r2`]).
pub const PROBE_RIDGE: f64 = 1e-6;

/// Where the positional encoding P enters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PositionInjection {
    /// X_0 = E: no positions at all.
    None,
    /// X_0 = E + P, the chapter's setting.
    Once,
    /// X_0 = E + P and P is added again to every layer's output: X_{L+1} = block(X_L) + P.
    EveryLayer,
}

/// One experiment.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StackOptions {
    pub n: usize,
    pub d: usize,
    /// Clamped to [`MAX_LAYERS`].
    pub layers: usize,
    /// Residual connection: the block output is X + attention(X).
    pub skip: bool,
    /// LayerNorm of every row (no affine parameters) after the attention and the skip
    /// (post-LN, as in the original Transformer and d2l's `AddNorm`).
    pub layer_norm: bool,
    /// Query i attends to keys 0..=i only.
    pub causal: bool,
    pub positions: PositionInjection,
    pub seed: u64,
}

impl Default for StackOptions {
    /// n = 10, d = 32, 8 layers of pure attention (no skip, no LayerNorm, no mask), P added once,
    /// seed 1.
    fn default() -> Self {
        StackOptions {
            n: 10,
            d: 32,
            layers: 8,
            skip: false,
            layer_norm: false,
            causal: false,
            positions: PositionInjection::Once,
            seed: 1,
        }
    }
}

/// Per depth L = 0..=layers: the rank residual and the position probe's R² of X_L.
#[derive(Debug, Clone, PartialEq)]
pub struct StackReport {
    pub rank_residuals: Vec<f64>,
    pub probe_r2: Vec<f64>,
}

/// ‖X − 1μᵀ‖_F / ‖X‖_F with μ the column mean: 0 when every row is the same (rank-1 collapse
/// onto 1μᵀ), up to 1 when the mean row is 0. A zero or empty matrix gives 0.
pub fn rank_residual(x: ArrayView2<f64>) -> f64 {
    let total: f64 = x.iter().map(|v| v * v).sum();
    if total == 0.0 || x.nrows() == 0 {
        return 0.0;
    }
    let mean = x
        .mean_axis(Axis(0))
        .unwrap_or_else(|| Array1::zeros(x.ncols()));
    let centred: f64 = x
        .rows()
        .into_iter()
        .map(|row| {
            row.iter()
                .zip(&mean)
                .map(|(v, m)| (v - m).powi(2))
                .sum::<f64>()
        })
        .sum();
    (centred / total).sqrt()
}

/// R² of the least-squares linear probe (with intercept) that predicts the position i = 0..n−1
/// from row i of `x`.
///
/// The intercept is handled by centring the rows and the targets. The fit is ridge regression
/// in its kernel form (an n × n system, G = X_c X_cᵀ, ŷ = G (G + λI)⁻¹ y_c), with
/// λ = [`PROBE_RIDGE`]·‖X‖²_F/n: the ridge keeps the system positive definite, and being relative
/// to the size of the uncentred rows it means that rows which have collapsed onto their mean
/// (centred energy far below λ) no longer fit the positions. Note that with n ≤ d + 1 and
/// independent centred rows, an unregularised probe fits any targets exactly (R² = 1); R² says
/// more when n > d + 1. Fewer than two rows, or rows all equal, give 0.
pub fn probe_r2(x: ArrayView2<f64>) -> f64 {
    let n = x.nrows();
    if n < 2 {
        return 0.0;
    }
    let mean = x
        .mean_axis(Axis(0))
        .unwrap_or_else(|| Array1::zeros(x.ncols()));
    let centred = &x - &mean;
    let target_mean = (n - 1) as f64 / 2.0;
    let y: Vec<f64> = (0..n).map(|i| i as f64 - target_mean).collect();
    let total: f64 = x.iter().map(|v| v * v).sum();
    let lambda = PROBE_RIDGE * total / n as f64;
    if lambda <= 0.0 || !lambda.is_finite() {
        return 0.0;
    }
    let gram = centred.dot(&centred.t());
    let mut system = gram.clone();
    for i in 0..n {
        system[[i, i]] += lambda;
    }
    let Some(alpha) = cholesky_solve(system, &y) else {
        return 0.0;
    };
    let fitted = gram.dot(&Array1::from(alpha));
    let residual: f64 = fitted.iter().zip(&y).map(|(f, t)| (t - f).powi(2)).sum();
    let spread: f64 = y.iter().map(|t| t * t).sum();
    1.0 - residual / spread
}

/// Solves A·x = b for a symmetric positive definite A by Cholesky; None if A is not numerically
/// positive definite.
fn cholesky_solve(mut a: Array2<f64>, b: &[f64]) -> Option<Vec<f64>> {
    let n = b.len();
    for j in 0..n {
        let mut diag = a[[j, j]];
        for k in 0..j {
            diag -= a[[j, k]] * a[[j, k]];
        }
        if diag <= 0.0 || !diag.is_finite() {
            return None;
        }
        let diag = diag.sqrt();
        a[[j, j]] = diag;
        for i in j + 1..n {
            let mut v = a[[i, j]];
            for k in 0..j {
                v -= a[[i, k]] * a[[j, k]];
            }
            a[[i, j]] = v / diag;
        }
    }
    // L·z = b, then Lᵀ·x = z.
    let mut z = b.to_vec();
    for i in 0..n {
        for k in 0..i {
            z[i] -= a[[i, k]] * z[k];
        }
        z[i] /= a[[i, i]];
    }
    for i in (0..n).rev() {
        for k in i + 1..n {
            z[i] -= a[[k, i]] * z[k];
        }
        z[i] /= a[[i, i]];
    }
    Some(z)
}

fn normal_matrix(rows: usize, cols: usize, scale: f64, stream: &mut SplitMix64) -> Array2<f64> {
    Array2::from_shape_simple_fn((rows, cols), || stream.approx_standard_normal() * scale)
}

/// LayerNorm of every row, without affine parameters: (x − mean)/√(var + ε), var the biased
/// variance of the row.
pub fn layer_norm_rows(x: &mut Array2<f64>) {
    for mut row in x.rows_mut() {
        let d = row.len().max(1) as f64;
        let mean = row.sum() / d;
        let var = row.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / d;
        let inv = 1.0 / (var + LAYER_NORM_EPS).sqrt();
        row.mapv_inplace(|v| (v - mean) * inv);
    }
}

/// One single-head attention block: softmax(X W_q (X W_k)ᵀ/√d) X W_v, then the skip and the
/// LayerNorm if asked for.
fn block(x: &Array2<f64>, stream: &mut SplitMix64, options: &StackOptions) -> Array2<f64> {
    let d = x.ncols();
    let scale = 1.0 / (d as f64).sqrt();
    let wq = normal_matrix(d, d, scale, stream);
    let wk = normal_matrix(d, d, scale, stream);
    let wv = normal_matrix(d, d, scale, stream);
    let (q, k, v) = (x.dot(&wq), x.dot(&wk), x.dot(&wv));
    let scores = q.dot(&k.t()) * scale;
    let weights = softmax_rows(scores.view(), options.causal);
    let mut out = weights.dot(&v);
    if options.skip {
        out += x;
    }
    if options.layer_norm {
        layer_norm_rows(&mut out);
    }
    out
}

/// Runs the stack and measures X_0 … X_layers.
pub fn run(options: &StackOptions) -> Result<StackReport, StackingError> {
    let (n, d) = (options.n, options.d);
    for (what, value, limit) in [("n", n, MAX_POSITIONS), ("d", d, MAX_DIMENSION)] {
        if value == 0 {
            return Err(StackingError::Empty { what });
        }
        if value > limit {
            return Err(StackingError::TooLarge {
                what,
                requested: value,
                limit,
            });
        }
    }
    let layers = options.layers.min(MAX_LAYERS);
    let mut stream = SplitMix64::new(options.seed);
    let p = sinusoidal(n, d, 10_000.0).mapv(f64::from);
    let mut x = normal_matrix(n, d, 1.0, &mut stream);
    if options.positions != PositionInjection::None {
        x += &p;
    }
    let mut report = StackReport {
        rank_residuals: vec![rank_residual(x.view())],
        probe_r2: vec![probe_r2(x.view())],
    };
    for _ in 0..layers {
        x = block(&x, &mut stream, options);
        if options.positions == PositionInjection::EveryLayer {
            x += &p;
        }
        report.rank_residuals.push(rank_residual(x.view()));
        report.probe_r2.push(probe_r2(x.view()));
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identical_rows_have_zero_residual() {
        let x = Array2::from_shape_fn((4, 3), |(_, j)| j as f64 + 1.0);
        assert!(rank_residual(x.view()) < 1e-15);
        assert_eq!(rank_residual(Array2::<f64>::zeros((2, 2)).view()), 0.0);
    }

    #[test]
    fn a_linear_position_feature_is_recovered() {
        let x = Array2::from_shape_fn(
            (20, 2),
            |(i, j)| if j == 0 { 3.0 * i as f64 + 1.0 } else { 1.0 },
        );
        assert!((probe_r2(x.view()) - 1.0).abs() < 1e-4);
    }

    #[test]
    fn zero_sizes_are_errors_and_depth_is_clamped() {
        let bad = StackOptions {
            n: 0,
            ..StackOptions::default()
        };
        assert!(run(&bad).is_err());
        let deep = StackOptions {
            layers: 1000,
            n: 3,
            d: 4,
            ..StackOptions::default()
        };
        assert_eq!(
            run(&deep).map(|r| r.rank_residuals.len()),
            Ok(MAX_LAYERS + 1)
        );
    }
}
