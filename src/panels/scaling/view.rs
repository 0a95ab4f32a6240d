//! Panel 7, scale and add vs concatenate: the entry magnitudes (RMS) of the embeddings with and
//! without the √d factor against d, next to P's (entries in [−1, 1], RMS 1/√2), for the page's
//! embeddings (entries ≈ 1/√d, where × √d balances them with P) and for N(0, 1) embeddings (where
//! × √d makes them √d); and, for two tokens, the four terms of (x_i + p_i)·(x_j + p_j) against
//! [x_i; p_i]·[x_j; p_j], with the cross terms relative to ‖x_i‖‖p_j‖ + ‖p_i‖‖x_j‖. CPU twins
//! (`math::scaling`) on both backends.

use crate::web::surface::{self, Plotting};
use plotters::coord::Shift;
use plotters::prelude::*;
use web_sys::HtmlCanvasElement;

use super::{
    compute, dots_sentence, magnitudes_sentence, no_tokens_lines, no_tokens_sentence, PairTerms,
    ScalingPanelError, ScalingStats,
};
use crate::math::scaling::Magnitudes;
use crate::model::chart_layout::{category_label_rows, value_label_box};
use crate::model::figure_style::FigureStyle;
use crate::model::plot::PixelRect;
use crate::web::dom;
use crate::web::draw::chart::{
    colour, measure, prepare, record, styled_mesh, text_style, Axis, ChartFrame, LegendEntry,
    Prepared,
};
use crate::web::error::{draw_error, WebError};
use crate::web::panels::view::View;
use crate::web::panels::{canvas_message, Ctx};
use plotters::style::text_anchor::{HPos, Pos, VPos};
use web_sys::HtmlElement;

pub fn render(ctx: &mut Ctx, dom: &ScalingDom) -> Result<ScalingStats, WebError> {
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
    let stats = scaling.stats;
    let Some(pair) = stats.pair.as_ref() else {
        for canvas in [&dom.chart, &dom.dots].into_iter().filter(|_| ctx.draw) {
            canvas_message(canvas, &no_tokens_lines())?;
        }
        dom::text(&dom.magnitudes, &no_tokens_sentence());
        dom::text(&dom.dots_readout, "");
        dom::text(&dom.takeaway, &super::takeaway::takeaway(&stats));
        return Ok(stats);
    };
    if ctx.draw {
        draw_magnitudes(&dom.chart, &scaling.curve, d, ctx.style)?;
        draw_terms(&dom.dots, pair, ctx.style)?;
    }
    dom::text(&dom.magnitudes, &magnitudes_sentence(&stats));
    dom::text(&dom.dots_readout, &dots_sentence(d, pair));
    dom::text(&dom.takeaway, &super::takeaway::takeaway(&stats));
    Ok(stats)
}

/// A labelled curve of one magnitude against d, with its series colour.
type Series<'a> = (&'a str, usize, fn(&Magnitudes) -> f64);

