//! Panel "CNN vs RNN vs self-attention" (d2l.ai, "Comparing CNNs, RNNs, and Self-Attention"): one
//! layer mapping n tokens of width d to n tokens of width d.
//!
//! | layer | operations | sequential operations | maximum path length |
//! | --- | --- | --- | --- |
//! | CNN, kernel k | k·n·d² | 1 | ⌈(n − 1)/(k − 1)⌉ (at least 1; never for k = 1 < n) |
//! | RNN | n·d² | n | n |
//! | self-attention | n²·d | 1 | 1 |
//!
//! The operation counts are the chapter's O(·) expressions with constant 1 (multiply-adds of the
//! weight or score products), so the curves show growth, not wall-clock time. The path lengths are
//! exact, counted in edges from an input position to an output unit: the CNN's is the number of
//! stacked width-k layers after which one unit sees both position 0 and position n − 1
//! ([`cnn_layers_to_connect`]), which the chapter writes O(n/k); dilated convolutions need only
//! ⌈log_k n⌉ layers ([`cnn_dilated_layers_to_connect`]; Vaswani et al.'s O(log_k n)). The
//! RNN's path from input 0 to the last hidden state is 1 + (n − 1) = n edges.

use thiserror::Error;

/// Why costs cannot be computed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ComplexityError {
    #[error("the sequence length n must be at least 1")]
    ZeroLength,
    #[error("the width d must be at least 1")]
    ZeroWidth,
    #[error("the kernel size k must be at least 1")]
    ZeroKernel,
    #[error("{requested} points were asked for; at most {limit} are plotted")]
    TooManyPoints { requested: usize, limit: usize },
}

/// The most points a cost curve may have (a log–log plot needs a few dozen).
pub const MAX_CURVE_POINTS: usize = 1024;

/// The cost of one layer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cost {
    /// Computational complexity: multiply-adds.
    pub operations: f64,
    /// Operations that must run one after another (they prevent parallel computation).
    pub sequential_operations: f64,
    /// The longest path a signal travels between any two positions (edges from an input to an
    /// output unit); `f64::INFINITY` when some positions are never connected (a CNN of kernel 1).
    pub max_path_length: f64,
}

/// The three layers of the chapter's comparison.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LayerCosts {
    pub cnn: Cost,
    pub rnn: Cost,
    pub self_attention: Cost,
}

/// The costs of the three layers for n tokens of width d and a CNN kernel of size k (computed in
/// f64, exact up to 2⁵³). Errors: n, d or k is 0.
pub fn layer_costs(n: usize, d: usize, k: usize) -> Result<LayerCosts, ComplexityError> {
    if n == 0 {
        return Err(ComplexityError::ZeroLength);
    }
    if d == 0 {
        return Err(ComplexityError::ZeroWidth);
    }
    if k == 0 {
        return Err(ComplexityError::ZeroKernel);
    }
    let (nf, df, kf) = (n as f64, d as f64, k as f64);
    Ok(LayerCosts {
        cnn: Cost {
            operations: kf * nf * df * df,
            sequential_operations: 1.0,
            max_path_length: cnn_layers_to_connect(n, k)
                .map_or(f64::INFINITY, |layers| layers.max(1) as f64),
        },
        rnn: Cost {
            operations: nf * df * df,
            sequential_operations: nf,
            max_path_length: nf,
        },
        self_attention: Cost {
            operations: nf * nf * df,
            sequential_operations: 1.0,
            max_path_length: 1.0,
        },
    })
}

/// The length at which self-attention's n²·d equals the RNN's n·d²: n = d. Shorter sequences are
/// cheaper with self-attention, longer ones with the RNN (which pays in sequential steps instead).
pub fn crossover_n(d: usize) -> usize {
    d
}

/// The length at which self-attention's n²·d equals the CNN's k·n·d²: n = k·d (saturating).
pub fn crossover_n_cnn(d: usize, k: usize) -> usize {
    k.saturating_mul(d)
}

/// Stacked CNN layers of kernel k needed before the first and the last of n positions share a
/// receptive field (one unit sees both): each layer widens it by k − 1, so ⌈(n − 1)/(k − 1)⌉ (the
/// chapter's figure: x1 and x5 meet after 2 layers of kernel 3). n ≤ 1 needs 0 layers; k = 1 never
/// connects distinct positions (None). As a maximum path length this is one layer per edge, at
/// least 1 (see [`layer_costs`]); the chapter writes it O(n/k).
pub fn cnn_layers_to_connect(n: usize, k: usize) -> Option<usize> {
    if n <= 1 {
        return Some(0);
    }
    if k <= 1 {
        return None;
    }
    Some((n - 1).div_ceil(k - 1))
}

