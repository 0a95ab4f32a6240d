//! The page around the panels: the skip link, the compute badge, notices, theme and projector
//! mode, the menu of presets, the export toolbars, the address bar, "Copy link", and which panels
//! are on screen.

use crate::model::query::values::UrlName;
use std::cell::{Cell, RefCell};
use std::collections::HashSet;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlButtonElement, HtmlCanvasElement, HtmlElement};

use super::action::Action;
use super::dom::{self, listen};
use super::error::WebError;
use super::panel::PANELS;
use crate::model::figure_style::FigureLook;
use crate::model::presets::PRESETS;
use crate::model::query;
use crate::model::state::{State, Theme, ViewSettings};

crate::element_table! {
    /// The page's own elements (the controls and the panels have their own tables).
    pub struct PageDom {
        backend: HtmlElement = "backend",
        badge: HtmlElement = "badge",
        skip_link: HtmlElement = "skip-link",
        presets_menu: HtmlElement = "presets-menu",
        frame_time: HtmlElement = "frame-time",
        loading: HtmlElement = "loading",
        notices: HtmlElement = "notices",
        notices_list: HtmlElement = "notices-list",
        copy_status: HtmlElement = "copy-status",
        presets: HtmlElement = "presets",
    }
}

thread_local! {
    /// Ids of the panel sections on screen (`None`: not known, all count as visible).
    static ON_SCREEN: RefCell<Option<HashSet<String>>> = const { RefCell::new(None) };
    /// Ids of the panel sections within [`NEAR_MARGIN_PX`] of the screen, those on it included.
    static NEAR_SCREEN: RefCell<Option<HashSet<String>>> = const { RefCell::new(None) };
    /// Draw every panel whether or not it is on screen (see [`set_eager_panels`]).
    static EAGER: Cell<bool> = const { Cell::new(false) };
}

fn root() -> Result<Element, WebError> {
    dom::document()?
        .document_element()
        .ok_or_else(|| WebError::Js("no document element".into()))
}

/// Theme and projector mode, as attributes of the document element (the style sheets follow).
pub fn apply_view(_page: &PageDom, view: &ViewSettings) -> Result<(), WebError> {
    let root = root()?;
    match view.theme {
        Theme::Light | Theme::Dark => root.set_attribute("data-theme", view.theme.to_query())?,
        Theme::Auto => root.remove_attribute("data-theme")?,
    }
    if view.present {
        root.set_attribute("data-present", "")?;
    } else {
        root.remove_attribute("data-present")?;
    }
    super::lesson::show_section(view.section);
    Ok(())
}

/// The theme and mode the figures are drawn in: the document element's `data-theme` (or the
/// system's colour scheme while the page follows it) and `data-present`.
pub fn figure_look() -> FigureLook {
    let Ok(root) = root() else {
        return FigureLook::default();
    };
    let dark = match root.get_attribute("data-theme").as_deref() {
        Some("dark") => true,
        Some("light") => false,
        _ => dom::window()
            .ok()
            .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
            .is_some_and(|m| m.matches()),
    };
    let projector = root.has_attribute("data-present");
    // The projector's page type (it follows the window's width), for the figures' type. Read by
    // the browser's parser (model::decimal): Rust's would bring its tables back into the page.
    let page_px = if projector {
        dom::window()
            .ok()
            .and_then(|w| w.get_computed_style(&root).ok().flatten())
            .and_then(|style| style.get_property_value("font-size").ok())
            .and_then(|size| crate::model::decimal::parse_decimal(size.trim_end_matches("px")))
            .map_or(0, |px| px.round().clamp(0.0, 200.0) as u16)
    } else {
        0
    };
    FigureLook {
        dark,
        projector,
        page_px,
    }
}

/// Draws every figure again when the system's colour scheme changes (it decides the figures'
/// look while the page's theme follows the system).
pub fn watch_color_scheme(send: fn(Action)) -> Result<(), WebError> {
    if let Some(query) = dom::window()?.match_media("(prefers-color-scheme: dark)")? {
        listen(&query, "change", move |_| send(Action::Redraw))?;
    }
    Ok(())
}

pub fn show_notices(page: &PageDom, notices: &[String]) -> Result<(), WebError> {
    page.notices_list.set_inner_html("");
    let document = dom::document()?;
    for notice in notices {
        let item = document.create_element("li")?;
        item.set_text_content(Some(notice));
        page.notices_list.append_child(&item)?;
    }
    page.notices.set_hidden(notices.is_empty());
    Ok(())
}

