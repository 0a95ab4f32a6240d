//! What the panels of the encoding families share: a line chart of labelled series (linear or
//! log axes) and a matrix drawn as one heatmap image (a bias matrix, attention weights, a table).

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use web_sys::HtmlCanvasElement;

use super::super::draw::chart::{
    colour, draw_marker, prepare, record, styled_mesh, text_style, Axis, ChartFrame, LegendEntry,
    Prepared,
};
use super::super::draw::heatmap::{
    draw_heatmap_frame, paint_cells, paint_diverging, HeatmapAxes, RgbaImage,
};
use super::super::error::{draw_error, WebError};
use crate::math::colormap::{diverging_part_bar_rgba, sequential_bar_rgba, sequential_rgba};
use crate::model::figure_style::FigureStyle;
use crate::model::plot::PixelRect;
use crate::web::surface::{self, Plotting};

/// A [`Series::colour`] that is the style's muted grey rather than a palette colour (a
/// reference line: chance).
pub const MUTED: usize = usize::MAX;
/// A [`Series::colour`] that is the style's ink (a reference line that matters: a ceiling).
pub const INK: usize = usize::MAX - 1;

fn series_rgb(style: &FigureStyle, k: usize) -> crate::model::figure_style::Rgb {
    match k {
        MUTED => style.muted,
        INK => style.ink,
        k => style.series(k),
    }
}

/// The dash pattern of a [`Series::dashed`] line (dash, gap in pixels).
const DASHED: (u32, u32) = (8, 5);

/// One curve of a line chart.
#[derive(Default)]
pub struct Series {
    pub label: String,
    /// An index into the page's palette.
    pub colour: usize,
    pub points: Vec<(f64, f64)>,
    pub dashed: bool,
    /// Draw a marker at every point (few points, or steps that must be seen).
    pub markers: bool,
    /// A dash pattern (dash, gap in pixels) other than `dashed`'s, so that more series than the
    /// palette has colours are told apart without colour; `None`: solid, or `dashed`'s.
    pub pattern: Option<(u32, u32)>,
    /// A shaded range around the line, (x, low, high): the spread over seeds.
    pub band: Vec<(f64, f64, f64)>,
    /// A marker every `every` points, its shape chosen by the value (0 circle, 1 square, 2
    /// triangle, 3 cross), so that a line is named without colour.
    pub sparse_marker: Option<(usize, usize)>,
}

/// A line chart: axes, their scales and the series.
pub struct LineChart<'a> {
    pub style: &'a FigureStyle,
    pub x_desc: &'a str,
    pub y_desc: &'a str,
    pub log_x: bool,
    pub log_y: bool,
    pub series: Vec<Series>,
    /// The y range; `None`: fitted to the points with a margin.
    pub y_range: Option<(f64, f64)>,
    /// Vertical marker lines (x, label).
    pub marks: Vec<(f64, String)>,
}

fn finite_points(series: &[Series], log_x: bool, log_y: bool) -> Vec<(f64, f64)> {
    series
        .iter()
        .flat_map(|s| s.points.iter().copied())
        .filter(|point| plottable(point, log_x, log_y))
        .collect()
}

fn span(values: impl Iterator<Item = f64>) -> (f64, f64) {
    values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    })
}

/// Pads a range: linear by 8 % of its width, log by a factor 1.5 on each side; a flat or empty
/// range gets a width of its own.
fn padded(lo: f64, hi: f64, log: bool) -> (f64, f64) {
    if !lo.is_finite() || !hi.is_finite() {
        return if log { (0.1, 10.0) } else { (-1.0, 1.0) };
    }
    if log {
        if hi <= lo {
            (lo / 10.0, hi * 10.0)
        } else {
            (lo / 1.5, hi * 1.5)
        }
    } else if hi <= lo {
        (lo - 1.0, hi + 1.0)
    } else {
        let pad = (hi - lo) * 0.08;
        (lo - pad, hi + pad)
    }
}