/// RMS against d (log–log): embeddings, embeddings × √d, P; P's bound 1 dashed.
fn draw_magnitudes(
    canvas: &HtmlCanvasElement,
    curve: &[Magnitudes],
    d: usize,
    style: &FigureStyle,
) -> Result<(), WebError> {
    let backend = surface::plotting(canvas)?;
    let root = backend.into_drawing_area();
    let top_d = curve.last().map_or(2.0, |m| m.d as f64).max(2.0);
    let (low, high) = rms_range(curve);
    let this_page = crate::message!("figure-scaling-legend-this-page");
    let series: [Series<'_>; 4] = [
        (&this_page, 0, |m| m.embedding_rms),
        ("x·√d ≈ 1", 2, |m| m.scaled_embedding_rms),
        ("N(0, 1) x·√d ≈ √d", 3, |m| m.unit_normal_scaled_rms),
        ("P: RMS √½", 4, |m| m.encoding_rms),
    ];
    let bound = colour(style.muted);
    let legend = magnitudes_legend(&series, style);
    let y_format = |v: f64| format!("{v:.2}");
    let prepared = prepare(
        &root,
        &ChartFrame {
            style,
            x_title: &crate::message!("figure-scaling-x"),
            y_title: &crate::message!("figure-scaling-y"),
            y_ticks: &[y_format(low), y_format(high)],
            legend: &legend,
        },
    )?;
    let mut chart = prepared
        .builder()
        .build_cartesian_2d(Axis::log(1f64..top_d), Axis::log(low..high))
        .map_err(draw_error)?;
    styled_mesh(&mut chart, &prepared, style, (8, 8))
        .x_label_formatter(&|v| format!("{v:.0}"))
        .y_label_formatter(&|v| y_format(*v))
        .draw()
        .map_err(draw_error)?;
    let line = style.line_px.round() as u32 + 1;
    for (_, k, value) in series {
        let series_colour = colour(style.series(k));
        let points: Vec<(f64, f64)> = curve.iter().map(|m| (m.d as f64, value(m))).collect();
        chart
            .draw_series(LineSeries::new(points, series_colour.stroke_width(line)))
            .map_err(draw_error)?;
        if let Some(m) = curve.iter().find(|m| m.d == d) {
            chart
                .draw_series(std::iter::once(Circle::new(
                    (d as f64, value(m)),
                    line * 2,
                    series_colour.filled(),
                )))
                .map_err(draw_error)?;
        }
    }
    // The bound 1 runs along the x·√d curve (its RMS is 1): drawn thinner on top, so that the
    // curve shows on both sides of the dashes and through their gaps.
    chart
        .draw_series(DashedLineSeries::new(
            vec![(1.0, 1.0), (top_d, 1.0)],
            6,
            4,
            bound.stroke_width((line / 3).max(1)),
        ))
        .map_err(draw_error)?;
    record(canvas, &prepared.geometry(&chart), style)?;
    root.present().map_err(draw_error)?;
    Ok(())
}

/// The y axis's range: below the smallest embedding RMS (and 1), above the largest scaled one
/// (and 1.5).
fn rms_range(curve: &[Magnitudes]) -> (f64, f64) {
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
    (low, high)
}

/// The legend: each curve in its series colour, then P's bound 1 dashed in the muted grey.
fn magnitudes_legend(series: &[Series], style: &FigureStyle) -> Vec<LegendEntry> {
    let mut legend: Vec<LegendEntry> = series
        .iter()
        .map(|(label, k, _)| LegendEntry::line(label.to_string(), colour(style.series(*k))))
        .collect();
    legend.push(LegendEntry {
        label: "|p| ≤ 1".to_string(),
        colour: colour(style.muted),
        pattern: Some((6, 4)),
        marker: None,
    });
    legend
}

/// A bar of the dot products' chart: its name, its value and its series colour.
type Bar<'a> = (&'a str, f64, usize);

/// The chart the bars are drawn on.
type Plane<'a> = ChartContext<'a, Plotting<'static>, Cartesian2d<Axis, Axis>>;

/// The canvas the chart is drawn on.
type Area = DrawingArea<Plotting<'static>, Shift>;

