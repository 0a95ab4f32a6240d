//! The similarity panel's two line charts (plotters on the panel's canvases): the curve
//! p_i·p_{i+k} against the offset k from two starting rows (they coincide: the similarity depends
//! on k only), and the similarity of normalised positions (i/n)·((i+k)/n), which changes with n.

use crate::web::surface;
use plotters::prelude::*;
use web_sys::HtmlCanvasElement;

use super::{curve_labels, no_neighbour_message, normalized_label, SimilarityStats};
use crate::math::similarity::normalized_similarity;
use crate::model::figure_style::FigureStyle;
use crate::web::draw::chart::{
    colour, prepare, record, styled_mesh, Axis, ChartFrame, LegendEntry,
};
use crate::web::error::{draw_error, WebError};
use crate::web::panels::canvas_message;

/// The look the page shows now (the one the app keeps in `Ctx::style`; the similarity panel's
/// charts are drawn from its own module, which passes no style).
fn page_style() -> FigureStyle {
    FigureStyle::for_look(crate::web::page::figure_look())
}

/// p_i·p_{i+k} against k from i and from i + 100.
pub(super) fn draw_curve(
    canvas: &HtmlCanvasElement,
    stats: &SimilarityStats,
) -> Result<(), WebError> {
    let style = &page_style();
    let backend = surface::plotting(canvas)?;
    let root = backend.into_drawing_area();
    let all = stats.curve.iter().chain(&stats.curve_shifted);
    let (low, high) = all.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| {
        (lo.min(v), hi.max(v))
    });
    let pad = ((high - low) * 0.08).max(0.05);
    let k_max = stats.max_offset as f64;
    let [from_i, from_shifted] = curve_labels(stats.position);
    let line = style.line_px.round() as u32;
    // The first curve is drawn wide and the second thin inside it: they coincide.
    let curves = [
        (&stats.curve, from_i, line * 2 + 1),
        (&stats.curve_shifted, from_shifted, line),
    ];
    let legend: Vec<LegendEntry> = curves
        .iter()
        .enumerate()
        .map(|(k, (_, label, _))| LegendEntry::line(label.to_string(), colour(style.series(k))))
        .collect();
    let y_format = |v: f64| format!("{v:.1}");
    let prepared = prepare(
        &root,
        &ChartFrame {
            style,
            x_title: &crate::message!("label-axis-offset-k"),
            y_title: "p_i · p_(i+k)",
            y_ticks: &[y_format(low - pad), y_format(high + pad)],
            legend: &legend,
        },
    )?;
    let mut chart = prepared
        .builder()
        .build_cartesian_2d(
            Axis::linear(-0.5..k_max + 0.5),
            Axis::linear((low - pad)..(high + pad)),
        )
        .map_err(draw_error)?;
    styled_mesh(&mut chart, &prepared, style, (10, 8))
        .x_label_formatter(&|v| format!("{v:.0}"))
        .y_label_formatter(&|v| y_format(*v))
        .draw()
        .map_err(draw_error)?;
    for (k, (values, _, width)) in curves.into_iter().enumerate() {
        let points: Vec<(f64, f64)> = values
            .iter()
            .enumerate()
            .map(|(k, &v)| (k as f64, v))
            .collect();
        chart
            .draw_series(LineSeries::new(
                points,
                colour(style.series(k)).stroke_width(width),
            ))
            .map_err(draw_error)?;
    }
    record(canvas, &prepared.geometry(&chart), style)?;
    root.present().map_err(draw_error)?;
    Ok(())
}

/// (i/N)·((i+k)/N) against k for N = n and N = 2n, over the offsets inside each sequence.
pub(super) fn draw_normalized(
    canvas: &HtmlCanvasElement,
    i: usize,
    n: usize,
    k_max: usize,
) -> Result<(), WebError> {
    if i + 1 >= n {
        return canvas_message(
            canvas,
            &[
                &no_neighbour_message(i, n),
                crate::message!("figure-similarity-raise-n").as_str(),
            ],
        );
    }
    let style = &page_style();
    let backend = surface::plotting(canvas)?;
    let root = backend.into_drawing_area();
    let last_k = k_max.min(n - 1 - i).max(1);
    let top = normalized_similarity(i, i + last_k, n).max(1e-12) * 1.2;
    let y_format = |v: f64| {
        if top < 0.01 {
            format!("{v:.1e}")
        } else {
            format!("{v:.3}")
        }
    };
    let lengths = [n, 2 * n];
    let legend: Vec<LegendEntry> = lengths
        .iter()
        .enumerate()
        .map(|(k, &length)| {
            LegendEntry::line(normalized_label(length), colour(style.series(2 + k)))
        })
        .collect();
    let prepared = prepare(
        &root,
        &ChartFrame {
            style,
            x_title: &crate::message!("label-axis-offset-k"),
            y_title: "(i/n)·((i+k)/n)",
            y_ticks: &[y_format(0.0), y_format(top)],
            legend: &legend,
        },
    )?;
    let mut chart = prepared
        .builder()
        .build_cartesian_2d(
            Axis::linear(-0.5..last_k as f64 + 0.5),
            Axis::linear(0f64..top),
        )
        .map_err(draw_error)?;
    styled_mesh(&mut chart, &prepared, style, (10, 6))
        .x_label_formatter(&|v| format!("{v:.0}"))
        .y_label_formatter(&|v| y_format(*v))
        .draw()
        .map_err(draw_error)?;
    let line = style.line_px.round() as u32 + 1;
    for (k, length) in lengths.into_iter().enumerate() {
        let points: Vec<(f64, f64)> = (0..=last_k)
            .filter(|offset| i + offset < length)
            .map(|offset| (offset as f64, normalized_similarity(i, i + offset, length)))
            .collect();
        chart
            .draw_series(LineSeries::new(
                points,
                colour(style.series(2 + k)).stroke_width(line),
            ))
            .map_err(draw_error)?;
    }
    record(canvas, &prepared.geometry(&chart), style)?;
    root.present().map_err(draw_error)?;
    Ok(())
}
