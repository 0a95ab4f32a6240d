//! The chapter's figure: chosen columns of P against position, drawn with plotters.

use crate::web::surface;
use ndarray::ArrayView1;
use plotters::prelude::*;
use web_sys::HtmlCanvasElement;

use super::chart::{prepare, record, styled_mesh, Axis, ChartFrame, ChartGeometry, LegendEntry};
use super::heatmap::{index_label, numbered_ticks};
use crate::math::encoding::{is_sine_column, pair_of_column, period};
use crate::model::figure_style::FigureStyle;
use crate::model::present::column_label;
use crate::web::error::{draw_error, WebError};

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
    style: &FigureStyle,
) -> Result<(), WebError> {
    let backend = surface::plotting(canvas)?;
    let geometry = draw_curves_on(
        backend.into_drawing_area(),
        series,
        (d, base, first_position),
        style,
    )?;
    record(canvas, &geometry, style)
}

/// The same figure as an SVG document of `width × height` (the curves' export).
pub fn curves_svg(
    series: &[(usize, ArrayView1<f32>)],
    d: usize,
    base: f64,
    first_position: usize,
    (width, height): (u32, u32),
    style: &FigureStyle,
) -> Result<String, WebError> {
    let mut svg = String::new();
    {
        // The page's backend type, so that the chart is compiled once for the page and the export.
        let backend = surface::svg_plotting(&mut svg, (width, height));
        draw_curves_on(
            backend.into_drawing_area(),
            series,
            (d, base, first_position),
            style,
        )?;
    }
    Ok(svg)
}

/// The legend's name of one column: its index, sine or cosine, and period.
fn column_name(column: usize, d: usize, base: f64, first_position: usize) -> String {
    let kind = if is_sine_column(column) { "sin" } else { "cos" };
    let period = crate::model::present::format_period(period(pair_of_column(column), d, base));
    if first_position != 0 {
        crate::message!(
            "figure-curves-legend-from-one",
            column = column_label(column, first_position),
            kind = kind,
            period = period,
        )
    } else {
        crate::message!(
            "figure-curves-legend",
            column = column,
            kind = kind,
            period = period,
        )
    }
}

/// The curves on any plotters backend: the canvas on the page, SVG for export.
fn draw_curves_on<DB: DrawingBackend>(
    root: DrawingArea<DB, plotters::coord::Shift>,
    series: &[(usize, ArrayView1<f32>)],
    (d, base, first_position): (usize, f64, usize),
    style: &FigureStyle,
) -> Result<ChartGeometry, WebError> {
    let n = series.first().map_or(1, |(_, values)| values.len()).max(1);
    let first = first_position as f64;
    let one_based = first_position != 0;
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
    let legend: Vec<LegendEntry> = series
        .iter()
        .enumerate()
        .map(|(k, (column, _))| {
            LegendEntry::line(
                column_name(*column, d, base, first_position),
                super::chart::colour(style.series(k)),
            )
        })
        .collect();
    let prepared = prepare(
        &root,
        &ChartFrame {
            style,
            x_title: &if one_based {
                crate::message!("label-axis-row-position-from-one")
            } else {
                crate::message!("label-axis-row-position")
            },
            y_title: &crate::message!("figure-curves-y"),
            y_ticks: &["-1.00".to_string()],
            legend: &legend,
        },
    )?;
    let mut chart = prepared
        .builder()
        .build_cartesian_2d(
            Axis::ticked(x_start..x_end, ticks),
            Axis::linear(-1.15f64..1.15f64),
        )
        .map_err(draw_error)?;
    styled_mesh(&mut chart, &prepared, style, (10, 9))
        .x_label_formatter(&index_label)
        .y_label_formatter(&|v| format!("{v:.2}"))
        .draw()
        .map_err(draw_error)?;

    let line = style.line_px.round() as u32 + 1;
    for (k, (_, values)) in series.iter().enumerate() {
        let colour = super::chart::colour(style.series(k));
        let points: Vec<(f64, f64)> = values
            .iter()
            .enumerate()
            .map(|(i, &v)| (first + i as f64, v as f64))
            .collect();
        chart
            .draw_series(LineSeries::new(
                points.iter().copied(),
                colour.stroke_width(line),
            ))
            .map_err(draw_error)?;
        if n <= MARKERS_UP_TO {
            chart
                .draw_series(
                    points
                        .iter()
                        .map(|&(x, y)| Circle::new((x, y), line + 1, colour.filled())),
                )
                .map_err(draw_error)?;
        }
    }
    let geometry = prepared.geometry(&chart);
    root.present().map_err(draw_error)?;
    Ok(geometry)
}
