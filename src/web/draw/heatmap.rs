//! A heatmap panel: plotters draws the axes, their labels and the colour bar's scale; the cells are
//! one image (ImageData) scaled into the plotting area, never one rectangle per cell.

#[path = "heatmap_axis.rs"]
mod axis;
#[path = "heatmap_fit.rs"]
pub mod fit;

use crate::web::surface;
use plotters::prelude::*;
use wasm_bindgen::Clamped;
use web_sys::{HtmlCanvasElement, ImageData};

use crate::math::colormap::{diverging_resampled_rgba, resample_rgba};
use crate::model::figure_style::{FigureStyle, Rgb};
use crate::model::plot::{
    axis_noun, bar_label, fit_description, label_step, name_label, named_ticks, thinned_captions,
    PixelRect, NAME_CHARS,
};
pub use crate::model::plot::{index_label, numbered_label, numbered_ticks};
use crate::web::dom::context_2d;
use crate::web::draw::chart::{font, Axis};
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

/// Width in canvas pixels of the colour bar with its labels.
const BAR_AREA: u32 = 96;
pub const LABEL_FONT: (&str, u32) = ("sans-serif", 15);
pub const DESC_FONT: (&str, u32) = ("sans-serif", 17);

/// Pixels of the colour bar image (one column).
const BAR_PIXELS: usize = 256;

/// The axes, labels and colour bar of the heatmap of P (n rows, d columns), in the page's look;
/// returns where its cells go. `first_position` = 1 (`?index=1`, the Julia edition): rows are
/// labelled with their positions 1…n and columns 1…d.
pub fn draw_encoding_axes(
    canvas: &HtmlCanvasElement,
    scratch: &HtmlCanvasElement,
    (n, d): (usize, usize),
    first_position: usize,
    style: &FigureStyle,
) -> Result<PixelRect, WebError> {
    encoding_axes(canvas, scratch, (n, d), first_position, style, true)
}

/// [`draw_encoding_axes`] for a picture of P beside another figure (the binary panel's): no
/// colour bar (P's own heatmap has it) and no minimum cell size, so that P's stripes share a row
/// with the bits on a projector instead of pushing them off to the side; P's values are read on
/// its own heatmap.
pub fn draw_encoding_picture_axes(
    canvas: &HtmlCanvasElement,
    scratch: &HtmlCanvasElement,
    (n, d): (usize, usize),
    first_position: usize,
    style: &FigureStyle,
) -> Result<PixelRect, WebError> {
    encoding_axes(canvas, scratch, (n, d), first_position, style, false)
}

fn encoding_axes(
    canvas: &HtmlCanvasElement,
    scratch: &HtmlCanvasElement,
    (n, d): (usize, usize),
    first_position: usize,
    style: &FigureStyle,
    table: bool,
) -> Result<PixelRect, WebError> {
    let bar = crate::math::colormap::diverging_bar_rgba(BAR_PIXELS, -1.0, 1.0);
    let bar = RgbaImage {
        width: 1,
        height: BAR_PIXELS,
        pixels: &bar,
    };
    let one_based = first_position != 0;
    let (x_desc, y_desc) = if one_based {
        (
            crate::message!("label-axis-column-encoding-dimension-from-one"),
            crate::message!("label-axis-row-position-from-one"),
        )
    } else {
        (
            crate::message!("label-axis-column-encoding-dimension"),
            crate::message!("label-axis-row-position"),
        )
    };
    draw_frame(
        canvas,
        scratch,
        (n, d),
        Frame {
            bar: table.then_some(&bar),
            readable_cells: table,
        },
        &HeatmapAxes {
            x_desc: &x_desc,
            y_desc: &y_desc,
            value_range: (-1.0, 1.0),
            x_names: None,
            y_names: None,
        },
        usize::from(one_based),
        style,
    )
}

/// What a frame draws beside the axes: the colour bar, if any, and whether the canvas keeps a
/// width for cells of at least `MIN_CELL_PX` (a table read cell by cell) or takes the room it has
/// (a picture beside another).
#[derive(Clone, Copy)]
struct Frame<'a> {
    bar: Option<&'a RgbaImage<'a>>,
    readable_cells: bool,
}

