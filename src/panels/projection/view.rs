//! The offset projection: pair j of P on the unit circle, the 2×2 matrix of δ that carries every
//! p_i to p_(i+δ), and the largest error of that projection over P.

use crate::model::inputs::Inputs;
use ndarray::s;
use serde::Serialize;
use web_sys::{HtmlCanvasElement, HtmlElement};

use super::takeaway::{self, ProjectionFacts};
use crate::model::export::encoding_csv_head;
use crate::model::export::matrix_csv;
use crate::model::present::{
    matrix_entry, no_pair_canvas, no_pair_note, projection_angle, projection_note,
    projection_point, textbook_note,
};
use crate::web::backend::LocalFuture;
use crate::web::dom;
use crate::web::draw::projection::{draw_projection, projection_numbers, PairColumns, Projection};
use crate::web::error::WebError;
use crate::web::panel::{Ctx, Panel};
use crate::web::panels::canvas_message;

/// `stats.panels.projection`: the takeaway and where the figure's labels went, so that a test
/// can check that none covers another, a point, an arrow or the plot's edge.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ProjectionStats {
    pub takeaway: String,
    pub delta: i64,
    /// Positions drawn with an arrow to their partner i + δ.
    pub arrows: usize,
    pub labels: Vec<String>,
    /// [x0, y0, x1, y1] per label, in the canvas's logical pixels.
    pub label_boxes: Vec<[f64; 4]>,
    /// [x, y, radius] of each point, ring and arc sample the labels keep off.
    pub points: Vec<[f64; 3]>,
    /// [x0, y0, x1, y1, half width] of each arrow stroke and radius they keep off.
    pub lines: Vec<[f64; 5]>,
    /// [x0, y0, x1, y1] of the plot inside the axes.
    pub plot: [f64; 4],
    /// The canvas's logical [width, height].
    pub canvas: [u32; 2],
}

crate::element_table! {
    pub struct ProjectionDom {
        canvas: HtmlCanvasElement = "projection",
        takeaway: HtmlElement = "projection-takeaway",
        note: HtmlElement = "projection-note",
        angle: HtmlElement = "projection-angle",
        point: HtmlElement = "projection-point",
        error: HtmlElement = "projection-error",
        textbook: HtmlElement = "projection-textbook",
        m00: HtmlElement = "m00",
        m01: HtmlElement = "m01",
        m10: HtmlElement = "m10",
        m11: HtmlElement = "m11",
    }
}

pub struct ProjectionPanel {
    dom: ProjectionDom,
    stats: ProjectionStats,
}

impl ProjectionPanel {
    pub fn mount() -> Result<Self, WebError> {
        Ok(ProjectionPanel {
            dom: ProjectionDom::mount()?,
            stats: ProjectionStats::default(),
        })
    }

    fn matrix_cells(&self) -> [&HtmlElement; 4] {
        [&self.dom.m00, &self.dom.m01, &self.dom.m10, &self.dom.m11]
    }

    /// Without a complete pair (d = 1, or no pair column gathered): a message and dashes.
    fn render_no_pair(&mut self, ctx: &mut Ctx) -> Result<(), WebError> {
        let p = ctx.params;
        let lines = no_pair_canvas();
        canvas_message(&self.dom.canvas, &lines)?;
        dom::text(&self.dom.note, &no_pair_note());
        for cell in self.matrix_cells() {
            dom::text(cell, "—");
        }
        dom::text(&self.dom.angle, "");
        dom::text(&self.dom.point, "");
        dom::text(&self.dom.error, "— (no complete pair)");
        dom::text(&self.dom.textbook, "");
        self.dom.textbook.set_hidden(true);
        let takeaway = takeaway::takeaway(&ProjectionFacts {
            has_pair: false,
            pair: p.pair,
            delta: p.delta,
            omega: 0.0,
            partners: 0,
            max_error: 0.0,
            textbook: false,
        });
        dom::text(&self.dom.takeaway, &takeaway);
        self.stats = ProjectionStats {
            takeaway,
            delta: p.delta,
            ..ProjectionStats::default()
        };
        ctx.stats.matrix = Vec::new();
        Ok(())
    }

