//! The page's side of a panel built into a wasm module of its own (the training panel, the
//! pretrained panel): the module is imported the first time the panel needs it, with the lazily
//! loaded panels' catalog when the page is translated, and the panel's class is made with the
//! page's `host` object. One loader for both, so that the page carries its code once.

use js_sys::{Function, Object, Promise, Reflect};
use wasm_bindgen::prelude::Closure;
use wasm_bindgen::{JsCast, JsValue};

use super::action::{Action, PanelEvent};
use crate::model::panels::PanelId;

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

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    /// What every panel module's class answers besides its own `render`.
    pub type PanelModule;
    #[wasm_bindgen(method)]
    pub fn stats(this: &PanelModule) -> JsValue;
    /// Changes whenever something arrived (bytes, a run): the panel's inputs carry it.
    #[wasm_bindgen(method)]
    pub fn version(this: &PanelModule) -> f64;
    /// Whether the numbers asked for are still to come (`peLab.whenDrawn()` waits).
    #[wasm_bindgen(method)]
    pub fn busy(this: &PanelModule) -> bool;
}

thread_local! {
    /// Modules (or why they could not be loaded) from their arrival until their panel takes them.
    static ARRIVED: std::cell::RefCell<Vec<(PanelId, Result<PanelModule, String>)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// A panel's module (the pretrained panel's, the learned panel's trained table), from the panel's
/// first render on screen: one loader for them, so that the page carries its code once.
pub enum LazyModule {
    NotLoaded,
    Loading,
    Ready(PanelModule),
    Failed(String),
}

impl LazyModule {
    /// Starts importing `class` of `js`/`wasm` for `panel` (once): the module's `host.wake()`
    /// and its arrival send `PanelEvent::Module` to the panel, which takes it with [`Self::arrive`].
    pub fn start(
        &mut self,
        panel: PanelId,
        (js, wasm, class): (&'static str, &str, &str),
        send: fn(Action),
    ) {
        if !matches!(self, LazyModule::NotLoaded) {
            return;
        }
        *self = LazyModule::Loading;
        let event = move || Action::Panel {
            panel,
            event: PanelEvent::Module,
        };
        let host = Object::new();
        let wake = Closure::<dyn Fn()>::new(move || send(event()));
        let loading = Reflect::set(&host, &"wake".into(), wake.as_ref())
            .map_err(WebError::from)
            .and_then(|_| import(js, wasm, class, &host));
        // The module lives as long as the page.
        wake.forget();
        match loading {
            Ok(promise) => wasm_bindgen_futures::spawn_local(async move {
                let arrived = wasm_bindgen_futures::JsFuture::from(promise)
                    .await
                    .map(JsCast::unchecked_into::<PanelModule>)
                    .map_err(|e| format!("{js}: {}", WebError::from(e)));
                ARRIVED.with(|slot| slot.borrow_mut().push((panel, arrived)));
                send(event());
            }),
            Err(error) => *self = LazyModule::Failed(error.to_string()),
        }
    }

    /// Takes `panel`'s module if it has arrived.
    pub fn arrive(&mut self, panel: PanelId) {
        let arrived = ARRIVED.with(|slot| {
            let mut slot = slot.borrow_mut();
            let index = slot.iter().position(|(p, _)| *p == panel)?;
            Some(slot.swap_remove(index).1)
        });
        if let Some(arrived) = arrived {
            *self = match arrived {
                Ok(module) => LazyModule::Ready(module),
                Err(message) => LazyModule::Failed(message),
            };
        }
    }

    /// Where the module is, for the panel's inputs: the stage and the module's version.
    pub fn key(&self) -> (u32, f64) {
        match self {
            LazyModule::NotLoaded => (0, 0.0),
            LazyModule::Loading => (1, 0.0),
            LazyModule::Ready(module) => (2, module.version()),
            LazyModule::Failed(_) => (3, 0.0),
        }
    }

    pub fn busy(&self) -> bool {
        match self {
            LazyModule::Loading => true,
            LazyModule::Ready(module) => module.busy(),
            _ => false,
        }
    }

    /// `idle`, `loading`, `ready` or `failed`, for the panel's stats before the module's own.
    fn status(&self) -> &'static str {
        match self {
            LazyModule::NotLoaded => "idle",
            LazyModule::Loading => "loading",
            LazyModule::Ready(_) => "ready",
            LazyModule::Failed(_) => "failed",
        }
    }

    /// The module's stats once it is in; before that, `known` (what the page knows without it)
    /// with the `status` and the `error` of a module that could not be loaded.
    pub fn stats(&self, known: &[(&str, JsValue)]) -> JsValue {
        if let LazyModule::Ready(module) = self {
            return module.stats();
        }
        let stats = Object::new();
        let error = match self {
            LazyModule::Failed(message) => JsValue::from(message.as_str()),
            _ => JsValue::UNDEFINED,
        };
        for (key, value) in known
            .iter()
            .cloned()
            .chain([("status", self.status().into()), ("error", error)])
        {
            if !value.is_undefined() {
                let _ = Reflect::set(&stats, &key.into(), &value);
            }
        }
        stats.into()
    }
}
