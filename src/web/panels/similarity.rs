//! Panel 4, similarity and translation invariance: the Gram matrix P·Pᵀ (constant diagonals) or
//! the distances ‖p_i − p_j‖, the curve p_i·p_{i+k} against k from two starting rows, the
//! normalised positions i/n whose similarity changes with n, and the forum's numbers at d = 16.
//!
//! The Gram heatmap: on WebGPU the Gram kernel and the heatmap render pass (nothing read back), of
//! the first rows whose r²·d fits [`GPU_GRAM_BUDGET`]; on the CPU `math::gram` of the first rows
//! within [`CPU_GRAM_BUDGET`] (a visible note says when rows are left out). The distances are
//! always computed on the CPU from a capped Gram matrix.

use ndarray::{s, Array2};
use serde::Serialize;
use web_sys::HtmlCanvasElement;

use super::super::dom::{self, now_ms};
use super::super::draw::heatmap::{draw_heatmap_frame, paint_cells, HeatmapAxes, RgbaImage};
use super::super::error::WebError;
use super::super::panel::{to_js, Panel, PanelSpec};
use super::similarity_charts::{draw_curve, draw_normalized};
use super::{elapsed, format_number, subscript, Ctx};
use crate::gpu::gram::GRAM_MAX_POSITIONS;
use crate::math::colormap::{
    diverging_bar_rgba, diverging_rgba, sequential_bar_rgba, sequential_rgba,
};
use crate::math::gram::gram;
use crate::math::lesson::SimilarityView;
use crate::math::panels::{
    distances_from_gram, dot_curve, encoding_rows, row_dot, rows_within_budget,
};
use crate::math::similarity::{
    diagonal_spread, normalized_similarity, row_resemblance, RowResemblance,
};
use crate::model::present::plural;
use wasm_bindgen::JsValue;
use web_sys::HtmlElement;

/// Multiply-adds of one Gram heatmap on the GPU: r²·d ≤ 2²⁶ (all 4096 rows up to d = 4, 181 rows
/// at d = 2048). Microseconds on a discrete GPU; on a 2-core software adapter (SwiftShader, the
/// tests' browser) 2²⁸ added 0.3–0.6 s to a frame at n = 4096, d = 2048, this about 0.1 s.
pub const GPU_GRAM_BUDGET: u64 = 1 << 26;
/// On the CPU (WebAssembly): r²·d ≤ 2²⁴, about 10 ms, so that the panel follows a slider.
pub const CPU_GRAM_BUDGET: u64 = 1 << 24;
/// The second starting row of the similarity curve is i + SHIFT (the forum's p_105 against p_5).
pub(super) const SHIFT: usize = 100;
/// Rows of the exact diagonal check when the heatmap came from the GPU.
const CHECK_ROWS: usize = 128;

#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ForumCheck {
    pub d: usize,
    pub base: f64,
    pub p5p6: f64,
    pub p105p106: f64,
    pub p5p10: f64,
}

#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SimilarityStats {
    pub view: &'static str,
    pub n: usize,
    pub d: usize,
    /// Rows (and columns) of the heatmap: n, or fewer when capped.
    pub heatmap_rows: usize,
    pub capped: bool,
    /// "webgpu" (Gram kernel + render pass) or "cpu".
    pub heatmap_source: &'static str,
    /// Largest deviation of a Gram entry from its diagonal's mean (≈ 1e-6 for even d).
    pub diagonal_spread: f64,
    pub diagonal_spread_rows: usize,
    /// Live, at the current d and base.
    pub p5p6: f64,
    pub p105p106: f64,
    pub p5p10: f64,
    /// The Stack Exchange answer's numbers, at d = 16, base 10000.
    pub forum: ForumCheck,
    /// The curve p_i·p_{i+k}, k = 0 … max_offset, and the same from i + 100.
    pub position: usize,
    pub max_offset: usize,
    pub curve: Vec<f64>,
    pub curve_shifted: Vec<f64>,
    pub curve_max_difference: f64,
    /// (i/n)·((i+1)/n) at n and at 2n; p_i·p_{i+1} at any n.
    pub normalized_n: usize,
    pub normalized_short: f64,
    pub normalized_long: f64,
    pub sinusoidal_neighbours: f64,
    /// ‖p_0 − p_1‖, ‖p_40 − p_41‖ (equal for even d: neighbours look alike at every position), and
    /// how little the slow columns move between neighbours, early (p_0, p_1) and later (p_40, p_41).
    pub distance01: f64,
    pub distance4041: f64,
    pub split_column: usize,
    pub low_frequency_max_difference01: f64,
    pub low_frequency_share01: f64,
    pub low_frequency_max_difference4041: f64,
    pub low_frequency_share4041: f64,
    pub ms: f64,
}

