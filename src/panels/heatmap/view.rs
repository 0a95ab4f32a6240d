//! The heatmap of P: its cells are painted by the backend (ImageData on the CPU, a render pass on
//! WebGPU) into the axes the frame drew; this panel writes P's numbers and read-out, and reads
//! cells under the pointer or, from the keyboard, a cursor cell.

use crate::model::inputs::Inputs;
use crate::model::panels::PanelId;
use crate::web::surface;
use web_sys::{HtmlCanvasElement, HtmlElement};

use crate::math::encoding::{frequency_count, period};
use crate::model::export::{encoding_csv, matrix_csv, numbered_columns};
use crate::model::plot::{cell_at, step_cell};
use crate::model::present::{encoding_cell, encoding_summary, EncodingSummary};
use crate::web::action::{Action, PanelEvent};
use crate::web::backend::{paint_waiting_heatmap, LocalFuture};
use crate::web::dom;
use crate::web::error::WebError;
use crate::web::panel::{Ctx, Panel};
use crate::web::panels::reading::{self, Paging};

crate::element_table! {
    pub struct HeatmapDom {
        canvas: HtmlCanvasElement = "heatmap",
        tooltip: HtmlElement = "heatmap-tooltip",
        summary: HtmlElement = "summary-p",
        hover: HtmlElement = "heatmap-hover",
        takeaway: HtmlElement = "heatmap-takeaway",
    }
}

pub struct HeatmapPanel {
    dom: HeatmapDom,
    /// The cell read from the keyboard (row, column).
    cursor: (usize, usize),
}

impl HeatmapPanel {
    pub fn mount() -> Result<Self, WebError> {
        Ok(HeatmapPanel {
            dom: HeatmapDom::mount()?,
            cursor: (0, 0),
        })
    }

    /// Shows cell (row, column) of P in the tooltip (near CSS point x, y) and the read-out.
    fn show_cell(&self, ctx: &Ctx, row: usize, column: usize, x_css: f64, y_css: f64) {
        let d = ctx.params.d;
        let first = ctx.params.first_position;
        let textbook = ctx.frame.source.heatmap_is_textbook();
        // One value (read back from the GPU on WebGPU); a stale answer, the pointer having moved
        // on, is simply overwritten by the next.
        let read = ctx.backend.read_value(ctx.frame, row * d + column);
        let (canvas, tooltip, hover) = (
            self.dom.canvas.clone(),
            self.dom.tooltip.clone(),
            self.dom.hover.clone(),
        );
        wasm_bindgen_futures::spawn_local(async move {
            if let Ok(value) = read.await {
                let text = encoding_cell(row, column, value, first, textbook);
                reading::show(&canvas, &tooltip, &hover, &text, (x_css, y_css));
            }
        });
    }
}

impl Panel for HeatmapPanel {
    fn inputs(&self, ctx: &Ctx) -> Inputs {
        Inputs::new().with(ctx.frame_id)
    }

    fn render(&mut self, ctx: &mut Ctx) -> Result<(), WebError> {
        let (n, d, base) = (ctx.params.n, ctx.params.d, ctx.params.base);
        let frequencies = frequency_count(d);
        let summary = EncodingSummary {
            n,
            d,
            p_min: ctx.frame.p_min,
            p_max: ctx.frame.p_max,
            frequencies,
            shortest_period: period(0, d, base),
            longest_period: period(frequencies - 1, d, base),
            first_position: ctx.params.first_position,
            source: ctx.frame.source,
        };
        dom::text(&self.dom.summary, &encoding_summary(&summary));
        dom::text(
            &self.dom.takeaway,
            &super::takeaway::takeaway(d, base, ctx.params.first_position),
        );
        self.dom.tooltip.set_hidden(true);
        let rect = ctx.heatmap_rect;
        if ctx.draw {
            paint_waiting_heatmap(ctx.frame, rect, ctx.encoding_canvas, ctx.scratch)?;
        }
        let stats = &mut *ctx.stats;
        stats.max_projection_error = ctx.frame.max_projection_error;
        stats.p_min = ctx.frame.p_min;
        stats.p_max = ctx.frame.p_max;
        stats.rows = n;
        stats.columns = d;
        stats.frequencies = frequencies;
        stats.shortest_period = summary.shortest_period;
        stats.longest_period = summary.longest_period;
        stats.heatmap_image =
            surface::backing_rect(ctx.encoding_canvas, (rect.x0, rect.y0, rect.x1, rect.y1));
        stats.textbook = ctx.frame.source.columns_are_textbook();
        stats.first_position = ctx.params.first_position;
        Ok(())
    }

    fn error_slot(&self) -> &HtmlElement {
        &self.dom.summary
    }

    fn encoding_canvas(&self) -> Option<&HtmlCanvasElement> {
        Some(&self.dom.canvas)
    }

    fn wire(&self, panel: PanelId, send: fn(Action)) -> Result<(), WebError> {
        // Keyboard reading: the arrow keys move a cursor cell (Home/End: first/last column,
        // PageUp/PageDown: 10 rows).
        reading::wire(&self.dom.canvas, panel, send, Paging::Rows)
    }

    fn event(&mut self, ctx: &mut Ctx, event: PanelEvent) -> Result<bool, WebError> {
        let canvas = &self.dom.canvas;
        let (n, d) = (ctx.params.n, ctx.params.d);
        match event {
            PanelEvent::Pointer { x, y } => {
                let (cx, cy) = reading::to_canvas(canvas, x, y);
                match cell_at(ctx.heatmap_rect, n, d, cx, cy) {
                    Some((row, column)) => {
                        // The keyboard goes on from the cell last pointed at or tapped.
                        self.cursor = (row, column);
                        self.show_cell(ctx, row, column, x, y)
                    }
                    None => self.dom.tooltip.set_hidden(true),
                }
            }
            PanelEvent::Leave => self.dom.tooltip.set_hidden(true),
            PanelEvent::Cursor { rows, columns } => {
                self.cursor = step_cell(self.cursor, (rows, columns), (n, d));
                let (row, column) = self.cursor;
                let (x, y) = reading::cell_centre(canvas, ctx.heatmap_rect, (n, d), self.cursor);
                self.show_cell(ctx, row, column, x, y);
            }
            _ => {}
        }
        Ok(false)
    }

    fn csv(&self, ctx: &Ctx) -> Option<LocalFuture<Result<String, WebError>>> {
        let (n, d, base) = (ctx.params.n, ctx.params.d, ctx.params.base);
        let read = ctx.backend.read_encoding(ctx.frame, n, d);
        let textbook = ctx.frame.source.heatmap_is_textbook();
        let plain = ctx.params.first_position == 0 && !textbook;
        let (parameters, row_label) = crate::model::export::encoding_csv_head(ctx.params, textbook);
        Some(Box::pin(async move {
            let p = read.await?;
            if plain {
                return Ok(encoding_csv(p.view(), base));
            }
            Ok(matrix_csv(
                "P",
                &parameters,
                row_label,
                &numbered_columns("col_", d),
                p.view(),
            ))
        }))
    }
}

/// The panel, mounted (its row of the panel list names this module).
#[inline(always)] // into the list's one `match` (see `crate::panels`)
pub fn mount() -> Result<Box<dyn crate::web::panel::Panel>, crate::web::error::WebError> {
    Ok(Box::new(HeatmapPanel::mount()?))
}
