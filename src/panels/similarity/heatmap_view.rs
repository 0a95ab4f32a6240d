//! The similarity panel's heatmap: the Gram matrix P·Pᵀ or the distances ‖p_i − p_j‖ of the first
//! rows (see the panel's `mod.rs` for the budgets), and its cell by cell reading.

use ndarray::{s, Array2};
use web_sys::HtmlCanvasElement;

use super::{describe_cell, diagonal_check, heatmap_note, heatmap_plan, SimilarityStats};
use crate::gpu::gram::GRAM_MAX_POSITIONS;
use crate::math::colormap::{
    diverging_bar_rgba, diverging_rgba, sequential_bar_rgba, sequential_rgba,
};
use crate::math::gram::gram;
use crate::math::measures::{distances_from_gram, encoding_rows};
use crate::model::plot::{cell_at, PixelRect};
use crate::model::settings::SimilarityView;
use crate::web::dom;
use crate::web::draw::heatmap::{draw_styled_heatmap_frame, paint_cells, HeatmapAxes, RgbaImage};
use crate::web::error::WebError;
use crate::web::panels::Ctx;

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
        Ok(describe_cell(self.view, self.d, self.base, i, j)?)
    }
}

/// The heatmap (Gram or distances) and its note; fills the heatmap fields of `stats`. Off screen
/// (`ctx.draw` false) only the numbers are computed; the picture waits until it is scrolled to.
pub(super) fn draw_heatmap(
    ctx: &mut Ctx,
    canvas: &HtmlCanvasElement,
    note: &web_sys::HtmlElement,
    stats: &mut SimilarityStats,
) -> Result<Option<GramView>, WebError> {
    let (n, d, base) = (ctx.params.n, ctx.params.d, ctx.params.base);
    let view = ctx.settings.sim_view;
    let range = (d as f32 / 2.0).ceil();
    let plan = heatmap_plan(view, ctx.backend.is_gpu(), n, d, GRAM_MAX_POSITIONS);
    let (on_gpu, rows, cpu_rows) = (plan.on_gpu, plan.rows, plan.cpu_rows);
    stats.set_heatmap(rows, on_gpu);
    (stats.diagonal_spread, stats.diagonal_spread_rows) = diagonal_check(rows, d, base)?;

    let mut gpu_error = None;
    let mut drawn = None;
    if ctx.draw && on_gpu {
        let rect = gram_frame(ctx, canvas, rows, range)?;
        match ctx
            .backend
            .draw_on_gpu(|gpu| gpu.draw_gram(rows, range, rect, canvas))
        {
            Ok(_) => drawn = Some(rect),
            Err(error) => {
                gpu_error = Some(error.to_string());
                stats.set_heatmap(cpu_rows, false);
            }
        }
    }
    if ctx.draw && stats.heatmap_source == "cpu" {
        drawn = Some(draw_cpu_heatmap(ctx, canvas, cpu_rows, range)?);
    }
    dom::text(note, &heatmap_note(stats, view, gpu_error.as_deref()));
    Ok(drawn.map(|rect| GramView {
        rect,
        rows: stats.heatmap_rows,
        view,
        d,
        base,
    }))
}

/// The frame of G (`rows` × `rows`) on the diverging map over [−range, range], where the GPU or
/// the CPU paints its cells.
fn gram_frame(
    ctx: &Ctx,
    canvas: &HtmlCanvasElement,
    rows: usize,
    range: f32,
) -> Result<PixelRect, WebError> {
    draw_styled_heatmap_frame(
        canvas,
        ctx.scratch,
        (rows, rows),
        &bar(&diverging_bar_rgba(256, -range, range)),
        &gram_axes(range, &position_names()),
        ctx.style,
    )
}

/// The colour bar image of one column.
fn bar(pixels: &[u8]) -> RgbaImage<'_> {
    RgbaImage {
        width: 1,
        height: pixels.len() / 4,
        pixels,
    }
}

/// The Gram matrix's axis titles, for [`gram_axes`].
fn position_names() -> (String, String) {
    (
        crate::message!("label-axis-position-j"),
        crate::message!("label-axis-position-i"),
    )
}

fn gram_axes(range: f32, (x_desc, y_desc): &(String, String)) -> HeatmapAxes<'_> {
    HeatmapAxes {
        x_desc,
        y_desc,
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
            let rect = gram_frame(ctx, canvas, rows, range)?;
            (
                diverging_rgba(g.as_slice().unwrap_or(&[]), -range, range),
                rect,
            )
        }
        SimilarityView::Distance => {
            let distances = distances_from_gram(g.view());
            let values = distances.as_slice().unwrap_or(&[]);
            let top = values.iter().copied().fold(0.0f32, f32::max).max(1e-6);
            let rect = draw_styled_heatmap_frame(
                canvas,
                ctx.scratch,
                (rows, rows),
                &bar(&sequential_bar_rgba(256, 0.0, top)),
                &HeatmapAxes {
                    value_range: (0.0, top),
                    ..gram_axes(range, &position_names())
                },
                ctx.style,
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
