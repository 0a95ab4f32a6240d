//! A learned absolute table (BERT, GPT-2): E has one row per position 0 … L_max − 1, added to
//! the token at that position. Here E is only initialised (seeded N(0, 0.02²), the models'
//! `initializer_range`): training comes later. Beside it the sinusoid, which has a row for every
//! position. CPU (`math::learned`) on both backends.

use crate::model::inputs::Inputs;
use wasm_bindgen::JsValue;
use web_sys::{HtmlCanvasElement, HtmlElement};

use super::super::dom::{self, now_ms};
use super::super::error::WebError;
use super::super::panel::{to_js, Panel, PanelSpec};
use super::family_charts::{draw_matrix, Scale};
use super::{elapsed, Ctx};
use crate::math::learned::INIT_STD;
use crate::model::learned::{compute, figure_values, readout, LearnedStats, SHOWN_COLUMNS};
use crate::model::takeaway_beyond;

fn render(ctx: &mut Ctx, dom: &LearnedDom) -> Result<LearnedStats, WebError> {
    let started = now_ms();
    let (p, l) = (ctx.params, ctx.settings);
    let learned = compute(p.d, p.n, p.base, l.learned_max, l.seed)?;
    let stats = learned.stats;
    if ctx.draw {
        let columns = stats.d.min(SHOWN_COLUMNS);
        draw_matrix(
            &dom.table,
            ctx.scratch,
            &figure_values(&learned.rows, stats.shown_rows, columns),
            (stats.shown_rows, columns),
            Scale::Diverging((3.0 * INIT_STD) as f32),
            (
                crate::message!("label-axis-column").as_str(),
                crate::message!("figure-learned-table-y").as_str(),
            ),
            (None, None),
        )?;
    }
    dom::text(&dom.readout, &readout(&stats));
    dom::text(&dom.takeaway, &takeaway_beyond::learned(&stats));
    Ok(LearnedStats {
        ms: elapsed(started),
        ..stats
    })
}

crate::element_table! {
    pub struct LearnedDom {
        takeaway: HtmlElement = "learned-takeaway",
        table: HtmlCanvasElement = "learned-table",
        readout: HtmlElement = "learned-readout",
    }
}

pub struct LearnedPanel {
    spec: &'static PanelSpec,
    dom: LearnedDom,
    stats: LearnedStats,
}

impl LearnedPanel {
    pub fn mount(spec: &'static PanelSpec) -> Result<Self, WebError> {
        Ok(LearnedPanel {
            spec,
            dom: LearnedDom::mount()?,
            stats: LearnedStats::default(),
        })
    }
}

impl Panel for LearnedPanel {
    fn spec(&self) -> &'static PanelSpec {
        self.spec
    }

    fn inputs(&self, ctx: &Ctx) -> Inputs {
        Inputs::new()
            .with(ctx.params.d)
            .with(ctx.params.n)
            .with(ctx.params.base)
            .with(ctx.settings.learned_max)
            .with(ctx.settings.seed)
    }

    fn render(&mut self, ctx: &mut Ctx) -> Result<(), WebError> {
        self.stats = render(ctx, &self.dom)?;
        Ok(())
    }

    fn stats(&self) -> Option<JsValue> {
        Some(to_js(&self.stats))
    }

    // The takeaway, not a read-out behind "More": a reader sees the failure.
    fn error_slot(&self) -> &HtmlElement {
        &self.dom.takeaway
    }
}
