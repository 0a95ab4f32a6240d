//! The projections of a self-attention layer, as in d2l's `MultiHeadAttention`: queries, keys and
//! values are Q = Z·W_q, K = Z·W_k, V = Z·W_v (each d × d, split into h heads of d/h columns), the
//! heads' outputs are concatenated and multiplied by W_o; no biases (d2l builds these layers with
//! `bias=False`). Z is the layer's input, X (·√d) + P.
//!
//! Three choices of the matrices (`?proj=`):
//! - [`ProjectionMode::Random`]: an untrained layer. Each matrix is drawn from Glorot (Xavier)
//!   uniform, U(−a, a) with a = √(6 / (fan_in + fan_out)) = √(3/d): the default initialisation of
//!   Flux's `Dense` (the Julia edition's layers). PyTorch's `nn.Linear` default (Kaiming uniform
//!   with a = √5, i.e. U(±1/√d)) differs only by the factor √3 in the spread.
//! - [`ProjectionMode::Identity`]: Q = K = V = Z. Then q_i·k_i = ‖z_i‖², which grows like d while
//!   q_i·k_j (i ≠ j) stays near 0, so after the 1/√d scale the diagonal wins by ~√d: the weights
//!   approach the identity matrix as d grows.
//! - [`ProjectionMode::Offset`]: one head built to attend by relative position: W_q applies, pair
//!   by pair, the rotation M_δ of the projection panel (times a sharpness κ, URL key `beta`), W_k = W_v = W_o = I.
//!   On P alone q_i = κ·p_(i+δ), and p_(i+δ)·p_j is largest at j = i + δ, so every query's
//!   strongest key is i + δ: the chapter's "easily learn to attend by relative positions".
//!
//! The random matrices come from a splitmix64 stream seeded by `seed` (see [`super::rng`]): the
//! same d and seed give the same bits on every platform.

use ndarray::{s, Array2, ArrayView2};
use thiserror::Error;

use super::attention::{masked_softmax_row, score_scale};
use super::encoding::{frequency, frequency_count};
use super::position::{PositionError, PositionScheme};
use super::rng::SplitMix64;
use super::MathError;

/// The seed of the random projections when the link names none.
pub const DEFAULT_SEED: u64 = 1;
/// The offset head's sharpness κ when the link names none: at the default d = 32 and δ = 1, the
/// head on P alone then puts a mean weight of 0.69 on key i + δ (κ = 1 gives 0.18, barely above
/// the weight on the query itself).
pub const DEFAULT_BETA: f64 = 12.0;
/// The largest κ the page accepts (beyond it every row is one-hot anyway).
pub const MAX_BETA: f64 = 64.0;

/// Which projection matrices the attention panels use (`?proj=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ProjectionMode {
    /// Glorot-uniform W_q, W_k, W_v, W_o: an untrained layer.
    #[default]
    Random,
    /// Q = K = V = Z and no W_o.
    Identity,
    /// One head that attends from i to i + δ (see the module documentation).
    Offset,
}