pub fn render(ctx: &mut Ctx, dom: &SimilarityDom) -> Result<SimilarityStats, WebError> {
    let started = now_ms();
    let (params, lesson) = (ctx.params, ctx.lesson);
    let (n, d, base) = (params.n, params.d, params.base);
    let mut stats = SimilarityStats {
        view: lesson.sim_view.to_query(),
        n,
        d,
        ..SimilarityStats::default()
    };
    draw_heatmap(ctx, dom, &mut stats)?;

    let live = |i, j| row_dot(i, j, d, base);
    stats.p5p6 = live(5, 6)?;
    stats.p105p106 = live(105, 106)?;
    stats.p5p10 = live(5, 10)?;
    let forum = |i, j| row_dot(i, j, 16, 10000.0);
    stats.forum = ForumCheck {
        d: 16,
        base: 10000.0,
        p5p6: forum(5, 6)?,
        p105p106: forum(105, 106)?,
        p5p10: forum(5, 10)?,
    };
    dom::text(
        &dom.live,
        &format!(
            "At d = {d}, base {}: p₅·p₆ = {:.4}, p₁₀₅·p₁₀₆ = {:.4}, p₅·p₁₀ = {:.4}",
            crate::math::params::format_base(base),
            stats.p5p6,
            stats.p105p106,
            stats.p5p10
        ),
    );
    dom::text(
        &dom.forum,
        &format!(
            "Forum check (d = 16, base 10000): p₅·p₆ = {:.4}, p₁₀₅·p₁₀₆ = {:.4}, p₅·p₁₀ = {:.4}",
            stats.forum.p5p6, stats.forum.p105p106, stats.forum.p5p10
        ),
    );

    let (i, k_max) = (lesson.sim_position, lesson.sim_max_offset);
    stats.position = i;
    stats.max_offset = k_max;
    stats.curve = dot_curve(i, k_max, d, base)?;
    stats.curve_shifted = dot_curve(i + SHIFT, k_max, d, base)?;
    stats.curve_max_difference = stats
        .curve
        .iter()
        .zip(&stats.curve_shifted)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    if ctx.draw {
        draw_curve(&dom.curve, &stats)?;
    }
    dom::text(
        &dom.curve_readout,
        &format!(
            "From i = {i} and from i = {}: largest difference between the two curves {:.1e}{}",
            i + SHIFT,
            stats.curve_max_difference,
            if d % 2 == 0 {
                " — the similarity depends on the offset k only.".to_string()
            } else {
                format!(
                    " — with odd d = {d} the unpaired last sine column makes it depend on i a little."
                )
            }
        ),
    );

    stats.normalized_n = n;
    stats.normalized_short = normalized_similarity(i, i + 1, n);
    stats.normalized_long = normalized_similarity(i, i + 1, 2 * n);
    stats.sinusoidal_neighbours = stats.curve.get(1).copied().unwrap_or(f64::NAN);
    if ctx.draw {
        draw_normalized(&dom.norm, i, n, k_max)?;
    }
    dom::text(
        &dom.norm_readout,
        &if i + 1 < n {
            format!(
                "Neighbours {i} and {}: (i/n)·((i+1)/n) = {} at n = {n} but {} at n = {} — the same two tokens, a different similarity. p{}·p{} = {:.4} at every n.",
                i + 1,
                format_number(stats.normalized_short),
                format_number(stats.normalized_long),
                2 * n,
                subscript(i),
                subscript(i + 1),
                stats.sinusoidal_neighbours
            )
        } else {
            format!(
                "Position i = {i} has no neighbour inside a sequence of n = {n}: raise n or lower i (p{}·p{} = {:.4} needs no n).",
                subscript(i),
                subscript(i + 1),
                stats.sinusoidal_neighbours
            )
        },
    );

    let rows = encoding_rows(0, 42, d, base)?;
    let near = row_resemblance(rows.view(), 0, 1)?;
    let later = row_resemblance(rows.view(), 40, 41)?;
    stats.distance01 = near.distance;
    stats.distance4041 = later.distance;
    stats.split_column = near.split_column;
    stats.low_frequency_max_difference01 = near.low_frequency_max_difference;
    stats.low_frequency_share01 = near.low_frequency_share;
    stats.low_frequency_max_difference4041 = later.low_frequency_max_difference;
    stats.low_frequency_share4041 = later.low_frequency_share;
    dom::text(
        &dom.distance_readout,
        &if near.split_column < d {
            format!(
                "‖p₀ − p₁‖ = {:.4} and ‖p₄₀ − p₄₁‖ = {:.4}{} Early rows are not special, neighbours are as alike at position 40 as at position 0: the slow columns {}–{} change by at most {} between p₀ and p₁ ({:.2}% of the squared distance) and by at most {} between p₄₀ and p₄₁ ({:.2}%). {}",
                near.distance,
                later.distance,
                if d % 2 == 0 {
                    ": neighbours are equally far apart at every position (the distance depends on the offset only)."
                } else {
                    " (odd d: almost, not exactly, equal)."
                },
                near.split_column,
                d - 1,
                format_number(near.low_frequency_max_difference),
                100.0 * near.low_frequency_share,
                format_number(later.low_frequency_max_difference),
                100.0 * later.low_frequency_share,
                if slow_columns_barely_move(&near) && slow_columns_barely_move(&later) {
                    "Over a few positions these columns barely move, wherever the positions are, so neighbours differ mostly in the fast columns on the left."
                        .to_string()
                } else {
                    format!(
                        "At base {} these columns are not slow enough to stay still: neighbours differ in them too.",
                        crate::math::params::format_base(base)
                    )
                }
            )
        } else {
            format!(
                "‖p₀ − p₁‖ = {:.4}, ‖p₄₀ − p₄₁‖ = {:.4}; with d = {d} there is a single frequency, so there are no slow columns.",
                near.distance, later.distance
            )
        },
    );
    stats.ms = elapsed(started);
    Ok(stats)
}

