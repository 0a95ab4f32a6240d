//! The browser layer (wasm32 only). Its rooms:
//! - [`scheduler`]: the one message path (`send`) and the one render per animation frame;
//! - [`app`]: the one state and `dispatch` (every [`action::Action`]); `frame`: one render of
//!   what is stale, reading the state, never writing it;
//! - [`controls`] and [`page`]: the tables of controls and page elements, built once;
//! - [`panel`]: the panel model and the table of panels; one file per panel in [`panels`];
//! - [`backend`]: CPU and WebGPU behind one type ([`gpu_backend`] holds the WebGPU side);
//! - [`lesson`]: the lesson path's navigation, its keys and the address bar's hash; [`layout`]:
//!   the measures that let every figure fit one screen (phone, laptop, projector);
//! - [`api`]: `window.peLab`; [`embed`]: one panel in a course page's `<iframe>`;
//! - [`draw`]: heatmaps, curves and the projection drawn on canvases.
//!
//! The numbers come from `crate::math`, the words and every URL key from `crate::model`.

pub mod action;
pub mod api;
pub mod app;
pub mod backend;
mod bench;
pub mod controls;
pub mod dom;
pub mod draw;
pub mod embed;
pub mod error;
mod export;
mod frame;
mod gpu_backend;
pub mod language;
pub mod layout;
pub(crate) mod lazy_module;
pub mod lesson;
pub mod page;
pub mod panel;
pub mod panels;
pub mod scheduler;
pub mod stats;
pub mod surface;
mod tabs;
#[cfg(feature = "train-module")]
pub mod train_module;
pub mod train_workers;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::HtmlElement;

use crate::model::params::Params;
use crate::model::query::{self, ComputeChoice};
use crate::model::state::{start_limits, State};
use crate::model::status::{gpu_unavailable_notice, software_adapter_reason};
use action::Action;
use app::App;
use backend::Backend;
use controls::Controls;
use error::WebError;
use gpu_backend::GpuBackend;
use page::PageDom;

/// The element whose presence means "this document is the pe-lab page": without it (a test page,
/// a course page that only loads the module) nothing starts by itself.
pub const ROOT_ID: &str = "pe-lab";

/// The element failures are shown in (made when the page has none).
const ERROR_ID: &str = "error";

#[cfg_attr(feature = "page", wasm_bindgen(start))]
pub fn start() -> Result<(), JsError> {
    install_panic_hook();
    let is_page = dom::document()
        .map(|d| d.get_element_by_id(ROOT_ID).is_some())
        .unwrap_or(false);
    if !is_page {
        return Ok(());
    }
    let search = dom::window()
        .and_then(|w| w.location().search().map_err(WebError::from))
        .unwrap_or_default();
    mount(&search).map_err(|e| JsError::new(&e.to_string()))
}

/// Starts the page on the current document with the given query string (`?d=33&n=7`). Failures are
/// shown on the page and reject `peLab.ready`.
pub fn mount(search: &str) -> Result<(), WebError> {
    let result = mount_inner(search);
    if let Err(error) = &result {
        show_error(&format!("pe-lab could not start: {error}"));
        if let Ok(api) = api::api_object() {
            let _ = api::settle_ready(&api, Err(error.to_string()));
        }
    }
    result
}