/// The terms of the two dot products as bars, each value written beyond the end of its bar in
/// the page's ink (never on the bar, whatever its colour).
fn draw_terms(
    canvas: &HtmlCanvasElement,
    pair: &PairTerms,
    style: &FigureStyle,
) -> Result<(), WebError> {
    let backend = surface::plotting(canvas)?;
    let root = backend.into_drawing_area();
    let (added, concatenated) = (
        crate::message!("figure-scaling-bar-added"),
        crate::message!("figure-scaling-bar-concatenated"),
    );
    let bars: [Bar; 6] = [
        ("x·x", pair.xx, 0),
        ("x·p", pair.xp, 3),
        ("p·x", pair.px, 3),
        ("p·p", pair.pp, 4),
        (&added, pair.added, 6),
        (&concatenated, pair.concatenated, 7),
    ];
    let (y0, y1) = value_range(&bars);
    let y_format = |v: f64| format!("{v:.1}");
    let mut prepared = prepare(
        &root,
        &ChartFrame {
            style,
            x_title: "",
            y_title: &crate::message!("figure-scaling-dots-y"),
            y_ticks: &[y_format(y0), y_format(y1)],
            legend: &[],
        },
    )?;
    let (x_range, y_range) = (-0.5f64..5.5f64, y0..y1);
    // The bars' names, written under their bars: on one row where each fits its bar's slot,
    // staggered over more rows where not (a projector's type on a narrow chart), never dropped.
    let font = text_style(style, style.tick_px, style.ink);
    let name_widths: Vec<f64> = bars
        .iter()
        .map(|(name, _, _)| measure(&root, name, &font))
        .collect();
    let plot_width = plot_width(&prepared, x_range.clone(), y_range.clone())?;
    let rows = category_label_rows(
        plot_width / bars.len() as f64,
        &name_widths,
        0.5 * style.tick_px,
    );
    prepared.add_x_label_rows(rows - 1, style);
    let mut chart = prepared
        .builder()
        .build_cartesian_2d(Axis::linear(x_range), Axis::linear(y_range))
        .map_err(draw_error)?;
    styled_mesh(&mut chart, &prepared, style, (6, 8))
        .x_label_formatter(&|_| String::new())
        .y_label_formatter(&|v| y_format(*v))
        .draw()
        .map_err(draw_error)?;
    let name_boxes = draw_bar_names(&chart, &root, &bars, &name_widths, (rows, y0), style)?;
    chart
        .draw_series(bars.iter().enumerate().map(|(k, (_, v, series))| {
            let x = k as f64;
            Rectangle::new(
                [(x - 0.35, 0.0), (x + 0.35, *v)],
                colour(style.series(*series)).filled(),
            )
        }))
        .map_err(draw_error)?;
    let placed = draw_bar_values(&chart, &root, &bars, style)?;
    record(canvas, &prepared.geometry(&chart), style)?;
    record_boxes(canvas, &placed, &name_boxes)?;
    root.present().map_err(draw_error)?;
    Ok(())
}

/// The y axis's range: the bars' values and 0, with room beyond the longest bars for their
/// values.
fn value_range(bars: &[Bar]) -> (f64, f64) {
    let (low, high) = bars.iter().fold((0.0f64, 0.0f64), |(lo, hi), (_, v, _)| {
        (lo.min(*v), hi.max(*v))
    });
    let pad = ((high - low) * 0.22).max(0.2);
    (if low < 0.0 { low - pad } else { low }, high + pad)
}

/// The width in pixels of the plot a chart on `prepared` over these ranges would have.
fn plot_width(
    prepared: &Prepared<Plotting<'static>>,
    x_range: std::ops::Range<f64>,
    y_range: std::ops::Range<f64>,
) -> Result<f64, WebError> {
    let chart = prepared
        .builder()
        .build_cartesian_2d(Axis::linear(x_range), Axis::linear(y_range))
        .map_err(draw_error)?;
    let (xs, _) = chart.plotting_area().get_pixel_range();
    Ok(f64::from(xs.end - xs.start))
}

/// Each bar's name under the axis at y = `y0`, staggered over `rows` rows (the name of bar k in
/// row k mod `rows`); returns the names' boxes.
fn draw_bar_names(
    chart: &Plane,
    root: &Area,
    bars: &[Bar],
    name_widths: &[f64],
    (rows, y0): (usize, f64),
    style: &FigureStyle,
) -> Result<Vec<PixelRect>, WebError> {
    let font = text_style(style, style.tick_px, style.ink);
    let mut name_boxes = Vec::with_capacity(bars.len());
    for (k, ((name, _, _), width)) in bars.iter().zip(name_widths).enumerate() {
        let (x, axis) = chart.backend_coord(&(k as f64, y0));
        let row = (k % rows) as f64;
        let y = f64::from(axis) + style.tick_px * (0.5 + 1.2 * row);
        root.draw(&Text::new(
            *name,
            (x, y as i32),
            font.clone().pos(Pos::new(HPos::Center, VPos::Top)),
        ))
        .map_err(draw_error)?;
        name_boxes.push(PixelRect {
            x0: f64::from(x) - width / 2.0,
            y0: y,
            x1: f64::from(x) + width / 2.0,
            y1: y + style.tick_px,
        });
    }
    Ok(name_boxes)
}

