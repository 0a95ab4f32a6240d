//! Panel 4, similarity and translation invariance: the Gram matrix P·Pᵀ (constant diagonals) or
//! the distances ‖p_i − p_j‖, the curve p_i·p_{i+k} against k from two starting rows, the
//! normalised positions i/n whose similarity changes with n, and the forum's numbers at d = 16.
//!
//! The Gram heatmap: on WebGPU the Gram kernel and the heatmap render pass (nothing read back), of
//! the first rows whose r²·d fits [`GPU_GRAM_BUDGET`]; on the CPU `math::gram` of the first rows
//! within [`CPU_GRAM_BUDGET`] (a visible note says when rows are left out). The distances are
//! always computed on the CPU from a capped Gram matrix. The numbers and sentences come from
//! the panel's numbers (`mod.rs`).
//!
//! [`GPU_GRAM_BUDGET`]: super::GPU_GRAM_BUDGET
//! [`CPU_GRAM_BUDGET`]: super::CPU_GRAM_BUDGET

use crate::model::inputs::Inputs;
use crate::model::panels::PanelId;
use crate::web::surface;
use web_sys::HtmlCanvasElement;

use super::charts::{draw_curve, draw_normalized};
use super::heatmap_view::{draw_heatmap, GramView};
use super::{
    compute, curve_sentence, distance_sentence, forum_sentence, live_sentence, normalized_sentence,
    SimilarityStats,
};
use crate::model::plot::step_cell;
use crate::web::action::{Action, PanelEvent};
use crate::web::dom::{self, now_ms};
use crate::web::error::WebError;
use crate::web::panel::Panel;
use crate::web::panels::reading::{self, Paging};
use crate::web::panels::{elapsed, Ctx};
use web_sys::HtmlElement;

/// The panel's numbers, and its heatmap as drawn (`None` while off screen).
pub fn render(
    ctx: &mut Ctx,
    dom: &SimilarityDom,
) -> Result<(SimilarityStats, Option<GramView>), WebError> {
    let started = now_ms();
    let (params, lesson) = (ctx.params, ctx.settings);
    let (n, d, base) = (params.n, params.d, params.base);
    let (i, k_max) = (lesson.sim_position, lesson.sim_max_offset);
    let mut stats = compute(lesson.sim_view, n, d, base, i, k_max)?;
    let drawn = draw_heatmap(ctx, &dom.heatmap, &dom.note, &mut stats)?;
    if let Some(view) = &drawn {
        let r = view.rect;
        stats.image = surface::backing_rect(&dom.heatmap, (r.x0, r.y0, r.x1, r.y1));
    }
    dom::text(&dom.live, &live_sentence(&stats, base));
    dom::text(&dom.forum, &forum_sentence(&stats));
    if ctx.draw {
        draw_curve(&dom.curve, &stats)?;
    }
    dom::text(&dom.curve_readout, &curve_sentence(&stats));
    if ctx.draw {
        draw_normalized(&dom.norm, i, n, k_max)?;
    }
    dom::text(&dom.norm_readout, &normalized_sentence(&stats));
    dom::text(&dom.distance_readout, &distance_sentence(&stats, base));
    dom::text(&dom.takeaway, &super::takeaway::takeaway(&stats));
    stats.ms = elapsed(started);
    Ok((stats, drawn))
}

crate::element_table! {
    pub struct SimilarityDom {
        live: HtmlElement = "sim-live",
        forum: HtmlElement = "sim-forum",
        heatmap: HtmlCanvasElement = "sim-heatmap",
        tooltip: HtmlElement = "sim-tooltip",
        hover: HtmlElement = "sim-hover",
        note: HtmlElement = "sim-heatmap-note",
        curve: HtmlCanvasElement = "sim-curve",
        curve_readout: HtmlElement = "sim-curve-readout",
        norm: HtmlCanvasElement = "sim-norm",
        norm_readout: HtmlElement = "sim-norm-readout",
        distance_readout: HtmlElement = "sim-distance-readout",
        takeaway: HtmlElement = "similarity-takeaway",
    }
}

pub struct SimilarityPanel {
    dom: SimilarityDom,
    stats: SimilarityStats,
    /// The heatmap as drawn, for reading its cells.
    view: Option<GramView>,
    /// The cell read from the keyboard (i, j).
    cursor: (usize, usize),
}

impl SimilarityPanel {
    pub fn mount() -> Result<Self, WebError> {
        Ok(SimilarityPanel {
            dom: SimilarityDom::mount()?,
            stats: SimilarityStats::default(),
            view: None,
            cursor: (0, 0),
        })
    }
}

impl Panel for SimilarityPanel {
    fn inputs(&self, ctx: &Ctx) -> Inputs {
        let (p, l) = (ctx.params, ctx.settings);
        Inputs::new()
            .with(p.n)
            .with(p.d)
            .with(p.base)
            .with(l.sim_position)
            .with(l.sim_max_offset)
            .with_parts(&l.sim_view)
            .with(ctx.backend.name())
    }

    fn render(&mut self, ctx: &mut Ctx) -> Result<(), WebError> {
        let (stats, view) = render(ctx, &self.dom)?;
        self.stats = stats;
        if view.is_some() || !ctx.draw {
            self.view = view;
        }
        self.dom.tooltip.set_hidden(true);
        Ok(())
    }

    crate::web::panel::stats_in!(stats);

    fn error_slot(&self) -> &HtmlElement {
        &self.dom.note
    }

    fn wire(&self, panel: PanelId, send: fn(Action)) -> Result<(), WebError> {
        reading::wire(&self.dom.heatmap, panel, send, Paging::Rows)
    }

    fn event(&mut self, _ctx: &mut Ctx, event: PanelEvent) -> Result<bool, WebError> {
        let (canvas, tooltip) = (&self.dom.heatmap, &self.dom.tooltip);
        let Some(view) = &self.view else {
            tooltip.set_hidden(true);
            return Ok(false);
        };
        let cell = match event {
            PanelEvent::Pointer { x, y } => {
                let (cx, cy) = reading::to_canvas(canvas, x, y);
                view.cell_at(cx, cy).map(|cell| (cell, (x, y)))
            }
            PanelEvent::Cursor { rows, columns } => {
                self.cursor = step_cell(self.cursor, (rows, columns), (view.rows, view.rows));
                let size = (view.rows, view.rows);
                Some((
                    self.cursor,
                    reading::cell_centre(canvas, view.rect, size, self.cursor),
                ))
            }
            _ => None,
        };
        match cell {
            Some(((i, j), at)) => {
                let text = view.describe_cell(i, j)?;
                reading::show(canvas, tooltip, &self.dom.hover, &text, at);
            }
            None => tooltip.set_hidden(true),
        }
        Ok(false)
    }
}

/// The panel, mounted (its row of the panel list names this module).
#[inline(always)] // into the list's one `match` (see `crate::panels`)
pub fn mount() -> Result<Box<dyn crate::web::panel::Panel>, crate::web::error::WebError> {
    Ok(Box::new(SimilarityPanel::mount()?))
}
