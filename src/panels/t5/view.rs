//! T5's relative position buckets (Raffel et al. 2020, `relative_position_bucket`): 32 buckets,
//! max_distance 128; bidirectional (the encoder) gives 16 per direction, distances 0–7 exact, then
//! logarithmic up to 128, and every farther distance shares the last bucket; the decoder's causal
//! layout uses all 32 for the past. Each head learns one scalar bias per bucket. CPU
//! (`math::t5`) on both backends.

use crate::model::inputs::Inputs;
use web_sys::{HtmlCanvasElement, HtmlElement};

use super::{compute, readout, T5Stats};
use crate::web::dom;
use crate::web::error::WebError;
use crate::web::panels::family_charts::{draw_lines, LineChart, Series};
use crate::web::panels::view::View;
use crate::web::panels::Ctx;

fn render(ctx: &mut Ctx, dom: &T5Dom) -> Result<T5Stats, WebError> {
    let stats = compute(ctx.settings.t5_range)?;
    let range = stats.range as i64;
    if ctx.draw {
        let points = |values: &[usize]| -> Vec<(f64, f64)> {
            values
                .iter()
                .enumerate()
                .map(|(k, &b)| ((k as i64 - range) as f64, b as f64))
                .collect()
        };
        draw_lines(
            &dom.chart,
            &LineChart {
                style: ctx.style,
                x_desc: &crate::message!("figure-t5-x"),
                y_desc: &crate::message!("figure-t5-y"),
                log_x: false,
                log_y: false,
                series: vec![
                    Series {
                        label: crate::message!("figure-t5-legend-encoder"),
                        colour: 0,
                        points: points(&stats.buckets),
                        dashed: false,
                        markers: stats.range <= 40,
                        ..Default::default()
                    },
                    Series {
                        label: crate::message!("figure-t5-legend-decoder"),
                        colour: 4,
                        points: points(&stats.causal_buckets),
                        dashed: true,
                        markers: false,
                        ..Default::default()
                    },
                ],
                // Headroom above the last bucket (31) for the names of the ±91 marks, which are
                // written at the top of the plot where the lines would otherwise cross them.
                y_range: Some((-1.0, stats.num_buckets as f64 + 2.5)),
                marks: vec![
                    (
                        -(stats.first_in_last_bucket as f64),
                        format!("−{}", stats.first_in_last_bucket),
                    ),
                    (
                        stats.first_in_last_bucket as f64,
                        format!("{}", stats.first_in_last_bucket),
                    ),
                ]
                .into_iter()
                .filter(|(x, _)| x.abs() <= range as f64)
                .collect(),
            },
        )?;
    }
    dom::text(&dom.readout, &readout(&stats));
    dom::text(&dom.takeaway, &super::takeaway::takeaway(&stats));
    Ok(stats)
}

crate::element_table! {
    pub struct T5Dom {
        takeaway: HtmlElement = "t5-takeaway",
        chart: HtmlCanvasElement = "t5-chart",
        readout: HtmlElement = "t5-readout",
    }
}

/// The panel: its elements, the inputs it reads and its view ([`crate::web::panels::view`]).
pub static VIEW: View<T5Dom, T5Stats> = View {
    elements: T5Dom::mount,
    takeaway: |dom| &dom.takeaway,
    inputs: |ctx| Inputs::new().with(ctx.settings.t5_range),
    render,
    ms: |stats| &mut stats.ms,
};

crate::web::panels::view::mount_view!(VIEW);
