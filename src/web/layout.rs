//! Fitting the page to the screen it is on: a phone, a laptop, a projector. The style sheet
//! (`www/layout.css`) scales each figure by CSS, never distorting it, so that it fits one screen
//! below the sticky bar; it needs three numbers only the page can measure, which are kept here:
//! - `--sticky-height` on `<html>`: the sticky bar's height (sections scroll to just below it);
//! - `--above-figure` on each panel: from the panel's top to its main figure's (`.figure-main`);
//! - `--aspect` on each canvas: its width / height.
//!
//! The first two are measured once already by a script at the end of index.html, the same way,
//! before the first paint, so that the static page reserves the drawn figures' space.
//! A `ResizeObserver` re-measures on the next animation frame whenever the bar or a panel changes
//! size; [`bring_into_view`] measures at once before it scrolls, and scrolls again if the bar's
//! height changes just after.

use std::cell::{Cell, RefCell};

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement, ResizeObserver};

use super::action::Action;
use super::dom;
use super::error::WebError;
use super::panel::PANELS;
use super::{scheduler, surface};
use crate::model::panels::PanelId;

/// The sticky bar's id.
const BAR_ID: &str = "sticky-bar";

/// Gap between the sticky bar and a section scrolled to, and between a figure and the window's
/// bottom edge (the style sheet's `--scroll-gap`).
pub(crate) const GAP: f64 = 8.0;

thread_local! {
    static FIT_PENDING: Cell<bool> = const { Cell::new(false) };
}

/// Gives every canvas its proportions, measures once, and re-measures on every change of size.
pub fn install() -> Result<(), WebError> {
    let document = dom::document()?;
    let canvases = document.query_selector_all("main canvas[width][height]")?;
    for k in 0..canvases.length() {
        let Some(canvas) = canvases
            .item(k)
            .and_then(|n| n.dyn_into::<web_sys::HtmlCanvasElement>().ok())
        else {
            continue;
        };
        // index.html states each figure's aspect in its markup, so that the first paint already
        // has the figures' heights (a native test holds them to the canvases' sizes); a canvas
        // without it gets it here.
        if canvas.style().get_property_value("--aspect")?.is_empty() {
            let aspect = format!("{} / {}", canvas.width().max(1), canvas.height().max(1));
            canvas.style().set_property("--aspect", &aspect)?;
        }
        surface::record_design(&canvas);
    }
    let callback = Closure::<dyn FnMut(js_sys::Array)>::new(move |_entries| schedule_fit());
    let observer = ResizeObserver::new(callback.as_ref().unchecked_ref())?;
    observer.observe(&dom::element::<Element>(BAR_ID)?);
    for spec in PANELS.iter() {
        observer.observe(&dom::element::<Element>(&spec.section_id())?);
    }
    for k in 0..canvases.length() {
        if let Some(canvas) = canvases.item(k).and_then(|n| n.dyn_into::<Element>().ok()) {
            observer.observe(&canvas);
        }
    }
    // Observer and callback live as long as the page.
    callback.forget();
    std::mem::forget(observer);
    watch_pixel_ratio();
    fit();
    Ok(())
}

/// Re-measures when `devicePixelRatio` changes: the window's `resize` (a browser zoom), and a media
/// query for the current ratio that stops matching (the window moved to another screen), set up
/// again for the next ratio each time.
fn watch_pixel_ratio() {
    let Ok(window) = dom::window() else { return };
    thread_local! {
        static ON_RESIZE: Cell<bool> = const { Cell::new(false) };
    }
    if !ON_RESIZE.with(|installed| installed.replace(true)) {
        let _ = dom::listen(&window, "resize", |_| schedule_fit());
    }
    let query = format!("(resolution: {}dppx)", window.device_pixel_ratio());
    let Ok(Some(list)) = window.match_media(&query) else {
        return;
    };
    let callback = Closure::once_into_js(|| {
        watch_pixel_ratio();
        schedule_fit();
    });
    let options = web_sys::AddEventListenerOptions::new();
    options.set_once(true);
    let _ = list.add_event_listener_with_callback_and_add_event_listener_options(
        "change",
        callback.unchecked_ref(),
        &options,
    );
}

