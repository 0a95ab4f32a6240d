//! Embedding in course pages: `?embed=<panel>` shows one panel (its section id without `panel-`)
//! with only its own controls and the global controls named in `&controls=` (`none`, or e.g.
//! `d,n`), and tells the parent page its height by `postMessage` so that the `<iframe>` can fit it:
//! `{ type: "pe-lab:height", panel, height }`.
//!
//! An embedded panel is compact: its title, a one-line caption (the panel table's
//! [`PanelSpec::caption`](crate::model::panels::PanelSpec)), its controls and its figure; its prose
//! is folded behind an "About this figure" button. The script in `index.html`'s `<head>` sets
//! `data-embed` before the first paint, so that `www/embed.css` hides the rest of the page and
//! the prose from the start; this module checks the name, undoes that for a name that is no panel,
//! and adds the caption and the button.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement, ResizeObserver};

use super::controls::{Controls, GLOBAL_SLIDERS};
use super::dom;
use super::error::WebError;
use super::panel::{PanelSpec, PANELS};
use crate::model::query::quote;

/// The names `?embed=` accepts: the panels of the panel table.
pub fn panel_names() -> Vec<&'static str> {
    PANELS.iter().map(|spec| spec.name).collect()
}

/// Applies `embed` and `controls` (raw query values) to the document and adds notices for values
/// that name no panel or control. Returns the embedded panel's name, if any.
pub fn apply(
    embed: Option<&str>,
    controls: Option<&str>,
    handles: &Controls,
    notices: &mut Vec<String>,
) -> Result<Option<&'static str>, WebError> {
    let Some(requested) = embed.map(str::trim).filter(|e| !e.is_empty()) else {
        return Ok(None);
    };
    let document = dom::document()?;
    let Some(spec) = PANELS.iter().find(|spec| spec.name == requested) else {
        // The head script marked the page as an embed before the name could be checked: show the
        // whole page, with the notice.
        if let Some(root) = document.document_element() {
            root.remove_attribute("data-embed")?;
        }
        notices.push(crate::message!(
            "notice-embed-unknown",
            value = quote(requested),
            panels = crate::model::messages::join_names(&panel_names()),
        ));
        return Ok(None);
    };
    if let Some(root) = document.document_element() {
        root.set_attribute("data-embed", spec.name)?;
    }
    fold_prose(spec)?;
    // The embed's level-one heading (hidden on screen) names the panel.
    dom::text(
        &dom::element::<web_sys::HtmlElement>("embed-title")?,
        &format!("pe-lab: {}", spec.title()),
    );
    for other in PANELS.iter().filter(|other| other.name != spec.name) {
        dom::element::<Element>(&other.section_id())?.set_attribute("data-embed-hidden", "")?;
    }
    let shown: Vec<&str> = match controls.map(str::trim) {
        // The sliders that change this panel, and no other.
        None => spec.globals.to_vec(),
        Some("" | "none") => Vec::new(),
        Some(list) => {
            let mut shown = Vec::new();
            for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                match GLOBAL_SLIDERS.iter().find(|key| **key == name) {
                    Some(key) => shown.push(*key),
                    None => notices.push(crate::message!(
                        "notice-controls-unknown",
                        value = quote(name),
                        choices = crate::model::messages::join_names(&GLOBAL_SLIDERS),
                    )),
                }
            }
            shown
        }
    };
    for key in GLOBAL_SLIDERS {
        if let Some(block) = handles.global_block(key) {
            if !shown.contains(&key) {
                block.set_attribute("data-embed-hidden", "")?;
            }
        }
    }
    if shown.is_empty() {
        if let Some(bar) = document.query_selector(".controls")? {
            bar.set_attribute("data-embed-hidden", "")?;
        }
    }
    report_height(spec.name)?;
    Ok(Some(spec.name))
}