/// The compute badge and the frame time. The badge is one line: the backend is shown, why it was
/// chosen (the part in brackets) is read by screen readers and shown in the badge's title.
pub fn show_status(page: &PageDom, badge: &str, frame_ms: f64) -> Result<(), WebError> {
    if page.backend.text_content().as_deref() != Some(badge) {
        // The reason is in " (…)", or in "（…）" on the Chinese page.
        let (shown, why) = match (badge.find(" ("), badge.find('（')) {
            (Some(at), _) if badge.ends_with(')') => badge.split_at(at),
            (_, Some(at)) if badge.ends_with('）') => badge.split_at(at),
            _ => (badge, ""),
        };
        dom::text(&page.backend, shown);
        if !why.is_empty() {
            let reason = dom::document()?.create_element("span")?;
            reason.set_class_name("visually-hidden");
            reason.set_text_content(Some(why));
            page.backend.append_child(&reason)?;
        }
        page.badge
            .set_title(&crate::message!("status-badge-title", badge = badge));
    }
    dom::text(
        &page.frame_time,
        &crate::model::status::frame_time(frame_ms),
    );
    // The first frame's time takes the loading line's place (the same line of the header).
    if !page.loading.hidden() {
        page.loading.set_hidden(true);
    }
    Ok(())
}

/// Every panel's numbers are there (after the first frame's `show_status`): `peLab.ready`
/// resolves.
pub fn settle_ready() -> Result<(), WebError> {
    // Every takeaway now states the link's view: those the head script hid are shown.
    root()?.remove_attribute("data-linked-state")?;
    // The figures are drawn: the head script's first pictures (www/posters/) give way to them.
    root()?.remove_attribute("data-poster")?;
    super::api::settle_ready(&super::api::api_object()?, Ok(()))
}

/// Scrolls a panel's section (a preset's panel, a lesson stop) to just below the sticky bar, with
/// its whole main figure in view.
pub fn bring_into_view(section_id: &str) {
    super::layout::bring_into_view(section_id);
}

/// Keeps the link in the address bar equal to the view.
pub fn write_url(state: &State) -> Result<(), WebError> {
    let window = dom::window()?;
    let location = window.location();
    let search = query::write_search(&location.search()?, state);
    // The lesson section shown; above the first section, whatever hash the link had unless it
    // named a section (the reader has scrolled back to the top).
    let hash = match query::write_hash(state) {
        Some(hash) => hash,
        None => {
            let kept = location.hash()?;
            if query::parse_hash(&kept).is_some() {
                String::new()
            } else {
                kept
            }
        }
    };
    let url = format!(
        "{}{}?{search}{hash}",
        location.origin()?,
        location.pathname()?
    );
    window
        .history()?
        .replace_state_with_url(&JsValue::NULL, "", Some(&url))?;
    Ok(())
}

/// Copies the address bar (brought up to date by the caller) to the clipboard, or shows it to
/// copy by hand.
pub fn copy_link(page: &PageDom) {
    let Ok(window) = dom::window() else { return };
    let Ok(href) = window.location().href() else {
        return;
    };
    let promise = window.navigator().clipboard().write_text(&href);
    let status = page.copy_status.clone();
    wasm_bindgen_futures::spawn_local(async move {
        let text = match wasm_bindgen_futures::JsFuture::from(promise).await {
            Ok(_) => crate::message!("status-link-copied"),
            Err(_) => crate::message!("status-copy-this-link", href = &href),
        };
        dom::text(&status, &text);
    });
}

/// Wires the menu of presets: its button opens the list, a preset closes it, is applied and its
/// panel scrolled to; a click elsewhere or Escape closes it. The buttons are in `index.html` (a
/// native test holds them to the preset table), so that the header has its final height at the
/// first paint.
pub fn build_presets(page: &PageDom, send: fn(Action)) -> Result<(), WebError> {
    let (menu, list) = (page.presets_menu.clone(), page.presets.clone());
    for preset in PRESETS {
        let button: HtmlButtonElement = dom::element(&format!("preset-{}", preset.name))?;
        let name = preset.name;
        let (menu, list) = (menu.clone(), list.clone());
        listen(&button, "click", move |_| {
            open_presets(&menu, &list, false);
            send(Action::State(crate::model::state::Msg::Preset(name.into())))
        })?;
    }
    let (button, shown) = (menu.clone(), list.clone());
    listen(&page.presets_menu, "click", move |_| {
        let open = shown.hidden();
        open_presets(&button, &shown, open);
        if open {
            if let Ok(Some(first)) = shown.query_selector("button") {
                if let Some(first) = first.dyn_ref::<HtmlElement>() {
                    let _ = first.focus();
                }
            }
        }
    })?;
    let document = dom::document()?;
    let (button, shown) = (menu.clone(), list.clone());
    listen(&document, "click", move |event| {
        let inside = event
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Node>().ok())
            .and_then(|node| {
                button
                    .parent_element()
                    .map(|box_| box_.contains(Some(&node)))
            })
            .unwrap_or(false);
        if !inside && !shown.hidden() {
            open_presets(&button, &shown, false);
        }
    })?;
    listen(&document, "keydown", move |event| {
        let escape = event
            .dyn_ref::<web_sys::KeyboardEvent>()
            .is_some_and(|key| key.key() == "Escape");
        if escape && !list.hidden() {
            open_presets(&menu, &list, false);
            let _ = menu.focus();
        }
    })?;
    Ok(())
}

