//! The one look of every plotters chart, written once: the paper filled with the style's
//! background, the legend beside or below the plot (never over the data, placed by
//! `model::chart_layout`), the y axis's title written level above the plot and the x axis's
//! below it (measured, cut to fit rather than clipped), tick labels, grid and axes in the style's
//! type and colours. Each chart builds its coordinates on [`Prepared::builder`], styles its mesh
//! with [`styled_mesh`] and reports where its parts went with [`Prepared::geometry`] (written on
//! the canvas by [`record`], which the end-to-end tests read).

use plotters::chart::{ChartBuilder, ChartContext, MeshStyle};
use plotters::coord::cartesian::Cartesian2d;
use plotters::coord::ranged1d::{Ranged, ValueFormatter};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use web_sys::HtmlCanvasElement;

use super::super::error::{draw_error, WebError};
use crate::model::chart_layout::{
    entry_origin, fit_text, legend_metrics, place_legend, LegendLayout, LegendMetrics, LegendSide,
};
use crate::model::figure_style::{FigureStyle, Rgb};
use crate::model::plot::PixelRect;

/// A style colour as plotters takes it.
pub fn colour(rgb: Rgb) -> RGBColor {
    RGBColor(rgb.0, rgb.1, rgb.2)
}

/// The style's font at `px` logical pixels. Built from its family rather than from the name
/// (`("sans-serif", px).into_font()`): plotters lower-cases a name with the full Unicode case
/// tables, 7 KB of the page for a name that is always one of these.
pub fn font(style: &FigureStyle, px: f64) -> FontDesc<'static> {
    let family = match style.font {
        "serif" => FontFamily::Serif,
        "monospace" => FontFamily::Monospace,
        "sans-serif" => FontFamily::SansSerif,
        name => FontFamily::Name(name),
    };
    FontDesc::new(family, px, FontStyle::Normal)
}

/// Text of `px` logical pixels in `rgb`, in the style's font.
pub fn text_style(style: &FigureStyle, px: f64, rgb: Rgb) -> TextStyle<'static> {
    font(style, px).color(&colour(rgb))
}

/// One entry of a legend: a line sample in the series' colour and its name.
pub struct LegendEntry {
    pub label: String,
    pub colour: RGBColor,
    /// The line's dash pattern (dash, gap in pixels), drawn on the sample as on the line; `None`:
    /// solid.
    pub pattern: Option<(u32, u32)>,
    /// The line's marker shape (see `Series::sparse_marker`), drawn on the sample.
    pub marker: Option<usize>,
}

impl LegendEntry {
    /// A solid line's entry, without a marker.
    pub fn line(label: String, colour: RGBColor) -> Self {
        Self {
            label,
            colour,
            pattern: None,
            marker: None,
        }
    }
}

/// What a chart's frame shows around its data.
pub struct ChartFrame<'a> {
    pub style: &'a FigureStyle,
    pub x_title: &'a str,
    pub y_title: &'a str,
    /// The widest tick labels the y axis can show (its ends, formatted): the room on the left is
    /// measured from them.
    pub y_ticks: &'a [String],
    pub legend: &'a [LegendEntry],
}

/// Where a chart's parts went, in logical pixels: the plot (inside the axes) and the legend.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChartGeometry {
    pub plot: PixelRect,
    pub legend: Option<PixelRect>,
    /// Legend entries whose text had to be cut (only ever one wider than the whole canvas).
    pub legend_cut: usize,
}

/// A canvas filled, its legend and y title drawn, and the area and sizes the chart is built with.
pub struct Prepared<DB: DrawingBackend> {
    pub area: DrawingArea<DB, Shift>,
    pub legend: Option<PixelRect>,
    legend_cut: usize,
    x_label_area: u32,
    y_label_area: u32,
    top: u32,
    right: u32,
    x_title: String,
}

/// The width of `text` at `font` on `area` (plotters measures with the canvas's own text metrics;
/// an estimate from the type size where it cannot).
pub fn measure<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    text: &str,
    font: &TextStyle,
) -> f64 {
    area.estimate_text_size(text, font)
        .map(|(w, _)| f64::from(w))
        .unwrap_or_else(|_| text.chars().count() as f64 * font.font.get_size() * 0.6)
}

