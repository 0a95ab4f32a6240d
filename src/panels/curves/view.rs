//! The chapter's figure: chosen columns of P against position, from the columns the frame
//! gathered (on WebGPU only those are read back).

use crate::model::inputs::Inputs;
use ndarray::{s, ArrayView1};
use web_sys::{HtmlCanvasElement, HtmlElement};

use crate::model::export::encoding_csv_head;
use crate::model::export::matrix_csv;
use crate::model::present::curves_summary;
use crate::web::backend::LocalFuture;
use crate::web::dom;
use crate::web::draw::curves::{curves_svg, draw_curves};
use crate::web::error::WebError;
use crate::web::panel::{Ctx, Panel};

crate::element_table! {
    pub struct CurvesDom {
        canvas: HtmlCanvasElement = "curves",
        summary: HtmlElement = "curves-summary",
        takeaway: HtmlElement = "curves-takeaway",
    }
}

/// The SVG export's size in pixels.
const SVG_SIZE: (u32, u32) = (900, 560);

pub struct CurvesPanel {
    dom: CurvesDom,
}

impl CurvesPanel {
    pub fn mount() -> Result<Self, WebError> {
        Ok(CurvesPanel {
            dom: CurvesDom::mount()?,
        })
    }
}

/// (column, values) of each curve: the first columns the frame gathered.
fn series<'a>(ctx: &'a Ctx) -> Vec<(usize, ArrayView1<'a, f32>)> {
    let gathered = &ctx.frame.gathered;
    ctx.params
        .columns
        .iter()
        .take(gathered.ncols())
        .enumerate()
        .map(|(k, &c)| (c, gathered.column(k)))
        .collect()
}

impl Panel for CurvesPanel {
    fn inputs(&self, ctx: &Ctx) -> Inputs {
        Inputs::new().with(ctx.frame_id)
    }

    fn render(&mut self, ctx: &mut Ctx) -> Result<(), WebError> {
        let p = ctx.params;
        let (n, d, base, first) = (p.n, p.d, p.base, p.first_position);
        draw_curves(&self.dom.canvas, &series(ctx), d, base, first, ctx.style)?;
        dom::text(
            &self.dom.summary,
            &curves_summary(&p.columns, n, first, ctx.frame.source),
        );
        dom::text(
            &self.dom.takeaway,
            &super::takeaway::takeaway(&p.columns, d, base, first),
        );
        Ok(())
    }

    fn error_slot(&self) -> &HtmlElement {
        &self.dom.summary
    }

    fn csv(&self, ctx: &Ctx) -> Option<LocalFuture<Result<String, WebError>>> {
        let p = ctx.params;
        let count = p.columns.len().min(ctx.frame.gathered.ncols());
        let labels: Vec<String> = p.columns.iter().map(|c| format!("col_{c}")).collect();
        let (parameters, row_label) = encoding_csv_head(p, ctx.frame.source.columns_are_textbook());
        let csv = matrix_csv(
            &crate::message!("label-csv-p-columns"),
            &parameters,
            row_label,
            &labels[..count],
            ctx.frame.gathered.slice(s![.., 0..count]),
        );
        Some(Box::pin(async move { Ok(csv) }))
    }

    fn svg(&self, ctx: &Ctx) -> Option<Result<String, WebError>> {
        Some(curves_svg(
            &series(ctx),
            ctx.params.d,
            ctx.params.base,
            ctx.params.first_position,
            SVG_SIZE,
            ctx.style,
        ))
    }
}

/// The panel, mounted (its row of the panel list names this module).
#[inline(always)] // into the list's one `match` (see `crate::panels`)
pub fn mount() -> Result<Box<dyn crate::web::panel::Panel>, crate::web::error::WebError> {
    Ok(Box::new(CurvesPanel::mount()?))
}