/// Measures on the next animation frame (sizes set inside a `ResizeObserver` callback would be
/// reported late, with an error).
fn schedule_fit() {
    if FIT_PENDING.with(Cell::get) {
        return;
    }
    let Ok(window) = dom::window() else { return };
    let callback = Closure::once_into_js(|| {
        FIT_PENDING.with(|p| p.set(false));
        fit();
        realign();
        // A figure whose box or pixel ratio changed is drawn again at its new size (a canvas's
        // pixels are only redrawn by the page, never re-rasterised by the browser).
        if surface::any_out_of_date() {
            scheduler::send(Action::Redraw);
        }
    });
    if window
        .request_animation_frame(callback.unchecked_ref())
        .is_ok()
    {
        FIT_PENDING.with(|p| p.set(true));
    }
}

/// The sticky bar's height in CSS pixels (0 when it is not shown).
pub(crate) fn sticky_height() -> f64 {
    dom::element::<Element>(BAR_ID)
        .map(|bar| bar.get_bounding_client_rect().height().ceil())
        .unwrap_or(0.0)
}

/// How far below the sticky bar (and its gap) a section's top may be and still be the one read: a
/// jump puts it exactly there; a few pixels of slack cover rounding and a reader's small scrolls.
const READING_SLACK: f64 = 24.0;

/// ... and at most this share of the view below the bar: a section whose title the reader sees
/// near the top of the screen is the one read, not the last lines of the section above (every
/// section is taller than a fifth of the view, so a jump's section stays the one read).
const READING_SHARE: f64 = 0.2;

/// The section being read: the last panel whose top has reached the line just below the sticky
/// bar (`None` above the first, while the header is still on screen). `None` too at the bottom
/// of the page, where the last sections can no longer reach the line and a jump to one of them
/// must keep its name: the caller then leaves the bar as it is.
pub fn section_being_read() -> Option<Option<PanelId>> {
    let window = dom::window().ok()?;
    let document = dom::document().ok()?;
    let root = document.document_element()?;
    let (scroll_y, view) = (
        window.scroll_y().ok()?,
        window.inner_height().ok()?.as_f64()?,
    );
    if scroll_y > 0.0 && scroll_y + view >= f64::from(root.scroll_height()) - 2.0 {
        return None;
    }
    // At the very top the page's header is what is read.
    if scroll_y <= 0.0 {
        return Some(None);
    }
    let sticky = sticky_height();
    let line = sticky + GAP + READING_SLACK.max((view - sticky) * READING_SHARE);
    let mut read = None;
    for spec in PANELS {
        let Ok(section) = dom::element::<Element>(&spec.section_id()) else {
            continue;
        };
        let rect = section.get_bounding_client_rect();
        if rect.height() == 0.0 {
            continue;
        }
        if rect.top() > line {
            break;
        }
        read = Some(spec.id);
    }
    Some(read)
}

/// Sets a custom property to whole pixels, only when it changes.
fn set_pixels(element: &HtmlElement, name: &str, value: f64) {
    let text = format!("{}px", value.max(0.0).round());
    let style = element.style();
    if style.get_property_value(name).ok().as_deref() != Some(text.as_str()) {
        let _ = style.set_property(name, &text);
    }
}

/// Measures the sticky bar and the room above each panel's main figure, and lets a table that is
/// wider than its panel be scrolled with the keyboard.
pub fn fit() {
    let Ok(document) = dom::document() else {
        return;
    };
    let Some(root) = document
        .document_element()
        .and_then(|r| r.dyn_into::<HtmlElement>().ok())
    else {
        return;
    };
    set_pixels(&root, "--sticky-height", sticky_height());
    for spec in PANELS.iter() {
        let Ok(section) = dom::element::<HtmlElement>(&spec.section_id()) else {
            continue;
        };
        let Ok(Some(figure)) = section.query_selector(".figure-main") else {
            continue;
        };
        let (top, figure_box) = (
            section.get_bounding_client_rect().top(),
            figure.get_bounding_client_rect(),
        );
        if figure_box.height() > 0.0 {
            set_pixels(&section, "--above-figure", figure_box.top() - top);
        }
    }
    if let Ok(tables) = document.query_selector_all(".table-scroll") {
        for k in 0..tables.length() {
            let Some(wrapper) = tables.item(k).and_then(|n| n.dyn_into::<Element>().ok()) else {
                continue;
            };
            let scrolls = wrapper.scroll_width() > wrapper.client_width() + 1;
            let _ = if scrolls {
                wrapper.set_attribute("tabindex", "0")
            } else {
                wrapper.remove_attribute("tabindex")
            };
        }
    }
}

