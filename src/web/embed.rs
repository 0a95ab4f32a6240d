//! Embedding in course pages: `?embed=<panel>` shows one panel (its section id without `panel-`)
//! with only its own controls and the global controls named in `&controls=` (`none`, or e.g.
//! `d,n`), and tells the parent page its height by `postMessage` so that the `<iframe>` can fit it:
//! `{ type: "pe-lab:height", panel, height }`.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, ResizeObserver};

use super::controls::{Controls, GLOBAL_SLIDERS};
use super::dom;
use super::error::WebError;
use super::panel::PANELS;
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
    let Some(spec) = PANELS.iter().find(|spec| spec.name == requested) else {
        notices.push(format!(
            "embed = '{}' is not a panel; the panels are: {}.",
            quote(requested),
            panel_names().join(", ")
        ));
        return Ok(None);
    };
    let document = dom::document()?;
    if let Some(root) = document.document_element() {
        root.set_attribute("data-embed", spec.name)?;
    }
    // The embed's level-one heading (hidden on screen) names the panel.
    dom::text(
        &dom::element::<web_sys::HtmlElement>("embed-title")?,
        &format!("pe-lab: {}", spec.title),
    );
    for other in PANELS.iter().filter(|other| other.name != spec.name) {
        dom::element::<Element>(&other.section_id())?.set_attribute("data-embed-hidden", "")?;
    }
    let shown: Vec<&str> = match controls.map(str::trim) {
        None => GLOBAL_SLIDERS.to_vec(),
        Some("" | "none") => Vec::new(),
        Some(list) => {
            let mut shown = Vec::new();
            for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                match GLOBAL_SLIDERS.iter().find(|key| **key == name) {
                    Some(key) => shown.push(*key),
                    None => notices.push(format!(
                        "controls: '{}' is not one of {}.",
                        quote(name),
                        GLOBAL_SLIDERS.join(", ")
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
        let _ = js_sys::Reflect::set(&message, &"height".into(), &root.scroll_height().into());
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
