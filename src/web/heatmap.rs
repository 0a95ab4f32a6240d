//! A heatmap panel: plotters draws the axes, their labels and the colour bar's scale; the cells are
//! one image (ImageData) scaled into the plotting area, never one rectangle per cell.

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use wasm_bindgen::Clamped;
use web_sys::{HtmlCanvasElement, ImageData};

use super::dom::context_2d;
use super::error::{draw_error, WebError};
use crate::math::colormap::downsample_rgba;
use crate::math::plot::{integer_ticks, PixelRect};

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
    let backend = CanvasBackend::with_canvas_object(canvas.clone())
        .ok_or_else(|| WebError::NoContext(canvas.id()))?;
    let root = backend.into_drawing_area();
    root.fill(&WHITE).map_err(draw_error)?;
    let (width, _) = root.dim_in_pixel();
    let (main, bar_area) = root.split_horizontally(width.saturating_sub(BAR_AREA));

    let (columns, rows) = (columns as f64, rows as f64);
    // Cell k spans [k − ½, k + ½), so integer ticks sit at cell centres. Row 0 at the top, as in
    // the chapter's figure: the y range runs downwards.
    let mut chart = ChartBuilder::on(&main)
        .margin(12)
        .x_label_area_size(52)
        .y_label_area_size(64)
        .build_cartesian_2d(
            TickedAxis::new(-0.5..columns - 0.5, integer_ticks(columns as usize, 12)),
            TickedAxis::new(rows - 0.5..-0.5, integer_ticks(rows as usize, 10)),
        )
        .map_err(draw_error)?;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_desc(axes.x_desc)
        .y_desc(axes.y_desc)
        .label_style(LABEL_FONT)
        .axis_desc_style(DESC_FONT)
        .x_labels(12)
        .y_labels(10)
        .x_label_formatter(&index_label)
        .y_label_formatter(&index_label)
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
        .y_label_formatter(&|v| format!("{v:.2}"))
        .draw()
        .map_err(draw_error)?;
    let bar_rect = pixel_rect(bar_chart.plotting_area().get_pixel_range());
    root.present().map_err(draw_error)?;
    paint_image(canvas, scratch, bar, bar_rect)?;
    Ok(image_rect)
}

/// Paints CPU-coloured cells into `rect`; more cells than pixels are area-averaged first (see
/// `downsample_rgba`).
pub fn paint_cells(
    canvas: &HtmlCanvasElement,
    scratch: &HtmlCanvasElement,
    cells: &RgbaImage,
    rect: PixelRect,
) -> Result<(), WebError> {
    let (pixels, width, height) = downsample_rgba(
        cells.pixels,
        cells.width,
        cells.height,
        rect.width().max(1.0) as usize,
        rect.height().max(1.0) as usize,
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
    let context = context_2d(canvas)?;
    context.set_image_smoothing_enabled(false);
    context.draw_image_with_html_canvas_element_and_dw_and_dh(
        source,
        rect.x0,
        rect.y0,
        rect.width(),
        rect.height(),
    )?;
    outline(&context, rect);
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
    let context = context_2d(canvas)?;
    // Cells are crisp blocks; shrinking was already done by area averaging.
    context.set_image_smoothing_enabled(false);
    context.draw_image_with_html_canvas_element_and_dw_and_dh(
        scratch,
        rect.x0,
        rect.y0,
        rect.width(),
        rect.height(),
    )?;
    outline(&context, rect);
    Ok(())
}
