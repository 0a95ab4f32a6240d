//! How position enters the attention layer: the encoding family `enc` of the attention panels.
//!
//! - Sinusoidal (the chapter) and learned (BERT, GPT-2) tables are *added* to the input:
//!   Z = X (·√d) + P or + E.
//! - RoPE rotates each head's queries and keys by their positions (pairs (2t, 2t + 1) of the head).
//! - ALiBi, T5 and Shaw add a bias to each head's scores that depends on j − i only: ALiBi's
//!   m_h·(j − i) with the causal mask it was defined with, T5's learned scalar per bucket of j − i,
//!   Shaw's q_i·a^K_{clip(j − i)}/√d_h (and a^V added to the values).
//! - None: no position at all (the order of the tokens is lost, unless a causal mask breaks the
//!   symmetry).
//!
//! Everything learned (the T5 bucket biases, Shaw's tables, the learned rows) is seeded and
//! untrained here: the page shows how position *enters*, not what a trained model learns.

use ndarray::{s, Array2, ArrayView2};
use thiserror::Error;

use super::alibi;
use super::learned::{LearnedError, LearnedTable};
use super::rng::SplitMix64;
use super::rope::{rotate_f32, Layout};
use super::shaw::clipped_index;
use super::t5::{bucket, BucketError, BucketLayout};

/// The value d2l's `masked_softmax` gives masked scores.
pub const MASKED_SCORE: f32 = -1e6;

/// The position encoding family of the attention panels (`?enc=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum Encoding {
    #[default]
    Sinusoidal,
    Rope,
    Alibi,
    T5,
    Shaw,
    Learned,
    None,
}

impl Encoding {
    /// Every family, in the menu's order.
    pub const ALL: [Encoding; 7] = [
        Encoding::Sinusoidal,
        Encoding::Rope,
        Encoding::Alibi,
        Encoding::T5,
        Encoding::Shaw,
        Encoding::Learned,
        Encoding::None,
    ];

    /// The family in words, for the page.
    pub fn title(self) -> &'static str {
        match self {
            Encoding::Sinusoidal => "sinusoidal P added to X",
            Encoding::Rope => "RoPE: queries and keys rotated",
            Encoding::Alibi => "ALiBi: causal linear bias m·(j − i)",
            Encoding::T5 => "T5: a learned bias per bucket of j − i",
            Encoding::Shaw => "Shaw et al.: relative key and value embeddings",
            Encoding::Learned => "learned table E added to X",
            Encoding::None => "no position",
        }
    }

    /// Whether the sinusoidal P is added to the input.
    pub fn adds_sinusoid(self) -> bool {
        self == Encoding::Sinusoidal
    }

    /// Whether the family only makes sense with a causal mask (ALiBi was defined for decoders).
    pub fn is_causal(self) -> bool {
        self == Encoding::Alibi
    }
}

/// Why a layer cannot use the scheme.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum PositionError {
    #[error(transparent)]
    Learned(#[from] LearnedError),
    #[error(transparent)]
    Bucket(#[from] BucketError),
    #[error("the RoPE frequency base must be finite and greater than 1 (got {0})")]
    Base(f64),
}

/// Everything a layer needs to apply the encoding family beyond the input sum.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PositionScheme {
    pub encoding: Encoding,
    /// RoPE's base (the page's frequency base).
    pub base: f64,
    /// ALiBi: the slopes are those of a model with this many heads; head h of the layer uses
    /// slope h (cyclically when the layer has more heads).
    pub alibi_heads: usize,
    /// Shaw's clipping distance k.
    pub clip: usize,
    /// The learned table's length L_max.
    pub learned_max: usize,
    pub t5: BucketLayout,
    /// Seeds the untrained tables (T5 biases, Shaw's a^K and a^V, the learned rows).
    pub seed: u64,
    /// The position of the sequence's first token (0 unless the sentence is shifted): RoPE
    /// rotates row m by (first_position + m), the learned table adds its rows from here.
    pub first_position: usize,
}

/// Shaw's clipping distance when none was chosen.
pub const DEFAULT_CLIP: usize = 4;
pub const MAX_CLIP: usize = 64;
/// The learned table's length when none was chosen (BERT's `max_position_embeddings`).
pub const DEFAULT_LEARNED_MAX: usize = 512;
pub const MAX_LEARNED_MAX: usize = 4096;
/// The ALiBi model's heads when none was chosen (the paper's figures use 8).
pub const DEFAULT_ALIBI_HEADS: usize = 8;
pub const MAX_ALIBI_HEADS: usize = 64;

impl PositionScheme {
    /// The scheme with the page's defaults for `encoding`.
    pub fn new(encoding: Encoding, base: f64, seed: u64) -> Self {
        PositionScheme {
            encoding,
            base,
            alibi_heads: DEFAULT_ALIBI_HEADS,
            clip: DEFAULT_CLIP,
            learned_max: DEFAULT_LEARNED_MAX,
            t5: BucketLayout::default(),
            seed,
            first_position: 0,
        }
    }

