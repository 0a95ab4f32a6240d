//! The chapter's figure: chosen columns of P against position, drawn with plotters.

use crate::web::surface;
use ndarray::ArrayView1;
use plotters::prelude::*;
use web_sys::HtmlCanvasElement;

use super::heatmap::{index_label, numbered_ticks, TickedAxis, DESC_FONT, LABEL_FONT};
use crate::math::encoding::{is_sine_column, pair_of_column, period};
use crate::model::present::column_label;
use crate::web::error::{draw_error, WebError};

/// Okabe–Ito colours (distinguishable with the common colour-vision deficiencies), yellow replaced
/// by grey, which reads better on white and on a projector.
pub const PALETTE: [RGBColor; 8] = [
    RGBColor(0, 114, 178),
    RGBColor(230, 159, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(86, 180, 233),
    RGBColor(213, 94, 0),
    RGBColor(0, 0, 0),
    RGBColor(120, 120, 120),
];

/// Below this many positions every value also gets a marker (n = 1 would otherwise draw nothing).
const MARKERS_UP_TO: usize = 80;

/// Draws each `(column index, values down the positions)` of an encoding of dimension `d`.
/// `first_position` is the position of the first value (1: the Julia edition, whose columns the
/// legend then counts from 1 too).
pub fn draw_curves(
    canvas: &HtmlCanvasElement,
    series: &[(usize, ArrayView1<f32>)],
    d: usize,
    base: f64,
    first_position: usize,
) -> Result<(), WebError> {
    let backend = surface::plotting(canvas)?;
    draw_curves_on(backend.into_drawing_area(), series, d, base, first_position)
}

/// The same figure as an SVG document of `width × height` (the curves' export).
pub fn curves_svg(
    series: &[(usize, ArrayView1<f32>)],
    d: usize,
    base: f64,
    first_position: usize,
    (width, height): (u32, u32),
) -> Result<String, WebError> {
    let mut svg = String::new();
    {
        let backend = plotters::backend::SVGBackend::with_string(&mut svg, (width, height));
        draw_curves_on(backend.into_drawing_area(), series, d, base, first_position)?;
    }
    Ok(svg)
}

/// The curves on any plotters backend: the canvas on the page, SVG for export.
fn draw_curves_on<DB: DrawingBackend>(
    root: DrawingArea<DB, plotters::coord::Shift>,
    series: &[(usize, ArrayView1<f32>)],
    d: usize,
    base: f64,
    first_position: usize,
) -> Result<(), WebError> {
    let n = series.first().map_or(1, |(_, values)| values.len()).max(1);
    let first = first_position as f64;
    let one_based = first_position != 0;
    root.fill(&WHITE).map_err(draw_error)?;
    // Short sequences get half a position of room on each side so that markers at the first and
    // last positions show.
    let (x_start, x_end) = if n < 24 {
        (first - 0.5, first + n as f64 - 0.5)
    } else {
        (first, first + (n - 1) as f64)
    };
    let ticks: Vec<f64> = numbered_ticks(n, first_position, 10)
        .into_iter()
        .map(|t| t + first)
        .collect();
    let mut chart = ChartBuilder::on(&root)
        .margin(14)
        .x_label_area_size(52)
        .y_label_area_size(76)
        .build_cartesian_2d(TickedAxis::new(x_start..x_end, ticks), -1.15f64..1.15f64)
        .map_err(draw_error)?;
    chart
        .configure_mesh()
        .light_line_style(WHITE.mix(0.0))
        .bold_line_style(BLACK.mix(0.08))
        .x_desc(if one_based {
            "Row (position, from 1)"
        } else {
            "Row (position)"
        })
        .y_desc("Value p[i, column]")
        .label_style(LABEL_FONT)
        .axis_desc_style(DESC_FONT)
        .x_labels(10)
        .y_labels(9)
        .x_label_formatter(&index_label)
        .y_label_formatter(&|v| format!("{v:.2}"))
        .draw()
        .map_err(draw_error)?;

    for (k, (column, values)) in series.iter().enumerate() {
        let column = *column;
        let colour = PALETTE[k % PALETTE.len()];
        let points: Vec<(f64, f64)> = values
            .iter()
            .enumerate()
            .map(|(i, &v)| (first + i as f64, v as f64))
            .collect();
        let kind = if is_sine_column(column) { "sin" } else { "cos" };
        let named = if one_based {
            format!("col {} (1-based)", column_label(column, first_position))
        } else {
            format!("col {column}")
        };
        let label = format!(
            "{named}: {kind}, period {}",
            crate::model::present::format_period(period(pair_of_column(column), d, base))
        );
        chart
            .draw_series(LineSeries::new(
                points.iter().copied(),
                colour.stroke_width(3),
            ))
            .map_err(draw_error)?
            .label(label)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 22, y)], colour.stroke_width(3))
            });
        if n <= MARKERS_UP_TO {
            chart
                .draw_series(
                    points
                        .iter()
                        .map(|&(x, y)| Circle::new((x, y), 3, colour.filled())),
                )
                .map_err(draw_error)?;
        }
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerRight)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK.mix(0.3))
        .label_font(LABEL_FONT)
        .draw()
        .map_err(draw_error)?;
    root.present().map_err(draw_error)?;
    Ok(())
}