/// Fills `root` with the style's paper, lays out and draws the legend and the y axis's title,
/// and returns where the chart goes.
pub fn prepare<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    frame: &ChartFrame,
) -> Result<Prepared<DB>, WebError> {
    let style = frame.style;
    root.fill(&colour(style.background)).map_err(draw_error)?;
    let (width, height) = root.dim_in_pixel();
    let (width, height) = (f64::from(width), f64::from(height));
    let legend_font = text_style(style, style.legend_px, style.ink);
    let widths: Vec<f64> = frame
        .legend
        .iter()
        .map(|e| measure(root, &e.label, &legend_font))
        .collect();
    let metrics = legend_metrics(style.legend_px);
    let layout = place_legend((width, height), &widths, metrics);
    let legend_cut = draw_legend(root, style, frame.legend, &layout, metrics, &legend_font)?;
    let chart = layout.chart;
    let area = root.clone().shrink(
        (chart.x0 as u32, chart.y0 as u32),
        (
            chart.width().max(1.0) as u32,
            chart.height().max(1.0) as u32,
        ),
    );

    let tick_font = text_style(style, style.tick_px, style.ink);
    let title_font = text_style(style, style.label_px, style.ink);
    let widest_tick = frame
        .y_ticks
        .iter()
        .map(|t| measure(root, t, &tick_font))
        .fold(0.0f64, f64::max);
    let y_label_area = (widest_tick + 0.9 * style.tick_px).ceil() as u32;
    let gap = (0.5 * style.tick_px).ceil();
    let x_title_room = chart.width() - f64::from(y_label_area) - gap;
    let x_title = fit_text(frame.x_title, x_title_room, |t| {
        measure(root, t, &title_font)
    });
    let x_label_area = if x_title.is_empty() {
        style.tick_px * 1.8
    } else {
        style.tick_px * 1.8 + style.label_px * 1.3
    }
    .ceil() as u32;
    let y_title = fit_text(frame.y_title, chart.width() - 2.0 * gap, |t| {
        measure(root, t, &title_font)
    });
    let top = if y_title.is_empty() {
        gap + 0.5 * style.tick_px
    } else {
        // Level, above the plot's top-left corner: read without turning the head, and never
        // cut by the plot's height.
        let at = (chart.x0 + gap, chart.y0 + gap);
        root.draw(&Text::new(
            y_title,
            (at.0 as i32, at.1 as i32),
            title_font.pos(Pos::new(HPos::Left, VPos::Top)),
        ))
        .map_err(draw_error)?;
        gap + style.label_px * 1.45
    };
    Ok(Prepared {
        area,
        legend: (layout.side != LegendSide::None).then_some(layout.legend),
        legend_cut,
        x_label_area,
        y_label_area,
        top: top.ceil() as u32,
        // Half the last x tick label may stand past the plot's right edge.
        right: (1.6 * style.tick_px).ceil() as u32,
        x_title,
    })
}

/// A line's marker (see `Series::sparse_marker`) of half-width `size` at `centre`: shape 0 a
/// circle, 1 a square, 2 a triangle, 3 a cross drawn `stroke` wide. The legend's sample and the
/// line itself draw the same one.
pub fn draw_marker<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    centre: (i32, i32),
    size: i32,
    colour: RGBColor,
    stroke: u32,
    shape: usize,
) -> Result<(), WebError> {
    let (c, s) = (centre, size);
    let fill = colour.filled();
    match shape % 4 {
        0 => root.draw(&Circle::new(c, s as u32, fill)),
        1 => root.draw(&Rectangle::new(
            [(c.0 - s, c.1 - s), (c.0 + s, c.1 + s)],
            fill,
        )),
        2 => root.draw(&Polygon::new(
            vec![
                (c.0, c.1 - s - 1),
                (c.0 - s - 1, c.1 + s),
                (c.0 + s + 1, c.1 + s),
            ],
            fill,
        )),
        _ => {
            let thick = colour.stroke_width(stroke);
            root.draw(&PathElement::new(
                vec![(c.0 - s, c.1 - s), (c.0 + s, c.1 + s)],
                thick,
            ))
            .and_then(|_| {
                root.draw(&PathElement::new(
                    vec![(c.0 - s, c.1 + s), (c.0 + s, c.1 - s)],
                    thick,
                ))
            })
        }
    }
    .map_err(draw_error)
}