/// A tick label: scientific for log axes and very large or small values.
fn tick_label(v: f64, log: bool) -> String {
    let a = v.abs();
    if log || (a != 0.0 && !(1e-3..1e5).contains(&a)) {
        let exponent = a.log10().round();
        if log && (a.log10() - exponent).abs() < 1e-6 {
            return format!("1e{exponent:.0}");
        }
        format!("{v:.0e}")
    } else if a >= 100.0 || v == v.round() {
        format!("{v:.0}")
    } else if a >= 1.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

/// Whether a point can be drawn: finite, and above 0 on a log axis.
fn plottable(&(x, y): &(f64, f64), log_x: bool, log_y: bool) -> bool {
    x.is_finite() && y.is_finite() && (!log_x || x > 0.0) && (!log_y || y > 0.0)
}

/// Whether a band's point (x, low, high) can be drawn: finite, its low above 0 on a log axis.
fn band_plottable(&(x, lo, hi): &(f64, f64, f64), log_y: bool) -> bool {
    x.is_finite() && lo.is_finite() && hi.is_finite() && (!log_y || lo > 0.0)
}

/// The x range of the points (padded only where they have no width) and the y range (the
/// chart's own, or the points' with a margin).
fn ranges(chart: &LineChart) -> ((f64, f64), (f64, f64)) {
    let points = finite_points(&chart.series, chart.log_x, chart.log_y);
    let (x0, x1) = span(points.iter().map(|p| p.0));
    let x = if x1 > x0 {
        (x0, x1)
    } else {
        padded(x0, x1, chart.log_x)
    };
    let y = chart.y_range.unwrap_or_else(|| {
        let (lo, hi) = span(points.iter().map(|p| p.1));
        padded(lo, hi, chart.log_y)
    });
    (x, y)
}

/// The legend: each series' name with its colour, dashes and marker.
fn legend_entries(chart: &LineChart) -> Vec<LegendEntry> {
    chart
        .series
        .iter()
        .map(|series| LegendEntry {
            label: series.label.clone(),
            colour: colour(series_rgb(chart.style, series.colour)),
            pattern: series.pattern.or(series.dashed.then_some(DASHED)),
            marker: series.sparse_marker.map(|m| m.1),
        })
        .collect()
}

/// The tick labels that size the axis: both ends and a value between them (the ends of a 0…1
/// axis are "0" and "1", its inner ticks "0.80": sized by the ends alone, they were cut).
fn sizing_y_ticks((y0, y1): (f64, f64), log: bool) -> [String; 3] {
    let middle = if log {
        (y0 * y1).sqrt()
    } else {
        (y0 + y1) / 2.0
    };
    [
        tick_label(y0, log),
        tick_label(middle, log),
        tick_label(y1, log),
    ]
}

/// Draws a line chart into `canvas`.
pub fn draw_lines(canvas: &HtmlCanvasElement, chart: &LineChart) -> Result<(), WebError> {
    let backend = surface::plotting(canvas)?;
    let root = backend.into_drawing_area();
    let (x, y) = ranges(chart);
    let style = chart.style;
    let legend = legend_entries(chart);
    let y_ticks = sizing_y_ticks(y, chart.log_y);
    let prepared = prepare(
        &root,
        &ChartFrame {
            style,
            x_title: chart.x_desc,
            y_title: chart.y_desc,
            y_ticks: &y_ticks,
            legend: &legend,
        },
    )?;
    draw_plot(canvas, &root, &prepared, chart, (x, y))?;
    root.present().map_err(draw_error)?;
    Ok(())
}

/// The canvas a chart is drawn on, or a part of it.
type Area = DrawingArea<Plotting<'static>, Shift>;

/// The axes, marks, bands and series of `chart` over the ranges `(x, y)`, and where they went
/// recorded on the canvas.
fn draw_plot(
    canvas: &HtmlCanvasElement,
    root: &Area,
    prepared: &Prepared<Plotting<'static>>,
    chart: &LineChart,
    ((x0, x1), (y0, y1)): ((f64, f64), (f64, f64)),
) -> Result<(), WebError> {
    let style = chart.style;
    let mut plot = prepared
        .builder()
        .build_cartesian_2d(
            Axis::new(x0..x1, chart.log_x),
            Axis::new(y0..y1, chart.log_y),
        )
        .map_err(draw_error)?;
    styled_mesh(&mut plot, prepared, style, (8, 7))
        .x_label_formatter(&|v| tick_label(*v, chart.log_x))
        .y_label_formatter(&|v| tick_label(*v, chart.log_y))
        .draw()
        .map_err(draw_error)?;
    let mut lines = LinePlot {
        plot,
        root,
        chart,
        line: style.line_px.round() as u32 + 1,
    };
    lines.draw_marks((y0, y1))?;
    lines.draw_bands()?;
    lines.draw_curves()?;
    record(canvas, &prepared.geometry(&lines.plot), style)
}

/// A line chart's plot, with what its drawing steps share: the canvas around it (for what is
/// drawn in pixels), the chart and the width of its lines.
struct LinePlot<'a, 'b> {
    plot: ChartContext<'a, Plotting<'static>, Cartesian2d<Axis, Axis>>,
    root: &'b Area,
    chart: &'b LineChart<'b>,
    line: u32,
}

impl LinePlot<'_, '_> {
    /// The vertical marker lines over the y range `(y0, y1)`, each named at the top of the plot.
    fn draw_marks(&mut self, (y0, y1): (f64, f64)) -> Result<(), WebError> {
        let style = self.chart.style;
        for (x, label) in &self.chart.marks {
            let mark = colour(style.muted).stroke_width(style.axis_px.round() as u32 + 1);
            self.plot
                .draw_series(DashedLineSeries::new(vec![(*x, y0), (*x, y1)], 6, 4, mark))
                .map_err(draw_error)?;
            // The mark's name, just right of the line at the top of the plot.
            let (at_x, at_y) = self.plot.backend_coord(&(*x, y1));
            self.root
                .draw(&Text::new(
                    label.clone(),
                    (at_x + 4, at_y + 2),
                    text_style(style, style.tick_px, style.muted)
                        .pos(Pos::new(HPos::Left, VPos::Top)),
                ))
                .map_err(draw_error)?;
        }
        Ok(())
    }

    /// Each series' band, shaded under every line.
    fn draw_bands(&mut self) -> Result<(), WebError> {
        let (style, log_y) = (self.chart.style, self.chart.log_y);
        for series in self.chart.series.iter().filter(|s| !s.band.is_empty()) {
            let fill = colour(series_rgb(style, series.colour)).mix(0.16).filled();
            let mut outline: Vec<(f64, f64)> = series
                .band
                .iter()
                .filter(|point| band_plottable(point, log_y))
                .map(|&(x, lo, _)| (x, lo))
                .collect();
            let upper: Vec<(f64, f64)> = series
                .band
                .iter()
                .rev()
                .filter(|point| band_plottable(point, log_y))
                .map(|&(x, _, hi)| (x, hi))
                .collect();
            outline.extend(upper);
            if outline.len() >= 3 {
                self.plot
                    .draw_series(std::iter::once(Polygon::new(outline, fill)))
                    .map_err(draw_error)?;
            }
        }
        Ok(())
    }

    /// Every series' line and markers, in the chart's order.
    fn draw_curves(&mut self) -> Result<(), WebError> {
        let chart = self.chart;
        // Each line's sparse markers start at its own offset within the marker spacing, so that
        // two lines which coincide (the loss of two encodings that learn nothing) still show both
        // markers.
        let marked = chart
            .series
            .iter()
            .filter(|s| s.sparse_marker.is_some())
            .count()
            .max(1);
        let mut marked_rank = 0;
        for series in &chart.series {
            let phase = series.sparse_marker.map(|(every, _)| {
                let phase = every.max(1) * marked_rank / marked;
                marked_rank += 1;
                phase
            });
            self.draw_curve(series, phase)?;
        }
        Ok(())
    }

    /// One series: its line (solid or dashed), its sparse markers from `phase` on, and a marker
    /// at every point where it asks for them.
    fn draw_curve(&mut self, series: &Series, phase: Option<usize>) -> Result<(), WebError> {
        let (chart, line) = (self.chart, self.line);
        let series_colour = colour(series_rgb(chart.style, series.colour));
        let stroke = series_colour.stroke_width(line);
        let kept: Vec<(f64, f64)> = series
            .points
            .iter()
            .copied()
            .filter(|point| plottable(point, chart.log_x, chart.log_y))
            .collect();
        if let Some((dash, gap)) = series.pattern {
            self.plot
                .draw_series(DashedLineSeries::new(kept.clone(), dash, gap, stroke))
                .map_err(draw_error)?;
        } else if series.dashed {
            self.plot
                .draw_series(DashedLineSeries::new(
                    kept.clone(),
                    DASHED.0,
                    DASHED.1,
                    stroke,
                ))
                .map_err(draw_error)?;
        } else {
            self.plot
                .draw_series(LineSeries::new(kept.clone(), stroke))
                .map_err(draw_error)?;
        }
        if let (Some((every, shape)), Some(phase)) = (series.sparse_marker, phase) {
            for &(x, y) in kept.iter().skip(phase).step_by(every.max(1)) {
                let centre = self.plot.backend_coord(&(x, y));
                draw_marker(
                    self.root,
                    centre,
                    (line + 3) as i32,
                    series_colour,
                    line + 1,
                    shape,
                )?;
            }
        }
        if series.markers {
            self.plot
                .draw_series(
                    kept.iter()
                        .map(|&(x, y)| Circle::new((x, y), line + 1, series_colour.filled())),
                )
                .map_err(draw_error)?;
        }
        Ok(())
    }
}

/// How a matrix's values become colours.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scale {
    /// Blue–white–red from −limit to +limit (signed values: biases, scores).
    Diverging(f32),
    /// Viridis from 0 (dark purple) to 1 (yellow): attention weights after the softmax, on the
    /// map the attention, pipeline and heads panels draw them in, so that a weight has one
    /// colour on every figure.
    Weights,
}

