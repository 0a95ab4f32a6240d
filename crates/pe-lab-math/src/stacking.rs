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

use super::encoding::sinusoidal;
use super::nope::softmax_rows;
use super::rng::SplitMix64;
use super::SizeError;

/// Why a stack cannot be run: n or d is 0 or above its limit.
pub type StackingError = SizeError;

/// Deepest stack computed; deeper requests are clamped to it.
pub const MAX_LAYERS: usize = 48;
/// Largest number of tokens.
pub const MAX_POSITIONS: usize = 512;
/// Largest model dimension.
pub const MAX_DIMENSION: usize = 512;
/// The LayerNorm ε (PyTorch's default), added to the variance.
pub const LAYER_NORM_EPS: f64 = 1e-5;

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

/// The number of folds of the probe's cross-validation (fewer when n is smaller).
pub const PROBE_FOLDS: usize = 5;
/// The probe's ridge λ, relative to the mean squared centred row norm of its training positions
/// (so it does not depend on the rows' scale).
pub const PROBE_RIDGE: f64 = 1.0;
/// The smallest ridge, relative to the mean squared (uncentred) row norm of all rows: rows whose
/// spread is below this are float64 rounding around one shared row, and the probe then predicts
/// their mean position instead of fitting the rounding.
pub const PROBE_RIDGE_FLOOR: f64 = 1e-9;

/// Out-of-sample R² of a linear probe (ridge regression with intercept) that predicts the
/// position i = 0..n−1 from row i of `x`, by k-fold cross-validation over the positions:
/// fold f holds out the positions i with i mod k = f (k = min([`PROBE_FOLDS`], n)); the probe is
/// fitted on the other positions only (their own mean removed, ridge λ = [`PROBE_RIDGE`] × their
/// mean squared centred row norm) and predicts the held-out ones.
/// R² = 1 − Σ(i − î)²/Σ(i − ī)² over the held-out predictions î: 1 for a perfect read-out,
/// about 0 when the rows carry no usable position, negative when the probe does worse than
/// guessing the mean position (it fitted noise).
///
/// An in-sample R² would measure overfitting instead: with n ≤ d + 1 generic rows, any targets
/// are fitted exactly, positions or not. Fewer than three rows give NaN (no held-out fit).
pub fn probe_r2(x: ArrayView2<f64>) -> f64 {
    let n = x.nrows();
    if n < 3 {
        return f64::NAN;
    }
    let folds = PROBE_FOLDS.min(n);
    let uncentred = x.iter().map(|v| v * v).sum::<f64>() / n as f64;
    let y_mean = (n - 1) as f64 / 2.0;
    let spread: f64 = (0..n).map(|i| (i as f64 - y_mean).powi(2)).sum();
    let mut residual = 0.0;
    for fold in 0..folds {
        let train: Vec<usize> = (0..n).filter(|i| i % folds != fold).collect();
        let m = train.len();
        let rows = x.select(Axis(0), &train);
        let mean = rows
            .mean_axis(Axis(0))
            .unwrap_or_else(|| Array1::zeros(x.ncols()));
        let centred = &rows - &mean;
        let target_mean = train.iter().map(|&i| i as f64).sum::<f64>() / m as f64;
        let y: Vec<f64> = train.iter().map(|&i| i as f64 - target_mean).collect();
        let mut system = centred.dot(&centred.t());
        let centred_energy = (0..m).map(|i| system[[i, i]]).sum::<f64>() / m as f64;
        let lambda = (PROBE_RIDGE * centred_energy).max(PROBE_RIDGE_FLOOR * uncentred);
        if !(lambda > 0.0 && lambda.is_finite()) {
            return f64::NAN;
        }
        for i in 0..m {
            system[[i, i]] += lambda;
        }
        let Some(factor) = cholesky(system) else {
            return f64::NAN;
        };
        let alpha = cholesky_substitute(&factor, &y);
        // The weights w = X_cᵀ α (kernel form), applied to the held-out rows centred by the
        // training positions' mean.
        let weights = centred.t().dot(&Array1::from(alpha));
        for i in (0..n).filter(|i| i % folds == fold) {
            let row = &x.row(i) - &mean;
            let predicted = target_mean + row.dot(&weights);
            residual += (i as f64 - predicted).powi(2);
        }
    }
    1.0 - residual / spread
}

/// The lower Cholesky factor L of a symmetric positive definite A (A = L·Lᵀ, in the lower
/// triangle); None if A is not numerically positive definite. Written here because the probe's
/// systems are at most 64 × 64 and the math crate has no linear-algebra dependency beyond GEMM.
fn cholesky(mut a: Array2<f64>) -> Option<Array2<f64>> {
    let n = a.nrows();
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
    Some(a)
}

/// x with L·Lᵀ·x = b, for the factor of [`cholesky`].
fn cholesky_substitute(factor: &Array2<f64>, b: &[f64]) -> Vec<f64> {
    let n = b.len();
    let mut z = b.to_vec();
    for i in 0..n {
        for k in 0..i {
            z[i] -= factor[[i, k]] * z[k];
        }
        z[i] /= factor[[i, i]];
    }
    for i in (0..n).rev() {
        for k in i + 1..n {
            z[i] -= factor[[k, i]] * z[k];
        }
        z[i] /= factor[[i, i]];
    }
    z
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
        // The ridge (λ = the mean squared centred row norm) shrinks the fit by 1/(m + 1).
        let r2 = probe_r2(x.view());
        assert!(r2 > 0.99 && r2 <= 1.0, "{r2}");
    }

    #[test]
    fn the_probe_is_out_of_sample() {
        // Ten noise rows in 32 dimensions: an in-sample least-squares fit reads any positions
        // from them exactly (R² = 1). Held out, no position is there to read.
        let mut stream = SplitMix64::new(3);
        let noise = normal_matrix(10, 32, 1.0, &mut stream);
        let r2 = probe_r2(noise.view());
        assert!(r2 < 0.5, "noise reads R² = {r2}");
        // Sixty noise rows, and the same rows with P: only the second carries the position.
        let noise = normal_matrix(60, 32, 1.0, &mut stream);
        let p = sinusoidal(60, 32, 10_000.0).mapv(f64::from);
        assert!(probe_r2(noise.view()) < 0.1);
        assert!(probe_r2(p.view()) > 0.9, "{}", probe_r2(p.view()));
        assert!(probe_r2((&noise + &p).view()) > 0.2);
    }

    #[test]
    fn collapsed_rows_predict_the_mean_position() {
        let mut x = Array2::from_shape_fn((12, 4), |(_, j)| j as f64 + 1.0);
        x[[3, 1]] += 1e-14;
        let r2 = probe_r2(x.view());
        assert!(r2.abs() < 0.05, "{r2}");
        assert!(probe_r2(Array2::<f64>::zeros((2, 3)).view()).is_nan());
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
