//! Panel 7, scale and add vs concatenate: the entry magnitudes (RMS) of the embeddings with and
//! without the √d factor against d, next to P's (entries in [−1, 1], RMS 1/√2), for the page's
//! embeddings (entries ≈ 1/√d, where × √d balances them with P) and for N(0, 1) embeddings (where
//! × √d makes them √d); and, for two tokens, the four terms of (x_i + p_i)·(x_j + p_j) against
//! [x_i; p_i]·[x_j; p_j], with the cross terms relative to ‖x_i‖‖p_j‖ + ‖p_i‖‖x_j‖. CPU twins
//! (`math::scaling`) on both backends.

use crate::model::inputs::Inputs;
use crate::web::surface;
use plotters::prelude::*;
use web_sys::HtmlCanvasElement;

use super::super::dom::{self, now_ms};
use super::super::draw::curves::PALETTE;
use super::super::draw::heatmap::{DESC_FONT, LABEL_FONT};
use super::super::error::{draw_error, WebError};
use super::super::panel::{to_js, Panel, PanelSpec};
use super::{canvas_message, elapsed, Ctx};
use crate::math::scaling::Magnitudes;
use crate::model::scaling::{
    compute, dots_sentence, magnitudes_sentence, no_tokens_sentence, PairTerms, ScalingPanelError,
    ScalingStats, NO_TOKENS,
};
use wasm_bindgen::JsValue;
use web_sys::HtmlElement;

pub fn render(ctx: &mut Ctx, dom: &ScalingDom) -> Result<ScalingStats, WebError> {
    let started = now_ms();
    let (params, lesson) = (ctx.params, ctx.settings);
    let d = params.d;
    let tokens = lesson.tokens();
    let scaling = compute(
        &tokens,
        d,
        params.base,
        lesson.token_pair,
        lesson.scale_embeddings,
    )
    .map_err(|error| match error {
        ScalingPanelError::Scaling(error) => WebError::from(error),
        missing @ ScalingPanelError::MissingWidth => WebError::Js(missing.to_string()),
    })?;
    let mut stats = scaling.stats;
    let Some(pair) = stats.pair.as_ref() else {
        for canvas in [&dom.chart, &dom.dots].into_iter().filter(|_| ctx.draw) {
            canvas_message(canvas, &NO_TOKENS)?;
        }
        dom::text(&dom.magnitudes, &no_tokens_sentence());
        dom::text(&dom.dots_readout, "");
        stats.ms = elapsed(started);
        return Ok(stats);
    };
    if ctx.draw {
        draw_magnitudes(&dom.chart, &scaling.curve, d)?;
        draw_terms(&dom.dots, pair)?;
    }
    dom::text(&dom.magnitudes, &magnitudes_sentence(&stats));
    dom::text(&dom.dots_readout, &dots_sentence(d, pair));
    stats.ms = elapsed(started);
    Ok(stats)
}

/// A labelled, coloured curve of one magnitude against d.
type Series = (&'static str, RGBColor, fn(&Magnitudes) -> f64);

/// RMS against d (log–log): embeddings, embeddings × √d, P; P's bound 1 dashed.
fn draw_magnitudes(
    canvas: &HtmlCanvasElement,
    curve: &[Magnitudes],
    d: usize,
) -> Result<(), WebError> {
    let backend = surface::plotting(canvas)?;
    let root = backend.into_drawing_area();
    root.fill(&WHITE).map_err(draw_error)?;
    let top_d = curve.last().map_or(2.0, |m| m.d as f64).max(2.0);
    let low = curve
        .iter()
        .map(|m| m.embedding_rms)
        .fold(1.0f64, f64::min)
        .max(1e-3)
        * 0.7;
    let high = curve
        .iter()
        .map(|m| m.unit_normal_scaled_rms.max(m.scaled_embedding_rms))
        .fold(1.5f64, f64::max)
        * 1.4;
    let mut chart = ChartBuilder::on(&root)
        .margin(14)
        .x_label_area_size(50)
        .y_label_area_size(70)
        .build_cartesian_2d((1f64..top_d).log_scale(), (low..high).log_scale())
        .map_err(draw_error)?;
    chart
        .configure_mesh()
        .light_line_style(WHITE.mix(0.0))
        .bold_line_style(BLACK.mix(0.08))
        .x_desc("Width d (log)")
        .y_desc("RMS of the entries (log)")
        .label_style(LABEL_FONT)
        .axis_desc_style(DESC_FONT)
        .x_labels(8)
        .y_labels(8)
        .x_label_formatter(&|v| format!("{v:.0}"))
        .y_label_formatter(&|v| format!("{v:.2}"))
        .draw()
        .map_err(draw_error)?;
    let series: [Series; 4] = [
        ("page's x, entries ≈ 1/√d", PALETTE[0], |m| {
            m.embedding_rms
        }),
        ("x × √d = N(0, 1) x (≈ 1)", PALETTE[2], |m| {
            m.scaled_embedding_rms
        }),
        ("N(0, 1) x × √d (≈ √d)", PALETTE[3], |m| {
            m.unit_normal_scaled_rms
        }),
        ("P (√½; entries in [−1, 1])", PALETTE[5], |m| {
            m.encoding_rms
        }),
    ];
    for (label, colour, value) in series {
        let points: Vec<(f64, f64)> = curve.iter().map(|m| (m.d as f64, value(m))).collect();
        chart
            .draw_series(LineSeries::new(points, colour.stroke_width(3)))
            .map_err(draw_error)?
            .label(label)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 22, y)], colour.stroke_width(3))
            });
        if let Some(m) = curve.iter().find(|m| m.d == d) {
            chart
                .draw_series(std::iter::once(Circle::new(
                    (d as f64, value(m)),
                    6,
                    colour.filled(),
                )))
                .map_err(draw_error)?;
        }
    }
    chart
        .draw_series(DashedLineSeries::new(
            vec![(1.0, 1.0), (top_d, 1.0)],
            6,
            4,
            BLACK.mix(0.5).stroke_width(2),
        ))
        .map_err(draw_error)?
        .label("|p| ≤ 1")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 22, y)], BLACK.mix(0.5)));
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerLeft)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK.mix(0.3))
        .label_font(LABEL_FONT)
        .draw()
        .map_err(draw_error)?;
    root.present().map_err(draw_error)?;
    Ok(())
}

