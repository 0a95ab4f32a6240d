//! The pretrained panel: the reader's sentence through a trained transformer,
//! sentence-transformers' all-MiniLM-L6-v2 (6 layers of 12 heads, a learned table of 512
//! positions; `crates/pe-lab-minilm` runs it), every head's attention weights, each head's
//! dominant relative offset, and the chapter's claim tested on it: with the table's rows set to
//! zero (`ptable=0`) the heads that attend by position lose that pattern, and permuting the words
//! only permutes the attention. The numbers here take the attention weights of the runs and are
//! tested natively (`tests.rs` also on the real model when its files are there); the model, its
//! loading and its figures are a wasm module of their own (`module.rs`, built by
//! `crates/pe-lab-pretrained-panel`), fetched the first time the panel is on screen.

use ndarray::{Array4, ArrayView2, Axis};
use serde::Serialize;

#[cfg(all(target_arch = "wasm32", feature = "pretrained-module"))]
pub(crate) mod fetch;
#[cfg(all(target_arch = "wasm32", feature = "pretrained-module"))]
pub mod figure;
#[cfg(all(target_arch = "wasm32", feature = "pretrained-module"))]
mod gpu;
pub mod layout;
#[cfg(all(target_arch = "wasm32", feature = "pretrained-module"))]
mod loading;
#[cfg(all(target_arch = "wasm32", feature = "pretrained-module"))]
pub mod module;
#[cfg(all(target_arch = "wasm32", feature = "pretrained-module"))]
mod runs;
pub mod takeaway;
// Native only: they read the model and the reference with native-only dev-dependencies.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
#[cfg(target_arch = "wasm32")]
mod view;
#[cfg(target_arch = "wasm32")]
pub use view::{mount, MODULE};

/// The model's name, as its authors publish it.
pub const MODEL_NAME: &str = "all-MiniLM-L6-v2";

/// The most tokens (with `[CLS]` and `[SEP]`) the panel runs: 72 maps of 128 × 128 stay readable
/// and three runs of the model stay within a frame or two of typing; longer sentences are cut,
/// and the panel says so.
pub const MAX_TOKENS: usize = 128;

/// The fewest tokens (with `[CLS]` and `[SEP]`) for which the panel tells the heads that attend by
/// position: in a shorter sentence an offset is had by a handful of queries, and a head that
/// spreads its weight over three tokens puts a third on each of them.
pub const MIN_TOKENS: usize = 8;

/// A head "attends by position" when its dominant offset is not the token itself and it puts at
/// least this mean weight there: most of each query's attention, not a lean.
pub const PATTERN_WEIGHT: f64 = 0.5;

/// A head loses its pattern without the table when its weight at that offset falls below this
/// fraction of what it was with the table.
pub const LOST_FRACTION: f64 = 0.5;

/// A head's dominant relative offset (key − query) and the mean weight its queries put there.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HeadOffset {
    pub offset: i64,
    pub mean_weight: f64,
}

/// The mean weight one head puts at each offset `o` (key = query + o), for the offsets that at
/// least half the queries have (|o| ≤ (n − 1)/2 … n/2): an offset only the first or last
/// token has would let one weight stand for the head. Returns (offset, mean weight) in
/// increasing offset.
pub fn offset_profile(map: ArrayView2<f32>) -> Vec<(i64, f64)> {
    let n = map.nrows();
    let reach = (n / 2) as i64;
    (-reach..=reach)
        .filter_map(|offset| {
            let weights: Vec<f64> = (0..n as i64)
                .filter_map(|query| {
                    let key = query + offset;
                    (0..n as i64)
                        .contains(&key)
                        .then(|| f64::from(map[[query as usize, key as usize]]))
                })
                .collect();
            (!weights.is_empty())
                .then(|| (offset, weights.iter().sum::<f64>() / weights.len() as f64))
        })
        .collect()
}

/// The mean weight one head puts at `offset` (0 when no query has that key).
pub fn weight_at_offset(map: ArrayView2<f32>, offset: i64) -> f64 {
    offset_profile(map)
        .into_iter()
        .find(|&(o, _)| o == offset)
        .map_or(0.0, |(_, weight)| weight)
}

/// The offset one head puts the most mean weight at (the nearest to 0 on a tie).
pub fn dominant_offset(map: ArrayView2<f32>) -> HeadOffset {
    let mut best = HeadOffset {
        offset: 0,
        mean_weight: f64::NEG_INFINITY,
    };
    for (offset, weight) in offset_profile(map) {
        let better = weight > best.mean_weight
            || (weight == best.mean_weight && offset.abs() < best.offset.abs());
        if better {
            best = HeadOffset {
                offset,
                mean_weight: weight,
            };
        }
    }
    if best.mean_weight.is_finite() {
        best
    } else {
        HeadOffset {
            offset: 0,
            mean_weight: 0.0,
        }
    }
}

/// Every head's dominant offset: `[layer][head]`.
pub fn head_offsets(attention: &Array4<f32>) -> Vec<Vec<HeadOffset>> {
    attention
        .outer_iter()
        .map(|layer| layer.outer_iter().map(dominant_offset).collect())
        .collect()
}

/// One head that attends by position with the table, and what it does at that offset without it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PositionHead {
    pub layer: usize,
    pub head: usize,
    pub offset: i64,
    /// Its mean weight at `offset` with the trained table.
    pub with_table: f64,
    /// Its mean weight at the same offset with the table's rows set to zero.
    pub without_table: f64,
}

impl PositionHead {
    /// Whether the head loses its pattern without the table.
    pub fn lost(&self) -> bool {
        self.without_table < LOST_FRACTION * self.with_table
    }
}

