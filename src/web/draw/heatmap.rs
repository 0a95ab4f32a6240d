//! A heatmap panel: plotters draws the axes, their labels and the colour bar's scale; the cells are
//! one image (ImageData) scaled into the plotting area, never one rectangle per cell.

use crate::web::surface;
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use wasm_bindgen::Clamped;
use web_sys::{HtmlCanvasElement, ImageData};

use crate::math::colormap::{diverging_resampled_rgba, resample_rgba};
use crate::model::plot::{integer_ticks, PixelRect};
use crate::web::dom::context_2d;
use crate::web::error::{draw_error, WebError};

/// An RGBA image with one pixel per matrix cell.
pub struct RgbaImage<'a> {
    pub width: usize,
    pub height: usize,
    pub pixels: &'a [u8],
}

/// What the axes say and the value range of the colour bar.
pub struct HeatmapAxes<'a> {
    pub x_desc: &'a str,
    pub y_desc: &'a str,
    pub value_range: (f32, f32),
    /// Names of the columns (token labels, drawn slanted) instead of their indices.
    pub x_names: Option<&'a [String]>,
    /// Names of the rows instead of their indices.
    pub y_names: Option<&'a [String]>,
}

/// Token names longer than this are shortened with "…" on the axes.
const NAME_CHARS: usize = 12;

fn short_name(name: &str) -> String {
    if name.chars().count() <= NAME_CHARS {
        name.to_string()
    } else {
        let prefix: String = name.chars().take(NAME_CHARS - 1).collect();
        format!("{prefix}…")
    }
}

/// Approximate width in canvas pixels of the longest (shortened) name at `LABEL_FONT`.
fn names_width(names: &[String]) -> u32 {
    let chars = names
        .iter()
        .map(|n| n.chars().count().min(NAME_CHARS))
        .max()
        .unwrap_or(1);
    chars as u32 * 8 + 4
}

/// The name of cell `v` (an integer tick), empty between cells.
fn name_label(names: &[String], v: f64) -> String {
    if (v - v.round()).abs() > 1e-9 || v < 0.0 {
        return String::new();
    }
    names
        .get(v.round() as usize)
        .map(|n| short_name(n))
        .unwrap_or_default()
}

/// Colour-bar labels with as many decimals as the range needs (0…1: 0.25; ±16: 8.0; ±1024: 512).
fn bar_label(v: f64, span: f64) -> String {
    if span >= 100.0 {
        format!("{v:.0}")
    } else if span >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

/// Width in canvas pixels of the colour bar with its labels.
const BAR_AREA: u32 = 96;
pub const LABEL_FONT: (&str, u32) = ("sans-serif", 15);
pub const DESC_FONT: (&str, u32) = ("sans-serif", 17);

/// An f64 axis whose ticks are given (integer cell indices, see `integer_ticks`), so that n = 1
/// still gets its "0" and no tick falls between two cells. (plotters' `WithKeyPoints` cannot be
/// labelled with a custom formatter.)
#[derive(Clone)]
pub struct TickedAxis {
    inner: RangedCoordf64,
    ticks: Vec<f64>,
}

impl TickedAxis {
    pub fn new(range: std::ops::Range<f64>, ticks: Vec<f64>) -> Self {
        TickedAxis {
            inner: range.into(),
            ticks,
        }
    }
}

impl Ranged for TickedAxis {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        self.inner.map(value, limit)
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        // Ticks and bold grid lines only: no light lines between cell indices.
        if hint.max_num_points() == 0 || hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.ticks.clone()
        }
    }

    fn range(&self) -> std::ops::Range<f64> {
        self.inner.range()
    }
}

/// Cell indices only: a tick between two cells gets no label.
pub fn index_label(v: &f64) -> String {
    if (v - v.round()).abs() < 1e-9 && *v >= 0.0 {
        format!("{}", v.round() as i64)
    } else {
        String::new()
    }
}

/// Pixels of the colour bar image (one column).
const BAR_PIXELS: usize = 256;