    /// The matrix, the note, the angle, the point, the error, the textbook's note and the
    /// takeaway; returns the takeaway.
    fn write_texts(&self, ctx: &Ctx, view: &Projection) -> String {
        let (p, m) = (ctx.params, view.matrix);
        for (cell, value) in self
            .matrix_cells()
            .into_iter()
            .zip([m[0][0], m[0][1], m[1][0], m[1][1]])
        {
            dom::text(cell, &matrix_entry(value));
        }
        let source = ctx.frame.source;
        dom::text(
            &self.dom.note,
            &projection_note(p.pair, p.delta, p.first_position, source),
        );
        dom::text(
            &self.dom.angle,
            &projection_angle(p.pair, view.omega, view.angle),
        );
        dom::text(
            &self.dom.point,
            &projection_point(
                p.position,
                p.position as i64 + p.delta,
                view.from,
                view.projected,
                view.target,
            ),
        );
        dom::text(
            &self.dom.error,
            &format!("{:.2e}", ctx.frame.max_projection_error),
        );
        let why = textbook_note(
            source.columns_are_textbook(),
            p.first_position + p.n - 1,
            ctx.frame.textbook_angle_error,
            ctx.frame.max_projection_error,
        );
        self.dom.textbook.set_hidden(why.is_empty());
        dom::text(&self.dom.textbook, &why);
        let takeaway = takeaway::takeaway(&ProjectionFacts {
            has_pair: true,
            pair: p.pair,
            delta: p.delta,
            omega: view.omega,
            // Positions i with a partner i + δ in P (every one of them at δ = 0).
            partners: (ctx.frame.gathered.nrows() as i64 - p.delta.abs()).max(0) as usize,
            max_error: ctx.frame.max_projection_error,
            textbook: source.columns_are_textbook(),
        });
        dom::text(&self.dom.takeaway, &takeaway);
        takeaway
    }
}

impl Panel for ProjectionPanel {
    fn inputs(&self, ctx: &Ctx) -> Inputs {
        Inputs::new().with(ctx.frame_id)
    }

    fn render(&mut self, ctx: &mut Ctx) -> Result<(), WebError> {
        let p = ctx.params;
        let gathered = &ctx.frame.gathered;
        let curves = p.columns.len();
        if !p.has_complete_pair() || gathered.ncols() < curves + 2 {
            return self.render_no_pair(ctx);
        }
        let pair = PairColumns {
            sin: gathered.column(curves),
            cos: gathered.column(curves + 1),
            d: p.d,
            first_position: p.first_position,
        };
        // Off screen, only the numbers: the drawing (every position's arrow and the labels placed
        // clear of them) waits until the panel is seen.
        let view = if ctx.draw {
            draw_projection(
                &self.dom.canvas,
                &pair,
                p.base,
                p.pair,
                p.position_row(),
                p.delta,
                ctx.style,
            )?
        } else {
            projection_numbers(&pair, p.base, p.pair, p.position_row(), p.delta)?
        };
        let m = view.matrix;
        let takeaway = self.write_texts(ctx, &view);
        let rect = |r: &crate::model::plot::PixelRect| [r.x0, r.y0, r.x1, r.y1];
        self.stats = ProjectionStats {
            takeaway,
            delta: p.delta,
            arrows: view.partners,
            labels: view.labels.iter().map(|(text, _)| text.clone()).collect(),
            label_boxes: view.labels.iter().map(|(_, r)| rect(r)).collect(),
            points: view.points,
            lines: view.lines,
            plot: rect(&view.plot),
            canvas: [view.canvas.0, view.canvas.1],
        };
        ctx.stats.matrix = vec![m[0], m[1]];
        Ok(())
    }

    crate::web::panel::stats_in!(stats);

    fn error_slot(&self) -> &HtmlElement {
        &self.dom.note
    }

    fn csv(&self, ctx: &Ctx) -> Option<LocalFuture<Result<String, WebError>>> {
        let p = ctx.params;
        let curves = p.columns.len();
        let result = if ctx.frame.gathered.ncols() < curves + 2 {
            Err(WebError::NotReady(
                "no complete (sin, cos) pair to export at d = 1".into(),
            ))
        } else {
            let labels = [
                format!("col_{}", 2 * p.pair),
                format!("col_{}", 2 * p.pair + 1),
            ];
            let (parameters, row_label) =
                encoding_csv_head(p, ctx.frame.source.columns_are_textbook());
            Ok(matrix_csv(
                "P pair: its sin and cos columns",
                &parameters,
                row_label,
                &labels,
                ctx.frame.gathered.slice(s![.., curves..curves + 2]),
            ))
        };
        Some(Box::pin(async move { result }))
    }
}

/// The panel, mounted (its row of the panel list names this module).
#[inline(always)] // into the list's one `match` (see `crate::panels`)
pub fn mount() -> Result<Box<dyn crate::web::panel::Panel>, crate::web::error::WebError> {
    Ok(Box::new(ProjectionPanel::mount()?))
}
