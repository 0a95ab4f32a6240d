//! A trained table beside the seeded one: the 512 × 384 position table that sentence-transformers'
//! all-MiniLM-L6-v2 learned (`crates/pe-lab-minilm` reads it from the page's float16 asset), the
//! cosine similarity of its rows, the sinusoid's at the same width (d = 384, the page's base), the
//! mean similarity at each offset k for both, and the takeaway that answers the panel's question
//! from them. Numbers only, tested natively (on the real table when scripts/fetch-minilm.sh has
//! run); the pretrained panel's wasm module (`module.rs`) fetches the table, draws and writes.

use ndarray::{Array2, ArrayView2, Axis};
use serde::Serialize;

use crate::math::encoding::sinusoidal_from;
use crate::model::plot::PixelRect;

/// The offsets `stats.panels.learned.trained.meanCosineAtOffset` reports.
pub const OFFSETS: [usize; 7] = [1, 2, 5, 10, 50, 100, 200];

/// The takeaway's "neighbours" (offset 1) and "far apart": pairs at least [`FAR`] positions
/// apart, and the offsets from [`FAR`] that at least [`FAR`] pairs have (so that no offset's mean
/// rests on a handful of pairs).
pub const NEAR: usize = 1;
pub const FAR: usize = 100;

/// Neighbours are "similar" from this mean cosine on, rows "unrelated" below this one in size.
pub const SIMILAR: f64 = 0.5;
pub const UNRELATED: f64 = 0.1;

/// The cosine similarity of every pair of rows of a table, and its mean along each offset.
#[derive(Debug, Clone)]
pub struct Similarity {
    /// `cosine[[i, j]]` = cos(row i, row j); 0 where a row is zero (it has no direction).
    pub cosine: Array2<f64>,
    /// `mean_at_offset[k]` = mean over i (0 ≤ i < rows − k) of cos(row i, row i + k).
    pub mean_at_offset: Vec<f64>,
}

impl Similarity {
    /// The similarity of the rows of `table`, computed in float64.
    pub fn of(table: ArrayView2<f32>) -> Self {
        let mut unit = table.mapv(f64::from);
        for mut row in unit.axis_iter_mut(Axis(0)) {
            let norm = row.dot(&row).sqrt();
            if norm > 0.0 && norm.is_finite() {
                row.mapv_inplace(|v| v / norm);
            } else {
                row.fill(0.0);
            }
        }
        let cosine = unit.dot(&unit.t());
        let rows = cosine.nrows();
        let mean_at_offset = (0..rows)
            .map(|k| (0..rows - k).map(|i| cosine[[i, i + k]]).sum::<f64>() / (rows - k) as f64)
            .collect();
        Similarity {
            cosine,
            mean_at_offset,
        }
    }

    /// The sinusoid's, for `rows` positions of width `d` and the page's `base`.
    pub fn of_sinusoid(rows: usize, d: usize, base: f64) -> Self {
        Self::of(sinusoidal_from(0, rows, d, base).view())
    }

    /// The mean similarity at offset `k` (NaN past the table).
    pub fn at(&self, k: usize) -> f64 {
        self.mean_at_offset.get(k).copied().unwrap_or(f64::NAN)
    }

    /// The mean similarity of every pair of rows at least `from` apart (each pair counted once,
    /// so an offset weighs as many pairs as it has).
    pub fn mean_from(&self, from: usize) -> f64 {
        let rows = self.mean_at_offset.len();
        let (sum, pairs) = (from..rows).fold((0.0, 0usize), |(sum, pairs), k| {
            (
                sum + self.mean_at_offset[k] * (rows - k) as f64,
                pairs + rows - k,
            )
        });
        if pairs == 0 {
            f64::NAN
        } else {
            sum / pairs as f64
        }
    }

    /// The lowest and highest mean similarity over the offsets `from` … rows − `from` (those that
    /// at least `from` pairs have).
    pub fn swing_from(&self, from: usize) -> (f64, f64) {
        let rows = self.mean_at_offset.len();
        self.mean_at_offset
            .get(from..=rows.saturating_sub(from).max(from))
            .unwrap_or(&[])
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(low, high), &v| {
                (low.min(v), high.max(v))
            })
    }

    /// The cosine matrix as the figure's values, row-major.
    pub fn values(&self) -> Vec<f32> {
        self.cosine.iter().map(|&v| v as f32).collect()
    }
}

/// `meanCosineAtOffset`: the mean similarity at the offsets of [`OFFSETS`], by name.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct OffsetMeans {
    #[serde(rename = "1")]
    pub k1: f64,
    #[serde(rename = "2")]
    pub k2: f64,
    #[serde(rename = "5")]
    pub k5: f64,
    #[serde(rename = "10")]
    pub k10: f64,
    #[serde(rename = "50")]
    pub k50: f64,
    #[serde(rename = "100")]
    pub k100: f64,
    #[serde(rename = "200")]
    pub k200: f64,
}

impl OffsetMeans {
    pub fn of(similarity: &Similarity) -> Self {
        let [k1, k2, k5, k10, k50, k100, k200] = OFFSETS.map(|k| similarity.at(k));
        OffsetMeans {
            k1,
            k2,
            k5,
            k10,
            k50,
            k100,
            k200,
        }
    }

    /// (offset, mean) in the order of [`OFFSETS`].
    pub fn pairs(&self) -> [(usize, f64); 7] {
        let values = [
            self.k1, self.k2, self.k5, self.k10, self.k50, self.k100, self.k200,
        ];
        std::array::from_fn(|i| (OFFSETS[i], values[i]))
    }
}