fn open_presets(menu: &HtmlElement, list: &HtmlElement, open: bool) {
    list.set_hidden(!open);
    let _ = menu.set_attribute("aria-expanded", if open { "true" } else { "false" });
}

/// The skip link moves the focus to the sticky bar (the lesson and the parameters), so that the
/// next Tab is its first control; the address bar keeps its link.
pub fn wire_skip_link(page: &PageDom) -> Result<(), WebError> {
    listen(&page.skip_link, "click", |event| {
        event.prevent_default();
        if let Ok(bar) = dom::element::<HtmlElement>("sticky-bar") {
            let _ = bar.set_attribute("tabindex", "-1");
            let _ = bar.focus();
        }
    })
}

fn new_button(id: &str, label: &str, title: &str) -> Result<HtmlButtonElement, WebError> {
    let button: HtmlButtonElement = dom::document()?
        .create_element("button")?
        .dyn_into()
        .map_err(|_| WebError::Js("could not create a button".into()))?;
    button.set_type("button");
    button.set_id(id);
    button.set_text_content(Some(label));
    button.set_title(title);
    Ok(button)
}

/// A toolbar at the top of every panel: PNG of each of its figures, and CSV and SVG where the
/// panel table says the panel has them.
pub fn install_export_tools(send: fn(Action)) -> Result<(), WebError> {
    let document = dom::document()?;
    for spec in PANELS {
        let (id, section) = (spec.id, dom::element::<Element>(&spec.section_id())?);
        // One "Save" menu per panel: a row of buttons (seven in the training panel) would widen
        // a narrow embed or wrap over the panel's first lines.
        let menu = document.create_element("details")?;
        menu.set_class_name("panel-tools");
        let summary = document.create_element("summary")?;
        summary.set_text_content(Some(&crate::message!("button-save")));
        summary.set_attribute(
            "title",
            &crate::message!("button-save-title", panel = spec.title()),
        )?;
        menu.append_child(&summary)?;
        let tools = document.create_element("div")?;
        tools.set_class_name("panel-tools-list");
        tools.set_attribute("role", "toolbar")?;
        tools.set_attribute(
            "aria-label",
            &crate::message!("label-export-toolbar", panel = spec.title()),
        )?;
        menu.append_child(&tools)?;
        let canvases = section.query_selector_all("canvas[id]")?;
        let several = canvases.length() > 1;
        for c in 0..canvases.length() {
            let Some(canvas) = canvases
                .item(c)
                .and_then(|n| n.dyn_into::<HtmlCanvasElement>().ok())
            else {
                continue;
            };
            let id = canvas.id();
            let label = if several {
                format!("PNG: {}", crate::model::export::figure_name(&id))
            } else {
                "PNG".into()
            };
            let button = new_button(
                &format!("export-png-{id}"),
                &label,
                &crate::message!("button-export-png-title"),
            )?;
            listen(&button, "click", move |_| {
                send(Action::ExportPng(id.clone()))
            })?;
            tools.append_child(&button)?;
        }
        if spec.csv {
            let button = new_button(
                &format!("export-csv-{}", spec.name),
                "CSV",
                &crate::message!("button-export-csv-title"),
            )?;
            listen(&button, "click", move |_| send(Action::ExportCsv(id)))?;
            tools.append_child(&button)?;
        }
        if spec.svg {
            let button = new_button(
                &format!("export-svg-{}", spec.name),
                "SVG",
                &crate::message!("button-export-svg-title"),
            )?;
            listen(&button, "click", move |_| send(Action::ExportSvg(id)))?;
            tools.append_child(&button)?;
        }
        // In the title's line, at its right end (`www/themes.css`): it takes no line of its own.
        match section.query_selector("h2")? {
            Some(heading) => heading.after_with_node_1(&menu)?,
            None => section.prepend_with_node_1(&menu)?,
        }
    }
    Ok(())
}

