//! Canvases drawn at the screen's resolution (see `model::canvas` for the sizes).
//!
//! Every drawing of a page canvas starts here: [`context`] (2D drawing) or [`plotting`] (plotters
//! charts) first fits the backing store to the canvas's CSS box times `devicePixelRatio` (which
//! clears it when the size changes) and sets the context's transform, so that the drawing code
//! works in logical pixels ([`size`]) and never sees device pixels. The page redraws when a canvas
//! changes size or the ratio changes (`layout`).

use plotters::prelude::DrawingBackend;
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind,
};
use plotters_canvas::CanvasBackend;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

use super::dom;
use super::error::WebError;
use crate::model::canvas::{canvas_size, CanvasSize};
use crate::model::plot::PixelRect;

/// The attributes that hold a canvas's design size (its `width` and `height` in `index.html`,
/// recorded before the backing store is first resized) and the logical size it was last drawn at.
const DESIGN: (&str, &str) = ("data-design-width", "data-design-height");
const LOGICAL: (&str, &str) = ("data-logical-width", "data-logical-height");

fn attribute(canvas: &HtmlCanvasElement, name: &str) -> Option<u32> {
    canvas.get_attribute(name)?.parse().ok()
}

/// Records the design size of a page canvas (once; later calls keep the first).
pub fn record_design(canvas: &HtmlCanvasElement) {
    if attribute(canvas, DESIGN.0).is_none() {
        let _ = canvas.set_attribute(DESIGN.0, &canvas.width().to_string());
        let _ = canvas.set_attribute(DESIGN.1, &canvas.height().to_string());
    }
}

/// The sizes this canvas should have now: `None` for a canvas that is not a page figure (a scratch
/// or WebGPU canvas, drawn 1:1).
pub fn wanted(canvas: &HtmlCanvasElement) -> Option<CanvasSize> {
    let design = (attribute(canvas, DESIGN.0)?, attribute(canvas, DESIGN.1)?);
    let css = canvas.get_bounding_client_rect();
    let ratio = dom::window().map_or(1.0, |w| w.device_pixel_ratio());
    Some(canvas_size(design, (css.width(), css.height()), ratio))
}

/// Whether a drawn canvas's backing store no longer matches its CSS box and the screen's ratio (it
/// was resized, zoomed, or moved to another screen). A hidden canvas keeps what it has.
pub fn out_of_date(canvas: &HtmlCanvasElement) -> bool {
    // A canvas not drawn yet is drawn at the right size when it comes on screen.
    if attribute(canvas, LOGICAL.0).is_none() {
        return false;
    }
    let Some(size) = wanted(canvas) else {
        return false;
    };
    let css = canvas.get_bounding_client_rect();
    if css.width() < 1.0 || css.height() < 1.0 {
        return false;
    }
    (canvas.width(), canvas.height()) != size.backing
        || (attribute(canvas, LOGICAL.0), attribute(canvas, LOGICAL.1))
            != (Some(size.logical.0), Some(size.logical.1))
}

/// Fits the backing store and the transform; returns the logical size.
fn prepare(
    canvas: &HtmlCanvasElement,
    context: &CanvasRenderingContext2d,
) -> Result<(u32, u32), WebError> {
    let Some(size) = wanted(canvas) else {
        context.set_transform(1.0, 0.0, 0.0, 1.0, 0.0, 0.0)?;
        return Ok((canvas.width(), canvas.height()));
    };
    let css = canvas.get_bounding_client_rect();
    // A hidden canvas (an embed page's other panels) keeps its last size.
    let size = if css.width() < 1.0 || css.height() < 1.0 {
        match (attribute(canvas, LOGICAL.0), attribute(canvas, LOGICAL.1)) {
            (Some(w), Some(h)) => CanvasSize {
                logical: (w, h),
                backing: (canvas.width(), canvas.height()),
            },
            _ => size,
        }
    } else {
        size
    };
    // Resizing clears the canvas and resets its context: only when the size changes.
    if (canvas.width(), canvas.height()) != size.backing {
        canvas.set_width(size.backing.0);
        canvas.set_height(size.backing.1);
    }
    canvas.set_attribute(LOGICAL.0, &size.logical.0.to_string())?;
    canvas.set_attribute(LOGICAL.1, &size.logical.1.to_string())?;
    let (sx, sy) = size.scale();
    context.set_transform(sx, 0.0, 0.0, sy, 0.0, 0.0)?;
    Ok(size.logical)
}

/// The 2D context of a canvas, fitted to the screen, drawing in logical pixels.
pub fn context(canvas: &HtmlCanvasElement) -> Result<CanvasRenderingContext2d, WebError> {
    let context = dom::context_2d(canvas)?;
    prepare(canvas, &context)?;
    Ok(context)
}