    /// No position beyond the input (the layer of the sinusoidal, learned and none families).
    pub fn absolute() -> Self {
        PositionScheme::new(Encoding::Sinusoidal, 10_000.0, 1)
    }

    /// Adds the learned rows E[p] of the positions p = first_position … first_position + n − 1
    /// to `z` (only for [`Encoding::Learned`]); a position ≥ L_max has no row and gets nothing.
    pub fn add_to_input(&self, z: &mut Array2<f32>) -> Result<(), PositionError> {
        if self.encoding != Encoding::Learned || z.nrows() == 0 {
            return Ok(());
        }
        // Positions past the table (≥ L_max) have no learned row: nothing is added to them, so
        // the layer sees their tokens without any position (a deployed model would refuse them;
        // the page states this rule where it draws such a sentence).
        let first = self.first_position.min(self.learned_max);
        let last = (self.first_position + z.nrows()).min(self.learned_max);
        if last <= first {
            return Ok(());
        }
        // The table is drawn row by row from one stream, so its first rows are the whole table
        // of that many rows: no need to draw all L_max·d entries for a short sentence.
        let rows = LearnedTable::new(last, z.ncols(), self.seed)?.encode(last)?;
        let mut covered = z.slice_mut(s![..last - first, ..]);
        covered.zip_mut_with(&rows.slice(s![first.., ..]), |a, &b| *a += b as f32);
        Ok(())
    }

    /// Rotates one head's queries or keys (rows at positions 0, 1, …) for RoPE; other families
    /// leave them alone. An odd head width leaves its last coordinate unrotated.
    pub fn rotate_head(&self, x: ArrayView2<f32>) -> Result<Array2<f32>, PositionError> {
        let mut out = x.to_owned();
        if self.encoding != Encoding::Rope {
            return Ok(out);
        }
        if !self.base.is_finite() || self.base <= 1.0 {
            return Err(PositionError::Base(self.base));
        }
        let even = x.ncols() - x.ncols() % 2;
        if even < 2 {
            return Ok(out);
        }
        for (m, mut row) in out.rows_mut().into_iter().enumerate() {
            let head: Vec<f32> = row.slice(s![..even]).to_vec();
            let position = (self.first_position + m) as f32;
            let rotated = rotate_f32(&head, position, self.base, Layout::Interleaved)
                .map_err(|_| PositionError::Base(self.base))?;
            for (c, v) in rotated.into_iter().enumerate() {
                row[c] = v;
            }
        }
        Ok(out)
    }

    /// The ALiBi slope of head `h`.
    pub fn alibi_slope(&self, h: usize) -> f64 {
        let slopes = alibi::slopes(self.alibi_heads.max(1));
        slopes[h % slopes.len()]
    }

    /// The additive bias of head `h` of `heads`, n × n, given that head's (rotated) queries
    /// `q_head` (n × d_h, Shaw's term needs them); `None` for the families without one.
    /// ALiBi's bias carries the causal mask (MASKED_SCORE above the diagonal).
    pub fn score_bias(
        &self,
        h: usize,
        q_head: ArrayView2<f32>,
    ) -> Result<Option<Array2<f32>>, PositionError> {
        let n = q_head.nrows();
        Ok(match self.encoding {
            Encoding::Alibi => {
                let slope = self.alibi_slope(h);
                Some(Array2::from_shape_fn((n, n), |(i, j)| {
                    if j > i {
                        MASKED_SCORE
                    } else {
                        (slope * (j as f64 - i as f64)) as f32
                    }
                }))
            }
            Encoding::T5 => {
                let table = self.t5_bias_table(h);
                let mut out = Array2::<f32>::zeros((n, n));
                for i in 0..n {
                    for j in 0..n {
                        out[[i, j]] = table[bucket(j as i64 - i as i64, &self.t5)?];
                    }
                }
                Some(out)
            }
            Encoding::Shaw => {
                let d_head = q_head.ncols();
                let table = self.shaw_table(d_head, h, ShawTable::Key);
                // q_i·a^K_r for the 2k + 1 rows r, then gathered by clip(j − i).
                let products = q_head.dot(&table.t());
                let scale = if d_head == 0 {
                    0.0
                } else {
                    1.0 / (d_head as f32).sqrt()
                };
                Some(Array2::from_shape_fn((n, n), |(i, j)| {
                    products[[i, clipped_index(j as i64 - i as i64, self.clip)]] * scale
                }))
            }
            _ => None,
        })
    }