/// Each bar's value beyond the end of its bar; returns each bar's box and its value's.
fn draw_bar_values(
    chart: &Plane,
    root: &Area,
    bars: &[Bar],
    style: &FigureStyle,
) -> Result<Vec<(PixelRect, PixelRect)>, WebError> {
    let font = text_style(style, style.tick_px, style.ink);
    let mut placed = Vec::with_capacity(bars.len());
    for (k, (_, v, _)) in bars.iter().enumerate() {
        let x = k as f64;
        let (left, end) = chart.backend_coord(&(x - 0.35, *v));
        let (right, base) = chart.backend_coord(&(x + 0.35, 0.0));
        let bar = PixelRect {
            x0: f64::from(left),
            y0: f64::from(end.min(base)),
            x1: f64::from(right),
            y1: f64::from(end.max(base)),
        };
        let text = format!("{v:.2}");
        let size = root
            .estimate_text_size(&text, &font)
            .map(|(w, h)| (f64::from(w), f64::from(h)))
            .unwrap_or((text.len() as f64 * style.tick_px * 0.6, style.tick_px));
        let label = value_label_box(bar, size, *v >= 0.0, 0.3 * style.tick_px);
        root.draw(&Text::new(
            text,
            (((label.x0 + label.x1) / 2.0) as i32, label.y0 as i32),
            font.clone().pos(Pos::new(HPos::Center, VPos::Top)),
        ))
        .map_err(draw_error)?;
        placed.push((bar, label));
    }
    Ok(placed)
}

/// Writes where the bars, their values and their names went (`data-bars`, `data-bar-values`,
/// `data-bar-names`: "x0 y0 x1 y1" boxes in logical pixels, joined by ";"), for the end-to-end
/// tests.
fn record_boxes(
    canvas: &HtmlCanvasElement,
    placed: &[(PixelRect, PixelRect)],
    name_boxes: &[PixelRect],
) -> Result<(), WebError> {
    let rects = |pick: fn(&(PixelRect, PixelRect)) -> PixelRect| {
        placed
            .iter()
            .map(|p| {
                let r = pick(p);
                format!("{} {} {} {}", r.x0, r.y0, r.x1, r.y1)
            })
            .collect::<Vec<_>>()
            .join(";")
    };
    canvas.set_attribute("data-bars", &rects(|p| p.0))?;
    canvas.set_attribute("data-bar-values", &rects(|p| p.1))?;
    let names = name_boxes
        .iter()
        .map(|r| format!("{} {} {} {}", r.x0, r.y0, r.x1, r.y1))
        .collect::<Vec<_>>()
        .join(";");
    canvas.set_attribute("data-bar-names", &names)?;
    Ok(())
}

crate::element_table! {
    pub struct ScalingDom {
        chart: HtmlCanvasElement = "scale-chart",
        magnitudes: HtmlElement = "scale-magnitudes",
        takeaway: HtmlElement = "scaling-takeaway",
        dots: HtmlCanvasElement = "scale-dots",
        dots_readout: HtmlElement = "scale-dots-readout",
    }
}

/// The panel: its elements, the inputs it reads and its view ([`crate::web::panels::view`]).
pub static VIEW: View<ScalingDom, ScalingStats> = View {
    elements: ScalingDom::mount,
    takeaway: |dom| &dom.takeaway,
    inputs: |ctx| {
        crate::web::panels::tokens_key(ctx)
            .with(ctx.settings.token_pair.0)
            .with(ctx.settings.token_pair.1)
    },
    render,
    ms: |stats| &mut stats.ms,
};

crate::web::panels::view::mount_view!(VIEW);