/// The window of a centred convolution of kernel k, as the chapter draws it (padding omitted): unit
/// t reads units t − left … t + right of the layer below, left = ⌊(k − 1)/2⌋, right = k − 1 − left.
/// k = 0 is treated as 1.
pub fn centred_window(k: usize) -> (usize, usize) {
    let span = k.max(1) - 1;
    (span / 2, span - span / 2)
}

/// The chapter's figure for n positions and kernel k: in a stack of
/// [`cnn_layers_to_connect`] centred layers, the units on the paths from the two ends to the
/// first unit that sees both. Entry l is the interval (first, last) of units of layer l (layer 0:
/// the inputs, all of 0 … n−1; the last entry: that single unit). None for n = 0 and for k = 1 with
/// n > 1 (nothing connects).
pub fn cnn_connecting_cone(n: usize, k: usize) -> Option<Vec<(usize, usize)>> {
    if n == 0 {
        return None;
    }
    let layers = cnn_layers_to_connect(n, k)?;
    let (left, right) = centred_window(k);
    // The top unit reaches left·L below itself and right·L above; L·(k − 1) ≥ n − 1 makes both
    // ends reachable from this one.
    let top = (n - 1).saturating_sub(layers * right);
    Some(
        (0..=layers)
            .map(|layer| {
                let depth = layers - layer;
                (
                    top.saturating_sub(depth * left),
                    (top + depth * right).min(n - 1),
                )
            })
            .collect(),
    )
}

/// Stacked **dilated** CNN layers of kernel k (dilations 1, k, k², …) needed before one unit sees
/// all n positions: after L layers the receptive field is 1 + (k − 1)(1 + k + … + k^(L−1)) = k^L
/// positions, so the smallest L with k^L ≥ n, ⌈log_k n⌉ (the O(log_k n) of dilated convolutions).
/// n ≤ 1 needs 0 layers; k = 1 never connects distinct positions (None).
pub fn cnn_dilated_layers_to_connect(n: usize, k: usize) -> Option<usize> {
    if n <= 1 {
        return Some(0);
    }
    if k <= 1 {
        return None;
    }
    let (mut layers, mut field) = (0usize, 1usize);
    while field < n {
        field = field.saturating_mul(k);
        layers += 1;
    }
    Some(layers)
}

/// The costs at every length in `ns`, for a log–log plot. Errors: those of [`layer_costs`], and
/// more than [`MAX_CURVE_POINTS`] lengths. An empty `ns` gives an empty curve.
pub fn cost_curve(
    d: usize,
    k: usize,
    ns: &[usize],
) -> Result<Vec<(usize, LayerCosts)>, ComplexityError> {
    if ns.len() > MAX_CURVE_POINTS {
        return Err(ComplexityError::TooManyPoints {
            requested: ns.len(),
            limit: MAX_CURVE_POINTS,
        });
    }
    ns.iter()
        .map(|&n| layer_costs(n, d, k).map(|costs| (n, costs)))
        .collect()
}

/// About `count` integer lengths from `from` to `to` (both included), evenly spaced on a log scale,
/// increasing, without repeats (so small ranges give fewer points). `count` is clamped to
/// [`MAX_CURVE_POINTS`]; `from` = 0 is treated as 1; `from > to` swaps them; count = 0 gives none,
/// count = 1 gives `[from]`.
pub fn log_spaced_lengths(from: usize, to: usize, count: usize) -> Vec<usize> {
    let count = count.min(MAX_CURVE_POINTS);
    let (low, high) = if from <= to { (from, to) } else { (to, from) };
    let low = low.max(1);
    let high = high.max(low);
    if count == 0 {
        return Vec::new();
    }
    if count == 1 {
        return vec![low];
    }
    let (log_low, log_high) = ((low as f64).ln(), (high as f64).ln());
    let mut lengths: Vec<usize> = (0..count)
        .map(|step| {
            let t = step as f64 / (count - 1) as f64;
            let value = (log_low + t * (log_high - log_low)).exp().round();
            // Rounding can step just outside [low, high]; keep the ends exact.
            (value as usize).clamp(low, high)
        })
        .collect();
    lengths.dedup();
    if let Some(last) = lengths.last_mut() {
        *last = high;
    }
    lengths
}
