//! The lesson path's navigation, `<nav aria-label="Lesson">`: its list of sections is built from
//! `model::panels::LESSON`; the previous and next buttons are in the button table; `[` and `]`
//! (and Alt+PageUp, Alt+PageDown; plain PageUp, PageDown in projector mode, as a presenter's
//! remote sends them) step along it; the address bar's `#panel-<name>` names the section shown and
//! opens it from a link. A move along the path is a message (`Msg::Go`) like any other change.
//!
//! Opening the list of sections, or the parameters on a phone, is not state: it is done here, on
//! the elements, and never written to the link.

use std::cell::{Cell, RefCell};

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, EventTarget, HtmlElement, KeyboardEvent};

use super::action::Action;
use super::dom::{self, listen};
use super::error::WebError;
use crate::model::panels::Go;
use crate::model::panels::{PanelId, LESSON};
use crate::model::query::parse_hash;
use crate::model::state::Msg;

crate::element_table! {
    /// The lesson navigation and the sticky bar it sits in.
    pub struct LessonDom {
        nav: HtmlElement = "lesson",
        menu: HtmlElement = "lesson-menu",
        list: HtmlElement = "lesson-list",
        step: HtmlElement = "lesson-step",
        current: HtmlElement = "lesson-current",
        previous: HtmlElement = "lesson-prev",
        next: HtmlElement = "lesson-next",
        bar: HtmlElement = "sticky-bar",
        controls_toggle: HtmlElement = "controls-toggle",
        summary: HtmlElement = "controls-summary",
    }
}

thread_local! {
    static DOM: RefCell<Option<LessonDom>> = const { RefCell::new(None) };
    /// The list's links, in lesson order.
    static LINKS: RefCell<Vec<Element>> = const { RefCell::new(Vec::new()) };
    /// The section the bar names now (the state's), and whether a check of the section being
    /// read is already waiting for the next animation frame.
    static SHOWN: Cell<Option<PanelId>> = const { Cell::new(None) };
    static FOLLOW_PENDING: Cell<bool> = const { Cell::new(false) };
    /// A key stepped the lesson: the section it shows takes the focus.
    static FOCUS_STEP: Cell<bool> = const { Cell::new(false) };
}

/// Builds the list of sections and wires the navigation, its keys and the address bar's hash.
pub fn install(send: fn(Action)) -> Result<(), WebError> {
    let dom = LessonDom::mount()?;
    let links = build_list(&dom.list, send)?;
    let (menu, list) = (dom.menu.clone(), dom.list.clone());
    listen(&dom.menu, "click", move |_| {
        open_menu(&menu, &list, list.hidden());
    })?;
    let (bar, toggle) = (dom.bar.clone(), dom.controls_toggle.clone());
    listen(&dom.controls_toggle, "click", move |_| {
        let open = toggle.get_attribute("aria-expanded").as_deref() != Some("true");
        open_controls(&bar, &toggle, open);
    })?;
    let document = dom::document()?;
    // A click anywhere else closes the list of sections.
    let (nav, menu, list) = (dom.nav.clone(), dom.menu.clone(), dom.list.clone());
    listen(&document, "click", move |event| {
        let inside = event
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Node>().ok())
            .is_some_and(|node| nav.contains(Some(&node)));
        if !inside && !list.hidden() {
            open_menu(&menu, &list, false);
        }
    })?;
    listen(&document, "keydown", move |event| {
        if let Some(key) = event.dyn_ref::<KeyboardEvent>() {
            on_key(key, send);
        }
    })?;
    let window: EventTarget = dom::window()?.into();
    listen(&window, "hashchange", move |_| {
        if let Some(msg) = hash_message() {
            send(Action::State(msg));
        }
    })?;
    // Scrolling names the section being read: once per frame at most, and only when it changes.
    listen(&window, "scroll", move |_| follow_scrolling(send))?;
    LINKS.with(|l| *l.borrow_mut() = links);
    DOM.with(|d| *d.borrow_mut() = Some(dom));
    Ok(())
}