/// Draws the legend's entries; returns how many had their text cut to fit.
fn draw_legend<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    style: &FigureStyle,
    entries: &[LegendEntry],
    layout: &LegendLayout,
    metrics: LegendMetrics,
    font: &TextStyle,
) -> Result<usize, WebError> {
    let room = layout.text_width;
    let mut cut = 0;
    for (k, entry) in entries.iter().enumerate() {
        let (x, y) = entry_origin(layout, k, metrics);
        let (x, y) = (x as i32, y as i32);
        let sample = (metrics.swatch - 0.5 * metrics.gap) as i32;
        let stroke = entry.colour.stroke_width(style.line_px.round() as u32);
        match entry.pattern {
            // The line's own dashes, from the sample's left end, as the chart draws them.
            Some((dash, gap)) if dash > 0 => {
                let (dash, gap) = (dash as i32, gap as i32);
                let mut from = 0;
                while from < sample {
                    let to = (from + dash).min(sample);
                    root.draw(&PathElement::new(vec![(x + from, y), (x + to, y)], stroke))
                        .map_err(draw_error)?;
                    from = to + gap;
                }
            }
            _ => {
                root.draw(&PathElement::new(vec![(x, y), (x + sample, y)], stroke))
                    .map_err(draw_error)?;
            }
        }
        if let Some(shape) = entry.marker {
            let size = (style.line_px.round() as i32 + 3).max(3);
            let stroke = style.line_px.round() as u32 + 1;
            draw_marker(root, (x + sample / 2, y), size, entry.colour, stroke, shape)?;
        }
        let label = fit_text(&entry.label, room, |t| measure(root, t, font));
        cut += usize::from(label != entry.label);
        root.draw(&Text::new(
            label,
            (x + metrics.swatch as i32, y),
            font.pos(Pos::new(HPos::Left, VPos::Center)),
        ))
        .map_err(draw_error)?;
    }
    Ok(cut)
}

impl<DB: DrawingBackend> Prepared<DB> {
    /// A chart builder on the prepared area, with the room for ticks and titles reserved.
    pub fn builder(&self) -> ChartBuilder<'_, '_, DB> {
        let mut builder = ChartBuilder::on(&self.area);
        builder
            .margin_top(self.top)
            .margin_left(4)
            .margin_right(self.right)
            .margin_bottom(4)
            .x_label_area_size(self.x_label_area)
            .y_label_area_size(self.y_label_area);
        builder
    }

    /// Room for `rows` more lines of x tick labels below the axis (staggered category names: see
    /// `model::chart_layout::category_label_rows`).
    pub fn add_x_label_rows(&mut self, rows: usize, style: &FigureStyle) {
        self.x_label_area += (rows as f64 * style.tick_px * 1.2).ceil() as u32;
    }

    /// The x axis's title, cut to the chart's width.
    pub fn x_title(&self) -> &str {
        &self.x_title
    }

    /// Where the plot of `chart` and the legend are.
    pub fn geometry<CT: CoordTranslate>(&self, chart: &ChartContext<DB, CT>) -> ChartGeometry {
        let (xs, ys) = chart.plotting_area().get_pixel_range();
        ChartGeometry {
            plot: PixelRect {
                x0: f64::from(xs.start),
                y0: f64::from(ys.start),
                x1: f64::from(xs.end),
                y1: f64::from(ys.end),
            },
            legend: self.legend,
            legend_cut: self.legend_cut,
        }
    }
}

/// The mesh of every chart: bold grid lines in the style's grid colour (no light ones), axes in
/// its frame colour, ticks and the x title in its ink and type; at most `labels` (across, down)
/// tick labels, fewer where the plot is too small for them to stand apart. The caller adds its
/// formatters, then draws it.
pub fn styled_mesh<'a, 'b, DB, X, Y, XT, YT>(
    chart: &'b mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    prepared: &Prepared<DB>,
    style: &FigureStyle,
    (across, down): (usize, usize),
) -> MeshStyle<'a, 'b, X, Y, DB>
where
    DB: DrawingBackend,
    X: Ranged<ValueType = XT> + ValueFormatter<XT>,
    Y: Ranged<ValueType = YT> + ValueFormatter<YT>,
{
    let (width, height) = chart.plotting_area().dim_in_pixel();
    let fits = |room: u32, spacing: f64| ((f64::from(room) / spacing).floor() as usize).max(2);
    let across = across.min(fits(width, 4.0 * style.tick_px));
    let down = down.min(fits(height, 2.2 * style.tick_px));
    let mut mesh = chart.configure_mesh();
    mesh.light_line_style(colour(style.background).mix(0.0))
        .bold_line_style(colour(style.grid).stroke_width(1))
        .axis_style(colour(style.frame).stroke_width(style.axis_px.round() as u32))
        .label_style(text_style(style, style.tick_px, style.ink))
        .axis_desc_style(text_style(style, style.label_px, style.ink))
        .set_all_tick_mark_size((0.35 * style.tick_px) as u32)
        .x_labels(across)
        .y_labels(down);
    if !prepared.x_title.is_empty() {
        mesh.x_desc(prepared.x_title.clone());
    }
    mesh
}

