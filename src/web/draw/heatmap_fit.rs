//! Matrix figures that keep their cells readable: what a drawn matrix records on its canvas (the
//! size of its cells in CSS pixels, how its names are thinned, and the caption that says so, read
//! by the end-to-end tests) and the width a canvas must keep for cells of at least
//! [`MIN_CELL_PX`](crate::model::plot::MIN_CELL_PX): below it the canvas keeps that width and its
//! panel scrolls sideways, rather than the cells being squashed.

use web_sys::HtmlCanvasElement;

use crate::model::plot::{min_matrix_px, PixelRect, MIN_CELL_PX, MIN_FEATURE_COLUMN_PX};
use crate::web::surface;

/// `data-cell-css-px`: "width height" of the smallest cell drawn, in CSS pixels.
const CELL_SIZE: &str = "data-cell-css-px";
/// `data-label-step`: "columns rows": every k-th name is drawn (1: every one).
const LABEL_STEP: &str = "data-label-step";
/// `data-label-caption`: what the figure says about its thinned names (empty: none are).
const LABEL_CAPTION: &str = "data-label-caption";

/// The CSS size of one cell of a `rows × columns` image drawn into `rect` (logical pixels).
pub fn cell_css_px(
    canvas: &HtmlCanvasElement,
    rect: PixelRect,
    (rows, columns): (usize, usize),
) -> (f64, f64) {
    let (x0, y0) = surface::logical_to_css(canvas, rect.x0, rect.y0);
    let (x1, y1) = surface::logical_to_css(canvas, rect.x1, rect.y1);
    (
        (x1 - x0) / columns.max(1) as f64,
        (y1 - y0) / rows.max(1) as f64,
    )
}

/// Records the smallest cell (CSS px), the label steps and the caption of a drawn figure.
pub fn record_cells(
    canvas: &HtmlCanvasElement,
    cell: (f64, f64),
    steps: (usize, usize),
    caption: Option<&str>,
) {
    let _ = canvas.set_attribute(CELL_SIZE, &format!("{:.2} {:.2}", cell.0, cell.1));
    let _ = canvas.set_attribute(LABEL_STEP, &format!("{} {}", steps.0, steps.1));
    let _ = canvas.set_attribute(LABEL_CAPTION, caption.unwrap_or(""));
}

/// [`record_cells`] for one matrix drawn into `rect`.
pub fn record(
    canvas: &HtmlCanvasElement,
    rect: PixelRect,
    shape: (usize, usize),
    steps: (usize, usize),
    caption: Option<&str>,
) {
    record_cells(canvas, cell_css_px(canvas, rect, shape), steps, caption);
}

/// The logical width a canvas of logical size `(width, height)` needs for cells of `cell` px
/// (at least [`MIN_CELL_PX`]) of a matrix drawn into `rect`: the room around the matrix stays as
/// it is, the matrix grows, and the height follows the canvas's aspect ratio. 0 for a picture of a
/// pattern (see [`min_matrix_px`]).
pub fn needed_width(rect: PixelRect, shape: (usize, usize), size: (f64, f64), cell: f64) -> f64 {
    needed_width_for_columns(rect, shape, size, cell, cell.max(MIN_CELL_PX))
}

/// [`needed_width`] with columns of `column` px rather than `cell` (feature columns that narrow
/// on a phone: [`MIN_FEATURE_COLUMN_PX`]).
fn needed_width_for_columns(
    rect: PixelRect,
    shape: (usize, usize),
    (width, height): (f64, f64),
    cell: f64,
    column: f64,
) -> f64 {
    let (min_width, min_height) = min_matrix_px(shape);
    if min_width == 0.0 {
        return 0.0;
    }
    let factor = cell.max(MIN_CELL_PX) / MIN_CELL_PX;
    let around = (width - rect.width(), height - rect.height());
    let by_columns = around.0 + min_width * column / MIN_CELL_PX;
    let by_rows = (around.1 + min_height * factor) * width / height.max(1.0);
    by_columns.max(by_rows)
}