/// Puts the panel's caption under its title and folds its prose (every child of its
/// `.panel-text`) into a region that its "About this figure" button shows and hides.
fn fold_prose(spec: &PanelSpec) -> Result<(), WebError> {
    let document = dom::document()?;
    let section = dom::element::<Element>(&spec.section_id())?;
    let caption = document.create_element("p")?;
    caption.set_class_name("embed-caption");
    caption.set_id(&format!("{}-caption", spec.name));
    caption.set_text_content(Some(&spec.caption()));
    let Some(text) = section.query_selector(".panel-text")? else {
        // A panel without prose: the caption alone, under the title.
        match section.query_selector("h2")? {
            Some(heading) => heading.after_with_node_1(&caption)?,
            None => section.prepend_with_node_1(&caption)?,
        }
        return Ok(());
    };
    let about = document.create_element("div")?;
    about.set_class_name("embed-about");
    let about_id = format!("{}-about", spec.name);
    about.set_id(&about_id);
    about.set_attribute("hidden", "")?;
    while let Some(child) = text.first_child() {
        about.append_child(&child)?;
    }
    // "About this figure" is the embed's one disclosure: what the page folds behind "More" is
    // open inside it.
    let folded = about.query_selector_all("details.more")?;
    for k in 0..folded.length() {
        if let Some(details) = folded.item(k).and_then(|n| n.dyn_into::<Element>().ok()) {
            details.set_attribute("open", "")?;
        }
    }
    let button: HtmlElement = document.create_element("button")?.dyn_into().map_err(|_| {
        WebError::Js("could not create the button that shows the panel's text".into())
    })?;
    button.set_class_name("embed-more");
    button.set_attribute("type", "button")?;
    button.set_attribute("aria-expanded", "false")?;
    button.set_attribute("aria-controls", &about_id)?;
    // The arrow only shows the state; the button's name stays "About this figure".
    button.set_text_content(Some(&format!("{} ", crate::message!("button-embed-about"))));
    let arrow = document.create_element("span")?;
    arrow.set_attribute("aria-hidden", "true")?;
    arrow.set_text_content(Some("▸"));
    button.append_child(&arrow)?;
    text.append_with_node_3(&caption, &button, &about)?;
    let toggle = button.clone();
    dom::listen(&button, "click", move |_| {
        let open = about.has_attribute("hidden");
        let _ = if open {
            about.remove_attribute("hidden")
        } else {
            about.set_attribute("hidden", "")
        };
        let _ = toggle.set_attribute("aria-expanded", if open { "true" } else { "false" });
        if let Ok(Some(arrow)) = toggle.query_selector("span") {
            arrow.set_text_content(Some(if open { "▾" } else { "▸" }));
        }
    })?;
    Ok(())
}

/// Posts the document's height to the parent page now and whenever it changes.
fn report_height(panel: &str) -> Result<(), WebError> {
    let window = dom::window()?;
    let parent = match window.parent()? {
        Some(parent) if !js_sys::Object::is(&parent, &window) => parent,
        _ => return Ok(()), // not in a frame
    };
    let panel = panel.to_string();
    let post = move || {
        let Ok(document) = dom::document() else {
            return;
        };
        let Some(root) = document.document_element() else {
            return;
        };
        let message = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&message, &"type".into(), &"pe-lab:height".into());
        let _ = js_sys::Reflect::set(&message, &"panel".into(), &panel.as_str().into());
        // The page's own height, not its scroll height: that is never less than the frame's, so
        // a frame set taller than the page would never shrink to fit it.
        let height = root.get_bounding_client_rect().height().ceil();
        let _ = js_sys::Reflect::set(&message, &"height".into(), &height.into());
        // Any origin may embed the page; the message carries nothing but a height.
        let _ = parent.post_message(&message, "*");
    };
    post();
    let observer_callback = Closure::<dyn FnMut(js_sys::Array)>::new(move |_entries| post());
    let observer = ResizeObserver::new(observer_callback.as_ref().unchecked_ref())?;
    if let Some(body) = dom::document()?.body() {
        observer.observe(&body);
    }
    // Observer and callback live as long as the page.
    observer_callback.forget();
    std::mem::forget(observer);
    Ok(())
}
