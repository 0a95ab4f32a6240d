//! Relative position representations (Shaw, Uszkoreit and Vaswani 2018): learned vectors a^K and
//! a^V for every clipped offset clip(j − i, k) ∈ −k..=k (2k + 1 rows each), added to the key and
//! to the value of key j when query i looks at it:
//!
//! e_ij = x_i W^Q · (x_j W^K + a^K_{clip(j−i)})ᵀ / √d,  z_i = Σ_j α_ij (x_j W^V + a^V_{clip(j−i)}).
//!
//! Offsets beyond ±k share the last row: the paper found no gain past k ≈ 16, and the clipping is
//! what lets the model run on longer sequences than it was trained on. Everything is seeded f64:
//! W^Q, W^K, W^V (d × d, approximate N(0, 1/d)) and then a^K, a^V ((2k + 1) × d, approximate
//! N(0, 1)) from one stream.

use ndarray::{Array2, ArrayView2};
use thiserror::Error;

use super::nope::softmax_rows;
use super::rng::SplitMix64;

/// Why a relative-position layer cannot be built or applied.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ShawError {
    #[error("the dimension d must be at least 1")]
    ZeroDimension,
    #[error("{what} = {requested} is larger than the limit {limit}")]
    TooLarge {
        what: &'static str,
        requested: usize,
        limit: usize,
    },
    #[error("the input has {got} columns but the layer has d = {d}")]
    DimensionMismatch { got: usize, d: usize },
}

/// Largest model dimension.
pub const MAX_DIMENSION: usize = 1024;
/// Largest clipping distance k.
pub const MAX_CLIP: usize = 4096;
/// Largest sequence length accepted by [`ShawLayer::logits`] and [`ShawLayer::output`].
pub const MAX_POSITIONS: usize = 2048;

/// The row of the tables for offset j − i: clip(j − i, −k, k) + k, in 0..=2k.
pub fn clipped_index(offset: i64, clip: usize) -> usize {
    let k = i64::try_from(clip).unwrap_or(i64::MAX);
    // offset ∈ [−k, k] after the clamp, so offset + k ∈ [0, 2k] is non-negative.
    usize::try_from(offset.clamp(-k, k).saturating_add(k)).unwrap_or(0)
}

/// Memory for the relative terms if every (i, j) pair gets its own d-vector: L²·d numbers
/// (saturating).
pub fn naive_relative_memory(len: usize, d: usize) -> usize {
    len.saturating_mul(len).saturating_mul(d)
}

/// Memory with the relative embeddings gathered once per offset and the logits re-indexed by a
/// "skew" (Huang et al. 2018, Music Transformer): L·d numbers (saturating).
pub fn skewed_relative_memory(len: usize, d: usize) -> usize {
    len.saturating_mul(d)
}

/// One single-head self-attention layer with Shaw's relative embeddings.
#[derive(Debug, Clone, PartialEq)]
pub struct ShawLayer {
    pub clip: usize,
    pub wq: Array2<f64>,
    pub wk: Array2<f64>,
    pub wv: Array2<f64>,
    /// a^K, row clipped_index(j − i).
    pub key_table: Array2<f64>,
    /// a^V, row clipped_index(j − i).
    pub value_table: Array2<f64>,
}

impl ShawLayer {
    /// A seeded layer of dimension `d` with clipping distance `clip`.
    pub fn new(d: usize, clip: usize, seed: u64) -> Result<Self, ShawError> {
        if d == 0 {
            return Err(ShawError::ZeroDimension);
        }
        for (what, requested, limit) in [("d", d, MAX_DIMENSION), ("k", clip, MAX_CLIP)] {
            if requested > limit {
                return Err(ShawError::TooLarge {
                    what,
                    requested,
                    limit,
                });
            }
        }
        let mut stream = SplitMix64::new(seed);
        let mut draw = |rows: usize, scale: f64| {
            Array2::from_shape_simple_fn((rows, d), || scale * stream.approx_standard_normal())
        };
        let projection_scale = 1.0 / (d as f64).sqrt();
        let wq = draw(d, projection_scale);
        let wk = draw(d, projection_scale);
        let wv = draw(d, projection_scale);
        let key_table = draw(2 * clip + 1, 1.0);
        let value_table = draw(2 * clip + 1, 1.0);
        Ok(ShawLayer {
            clip,
            wq,
            wk,
            wv,
            key_table,
            value_table,
        })
    }

    /// The model dimension d.
    pub fn d(&self) -> usize {
        self.wq.nrows()
    }

    fn check(&self, x: ArrayView2<f64>) -> Result<(), ShawError> {
        if x.ncols() != self.d() {
            return Err(ShawError::DimensionMismatch {
                got: x.ncols(),
                d: self.d(),
            });
        }
        if x.nrows() > MAX_POSITIONS {
            return Err(ShawError::TooLarge {
                what: "n",
                requested: x.nrows(),
                limit: MAX_POSITIONS,
            });
        }
        Ok(())
    }

    /// The logits e_ij = q_i·(k_j + a^K_{clip(j−i)})/√d, shape (n, n), computed as
    /// q_i·k_j + q_i·a^K_r: the second term is gathered from the n × (2k + 1) products Q·(a^K)ᵀ,
    /// so no n × n × d tensor is formed.
    pub fn logits(&self, x: ArrayView2<f64>) -> Result<Array2<f64>, ShawError> {
        self.check(x)?;
        let (q, k) = (x.dot(&self.wq), x.dot(&self.wk));
        let content = q.dot(&k.t());
        let relative = q.dot(&self.key_table.t());
        let scale = 1.0 / (self.d() as f64).sqrt();
        let n = x.nrows();
        Ok(Array2::from_shape_fn((n, n), |(i, j)| {
            let r = clipped_index(j as i64 - i as i64, self.clip);
            (content[[i, j]] + relative[[i, r]]) * scale
        }))
    }

    /// The outputs z_i = Σ_j α_ij (v_j + a^V_{clip(j−i)}) with α the row softmax of
    /// [`logits`](Self::logits) (`causal`: keys j ≤ i only), shape (n, d).
    pub fn output(&self, x: ArrayView2<f64>, causal: bool) -> Result<Array2<f64>, ShawError> {
        let weights = softmax_rows(self.logits(x)?.view(), causal);
        let mut out = weights.dot(&x.dot(&self.wv));
        let n = x.nrows();
        for i in 0..n {
            for j in 0..n {
                let w = weights[[i, j]];
                if w != 0.0 {
                    let r = clipped_index(j as i64 - i as i64, self.clip);
                    out.row_mut(i).scaled_add(w, &self.value_table.row(r));
                }
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_are_clipped() {
        assert_eq!(clipped_index(0, 2), 2);
        assert_eq!(clipped_index(-7, 2), 0);
        assert_eq!(clipped_index(7, 2), 4);
        assert_eq!(clipped_index(i64::MIN, 3), 0);
        assert_eq!(clipped_index(i64::MAX, 0), 0);
    }

    #[test]
    fn memory_counts() {
        assert_eq!(naive_relative_memory(512, 64), 512 * 512 * 64);
        assert_eq!(skewed_relative_memory(512, 64), 512 * 64);
        assert_eq!(naive_relative_memory(usize::MAX, 2), usize::MAX);
    }

    #[test]
    fn bad_inputs_are_errors() {
        assert!(ShawLayer::new(0, 2, 1).is_err());
        let layer = ShawLayer::new(4, 2, 1).unwrap();
        assert!(layer.logits(Array2::<f64>::zeros((3, 5)).view()).is_err());
    }
}
