//! The ALiBi panel without the DOM: every head's slope, how far each head looks from the bias
//! alone (inside the training length and beyond it), the tiled bias matrices and weight curves as
//! numbers, head 0's measured causal weights, and the sentences that state them. Tested natively;
//! its view (`view.rs`) draws and wires (and asks the GPU backend for the heatmap picture).

use ndarray::{s, Array2};
use serde::Serialize;

use crate::gpu::alibi_scores::ALIBI_MAX_POSITIONS;
use crate::math::alibi::{causal_weights_f32, slopes, span, weight_beyond_context};
use crate::math::rng::SplitMix64;
use crate::model::plot::PixelRect;
use crate::model::present::format_number;

pub mod takeaway;
#[cfg(target_arch = "wasm32")]
mod view;
#[cfg(target_arch = "wasm32")]
pub use view::mount;

/// Each head's bias matrix is drawn for this many positions.
pub const SHOWN_POSITIONS: usize = 12;
/// Heads per row of the tiled bias matrices.
const GRID_COLUMNS: usize = 4;
/// The weight curves show this many heads at most (the first ones: the steepest slopes).
pub const CURVE_HEADS: usize = 4;
/// The weight curves run over key distances 0 … this.
pub const CURVE_DISTANCE: usize = 48;
/// The weight heatmap: random q_i, k_j of this width at most (q·k/√d has variance about 1 at any
/// width, so a wider one only costs time).
pub const CONTENT_WIDTH: usize = 64;
/// Its numbers are checked on this many rows (CPU twin, every backend); the CPU path draws at most
/// [`CPU_WEIGHT_ROWS`] rows, WebGPU the page's n.
pub const WEIGHT_CHECK_ROWS: usize = 128;
pub const CPU_WEIGHT_ROWS: usize = 512;
/// The share of a query's weight that the "span" holds.
pub const SPAN_SHARE: f64 = 0.9;

/// The panel's numbers (`peLab.stats.panels.alibi`).
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AlibiStats {
    /// H, the model's heads (`aheads`).
    pub heads: usize,
    /// m_h for h = 0 … H − 1.
    pub slopes: Vec<f64>,
    /// The query positions at which the spans are measured: L/2, L, 2L, 4L (L = `ctx`).
    pub query_positions: Vec<usize>,
    /// spans[h][k]: how many of the most recent keys hold 90 % of head h's bias-only weight at
    /// query position query_positions[k].
    pub spans: Vec<Vec<usize>>,
    /// The training length L the query positions are measured against.
    pub training_context: usize,
    /// Head 0's causal weights of random q, k at the page's n: rows drawn, who computed them, and
    /// on the first rows (CPU twin) max |Σ_j w_ij − 1| and whether every key after its query
    /// weighs exactly 0.
    pub weights_n: usize,
    pub weights_backend: &'static str,
    pub weights_gpu_error: Option<String>,
    pub weights_row_sum_error: f64,
    pub weights_future_zero: bool,
    /// Per head, from the bias alone: the total weight query i = 2L gives to the keys more than
    /// L back, whose biases no model trained on L positions has seen.
    pub weight_beyond_training: Vec<f64>,
    pub ms: f64,
}

/// The slopes, spans and weights beyond L of `heads` heads with training length `context`.
pub fn compute(heads: usize, context: usize) -> AlibiStats {
    let slopes = slopes(heads);
    let query_positions = vec![context / 2, context, 2 * context, 4 * context];
    let spans = slopes
        .iter()
        .map(|&m| {
            query_positions
                .iter()
                .map(|&i| span(m, i, SPAN_SHARE))
                .collect()
        })
        .collect();
    let weight_beyond_training = slopes
        .iter()
        .map(|&m| weight_beyond_context(m, 2 * context, context))
        .collect();
    AlibiStats {
        heads,
        slopes,
        weight_beyond_training,
        query_positions,
        spans,
        training_context: context,
        ..AlibiStats::default()
    }
}

