//! Panel 7, scale and add vs concatenate: the entry magnitudes (RMS) of the embeddings with and
//! without the √d factor against d, next to P's (entries in [−1, 1], RMS 1/√2), for the page's
//! embeddings (entries ≈ 1/√d, where × √d balances them with P) and for N(0, 1) embeddings (where
//! × √d makes them √d); and, for two tokens, the four terms of (x_i + p_i)·(x_j + p_j) against
//! [x_i; p_i]·[x_j; p_j], with the cross terms relative to ‖x_i‖‖p_j‖ + ‖p_i‖‖x_j‖. CPU twins
//! (`math::scaling`) on both backends.

use crate::model::inputs::Inputs;
use crate::web::surface;
use plotters::prelude::*;
use serde::Serialize;
use web_sys::HtmlCanvasElement;

use super::super::dom::{self, now_ms};
use super::super::draw::curves::PALETTE;
use super::super::draw::heatmap::{DESC_FONT, LABEL_FONT};
use super::super::error::{draw_error, WebError};
use super::super::panel::{to_js, Panel, PanelSpec};
use super::{canvas_message, elapsed, format_number, Ctx};
use crate::math::panels::magnitude_widths;
use crate::math::scaling::{dot_decomposition_for_tokens, magnitude_curve, Magnitudes};
use wasm_bindgen::JsValue;
use web_sys::HtmlElement;

/// The magnitude curve runs over d = 1, 2, 4, … up to this (the widest d).
const CURVE_MAX_D: usize = 2048;

#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PairTerms {
    pub i: usize,
    pub j: usize,
    pub tokens: (String, String),
    pub scaled: bool,
    pub xx: f64,
    pub xp: f64,
    pub px: f64,
    pub pp: f64,
    pub added: f64,
    pub concatenated: f64,
    pub cross_terms: f64,
    /// ‖x_i‖‖p_j‖ + ‖p_i‖‖x_j‖, the largest |cross_terms| can be.
    pub cross_bound: f64,
    /// |cross_terms| / cross_bound, in [0, 1].
    pub cross_terms_relative: f64,
}

#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ScalingStats {
    pub d: usize,
    /// RMS of the entries at the current d.
    pub embedding_rms: f64,
    pub scaled_embedding_rms: f64,
    pub encoding_rms: f64,
    /// The same words' embeddings drawn with variance 1 (N(0, 1), PyTorch's and Flux's default):
    /// RMS ≈ 1, and ≈ √d after × √d.
    pub unit_normal_embedding_rms: f64,
    pub unit_normal_scaled_rms: f64,
    /// unit_normal_scaled_rms / encoding_rms (≈ √(2d)).
    pub unit_normal_scaled_ratio: f64,
    /// P's entries lie in [−1, 1].
    pub encoding_min: f64,
    pub encoding_max: f64,
    pub unscaled_ratio: f64,
    pub scaled_ratio: f64,
    /// The curve: widths and the three RMS values at each.
    pub widths: Vec<usize>,
    pub embedding_rms_curve: Vec<f64>,
    pub scaled_embedding_rms_curve: Vec<f64>,
    pub encoding_rms_curve: Vec<f64>,
    pub unit_normal_scaled_rms_curve: Vec<f64>,
    pub pair: Option<PairTerms>,
    /// The pair's |x·p + p·x| / (‖x_i‖‖p_j‖ + ‖p_i‖‖x_j‖) (`None` without tokens).
    pub cross_terms_relative: Option<f64>,
    pub ms: f64,
}

