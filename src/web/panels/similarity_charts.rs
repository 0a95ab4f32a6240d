//! The similarity panel's two line charts (plotters on the panel's canvases): the curve
//! p_i·p_{i+k} against the offset k from two starting rows (they coincide: the similarity depends
//! on k only), and the similarity of normalised positions (i/n)·((i+k)/n), which changes with n.

use crate::web::surface;
use plotters::prelude::*;
use web_sys::HtmlCanvasElement;

use super::super::draw::curves::PALETTE;
use super::super::draw::heatmap::{DESC_FONT, LABEL_FONT};
use super::super::error::{draw_error, WebError};
use super::canvas_message;
use crate::math::similarity::normalized_similarity;
use crate::model::similarity::{
    curve_labels, no_neighbour_message, normalized_label, SimilarityStats,
};

/// p_i·p_{i+k} against k from i and from i + 100.
pub(super) fn draw_curve(
    canvas: &HtmlCanvasElement,
    stats: &SimilarityStats,
) -> Result<(), WebError> {
    let backend = surface::plotting(canvas)?;
    let root = backend.into_drawing_area();
    root.fill(&WHITE).map_err(draw_error)?;
    let all = stats.curve.iter().chain(&stats.curve_shifted);
    let (low, high) = all.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| {
        (lo.min(v), hi.max(v))
    });
    let pad = ((high - low) * 0.08).max(0.05);
    let k_max = stats.max_offset as f64;
    let mut chart = ChartBuilder::on(&root)
        .margin(14)
        .x_label_area_size(50)
        .y_label_area_size(70)
        .build_cartesian_2d(-0.5..k_max + 0.5, (low - pad)..(high + pad))
        .map_err(draw_error)?;
    chart
        .configure_mesh()
        .light_line_style(WHITE.mix(0.0))
        .bold_line_style(BLACK.mix(0.08))
        .x_desc("Offset k")
        .y_desc("p_i · p_(i+k)")
        .label_style(LABEL_FONT)
        .axis_desc_style(DESC_FONT)
        .x_labels(10)
        .y_labels(8)
        .x_label_formatter(&|v| format!("{v:.0}"))
        .y_label_formatter(&|v| format!("{v:.1}"))
        .draw()
        .map_err(draw_error)?;
    let [from_i, from_shifted] = curve_labels(stats.position);
    for (k, (values, label, width)) in [
        (&stats.curve, from_i, 5),
        (&stats.curve_shifted, from_shifted, 2),
    ]
    .into_iter()
    .enumerate()
    {
        let colour = PALETTE[k];
        let points: Vec<(f64, f64)> = values
            .iter()
            .enumerate()
            .map(|(k, &v)| (k as f64, v))
            .collect();
        chart
            .draw_series(LineSeries::new(points, colour.stroke_width(width)))
            .map_err(draw_error)?
            .label(label)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 22, y)], colour.stroke_width(width))
            });
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK.mix(0.3))
        .label_font(LABEL_FONT)
        .draw()
        .map_err(draw_error)?;
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
            &[&no_neighbour_message(i, n), "Raise n or lower i."],
        );
    }
    let backend = surface::plotting(canvas)?;
    let root = backend.into_drawing_area();
    root.fill(&WHITE).map_err(draw_error)?;
    let last_k = k_max.min(n - 1 - i).max(1);
    let top = normalized_similarity(i, i + last_k, n).max(1e-12) * 1.2;
    let mut chart = ChartBuilder::on(&root)
        .margin(14)
        .x_label_area_size(50)
        .y_label_area_size(80)
        .build_cartesian_2d(-0.5..last_k as f64 + 0.5, 0f64..top)
        .map_err(draw_error)?;
    chart
        .configure_mesh()
        .light_line_style(WHITE.mix(0.0))
        .bold_line_style(BLACK.mix(0.08))
        .x_desc("Offset k")
        .y_desc("(i/n)·((i+k)/n)")
        .label_style(LABEL_FONT)
        .axis_desc_style(DESC_FONT)
        .x_labels(10)
        .y_labels(6)
        .x_label_formatter(&|v| format!("{v:.0}"))
        .y_label_formatter(&|v| {
            if top < 0.01 {
                format!("{v:.1e}")
            } else {
                format!("{v:.3}")
            }
        })
        .draw()
        .map_err(draw_error)?;
    for (k, length) in [n, 2 * n].into_iter().enumerate() {
        let colour = PALETTE[2 + k];
        let points: Vec<(f64, f64)> = (0..=last_k)
            .filter(|offset| i + offset < length)
            .map(|offset| (offset as f64, normalized_similarity(i, i + offset, length)))
            .collect();
        chart
            .draw_series(LineSeries::new(points, colour.stroke_width(3)))
            .map_err(draw_error)?
            .label(normalized_label(length))
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 22, y)], colour.stroke_width(3))
            });
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK.mix(0.3))
        .label_font(LABEL_FONT)
        .draw()
        .map_err(draw_error)?;
    root.present().map_err(draw_error)?;
    Ok(())
}