/// Every head's causal bias matrix (SHOWN_POSITIONS square) tiled into one matrix, NaN (grey)
/// above the diagonal and between the tiles: (row-major values, rows, columns).
pub fn tiled_biases(slopes: &[f64]) -> (Vec<f32>, usize, usize) {
    let n = SHOWN_POSITIONS;
    let columns = slopes.len().clamp(1, GRID_COLUMNS);
    let rows = slopes.len().div_ceil(columns).max(1);
    let (height, width) = (rows * (n + 1) - 1, columns * (n + 1) - 1);
    let mut values = vec![f32::NAN; height * width];
    for (h, &m) in slopes.iter().enumerate() {
        let (top, left) = ((h / columns) * (n + 1), (h % columns) * (n + 1));
        for i in 0..n {
            for j in 0..=i {
                values[(top + i) * width + left + j] = (m * (j as f64 - i as f64)) as f32;
            }
        }
    }
    (values, height, width)
}

/// The block of head `h` in the tiled bias matrices drawn into `rect` (logical pixels) for
/// `heads` heads: [`SHOWN_POSITIONS`] cells a side, one grey cell between blocks.
pub fn head_block(rect: PixelRect, heads: usize, h: usize) -> PixelRect {
    let n = SHOWN_POSITIONS;
    let columns = heads.clamp(1, GRID_COLUMNS);
    let rows = heads.div_ceil(columns).max(1);
    let (cell_w, cell_h) = (
        rect.width() / (columns * (n + 1) - 1) as f64,
        rect.height() / (rows * (n + 1) - 1) as f64,
    );
    let (x0, y0) = (
        rect.x0 + ((h % columns) * (n + 1)) as f64 * cell_w,
        rect.y0 + ((h / columns) * (n + 1)) as f64 * cell_h,
    );
    PixelRect {
        x0,
        y0,
        x1: x0 + n as f64 * cell_w,
        y1: y0 + n as f64 * cell_h,
    }
}

/// Room between a head's name and its block's edge, in pixels.
const NAME_PAD: f64 = 2.0;

/// Whether a box lies in the masked cells of `block` (those right of the diagonal, j > i), where
/// a name hides no bias.
pub fn over_masked_cells(name: &PixelRect, block: &PixelRect) -> bool {
    let n = SHOWN_POSITIONS as f64;
    let (cell_w, cell_h) = (block.width() / n, block.height() / n);
    if cell_w <= 0.0 || cell_h <= 0.0 {
        return false;
    }
    // The box's lower left corner is its cell nearest the diagonal.
    let column = ((name.x0 - block.x0) / cell_w).floor();
    let row = ((name.y1 - block.y0) / cell_h).ceil() - 1.0;
    name.x0 >= block.x0 && name.y0 >= block.y0 && name.x1 <= block.x1 && column > row
}

/// Head h's name on its block: "h0", "h1", …, or its number alone where a block is too small for
/// that (`short`; the axis title says the blocks are heads).
pub fn head_name(h: usize, short: bool) -> String {
    if short {
        h.to_string()
    } else {
        format!("h{h}")
    }
}

