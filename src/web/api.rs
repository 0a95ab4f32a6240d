//! `window.peLab`, the JavaScript API for course pages and tests: `ready`, `state`, `set({...})`,
//! `backend`, `lastFrameMs`, `stats`. The page's inline script creates the object and its `ready`
//! promise before the wasm loads, so a course page can `await peLab.ready` at any time.

use js_sys::{Array, Function, Object, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::error::WebError;

/// The `window.peLab` object (created here when the page did not create it).
pub fn api_object() -> Result<Object, WebError> {
    let window = super::dom::window()?;
    let existing = Reflect::get(&window, &"peLab".into())?;
    if let Ok(object) = existing.dyn_into::<Object>() {
        return Ok(object);
    }
    let object = Object::new();
    Reflect::set(&object, &"ready".into(), &Promise::resolve(&object))?;
    Reflect::set(&window, &"peLab".into(), &object)?;
    Ok(object)
}

/// Defines a read-only property whose value is computed on each read.
pub fn define_getter(
    object: &Object,
    name: &str,
    getter: impl Fn() -> JsValue + 'static,
) -> Result<(), WebError> {
    let closure = Closure::<dyn Fn() -> JsValue>::new(getter);
    let descriptor = Object::new();
    Reflect::set(&descriptor, &"get".into(), closure.as_ref())?;
    Reflect::set(&descriptor, &"configurable".into(), &JsValue::TRUE)?;
    Reflect::set(&descriptor, &"enumerable".into(), &JsValue::TRUE)?;
    Object::define_property(object, &name.into(), &descriptor);
    // The API lives as long as the page.
    closure.forget();
    Ok(())
}

pub fn define_method(
    object: &Object,
    name: &str,
    method: impl Fn(JsValue) -> Result<JsValue, JsValue> + 'static,
) -> Result<(), WebError> {
    let closure = Closure::<dyn Fn(JsValue) -> Result<JsValue, JsValue>>::new(method);
    Reflect::set(object, &name.into(), closure.as_ref())?;
    closure.forget();
    Ok(())
}

/// Settles the `ready` promise made by the page's inline script (`_resolveReady` / `_rejectReady`).
pub fn settle_ready(object: &Object, result: Result<(), String>) -> Result<(), WebError> {
    let (name, value) = match result {
        Ok(()) => ("_resolveReady", JsValue::from(object)),
        Err(message) => ("_rejectReady", js_sys::Error::new(&message).into()),
    };
    if let Ok(settle) = Reflect::get(object, &name.into())?.dyn_into::<Function>() {
        settle.call1(&JsValue::NULL, &value)?;
    }
    Ok(())
}

/// The entries of a plain object given to `peLab.set`, each value as the text the parameter parser
/// reads (arrays are joined with commas, so `columns: [6, 7]` works like `cols=6,7`).
pub fn entries_as_text(value: &JsValue) -> Result<Vec<(String, String)>, JsValue> {
    let object = value
        .dyn_ref::<Object>()
        .filter(|_| !value.is_null() && !Array::is_array(value))
        .ok_or_else(|| JsError::new("peLab.set expects an object such as {d: 33, n: 60}"))?;
    let mut entries = Vec::new();
    for entry in Object::entries(object).iter() {
        let pair = Array::from(&entry);
        let key = pair.get(0).as_string().unwrap_or_default();
        let raw = pair.get(1);
        let text = if Array::is_array(&raw) {
            Array::from(&raw).join(",").into()
        } else if let Some(number) = raw.as_f64() {
            number.to_string()
        } else {
            raw.as_string().unwrap_or_default()
        };
        entries.push((key, text));
    }
    Ok(entries)
}

/// Like [`define_method`], for methods of two arguments (`peLab.on(event, fn)`).
pub fn define_method2(
    object: &Object,
    name: &str,
    method: impl Fn(JsValue, JsValue) -> Result<JsValue, JsValue> + 'static,
) -> Result<(), WebError> {
    let closure = Closure::<dyn Fn(JsValue, JsValue) -> Result<JsValue, JsValue>>::new(method);
    Reflect::set(object, &name.into(), closure.as_ref())?;
    closure.forget();
    Ok(())
}
