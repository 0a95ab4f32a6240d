//! NoPE (Kazemnejad et al. 2023): no positional encoding at all. With a causal mask and equal
//! scores, position t averages the first t values, so a start-of-sequence indicator comes out as
//! 1/t: the first layer can already tell positions apart. Without the mask every position gets
//! 1/n. CPU (`math::nope`) on both backends, over the page's n positions.

use crate::model::inputs::Inputs;
use web_sys::{HtmlCanvasElement, HtmlElement};

use super::{compute, readout, NopeStats};
use crate::web::dom;
use crate::web::error::WebError;
use crate::web::panels::family_charts::{draw_lines, LineChart, Series};
use crate::web::panels::view::View;
use crate::web::panels::Ctx;

fn render(ctx: &mut Ctx, dom: &NopeDom) -> Result<NopeStats, WebError> {
    let stats = compute(ctx.params.n);
    let n = stats.n;
    if ctx.draw {
        let points = |values: &[f64]| -> Vec<(f64, f64)> {
            values
                .iter()
                .enumerate()
                .map(|(t, &v)| (t as f64 + 1.0, v))
                .collect()
        };
        draw_lines(
            &dom.chart,
            &LineChart {
                style: ctx.style,
                x_desc: &crate::message!("figure-nope-x"),
                y_desc: &crate::message!("figure-nope-y"),
                log_x: n > 1,
                log_y: true,
                series: vec![
                    Series {
                        label: crate::message!("figure-nope-legend-causal"),
                        colour: 0,
                        points: points(&stats.causal_outputs),
                        dashed: false,
                        markers: n <= 80,
                        ..Default::default()
                    },
                    Series {
                        label: crate::message!("figure-nope-legend-bidirectional", n = n),
                        colour: 4,
                        points: points(&stats.bidirectional_outputs),
                        dashed: true,
                        markers: n <= 80,
                        ..Default::default()
                    },
                ],
                y_range: None,
                marks: Vec::new(),
            },
        )?;
    }
    dom::text(&dom.readout, &readout(&stats, n));
    dom::text(&dom.takeaway, &super::takeaway::takeaway(&stats));
    Ok(stats)
}

crate::element_table! {
    pub struct NopeDom {
        takeaway: HtmlElement = "nope-takeaway",
        chart: HtmlCanvasElement = "nope-chart",
        readout: HtmlElement = "nope-readout",
    }
}

/// The panel: its elements, the inputs it reads and its view ([`crate::web::panels::view`]).
pub static VIEW: View<NopeDom, NopeStats> = View {
    elements: NopeDom::mount,
    takeaway: |dom| &dom.takeaway,
    inputs: |ctx| Inputs::new().with(ctx.params.n),
    render,
    ms: |stats| &mut stats.ms,
};

crate::web::panels::view::mount_view!(VIEW);