/// The axis titles of a matrix over positions: keys j along x, queries i along y.
pub fn key_query_axes() -> (String, String) {
    (
        crate::message!("label-axis-key-position-j"),
        crate::message!("label-axis-query-position-i"),
    )
}

/// The axes and colour bar of a `rows × columns` matrix heatmap; returns where the cells go (the
/// caller paints them: [`draw_matrix`] from CPU values, or a WebGPU kernel's render pass).
pub fn matrix_frame(
    canvas: &HtmlCanvasElement,
    scratch: &HtmlCanvasElement,
    (rows, columns): (usize, usize),
    scale: Scale,
    (x_desc, y_desc): (&str, &str),
    (x_names, y_names): (Option<&[String]>, Option<&[String]>),
) -> Result<PixelRect, WebError> {
    let limit = scale.limit();
    let (bar_low, bar_pixels) = match scale {
        Scale::Diverging(_) => (-limit, diverging_part_bar_rgba(256, -limit, -limit, limit)),
        Scale::Weights => (0.0, sequential_bar_rgba(256, 0.0, limit)),
    };
    draw_heatmap_frame(
        canvas,
        scratch,
        rows,
        columns,
        &RgbaImage {
            width: 1,
            height: bar_pixels.len() / 4,
            pixels: &bar_pixels,
        },
        &HeatmapAxes {
            x_desc,
            y_desc,
            value_range: (bar_low, limit),
            x_names,
            y_names,
        },
    )
}

