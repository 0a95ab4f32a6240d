//! Small typed helpers over web-sys for the elements of `index.html`.

use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, Document, HtmlCanvasElement, HtmlElement, Window};

use super::error::WebError;

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

pub fn set_text(id: &str, text: &str) -> Result<(), WebError> {
    element::<HtmlElement>(id)?.set_text_content(Some(text));
    Ok(())
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

pub fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or(0.0)
}