/// One list per part of the chapter, numbered on across the parts; a link per section.
fn build_list(list: &HtmlElement, send: fn(Action)) -> Result<Vec<Element>, WebError> {
    let document = dom::document()?;
    let mut links = Vec::new();
    let mut part: Option<(&str, Element)> = None;
    for (index, stop) in LESSON.iter().enumerate() {
        let spec = stop.spec();
        if part.as_ref().map(|(name, _)| *name) != Some(spec.part) {
            let item = document.create_element("li")?;
            item.set_class_name("lesson-part");
            let title = document.create_element("span")?;
            title.set_class_name("lesson-part-title");
            title.set_text_content(Some(&spec.part_title()));
            let steps = document.create_element("ol")?;
            steps.set_attribute("start", &(index + 1).to_string())?;
            item.append_child(&title)?;
            item.append_child(&steps)?;
            list.append_child(&item)?;
            part = Some((spec.part, steps));
        }
        let item = document.create_element("li")?;
        let link = document.create_element("a")?;
        link.set_attribute("href", &format!("#{}", spec.section_id()))?;
        link.set_text_content(Some(&spec.title()));
        let panel = spec.id;
        listen(&link, "click", move |event| {
            event.prevent_default();
            close_menu_and_focus(panel);
            send(Action::State(Msg::Go(Go::To(panel))));
        })?;
        item.append_child(&link)?;
        if let Some((_, steps)) = &part {
            steps.append_child(&item)?;
        }
        links.push(link);
    }
    Ok(links)
}

fn open_menu(menu: &HtmlElement, list: &HtmlElement, open: bool) {
    list.set_hidden(!open);
    let _ = menu.set_attribute("aria-expanded", if open { "true" } else { "false" });
}

fn open_controls(bar: &HtmlElement, toggle: &HtmlElement, open: bool) {
    let _ = bar.class_list().toggle_with_force("expanded", open);
    let _ = toggle.set_attribute("aria-expanded", if open { "true" } else { "false" });
}

/// A section was chosen in the list: the list closes and focus goes to the section (the link
/// that had it is hidden with the list).
fn close_menu_and_focus(panel: PanelId) {
    DOM.with(|d| {
        if let Some(dom) = d.borrow().as_ref() {
            open_menu(&dom.menu, &dom.list, false);
        }
    });
    if let Ok(section) = dom::element::<HtmlElement>(&panel.section_id()) {
        let _ = section.set_attribute("tabindex", "-1");
        let _ = section.focus();
    }
}

/// `[`, `]`, Alt+PageUp, Alt+PageDown (and in projector mode plain PageUp, PageDown) step along
/// the lesson; Escape closes the list or the phone's parameters, or else leaves the control that
/// has the focus (for its section, so that `]` and Tab go on from there); in projector mode Tab
/// stays within the current step. `[` and `]` are a text field's own characters; PageUp and
/// PageDown are a slider's, a menu's and a heatmap's own keys.
fn on_key(event: &KeyboardEvent, send: fn(Action)) {
    if event.default_prevented() || event.ctrl_key() || event.meta_key() {
        return;
    }
    let Some(root) = dom::document().ok().and_then(|d| d.document_element()) else {
        return;
    };
    if root.has_attribute("data-embed") {
        return;
    }
    let presenting = root.has_attribute("data-present");
    let key = event.key();
    if key == "Escape" {
        if !close_popups() {
            leave_control(event.target());
        }
        return;
    }
    if key == "Tab" {
        if presenting && keep_tab_in_step(event.shift_key()) {
            event.prevent_default();
        }
        return;
    }
    let go = match (key.as_str(), event.alt_key()) {
        ("]", _) => Go::Next,
        ("[", _) => Go::Previous,
        ("PageDown", alt) if alt || presenting => Go::Next,
        ("PageUp", alt) if alt || presenting => Go::Previous,
        _ => return,
    };
    let kept = if key.starts_with('P') {
        keeps_its_keys(event.target())
    } else {
        takes_text(event.target())
    };
    if kept {
        return;
    }
    event.prevent_default();
    // The step's section takes the focus once it is shown ([`show_section`]), so that Tab goes
    // on within it rather than from wherever the focus was.
    FOCUS_STEP.with(|f| f.set(true));
    send(Action::State(Msg::Go(go)));
}

/// Gives a section the focus without scrolling (the jump has placed it).
fn focus_section(section: &HtmlElement) {
    let _ = section.set_attribute("tabindex", "-1");
    let _ = section.focus();
}

