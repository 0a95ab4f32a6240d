//! Small typed helpers over web-sys for the elements of `index.html`.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, Document, HtmlCanvasElement, HtmlElement, Window};

use super::error::WebError;
use crate::model::unbroken::number_runs;

pub fn window() -> Result<Window, WebError> {
    web_sys::window().ok_or_else(|| WebError::Js("no global window".into()))
}

pub fn document() -> Result<Document, WebError> {
    window()?
        .document()
        .ok_or_else(|| WebError::Js("no document".into()))
}

/// The element with this id, as the type `T` the page promises.
pub fn element<T: JsCast>(id: &str) -> Result<T, WebError> {
    document()?
        .get_element_by_id(id)
        .ok_or_else(|| WebError::MissingElement(id.to_string()))?
        .dyn_into::<T>()
        .map_err(|_| WebError::WrongElement {
            id: id.to_string(),
            expected: std::any::type_name::<T>()
                .rsplit("::")
                .next()
                .unwrap_or("element"),
        })
}

pub fn set_hidden(id: &str, hidden: bool) -> Result<(), WebError> {
    element::<HtmlElement>(id)?.set_hidden(hidden);
    Ok(())
}

pub fn context_2d(canvas: &HtmlCanvasElement) -> Result<CanvasRenderingContext2d, WebError> {
    canvas
        .get_context("2d")?
        .and_then(|c| c.dyn_into::<CanvasRenderingContext2d>().ok())
        .ok_or_else(|| WebError::NoContext(canvas.id()))
}

/// A canvas that is not in the document (for cell images scaled onto a panel).
pub fn new_canvas() -> Result<HtmlCanvasElement, WebError> {
    document()?
        .create_element("canvas")?
        .dyn_into()
        .map_err(|_| WebError::Js("could not create a canvas".into()))
}

pub fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or(0.0)
}

/// Sets an element's text. Numbers with an exponent (1.2e-7) go in `span.unbroken` (no line
/// break inside, see www/style.css): a browser may otherwise break after the exponent's hyphen.
/// The element's textContent is the text either way.
pub fn text(element: &HtmlElement, text: &str) {
    let runs = number_runs(text);
    if runs.iter().all(|(_, whole)| !whole) {
        element.set_text_content(Some(text));
        return;
    }
    element.set_text_content(None);
    for (run, whole) in runs {
        // Creating a span fails only without a document; the run is then written plainly.
        let span = if whole {
            document().ok().and_then(|d| d.create_element("span").ok())
        } else {
            None
        };
        let appended = match span {
            Some(span) => {
                span.set_class_name("unbroken");
                span.set_text_content(Some(run));
                element.append_with_node_1(&span)
            }
            None => element.append_with_str_1(run),
        };
        if appended.is_err() {
            element.set_text_content(Some(text));
            return;
        }
    }
}

/// A struct of typed element handles built once from a table of `field: Type = "id"` rows. The
/// table is the only place the ids are written.
/// `mount()` fails with one error naming the first missing (or mistyped) element.
#[macro_export]
macro_rules! element_table {
    ($(#[$meta:meta])* $vis:vis struct $name:ident { $($field:ident : $ty:ty = $id:literal),* $(,)? }) => {
        $(#[$meta])*
        $vis struct $name { $(pub $field: $ty),* }
        impl $name {
            /// Finds every element of the table.
            pub fn mount() -> Result<Self, $crate::web::error::WebError> {
                Ok($name { $($field: $crate::web::dom::element::<$ty>($id)?),* })
            }
        }
    };
}

/// Calls `handler` on every `event` of `target`, for as long as the page lives.
pub fn listen(
    target: &web_sys::EventTarget,
    event: &str,
    handler: impl FnMut(web_sys::Event) + 'static,
) -> Result<(), WebError> {
    let closure = Closure::<dyn FnMut(web_sys::Event)>::new(handler);
    target.add_event_listener_with_callback(event, closure.as_ref().unchecked_ref())?;
    closure.forget();
    Ok(())
}