#[derive(Debug, Clone, PartialEq, Error)]
pub enum ProjectionError {
    #[error("the projections are {projections} × {projections} but the input has {input} columns")]
    Shape { projections: usize, input: usize },
    #[error("{heads} heads do not divide d = {d}")]
    Heads { d: usize, heads: usize },
    #[error(transparent)]
    Position(#[from] PositionError),
}

/// Why a layer of a sentence cannot be computed: its sizes, its projections or its position
/// scheme (the attention panels' sentence, [`super::sentence`], and the pipeline,
/// [`super::pipeline`]).
#[derive(Debug, Clone, PartialEq, Error)]
pub enum LayerError {
    #[error(transparent)]
    Math(#[from] MathError),
    #[error(transparent)]
    Projection(#[from] ProjectionError),
    #[error(transparent)]
    Position(#[from] PositionError),
}

/// W_q, W_k, W_v and W_o of one layer, each d × d, acting on rows (Q = Z·W_q).
#[derive(Debug, Clone, PartialEq)]
pub struct Projections {
    pub w_q: Array2<f32>,
    pub w_k: Array2<f32>,
    pub w_v: Array2<f32>,
    pub w_o: Array2<f32>,
    /// Which of W_q, W_k, W_v, W_o are the identity: multiplying by them is skipped (at d = 2048 a
    /// product Z·W is 4·10⁶ multiply-adds per token).
    identity: [bool; 4],
}

impl Projections {
    /// Z·W_q, Z·W_k, Z·W_v (the identity ones copied, not multiplied).
    pub fn queries(&self, z: ArrayView2<f32>) -> Array2<f32> {
        times(z, &self.w_q, self.identity[0])
    }

    pub fn keys(&self, z: ArrayView2<f32>) -> Array2<f32> {
        times(z, &self.w_k, self.identity[1])
    }

    pub fn values(&self, z: ArrayView2<f32>) -> Array2<f32> {
        times(z, &self.w_v, self.identity[2])
    }

    /// The heads' concatenated outputs times W_o.
    pub fn output(&self, heads_output: ArrayView2<f32>) -> Array2<f32> {
        times(heads_output, &self.w_o, self.identity[3])
    }

    pub fn d(&self) -> usize {
        self.w_q.nrows()
    }

    /// The matrices of `mode` for dimension d (`delta`, `base` and `beta` shape the offset head).
    pub fn of_mode(
        mode: ProjectionMode,
        d: usize,
        seed: u64,
        base: f64,
        delta: i64,
        beta: f64,
    ) -> Projections {
        match mode {
            ProjectionMode::Random => random(d, seed),
            ProjectionMode::Identity => identity(d),
            ProjectionMode::Offset => offset(d, base, delta, beta),
        }
    }
}

fn times(z: ArrayView2<f32>, w: &Array2<f32>, identity: bool) -> Array2<f32> {
    if identity {
        z.to_owned()
    } else {
        z.dot(w)
    }
}

/// A uniform number in [−1, 1) from 53 random bits (exact in f64).
fn symmetric_unit(stream: &mut SplitMix64) -> f64 {
    let u = (stream.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64);
    2.0 * u - 1.0
}

/// A `rows × cols` Glorot-uniform matrix: U(−a, a), a = √(6 / (rows + cols)).
pub fn glorot_uniform(rows: usize, cols: usize, stream: &mut SplitMix64) -> Array2<f32> {
    let limit = (6.0 / (rows + cols).max(1) as f64).sqrt();
    Array2::from_shape_simple_fn((rows, cols), || (limit * symmetric_unit(stream)) as f32)
}

/// Four Glorot-uniform d × d matrices (W_q, W_k, W_v, W_o, drawn in that order) from `seed`.
pub fn random(d: usize, seed: u64) -> Projections {
    let mut stream = SplitMix64::new(seed);
    let w_q = glorot_uniform(d, d, &mut stream);
    let w_k = glorot_uniform(d, d, &mut stream);
    let w_v = glorot_uniform(d, d, &mut stream);
    let w_o = glorot_uniform(d, d, &mut stream);
    Projections {
        w_q,
        w_k,
        w_v,
        w_o,
        identity: [false; 4],
    }
}

/// Q = K = V = Z, W_o = I.
pub fn identity(d: usize) -> Projections {
    let eye = Array2::<f32>::eye(d);
    Projections {
        w_q: eye.clone(),
        w_k: eye.clone(),
        w_v: eye.clone(),
        w_o: eye,
        identity: [true; 4],
    }
}

/// The offset head: W_q = κ·(M_δ for every pair), W_k = W_v = W_o = I. With rows as vectors,
/// (sin, cos)·W for W = [[cos δω, −sin δω], [sin δω, cos δω]] gives (sin(θ + δω), cos(θ + δω)), so
/// p_i·W_q = κ·p_(i+δ) column pair by column pair. An odd d's last (sine) column has no partner: it
/// is left out of the queries (0), which leaves the argmax to the complete pairs.
pub fn offset(d: usize, base: f64, delta: i64, beta: f64) -> Projections {
    let mut w_q = Array2::<f32>::zeros((d, d));
    for pair in 0..d / 2 {
        let angle = delta as f64 * frequency(pair, d, base);
        let (sin, cos) = angle.sin_cos();
        let (s_col, c_col) = (2 * pair, 2 * pair + 1);
        // Row s_col is the sine component's contribution; row c_col the cosine's.
        w_q[[s_col, s_col]] = (beta * cos) as f32;
        w_q[[s_col, c_col]] = (-beta * sin) as f32;
        w_q[[c_col, s_col]] = (beta * sin) as f32;
        w_q[[c_col, c_col]] = (beta * cos) as f32;
    }
    debug_assert!(frequency_count(d) >= d / 2);
    let eye = Array2::<f32>::eye(d);
    Projections {
        w_q,
        w_k: eye.clone(),
        w_v: eye.clone(),
        w_o: eye,
        identity: [false, true, true, true],
    }
}

/// Every stage of one self-attention layer on a sequence, for the pipeline panel and the numbers.
#[derive(Debug, Clone, PartialEq)]
pub struct LayerStages {
    pub q: Array2<f32>,
    pub k: Array2<f32>,
    pub v: Array2<f32>,
    /// Per head, QKᵀ/√(d/h), n × n.
    pub scores: Vec<Array2<f32>>,
    /// Per head, the scores with the masked keys set to −10⁶ (d2l's `masked_softmax`).
    pub masked_scores: Vec<Array2<f32>>,
    /// Per head, softmax of the masked scores, n × n.
    pub weights: Vec<Array2<f32>>,
    /// The heads' outputs weights·V_h, concatenated: n × d.
    pub heads_output: Array2<f32>,
    /// heads_output · W_o: n × d.
    pub output: Array2<f32>,
}

pub use crate::position::MASKED_SCORE;

/// One layer: Q, K, V, per-head scaled scores, the mask, the softmax, the weighted values and
/// W_o. Keys at index ≥ `valid_len` are masked as d2l does (score −10⁶): their weights are exactly
/// 0 in f32 when at least one key is valid, and **every** weight is 1/n when none is
/// (`valid_len = 0`: all scores equal, softmax is uniform).
pub fn layer(
    z: ArrayView2<f32>,
    projections: &Projections,
    heads: usize,
    valid_len: Option<usize>,
) -> Result<LayerStages, ProjectionError> {
    layer_positioned(
        z,
        projections,
        heads,
        valid_len,
        &PositionScheme::absolute(),
    )
}

/// [`layer`] with the position family's part inside the layer: RoPE rotates each head's queries
/// and keys, ALiBi, T5 and Shaw add their bias to the head's scores (recorded in `scores`), and
/// Shaw adds a^V to the weighted values. The input `z` already holds any added encoding.
pub fn layer_positioned(
    z: ArrayView2<f32>,
    projections: &Projections,
    heads: usize,
    valid_len: Option<usize>,
    position: &PositionScheme,
) -> Result<LayerStages, ProjectionError> {
    let (n, d) = z.dim();
    if projections.d() != d {
        return Err(ProjectionError::Shape {
            projections: projections.d(),
            input: d,
        });
    }
    if heads == 0 || (d > 0 && d % heads != 0) {
        return Err(ProjectionError::Heads { d, heads });
    }
    let q = projections.queries(z);
    let k = projections.keys(z);
    let v = projections.values(z);
    let head_dim = d.checked_div(heads).unwrap_or(0);
    let scale = if head_dim == 0 {
        0.0
    } else {
        score_scale(head_dim)
    };
    let valid = valid_len.unwrap_or(n).min(n);
    let mut scores = Vec::with_capacity(heads);
    let mut masked_scores = Vec::with_capacity(heads);
    let mut weights = Vec::with_capacity(heads);
    let mut heads_output = Array2::<f32>::zeros((n, d));
    for h in 0..heads {
        let columns = s![.., h * head_dim..(h + 1) * head_dim];
        let q_head = position.rotate_head(q.slice(columns))?;
        let k_head = position.rotate_head(k.slice(columns))?;
        let mut score = q_head.dot(&k_head.t()) * scale;
        if let Some(bias) = position.score_bias(h, q_head.view())? {
            score += &bias;
        }
        let mut masked = score.clone();
        for mut row in masked.rows_mut() {
            row.slice_mut(s![valid..]).fill(MASKED_SCORE);
        }
        let mut w = masked.clone();
        for mut row in w.rows_mut() {
            if let Some(row) = row.as_slice_mut() {
                masked_softmax_row(row, valid);
            }
        }
        let mut head_output = w.dot(&v.slice(columns));
        if let Some(term) = position.value_term(h, w.view(), head_dim) {
            head_output += &term;
        }
        heads_output.slice_mut(columns).assign(&head_output);
        scores.push(score);
        masked_scores.push(masked);
        weights.push(w);
    }
    let output = projections.output(heads_output.view());
    Ok(LayerStages {
        q,
        k,
        v,
        scores,
        masked_scores,
        weights,
        heads_output,
        output,
    })
}

/// Mean weight of each query on its own key, over the queries of every head (NaN for none).
pub fn mean_self_weight(weights: &[Array2<f32>]) -> f64 {
    let mut sum = 0.0;
    let mut count = 0usize;
    for w in weights {
        for i in 0..w.nrows().min(w.ncols()) {
            sum += f64::from(w[[i, i]]);
            count += 1;
        }
    }
    if count == 0 {
        f64::NAN
    } else {
        sum / count as f64
    }
}

/// Of the queries i whose key i + δ exists (0 ≤ i + δ < number of keys), the fraction whose
/// strongest key is exactly i + δ (NaN when there are none). Ties count as misses.
pub fn offset_hit_rate(weights: ArrayView2<f32>, delta: i64) -> f64 {
    let nk = weights.ncols() as i64;
    let mut hits = 0usize;
    let mut total = 0usize;
    for (i, row) in weights.rows().into_iter().enumerate() {
        let target = i as i64 + delta;
        if target < 0 || target >= nk {
            continue;
        }
        total += 1;
        let best = row[target as usize];
        let strictly_best = row
            .iter()
            .enumerate()
            .all(|(j, &w)| j == target as usize || w < best);
        if strictly_best {
            hits += 1;
        }
    }
    if total == 0 {
        f64::NAN
    } else {
        hits as f64 / total as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glorot_bounds_and_reproducibility() {
        let a = random(16, 7);
        let b = random(16, 7);
        assert_eq!(a, b);
        assert_ne!(random(16, 8).w_q, a.w_q);
        let limit = (6.0f64 / 32.0).sqrt() as f32;
        for w in [&a.w_q, &a.w_k, &a.w_v, &a.w_o] {
            assert!(w.iter().all(|v| v.abs() <= limit));
            // Spread: variance a²/3 = 1/16.
            let var = w.iter().map(|v| f64::from(*v).powi(2)).sum::<f64>() / 256.0;
            assert!((var - 1.0 / 16.0).abs() < 0.02, "{var}");
        }
        assert_ne!(a.w_q, a.w_k);
    }
}