/// Writes where a chart's plot and legend are on its canvas (`data-plot-area`, `data-legend`:
/// "x0 y0 x1 y1" in logical pixels, `data-legend-cut`: entries whose text was cut, and
/// `data-tick-px`), for the end-to-end tests.
pub fn record(
    canvas: &HtmlCanvasElement,
    geometry: &ChartGeometry,
    style: &FigureStyle,
) -> Result<(), WebError> {
    let rect = |r: &PixelRect| format!("{} {} {} {}", r.x0, r.y0, r.x1, r.y1);
    canvas.set_attribute("data-plot-area", &rect(&geometry.plot))?;
    match &geometry.legend {
        Some(legend) => canvas.set_attribute("data-legend", &rect(legend))?,
        None => canvas.remove_attribute("data-legend")?,
    }
    canvas.set_attribute("data-legend-cut", &geometry.legend_cut.to_string())?;
    canvas.set_attribute("data-tick-px", &style.tick_px.to_string())?;
    Ok(())
}

/// A linear or a logarithmic axis of f64, chosen at run time. Every chart on f64 axes builds on
/// it, so that plotters' generic drawing code (mesh, labels, series) is compiled once for them all
/// instead of once per combination of axis kinds (each several kilobytes of the page's wasm).
/// Every call goes to plotters' own coordinate of that kind, so ticks and positions are the same
/// as with the kinds themselves.
pub enum Axis {
    Linear(RangedCoordf64),
    Log(LogCoord<f64>),
    /// Linear, with the ticks given (the heatmaps' integer cell indices, see `integer_ticks`), so
    /// that n = 1 still gets its "0" and no tick falls between two cells. (plotters'
    /// `WithKeyPoints` cannot be labelled with a custom formatter.)
    Ticked(RangedCoordf64, Vec<f64>),
}

impl Axis {
    pub fn linear(range: std::ops::Range<f64>) -> Self {
        Axis::Linear(range.into())
    }

    pub fn log(range: std::ops::Range<f64>) -> Self {
        Axis::Log(range.log_scale().into())
    }

    pub fn ticked(range: std::ops::Range<f64>, ticks: Vec<f64>) -> Self {
        Axis::Ticked(range.into(), ticks)
    }

    pub fn new(range: std::ops::Range<f64>, log: bool) -> Self {
        if log {
            Axis::Log(range.log_scale().into())
        } else {
            Axis::Linear(range.into())
        }
    }
}

impl Ranged for Axis {
    type FormatOption = plotters::coord::ranged1d::DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        match self {
            Axis::Linear(axis) | Axis::Ticked(axis, _) => axis.map(value, limit),
            Axis::Log(axis) => axis.map(value, limit),
        }
    }

    fn key_points<Hint: plotters::coord::ranged1d::KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        match self {
            Axis::Linear(axis) => axis.key_points(hint),
            Axis::Log(axis) => axis.key_points(hint),
            // Ticks and bold grid lines only: no light lines between cell indices.
            Axis::Ticked(_, ticks) => {
                if hint.max_num_points() == 0 || hint.weight().allow_light_points() {
                    Vec::new()
                } else {
                    ticks.clone()
                }
            }
        }
    }

    fn range(&self) -> std::ops::Range<f64> {
        match self {
            Axis::Linear(axis) | Axis::Ticked(axis, _) => axis.range(),
            Axis::Log(axis) => axis.range(),
        }
    }

    fn axis_pixel_range(&self, limit: (i32, i32)) -> std::ops::Range<i32> {
        match self {
            Axis::Linear(axis) | Axis::Ticked(axis, _) => axis.axis_pixel_range(limit),
            Axis::Log(axis) => axis.axis_pixel_range(limit),
        }
    }
}
