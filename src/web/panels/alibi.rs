//! ALiBi (Press et al. 2022): no position vectors; head h adds m_h·(j − i) to the scores of the
//! keys j ≤ i (causal), with the slopes a geometric sequence from 2^(−8/H) (the paper's rule for H
//! not a power of two). Shows the slope table, every head's bias matrix, and how far each head
//! looks: the bias alone puts weight ∝ e^(−m·(i − j)) on the key i − j back, at every query
//! position i, inside the training length or far beyond it. CPU (`math::alibi`) on both backends.

use crate::model::inputs::Inputs;
use plotters::prelude::SeriesLabelPosition;
use serde::Serialize;
use wasm_bindgen::JsValue;
use web_sys::{HtmlCanvasElement, HtmlElement};

use super::super::dom::{self, now_ms};
use super::super::error::WebError;
use super::super::panel::{to_js, Panel, PanelSpec};
use super::family_charts::{draw_lines, draw_matrix, matrix_frame, LineChart, Scale, Series};
use super::{elapsed, format_number, Ctx};
use crate::gpu::alibi_scores::ALIBI_MAX_POSITIONS;
use crate::math::alibi::{causal_weights_f32, weight_beyond_context};
use crate::math::alibi::{slopes, span};
use crate::math::rng::SplitMix64;
use ndarray::{s, Array2};

