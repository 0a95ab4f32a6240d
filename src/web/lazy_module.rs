//! The page's side of a panel built into a wasm module of its own (the training panel, the
//! pretrained panel): the module is imported the first time the panel needs it, with the lazily
//! loaded panels' catalog when the page is translated, and the panel's class is made with the
//! page's `host` object. One loader for both, so that the page carries its code once.

use js_sys::{Function, Object, Promise};
use wasm_bindgen::{JsCast, JsValue};

use super::dom;
use super::error::WebError;
use super::language;

/// Imports `<js>` (with its `<wasm>`, both beside the page) and resolves to `new <class>(host)`.
/// On a translated page the module's catalog (`messages-training`'s file) is fetched beside it
/// and handed over as `host.catalog`; one that cannot be fetched fails the load as the module
/// would (they come from the same place).
pub fn import(js: &str, wasm: &str, class: &str, host: &Object) -> Result<Promise, WebError> {
    let base = dom::document()?.base_uri()?.unwrap_or_default();
    let url = |name: &str| web_sys::Url::new_with_base(name, &base).map(|u| u.href());
    let catalog = match language::training_catalog_address() {
        Some(address) => JsValue::from(url(&address)?),
        None => JsValue::NULL,
    };
    // A dynamic import: wasm-bindgen has no way to name a module that is not known when the page
    // is built.
    let import = Function::new_with_args(
        "js, wasm, catalog, host, name",
        "const text = catalog === null ? null : fetch(catalog).then((r) => { \
         if (!r.ok) throw new Error(`${catalog}: HTTP ${r.status}`); return r.text(); }); \
         const module = import(js).then(async (m) => { \
         await m.default({ module_or_path: wasm }); return m; }); \
         return Promise.all([module, text]).then(([m, t]) => { \
         host.catalog = t; return new m[name](host); })",
    );
    let arguments = js_sys::Array::of5(
        &url(js)?.into(),
        &url(wasm)?.into(),
        &catalog,
        host,
        &class.into(),
    );
    import
        .apply(&JsValue::NULL, &arguments)?
        .dyn_into()
        .map_err(|_| WebError::Js(format!("the loader of {js} returned no promise")))
}
