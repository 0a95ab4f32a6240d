//! NoPE (Kazemnejad et al. 2023): no positional encoding at all. With a causal mask and equal
//! scores, position t averages the first t values, so a start-of-sequence indicator comes out as
//! 1/t: the first layer can already tell positions apart. Without the mask every position gets
//! 1/n. CPU (`math::nope`) on both backends, over the page's n positions.

use crate::model::inputs::Inputs;
use plotters::prelude::SeriesLabelPosition;
use wasm_bindgen::JsValue;
use web_sys::{HtmlCanvasElement, HtmlElement};

use super::super::dom::{self, now_ms};
use super::super::error::WebError;
use super::super::panel::{to_js, Panel, PanelSpec};
use super::family_charts::{draw_lines, LineChart, Series};
use super::{elapsed, format_number, Ctx};
use crate::model::nope::{compute, NopeStats};

fn render(ctx: &mut Ctx, dom: &NopeDom) -> Result<NopeStats, WebError> {
    let started = now_ms();
    let mut stats = compute(ctx.params.n);
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
                x_desc: "Position t (log)",
                y_desc: "Output of the start indicator (log)",
                log_x: n > 1,
                log_y: true,
                series: vec![
                    Series {
                        label: "causal: 1/t".into(),
                        colour: 0,
                        points: points(&stats.causal_outputs),
                        dashed: false,
                        markers: n <= 80,
                    },
                    Series {
                        label: format!("bidirectional: 1/{n}"),
                        colour: 5,
                        points: points(&stats.bidirectional_outputs),
                        dashed: true,
                        markers: n <= 80,
                    },
                ],
                y_range: None,
                legend: SeriesLabelPosition::UpperRight,
                marks: Vec::new(),
            },
        )?;
    }
    let at = |t: usize| {
        stats
            .causal_outputs
            .get(t - 1)
            .map_or("—".into(), |&v| format_number(v))
    };
    dom::text(
        &dom.readout,
        &format!(
            "No encoding, equal scores, one feature: 1 on the first token, 0 elsewhere. With the causal mask, position t averages the first t tokens: output {} at t = 1, {} at t = 2, {} at t = {n} (largest difference from 1/t: {}), every position a different value{} — a function of the position, computed by the layer. Without the mask every position averages all {n} tokens and gets {} (difference from 1/n: {}): nothing tells them apart. So a causal decoder can represent positions without P; a bidirectional layer without any position cannot (it is permutation-equivariant: see the order panel).",
            at(1),
            if n >= 2 { at(2) } else { "—".into() },
            at(n.max(1)),
            format_number(stats.causal_error),
            if stats.causal_distinct { "" } else { " (n = 1: one position)" },
            stats
                .bidirectional_outputs
                .first()
                .map_or("—".into(), |&v| format_number(v)),
            format_number(stats.bidirectional_error),
        ),
    );
    stats.ms = elapsed(started);
    Ok(stats)
}

crate::element_table! {
    pub struct NopeDom {
        chart: HtmlCanvasElement = "nope-chart",
        readout: HtmlElement = "nope-readout",
    }
}

pub struct NopePanel {
    spec: &'static PanelSpec,
    dom: NopeDom,
    stats: NopeStats,
}

impl NopePanel {
    pub fn mount(spec: &'static PanelSpec) -> Result<Self, WebError> {
        Ok(NopePanel {
            spec,
            dom: NopeDom::mount()?,
            stats: NopeStats::default(),
        })
    }
}

impl Panel for NopePanel {
    fn spec(&self) -> &'static PanelSpec {
        self.spec
    }

    fn inputs(&self, ctx: &Ctx) -> Inputs {
        Inputs::new().with(ctx.params.n)
    }

    fn render(&mut self, ctx: &mut Ctx) -> Result<(), WebError> {
        self.stats = render(ctx, &self.dom)?;
        Ok(())
    }

    fn stats(&self) -> Option<JsValue> {
        Some(to_js(&self.stats))
    }

    fn error_slot(&self) -> &HtmlElement {
        &self.dom.readout
    }
}