    /// Shaw's value term Σ_j α_ij a^V_{clip(j − i)} for head `h` (n × d_h), `None` otherwise.
    pub fn value_term(
        &self,
        h: usize,
        weights: ArrayView2<f32>,
        d_head: usize,
    ) -> Option<Array2<f32>> {
        if self.encoding != Encoding::Shaw {
            return None;
        }
        let table = self.shaw_table(d_head, h, ShawTable::Value);
        let n = weights.nrows();
        let mut out = Array2::<f32>::zeros((n, d_head));
        for i in 0..n {
            for j in 0..weights.ncols() {
                let w = weights[[i, j]];
                if w != 0.0 {
                    let r = clipped_index(j as i64 - i as i64, self.clip);
                    out.row_mut(i).scaled_add(w, &table.row(r));
                }
            }
        }
        Some(out)
    }

    /// T5's untrained bias per bucket for head `h`: N(0, 1) draws (T5 initialises its
    /// `relative_attention_bias` embedding with a normal distribution), seeded by head.
    pub fn t5_bias_table(&self, h: usize) -> Vec<f32> {
        let mut stream = SplitMix64::new(self.seed ^ 0x7435_0000 ^ (h as u64) << 20);
        (0..self.t5.num_buckets)
            .map(|_| stream.approx_standard_normal() as f32)
            .collect()
    }

    /// Shaw's a^K or a^V of head `h`: (2k + 1) × d_h rows of N(0, 1/d_h) draws.
    pub fn shaw_table(&self, d_head: usize, h: usize, which: ShawTable) -> Array2<f32> {
        let tag = match which {
            ShawTable::Key => 0x4b,
            ShawTable::Value => 0x56,
        };
        let mut stream = SplitMix64::new(self.seed ^ (tag << 32) ^ (h as u64) << 20);
        let scale = 1.0 / (d_head.max(1) as f64).sqrt();
        Array2::from_shape_simple_fn((2 * self.clip + 1, d_head), || {
            (scale * stream.approx_standard_normal()) as f32
        })
    }
}

/// Which of Shaw's two tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShawTable {
    Key,
    Value,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alibi_bias_is_causal_and_linear() {
        let scheme = PositionScheme::new(Encoding::Alibi, 1e4, 1);
        let q = Array2::<f32>::zeros((5, 4));
        let bias = scheme.score_bias(0, q.view()).unwrap().unwrap();
        assert_eq!(bias[[4, 0]], -2.0);
        assert_eq!(bias[[2, 2]], 0.0);
        assert_eq!(bias[[1, 3]], MASKED_SCORE);
        assert_eq!(scheme.alibi_slope(1), 0.25);
    }

    #[test]
    fn relative_biases_depend_on_the_offset_only() {
        let scheme = PositionScheme::new(Encoding::T5, 1e4, 3);
        let q = Array2::<f32>::ones((12, 4));
        let bias = scheme.score_bias(1, q.view()).unwrap().unwrap();
        for i in 1..12 {
            for j in 1..12 {
                assert_eq!(bias[[i, j]], bias[[i - 1, j - 1]]);
            }
        }
        let shaw = PositionScheme::new(Encoding::Shaw, 1e4, 3);
        let bias = shaw.score_bias(0, q.view()).unwrap().unwrap();
        assert_eq!(bias[[9, 0]], bias[[4, 0]], "clipped beyond k = 4");
        assert_ne!(bias[[1, 0]], bias[[2, 0]]);
    }

    #[test]
    fn rope_rotates_row_m_by_m_theta() {
        let scheme = PositionScheme::new(Encoding::Rope, 1e4, 1);
        let x = Array2::from_shape_fn((3, 2), |(_, c)| if c == 0 { 1.0f32 } else { 0.0 });
        let r = scheme.rotate_head(x.view()).unwrap();
        assert_eq!(r.row(0).to_vec(), vec![1.0, 0.0]);
        assert!((r[[2, 0]] - 2f32.cos()).abs() < 1e-6 && (r[[2, 1]] - 2f32.sin()).abs() < 1e-6);
        let none = PositionScheme::new(Encoding::None, 1e4, 1);
        assert_eq!(none.rotate_head(x.view()).unwrap(), x);
    }

    #[test]
    fn a_learned_table_adds_nothing_at_l_max_and_past_it() {
        let mut scheme = PositionScheme::new(Encoding::Learned, 1e4, 1);
        scheme.learned_max = 4;
        let mut z = Array2::<f32>::zeros((4, 3));
        scheme.add_to_input(&mut z).unwrap();
        assert!(z.iter().any(|&v| v != 0.0));
        // Position 4 has no row: it gets nothing, and the first four get the table.
        let mut longer = Array2::<f32>::zeros((5, 3));
        scheme.add_to_input(&mut longer).unwrap();
        assert!(longer.row(4).iter().all(|&v| v == 0.0));
        assert_eq!(longer.slice(ndarray::s![..4, ..]), z);
        // The rows added are those of the whole table.
        let whole = LearnedTable::new(4, 3, 1).unwrap().encode(3).unwrap();
        let mut three = Array2::<f32>::zeros((3, 3));
        scheme.add_to_input(&mut three).unwrap();
        assert_eq!(three, whole.mapv(|v| v as f32));
    }
}