/// Scrolls a panel's section so that its title sits just below the sticky bar, on every screen
/// (the style sheet sizes each main figure to fit below its title where the screen allows). The
/// bar's height is measured now; for a moment after the scroll a change of the bar's height (its
/// labels, the projector's type) or of the page above aligns the section again.
///
/// The jump a link asks for at start-up ([`wait_before_the_link_jump`]) waits two animation
/// frames: the panels above the section have just grown with their first numbers, and a scroll in
/// the frame that paints them would count as a layout shift of everything on screen.
pub fn bring_into_view(section_id: &str) {
    fit();
    if !LINK_JUMP.with(|waits| waits.replace(false)) {
        align_and_keep(section_id);
        return;
    }
    let id = section_id.to_string();
    let Ok(window) = dom::window() else { return };
    let second = Closure::once_into_js(move || {
        fit();
        align_and_keep(&id);
    });
    let first = Closure::once_into_js(move || {
        if let Ok(window) = dom::window() {
            let _ = window.request_animation_frame(second.unchecked_ref());
        }
    });
    let _ = window.request_animation_frame(first.unchecked_ref());
}

/// The next [`bring_into_view`] is the link's (`#panel-<name>`, `?preset=`), in the page's first
/// frame.
pub fn wait_before_the_link_jump() {
    LINK_JUMP.with(|waits| waits.set(true));
}

fn align_and_keep(section_id: &str) {
    align(section_id);
    let until = dom::now_ms() + REALIGN_MS;
    ALIGNED.with(|a| *a.borrow_mut() = Some((section_id.to_string(), until)));
}

/// How long after a jump a change of layout brings the section back below the bar (a reader who
/// scrolls meanwhile keeps their place: see [`realign`]).
const REALIGN_MS: f64 = 1500.0;

thread_local! {
    /// The next jump is the one a link asks for at start-up.
    static LINK_JUMP: Cell<bool> = const { Cell::new(false) };
    /// The section last jumped to, its scroll position and until when it is kept aligned.
    static ALIGNED: RefCell<Option<(String, f64)>> = const { RefCell::new(None) };
    static ALIGNED_AT: Cell<f64> = const { Cell::new(f64::NAN) };
}

/// Scrolls the section's top to the sticky bar's bottom edge plus the gap.
fn align(section_id: &str) {
    let (Ok(window), Ok(section)) = (dom::window(), dom::element::<Element>(section_id)) else {
        return;
    };
    let top = section.get_bounding_client_rect().top();
    let scroll_y = window.scroll_y().unwrap_or(0.0);
    let target = (scroll_y + top - sticky_height() - GAP).max(0.0).round();
    if (target - scroll_y).abs() >= 1.0 {
        window.scroll_to_with_x_and_y(window.scroll_x().unwrap_or(0.0), target);
    }
    ALIGNED_AT.with(|at| at.set(window.scroll_y().unwrap_or(target)));
}

/// Whether a recent jump's section is being kept below the bar (see [`realign`]).
pub fn keeping_alignment() -> bool {
    ALIGNED.with(|a| {
        a.borrow()
            .as_ref()
            .is_some_and(|(_, until)| dom::now_ms() <= *until)
    })
}

/// After a change of layout, the section last jumped to is aligned again if the jump was recent
/// and the reader has not scrolled since.
fn realign() {
    let Some((id, until)) = ALIGNED.with(|a| a.borrow().clone()) else {
        return;
    };
    let scrolled = dom::window()
        .ok()
        .and_then(|w| w.scroll_y().ok())
        .is_some_and(|y| (y - ALIGNED_AT.with(Cell::get)).abs() >= 2.0);
    if dom::now_ms() > until || scrolled {
        ALIGNED.with(|a| *a.borrow_mut() = None);
        return;
    }
    align(&id);
}