/// The heads that attend by position with the table (dominant offset ≠ 0, mean weight at least
/// [`PATTERN_WEIGHT`]), each with its weight at that offset without the table; the largest fall
/// first. None in a sentence of fewer than [`MIN_TOKENS`] tokens.
pub fn position_heads(with_table: &Array4<f32>, without_table: &Array4<f32>) -> Vec<PositionHead> {
    let mut heads = Vec::new();
    if with_table.shape()[2] < MIN_TOKENS {
        return heads;
    }
    for (layer, (with_layer, without_layer)) in with_table
        .outer_iter()
        .zip(without_table.outer_iter())
        .enumerate()
    {
        for (head, (with_map, without_map)) in with_layer
            .outer_iter()
            .zip(without_layer.outer_iter())
            .enumerate()
        {
            let dominant = dominant_offset(with_map);
            if dominant.offset != 0 && dominant.mean_weight >= PATTERN_WEIGHT {
                heads.push(PositionHead {
                    layer,
                    head,
                    offset: dominant.offset,
                    with_table: dominant.mean_weight,
                    without_table: weight_at_offset(without_map, dominant.offset),
                });
            }
        }
    }
    heads.sort_by(|a, b| {
        (b.with_table - b.without_table).total_cmp(&(a.with_table - a.without_table))
    });
    heads
}

/// The permutation the panel applies to test order-blindness: the words reversed, `[CLS]` first
/// and `[SEP]` last where the sentence has them (any permutation would do without the table;
/// reversing moves every word of a sentence of more than one).
pub fn reversal(tokens: &[String]) -> Vec<usize> {
    let n = tokens.len();
    let first = usize::from(tokens.first().is_some_and(|t| t == "[CLS]"));
    let last = if n > first && tokens.last().is_some_and(|t| t == "[SEP]") {
        n - 1
    } else {
        n
    };
    (0..first)
        .chain((first..last).rev())
        .chain(last..n)
        .collect()
}

/// max |A(πX)[l, h, q, k] − A(X)[l, h, π(q), π(k)]| over every layer, head, query and key: 0 up
/// to float32 rounding when the attention only follows the tokens (row q of the permuted input is
/// token π(q) of the original).
pub fn permutation_gap(
    original: &Array4<f32>,
    permuted: &Array4<f32>,
    permutation: &[usize],
) -> f64 {
    let mut gap = 0.0f64;
    for (original_layer, permuted_layer) in original.outer_iter().zip(permuted.outer_iter()) {
        for (a, b) in original_layer.outer_iter().zip(permuted_layer.outer_iter()) {
            for (q, row) in b.axis_iter(Axis(0)).enumerate() {
                for (k, &weight) in row.iter().enumerate() {
                    let (Some(&pq), Some(&pk)) = (permutation.get(q), permutation.get(k)) else {
                        return f64::NAN;
                    };
                    gap = gap.max((f64::from(weight) - f64::from(a[[pq, pk]])).abs());
                }
            }
        }
    }
    gap
}

/// The panel's numbers for one sentence (`peLab.stats.panels.pretrained`).
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PretrainedStats {
    pub model: String,
    pub layers: usize,
    pub heads: usize,
    pub d: usize,
    /// The tokens as the model reads them, `[CLS]` and `[SEP]` included.
    pub tokens: Vec<String>,
    pub ids: Vec<u32>,
    /// Whether the sentence was cut to [`MAX_TOKENS`].
    pub truncated: bool,
    /// Every weight of the shown run: `[layer][head][query][key]`.
    pub attention: Vec<Vec<Vec<Vec<f32>>>>,
    /// Whether the shown run adds the position table (`ptable`).
    pub position_table: bool,
    /// Every head's dominant offset in the shown run: `[layer][head]`.
    pub head_offsets: Vec<Vec<HeadOffset>>,
    /// The heads that attend by position with the table, and their weight without it.
    pub position_heads: Vec<PositionHead>,
    /// Of those, how many lose their pattern without the table.
    pub lost_patterns: usize,
    /// max |A(πX) − πA(X)π⊤| with the words reversed, without the table and with it.
    pub permutation_gap_without_table: f64,
    pub permutation_gap_with_table: f64,
    /// The bytes of the model fetched so far.
    pub bytes_loaded: f64,
    /// The bytes the model's first sentence needs (its manifest's layers, table and files).
    pub bytes_total: f64,
    /// Where the model is: `idle`, `loading`, `computing` (on WebGPU: the sentence's runs are
    /// on the GPU), `running` (on the CPU: a new sentence's shown run is in, its other runs,
    /// position heads and takeaway are to come), `ready` or `failed`.
    pub status: String,
    /// Where the runs shown were computed: `cpu`, or `webgpu` when the page computes on WebGPU
    /// (the same encoder in WGSL, `pe_lab_gpu::minilm`).
    pub compute: String,
    /// Why WebGPU could not run the model, when the page computes there and the CPU ran it
    /// instead.
    pub gpu_error: Option<String>,
    /// Why the load failed, when it did.
    pub error: Option<String>,
    pub takeaway: String,
    /// How long the sentence's runs took, in ms (the shown one alone while `running`).
    pub run_ms: f64,
}

/// The attention of one run as nested lists for the stats.
pub fn nested(attention: &Array4<f32>) -> Vec<Vec<Vec<Vec<f32>>>> {
    attention
        .outer_iter()
        .map(|layer| {
            layer
                .outer_iter()
                .map(|map| map.outer_iter().map(|row| row.to_vec()).collect())
                .collect()
        })
        .collect()
}

/// "previous token", "next token", "2 tokens back", "itself"…, for a head's offset.
pub fn offset_name(offset: i64) -> String {
    crate::training_message!(
        "pretrained-offset",
        direction = match offset.signum() {
            -1 => "back",
            1 => "ahead",
            _ => "self",
        },
        count = offset.unsigned_abs()
    )
}
