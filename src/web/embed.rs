//! Embedding in course pages: `?embed=<panel>` shows one panel (its section id without `panel-`)
//! with only its own controls and the global controls named in `&controls=` (`none`, or e.g.
//! `d,n`), and tells the parent page its height by `postMessage` so that the `<iframe>` can fit it:
//! `{ type: "pe-lab:height", panel, height }`.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, ResizeObserver};

use super::dom;
use super::error::WebError;

/// The global controls, by the key of their slider (`<key>-range`).
pub const GLOBAL_CONTROLS: [&str; 4] = ["d", "n", "base", "delta"];

/// The names `?embed=` accepts: every `section.panel` of the page, without its `panel-` prefix.
pub fn panel_names() -> Result<Vec<String>, WebError> {
    let sections = dom::document()?.query_selector_all("section.panel")?;
    Ok((0..sections.length())
        .filter_map(|k| sections.item(k)?.dyn_into::<Element>().ok())
        .filter_map(|e| e.id().strip_prefix("panel-").map(str::to_string))
        .collect())
}

/// Applies `embed` and `controls` (raw query values) to the document and returns notices for
/// values that name no panel or control. Returns the embedded panel's name, if any.
pub fn apply(
    embed: Option<&str>,
    controls: Option<&str>,
    notices: &mut Vec<String>,
) -> Result<Option<String>, WebError> {
    let Some(requested) = embed.map(str::trim).filter(|e| !e.is_empty()) else {
        return Ok(None);
    };
    let names = panel_names()?;
    let Some(panel) = names.iter().find(|n| n.as_str() == requested).cloned() else {
        notices.push(format!(
            "embed = '{}' is not a panel; the panels are: {}.",
            requested.chars().take(24).collect::<String>(),
            names.join(", ")
        ));
        return Ok(None);
    };
    let document = dom::document()?;
    if let Some(root) = document.document_element() {
        root.set_attribute("data-embed", &panel)?;
    }
    let sections = document.query_selector_all("section.panel")?;
    for k in 0..sections.length() {
        if let Some(section) = sections.item(k).and_then(|n| n.dyn_into::<Element>().ok()) {
            if section.id() != format!("panel-{panel}") {
                section.set_attribute("data-embed-hidden", "")?;
            }
        }
    }
    let shown: Vec<String> = match controls.map(str::trim) {
        None => GLOBAL_CONTROLS.iter().map(|c| c.to_string()).collect(),
        Some("" | "none") => Vec::new(),
        Some(list) => {
            let mut shown = Vec::new();
            for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                if GLOBAL_CONTROLS.contains(&name) {
                    shown.push(name.to_string());
                } else {
                    notices.push(format!(
                        "controls: '{}' is not one of {}.",
                        name.chars().take(24).collect::<String>(),
                        GLOBAL_CONTROLS.join(", ")
                    ));
                }
            }
            shown
        }
    };
    for key in GLOBAL_CONTROLS {
        if let Some(control) = document
            .get_element_by_id(&format!("{key}-range"))
            .and_then(|range| range.closest(".control").ok().flatten())
        {
            if !shown.iter().any(|s| s == key) {
                control.set_attribute("data-embed-hidden", "")?;
            }
        }
    }
    if shown.is_empty() {
        if let Some(bar) = document.query_selector(".controls")? {
            bar.set_attribute("data-embed-hidden", "")?;
        }
    }
    report_height(&panel)?;
    Ok(Some(panel))
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