/// `stats.panels.learned.trained`: the trained table's numbers once it is in; before, only the
/// model's name, the status (`idle`, `loading`, `failed`) and the bytes fetched.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TrainedStats {
    pub model: String,
    pub status: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    pub bytes_loaded: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rows: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub columns: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mean_cosine_at_offset: Option<OffsetMeans>,
    /// The sinusoid's at the same rows and width, with the page's base.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sinusoid_mean_cosine_at_offset: Option<OffsetMeans>,
    /// The mean similarity of the pairs at least `farFrom` apart, the table's and the sinusoid's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub far_from: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mean_cosine_far_apart: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sinusoid_mean_cosine_far_apart: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base: Option<f64>,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub takeaway: String,
    pub ms: f64,
}

/// The trained table's numbers beside the sinusoid's of the same shape and the page's `base`.
pub fn stats(
    trained: &Similarity,
    sinusoid: &Similarity,
    columns: usize,
    base: f64,
) -> TrainedStats {
    TrainedStats {
        model: crate::panels::pretrained::MODEL_NAME.into(),
        status: "ready".into(),
        error: None,
        bytes_loaded: 0.0,
        rows: Some(trained.cosine.nrows()),
        columns: Some(columns),
        mean_cosine_at_offset: Some(OffsetMeans::of(trained)),
        sinusoid_mean_cosine_at_offset: Some(OffsetMeans::of(sinusoid)),
        far_from: Some(FAR),
        mean_cosine_far_apart: Some(trained.mean_from(FAR)),
        sinusoid_mean_cosine_far_apart: Some(sinusoid.mean_from(FAR)),
        base: Some(base),
        takeaway: takeaway(trained, sinusoid, columns),
        ms: 0.0,
    }
}

/// The answer to the panel's question from the trained table: the idea first (what the model
/// learned), then the numbers that show it, neighbours' similarity and what rows do [`FAR`] or
/// more apart, each beside the sinusoid's.
pub fn takeaway(trained: &Similarity, sinusoid: &Similarity, columns: usize) -> String {
    let two = |v: f64| {
        let text = format!("{v:.2}");
        if text == "-0.00" {
            "0.00".into()
        } else {
            text.replace('-', "−")
        }
    };
    let near = trained.at(NEAR);
    let far = trained.mean_from(FAR);
    let (low, high) = trained.swing_from(FAR);
    if near < SIMILAR {
        crate::training_message!(
            "learned-trained-takeaway-no-band",
            near = two(near),
            sinusoid_near = two(sinusoid.at(NEAR)),
            d = columns,
        )
    } else if far.abs() < UNRELATED {
        crate::training_message!(
            "learned-trained-takeaway-band",
            near = two(near),
            sinusoid_near = two(sinusoid.at(NEAR)),
            far = two(far),
            sinusoid_far = two(sinusoid.mean_from(FAR)),
            offset = FAR,
            low = two(low),
            high = two(high),
            d = columns,
        )
    } else {
        crate::training_message!(
            "learned-trained-takeaway-wide",
            near = two(near),
            sinusoid_near = two(sinusoid.at(NEAR)),
            far = two(far),
            sinusoid_far = two(sinusoid.mean_from(FAR)),
            offset = FAR,
            d = columns,
        )
    }
}

/// Where the figure puts things: the two similarity maps side by side on top (the trained table's
/// left, the sinusoid's right, a colour bar after them) and the mean similarity against the offset
/// below, across the figure.
#[derive(Debug, Clone, PartialEq)]
pub struct TrainedLayout {
    pub trained: PixelRect,
    pub sinusoid: PixelRect,
    pub bar: PixelRect,
    pub curve: PixelRect,
}

impl TrainedLayout {
    /// Fits the figure into `width × height` logical pixels with tick labels of `tick_px` and
    /// titles of `title_px`.
    pub fn fit(width: f64, height: f64, tick_px: f64, title_px: f64) -> Self {
        let left = (tick_px * 2.6).ceil(); // "511" beside a map, the curve's "0.5"
        let label = (tick_px * 1.6).ceil(); // an axis title's line
        let bar_room = (tick_px * 3.4).ceil();
        // The sinusoid's map shares the trained map's position axis: no labels between them.
        let gap = (tick_px * 1.2).ceil();
        let title = (title_px * 1.7).ceil();
        let below_map = (tick_px * 1.4).ceil() + label;
        // The maps: half the width each, at most a little over half the height.
        let across = (width - left - label - gap - bar_room) / 2.0;
        let side = across
            .min(height * 0.58 - title - below_map)
            .max(24.0)
            .floor();
        let y0 = title;
        let x0 = left + label;
        let trained = PixelRect {
            x0,
            y0,
            x1: x0 + side,
            y1: y0 + side,
        };
        let sx0 = trained.x1 + gap;
        let sinusoid = PixelRect {
            x0: sx0,
            y0,
            x1: sx0 + side,
            y1: y0 + side,
        };
        let bar = PixelRect {
            x0: sinusoid.x1 + tick_px * 0.6,
            y0,
            x1: sinusoid.x1 + tick_px * 1.4,
            y1: y0 + side,
        };
        // The curve: below the maps' axis titles, with its own title line (the legend) above it.
        let cy0 = trained.y1 + below_map + title + tick_px;
        let cy1 = (height - tick_px * 1.4 - label).max(cy0 + 24.0);
        let curve = PixelRect {
            x0,
            y0: cy0,
            x1: (width - tick_px).max(x0 + 24.0),
            y1: cy1,
        };
        TrainedLayout {
            trained,
            sinusoid,
            bar,
            curve,
        }
    }
}

// Native only: they read the model and the reference with native-only dev-dependencies.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