/// Fits the canvas to the screen now (before a layout is computed from its size); returns the
/// logical size.
pub fn fit(canvas: &HtmlCanvasElement) -> Result<(f64, f64), WebError> {
    let (w, h) = prepare(canvas, &dom::context_2d(canvas)?)?;
    Ok((f64::from(w), f64::from(h)))
}

/// The logical size the canvas was last drawn at (its backing size for a canvas that is not a page
/// figure): what pointer positions and layouts are measured against.
pub fn size(canvas: &HtmlCanvasElement) -> (f64, f64) {
    match (attribute(canvas, LOGICAL.0), attribute(canvas, LOGICAL.1)) {
        (Some(w), Some(h)) => (f64::from(w), f64::from(h)),
        _ => (f64::from(canvas.width()), f64::from(canvas.height())),
    }
}

/// A pointer position in CSS pixels relative to the canvas's box, in logical pixels.
pub fn css_to_logical(canvas: &HtmlCanvasElement, x: f64, y: f64) -> (f64, f64) {
    let (w, h) = size(canvas);
    let css = canvas.get_bounding_client_rect();
    (x * w / css.width().max(1.0), y * h / css.height().max(1.0))
}

/// Logical pixels to CSS pixels relative to the canvas's box (where a tooltip goes).
pub fn logical_to_css(canvas: &HtmlCanvasElement, x: f64, y: f64) -> (f64, f64) {
    let (w, h) = size(canvas);
    let css = canvas.get_bounding_client_rect();
    (x * css.width() / w.max(1.0), y * css.height() / h.max(1.0))
}

/// A rectangle in logical pixels as whole device (backing-store) pixels: where a cell image is
/// drawn, one image pixel per device pixel, so that the CPU's cells and the WebGPU render pass's
/// land on the same pixels at any ratio.
pub fn device_rect(canvas: &HtmlCanvasElement, rect: PixelRect) -> PixelRect {
    let (w, h) = size(canvas);
    let (sx, sy) = (
        f64::from(canvas.width()) / w.max(1.0),
        f64::from(canvas.height()) / h.max(1.0),
    );
    PixelRect {
        x0: (rect.x0 * sx).round(),
        y0: (rect.y0 * sy).round(),
        x1: (rect.x1 * sx).round(),
        y1: (rect.y1 * sy).round(),
    }
}

/// A rectangle in logical pixels as [x0, y0, x1, y1] in the canvas's own (backing) pixels, the
/// coordinates `getImageData` reads (where [`device_rect`] put the cells): what the statistics
/// report, at any pixel ratio.
pub fn backing_rect(
    canvas: &HtmlCanvasElement,
    (x0, y0, x1, y1): (f64, f64, f64, f64),
) -> [f64; 4] {
    let r = device_rect(canvas, PixelRect { x0, y0, x1, y1 });
    [r.x0, r.y0, r.x1, r.y1]
}

/// Draws `source` into `rect` (logical pixels) at whole device pixels, without smoothing.
pub fn draw_cells(
    canvas: &HtmlCanvasElement,
    source: &HtmlCanvasElement,
    rect: PixelRect,
) -> Result<(), WebError> {
    let context = context(canvas)?;
    let device = device_rect(canvas, rect);
    context.save();
    context.set_transform(1.0, 0.0, 0.0, 1.0, 0.0, 0.0)?;
    context.set_image_smoothing_enabled(false);
    let drawn = context.draw_image_with_html_canvas_element_and_dw_and_dh(
        source,
        device.x0,
        device.y0,
        device.width(),
        device.height(),
    );
    context.restore();
    drawn?;
    Ok(())
}

/// A plotters backend on a page canvas, or on an SVG document (a figure's export). On a canvas,
/// plotters lays out in logical pixels (the size it is told) and the context's transform maps them
/// to device pixels; plotters-canvas reads the size from the canvas's backing store, so this wraps
/// it and only changes `get_size`. Both kinds are one type so that a chart's plotters code is
/// compiled once for the page and the export, not once per backend.
pub struct Plotting<'a> {
    inner: Inner<'a>,
    logical: (u32, u32),
}

enum Inner<'a> {
    /// The backend, and the canvas's context for measuring text.
    Canvas(CanvasBackend, CanvasRenderingContext2d),
    Svg(plotters::backend::SVGBackend<'a>),
}

/// The plotters backend of a canvas, fitted to the screen.
pub fn plotting(canvas: &HtmlCanvasElement) -> Result<Plotting<'static>, WebError> {
    let context = dom::context_2d(canvas)?;
    let logical = prepare(canvas, &context)?;
    let inner = CanvasBackend::with_canvas_object(canvas.clone())
        .ok_or_else(|| WebError::NoContext(canvas.id()))?;
    Ok(Plotting {
        inner: Inner::Canvas(inner, context),
        logical,
    })
}