/// Whether the slow half of two neighbouring rows barely moves (each entry by less than 0.1) and
/// holds less than half of their squared distance, as at base 10000.
fn slow_columns_barely_move(r: &RowResemblance) -> bool {
    r.low_frequency_max_difference < 0.1 && r.low_frequency_share < 0.5
}

/// The heatmap (Gram or distances) and its note; fills the heatmap fields of `stats`. Off screen
/// (`ctx.draw` false) only the numbers are computed; the picture waits until it is scrolled to.
fn draw_heatmap(
    ctx: &mut Ctx,
    dom: &SimilarityDom,
    stats: &mut SimilarityStats,
) -> Result<(), WebError> {
    let (n, d, base) = (ctx.params.n, ctx.params.d, ctx.params.base);
    let canvas = &dom.heatmap;
    let view = ctx.lesson.sim_view;
    let range = (d as f32 / 2.0).ceil();
    let on_gpu = view == SimilarityView::Gram && ctx.backend.is_gpu();
    let cpu_rows = rows_within_budget(n, d, CPU_GRAM_BUDGET);
    let rows = if on_gpu {
        rows_within_budget(n, d, GPU_GRAM_BUDGET).min(GRAM_MAX_POSITIONS)
    } else {
        cpu_rows
    };
    stats.heatmap_rows = rows;
    stats.capped = rows < n;
    stats.heatmap_source = if on_gpu { "webgpu" } else { "cpu" };
    // The constant-diagonal check, on the CPU from the first rows (the GPU's G is never read back).
    let check = rows.min(CHECK_ROWS);
    let p = encoding_rows(0, check, d, base)?;
    stats.diagonal_spread = diagonal_spread(gram(p.view()).view());
    stats.diagonal_spread_rows = check;

    let mut gpu_error = None;
    if ctx.draw && on_gpu {
        let rect = draw_heatmap_frame(
            canvas,
            ctx.scratch,
            rows,
            rows,
            &bar(&diverging_bar_rgba(256, -range, range)),
            &gram_axes(range),
        )?;
        if let Err(error) = ctx.backend.draw_gram(rows, range, rect, canvas) {
            gpu_error = Some(error.to_string());
            stats.heatmap_rows = cpu_rows;
            stats.capped = cpu_rows < n;
            stats.heatmap_source = "cpu";
        }
    }
    if ctx.draw && stats.heatmap_source == "cpu" {
        draw_cpu_heatmap(ctx, canvas, cpu_rows, range)?;
    }
    let what = match view {
        SimilarityView::Gram => "Gram matrix G = P·Pᵀ (diverging map, ±⌈d/2⌉)",
        SimilarityView::Distance => "distances ‖p_i − p_j‖ (viridis, 0 = dark)",
    };
    let source = if stats.heatmap_source == "webgpu" {
        "computed on WebGPU (Gram kernel, drawn by the render pass)"
    } else {
        "computed on the CPU"
    };
    let rows = stats.heatmap_rows;
    let extent = if stats.capped {
        let budget = if stats.heatmap_source == "webgpu" {
            GPU_GRAM_BUDGET
        } else {
            CPU_GRAM_BUDGET
        };
        format!(
            "positions 0–{} only (of n = {n}: r²·d ≤ {:.1e} multiply-adds per redraw keeps the page live)",
            rows - 1,
            budget as f64
        )
    } else {
        if rows == 1 {
            format!("position 0 (all of n = {n})")
        } else {
            format!("positions 0–{} (all of n = {n})", rows - 1)
        }
    };
    let fallback = gpu_error
        .map(|e| format!(" The GPU path failed ({e}); the CPU drew it."))
        .unwrap_or_default();
    dom::text(
        &dom.note,
        &format!(
            "The {what} of {extent}, {source}. {} {:.1e} over the first {}{}.{fallback}",
            if d % 2 == 1 {
                "With odd d the diagonals G[i, i+k] are not exactly constant: largest deviation from a diagonal's mean"
            } else {
                "Every diagonal G[i, i+k] is constant: largest deviation from its mean"
            },
            stats.diagonal_spread,
            plural(stats.diagonal_spread_rows, "row", "rows"),
            if d % 2 == 1 {
                " (the unpaired last sine column)"
            } else {
                " (float32 rounding)"
            }
        ),
    );
    Ok(())
}

