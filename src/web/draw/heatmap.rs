//! A heatmap panel: plotters draws the axes, their labels and the colour bar's scale; the cells are
//! one image (ImageData) scaled into the plotting area, never one rectangle per cell.

#[path = "heatmap_axis.rs"]
mod axis;
#[path = "heatmap_fit.rs"]
pub mod fit;
#[path = "heatmap_frame.rs"]
mod frame;

use crate::web::surface;
use frame::draw_frame;
use wasm_bindgen::Clamped;
use web_sys::{HtmlCanvasElement, ImageData};

use crate::math::colormap::{diverging_resampled_rgba, resample_rgba};
use crate::model::figure_style::FigureStyle;
pub use crate::model::plot::{index_label, numbered_label, numbered_ticks};
// `name_label` is here for the slanted names (`axis`), which read it from this module.
use crate::model::plot::{name_label, PixelRect};
use crate::web::dom::context_2d;
use crate::web::error::WebError;

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

/// How the heatmap of P is laid out.
#[derive(Clone, Copy)]
pub enum EncodingFigure {
    /// P's own figure: the colour bar, and cells of at least `MIN_CELL_PX` (a table read cell by
    /// cell).
    Table,
    /// A picture of P beside another figure (the binary panel's): no colour bar (P's own heatmap
    /// has it) and no minimum cell size, so that P's stripes share a row with the bits on a
    /// projector instead of pushing them off to the side; P's values are read on its own heatmap.
    Picture,
}

/// The axes, labels and (for a table) colour bar of the heatmap of P (n rows, d columns), in the
/// page's look; returns where its cells go. `first_position` = 1 (`?index=1`, the Julia edition):
/// rows are labelled with their positions 1…n and columns 1…d.
pub fn draw_encoding_axes(
    canvas: &HtmlCanvasElement,
    scratch: &HtmlCanvasElement,
    (n, d): (usize, usize),
    first_position: usize,
    style: &FigureStyle,
    figure: EncodingFigure,
) -> Result<PixelRect, WebError> {
    let table = matches!(figure, EncodingFigure::Table);
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
    let style = FigureStyle::for_look(crate::web::page::figure_look());
    table_frame(canvas, scratch, (rows, columns), Some(bar), axes, &style)
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
    table_frame(canvas, scratch, (rows, columns), None, axes, style)
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
    table_frame(canvas, scratch, (rows, columns), Some(bar), axes, style)
}

/// The frame of a table (cells of at least `MIN_CELL_PX`, indices from 0) with the colour bar
/// `bar`, if any.
fn table_frame(
    canvas: &HtmlCanvasElement,
    scratch: &HtmlCanvasElement,
    cells: (usize, usize),
    bar: Option<&RgbaImage>,
    axes: &HeatmapAxes,
    style: &FigureStyle,
) -> Result<PixelRect, WebError> {
    draw_frame(canvas, scratch, cells, Frame::table(bar), axes, 0, style)
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
        resample_rgba(cells.pixels, (cells.width, cells.height), (width, height))
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
        diverging_resampled_rgba(values, (columns, rows), (low, high), (width, height))
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