/// How far outside the window a panel counts as near (the observer's root margin says the same):
/// it is brought up to date when the page is quiet, so that it is ready when the reader scrolls.
const NEAR_MARGIN_PX: f64 = 300.0;

fn in_set(set: &'static std::thread::LocalKey<RefCell<Option<HashSet<String>>>>, id: &str) -> bool {
    if EAGER.with(Cell::get) {
        return true;
    }
    set.with(|v| v.borrow().as_ref().map_or(true, |set| set.contains(id)))
}

/// Whether the panel with this section id is on the screen: a frame computes and draws it.
pub fn is_on_screen(section_id: &str) -> bool {
    in_set(&ON_SCREEN, section_id)
}

/// Whether the panel with this section id is on or near the screen: it is brought up to date as
/// soon as the page is quiet, not only when it is seen or asked for.
pub fn is_near_screen(section_id: &str) -> bool {
    in_set(&NEAR_SCREEN, section_id)
}

/// Marks a panel on screen whose figure waits for the end of a drag (dimmed, `aria-busy`), or
/// clears the mark once it is drawn.
pub fn mark_settling(section_id: &str, settling: bool) {
    let Ok(section) = dom::element::<Element>(section_id) else {
        return;
    };
    let _ = section.class_list().toggle_with_force("settling", settling);
    let _ = if settling {
        section.set_attribute("aria-busy", "true")
    } else {
        section.remove_attribute("aria-busy")
    };
}

/// Counts a panel as on screen before the observer says so: one about to be scrolled to.
pub fn expect_on_screen(section_id: &str) {
    for set in [&ON_SCREEN, &NEAR_SCREEN] {
        set.with(|v| {
            if let Some(set) = v.borrow_mut().as_mut() {
                set.insert(section_id.to_string());
            }
        });
    }
}

/// Draw every panel at once instead of when it scrolls into view: for tests that read the numbers
/// of panels far down a page they cannot scroll.
pub fn set_eager_panels(eager: bool) {
    EAGER.with(|e| e.set(eager));
}

/// Watches which panels are on and near the screen: off-screen panels are drawn once they are
/// seen, and brought up to date in quiet moments once they are near.
pub fn observe_panels(send: fn(Action)) -> Result<(), WebError> {
    let viewport = dom::window()?.inner_height()?.as_f64().unwrap_or(0.0);
    let sections = PANELS
        .iter()
        .map(|spec| dom::element::<Element>(&spec.section_id()))
        .collect::<Result<Vec<_>, _>>()?;
    for (set, margin, root_margin) in [
        (&ON_SCREEN, 0.0, "0px 0px"),
        (&NEAR_SCREEN, NEAR_MARGIN_PX, "300px 0px"),
    ] {
        watch_sections(set, (margin, root_margin), &sections, viewport, send)?;
    }
    Ok(())
}

/// One observer: keeps `set` to the sections within `margin` pixels of the window.
fn watch_sections(
    set: &'static std::thread::LocalKey<RefCell<Option<HashSet<String>>>>,
    (margin, root_margin): (f64, &str),
    sections: &[Element],
    viewport: f64,
    send: fn(Action),
) -> Result<(), WebError> {
    let callback = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
        let mut newly_in = false;
        set.with(|v| {
            let mut ids = v.borrow_mut();
            let ids = ids.get_or_insert_with(HashSet::new);
            for entry in entries.iter() {
                let Ok(entry) = entry.dyn_into::<web_sys::IntersectionObserverEntry>() else {
                    continue;
                };
                let id = entry.target().id();
                if entry.is_intersecting() {
                    newly_in |= ids.insert(id);
                } else {
                    ids.remove(&id);
                }
            }
        });
        if newly_in {
            send(Action::PanelsOnScreen);
        }
    });
    let options = web_sys::IntersectionObserverInit::new();
    options.set_root_margin(root_margin);
    let observer = web_sys::IntersectionObserver::new_with_options(
        callback.as_ref().unchecked_ref(),
        &options,
    )?;
    // The observer reports asynchronously; the first frame is drawn before that, so the panels
    // on screen now are found from their positions.
    let mut ids = HashSet::new();
    for section in sections {
        let rect = section.get_bounding_client_rect();
        if rect.bottom() > -margin && rect.top() < viewport + margin {
            ids.insert(section.id());
        }
        observer.observe(section);
    }
    set.with(|v| *v.borrow_mut() = Some(ids));
    // Observer and callback live as long as the page.
    callback.forget();
    std::mem::forget(observer);
    Ok(())
}
