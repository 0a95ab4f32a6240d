//! Reading a heatmap cell by cell, shared by P's heatmap, the attention weights, the multi-head
//! maps and the similarity heatmap: the pointer and the keyboard (the canvas takes focus; arrows
//! move a cursor cell, Page Up/Down by ten rows or to another map, Home/End to the first/last
//! column), and the tooltip beside the cell, flipped so that it stays inside the window.

use crate::model::panels::PanelId;
use crate::web::surface;
use wasm_bindgen::JsCast;
use web_sys::{HtmlCanvasElement, HtmlElement, KeyboardEvent, MouseEvent};

use super::super::action::{Action, PanelEvent};
use super::super::dom::{self, listen};
use super::super::error::WebError;
use crate::model::plot::PixelRect;

/// Distance in CSS pixels from the pointer (or the cell's centre) to the tooltip's corner.
const TOOLTIP_OFFSET: f64 = 14.0;
/// The tooltip keeps this far from the window's edges.
const WINDOW_MARGIN: f64 = 4.0;

/// What Page Up and Page Down do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Paging {
    /// Move ten rows.
    Rows,
    /// Go to the previous or next map (a panel of several heatmaps).
    Maps,
}

/// The panel event of a key, if the key reads cells.
pub fn key_event(key: &str, paging: Paging) -> Option<PanelEvent> {
    let cursor = |rows, columns| Some(PanelEvent::Cursor { rows, columns });
    match (key, paging) {
        ("ArrowUp", _) => cursor(-1, 0),
        ("ArrowDown", _) => cursor(1, 0),
        ("ArrowLeft", _) => cursor(0, -1),
        ("ArrowRight", _) => cursor(0, 1),
        ("PageUp", Paging::Rows) => cursor(-10, 0),
        ("PageDown", Paging::Rows) => cursor(10, 0),
        ("PageUp", Paging::Maps) => Some(PanelEvent::CursorMap { maps: -1 }),
        ("PageDown", Paging::Maps) => Some(PanelEvent::CursorMap { maps: 1 }),
        ("Home", _) => cursor(0, i64::MIN / 2),
        ("End", _) => cursor(0, i64::MAX / 2),
        _ => None,
    }
}

/// Makes `canvas` focusable and sends `panel` its pointer and keyboard events:
/// `Pointer`, `Leave` (the pointer left, or focus did), `Cursor` (and `CursorMap`) from the keys,
/// and `Cursor { 0, 0 }` on focus, which shows the cursor cell.
pub fn wire(
    canvas: &HtmlCanvasElement,
    panel: PanelId,
    send: fn(Action),
    paging: Paging,
) -> Result<(), WebError> {
    canvas.set_tab_index(0);
    let to_panel = move |event| send(Action::Panel { panel, event });
    // Pointer events, so that a finger and a pen read cells as a mouse does. A tap or a click also
    // focuses the canvas (it is focusable for the keyboard), and focus shows the keyboard's cursor
    // cell: that focus must not replace the cell just tapped with the cursor's (at first row 0,
    // column 0), so focus that follows a press is not sent.
    let pressed = std::rc::Rc::new(std::cell::Cell::new(false));
    for kind in ["pointermove", "pointerdown"] {
        let pressed = pressed.clone();
        listen(canvas, kind, move |event| {
            if let Some(pointer) = event.dyn_ref::<MouseEvent>() {
                if kind == "pointerdown" {
                    pressed.set(true);
                }
                // Pointer events carry fractional offsets (web-sys's `offset_x` truncates them to
                // whole pixels, which moves a point on a cell's edge into its neighbour).
                let fractional = |name: &str, whole: i32| {
                    js_sys::Reflect::get(pointer, &wasm_bindgen::JsValue::from_str(name))
                        .ok()
                        .and_then(|v| v.as_f64())
                        .unwrap_or(f64::from(whole))
                };
                let (x, y) = (
                    fractional("offsetX", pointer.offset_x()),
                    fractional("offsetY", pointer.offset_y()),
                );
                to_panel(PanelEvent::Pointer { x, y });
            }
        })?;
    }
    listen(canvas, "mouseleave", move |_| to_panel(PanelEvent::Leave))?;
    let blur_pressed = pressed.clone();
    listen(canvas, "blur", move |_| {
        blur_pressed.set(false);
        to_panel(PanelEvent::Leave)
    })?;
    listen(canvas, "keydown", move |event| {
        let Some(key) = event.dyn_ref::<KeyboardEvent>().map(|k| k.key()) else {
            return;
        };
        if let Some(cursor) = key_event(&key, paging) {
            event.prevent_default();
            to_panel(cursor);
        }
    })?;
    listen(canvas, "focus", move |_| {
        if pressed.replace(false) {
            return;
        }
        to_panel(PanelEvent::Cursor {
            rows: 0,
            columns: 0,
        })
    })
}

/// CSS point (x, y) on the canvas in the canvas's logical pixels.
pub fn to_canvas(canvas: &HtmlCanvasElement, x: f64, y: f64) -> (f64, f64) {
    surface::css_to_logical(canvas, x, y)
}

/// The CSS point at the centre of cell (row, column) of a `rows × columns` image drawn into
/// `rect` (canvas pixels).
pub fn cell_centre(
    canvas: &HtmlCanvasElement,
    rect: PixelRect,
    (rows, columns): (usize, usize),
    (row, column): (usize, usize),
) -> (f64, f64) {
    let x = rect.x0 + (column as f64 + 0.5) * rect.width() / columns.max(1) as f64;
    let y = rect.y0 + (row as f64 + 0.5) * rect.height() / rows.max(1) as f64;
    surface::logical_to_css(canvas, x, y)
}

/// Shows `text` in the read-out and in the tooltip beside CSS point (x, y) of the canvas: right of
/// and below it, or left of / above it where it would leave the window.
pub fn show(
    canvas: &HtmlCanvasElement,
    tooltip: &HtmlElement,
    readout: &HtmlElement,
    text: &str,
    (x, y): (f64, f64),
) {
    dom::text(readout, text);
    dom::text(tooltip, text);
    tooltip.set_hidden(false);
    let (Ok(window), Some(parent)) = (dom::window(), tooltip.offset_parent()) else {
        return;
    };
    let Some(root) = window.document().and_then(|d| d.document_element()) else {
        return;
    };
    let (width, height) = (
        tooltip.offset_width() as f64,
        tooltip.offset_height() as f64,
    );
    let (window_width, window_height) = (root.client_width() as f64, root.client_height() as f64);
    let (canvas_box, parent_box) = (
        canvas.get_bounding_client_rect(),
        parent.get_bounding_client_rect(),
    );
    // In window coordinates.
    let (px, py) = (canvas_box.left() + x, canvas_box.top() + y);
    let place = |point: f64, size: f64, limit: f64| {
        let after = point + TOOLTIP_OFFSET;
        let start = if after + size > limit - WINDOW_MARGIN {
            point - TOOLTIP_OFFSET - size
        } else {
            after
        };
        start.min(limit - WINDOW_MARGIN - size).max(WINDOW_MARGIN)
    };
    let left = place(px, width, window_width) - parent_box.left();
    let top = place(py, height, window_height) - parent_box.top();
    let style = tooltip.style();
    let _ = style.set_property("left", &format!("{left:.0}px"));
    let _ = style.set_property("top", &format!("{top:.0}px"));
}
