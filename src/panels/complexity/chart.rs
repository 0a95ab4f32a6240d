//! The complexity panel's chart: the operations of a CNN, an RNN and self-attention layer against
//! the sequence length n on log–log axes (plotters on the panel's canvas), the crossovers n = d and
//! n = k·d marked and the current n a dot on each curve.

use crate::web::surface::{self, Plotting};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use web_sys::HtmlCanvasElement;

use super::{cnn_curve_label, crossover_marks};
use crate::math::complexity::{layer_costs, log_spaced_lengths, LayerCosts};
use crate::model::figure_style::{FigureStyle, Rgb};
use crate::web::draw::chart::{
    colour, prepare, record, styled_mesh, text_style, Axis, ChartFrame, LegendEntry,
};
use crate::web::error::{draw_error, WebError};

/// A labelled, coloured curve of (n, operations).
type Curve = (String, RGBColor, Vec<(f64, f64)>);

/// The chart the curves are drawn on.
type Plane<'a> = ChartContext<'a, Plotting<'static>, Cartesian2d<Axis, Axis>>;

/// The canvas the chart is drawn on.
type Area = DrawingArea<Plotting<'static>, Shift>;

/// Operations against n on log–log axes, the crossovers marked, the current n a dot.
pub(super) fn draw_chart(
    canvas: &HtmlCanvasElement,
    n: usize,
    d: usize,
    k: usize,
    style: &FigureStyle,
) -> Result<(), WebError> {
    let backend = surface::plotting(canvas)?;
    let root = backend.into_drawing_area();
    let high = (4 * n.max(k * d)).clamp(16, 10_000_000);
    let curves = cost_curves(d, k, high, style);
    let (y0, y1) = operations_range(&curves);
    let legend: Vec<LegendEntry> = curves
        .iter()
        .map(|(label, series_colour, _)| LegendEntry::line(label.clone(), *series_colour))
        .collect();
    let prepared = prepare(
        &root,
        &ChartFrame {
            style,
            x_title: &crate::message!("figure-complexity-chart-x"),
            y_title: &crate::message!("figure-complexity-chart-y"),
            y_ticks: &[format!("{y0:.0e}"), format!("{y1:.0e}")],
            legend: &legend,
        },
    )?;
    let mut chart = prepared
        .builder()
        .build_cartesian_2d(Axis::log(1f64..high as f64), Axis::log(y0..y1))
        .map_err(draw_error)?;
    styled_mesh(&mut chart, &prepared, style, (8, 8))
        .x_label_formatter(&|v| format_axis(*v))
        .y_label_formatter(&|v| format!("{v:.0e}"))
        .draw()
        .map_err(draw_error)?;
    let line = style.line_px.round() as u32 + 1;
    let at = layer_costs(n, d, k)?;
    draw_curves(&mut chart, &curves, (n, &at), line)?;
    draw_crossovers(
        &mut chart,
        &root,
        crossover_marks(d, k, high),
        (y0, y1),
        style,
    )?;
    record(canvas, &prepared.geometry(&chart), style)?;
    root.present().map_err(draw_error)?;
    Ok(())
}

/// The operations of curve `which` (0 the CNN, 1 the RNN, 2 self-attention) among `costs`.
fn operations(costs: &LayerCosts, which: usize) -> f64 {
    match which {
        0 => costs.cnn.operations,
        1 => costs.rnn.operations,
        _ => costs.self_attention.operations,
    }
}

/// The three layers' operations at 80 lengths from 1 to `high`, each named and coloured.
fn cost_curves(d: usize, k: usize, high: usize, style: &FigureStyle) -> Vec<Curve> {
    let ns = log_spaced_lengths(1, high, 80);
    [
        (cnn_curve_label(k), colour(style.series(2))),
        (
            crate::message!("figure-complexity-chart-rnn"),
            colour(style.series(0)),
        ),
        (
            crate::message!("figure-complexity-chart-self-attention"),
            colour(style.series(4)),
        ),
    ]
    .into_iter()
    .enumerate()
    .map(|(which, (label, series_colour))| {
        let points = ns
            .iter()
            .filter_map(|&m| layer_costs(m, d, k).ok().map(|c| (m, c)))
            .map(|(m, c)| (m as f64, operations(&c, which)))
            .collect();
        (label, series_colour, points)
    })
    .collect()
}

/// The y axis's range: from half the fewest operations (at least 1) to twice the most.
fn operations_range(curves: &[Curve]) -> (f64, f64) {
    let (low_y, high_y) = curves
        .iter()
        .flat_map(|(_, _, p)| p.iter().map(|&(_, y)| y))
        .fold((f64::INFINITY, 0.0f64), |(lo, hi), y| {
            (lo.min(y), hi.max(y))
        });
    (low_y.max(1.0) * 0.5, high_y * 2.0)
}