impl<'a> Frame<'a> {
    fn table(bar: Option<&'a RgbaImage<'a>>) -> Self {
        Frame {
            bar,
            readable_cells: true,
        }
    }
}

/// Draws the axes (a `rows × columns` grid of cells, row 0 at the top) and the colour bar in the
/// look of the page's theme and mode as shown now, and returns the pixel rectangle where the cell
/// image goes; the caller paints the cells, from CPU pixels ([`paint_cells`]) or from a WebGPU
/// canvas. [`draw_styled_heatmap_frame`] takes the look from the caller (a panel's `ctx.style`).
pub fn draw_heatmap_frame(
    canvas: &HtmlCanvasElement,
    scratch: &HtmlCanvasElement,
    rows: usize,
    columns: usize,
    bar: &RgbaImage,
    axes: &HeatmapAxes,
) -> Result<PixelRect, WebError> {
    draw_frame(
        canvas,
        scratch,
        (rows, columns),
        Frame::table(Some(bar)),
        axes,
        0,
        &FigureStyle::for_look(crate::web::page::figure_look()),
    )
}

/// [`draw_styled_heatmap_frame`] without a colour bar: for a matrix of two values whose meaning
/// the panel states (the binary panel's bits), the plot takes the bar's room. `axes.value_range`
/// is not shown.
pub fn draw_heatmap_frame_without_bar(
    canvas: &HtmlCanvasElement,
    scratch: &HtmlCanvasElement,
    (rows, columns): (usize, usize),
    axes: &HeatmapAxes,
    style: &FigureStyle,
) -> Result<PixelRect, WebError> {
    draw_frame(
        canvas,
        scratch,
        (rows, columns),
        Frame::table(None),
        axes,
        0,
        style,
    )
}

/// [`draw_heatmap_frame`] in the look `style` gives (paper, ink, frame and type of the page's
/// theme and mode).
pub fn draw_styled_heatmap_frame(
    canvas: &HtmlCanvasElement,
    scratch: &HtmlCanvasElement,
    (rows, columns): (usize, usize),
    bar: &RgbaImage,
    axes: &HeatmapAxes,
    style: &FigureStyle,
) -> Result<PixelRect, WebError> {
    draw_frame(
        canvas,
        scratch,
        (rows, columns),
        Frame::table(Some(bar)),
        axes,
        0,
        style,
    )
}

fn rgb(colour: Rgb) -> RGBColor {
    RGBColor(colour.0, colour.1, colour.2)
}

/// The frame with the index labels counted from `first` (1: the Julia edition's numbering); names,
/// where given, are unchanged. Where drawing it gave the canvas a new minimum width (for readable
/// cells), it is drawn again at the canvas's new size, until the size holds: a first drawing on a
/// canvas far too small measures its cells from a squeezed plot, so one more pass can still fall
/// short (a few passes settle it; the cap keeps a figure that never settles from looping).
fn draw_frame(
    canvas: &HtmlCanvasElement,
    scratch: &HtmlCanvasElement,
    shape: (usize, usize),
    frame: Frame,
    axes: &HeatmapAxes,
    first: usize,
    style: &FigureStyle,
) -> Result<PixelRect, WebError> {
    const MAX_PASSES: usize = 4;
    let mut rect = draw_frame_once(canvas, scratch, shape, frame, axes, first, style)?;
    for _ in 1..MAX_PASSES {
        if !surface::out_of_date(canvas) {
            break;
        }
        rect = draw_frame_once(canvas, scratch, shape, frame, axes, first, style)?;
    }
    Ok(rect)
}