/// Whether the element the key went to uses PageUp and PageDown itself: a field, a menu, a slider,
/// a heatmap read with the keyboard, editable text.
fn keeps_its_keys(target: Option<EventTarget>) -> bool {
    let Some(element) = target.and_then(|t| t.dyn_into::<Element>().ok()) else {
        return false;
    };
    let tag = element.tag_name().to_ascii_lowercase();
    matches!(tag.as_str(), "input" | "textarea" | "select" | "canvas")
        || element
            .closest("[contenteditable]:not([contenteditable=false]), [role=slider], [role=application], [role=grid], [role=spinbutton]")
            .ok()
            .flatten()
            .is_some()
}

/// Whether the element the key went to is a field that text is typed into.
fn takes_text(target: Option<EventTarget>) -> bool {
    let Some(element) = target.and_then(|t| t.dyn_into::<Element>().ok()) else {
        return false;
    };
    match element.tag_name().to_ascii_lowercase().as_str() {
        "textarea" => true,
        "input" => !matches!(
            element.get_attribute("type").as_deref(),
            Some("range" | "checkbox" | "radio" | "number" | "button" | "submit" | "color")
        ),
        _ => element
            .closest("[contenteditable]:not([contenteditable=false])")
            .ok()
            .flatten()
            .is_some(),
    }
}

/// Escape on a control (a field, a slider, a menu, a heatmap): the focus goes to its section.
fn leave_control(target: Option<EventTarget>) {
    let Some(element) = target.and_then(|t| t.dyn_into::<Element>().ok()) else {
        return;
    };
    if element.tag_name().eq_ignore_ascii_case("section") {
        return;
    }
    if let Some(section) = element
        .closest("section.panel")
        .ok()
        .flatten()
        .and_then(|s| s.dyn_into::<HtmlElement>().ok())
    {
        focus_section(&section);
    }
}

/// Projector mode: Tab from the step's last control goes to its first (Shift+Tab from the first
/// to the last), and from outside the step into it, so that the slide is never lost. Whether it
/// moved the focus itself.
fn keep_tab_in_step(backwards: bool) -> bool {
    let Some(section) = SHOWN
        .with(Cell::get)
        .and_then(|panel| dom::element::<HtmlElement>(&panel.section_id()).ok())
    else {
        return false;
    };
    let Ok(found) = section.query_selector_all(
        "a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), \
         textarea:not([disabled]), summary, [tabindex]:not([tabindex='-1'])",
    ) else {
        return false;
    };
    // Those shown (not in a closed disclosure, not hidden).
    let controls: Vec<HtmlElement> = (0..found.length())
        .filter_map(|i| found.item(i)?.dyn_into::<HtmlElement>().ok())
        .filter(|e| e.offset_parent().is_some())
        .collect();
    let (Some(first), Some(last)) = (controls.first(), controls.last()) else {
        return false;
    };
    let active = dom::document().ok().and_then(|d| d.active_element());
    let inside = active
        .as_ref()
        .is_some_and(|a| section.contains(Some(a.unchecked_ref::<web_sys::Node>())));
    let at = |e: &HtmlElement| {
        active
            .as_ref()
            .is_some_and(|a| a == e.unchecked_ref::<Element>())
    };
    let to = match (inside, backwards) {
        (false, false) => first,
        (false, true) => last,
        (true, false) if at(last) => first,
        (true, true)
            if at(first)
                || active
                    .as_ref()
                    .is_some_and(|a| a == section.unchecked_ref::<Element>()) =>
        {
            last
        }
        _ => return false,
    };
    to.focus().is_ok()
}

/// Escape: the list of sections closes (focus back on its button), and the phone's parameters.
/// Whether one of them was open.
fn close_popups() -> bool {
    DOM.with(|d| {
        let dom = d.borrow();
        let Some(dom) = dom.as_ref() else {
            return false;
        };
        let mut closed = false;
        if !dom.list.hidden() {
            open_menu(&dom.menu, &dom.list, false);
            let _ = dom.menu.focus();
            closed = true;
        }
        if dom.bar.class_list().contains("expanded") {
            open_controls(&dom.bar, &dom.controls_toggle, false);
            let _ = dom.controls_toggle.focus();
            closed = true;
        }
        closed
    })
}