/// The axes, labels and colour bar of the heatmap of P (n rows, d columns); returns where its
/// cells go. `first_position` = 1 (`?index=1`, the Julia edition): rows are labelled with their
/// positions 1…n and columns 1…d.
pub fn draw_encoding_axes(
    canvas: &HtmlCanvasElement,
    scratch: &HtmlCanvasElement,
    n: usize,
    d: usize,
    first_position: usize,
) -> Result<PixelRect, WebError> {
    let bar = crate::math::colormap::diverging_bar_rgba(BAR_PIXELS, -1.0, 1.0);
    let one_based = first_position != 0;
    draw_heatmap_frame_numbered(
        canvas,
        scratch,
        n,
        d,
        &RgbaImage {
            width: 1,
            height: BAR_PIXELS,
            pixels: &bar,
        },
        &HeatmapAxes {
            x_desc: if one_based {
                "Column (encoding dimension, counted from 1)"
            } else {
                "Column (encoding dimension)"
            },
            y_desc: if one_based {
                "Row (position, from 1)"
            } else {
                "Row (position)"
            },
            value_range: (-1.0, 1.0),
            x_names: None,
            y_names: None,
        },
        usize::from(one_based),
    )
}

/// Ticks for `count` cells labelled `first, first + 1, …`: the cells whose labels are round
/// numbers (multiples of 1, 2 or 5 × 10^k), as cell indices. `first` = 0: [`integer_ticks`].
pub fn numbered_ticks(count: usize, first: usize, max_ticks: usize) -> Vec<f64> {
    if first == 0 {
        return integer_ticks(count, max_ticks);
    }
    let first_label = first as f64;
    let mut ticks: Vec<f64> = integer_ticks(count + first, max_ticks)
        .into_iter()
        .filter(|&label| label >= first_label)
        .map(|label| label - first_label)
        .collect();
    // The first cell is labelled too (n = 1 still gets its "1") unless a round label sits less
    // than half a step after it.
    let gap = match ticks.as_slice() {
        [a, b, ..] => b - a,
        _ => 0.0,
    };
    if ticks.first().map_or(true, |&t| t > gap / 2.0) {
        ticks.insert(0, 0.0);
    }
    ticks
}

/// A cell index as its label `index + first`; nothing between cells.
pub fn numbered_label(v: f64, first: usize) -> String {
    if (v - v.round()).abs() < 1e-9 && v >= 0.0 {
        format!("{}", v.round() as i64 + first as i64)
    } else {
        String::new()
    }
}

/// Draws the axes (a `rows × columns` grid of cells, row 0 at the top) and the colour bar, and
/// returns the pixel rectangle where the cell image goes; the caller paints the cells, from CPU
/// pixels ([`paint_cells`]) or from a WebGPU canvas.
pub fn draw_heatmap_frame(
    canvas: &HtmlCanvasElement,
    scratch: &HtmlCanvasElement,
    rows: usize,
    columns: usize,
    bar: &RgbaImage,
    axes: &HeatmapAxes,
) -> Result<PixelRect, WebError> {
    draw_heatmap_frame_numbered(canvas, scratch, rows, columns, bar, axes, 0)
}

