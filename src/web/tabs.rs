//! Tabs (`role="tablist"`, WAI-ARIA's tabs pattern): a click or Enter selects a tab; the arrow
//! keys, Home and End move to another and select it. The panes of one list share one area of the
//! page, as tall as the tallest (`www/panels.css`): an unselected pane is invisible
//! (`data-inactive`) but keeps its size, so that choosing a tab, or a pane's figure arriving,
//! never moves the page, and a pane's canvases keep the size they are drawn at.
//!
//! Which tab is open is not state: like an open menu, it is never written to the link.

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement, KeyboardEvent};

use super::dom::{self, listen};
use super::error::WebError;

/// Wires every tab list of the page.
pub fn install() -> Result<(), WebError> {
    let lists = dom::document()?.query_selector_all("[role=tablist]")?;
    for index in 0..lists.length() {
        let Some(list) = lists.item(index).and_then(|n| n.dyn_into::<Element>().ok()) else {
            continue;
        };
        let tabs = tabs_of(&list)?;
        for (at, tab) in tabs.iter().enumerate() {
            let list_for_click = list.clone();
            listen(tab, "click", move |_| {
                select(&list_for_click, at, false);
            })?;
            let list_for_keys = list.clone();
            listen(tab, "keydown", move |event| {
                let Some(key) = event.dyn_ref::<KeyboardEvent>() else {
                    return;
                };
                let count = tabs_of(&list_for_keys).map_or(0, |t| t.len());
                if count == 0 {
                    return;
                }
                let to = match key.key().as_str() {
                    "ArrowRight" | "ArrowDown" => (at + 1) % count,
                    "ArrowLeft" | "ArrowUp" => (at + count - 1) % count,
                    "Home" => 0,
                    "End" => count - 1,
                    _ => return,
                };
                key.prevent_default();
                select(&list_for_keys, to, true);
            })?;
        }
    }
    Ok(())
}

fn tabs_of(list: &Element) -> Result<Vec<HtmlElement>, WebError> {
    let found = list.query_selector_all("[role=tab]")?;
    Ok((0..found.length())
        .filter_map(|i| found.item(i).and_then(|n| n.dyn_into::<HtmlElement>().ok()))
        .collect())
}

/// Selects tab `at` of `list`: it alone is selected and in the Tab order, its pane alone shown.
fn select(list: &Element, at: usize, focus: bool) {
    let Ok(tabs) = tabs_of(list) else { return };
    for (index, tab) in tabs.iter().enumerate() {
        let chosen = index == at;
        let _ = tab.set_attribute("aria-selected", if chosen { "true" } else { "false" });
        let _ = if chosen {
            tab.remove_attribute("tabindex")
        } else {
            tab.set_attribute("tabindex", "-1")
        };
        let pane = tab
            .get_attribute("aria-controls")
            .and_then(|id| dom::element::<Element>(&id).ok());
        if let Some(pane) = pane {
            let _ = if chosen {
                pane.remove_attribute("data-inactive")
            } else {
                pane.set_attribute("data-inactive", "")
            };
        }
        if chosen && focus {
            let _ = tab.focus();
        }
    }
}