/// Gives the canvas a minimum CSS width for cells of [`MIN_CELL_PX`]; where its parent is
/// narrower, the parent scrolls sideways. Within the parent's width, and as long as the figure
/// still fits the screen below its section's title and the sticky bar, the canvas also grows until
/// its cells are `named_cell` px, the height of a name beside them, so that names are not thinned
/// where there is room for them. Changing the width redraws the figure (the page redraws a canvas
/// whose size changed).
///
/// Columns that no label names (`named_columns` false: the features of a vector, as Shaw's table's
/// dimensions) narrow down to [`MIN_FEATURE_COLUMN_PX`] where the parent is too narrow for
/// [`MIN_CELL_PX`] (a phone), so that the figure fits instead of scrolling; its rows keep their
/// height.
pub fn keep_cells_readable(
    canvas: &HtmlCanvasElement,
    rect: PixelRect,
    shape: (usize, usize),
    (width, height): (u32, u32),
    (named_cell, named_columns): (f64, bool),
) {
    let size = (f64::from(width), f64::from(height));
    let room = canvas
        .parent_element()
        .map_or(0.0, |parent| f64::from(parent.client_width()));
    let mut needed = needed_width(rect, shape, size, MIN_CELL_PX);
    if !named_columns && needed > room {
        needed = needed_width_for_columns(rect, shape, size, MIN_CELL_PX, MIN_FEATURE_COLUMN_PX);
    }
    let comfortable = needed_width(rect, shape, size, named_cell);
    let grown = comfortable
        .min(room)
        .min(width_that_fits_the_screen(canvas, size));
    set_min_width(canvas, needed.max(grown).ceil());
}

/// The widest the canvas can be (CSS px, at its aspect ratio) with its bottom inside the window
/// when its section's title sits just below the sticky bar (where a lesson step puts it).
fn width_that_fits_the_screen(canvas: &HtmlCanvasElement, (width, height): (f64, f64)) -> f64 {
    let Some(window) = web_sys::window() else {
        return f64::INFINITY;
    };
    let view = window
        .inner_height()
        .ok()
        .and_then(|v| v.as_f64())
        .unwrap_or(f64::INFINITY);
    let document = window.document();
    let bar = document
        .as_ref()
        .and_then(|d| d.get_element_by_id("sticky-bar"))
        .map_or(0.0, |bar| bar.get_bounding_client_rect().height());
    let top = canvas.get_bounding_client_rect().top();
    let title = canvas
        .closest("section")
        .ok()
        .flatten()
        .and_then(|section| section.query_selector("h2").ok().flatten())
        .map_or(top, |h2| h2.get_bounding_client_rect().top());
    // 16 px of gap above the title and below the figure.
    let room = view - bar - (top - title).max(0.0) - 32.0;
    if room <= 0.0 || height <= 0.0 {
        return 0.0;
    }
    room * width / height
}

/// Sets (or, for 0, clears) a canvas's minimum CSS width; its parent scrolls sideways only while
/// the canvas is wider than it (a scrolling parent would clip the tooltip beside the cells).
pub fn set_min_width(canvas: &HtmlCanvasElement, min_width: f64) {
    let style = canvas.style();
    let current = style.get_property_value("min-width").unwrap_or_default();
    let current_px =
        crate::model::decimal::parse_decimal(current.trim_end_matches("px")).unwrap_or(0.0);
    // A change of a pixel or two is rounding between two drawings, not a new need: ignoring it
    // keeps a canvas from being resized (and redrawn) back and forth.
    let settled = (min_width <= 0.0 && current.is_empty())
        || (min_width > 0.0 && (min_width - current_px).abs() < 2.0);
    if !settled {
        let _ = if min_width > 0.0 {
            style.set_property("min-width", &format!("{min_width:.0}px"))
        } else {
            style.remove_property("min-width").map(|_| ())
        };
    }
    if let Some(parent) = canvas.parent_element() {
        let room = f64::from(parent.client_width());
        let scrolls = room > 0.0 && min_width > room + 0.5;
        set_scrolling(&parent, scrolls);
    }
}

/// The attribute that marks a parent this module made a scrolling region (so that it only ever
/// takes back what it added).
const SCROLL_REGION: &str = "data-scroll-region";

/// Makes `parent` scroll sideways (or stop). A region that scrolls can be reached with the
/// keyboard (tabindex 0, so its arrow keys scroll it) and is named for screen readers.
fn set_scrolling(parent: &web_sys::Element, scrolls: bool) {
    let style = web_sys::HtmlElement::from(wasm_bindgen::JsValue::from(parent.clone())).style();
    if scrolls {
        let _ = style.set_property("overflow-x", "auto");
        if !parent.has_attribute("tabindex") {
            let _ = parent.set_attribute(SCROLL_REGION, "");
            let _ = parent.set_attribute("tabindex", "0");
            let _ = parent.set_attribute("role", "group");
            let _ = parent.set_attribute(
                "aria-label",
                &crate::message!("label-figure-scrolls-sideways"),
            );
        }
    } else {
        let _ = style.remove_property("overflow-x");
        if parent.has_attribute(SCROLL_REGION) {
            for name in [SCROLL_REGION, "tabindex", "role", "aria-label"] {
                let _ = parent.remove_attribute(name);
            }
        }
    }
}