fn mount_inner(search: &str) -> Result<(), WebError> {
    // Before any sentence is written: the notices of the link below are the first.
    let catalog_problem = language::install_page_catalog::<crate::model::messages::Computed>();
    let (link, mut notices) = query::parse_link(search);
    notices.extend(catalog_problem);
    // Until the backend is known, a link may ask for the widest limits; they are narrowed (with a
    // notice) if the page ends up on the CPU.
    let limits = start_limits(link.compute == ComputeChoice::Cpu);
    let (state, state_notices) = State::from_updates(&link.updates, limits);
    notices.extend(state_notices);

    // Every element is found before anything is wired, so that a broken page says what is missing.
    let page = PageDom::mount()?;
    let controls = Controls::mount()?;
    let panels = panel::mount_panels()?;
    embed::apply(
        link.embed.as_deref(),
        link.controls.as_deref(),
        &controls,
        &mut notices,
    )?;
    controls.wire(scheduler::send)?;
    page::build_presets(&page, scheduler::send)?;
    page::wire_skip_link(&page)?;
    page::install_export_tools(scheduler::send)?;
    page::observe_panels(scheduler::send)?;
    page::watch_color_scheme(scheduler::send)?;
    lesson::install(scheduler::send)?;
    tabs::install()?;
    layout::install()?;
    if link.compute != ComputeChoice::Cpu {
        dom::text(&page.backend, "looking for WebGPU…");
    }
    let app = App::new(state, notices, page, controls, panels)?;
    app.wire_panels()?;
    scheduler::install(app);
    api::install()?;
    // A link's `#panel-<name>` opens that section of the lesson, and a `?preset=` link its
    // preset's panel, as a click on the preset does (not in a course page's frame).
    if link.embed.is_none() {
        let preset = link
            .preset_panel
            .map(|panel| crate::model::state::Msg::Go(crate::model::panels::Go::To(panel)));
        if let Some(msg) = lesson::link_section_message().or(preset) {
            layout::wait_before_the_link_jump();
            scheduler::send(Action::State(msg));
        }
    }

    if link.compute == ComputeChoice::Cpu {
        scheduler::start_on(Backend::cpu(&crate::message!("reason-compute-cpu")));
        return Ok(());
    }
    let choice = link.compute;
    wasm_bindgen_futures::spawn_local(async move {
        match GpuBackend::new(on_gpu_failure).await {
            // A software adapter emulates a GPU on the CPU: slower than the CPU path itself.
            Ok(gpu) if choice == ComputeChoice::Auto && gpu.is_software() => {
                let reason = software_adapter_reason(&gpu.adapter_name());
                drop(gpu);
                scheduler::start_on(Backend::cpu(&reason));
            }
            Ok(gpu) => scheduler::start_on(Backend::gpu(gpu, "")),
            Err(error) => {
                if choice == ComputeChoice::Gpu {
                    scheduler::with_app(|app| {
                        app.push_notice(gpu_unavailable_notice(&error.to_string()))
                    });
                }
                scheduler::start_on(Backend::cpu(&crate::message!("reason-no-webgpu")));
            }
        }
    });
    Ok(())
}

/// Called from wgpu's device-lost and uncaptured-error callbacks: the switch to the CPU is an
/// action like any other (queued if the app is busy).
fn on_gpu_failure(reason: String) {
    scheduler::send(Action::GpuFailed(reason));
}

/// Writes a panic's message (with its file and line) to the console and to the page's error box.
/// Written here rather than with console_error_panic_hook: its JavaScript stack adds nothing to
/// the message's location, and it cost the first load 0.3 KB.
pub(crate) fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let message = format!(
            "pe-lab stopped because of an internal error ({info}). Reload the page; if it happens again, please report the link."
        );
        web_sys::console::error_1(&message.as_str().into());
        show_error(&message);
    }));
}

/// Shows a failure on the page (not only in the console). Works even when the page's own error box
/// is missing.
pub fn show_error(message: &str) {
    let Ok(document) = dom::document() else {
        return;
    };
    let target = match document.get_element_by_id(ERROR_ID) {
        Some(e) => e,
        None => match document.create_element("div") {
            Ok(div) => {
                div.set_id(ERROR_ID);
                div.set_attribute("role", "alert").ok();
                if let Some(body) = document.body() {
                    body.prepend_with_node_1(&div).ok();
                }
                div
            }
            Err(_) => return,
        },
    };
    target.set_text_content(Some(message));
    if let Some(html) = target.dyn_ref::<HtmlElement>() {
        html.set_hidden(false);
    }
}

/// Draw every panel at once, not only when scrolled into view (the browser tests read the numbers
/// of panels below the test page's fold).
pub fn set_eager_panels(eager: bool) {
    page::set_eager_panels(eager);
}

/// Used by the browser tests: the current parameters.
pub fn current_params() -> Option<Params> {
    scheduler::with_app(|app| app.state().params.clone())
}
