//! The similarity panel's heatmap: the Gram matrix P·Pᵀ or the distances ‖p_i − p_j‖ of the first
//! rows (see `similarity.rs` for the budgets), and its cell by cell reading.

use ndarray::{s, Array2};
use web_sys::HtmlCanvasElement;

use super::super::dom;
use super::super::draw::heatmap::{draw_heatmap_frame, paint_cells, HeatmapAxes, RgbaImage};
use super::super::error::WebError;
use super::similarity::{
    SimilarityDom, SimilarityStats, CHECK_ROWS, CPU_GRAM_BUDGET, GPU_GRAM_BUDGET,
};
use super::{subscript, Ctx};
use crate::gpu::gram::GRAM_MAX_POSITIONS;
use crate::math::colormap::{
    diverging_bar_rgba, diverging_rgba, sequential_bar_rgba, sequential_rgba,
};
use crate::math::gram::gram;
use crate::math::panels::{distances_from_gram, encoding_rows, rows_within_budget};
use crate::math::similarity::diagonal_spread;
use crate::model::plot::{cell_at, PixelRect};
use crate::model::present::plural;
use crate::model::settings::SimilarityView;

/// The heatmap as drawn, for reading its cells.
pub struct GramView {
    /// Where the cells are, in canvas pixels.
    pub rect: PixelRect,
    /// Rows (and columns) drawn.
    pub rows: usize,
    view: SimilarityView,
    d: usize,
    base: f64,
}

impl GramView {
    /// The cell (i, j) under canvas point (x, y), if any.
    pub fn cell_at(&self, x: f64, y: f64) -> Option<(usize, usize)> {
        cell_at(self.rect, self.rows, self.rows, x, y)
    }

    /// The read-out of cell (i, j): p_i·p_j or ‖p_i − p_j‖, in float64 from float32 rows.
    pub fn describe_cell(&self, i: usize, j: usize) -> Result<String, WebError> {
        let (p, q) = (
            encoding_rows(i, 1, self.d, self.base)?,
            encoding_rows(j, 1, self.d, self.base)?,
        );
        let pairs = || {
            p.iter()
                .zip(q.iter())
                .map(|(&a, &b)| (f64::from(a), f64::from(b)))
        };
        let (si, sj) = (subscript(i), subscript(j));
        let offset = j as i64 - i as i64;
        let value = match self.view {
            SimilarityView::Gram => format!(
                "G[{i}, {j}] = p{si}·p{sj} = {:.4}",
                pairs().map(|(a, b)| a * b).sum::<f64>()
            ),
            SimilarityView::Distance => format!(
                "‖p{si} − p{sj}‖ = {:.4}",
                pairs().map(|(a, b)| (a - b) * (a - b)).sum::<f64>().sqrt()
            ),
        };
        Ok(format!(
            "position i = {i} (row), position j = {j} (column), offset k = {offset}: {value}"
        ))
    }
}

/// The heatmap (Gram or distances) and its note; fills the heatmap fields of `stats`. Off screen
/// (`ctx.draw` false) only the numbers are computed; the picture waits until it is scrolled to.
pub(super) fn draw_heatmap(
    ctx: &mut Ctx,
    dom: &SimilarityDom,
    stats: &mut SimilarityStats,
) -> Result<Option<GramView>, WebError> {
    let (n, d, base) = (ctx.params.n, ctx.params.d, ctx.params.base);
    let canvas = &dom.heatmap;
    let view = ctx.settings.sim_view;
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
    let mut drawn = None;
    if ctx.draw && on_gpu {
        let rect = draw_heatmap_frame(
            canvas,
            ctx.scratch,
            rows,
            rows,
            &bar(&diverging_bar_rgba(256, -range, range)),
            &gram_axes(range),
        )?;
        match ctx.backend.draw_gram(rows, range, rect, canvas) {
            Ok(_) => drawn = Some(rect),
            Err(error) => {
                gpu_error = Some(error.to_string());
                stats.heatmap_rows = cpu_rows;
                stats.capped = cpu_rows < n;
                stats.heatmap_source = "cpu";
            }
        }
    }
    if ctx.draw && stats.heatmap_source == "cpu" {
        drawn = Some(draw_cpu_heatmap(ctx, canvas, cpu_rows, range)?);
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
    Ok(drawn.map(|rect| GramView {
        rect,
        rows: stats.heatmap_rows,
        view,
        d,
        base,
    }))
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
) -> Result<PixelRect, WebError> {
    let (d, base) = (ctx.params.d, ctx.params.base);
    let p: Array2<f32> = if ctx.encoding.nrows() >= rows && ctx.encoding.ncols() == d {
        ctx.encoding.slice(s![..rows, ..]).to_owned()
    } else {
        encoding_rows(0, rows, d, base)?
    };
    let g = gram(p.view());
    let (cells, rect) = match ctx.settings.sim_view {
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
    )?;
    Ok(rect)
}