/// Each head's bias matrix is drawn for this many positions.
pub const SHOWN_POSITIONS: usize = 12;
/// Heads per row of the tiled bias matrices.
const GRID_COLUMNS: usize = 4;
/// The weight curves show this many heads at most (the first ones: the steepest slopes).
const CURVE_HEADS: usize = 4;
/// The weight curves run over key distances 0 … this.
const CURVE_DISTANCE: usize = 48;
/// The weight heatmap: random q_i, k_j of this width at most (q·k/√d has variance about 1 at any
/// width, so a wider one only costs time).
pub const CONTENT_WIDTH: usize = 64;
/// Its numbers are checked on this many rows (CPU twin, every backend); the CPU path draws at most
/// [`CPU_WEIGHT_ROWS`] rows, WebGPU the page's n.
pub const WEIGHT_CHECK_ROWS: usize = 128;
pub const CPU_WEIGHT_ROWS: usize = 512;
/// The share of a query's weight that the "span" holds.
pub const SPAN_SHARE: f64 = 0.9;

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
/// above the diagonal and between the tiles.
fn tiled_biases(slopes: &[f64]) -> (Vec<f32>, usize, usize) {
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

/// Axis names of the tiled matrices: each block's own positions 0, 4, 8 (the others and the gaps
/// between blocks unnamed).
fn tile_names(cells: usize) -> Vec<String> {
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

/// Seeded N(0, 1) rows q_i, k_j (n × width), different at every position.
fn content(n: usize, width: usize, seed: u64) -> (Array2<f32>, Array2<f32>) {
    let mut stream = SplitMix64::new(seed ^ 0x414c_4942);
    let mut draw =
        || Array2::from_shape_simple_fn((n, width), || stream.approx_standard_normal() as f32);
    (draw(), draw())
}

/// Head 0's causal weights: numbers from the CPU twin on the first rows, the picture from the
/// ALiBi kernel on WebGPU (the page's n) or the CPU twin (fewer rows).
fn weight_heatmap(ctx: &mut Ctx, dom: &AlibiDom, stats: &mut AlibiStats) -> Result<(), WebError> {
    let n = ctx.params.n;
    let width = ctx.params.d.clamp(1, CONTENT_WIDTH);
    let slope = stats.slopes.first().copied().unwrap_or(0.5) as f32;
    let rows = n.min(ALIBI_MAX_POSITIONS);
    let (q, k) = content(rows, width, ctx.settings.seed);
    let check = rows.min(WEIGHT_CHECK_ROWS);
    let sample = causal_weights_f32(q.slice(s![..check, ..]), k.slice(s![..check, ..]), slope);
    stats.weights_row_sum_error = sample
        .rows()
        .into_iter()
        .map(|r| (r.iter().map(|&w| f64::from(w)).sum::<f64>() - 1.0).abs())
        .fold(0.0, f64::max);
    stats.weights_future_zero = sample.indexed_iter().all(|((i, j), &w)| j <= i || w == 0.0);
    if !ctx.draw {
        return Ok(());
    }
    let names = ("Key position j", "Query position i");
    // Only on WebGPU: on the CPU path draw_matrix below draws the frame once.
    if ctx.backend.is_gpu() {
        let rect = matrix_frame(
            &dom.heatmap,
            ctx.scratch,
            (rows, rows),
            Scale::Positive(1.0),
            names,
            (None, None),
        )?;
        match ctx
            .backend
            .draw_alibi_weights((q.view(), k.view()), slope, rect, &dom.heatmap)
        {
            Ok(true) => {
                stats.weights_n = rows;
                stats.weights_backend = "webgpu";
                return Ok(());
            }
            Ok(false) => {}
            // Any GPU failure: the CPU twin draws instead, and the stats say why.
            Err(error) => stats.weights_gpu_error = Some(error.to_string()),
        }
    }
    let cpu_rows = rows.min(CPU_WEIGHT_ROWS);
    let weights = causal_weights_f32(
        q.slice(s![..cpu_rows, ..]),
        k.slice(s![..cpu_rows, ..]),
        slope,
    );
    draw_matrix(
        &dom.heatmap,
        ctx.scratch,
        weights.as_slice().unwrap_or(&[]),
        (cpu_rows, cpu_rows),
        Scale::Positive(1.0),
        names,
        (None, None),
    )?;
    stats.weights_n = cpu_rows;
    stats.weights_backend = "cpu";
    Ok(())
}

/// A weight that may underflow: 0 in float64 is "below 10⁻³⁰⁷", not exactly nothing.
fn tiny_weight(weight: f64) -> String {
    if weight == 0.0 {
        "below 10⁻³⁰⁷ (0 in float64)".to_string()
    } else {
        format_number(weight)
    }
}

fn render(ctx: &mut Ctx, dom: &AlibiDom) -> Result<AlibiStats, WebError> {
    let started = now_ms();
    let (heads, context) = (ctx.settings.alibi_heads, ctx.settings.training_context);
    let mut stats = compute(heads, context);
    weight_heatmap(ctx, dom, &mut stats)?;
    if ctx.draw {
        let (values, rows, columns) = tiled_biases(&stats.slopes);
        let limit = stats.slopes.first().copied().unwrap_or(1.0) * (SHOWN_POSITIONS - 1) as f64;
        draw_matrix(
            &dom.biases,
            ctx.scratch,
            &values,
            (rows, columns),
            Scale::Diverging(limit as f32),
            ("Key j (one block per head, head 0 top left)", "Query i"),
            (Some(&tile_names(columns)), Some(&tile_names(rows))),
        )?;
        let series = stats
            .slopes
            .iter()
            .take(CURVE_HEADS)
            .enumerate()
            .map(|(h, &m)| {
                // Bias-only weights of the query at position L: e^(−m t) / Σ_{u ≤ L} e^(−m u).
                let total = -(-m * (context as f64 + 1.0)).exp_m1() / -(-m).exp_m1();
                Series {
                    label: format!("h{h}: m = {}", format_number(m)),
                    colour: h,
                    points: (0..=CURVE_DISTANCE.min(context))
                        .map(|t| (t as f64, (-m * t as f64).exp() / total))
                        .collect(),
                    dashed: false,
                    markers: false,
                }
            })
            .collect();
        draw_lines(
            &dom.weights,
            &LineChart {
                x_desc: "Distance i − j back to the key",
                y_desc: "Weight (bias alone)",
                log_x: false,
                log_y: false,
                series,
                y_range: None,
                legend: SeriesLabelPosition::UpperRight,
                marks: Vec::new(),
            },
        )?;
    }
    let slope_list = stats
        .slopes
        .iter()
        .map(|&m| format_number(m))
        .collect::<Vec<_>>()
        .join(", ");
    let rule = if heads.is_power_of_two() {
        format!("m_h = 2^(−8(h+1)/{heads}), h = 0 … {}", heads - 1)
    } else {
        let lower = 1usize << (usize::BITS - 1 - heads.leading_zeros());
        format!(
            "H = {heads} is not a power of two; as the reference code's get_slopes: the {lower} slopes of H = {lower}, then the first {} of every other slope of H = {}",
            heads - lower,
            2 * lower
        )
    };
    dom::text(
        &dom.readout,
        &format!("Slopes of H = {heads} heads ({rule}): {slope_list}."),
    );
    let last = stats.spans.len().saturating_sub(1);
    let describe = |h: usize| {
        stats.spans.get(h).map_or(String::new(), |spans| {
            format!(
                "head {h} (m = {}) puts 90 % of its weight on the last {} keys",
                format_number(stats.slopes[h]),
                spans
                    .iter()
                    .map(|k| k.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
    };
    let positions = stats
        .query_positions
        .iter()
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(", ");
    dom::text(
        &dom.beyond,
        &format!(
            "Beyond the training length, from the bias alone (every content score q_i·k_j equal): at query positions i = {positions} (L = {context}, the training length set in the context-extension panel), {}; {}. The bias depends on i − j only, so a head looks equally far back at every position once the weight left for the first key, e^(−m·i), is negligible (i several times 1/m). Past L, the keys within L of the query have the distances and biases seen in training, but keys more than L back get biases −m·(i − j) below any seen in training; they are only pushed further down: from the bias alone, at i = {} head 0 gives them a total weight of {} and head {last} {}. A head whose span exceeds i spreads over all i + 1 keys.",
            describe(0),
            describe(last),
            2 * context,
            tiny_weight(stats.weight_beyond_training.first().copied().unwrap_or(f64::NAN)),
            tiny_weight(stats.weight_beyond_training.get(last).copied().unwrap_or(f64::NAN)),
        ),
    );
    // The same sentence whether or not the heatmap was drawn (see the RoPE panel).
    dom::text(
        &dom.heatmap_readout,
        &format!(
            "Head 0 (m = {}) of a layer with random q_i, k_j (width {}) over up to {} positions (WebGPU computes them in a compute shader, the CPU path at most {CPU_WEIGHT_ROWS}): each query's weights sum to 1 (measured max |Σ_j w_ij − 1| = {} on the first {} rows), keys after the query weigh {}, and the weight fades with the distance back (white: 0, red: 1).",
            format_number(stats.slopes.first().copied().unwrap_or(f64::NAN)),
            ctx.params.d.clamp(1, CONTENT_WIDTH),
            ctx.params.n.min(ALIBI_MAX_POSITIONS),
            format_number(stats.weights_row_sum_error),
            ctx.params.n.min(WEIGHT_CHECK_ROWS),
            if stats.weights_future_zero {
                "exactly 0"
            } else {
                "NOT 0"
            },
        ),
    );
    stats.ms = elapsed(started);
    Ok(stats)
}

crate::element_table! {
    pub struct AlibiDom {
        biases: HtmlCanvasElement = "alibi-biases",
        readout: HtmlElement = "alibi-readout",
        weights: HtmlCanvasElement = "alibi-weights",
        beyond: HtmlElement = "alibi-beyond",
        heatmap: HtmlCanvasElement = "alibi-heatmap",
        heatmap_readout: HtmlElement = "alibi-heatmap-readout",
    }
}

pub struct AlibiPanel {
    spec: &'static PanelSpec,
    dom: AlibiDom,
    stats: AlibiStats,
}

impl AlibiPanel {
    pub fn mount(spec: &'static PanelSpec) -> Result<Self, WebError> {
        Ok(AlibiPanel {
            spec,
            dom: AlibiDom::mount()?,
            stats: AlibiStats::default(),
        })
    }
}

impl Panel for AlibiPanel {
    fn spec(&self) -> &'static PanelSpec {
        self.spec
    }

    fn inputs(&self, ctx: &Ctx) -> Inputs {
        Inputs::new()
            .with(ctx.settings.alibi_heads)
            .with(ctx.settings.training_context)
            .with(ctx.params.n)
            .with(ctx.params.d.min(CONTENT_WIDTH))
            .with(ctx.settings.seed)
    }

    fn render(&mut self, ctx: &mut Ctx) -> Result<(), WebError> {
        self.stats = render(ctx, &self.dom)?;
        Ok(())
    }

    fn stats(&self) -> Option<JsValue> {
        Some(to_js(&self.stats))
    }

    fn error_slot(&self) -> &HtmlElement {
        &self.dom.readout
    }
}