/// [`draw_heatmap_frame`] with the index labels counted from `first` (1: the Julia edition's
/// numbering); names, where given, are unchanged.
fn draw_heatmap_frame_numbered(
    canvas: &HtmlCanvasElement,
    scratch: &HtmlCanvasElement,
    rows: usize,
    columns: usize,
    bar: &RgbaImage,
    axes: &HeatmapAxes,
    first: usize,
) -> Result<PixelRect, WebError> {
    let backend = surface::plotting(canvas)?;
    let root = backend.into_drawing_area();
    root.fill(&WHITE).map_err(draw_error)?;
    let (width, _) = root.dim_in_pixel();
    let (main, bar_area) = root.split_horizontally(width.saturating_sub(BAR_AREA));

    // Names take the room they need (slanted names on x: about 0.7 of their length, plus the
    // description); indices keep the fixed areas.
    let x_area = axes.x_names.map_or(52, |names| {
        (names_width(names) * 7 / 10 + 40).clamp(52, 140)
    });
    let y_area = axes
        .y_names
        .map_or(64, |names| (names_width(names) + 40).clamp(64, 150));
    let (main_width, main_height) = main.dim_in_pixel();
    // With names, as many ticks as fit (a name needs ~17 px of height, ~16 px across when slanted).
    // Indices: at most 12, fewer on a narrow canvas (a label of k digits needs ~9k + 14 px).
    let index_width = (columns.max(1) + first).to_string().len() as u32 * 9 + 14;
    let x_ticks = match axes.x_names {
        Some(_) => (main_width.saturating_sub(y_area + 24) / 16).max(2) as usize,
        None => (main_width.saturating_sub(y_area + 24) / index_width).clamp(2, 12) as usize,
    };
    // A label needs ~17 px of height (the font's 15 px and a gap): at most 10 index labels, fewer
    // on a short canvas (a phone), so that they never overlap.
    let y_ticks = (main_height.saturating_sub(x_area + 24) / 17).max(2) as usize;
    let y_ticks = axes.y_names.map_or(y_ticks.min(10), |_| y_ticks);
    let (columns, rows) = (columns as f64, rows as f64);
    // Cell k spans [k − ½, k + ½), so integer ticks sit at cell centres. Row 0 at the top, as in
    // the chapter's figure: the y range runs downwards.
    let mut chart = ChartBuilder::on(&main)
        .margin(12)
        .x_label_area_size(x_area)
        .y_label_area_size(y_area)
        .build_cartesian_2d(
            TickedAxis::new(
                -0.5..columns - 0.5,
                match axes.x_names {
                    Some(_) => integer_ticks(columns as usize, x_ticks),
                    None => numbered_ticks(columns as usize, first, x_ticks),
                },
            ),
            TickedAxis::new(
                rows - 0.5..-0.5,
                match axes.y_names {
                    Some(_) => integer_ticks(rows as usize, y_ticks),
                    None => numbered_ticks(rows as usize, first, y_ticks),
                },
            ),
        )
        .map_err(draw_error)?;
    let x_formatter = |v: &f64| match axes.x_names {
        // Slanted names are drawn below, after plotters.
        Some(_) => String::new(),
        None => numbered_label(*v, first),
    };
    let y_formatter = |v: &f64| match axes.y_names {
        Some(names) => name_label(names, *v),
        None => numbered_label(*v, first),
    };
    chart
        .configure_mesh()
        .disable_mesh()
        .x_desc(fit_description(
            axes.x_desc,
            main_width.saturating_sub(y_area),
        ))
        .y_desc(fit_description(
            axes.y_desc,
            main_height.saturating_sub(x_area + 12),
        ))
        .label_style(LABEL_FONT)
        .axis_desc_style(DESC_FONT)
        .x_labels(x_ticks)
        .y_labels(y_ticks)
        .x_label_formatter(&x_formatter)
        .y_label_formatter(&y_formatter)
        .draw()
        .map_err(draw_error)?;
    let image_rect = pixel_rect(chart.plotting_area().get_pixel_range());

    let (low, high) = axes.value_range;
    let mut bar_chart = ChartBuilder::on(&bar_area)
        .margin_top(12)
        .margin_bottom(64)
        .margin_right(8)
        .y_label_area_size(52)
        .build_cartesian_2d(0f64..1f64, (low as f64)..(high as f64))
        .map_err(draw_error)?;
    bar_chart
        .configure_mesh()
        .disable_mesh()
        .disable_x_axis()
        .label_style(LABEL_FONT)
        .y_labels(5)
        .y_label_formatter(&|v| bar_label(*v, f64::from(high - low)))
        .draw()
        .map_err(draw_error)?;
    let bar_rect = pixel_rect(bar_chart.plotting_area().get_pixel_range());
    root.present().map_err(draw_error)?;
    paint_image(canvas, scratch, bar, bar_rect)?;
    if let Some(names) = axes.x_names {
        let ticks = integer_ticks(columns as usize, x_ticks);
        draw_slanted_names(canvas, names, &ticks, columns as usize, image_rect)?;
    }
    Ok(image_rect)
}

/// An axis description that fits `room` pixels at `DESC_FONT`: whole, or without its bracketed
/// part ("Row (position)" → "Row") on a small canvas (a phone), rather than cut off at the edge.
fn fit_description(description: &str, room: u32) -> &str {
    // About 0.55 em per character of a sans-serif font.
    let fits =
        |text: &str| text.chars().count() as f64 * f64::from(DESC_FONT.1) * 0.55 <= f64::from(room);
    match description.split_once(" (") {
        Some((short, _)) if !fits(description) => short,
        _ => description,
    }
}

/// Column names below the image, slanted by 45° and ending under their column.
fn draw_slanted_names(
    canvas: &HtmlCanvasElement,
    names: &[String],
    ticks: &[f64],
    columns: usize,
    rect: PixelRect,
) -> Result<(), WebError> {
    let context = surface::context(canvas)?;
    context.save();
    context.set_font(&format!("{}px {}", LABEL_FONT.1, LABEL_FONT.0));
    context.set_fill_style_str("#000");
    context.set_text_align("right");
    context.set_text_baseline("middle");
    let cell = rect.width() / columns.max(1) as f64;
    for &tick in ticks {
        let label = name_label(names, tick);
        let x = rect.x0 + (tick + 0.5) * cell;
        context.save();
        context.translate(x, rect.y1 + 10.0)?;
        context.rotate(-std::f64::consts::FRAC_PI_4)?;
        context.fill_text(&label, 0.0, 0.0)?;
        context.restore();
    }
    context.restore();
    Ok(())
}

