//! A learned absolute table (BERT, GPT-2): E has one row per position 0 … L_max − 1, added to
//! the token at that position. Here E is only initialised (seeded N(0, 0.02²), the models'
//! `initializer_range`): training comes later. Beside it the sinusoid, which has a row for every
//! position. CPU (`math::learned`) on both backends.

use crate::model::inputs::Inputs;
use web_sys::{HtmlCanvasElement, HtmlElement};

use super::{compute, figure_values, readout, LearnedStats, SHOWN_COLUMNS};
use crate::math::learned::INIT_STD;
use crate::web::dom::{self, now_ms};
use crate::web::error::WebError;
use crate::web::panels::family_charts::{draw_matrix, Scale};
use crate::web::panels::view::View;
use crate::web::panels::{elapsed, Ctx};

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
    dom::text(&dom.takeaway, &super::takeaway::takeaway(&stats));
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

/// The panel: its elements, the inputs it reads and its view ([`crate::web::panels::view`]).
pub static VIEW: View<LearnedDom, LearnedStats> = View {
    elements: LearnedDom::mount,
    takeaway: |dom| &dom.takeaway,
    inputs: |ctx| {
        Inputs::new()
            .with(ctx.params.d)
            .with(ctx.params.n)
            .with(ctx.params.base)
            .with(ctx.settings.learned_max)
            .with(ctx.settings.seed)
    },
    render,
};

crate::web::panels::view::mount_view!(VIEW);