impl Scale {
    /// The end of the scale (a positive, finite number).
    fn limit(self) -> f32 {
        let limit = match self {
            Scale::Diverging(limit) => limit,
            Scale::Weights => 1.0,
        };
        if limit > 0.0 && limit.is_finite() {
            limit
        } else {
            1.0
        }
    }
}

/// A matrix of `rows × columns` values (row-major) as one heatmap image with its axes and colour
/// bar. NaN entries (masked, or no value) are grey.
pub fn draw_matrix(
    canvas: &HtmlCanvasElement,
    scratch: &HtmlCanvasElement,
    values: &[f32],
    shape: (usize, usize),
    scale: Scale,
    descs: (&str, &str),
    names: (Option<&[String]>, Option<&[String]>),
) -> Result<(), WebError> {
    draw_matrix_in(canvas, scratch, values, shape, scale, descs, names).map(|_| ())
}

/// [`draw_matrix`], returning where the cells went (logical pixels; none for an empty matrix), for
/// a figure that writes on them.
pub fn draw_matrix_in(
    canvas: &HtmlCanvasElement,
    scratch: &HtmlCanvasElement,
    values: &[f32],
    (rows, columns): (usize, usize),
    scale: Scale,
    descs: (&str, &str),
    names: (Option<&[String]>, Option<&[String]>),
) -> Result<Option<PixelRect>, WebError> {
    if rows == 0 || columns == 0 || values.len() != rows * columns {
        return Ok(None);
    }
    let rect = matrix_frame(canvas, scratch, (rows, columns), scale, descs, names)?;
    let limit = scale.limit();
    if scale == Scale::Weights {
        // Cell-sized viridis pixels, resampled like the diverging ones (and like the WebGPU
        // heatmap pass): the weight maps here are at most a few hundred cells a side.
        let pixels = sequential_rgba(values, 0.0, limit);
        paint_cells(
            canvas,
            scratch,
            &RgbaImage {
                width: columns,
                height: rows,
                pixels: &pixels,
            },
            rect,
        )?;
        return Ok(Some(rect));
    }
    paint_diverging(
        canvas,
        scratch,
        values,
        (rows, columns),
        (-limit, limit),
        rect,
    )?;
    Ok(Some(rect))
}