/// Paints CPU-coloured cells into `rect`, resampled to its device pixels first (see
/// `resample_rgba`: area-averaged where there are more cells than pixels, the GPU's rule where
/// there are fewer).
pub fn paint_cells(
    canvas: &HtmlCanvasElement,
    scratch: &HtmlCanvasElement,
    cells: &RgbaImage,
    rect: PixelRect,
) -> Result<(), WebError> {
    // Averaged down to the device pixels `rect` covers, not its logical pixels: at a pixel ratio
    // of 2 a 4096-row P keeps twice the rows.
    paint_resampled(canvas, scratch, rect, |width, height| {
        resample_rgba(cells.pixels, cells.width, cells.height, width, height)
    })
}

/// Paints a `rows × columns` matrix on the diverging map over `[low, high]` into `rect`: the
/// pixels [`paint_cells`] gives for its coloured cells, computed without the cell-sized image.
pub fn paint_diverging(
    canvas: &HtmlCanvasElement,
    scratch: &HtmlCanvasElement,
    values: &[f32],
    (rows, columns): (usize, usize),
    (low, high): (f32, f32),
    rect: PixelRect,
) -> Result<(), WebError> {
    paint_resampled(canvas, scratch, rect, |width, height| {
        diverging_resampled_rgba(values, columns, rows, low, high, width, height)
    })
}

/// Paints into `rect` the image `resample` makes at the size of the device pixels `rect` covers.
fn paint_resampled(
    canvas: &HtmlCanvasElement,
    scratch: &HtmlCanvasElement,
    rect: PixelRect,
    resample: impl FnOnce(usize, usize) -> (Vec<u8>, usize, usize),
) -> Result<(), WebError> {
    let device = surface::device_rect(canvas, rect);
    let (pixels, width, height) = resample(
        device.width().max(1.0) as usize,
        device.height().max(1.0) as usize,
    );
    paint_image(
        canvas,
        scratch,
        &RgbaImage {
            width,
            height,
            pixels: &pixels,
        },
        rect,
    )
}

/// Draws another canvas (the WebGPU one) into `rect`, with the same frame as CPU cells get.
pub fn paint_canvas(
    canvas: &HtmlCanvasElement,
    source: &HtmlCanvasElement,
    rect: PixelRect,
) -> Result<(), WebError> {
    surface::draw_cells(canvas, source, rect)?;
    outline(&surface::context(canvas)?, rect);
    Ok(())
}

fn outline(context: &web_sys::CanvasRenderingContext2d, rect: PixelRect) {
    context.set_stroke_style_str("#333");
    context.set_line_width(1.0);
    context.stroke_rect(
        rect.x0 + 0.5,
        rect.y0 + 0.5,
        rect.width() - 1.0,
        rect.height() - 1.0,
    );
}

fn pixel_rect((x, y): (std::ops::Range<i32>, std::ops::Range<i32>)) -> PixelRect {
    PixelRect {
        x0: x.start as f64,
        y0: y.start as f64,
        x1: x.end as f64,
        y1: y.end as f64,
    }
}

/// Puts the image into the scratch canvas at one pixel per cell, then scales it into `rect`.
pub fn paint_image(
    canvas: &HtmlCanvasElement,
    scratch: &HtmlCanvasElement,
    image: &RgbaImage,
    rect: PixelRect,
) -> Result<(), WebError> {
    if image.width == 0 || image.height == 0 {
        return Ok(());
    }
    // Resizing a canvas clears and reallocates it: only do it when the size changes.
    if scratch.width() != image.width as u32 || scratch.height() != image.height as u32 {
        scratch.set_width(image.width as u32);
        scratch.set_height(image.height as u32);
    }
    let scratch_context = context_2d(scratch)?;
    let data = ImageData::new_with_u8_clamped_array_and_sh(
        Clamped(image.pixels),
        image.width as u32,
        image.height as u32,
    )?;
    scratch_context.put_image_data(&data, 0.0, 0.0)?;
    // Cells are crisp blocks; shrinking was already done by area averaging.
    surface::draw_cells(canvas, scratch, rect)?;
    outline(&surface::context(canvas)?, rect);
    Ok(())
}