/// Where each head's name goes on the tiled bias matrices drawn into `rect`: in its block's top
/// right corner, over the masked cells, at the largest size from `font_px` down to `min_px` at
/// which every name fits there (`text_width(text, px)` measures a name), shortened to the head's
/// number where even `min_px` is too large. Returns whether the names are short, their size and
/// each name's box (in head order); where nothing fits the last try keeps the corner.
pub fn head_name_boxes(
    rect: PixelRect,
    heads: usize,
    (font_px, min_px): (f64, f64),
    text_width: impl Fn(&str, f64) -> f64,
) -> HeadNames {
    let place = |px: f64, short: bool| -> Vec<PixelRect> {
        (0..heads)
            .map(|h| {
                let block = head_block(rect, heads, h);
                let (w, t) = (
                    text_width(&head_name(h, short), px) + 2.0 * NAME_PAD,
                    px + NAME_PAD,
                );
                PixelRect {
                    x0: block.x1 - NAME_PAD - w,
                    y0: block.y0 + NAME_PAD,
                    x1: block.x1 - NAME_PAD,
                    y1: block.y0 + NAME_PAD + t,
                }
            })
            .collect()
    };
    let mut last = None;
    for short in [false, true] {
        let mut px = font_px.max(min_px);
        loop {
            let boxes = place(px, short);
            let fits = boxes
                .iter()
                .enumerate()
                .all(|(h, b)| over_masked_cells(b, &head_block(rect, heads, h)));
            let names = HeadNames { short, px, boxes };
            if fits {
                return names;
            }
            last = Some(names);
            if px <= min_px {
                break;
            }
            px = (px * 0.9).max(min_px);
        }
    }
    last.unwrap_or(HeadNames {
        short: true,
        px: min_px,
        boxes: Vec::new(),
    })
}

/// The heads' names as [`head_name_boxes`] places them.
#[derive(Debug, Clone, PartialEq)]
pub struct HeadNames {
    /// Numbers alone ("0") rather than "h0".
    pub short: bool,
    /// Their type's size, in the figure's pixels.
    pub px: f64,
    /// Each name's box, in head order.
    pub boxes: Vec<PixelRect>,
}

/// The tiled matrices' colour range: head 0's bias at the farthest key shown.
pub fn bias_limit(slopes: &[f64]) -> f32 {
    (slopes.first().copied().unwrap_or(1.0) * (SHOWN_POSITIONS - 1) as f64) as f32
}

/// Axis names of the tiled matrices: each block's own positions 0, 4, 8 (the others and the gaps
/// between blocks unnamed).
pub fn tile_names(cells: usize) -> Vec<String> {
    (0..cells)
        .map(|c| {
            let within = c % (SHOWN_POSITIONS + 1);
            if within < SHOWN_POSITIONS && within % 4 == 0 {
                within.to_string()
            } else {
                String::new()
            }
        })
        .collect()
}

/// Bias-only weights of the query at position L = `context` for slope m, against the distance t
/// back (0 … [`CURVE_DISTANCE`], at most L): e^(−m t) / Σ_{u ≤ L} e^(−m u).
pub fn bias_only_curve(m: f64, context: usize) -> Vec<(f64, f64)> {
    let total = -(-m * (context as f64 + 1.0)).exp_m1() / -(-m).exp_m1();
    (0..=CURVE_DISTANCE.min(context))
        .map(|t| (t as f64, (-m * t as f64).exp() / total))
        .collect()
}

/// The legend entry of head h's weight curve.
pub fn curve_label(h: usize, m: f64) -> String {
    format!("h{h}: m = {}", format_number(m))
}

/// Seeded N(0, 1) rows q_i, k_j (n × width), different at every position.
pub fn content(n: usize, width: usize, seed: u64) -> (Array2<f32>, Array2<f32>) {
    let mut stream = SplitMix64::new(seed ^ 0x414c_4942);
    let mut draw =
        || Array2::from_shape_simple_fn((n, width), || stream.approx_standard_normal() as f32);
    (draw(), draw())
}

/// The width of the heatmap's q and k for the page's d.
pub fn content_width(d: usize) -> usize {
    d.clamp(1, CONTENT_WIDTH)
}

/// The heatmap's rows for the page's n: up to the kernel's limit.
pub fn heatmap_rows(n: usize) -> usize {
    n.min(ALIBI_MAX_POSITIONS)
}

/// Head 0's slope as the kernel receives it (f32).
pub fn heatmap_slope(stats: &AlibiStats) -> f32 {
    stats.slopes.first().copied().unwrap_or(0.5) as f32
}