/// After a scroll, in the next animation frame: the section now being read becomes the lesson's
/// section (the bar and the address bar's hash name it; nothing scrolls). Not in an embed.
fn follow_scrolling(send: fn(Action)) {
    if FOLLOW_PENDING.with(|p| p.replace(true)) {
        return;
    }
    let check = Closure::once_into_js(move || {
        FOLLOW_PENDING.with(|p| p.set(false));
        let embedded = dom::document()
            .ok()
            .and_then(|d| d.document_element())
            .is_some_and(|root| root.has_attribute("data-embed"));
        if embedded {
            return;
        }
        if let Some(read) = super::layout::section_being_read() {
            if read != SHOWN.with(Cell::get) {
                send(Action::State(Msg::Reading(read)));
            }
        }
    });
    if let Ok(window) = dom::window() {
        if window
            .request_animation_frame(check.unchecked_ref())
            .is_err()
        {
            FOLLOW_PENDING.with(|p| p.set(false));
        }
    }
}

/// The section the link opened the page at: the `#panel-<name>` that `index.html` took out of the
/// address before the page was parsed (kept in `data-section` on `<html>`), or the hash.
pub fn link_section_message() -> Option<Msg> {
    let kept = dom::document()
        .ok()
        .and_then(|d| d.document_element())
        .and_then(|root| {
            let section = root.get_attribute("data-section");
            let _ = root.remove_attribute("data-section");
            section
        });
    match kept {
        Some(section) => parse_hash(&format!("#{section}")).map(|panel| Msg::Go(Go::To(panel))),
        None => hash_message(),
    }
}

/// The move the address bar's hash asks for (`#panel-binary`), if it names a lesson section.
pub fn hash_message() -> Option<Msg> {
    let hash = dom::window().ok()?.location().hash().ok()?;
    parse_hash(&hash).map(|panel| Msg::Go(Go::To(panel)))
}

/// Shows which section of the lesson is current (`None`: none chosen yet).
pub fn show_section(shown: Option<PanelId>) {
    SHOWN.with(|s| s.set(shown));
    if FOCUS_STEP.with(|f| f.replace(false)) {
        if let Some(section) =
            shown.and_then(|panel| dom::element::<HtmlElement>(&panel.section_id()).ok())
        {
            focus_section(&section);
        }
    }
    let section = shown.and_then(PanelId::lesson_position);
    DOM.with(|d| {
        let dom = d.borrow();
        let Some(dom) = dom.as_ref() else { return };
        // The step's number beside the word "Lesson", its short name below (the list and the
        // button's title give the heading in full): never cut on a phone's bar.
        let (step, label, title) = match section.and_then(|at| LESSON.get(at).map(|s| (at, s))) {
            Some((at, stop)) => (
                format!("{}/{}", at + 1, LESSON.len()),
                stop.spec().short(),
                crate::message!(
                    "lesson-menu-title-at",
                    at = at + 1,
                    count = LESSON.len(),
                    title = stop.spec().title()
                ),
            ),
            None => (
                String::new(),
                crate::message!("lesson-sections", count = LESSON.len()),
                crate::message!("lesson-menu-title"),
            ),
        };
        for (element, text) in [(&dom.step, &step), (&dom.current, &label)] {
            if element.text_content().as_deref() != Some(text.as_str()) {
                dom::text(element, text);
            }
        }
        dom.menu.set_title(&title);
        LINKS.with(|links| {
            for (index, link) in links.borrow().iter().enumerate() {
                let _ = if Some(index) == section {
                    link.set_attribute("aria-current", "location")
                } else {
                    link.remove_attribute("aria-current")
                };
            }
        });
        let last = LESSON.len() - 1;
        for (button, end, word, shortcut, target) in [
            (
                &dom.previous,
                Some(0),
                "previous",
                "[",
                section.map(|s| s.saturating_sub(1)),
            ),
            (
                &dom.next,
                Some(last),
                "next",
                "]",
                Some(section.map_or(0, |s| (s + 1).min(last))),
            ),
        ] {
            let at_end = section.is_some() && section == end;
            let _ = button.set_attribute("aria-disabled", if at_end { "true" } else { "false" });
            let title = match target.and_then(|t| LESSON.get(t)).filter(|_| !at_end) {
                Some(stop) => crate::message!(
                    "lesson-button-to",
                    which = word,
                    title = stop.spec().title(),
                    shortcut = shortcut
                ),
                None => crate::message!("lesson-button", which = word, shortcut = shortcut),
            };
            button.set_title(&title);
        }
    });
}

/// The global parameters in a line, on the button that opens them on a phone.
pub fn show_summary(summary: &str) {
    DOM.with(|d| {
        if let Some(dom) = d.borrow().as_ref() {
            if dom.summary.text_content().as_deref() != Some(summary) {
                dom::text(&dom.summary, summary);
            }
        }
    });
}