/// The terms of the two dot products as bars.
fn draw_terms(canvas: &HtmlCanvasElement, pair: &PairTerms) -> Result<(), WebError> {
    let backend = surface::plotting(canvas)?;
    let root = backend.into_drawing_area();
    root.fill(&WHITE).map_err(draw_error)?;
    let bars: [(&str, f64, RGBColor); 6] = [
        ("x·x", pair.xx, PALETTE[0]),
        ("x·p", pair.xp, PALETTE[3]),
        ("p·x", pair.px, PALETTE[3]),
        ("p·p", pair.pp, PALETTE[5]),
        ("added", pair.added, PALETTE[6]),
        ("concat.", pair.concatenated, PALETTE[7]),
    ];
    let (low, high) = bars.iter().fold((0.0f64, 0.0f64), |(lo, hi), (_, v, _)| {
        (lo.min(*v), hi.max(*v))
    });
    let pad = ((high - low) * 0.12).max(0.1);
    let mut chart = ChartBuilder::on(&root)
        .margin(14)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(-0.5f64..5.5f64, (low - pad)..(high + pad))
        .map_err(draw_error)?;
    let names = |v: &f64| {
        if (v - v.round()).abs() > 1e-9 || *v < 0.0 {
            return String::new();
        }
        bars.get(v.round() as usize)
            .map(|b| b.0.to_string())
            .unwrap_or_default()
    };
    chart
        .configure_mesh()
        .light_line_style(WHITE.mix(0.0))
        .bold_line_style(BLACK.mix(0.08))
        .y_desc("Dot product")
        .label_style(LABEL_FONT)
        .axis_desc_style(DESC_FONT)
        .x_labels(6)
        .y_labels(8)
        .x_label_formatter(&names)
        .y_label_formatter(&|v| format!("{v:.1}"))
        .draw()
        .map_err(draw_error)?;
    chart
        .draw_series(bars.iter().enumerate().map(|(k, (_, v, colour))| {
            let x = k as f64;
            Rectangle::new([(x - 0.35, 0.0), (x + 0.35, *v)], colour.filled())
        }))
        .map_err(draw_error)?;
    chart
        .draw_series(bars.iter().enumerate().map(|(k, (_, v, _))| {
            let y = if *v >= 0.0 { *v } else { 0.0 };
            Text::new(
                format!("{v:.2}"),
                (k as f64 - 0.3, y + pad * 0.6),
                ("sans-serif", 14).into_font(),
            )
        }))
        .map_err(draw_error)?;
    root.present().map_err(draw_error)?;
    Ok(())
}

crate::element_table! {
    pub struct ScalingDom {
        chart: HtmlCanvasElement = "scale-chart",
        magnitudes: HtmlElement = "scale-magnitudes",
        dots: HtmlCanvasElement = "scale-dots",
        dots_readout: HtmlElement = "scale-dots-readout",
    }
}

pub struct ScalingPanel {
    spec: &'static PanelSpec,
    dom: ScalingDom,
    stats: ScalingStats,
}

impl ScalingPanel {
    pub fn mount(spec: &'static PanelSpec) -> Result<Self, WebError> {
        Ok(ScalingPanel {
            spec,
            dom: ScalingDom::mount()?,
            stats: ScalingStats::default(),
        })
    }
}

impl Panel for ScalingPanel {
    fn spec(&self) -> &'static PanelSpec {
        self.spec
    }

    fn inputs(&self, ctx: &Ctx) -> Inputs {
        super::tokens_key(ctx)
            .with(ctx.settings.token_pair.0)
            .with(ctx.settings.token_pair.1)
    }

    fn render(&mut self, ctx: &mut Ctx) -> Result<(), WebError> {
        self.stats = render(ctx, &self.dom)?;
        Ok(())
    }

    fn stats(&self) -> Option<JsValue> {
        Some(to_js(&self.stats))
    }

    fn error_slot(&self) -> &HtmlElement {
        &self.dom.magnitudes
    }
}