/// Measures head 0's causal weights of q, k (see [`content`]) on the first rows, whoever draws
/// them: the largest row-sum error and whether keys after their query weigh 0 go into `stats`.
pub fn measure_weights(q: &Array2<f32>, k: &Array2<f32>, slope: f32, stats: &mut AlibiStats) {
    let check = q.nrows().min(k.nrows()).min(WEIGHT_CHECK_ROWS);
    let sample = causal_weights_f32(q.slice(s![..check, ..]), k.slice(s![..check, ..]), slope);
    stats.weights_row_sum_error = sample
        .rows()
        .into_iter()
        .map(|r| (r.iter().map(|&w| f64::from(w)).sum::<f64>() - 1.0).abs())
        .fold(0.0, f64::max);
    stats.weights_future_zero = sample.indexed_iter().all(|((i, j), &w)| j <= i || w == 0.0);
}

/// A weight that may underflow: 0 in float64 is "below 10⁻³⁰⁷", not exactly nothing.
pub fn tiny_weight(weight: f64) -> String {
    if weight == 0.0 {
        crate::message!("readout-alibi-weight-underflow")
    } else {
        format_number(weight)
    }
}

/// The read-out under the bias matrices: the slopes and the rule that made them.
pub fn slopes_sentence(stats: &AlibiStats) -> String {
    let heads = stats.heads;
    let slope_list = stats
        .slopes
        .iter()
        .map(|&m| format_number(m))
        .collect::<Vec<_>>()
        .join(", ");
    if heads.is_power_of_two() {
        crate::message!(
            "readout-alibi-slopes",
            heads = heads,
            last = heads - 1,
            slopes = slope_list,
        )
    } else {
        // The largest power of two below H (0 when H = 0, which the page never asks for).
        let lower = heads.checked_ilog2().map_or(0, |b| 1usize << b);
        crate::message!(
            "readout-alibi-slopes-not-power-of-two",
            heads = heads,
            lower = lower,
            rest = heads - lower,
            double = 2 * lower,
            slopes = slope_list,
        )
    }
}

/// The read-out under the weight curves: how far the first and the last head look, and what the
/// bias does beyond the training length.
pub fn beyond_sentence(stats: &AlibiStats) -> String {
    let context = stats.training_context;
    let last = stats.spans.len().saturating_sub(1);
    let describe = |h: usize| {
        stats.spans.get(h).map_or(String::new(), |spans| {
            crate::message!(
                "readout-alibi-head-span",
                head = h,
                m = format_number(stats.slopes.get(h).copied().unwrap_or(f64::NAN)),
                spans = spans
                    .iter()
                    .map(|k| k.to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
            )
        })
    };
    let positions = stats
        .query_positions
        .iter()
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(", ");
    crate::message!(
        "readout-alibi-beyond",
        positions = positions,
        context = context,
        first_span = describe(0),
        last_span = describe(last),
        double = 2 * context,
        first_weight = tiny_weight(
            stats
                .weight_beyond_training
                .first()
                .copied()
                .unwrap_or(f64::NAN)
        ),
        last = last,
        last_weight = tiny_weight(
            stats
                .weight_beyond_training
                .get(last)
                .copied()
                .unwrap_or(f64::NAN)
        ),
    )
}

/// The read-out under the weight heatmap for the page's n and d. It is the same whether or not
/// the heatmap was drawn, like the RoPE panel's (see `panels::rope::scores_sentence`).
pub fn heatmap_sentence(stats: &AlibiStats, n: usize, d: usize) -> String {
    crate::message!(
        "readout-alibi-heatmap",
        m = format_number(stats.slopes.first().copied().unwrap_or(f64::NAN)),
        width = content_width(d),
        rows = heatmap_rows(n),
        cpu_rows = CPU_WEIGHT_ROWS,
        error = format_number(stats.weights_row_sum_error),
        check_rows = n.min(WEIGHT_CHECK_ROWS),
        future = if stats.weights_future_zero {
            "zero"
        } else {
            "not-zero"
        },
    )
}

#[cfg(test)]
mod tests;
