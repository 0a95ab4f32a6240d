//! The training panel's side that the page holds whether or not the training module is loaded:
//! the settings' fields (written from the page's state, and each change sent to it), the lines
//! before a run, and `stats.panels.train` as the contract writes it.

use wasm_bindgen::JsValue;
use web_sys::{HtmlButtonElement, HtmlElement, HtmlInputElement};

use crate::model::state::Msg;
use crate::model::train::run::TrainStats;
use crate::model::train::{self as train_model, TrainEncoding, TrainSettings};
use crate::web::action::Action;
use crate::web::dom::{self, listen};
use crate::web::error::WebError;
use crate::web::panels::train_figures;

crate::element_table! {
    /// What the page writes of the training panel besides the fields its rows give
    /// (`query::train_keys::TRAIN_ROWS`, which the page's controls set and send): the encodings'
    /// boxes, the lines before a run (the page holds them whether or not the training module is
    /// loaded).
    pub struct TrainFields {
        tk: HtmlInputElement = "train-tk",
        encodings: HtmlElement = "train-encodings",
        task_line: HtmlElement = "train-task-line",
        start: HtmlButtonElement = "train-start",
        progress: HtmlElement = "train-progress",
        device: HtmlElement = "train-device",
        takeaway: HtmlElement = "train-takeaway",
        headline: HtmlElement = "train-headline",
    }
}

/// The line that says where a run of `settings` would train, before one starts.
pub fn device_line_before_run(settings: &TrainSettings, page_cpu_reason: Option<&str>) -> String {
    train_model::choose_before_trial(settings.trainer, page_cpu_reason)
        .map_or_else(train_model::will_measure_text, |c| c.reason)
}

/// Writes the takeaway when it changed.
pub fn write_takeaway(dom: &TrainFields, takeaway: &str) {
    // The headline above the results repeats it, for an embed (which hides the panel's text).
    for element in [&dom.takeaway, &dom.headline] {
        if element.text_content().as_deref() != Some(takeaway) {
            dom::text(element, takeaway);
        }
    }
}

/// The panel before any run, written by the page while the training module is not loaded: the
/// lines a run would start from.
pub fn render_before_run(
    dom: &TrainFields,
    settings: &TrainSettings,
    page_cpu_reason: Option<&str>,
) {
    dom::text(&dom.progress, &train_figures::progress_before_run());
    dom::text(
        &dom.device,
        &device_line_before_run(settings, page_cpu_reason),
    );
    write_takeaway(
        dom,
        &crate::model::train::findings::takeaway_before_run(settings),
    );
}

/// The panel's inputs that are not one row's field, as the state has them: `tk` is only the
/// shift task's, the encodings' boxes are one key (`tenc`), and the line under the task says what
/// it asks and what guessing scores.
pub fn show_settings(dom: &TrainFields, settings: &TrainSettings) {
    let c = &settings.config;
    dom.tk
        .set_disabled(c.task != crate::model::train::Task::Shift);
    for encoding in TrainEncoding::ALL {
        if let Ok(box_) =
            dom::element::<HtmlInputElement>(&format!("train-enc-{}", encoding.link_name()))
        {
            box_.set_checked(settings.encodings.contains(&encoding));
        }
    }
    dom::text(&dom.task_line, &train_model::task_and_chance(c));
}

/// The encodings' boxes: a change of any is a change of `tenc` (the other fields are the page's
/// controls, from their rows).
pub fn wire_settings(dom: &TrainFields, send: fn(Action)) -> Result<(), WebError> {
    listen(&dom.encodings, "change", move |_| {
        let chosen: Vec<&str> = TrainEncoding::ALL
            .iter()
            .map(|e| e.link_name())
            .filter(|name| {
                dom::element::<HtmlInputElement>(&format!("train-enc-{name}"))
                    .is_ok_and(|b| b.checked())
            })
            .collect();
        send(Action::State(Msg::set("tenc", chosen.join(","))));
    })?;
    Ok(())
}

/// `stats.panels.train` before any run: the settings a run would start with, nothing running.
pub fn idle_stats(settings: &TrainSettings, page_cpu_reason: Option<&str>) -> JsValue {
    let choice = train_model::choose_before_trial(settings.trainer, page_cpu_reason);
    stats_value(&TrainStats::before_run(settings, choice))
}

/// A run's numbers for `stats.panels.train`. Unknown numbers are null (not absent) in the
/// contract.
pub(super) fn stats_value(stats: &crate::model::train::run::TrainStats) -> JsValue {
    use serde::Serialize;
    let serializer = serde_wasm_bindgen::Serializer::new()
        .serialize_missing_as_null(true)
        .serialize_maps_as_objects(true);
    // The loss curves (every encoding's mean and every seed's, thousands of numbers) are
    // written by the browser's own Array.from of a Float32Array: serde would hand them over one
    // number at a time, which made a read of the stats cost tens of milliseconds of the main
    // thread once a run had three seeds.
    let (without, curves) = stats.split_losses();
    let value = without.serialize(&serializer).unwrap_or(JsValue::NULL);
    let results = js_sys::Reflect::get(&value, &"results".into()).unwrap_or_default();
    for (name, mean, by_seed) in curves {
        let Ok(result) = js_sys::Reflect::get(&results, &name.into()) else {
            continue;
        };
        let _ = js_sys::Reflect::set(&result, &"loss".into(), &number_array(&mean));
        let seeds = js_sys::Reflect::get(&result, &"bySeed".into()).unwrap_or_default();
        for (k, curve) in by_seed.iter().enumerate() {
            if let Ok(seed) = js_sys::Reflect::get_u32(&seeds, k as u32) {
                let _ = js_sys::Reflect::set(&seed, &"loss".into(), &number_array(curve));
            }
        }
    }
    value
}

/// A plain array of numbers made by the browser from `values` in one call.
fn number_array(values: &[f32]) -> JsValue {
    js_sys::Array::from(&js_sys::Float32Array::from(values)).into()
}
