//! The model's files, fetched beside the page (`minilm/…`, written by
//! scripts/fetch-minilm.sh's page assets and copied into the build), with their bytes counted as
//! they arrive, so that the panel can say how far the load is.

use std::cell::Cell;
use std::rc::Rc;

use js_sys::{Function, Promise, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use crate::web::dom;
use crate::web::error::WebError;

/// Where the model's files are, relative to the page.
pub const ASSETS_DIR: &str = "minilm/";

/// The address of one of the model's files.
pub fn address(name: &str) -> Result<String, WebError> {
    let base = dom::document()?.base_uri()?.unwrap_or_default();
    Ok(web_sys::Url::new_with_base(&format!("{ASSETS_DIR}{name}"), &base)?.href())
}

/// Fetches one file whole, adding each piece's length to `counted` as it arrives and calling
/// `arrived` after each piece. A streamed body is read piece by piece (web-sys's stream reader
/// would need five more of its features for the same loop; this is the loop as the Streams
/// standard writes it).
pub async fn fetch_counted(
    name: &str,
    counted: Rc<Cell<f64>>,
    arrived: Rc<dyn Fn()>,
) -> Result<Vec<u8>, WebError> {
    let url = address(name)?;
    let on_piece = Closure::<dyn Fn(f64)>::new(move |length: f64| {
        counted.set(counted.get() + length);
        arrived();
    });
    let read = Function::new_with_args(
        "url, piece",
        "return fetch(url).then(async (r) => { \
         if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`); \
         const reader = r.body.getReader(); const parts = []; let total = 0; \
         for (;;) { const { done, value } = await reader.read(); if (done) break; \
         parts.push(value); total += value.length; piece(value.length); } \
         const all = new Uint8Array(total); let at = 0; \
         for (const part of parts) { all.set(part, at); at += part.length; } return all; })",
    );
    let promise: Promise = read
        .call2(&JsValue::NULL, &url.into(), on_piece.as_ref())?
        .dyn_into()
        .map_err(|_| WebError::Js("fetch returned no promise".into()))?;
    let bytes = JsFuture::from(promise).await?;
    drop(on_piece);
    Ok(Uint8Array::new(&bytes).to_vec())
}