/// Each curve, and on it a dot at the current n (whose costs are `at`).
fn draw_curves(
    chart: &mut Plane,
    curves: &[Curve],
    (n, at): (usize, &LayerCosts),
    line: u32,
) -> Result<(), WebError> {
    for (which, (_, series_colour, points)) in curves.iter().enumerate() {
        let series_colour = *series_colour;
        chart
            .draw_series(LineSeries::new(
                points.clone(),
                series_colour.stroke_width(line),
            ))
            .map_err(draw_error)?;
        // The current n.
        let y = operations(at, which);
        chart
            .draw_series(std::iter::once(Circle::new(
                (n as f64, y),
                line * 2,
                series_colour.filled(),
            )))
            .map_err(draw_error)?;
    }
    Ok(())
}

/// Where the crossovers' names go: rows down from the plot's top, beside their lines, in pixels.
struct NameRows {
    /// The plot's left and top edges.
    left: i32,
    top: i32,
    /// The height of a row of names, and the gap between a name and its line.
    row_px: i32,
    gap: i32,
}

/// The crossovers: vertical lines at n = d and n = k·d (those inside the axis), each named at the
/// top of the plot, beside its line, in pixels so that the names never cross a curve at any size:
/// left of its line every curve stays below its value there (at most k²·d³), and the axis reaches
/// at least 32·k² times higher (the x axis runs to at least 4·k·d). The name of n = k·d takes the
/// first row, that of n = d the second, so the two never meet; a name with no room left of its
/// line goes to its right.
fn draw_crossovers(
    chart: &mut Plane,
    root: &Area,
    mut marks: Vec<(f64, String, bool)>,
    (y0, y1): (f64, f64),
    style: &FigureStyle,
) -> Result<(), WebError> {
    let (xs, ys) = chart.plotting_area().get_pixel_range();
    let rows = NameRows {
        left: xs.start,
        top: ys.start,
        row_px: (1.3 * style.tick_px).ceil() as i32,
        gap: (0.4 * style.tick_px).ceil() as i32,
    };
    marks.sort_by_key(|&(_, _, cnn)| !cnn);
    let mark_colour = |cnn: bool| if cnn { style.series(2) } else { style.ink };
    // Every line first, then the names on their patches, so no line is drawn over a name.
    for (x, _, cnn) in &marks {
        chart
            .draw_series(DashedLineSeries::new(
                vec![(*x, y0), (*x, y1)],
                6,
                4,
                colour(mark_colour(*cnn)).stroke_width(style.axis_px.round() as u32 + 1),
            ))
            .map_err(draw_error)?;
    }
    for (row, (x, text, cnn)) in marks.into_iter().enumerate() {
        let mark = mark_colour(cnn);
        let line_x = chart.backend_coord(&(x, y1)).0;
        draw_crossover_name(root, &rows, (row, line_x), text, (mark, style))?;
    }
    Ok(())
}

/// One crossover's name in row `row`, beside its line at `line_x`, on a patch of paper in the
/// colour `mark`.
fn draw_crossover_name(
    root: &Area,
    rows: &NameRows,
    (row, line_x): (usize, i32),
    text: String,
    (mark, style): (Rgb, &FigureStyle),
) -> Result<(), WebError> {
    let (row_px, gap) = (rows.row_px, rows.gap);
    let font = text_style(style, style.tick_px, style.ink);
    let width = root.estimate_text_size(&text, &font).map_or(
        text.chars().count() as f64 * style.tick_px * 0.6,
        |(w, _)| f64::from(w),
    ) as i32;
    let top = rows.top + gap + row as i32 * row_px;
    let (at, anchor) = if line_x - gap - width >= rows.left {
        (line_x - gap, Pos::new(HPos::Right, VPos::Top))
    } else {
        (line_x + gap, Pos::new(HPos::Left, VPos::Top))
    };
    // A patch of paper under the name: the other crossover's dashed line may run through it.
    let left = if line_x - gap - width >= rows.left {
        at - width
    } else {
        at
    };
    let pad = (0.2 * style.tick_px).ceil() as i32;
    root.draw(&Rectangle::new(
        [
            // The first row's patch reaches the plot's top: no stub of a line above it.
            (left - pad, if row == 0 { rows.top + 1 } else { top - pad }),
            (left + width + pad, top + row_px - pad),
        ],
        colour(style.background).filled(),
    ))
    .map_err(draw_error)?;
    root.draw(&Text::new(
        text,
        (at, top),
        text_style(style, style.tick_px, mark).pos(anchor),
    ))
    .map_err(draw_error)?;
    Ok(())
}

fn format_axis(v: f64) -> String {
    if v >= 1e4 {
        format!("{v:.0e}")
    } else {
        format!("{v:.0}")
    }
}