pub fn render(ctx: &mut Ctx, dom: &ScalingDom) -> Result<ScalingStats, WebError> {
    let started = now_ms();
    let (params, lesson) = (ctx.params, ctx.settings);
    let (d, base) = (params.d, params.base);
    let tokens = lesson.tokens();
    let mut stats = ScalingStats {
        d,
        encoding_min: -1.0,
        encoding_max: 1.0,
        ..ScalingStats::default()
    };
    if tokens.is_empty() {
        for canvas in [&dom.chart, &dom.dots].into_iter().filter(|_| ctx.draw) {
            canvas_message(
                canvas,
                &[
                    "The sentence has no tokens.",
                    "Type a few words in the attention panel.",
                ],
            )?;
        }
        dom::text(&dom.magnitudes, "No tokens: no embeddings to measure.");
        dom::text(&dom.dots_readout, "");
        stats.ms = elapsed(started);
        return Ok(stats);
    }
    let widths = magnitude_widths(d, CURVE_MAX_D);
    let curve = magnitude_curve(&tokens, &widths, base)?;
    let here = curve
        .iter()
        .find(|m| m.d == d)
        .copied()
        .ok_or_else(|| WebError::Js("the current d is missing from the curve".into()))?;
    stats.embedding_rms = here.embedding_rms;
    stats.scaled_embedding_rms = here.scaled_embedding_rms;
    stats.encoding_rms = here.encoding_rms;
    stats.unscaled_ratio = here.unscaled_ratio;
    stats.scaled_ratio = here.scaled_ratio;
    stats.unit_normal_embedding_rms = here.unit_normal_embedding_rms;
    stats.unit_normal_scaled_rms = here.unit_normal_scaled_rms;
    stats.unit_normal_scaled_ratio = here.unit_normal_scaled_ratio;
    stats.widths = widths.clone();
    stats.embedding_rms_curve = curve.iter().map(|m| m.embedding_rms).collect();
    stats.scaled_embedding_rms_curve = curve.iter().map(|m| m.scaled_embedding_rms).collect();
    stats.encoding_rms_curve = curve.iter().map(|m| m.encoding_rms).collect();
    stats.unit_normal_scaled_rms_curve = curve.iter().map(|m| m.unit_normal_scaled_rms).collect();
    if ctx.draw {
        draw_magnitudes(&dom.chart, &curve, d)?;
    }
    dom::text(
        &dom.magnitudes,
        &format!(
            "At d = {d}, P's entries lie in [−1, 1] with RMS {}. This page's embeddings, drawn with entries of size ≈ 1/√d like the original Transformer's, have RMS {}, and {} after × √d: without √d the content is {}× the position's size (it fades as d grows), with it {}×. The same words drawn N(0, 1) instead (PyTorch's nn.Embedding, Flux's Embedding by default) have RMS {}, and × √d makes it {} (≈ √d = {}): {}× P's RMS instead of {}×.",
            format_number(here.encoding_rms),
            format_number(here.embedding_rms),
            format_number(here.scaled_embedding_rms),
            format_number(here.unscaled_ratio),
            format_number(here.scaled_ratio),
            format_number(here.unit_normal_embedding_rms),
            format_number(here.unit_normal_scaled_rms),
            format_number((d as f64).sqrt()),
            format_number(here.unit_normal_scaled_ratio),
            format_number(here.scaled_ratio),
        ),
    );

    let (i, j) = lesson.token_pair;
    let scaled = lesson.scale_embeddings;
    let terms = dot_decomposition_for_tokens(&tokens, d, base, scaled, i, j)?;
    let pair = PairTerms {
        i,
        j,
        tokens: (tokens[i].clone(), tokens[j].clone()),
        scaled,
        xx: terms.xx,
        xp: terms.xp,
        px: terms.px,
        pp: terms.pp,
        added: terms.added,
        concatenated: terms.concatenated,
        cross_terms: terms.cross_terms(),
        cross_bound: terms.cross_bound,
        cross_terms_relative: terms.cross_terms_relative(),
    };
    if ctx.draw {
        draw_terms(&dom.dots, &pair)?;
    }
    dom::text(
        &dom.dots_readout,
        &format!(
            "“{}” (position {i}) · “{}” (position {j}), embeddings {}: added (x+p)·(x+p) = {} = x·x {} + cross terms x·p + p·x {} + p·p {}; concatenated [x; p]·[x; p] = {} = x·x + p·p, no cross terms, but 2d = {} columns. Relative to the norms the cross terms are small: |x·p + p·x| = {} is {} of ‖x_i‖‖p_j‖ + ‖p_i‖‖x_j‖ = {}, the most it could be (random directions in d = {d} dimensions have cosines of order 1/√d ≈ {}); next to x·x or p·p they need not be.",
            pair.tokens.0,
            pair.tokens.1,
            if scaled { "× √d" } else { "not scaled" },
            format_number(pair.added),
            format_number(pair.xx),
            format_number(pair.cross_terms),
            format_number(pair.pp),
            format_number(pair.concatenated),
            2 * d,
            format_number(pair.cross_terms.abs()),
            format_number(pair.cross_terms_relative),
            format_number(pair.cross_bound),
            format_number(1.0 / (d as f64).sqrt()),
        ),
    );
    stats.cross_terms_relative = Some(pair.cross_terms_relative);
    stats.pair = Some(pair);
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