/// A plotters backend that writes an SVG document of `size` into `svg` (once it is dropped).
pub fn svg_plotting(svg: &mut String, size: (u32, u32)) -> Plotting<'_> {
    Plotting {
        inner: Inner::Svg(plotters::backend::SVGBackend::with_string(svg, size)),
        logical: size,
    }
}

/// A backend's error as text (the canvas's and the SVG writer's are of different types).
#[derive(Debug)]
pub struct PlotError(String);

impl std::fmt::Display for PlotError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PlotError {}

fn lift<T, E: std::error::Error + Send + Sync>(
    result: Result<T, DrawingErrorKind<E>>,
) -> Result<T, DrawingErrorKind<PlotError>> {
    result.map_err(|error| match error {
        DrawingErrorKind::DrawingError(e) => {
            DrawingErrorKind::DrawingError(PlotError(e.to_string()))
        }
        DrawingErrorKind::FontError(e) => DrawingErrorKind::FontError(e),
    })
}

/// Calls the same method on whichever backend this is.
macro_rules! each {
    ($inner:expr, $backend:ident => $call:expr) => {
        match $inner {
            Inner::Canvas($backend, _) => lift($call),
            Inner::Svg($backend) => lift($call),
        }
    };
}

impl DrawingBackend for Plotting<'_> {
    type ErrorType = PlotError;

    fn get_size(&self) -> (u32, u32) {
        self.logical
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<PlotError>> {
        each!(&mut self.inner, b => b.ensure_prepared())
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<PlotError>> {
        each!(&mut self.inner, b => b.present())
    }

    fn draw_pixel(
        &mut self,
        point: BackendCoord,
        color: BackendColor,
    ) -> Result<(), DrawingErrorKind<PlotError>> {
        each!(&mut self.inner, b => b.draw_pixel(point, color))
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<PlotError>> {
        each!(&mut self.inner, b => b.draw_line(from, to, style))
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<PlotError>> {
        each!(&mut self.inner, b => b.draw_rect(upper_left, bottom_right, style, fill))
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<PlotError>> {
        each!(&mut self.inner, b => b.draw_path(path, style))
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<PlotError>> {
        each!(&mut self.inner, b => b.draw_circle(center, radius, style, fill))
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<PlotError>> {
        each!(&mut self.inner, b => b.fill_polygon(vert, style))
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<PlotError>> {
        each!(&mut self.inner, b => b.draw_text(text, style, pos))
    }

    /// On a canvas, the text is measured by the canvas (`measureText`, in the font plotters-canvas
    /// draws it with). plotters' own estimate for the web puts a span into the page and reads its
    /// offsetHeight: a forced layout of the whole page for every label, which made a chart's
    /// redraw cost tens of milliseconds on this long page (measured in a profile of the training
    /// panel's redraws, the largest cost on the main thread while it trains).
    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<PlotError>> {
        match &self.inner {
            Inner::Canvas(_, context) => {
                context.save();
                context.set_font(&format!(
                    "{} {}px {}",
                    style.style().as_str(),
                    style.size(),
                    style.family().as_str(),
                ));
                let metrics = context.measure_text(text);
                context.restore();
                let metrics = metrics.map_err(|e| {
                    DrawingErrorKind::DrawingError(PlotError(format!("measureText: {e:?}")))
                })?;
                // The advance width, and the font's ascent and descent: what the span plotters
                // measures would give (an inline-block of the text at the normal line height).
                let height =
                    metrics.font_bounding_box_ascent() + metrics.font_bounding_box_descent();
                Ok((
                    metrics.width().max(0.0).ceil() as u32,
                    height.max(0.0).ceil() as u32,
                ))
            }
            Inner::Svg(backend) => lift(backend.estimate_text_size(text, style)),
        }
    }

    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        size: (u32, u32),
        src: &[u8],
    ) -> Result<(), DrawingErrorKind<PlotError>> {
        each!(&mut self.inner, b => b.blit_bitmap(pos, size, src))
    }
}

/// Whether any page canvas is out of date (see [`out_of_date`]).
pub fn any_out_of_date() -> bool {
    let Ok(document) = dom::document() else {
        return false;
    };
    let Ok(canvases) = document.query_selector_all("canvas[data-design-width]") else {
        return false;
    };
    (0..canvases.length()).any(|k| {
        canvases
            .item(k)
            .and_then(|n| n.dyn_into::<HtmlCanvasElement>().ok())
            .is_some_and(|c| out_of_date(&c))
    })
}