/// The colour bar image of one column.
fn bar(pixels: &[u8]) -> RgbaImage<'_> {
    RgbaImage {
        width: 1,
        height: pixels.len() / 4,
        pixels,
    }
}

fn gram_axes(range: f32) -> HeatmapAxes<'static> {
    HeatmapAxes {
        x_desc: "Position j",
        y_desc: "Position i",
        value_range: (-range, range),
        x_names: None,
        y_names: None,
    }
}

/// The CPU heatmap: G of the first `rows` rows (from the CPU's P when it has them), or the
/// distances derived from it.
fn draw_cpu_heatmap(
    ctx: &Ctx,
    canvas: &HtmlCanvasElement,
    rows: usize,
    range: f32,
) -> Result<(), WebError> {
    let (d, base) = (ctx.params.d, ctx.params.base);
    let p: Array2<f32> = if ctx.encoding.nrows() >= rows && ctx.encoding.ncols() == d {
        ctx.encoding.slice(s![..rows, ..]).to_owned()
    } else {
        encoding_rows(0, rows, d, base)?
    };
    let g = gram(p.view());
    let (cells, rect) = match ctx.lesson.sim_view {
        SimilarityView::Gram => {
            let rect = draw_heatmap_frame(
                canvas,
                ctx.scratch,
                rows,
                rows,
                &bar(&diverging_bar_rgba(256, -range, range)),
                &gram_axes(range),
            )?;
            (
                diverging_rgba(g.as_slice().unwrap_or(&[]), -range, range),
                rect,
            )
        }
        SimilarityView::Distance => {
            let distances = distances_from_gram(g.view());
            let values = distances.as_slice().unwrap_or(&[]);
            let top = values.iter().copied().fold(0.0f32, f32::max).max(1e-6);
            let rect = draw_heatmap_frame(
                canvas,
                ctx.scratch,
                rows,
                rows,
                &bar(&sequential_bar_rgba(256, 0.0, top)),
                &HeatmapAxes {
                    value_range: (0.0, top),
                    ..gram_axes(range)
                },
            )?;
            (sequential_rgba(values, 0.0, top), rect)
        }
    };
    paint_cells(
        canvas,
        ctx.scratch,
        &RgbaImage {
            width: rows,
            height: rows,
            pixels: &cells,
        },
        rect,
    )
}

crate::element_table! {
    pub struct SimilarityDom {
        live: HtmlElement = "sim-live",
        forum: HtmlElement = "sim-forum",
        heatmap: HtmlCanvasElement = "sim-heatmap",
        note: HtmlElement = "sim-heatmap-note",
        curve: HtmlCanvasElement = "sim-curve",
        curve_readout: HtmlElement = "sim-curve-readout",
        norm: HtmlCanvasElement = "sim-norm",
        norm_readout: HtmlElement = "sim-norm-readout",
        distance_readout: HtmlElement = "sim-distance-readout",
    }
}

pub struct SimilarityPanel {
    spec: &'static PanelSpec,
    dom: SimilarityDom,
    stats: SimilarityStats,
}

impl SimilarityPanel {
    pub fn mount(spec: &'static PanelSpec) -> Result<Self, WebError> {
        Ok(SimilarityPanel {
            spec,
            dom: SimilarityDom::mount()?,
            stats: SimilarityStats::default(),
        })
    }
}

impl Panel for SimilarityPanel {
    fn spec(&self) -> &'static PanelSpec {
        self.spec
    }

    fn inputs(&self, ctx: &Ctx) -> String {
        let (p, l) = (ctx.params, ctx.lesson);
        format!(
            "{}|{}|{}|{}|{}|{:?}|{}",
            p.n,
            p.d,
            p.base,
            l.sim_position,
            l.sim_max_offset,
            l.sim_view,
            ctx.backend.name()
        )
    }

    fn render(&mut self, ctx: &mut Ctx) -> Result<(), WebError> {
        self.stats = render(ctx, &self.dom)?;
        Ok(())
    }

    fn stats(&self) -> Option<JsValue> {
        Some(to_js(&self.stats))
    }

    fn error_slot(&self) -> &HtmlElement {
        &self.dom.note
    }
}