fn draw_frame_once(
    canvas: &HtmlCanvasElement,
    scratch: &HtmlCanvasElement,
    (rows, columns): (usize, usize),
    frame: Frame,
    axes: &HeatmapAxes,
    first: usize,
    style: &FigureStyle,
) -> Result<PixelRect, WebError> {
    let bar = frame.bar;
    // Every size below was chosen for 15 px labels; projector type scales them.
    let scale = style.label_px / f64::from(LABEL_FONT.1);
    let px = |v: f64| (v * scale).round() as u32;
    let label_px = style.label_px;
    let desc_px = f64::from(DESC_FONT.1) * scale;
    let label_font = font(style, label_px).color(&rgb(style.ink));
    let desc_font = font(style, desc_px).color(&rgb(style.ink));
    let backend = surface::plotting(canvas)?;
    let root = backend.into_drawing_area();
    root.fill(&rgb(style.background)).map_err(draw_error)?;
    let (width, height) = root.dim_in_pixel();
    let bar_area_width = if bar.is_some() {
        px(f64::from(BAR_AREA))
    } else {
        0
    };
    let (main, bar_area) = root.split_horizontally(width.saturating_sub(bar_area_width));

    // Names take the room they need (slanted names on x: about 0.7 of their length, plus the
    // description); indices keep the fixed areas. A line of a thinned axis's caption goes below.
    let names_width = |names: &[String]| {
        let chars = names
            .iter()
            .map(|n| n.chars().count().min(NAME_CHARS))
            .max()
            .unwrap_or(1);
        chars as f64 * 8.0 * scale + 4.0
    };
    let x_area = axes.x_names.map_or(px(52.0), |names| {
        ((names_width(names) * 0.7) as u32 + px(40.0)).clamp(px(52.0), px(140.0))
    });
    let y_area = axes.y_names.map_or(px(64.0), |names| {
        (names_width(names) as u32 + px(40.0)).clamp(px(64.0), px(150.0))
    });
    let caption_px = style.tick_px;
    let caption_room = if axes.x_names.is_some() || axes.y_names.is_some() {
        (caption_px * 1.4).ceil() as u32
    } else {
        0
    };
    let (main_width, main_height) = main.dim_in_pixel();
    let (plot_width, plot_height) = (
        f64::from(main_width.saturating_sub(y_area + 24)),
        f64::from(main_height.saturating_sub(x_area + 24 + caption_room)),
    );
    // Names: every k-th, k as small as lets a name keep the height of its type and a gap
    // (~16 px across when slanted, ~17 px down); the caption says so. Indices: round numbers, at
    // most 12 across (a label of k digits needs ~9k + 14 px) and 10 down, fewer on a small canvas.
    let line = 17.0 * scale;
    let (x_step, y_step) = (
        label_step(columns, plot_width, 16.0 * scale),
        label_step(rows, plot_height, line),
    );
    let index_width = ((columns.max(1) + first).to_string().len() as f64 * 9.0 + 14.0) * scale;
    // Named axes: the named cells, thinned to the step (`dropped`: a name was left out).
    let (x_ticks, x_dropped) = match axes.x_names {
        Some(names) => named_ticks(names, x_step),
        None => (
            numbered_ticks(
                columns,
                first,
                ((plot_width / index_width) as usize).clamp(2, 12),
            ),
            false,
        ),
    };
    let (y_ticks, y_dropped) = match axes.y_names {
        Some(names) => named_ticks(names, y_step),
        None => (
            numbered_ticks(rows, first, ((plot_height / line) as usize).clamp(2, 10)),
            false,
        ),
    };
    let (x_count, y_count) = (x_ticks.len(), y_ticks.len());
    let (columns_f, rows_f) = (columns as f64, rows as f64);
    // Cell k spans [k − ½, k + ½), so integer ticks sit at cell centres. Row 0 at the top, as in
    // the chapter's figure: the y range runs downwards.
    let mut chart = ChartBuilder::on(&main)
        .margin(12)
        .margin_bottom(12 + caption_room)
        .x_label_area_size(x_area)
        .y_label_area_size(y_area)
        .build_cartesian_2d(
            Axis::ticked(-0.5..columns_f - 0.5, x_ticks.clone()),
            Axis::ticked(rows_f - 0.5..-0.5, y_ticks),
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
    let axis_colour = rgb(style.frame);
    chart
        .configure_mesh()
        .disable_mesh()
        .axis_style(axis_colour.stroke_width(style.axis_px as u32))
        .x_desc(fit_description(
            axes.x_desc,
            f64::from(main_width.saturating_sub(y_area)),
            desc_px,
        ))
        .y_desc(fit_description(
            axes.y_desc,
            f64::from(main_height.saturating_sub(x_area + 12)),
            desc_px,
        ))
        .label_style(label_font.clone())
        .axis_desc_style(desc_font)
        .x_labels(x_count)
        .y_labels(y_count)
        .x_label_formatter(&x_formatter)
        .y_label_formatter(&y_formatter)
        .draw()
        .map_err(draw_error)?;
    let image_rect = pixel_rect(chart.plotting_area().get_pixel_range());

    let bar_rect = match bar {
        Some(_) => {
            let (low, high) = axes.value_range;
            let mut bar_chart = ChartBuilder::on(&bar_area)
                .margin_top(12)
                .margin_bottom(64 + caption_room)
                .margin_right(8)
                .y_label_area_size(px(52.0))
                .build_cartesian_2d(
                    Axis::linear(0f64..1f64),
                    Axis::linear((low as f64)..(high as f64)),
                )
                .map_err(draw_error)?;
            bar_chart
                .configure_mesh()
                .disable_mesh()
                .disable_x_axis()
                .axis_style(axis_colour.stroke_width(style.axis_px as u32))
                .label_style(label_font)
                .y_labels(5)
                .y_label_formatter(&|v| bar_label(*v, f64::from(high - low)))
                .draw()
                .map_err(draw_error)?;
            Some(pixel_rect(bar_chart.plotting_area().get_pixel_range()))
        }
        None => None,
    };
    root.present().map_err(draw_error)?;
    set_frame_colour(canvas, style);
    if let (Some(bar), Some(rect)) = (bar, bar_rect) {
        paint_image(canvas, scratch, bar, rect)?;
    }
    let context = surface::context(canvas)?;
    if let Some(names) = axes.x_names {
        axis::draw_slanted_names(&context, names, &x_ticks, columns, image_rect, style)?;
    }
    // Every k-th name drawn (1: every name is); names that are thinned are said to be, under
    // the figure (never dropped silently).
    let steps = (
        if x_dropped { x_step } else { 1 },
        if y_dropped { y_step } else { 1 },
    );
    let caption = thinned_captions(&[
        (steps.0, &axis_noun(axes.x_desc)),
        (steps.1, &axis_noun(axes.y_desc)),
    ]);
    if let Some(caption) = &caption {
        context.set_font(&format!("{caption_px}px {}", style.font));
        context.set_fill_style_str(&style.muted.css());
        context.set_text_align("left");
        context.set_text_baseline("bottom");
        context.fill_text_with_max_width(
            caption,
            8.0,
            f64::from(height) - 4.0,
            f64::from(width) - 16.0,
        )?;
    }
    fit::record(
        canvas,
        image_rect,
        (rows, columns),
        steps,
        caption.as_deref(),
    );
    let named_cell = if axes.x_names.is_some() || axes.y_names.is_some() {
        line
    } else {
        0.0
    };
    if frame.readable_cells {
        fit::keep_cells_readable(
            canvas,
            image_rect,
            (rows, columns),
            (width, height),
            (named_cell, axes.x_names.is_some()),
        );
    } else {
        fit::set_min_width(canvas, 0.0);
    }
    Ok(image_rect)
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
    outline(canvas, &surface::context(canvas)?, rect);
    Ok(())
}

/// Records the frame colour of the look a canvas is drawn in: the cells' outline is drawn by
/// painters that do not know the look (the backend's, after the frame).
pub fn set_frame_colour(canvas: &HtmlCanvasElement, style: &FigureStyle) {
    let _ = canvas.set_attribute(FRAME_COLOUR, &style.frame.css());
}

const FRAME_COLOUR: &str = "data-frame-colour";

fn outline(
    canvas: &HtmlCanvasElement,
    context: &web_sys::CanvasRenderingContext2d,
    rect: PixelRect,
) {
    let colour = canvas
        .get_attribute(FRAME_COLOUR)
        .unwrap_or_else(|| "#333".to_string());
    context.set_stroke_style_str(&colour);
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
    outline(canvas, &surface::context(canvas)?, rect);
    Ok(())
}
