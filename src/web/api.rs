//! `window.peLab`, the JavaScript API for course pages and tests (its contract is in docs/js-api.md):
//! `ready`, `state`, `lesson`, `stats`, `backend`, `lastFrameMs`, `set({...})`, `whenDrawn()`,
//! `on('change', fn)`, `off('change', fn)`, `bench({n, d, runs})`, `train(options?)`,
//! `stopTraining()`. The page's inline script
//! creates the object and its `ready` promise before the wasm loads, so a course page can
//! `await peLab.ready` at any time.
//!
//! `set` applies its changes at once through the one message path and returns the new state; the
//! drawing follows in the next animation frame (`whenDrawn()` resolves after it). Every getter
//! works inside a `change` listener, and a listener may call `set`.

use js_sys::{Array, Function, Object, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::action::Action;
use super::error::WebError;
use super::scheduler::{self, with_app};
use crate::model::bench::BenchPlan;
use crate::model::state::Msg;

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
fn define_getter(
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

fn define_method(
    object: &Object,
    name: &str,
    method: impl Fn(JsValue, JsValue) -> Result<JsValue, JsValue> + 'static,
) -> Result<(), WebError> {
    let closure = Closure::<dyn Fn(JsValue, JsValue) -> Result<JsValue, JsValue>>::new(method);
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

/// A value given to `peLab.set` as the text a link would carry: numbers as numbers, `true` and
/// `false` as 1 and 0, arrays joined with commas (`columns: [6, 7]` is `cols=6,7`). Anything else
/// (an object, a symbol, a function) becomes text the parser refuses with a notice.
fn value_as_text(raw: &JsValue) -> String {
    if let Some(text) = raw.as_string() {
        text
    } else if let Some(number) = raw.as_f64() {
        number.to_string()
    } else if let Some(flag) = raw.as_bool() {
        (if flag { "1" } else { "0" }).to_string()
    } else if Array::is_array(raw) {
        Array::from(raw)
            .iter()
            .take(64)
            .map(|item| value_as_text(&item))
            .collect::<Vec<_>>()
            .join(",")
    } else if raw.is_null() || raw.is_undefined() {
        String::new()
    } else {
        crate::message!("label-api-not-a-number-or-text")
    }
}

/// The entries of a plain object given to `peLab.set`. Throws a `TypeError` for anything that is
/// not an object; never throws for an object (its odd keys and values become notices).
fn entries_as_text(value: &JsValue) -> Result<Vec<(String, String)>, JsValue> {
    // `is_object`, not `instanceof Object`: an object without a prototype
    // (`Object.create(null)`) is an object too.
    if !value.is_object() || Array::is_array(value) || value.is_function() {
        return Err(JsValue::from(js_sys::TypeError::new(
            "peLab.set expects an object such as {d: 33, n: 60}",
        )));
    }
    let object: &Object = value.unchecked_ref();
    let mut entries = Vec::new();
    // Reflect calls catch what a Proxy or a throwing getter would throw.
    let Ok(keys) = Reflect::own_keys(object) else {
        return Ok(entries);
    };
    for key in keys.iter().take(256) {
        let Some(name) = key.as_string() else {
            continue; // a symbol
        };
        let raw = Reflect::get(object, &key).unwrap_or(JsValue::UNDEFINED);
        entries.push((name, value_as_text(&raw)));
    }
    Ok(entries)
}

fn change_listener(event: &JsValue, listener: JsValue) -> Result<Function, JsValue> {
    if event.as_string().as_deref() != Some("change") {
        return Err(JsError::new("peLab.on: the only event is 'change'").into());
    }
    listener
        .dyn_into::<Function>()
        .map_err(|_| JsError::new("peLab.on('change', fn) needs a function").into())
}

/// Installs the getters and methods on `window.peLab`.
pub fn install() -> Result<(), WebError> {
    let object = api_object()?;
    install_getters(&object)?;
    install_state_methods(&object)?;
    install_bench(&object)?;
    install_training(&object)?;
    // `peLab.ready` is a getter of the page's inline script: reading it asks for every panel's
    // numbers (before the wasm started, it leaves `_completeWanted` for `mount` to find).
    define_method(&object, "_wantComplete", |_, _| {
        scheduler::send(Action::WantComplete);
        Ok(JsValue::UNDEFINED)
    })?;
    if Reflect::get(&object, &"_completeWanted".into())?.is_truthy() {
        scheduler::send(Action::WantComplete);
    }
    // For tests of the fallback: loses the WebGPU device the way a driver reset would.
    define_method(&object, "simulateDeviceLoss", |_, _| {
        let destroyed = with_app(|app| app.backend().simulate_device_loss());
        Ok(JsValue::from_bool(destroyed.unwrap_or(false)))
    })?;
    Ok(())
}

/// `state`, `stats`, `lesson`, `lastFrameMs`, `backend`: computed on each read.
fn install_getters(object: &Object) -> Result<(), WebError> {
    define_getter(object, "state", || {
        with_app(|app| app.state_view()).unwrap_or(JsValue::NULL)
    })?;
    define_getter(object, "stats", || {
        with_app(|app| {
            app.flush_deferred();
            app.stats_value()
        })
        .unwrap_or(JsValue::NULL)
    })?;
    define_getter(object, "lesson", || {
        with_app(|app| {
            let state = app.state();
            serde_wasm_bindgen::to_value(&super::panels::LessonView::new(
                &state.settings,
                &state.params,
            ))
            .unwrap_or(JsValue::NULL)
        })
        .unwrap_or(JsValue::NULL)
    })?;
    define_getter(object, "lastFrameMs", || {
        with_app(|app| JsValue::from_f64(app.last_frame_ms())).unwrap_or(JsValue::NULL)
    })?;
    define_getter(object, "backend", || {
        with_app(|app| JsValue::from_str(app.backend().name())).unwrap_or(JsValue::NULL)
    })?;
    Ok(())
}

/// `set`, `whenDrawn`, `on`, `off`: changes through the one message path, and what follows them.
fn install_state_methods(object: &Object) -> Result<(), WebError> {
    define_method(object, "set", |changes, _| {
        let entries = entries_as_text(&changes)?;
        if scheduler::admit_api_change() {
            scheduler::send(Action::State(Msg::Set(entries)));
        }
        Ok(with_app(|app| app.state_view()).unwrap_or(JsValue::NULL))
    })?;
    // A promise that resolves once every requested update has been drawn (on WebGPU, after its
    // read-backs and once the GPU has run everything submitted, render passes included):
    // `peLab.set({...}); await peLab.whenDrawn();`.
    define_method(object, "whenDrawn", |_, _| {
        let promise = Promise::new(&mut |resolve, _reject| scheduler::when_drawn(resolve));
        Ok(promise.into())
    })?;
    define_method(object, "on", |event, listener| {
        scheduler::add_listener(change_listener(&event, listener)?);
        Ok(JsValue::UNDEFINED)
    })?;
    define_method(object, "off", |event, listener| {
        scheduler::remove_listener(&change_listener(&event, listener)?);
        Ok(JsValue::UNDEFINED)
    })?;
    Ok(())
}

fn install_bench(object: &Object) -> Result<(), WebError> {
    // `peLab.bench({n, d, runs})`: the in-page benchmark (web/bench.rs), a promise of its JSON.
    // It runs after the current frame and blocks the page while it runs.
    define_method(object, "bench", |options, _| {
        let number = |key: &str| {
            if options.is_object() {
                Reflect::get(&options, &key.into())
                    .ok()
                    .and_then(|v| v.as_f64())
            } else {
                None
            }
        };
        let plan = BenchPlan::from_options(number("n"), number("d"), number("runs"));
        let promise = Promise::new(&mut |resolve, reject| {
            let callback = Closure::once_into_js(move || match super::bench::run(plan) {
                Ok(result) => {
                    let _ = resolve.call1(&JsValue::NULL, &result);
                }
                Err(error) => {
                    let _ = reject.call1(&JsValue::NULL, &JsError::new(&error.to_string()).into());
                }
            });
            if let Ok(window) = super::dom::window() {
                let _ = window.set_timeout_with_callback(callback.unchecked_ref());
            }
        });
        Ok(promise.into())
    })?;
    Ok(())
}

/// `train(options?)` and `stopTraining()`.
fn install_training(object: &Object) -> Result<(), WebError> {
    // `peLab.train(options?)`: the options are the training panel's link keys or their long
    // names (`{task: 'reverse', encodings: ['rope', 'none'], steps: 200}`); they are set like
    // `peLab.set`'s (clamped, with notices), then the run starts. A promise of
    // `stats.panels.train` once every encoding is measured (or the run is stopped); rejected if
    // a worker fails.
    define_method(object, "train", |options, _| {
        let entries = if options.is_undefined() || options.is_null() {
            Vec::new()
        } else {
            entries_as_text(&options)?
                .into_iter()
                .map(|(key, value)| {
                    let key = crate::model::query::train_keys::option_key(&key).to_string();
                    (key, value)
                })
                .collect()
        };
        let promise = Promise::new(&mut |resolve, reject| {
            if !entries.is_empty() {
                scheduler::send(Action::State(Msg::Set(entries.clone())));
            }
            scheduler::send(Action::Panel {
                panel: crate::model::panels::PanelId::Train,
                event: super::action::PanelEvent::Train(super::action::TrainCommand::Start(Some(
                    super::action::TrainPromise { resolve, reject },
                ))),
            });
        });
        Ok(promise.into())
    })?;
    // `peLab.stopTraining()`: ends the run; what it measured stays.
    define_method(object, "stopTraining", |_, _| {
        scheduler::send(Action::Panel {
            panel: crate::model::panels::PanelId::Train,
            event: super::action::PanelEvent::Train(super::action::TrainCommand::Stop),
        });
        Ok(JsValue::UNDEFINED)
    })?;
    Ok(())
}
