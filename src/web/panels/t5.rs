//! T5's relative position buckets (Raffel et al. 2020, `relative_position_bucket`): 32 buckets,
//! max_distance 128; bidirectional (the encoder) gives 16 per direction, distances 0–7 exact, then
//! logarithmic up to 128, and every farther distance shares the last bucket; the decoder's causal
//! layout uses all 32 for the past. Each head learns one scalar bias per bucket. CPU
//! (`math::t5`) on both backends.

use crate::model::inputs::Inputs;
use plotters::prelude::SeriesLabelPosition;
use wasm_bindgen::JsValue;
use web_sys::{HtmlCanvasElement, HtmlElement};

use super::super::dom::{self, now_ms};
use super::super::error::WebError;
use super::super::panel::{to_js, Panel, PanelSpec};
use super::family_charts::{draw_lines, LineChart, Series};
use super::{elapsed, Ctx};
use crate::model::t5::{compute, T5Stats};

fn render(ctx: &mut Ctx, dom: &T5Dom) -> Result<T5Stats, WebError> {
    let started = now_ms();
    let mut stats = compute(ctx.settings.t5_range)?;
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
                x_desc: "Relative position δ = key − query",
                y_desc: "Bucket",
                log_x: false,
                log_y: false,
                series: vec![
                    Series {
                        label: "encoder".into(),
                        colour: 0,
                        points: points(&stats.buckets),
                        dashed: false,
                        markers: stats.range <= 40,
                    },
                    Series {
                        label: "decoder (causal)".into(),
                        colour: 5,
                        points: points(&stats.causal_buckets),
                        dashed: true,
                        markers: false,
                    },
                ],
                y_range: Some((-1.0, stats.num_buckets as f64)),
                legend: SeriesLabelPosition::MiddleLeft,
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
    let bucket_of = |k: i64| {
        stats
            .buckets
            .get((k + range) as usize)
            .map_or("—".to_string(), |b| b.to_string())
    };
    dom::text(
        &dom.readout,
        &format!(
            "{} buckets, max_distance {}, bidirectional: keys before the query (and the query's own key, bucket 0) use buckets 0–{}, keys after it {}–{} (bucket {} is never used: distance 1 after the query is already {}). Distances 0–{} get a bucket each; from {} to {} the bucket grows with the logarithm of the distance; every distance ≥ {} in one direction shares the last bucket ({} before, {} after). Examples: δ = −1 → {}, −8 → {}, −20 → {}, −90 → {}, −91 → {}, +5 → {}, +{} → {}. Over −{range} … {range} the page uses {} different buckets; each head adds its own learned scalar per bucket to the scores (enc = t5 in the attention panels draws them seeded, untrained). The causal decoder layout puts all 32 on the past: its last bucket starts at distance {}.",
            stats.num_buckets,
            stats.max_distance,
            stats.num_buckets / 2 - 1,
            stats.num_buckets / 2,
            stats.num_buckets - 1,
            stats.num_buckets / 2,
            stats.num_buckets / 2 + 1,
            stats.max_exact - 1,
            stats.max_exact,
            stats.first_in_last_bucket - 1,
            stats.first_in_last_bucket,
            stats.num_buckets / 2 - 1,
            stats.num_buckets - 1,
            bucket_of(-1),
            bucket_of(-8),
            bucket_of(-20),
            bucket_of(-90),
            bucket_of(-91),
            bucket_of(5),
            stats.range,
            bucket_of(range),
            stats.distinct_buckets,
            stats.causal_first_in_last_bucket,
        ),
    );
    stats.ms = elapsed(started);
    Ok(stats)
}

crate::element_table! {
    pub struct T5Dom {
        chart: HtmlCanvasElement = "t5-chart",
        readout: HtmlElement = "t5-readout",
    }
}

pub struct T5Panel {
    spec: &'static PanelSpec,
    dom: T5Dom,
    stats: T5Stats,
}

impl T5Panel {
    pub fn mount(spec: &'static PanelSpec) -> Result<Self, WebError> {
        Ok(T5Panel {
            spec,
            dom: T5Dom::mount()?,
            stats: T5Stats::default(),
        })
    }
}

impl Panel for T5Panel {
    fn spec(&self) -> &'static PanelSpec {
        self.spec
    }

    fn inputs(&self, ctx: &Ctx) -> Inputs {
        Inputs::new().with(ctx.settings.t5_range)
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
