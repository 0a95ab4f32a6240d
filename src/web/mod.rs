//! The browser layer: reads the controls and the URL, runs `math`, paints the canvases, and exposes
//! `window.peLab`. Everything here is glue; the numbers and pixels come from `crate::math`.

pub mod api;
mod classroom;
mod curves;
pub mod dom;
pub mod embed;
pub mod error;
mod export;
mod gpu_backend;
mod heatmap;
mod panels;
mod projection;

use std::cell::RefCell;

use ndarray::{Array2, ArrayView1, Axis};
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{
    Event, HtmlButtonElement, HtmlCanvasElement, HtmlElement, HtmlInputElement, MouseEvent,
};

use crate::math::colormap::{diverging_bar_rgba, diverging_rgba};
use crate::math::encoding::{
    frequency, frequency_count, is_sine_column, pair_of_column, period, try_sinusoidal,
};
use crate::math::lesson::{is_lesson_key, LessonParams};
use crate::math::params::{
    base_from_slider, format_base, slider_from_base, Params, BASE_MAX, BASE_MIN, CPU_LIMITS, D_MIN,
    GPU_LIMITS, KEYS, N_MIN, WIDEST_LIMITS,
};
use crate::math::plot::{cell_at, reduced_angle, PixelRect};
use crate::math::relative::{projection_error_of, valid_positions};
use dom::{element, now_ms, set_hidden, set_text};
use error::WebError;
use gpu_backend::GpuBackend;
use heatmap::{draw_heatmap_frame, paint_cells, HeatmapAxes, RgbaImage};
use projection::PairColumns;

/// The element whose presence means "this document is the pe-lab page": without it (a test page,
/// a course page that only loads the module) nothing starts by itself.
pub const ROOT_ID: &str = "pe-lab";

/// The sliders with a numeric field beside them: `<key>-range` and `<key>-number`.
const SLIDERS: [&str; 6] = ["d", "n", "base", "delta", "pair", "pos"];

/// Pixels of the colour bar image (one column).
const BAR_PIXELS: usize = 256;

/// How long the address bar may lag behind a dragged slider. `history.replaceState` is rate-limited
/// by browsers, so it is called at most this often, always with the newest state.
const URL_UPDATE_MS: i32 = 120;

/// The numbers the page shows, as `window.peLab.stats`.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Stats {
    pub max_projection_error: f64,
    pub p_min: f32,
    pub p_max: f32,
    pub rows: usize,
    pub columns: usize,
    pub frequencies: usize,
    pub shortest_period: f64,
    pub longest_period: f64,
    /// The 2×2 matrix of the projection panel (row-major), empty when d = 1.
    pub matrix: Vec<[f64; 2]>,
    /// Where the cells of P are drawn on the heatmap canvas, in canvas pixels [x0, y0, x1, y1].
    pub heatmap_image: [f64; 4],
    pub frame_ms: f64,
    /// Milliseconds of the last update spent in each stage: [encoding, heatmap, curves, projection].
    pub stage_ms: [f64; 4],
    pub backend: &'static str,
    /// The WebGPU adapter's name, or why the CPU path is in use.
    pub adapter: String,
    /// Milliseconds from the start of navigation to the first complete frame.
    pub first_frame_ms: f64,
    pub notices: Vec<String>,
    /// The numbers of the attention panels (`stats.panels.order.withoutPe`, …).
    pub panels: panels::PanelStats,
}

/// `window.peLab.state`: the parameters after clamping.
#[derive(Debug, Serialize)]
pub struct StateView {
    pub d: usize,
    pub n: usize,
    pub base: f64,
    pub delta: i64,
    pub pair: usize,
    pub position: usize,
    pub columns: Vec<usize>,
}

impl From<&Params> for StateView {
    fn from(p: &Params) -> Self {
        StateView {
            d: p.d,
            n: p.n,
            base: p.base,
            delta: p.delta,
            pair: p.pair,
            position: p.position,
            columns: p.columns.clone(),
        }
    }
}

/// Where P is computed and the heatmap drawn. Chosen once at start-up (`?compute=auto|gpu|cpu`);
/// any GPU failure switches to the CPU for the rest of the session.
pub enum Backend {
    Cpu,
    Gpu(Box<GpuBackend>),
}

impl Backend {
    pub fn name(&self) -> &'static str {
        match self {
            Backend::Cpu => "cpu",
            Backend::Gpu(_) => "webgpu",
        }
    }
}

/// The numbers of P that the panels after the heatmap need: a few gathered columns and the
/// reductions. On WebGPU these are the only values read back per frame.
pub struct FrameData {
    /// n × k: column k is P[:, gathered_columns[k]] (the curves' columns, then 2j and 2j+1).
    pub gathered: Array2<f32>,
    pub max_projection_error: f64,
    pub p_min: f32,
    pub p_max: f32,
    /// Time spent computing P and painting the cells.
    pub compute_ms: f64,
}

struct CpuFrame {
    encoding: Array2<f32>,
    data: FrameData,
}

/// One frame on the CPU: P, its cells painted into the heatmap, the gathered columns and reductions.
fn cpu_frame(
    params: &Params,
    gathered_columns: &[usize],
    rect: &PixelRect,
    scratch: &HtmlCanvasElement,
) -> Result<CpuFrame, WebError> {
    let started = now_ms();
    let (d, n, base) = (params.d, params.n, params.base);
    let encoding = try_sinusoidal(n, d, base)?;
    let values = encoding
        .as_slice()
        .ok_or_else(|| WebError::Js("the encoding matrix is not contiguous".into()))?;
    let cells = diverging_rgba(values, -1.0, 1.0);
    paint_cells(
        &element("heatmap")?,
        scratch,
        &RgbaImage {
            width: d,
            height: n,
            pixels: &cells,
        },
        *rect,
    )?;
    let (p_min, p_max) = values
        .iter()
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), &v| {
            (lo.min(v), hi.max(v))
        });
    let data = FrameData {
        gathered: encoding.select(Axis(1), gathered_columns),
        max_projection_error: projection_error_of(encoding.view(), base, params.delta),
        p_min,
        p_max,
        compute_ms: now_ms() - started,
    };
    Ok(CpuFrame { encoding, data })
}

pub struct App {
    params: Params,
    /// The attention panels' settings (sentence, mask, heads, …).
    lesson: LessonParams,
    /// What the attention panels keep between frames.
    panels: panels::PanelsState,
    backend: Backend,
    /// P on the CPU path (for hovering); empty on WebGPU, where P stays on the GPU.
    encoding: Array2<f32>,
    frame_id: u32,
    frame_started: f64,
    /// A WebGPU frame waits for its read-backs.
    frame_in_flight: bool,
    /// Resolvers of `peLab.whenDrawn()` promises.
    drawn_waiters: Vec<js_sys::Function>,
    /// Whether `peLab.ready` has been settled (by the first complete frame).
    ready_settled: bool,
    /// Whether `start_on` has chosen the backend.
    backend_chosen: bool,
    /// The last frame's gathered columns (curves, then the projection pair), for the CSV export.
    last_gathered: Array2<f32>,
    /// The heatmap cell read from the keyboard (row, column).
    heatmap_cursor: (usize, usize),
    /// The link last written to the address bar: a change is announced to `peLab.on('change')`.
    last_query: Option<String>,
    heatmap_rect: PixelRect,
    stats: Stats,
    last_frame_ms: f64,
    /// Offscreen canvas the cell images are put into before being scaled onto a panel.
    scratch: HtmlCanvasElement,
    frame_requested: bool,
    url_update_pending: bool,
}

thread_local! {
    static APP: RefCell<Option<App>> = const { RefCell::new(None) };
}

/// Runs `f` on the app; `None` before start-up or if called re-entrantly.
fn with_app<R>(f: impl FnOnce(&mut App) -> R) -> Option<R> {
    APP.with(|cell| cell.try_borrow_mut().ok()?.as_mut().map(f))
}

#[wasm_bindgen(start)]
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
    let query = search.trim_start_matches('?');
    let pairs: Vec<(String, String)> = web_sys::UrlSearchParams::new_with_str(query)
        .map(|sp| {
            js_sys::try_iter(&sp)
                .ok()
                .flatten()
                .into_iter()
                .flatten()
                .filter_map(|entry| {
                    let entry = js_sys::Array::from(&entry.ok()?);
                    Some((entry.get(0).as_string()?, entry.get(1).as_string()?))
                })
                .collect()
        })
        .unwrap_or_default();
    let compute = pairs
        .iter()
        .rev()
        .find(|(k, _)| k == "compute")
        .map(|(_, v)| v.as_str())
        .unwrap_or("auto");
    let mut notices = Vec::new();
    let choice = match compute {
        "auto" | "" => ComputeChoice::Auto,
        "gpu" | "webgpu" => ComputeChoice::Gpu,
        "cpu" => ComputeChoice::Cpu,
        other => {
            notices.push(format!(
                "compute = '{}' is not auto, gpu or cpu; using auto.",
                other.chars().take(24).collect::<String>()
            ));
            ComputeChoice::Auto
        }
    };
    // `?preset=` expands to its parameter updates; the link's own values come after and win.
    let pairs = classroom::expand_preset(pairs, &mut notices);
    // Until the backend is known, a link may ask for the widest limits; they are narrowed (with a
    // notice) if the page ends up on the CPU.
    let limits = match choice {
        ComputeChoice::Cpu => CPU_LIMITS,
        _ => WIDEST_LIMITS,
    };
    let (params, parse_notices) =
        Params::from_pairs_with(limits, pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    notices.extend(parse_notices);
    let (lesson, lesson_notices) = LessonParams::from_pairs(
        pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())),
        params.d,
    );
    notices.extend(lesson_notices);

    let scratch: HtmlCanvasElement = dom::document()?
        .create_element("canvas")?
        .dyn_into()
        .map_err(|_| WebError::Js("could not create a canvas".into()))?;
    let app = App {
        params,
        lesson,
        panels: panels::PanelsState::default(),
        encoding: Array2::zeros((0, 0)),
        heatmap_rect: PixelRect {
            x0: 0.0,
            y0: 0.0,
            x1: 0.0,
            y1: 0.0,
        },
        stats: Stats {
            backend: "cpu",
            ..Stats::default()
        },
        last_frame_ms: 0.0,
        scratch,
        frame_requested: false,
        url_update_pending: false,
        backend: Backend::Cpu,
        frame_id: 0,
        frame_started: 0.0,
        frame_in_flight: false,
        drawn_waiters: Vec::new(),
        ready_settled: false,
        backend_chosen: false,
        last_gathered: Array2::zeros((0, 0)),
        heatmap_cursor: (0, 0),
        last_query: None,
    };
    // Check every element before anything is wired, so that a broken page says what is missing.
    app.check_elements()?;
    classroom::apply_view_settings(&pairs, &mut notices)?;
    let last = |key: &str| {
        pairs
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    };
    embed::apply(last("embed"), last("controls"), &mut notices)?;
    APP.with(|cell| cell.replace(Some(app)));
    wire_controls()?;
    panels::wire()?;
    classroom::wire()?;
    install_api()?;
    with_app(|app| {
        app.show_notices(notices);
        app.sync_controls()
    })
    .unwrap_or_else(|| Err(WebError::Js("the app is busy".into())))?;

    if choice == ComputeChoice::Cpu {
        return with_app(|app| app.start_on(Backend::Cpu, "chosen by ?compute=cpu"))
            .unwrap_or_else(|| Err(WebError::Js("the app is busy".into())));
    }
    set_text("backend", "looking for WebGPU…")?;
    wasm_bindgen_futures::spawn_local(async move {
        let started = match GpuBackend::new(on_gpu_failure).await {
            Ok(gpu) => with_app(|app| app.start_on(Backend::Gpu(Box::new(gpu)), "")),
            Err(error) => with_app(|app| {
                if choice == ComputeChoice::Gpu {
                    app.stats.notices.push(format!(
                        "WebGPU was asked for (?compute=gpu) but is not available: {error}. Using the CPU path."
                    ));
                    let notices = app.stats.notices.clone();
                    app.show_notices(notices);
                }
                app.start_on(Backend::Cpu, "no WebGPU here")
            }),
        };
        if let Some(Err(error)) = started {
            show_error(&format!("pe-lab could not start: {error}"));
            if let Ok(api) = api::api_object() {
                let _ = api::settle_ready(&api, Err(error.to_string()));
            }
        }
    });
    Ok(())
}

/// Called from wgpu's device-lost and uncaptured-error callbacks: defers the switch to the CPU, so
/// that the app is never borrowed twice.
fn on_gpu_failure(reason: String) {
    wasm_bindgen_futures::spawn_local(async move {
        report(with_app(|app| app.fall_back_to_cpu(&reason)));
    });
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ComputeChoice {
    Auto,
    Gpu,
    Cpu,
}

fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        show_error(&format!(
            "pe-lab stopped because of an internal error ({info}). Reload the page; if it happens again, please report the link."
        ));
    }));
}

/// Shows a failure on the page (not only in the console). Works even when the page's own error box
/// is missing.
pub fn show_error(message: &str) {
    let Ok(document) = dom::document() else {
        return;
    };
    let target = match document.get_element_by_id("error") {
        Some(e) => e,
        None => match document.create_element("div") {
            Ok(div) => {
                div.set_id("error");
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

fn listen(id: &str, event: &str, handler: impl FnMut(Event) + 'static) -> Result<(), WebError> {
    let target = element::<web_sys::EventTarget>(id)?;
    let closure = Closure::<dyn FnMut(Event)>::new(handler);
    target.add_event_listener_with_callback(event, closure.as_ref().unchecked_ref())?;
    // Listeners live as long as the page.
    closure.forget();
    Ok(())
}

fn report(result: Option<Result<(), WebError>>) {
    if let Some(Err(error)) = result {
        show_error(&error.to_string());
    }
}

fn wire_controls() -> Result<(), WebError> {
    for key in SLIDERS {
        let range_id = format!("{key}-range");
        let number_id = format!("{key}-number");
        // `input`, not only `change`: the panels follow the slider while it is dragged.
        let id = range_id.clone();
        listen(&range_id, "input", move |_| {
            let Ok(range) = element::<HtmlInputElement>(&id) else {
                return;
            };
            let value = if key == "base" {
                format_base(base_from_slider(range.value_as_number()))
            } else {
                range.value()
            };
            report(with_app(|app| app.update_from_control(key, &value)));
        })?;
        let id = number_id.clone();
        listen(&number_id, "change", move |_| {
            let Ok(number) = element::<HtmlInputElement>(&id) else {
                return;
            };
            let value = number.value();
            report(with_app(|app| app.update_from_control(key, &value)));
        })?;
    }
    listen("cols-input", "change", |_| {
        let Ok(input) = element::<HtmlInputElement>("cols-input") else {
            return;
        };
        let value = input.value();
        report(with_app(|app| app.update_from_control("cols", &value)));
    })?;
    for (id, shift) in [("cols-higher", -2i64), ("cols-lower", 2i64)] {
        listen(id, "click", move |_| {
            report(with_app(|app| app.shift_columns(shift)))
        })?;
    }
    listen("notices-dismiss", "click", |_| {
        report(with_app(|app| {
            app.show_notices(Vec::new());
            Ok(())
        }))
    })?;
    listen("heatmap", "mousemove", |event| {
        if let Some(mouse) = event.dyn_ref::<MouseEvent>() {
            let (x, y) = (mouse.offset_x() as f64, mouse.offset_y() as f64);
            report(with_app(|app| app.hover_heatmap(x, y)));
        }
    })?;
    listen("heatmap", "mouseleave", |_| {
        set_hidden("heatmap-tooltip", true).ok();
    })?;
    Ok(())
}

fn install_api() -> Result<(), WebError> {
    let object = api::api_object()?;
    classroom::install_api(&object)?;
    api::define_getter(&object, "state", || {
        with_app(|app| {
            serde_wasm_bindgen::to_value(&StateView::from(&app.params)).unwrap_or(JsValue::NULL)
        })
        .unwrap_or(JsValue::NULL)
    })?;
    api::define_getter(&object, "stats", || {
        with_app(|app| serde_wasm_bindgen::to_value(&app.stats).unwrap_or(JsValue::NULL))
            .unwrap_or(JsValue::NULL)
    })?;
    api::define_getter(&object, "lesson", || {
        with_app(|app| {
            serde_wasm_bindgen::to_value(&panels::LessonView::new(&app.lesson, &app.params))
                .unwrap_or(JsValue::NULL)
        })
        .unwrap_or(JsValue::NULL)
    })?;
    api::define_getter(&object, "lastFrameMs", || {
        with_app(|app| JsValue::from_f64(app.last_frame_ms)).unwrap_or(JsValue::NULL)
    })?;
    api::define_getter(&object, "backend", || {
        with_app(|app| JsValue::from_str(app.stats.backend)).unwrap_or(JsValue::NULL)
    })?;
    // A promise that resolves once every requested update has been drawn (on WebGPU, after its
    // read-backs): `peLab.set({...}); await peLab.whenDrawn();`.
    api::define_method(&object, "whenDrawn", |_| {
        let promise = js_sys::Promise::new(&mut |resolve, _reject| {
            let waiting = with_app(|app| {
                app.drawn_waiters.push(resolve.clone());
                app.settle_drawn_waiters();
            });
            if waiting.is_none() {
                let _ = resolve.call0(&JsValue::NULL);
            }
        });
        Ok(promise.into())
    })?;
    // For tests of the fallback: loses the WebGPU device the way a driver reset would.
    api::define_method(&object, "simulateDeviceLoss", |_| {
        let destroyed = with_app(|app| match &app.backend {
            Backend::Gpu(gpu) => {
                gpu.destroy_device();
                true
            }
            Backend::Cpu => false,
        });
        Ok(JsValue::from_bool(destroyed.unwrap_or(false)))
    })?;
    api::define_method(&object, "set", |changes| {
        let entries = api::entries_as_text(&changes)?;
        let result = with_app(|app| app.set_many(&entries))
            .ok_or_else(|| JsError::new("pe-lab is not running (or is busy)"))?;
        result.map_err(|e| JsValue::from(JsError::new(&e.to_string())))
    })?;
    Ok(())
}

impl App {
    fn check_elements(&self) -> Result<(), WebError> {
        for key in SLIDERS {
            element::<HtmlInputElement>(&format!("{key}-range"))?;
            element::<HtmlInputElement>(&format!("{key}-number"))?;
        }
        for id in ["heatmap", "curves", "projection"] {
            element::<HtmlCanvasElement>(id)?;
        }
        panels::check_elements()?;
        element::<HtmlInputElement>("cols-input")?;
        element::<HtmlButtonElement>("cols-higher")?;
        element::<HtmlButtonElement>("cols-lower")?;
        for id in [
            "backend",
            "loading",
            "notices",
            "notices-list",
            "notices-dismiss",
            "heatmap-tooltip",
            "heatmap-hover",
            "summary-p",
            "curves-summary",
            "projection-note",
            "projection-angle",
            "projection-point",
            "projection-error",
            "m00",
            "m01",
            "m10",
            "m11",
            "frame-time",
        ] {
            element::<HtmlElement>(id)?;
        }
        Ok(())
    }

    fn update_from_control(&mut self, key: &str, value: &str) -> Result<(), WebError> {
        let notices = self.params.update(key, value);
        self.show_notices(notices);
        self.sync_controls()?;
        self.request_frame();
        Ok(())
    }

    /// `peLab.set`: applies every entry, then draws at once so that `stats` is current on return.
    fn set_many(&mut self, entries: &[(String, String)]) -> Result<JsValue, WebError> {
        let mut notices = Vec::new();
        // Only the panel settings changed: P and its panels stay as they are.
        let panels_only = entries.iter().all(|(key, _)| is_lesson_key(key));
        for (key, value) in entries {
            if is_lesson_key(key) {
                notices.extend(self.lesson.update(key, value));
            } else {
                notices.extend(self.params.update(key, value));
            }
        }
        self.show_notices(notices);
        self.sync_controls()?;
        if panels_only {
            self.render_panels()?;
            self.settle_drawn_waiters();
        } else {
            self.render()?;
        }
        self.request_url_update();
        Ok(serde_wasm_bindgen::to_value(&StateView::from(&self.params)).unwrap_or(JsValue::NULL))
    }

    fn shift_columns(&mut self, shift: i64) -> Result<(), WebError> {
        let columns = &self.params.columns;
        let (Some(&low), Some(&high)) = (columns.iter().min(), columns.iter().max()) else {
            return Ok(());
        };
        let shift = shift.clamp(-(low as i64), self.params.d as i64 - 1 - high as i64);
        let shifted: Vec<String> = columns
            .iter()
            .map(|&c| (c as i64 + shift).to_string())
            .collect();
        self.update_from_control("cols", &shifted.join(","))
    }

    /// Draws on the next animation frame: many `input` events during a drag become one frame.
    fn request_frame(&mut self) {
        if self.frame_requested {
            return;
        }
        let Ok(window) = dom::window() else { return };
        let callback = Closure::once_into_js(|| {
            report(with_app(|app| {
                app.frame_requested = false;
                app.render()?;
                app.request_url_update();
                Ok(())
            }))
        });
        if window
            .request_animation_frame(callback.unchecked_ref())
            .is_ok()
        {
            self.frame_requested = true;
        }
    }

    fn request_url_update(&mut self) {
        if self.url_update_pending {
            return;
        }
        let Ok(window) = dom::window() else { return };
        let callback = Closure::once_into_js(|| {
            report(with_app(|app| {
                app.url_update_pending = false;
                app.write_url_and_notify()
            }))
        });
        if window
            .set_timeout_with_callback_and_timeout_and_arguments_0(
                callback.unchecked_ref(),
                URL_UPDATE_MS,
            )
            .is_ok()
        {
            self.url_update_pending = true;
        }
    }

    /// Keeps the link in the address bar equal to the view; other query parameters are kept.
    fn write_url(&self) -> Result<(), WebError> {
        let window = dom::window()?;
        let url = web_sys::Url::new(&window.location().href()?)?;
        let search = url.search_params();
        for pair in self.params.to_query().split('&') {
            if let Some((key, value)) = pair.split_once('=') {
                search.set(key, value);
            }
        }
        // The panel settings: raw text (a sentence may hold '&' or '='); those left to follow
        // something else are removed from the link.
        let lesson = self.lesson.to_query();
        for key in crate::math::lesson::LESSON_KEYS {
            match lesson.iter().find(|(k, _)| *k == key) {
                Some((_, value)) => search.set(key, value),
                None => search.delete(key),
            }
        }
        let query = search.to_string().as_string().unwrap_or_default();
        url.set_search(&query);
        window
            .history()?
            .replace_state_with_url(&JsValue::NULL, "", Some(&url.href()))?;
        Ok(())
    }

    /// Writes the link and, when the state changed since the last write, tells `peLab.on('change')`
    /// listeners (not for the first frame: nothing has changed yet).
    fn write_url_and_notify(&mut self) -> Result<(), WebError> {
        self.write_url()?;
        let query = dom::window()?.location().search()?;
        let changed = self.last_query.as_ref().is_some_and(|last| *last != query);
        self.last_query = Some(query);
        if changed {
            let state = serde_wasm_bindgen::to_value(&StateView::from(&self.params))
                .unwrap_or(JsValue::NULL);
            classroom::notify_change(&state);
        }
        Ok(())
    }

    fn show_notices(&mut self, notices: Vec<String>) {
        let Ok(list) = element::<HtmlElement>("notices-list") else {
            return;
        };
        list.set_inner_html("");
        if let Ok(document) = dom::document() {
            for notice in &notices {
                if let Ok(item) = document.create_element("li") {
                    item.set_text_content(Some(notice));
                    list.append_child(&item).ok();
                }
            }
        }
        set_hidden("notices", notices.is_empty()).ok();
        self.stats.notices = notices;
    }

    /// Sets every control's range and value from the (clamped) parameters.
    fn sync_controls(&self) -> Result<(), WebError> {
        let p = &self.params;
        let max_delta = p.n as i64 - 1;
        let positions = valid_positions(p.n, p.delta);
        let last_position = positions.end.saturating_sub(1).max(positions.start);
        let max_pair = (p.d / 2).saturating_sub(1);
        let limits: [(&str, f64, f64, f64, String); 6] = [
            (
                "d",
                D_MIN as f64,
                p.limits.d_max as f64,
                p.d as f64,
                p.d.to_string(),
            ),
            (
                "n",
                N_MIN as f64,
                p.limits.n_max as f64,
                p.n as f64,
                p.n.to_string(),
            ),
            (
                "base",
                slider_from_base(BASE_MIN),
                slider_from_base(BASE_MAX),
                slider_from_base(p.base),
                format_base(p.base),
            ),
            (
                "delta",
                -max_delta as f64,
                max_delta as f64,
                p.delta as f64,
                p.delta.to_string(),
            ),
            (
                "pair",
                0.0,
                max_pair as f64,
                p.pair as f64,
                p.pair.to_string(),
            ),
            (
                "pos",
                positions.start as f64,
                last_position as f64,
                p.position as f64,
                p.position.to_string(),
            ),
        ];
        for (key, min, max, slider_value, text) in limits {
            let range = element::<HtmlInputElement>(&format!("{key}-range"))?;
            let number = element::<HtmlInputElement>(&format!("{key}-number"))?;
            if key != "base" {
                range.set_min(&min.to_string());
                range.set_max(&max.to_string());
                number.set_min(&min.to_string());
                number.set_max(&max.to_string());
            }
            range.set_value_as_number(slider_value);
            range.set_attribute("aria-valuetext", &format!("{key} = {text}"))?;
            range.set_attribute("data-valuetext-own", "")?;
            number.set_value(&text);
            let disabled = min == max;
            range.set_disabled(disabled);
            number.set_disabled(disabled);
        }
        let columns: Vec<String> = p.columns.iter().map(|c| c.to_string()).collect();
        element::<HtmlInputElement>("cols-input")?.set_value(&columns.join(", "));
        Ok(())
    }

    /// Computes P and redraws every panel and readout. The heatmap is drawn here; the panels that
    /// need numbers of P (curves, projection, readouts) are drawn by [`App::finish_frame`], at once on
    /// the CPU, after the GPU's small read-backs on WebGPU.
    fn render(&mut self) -> Result<(), WebError> {
        // Nothing is drawn before the backend is chosen (an early frame request, e.g. from the
        // panel visibility observer, would otherwise draw, and settle `ready`, on the CPU).
        if !self.backend_chosen {
            return Ok(());
        }
        self.frame_started = now_ms();
        self.frame_id = self.frame_id.wrapping_add(1);
        self.heatmap_rect = self.draw_heatmap_axes()?;
        set_hidden("heatmap-tooltip", true)?;
        let gathered_columns = self.gathered_columns();
        match &mut self.backend {
            Backend::Cpu => {
                let frame = cpu_frame(
                    &self.params,
                    &gathered_columns,
                    &self.heatmap_rect,
                    &self.scratch,
                )?;
                self.encoding = frame.encoding;
                self.finish_frame(frame.data)
            }
            Backend::Gpu(gpu) => {
                let started = self.frame_started;
                let id = self.frame_id;
                let result = gpu.start_frame(
                    &self.params,
                    &gathered_columns,
                    self.heatmap_rect,
                    &element("heatmap")?,
                );
                match result {
                    Ok(pending) => {
                        self.frame_in_flight = true;
                        wasm_bindgen_futures::spawn_local(async move {
                            let data = pending.await;
                            report(with_app(|app| {
                                if app.frame_id != id {
                                    return Ok(()); // a newer frame is on its way
                                }
                                app.frame_in_flight = false;
                                match data {
                                    Ok(data) => {
                                        app.frame_started = started;
                                        app.finish_frame(data)
                                    }
                                    Err(error) => app.fall_back_to_cpu(&error.to_string()),
                                }
                            }));
                        });
                        Ok(())
                    }
                    Err(error) => self.fall_back_to_cpu(&error.to_string()),
                }
            }
        }
    }

    /// Columns every frame reads: the curves' columns, then the projection pair (2j, 2j+1).
    fn gathered_columns(&self) -> Vec<usize> {
        let mut columns = self.params.columns.clone();
        if self.params.has_complete_pair() {
            columns.extend([2 * self.params.pair, 2 * self.params.pair + 1]);
        }
        columns
    }

    /// Axes, labels and colour bar of the heatmap; returns where the cells go.
    fn draw_heatmap_axes(&self) -> Result<PixelRect, WebError> {
        let bar = diverging_bar_rgba(BAR_PIXELS, -1.0, 1.0);
        draw_heatmap_frame(
            &element("heatmap")?,
            &self.scratch,
            self.params.n,
            self.params.d,
            &RgbaImage {
                width: 1,
                height: BAR_PIXELS,
                pixels: &bar,
            },
            &HeatmapAxes {
                x_desc: "Column (encoding dimension)",
                y_desc: "Row (position)",
                value_range: (-1.0, 1.0),
                x_names: None,
                y_names: None,
            },
        )
    }

    /// Draws the panels that depend on numbers of P, the readouts and `stats`.
    fn finish_frame(&mut self, data: FrameData) -> Result<(), WebError> {
        let (d, n, base) = (self.params.d, self.params.n, self.params.base);
        let frequencies = frequency_count(d);
        let shortest_period = period(0, d, base);
        let longest_period = period(frequencies - 1, d, base);
        let odd_note = if d % 2 == 1 {
            format!(
                " d = {d} is odd: the last column ({}) is a sine with no cosine partner.",
                d - 1
            )
        } else {
            String::new()
        };
        set_text(
            "summary-p",
            &format!(
                "P is {n} × {d} ({} values) in [{:.4}, {:.4}]; {frequencies} frequencies, periods from {} to {} positions.{odd_note}",
                n * d,
                data.p_min,
                data.p_max,
                curves::format_period(shortest_period),
                curves::format_period(longest_period),
            ),
        )?;
        let computed = now_ms();

        let curve_count = self.params.columns.len();
        let series: Vec<(usize, ArrayView1<f32>)> = self
            .params
            .columns
            .iter()
            .enumerate()
            .map(|(k, &c)| (c, data.gathered.column(k)))
            .collect();
        curves::draw_curves(&element("curves")?, &series, d, base)?;
        let described: Vec<String> = self
            .params
            .columns
            .iter()
            .map(|&c| format!("{c} ({})", if is_sine_column(c) { "sin" } else { "cos" }))
            .collect();
        set_text(
            "curves-summary",
            &format!(
                "Columns {} against position 0…{}.",
                described.join(", "),
                n - 1
            ),
        )?;
        let curves_drawn = now_ms();

        let pair = (data.gathered.ncols() >= curve_count + 2).then(|| PairColumns {
            sin: data.gathered.column(curve_count),
            cos: data.gathered.column(curve_count + 1),
            d,
        });
        self.render_projection(pair.as_ref(), data.max_projection_error)?;
        let projection_drawn = now_ms();

        // A failing attention panel is shown on the page but does not stop P's frame.
        report(Some(self.render_panels()));
        self.last_frame_ms = now_ms() - self.frame_started;
        self.last_gathered = data.gathered.clone();
        self.stats = Stats {
            first_frame_ms: self.stats.first_frame_ms,
            max_projection_error: data.max_projection_error,
            p_min: data.p_min,
            p_max: data.p_max,
            rows: n,
            columns: d,
            frequencies,
            shortest_period,
            longest_period,
            matrix: self.stats.matrix.clone(),
            heatmap_image: [
                self.heatmap_rect.x0,
                self.heatmap_rect.y0,
                self.heatmap_rect.x1,
                self.heatmap_rect.y1,
            ],
            frame_ms: self.last_frame_ms,
            stage_ms: [
                data.compute_ms,
                computed - self.frame_started - data.compute_ms,
                curves_drawn - computed,
                projection_drawn - curves_drawn,
            ],
            backend: self.backend.name(),
            adapter: match &self.backend {
                Backend::Gpu(gpu) => gpu.adapter_name(),
                Backend::Cpu => self.stats.adapter.clone(),
            },
            notices: std::mem::take(&mut self.stats.notices),
            panels: std::mem::take(&mut self.stats.panels),
        };
        set_text(
            "frame-time",
            &format!("last update {:.1} ms", self.last_frame_ms),
        )?;
        classroom::describe_ranges()?;
        self.settle_drawn_waiters();
        if !self.ready_settled {
            self.ready_settled = true;
            self.stats.first_frame_ms = now_ms();
            set_hidden("loading", true)?;
            api::settle_ready(&api::api_object()?, Ok(()))?;
        }
        Ok(())
    }

    fn render_projection(
        &mut self,
        pair: Option<&PairColumns>,
        max_error: f64,
    ) -> Result<(), WebError> {
        let p = &self.params;
        let canvas: HtmlCanvasElement = element("projection")?;
        let Some(pair) = pair.filter(|_| p.has_complete_pair()) else {
            let context = dom::context_2d(&canvas)?;
            context.set_fill_style_str("#fff");
            context.fill_rect(0.0, 0.0, canvas.width() as f64, canvas.height() as f64);
            context.set_fill_style_str("#333");
            context.set_font("20px sans-serif");
            context.fill_text("d = 1: the only column is a sine.", 40.0, 220.0)?;
            context.fill_text(
                "There is no (sin, cos) pair to rotate: raise d.",
                40.0,
                252.0,
            )?;
            set_text(
                "projection-note",
                "With d = 1 the encoding has a single sine column, so there is no pair to project.",
            )?;
            for id in ["m00", "m01", "m10", "m11"] {
                set_text(id, "—")?;
            }
            set_text("projection-angle", "")?;
            set_text("projection-point", "")?;
            set_text("projection-error", "— (no complete pair)")?;
            self.stats.matrix = Vec::new();
            return Ok(());
        };
        let view = projection::draw_projection(&canvas, pair, p.base, p.pair, p.position, p.delta)?;
        let target = p.position as i64 + p.delta;
        let m = view.matrix;
        for (id, value) in [
            ("m00", m[0][0]),
            ("m01", m[0][1]),
            ("m10", m[1][0]),
            ("m11", m[1][1]),
        ] {
            // `+ 0.0` turns −0.0 into 0.0: no "-0.0000" in the matrix.
            set_text(id, &format!("{:.4}", value + 0.0))?;
        }
        set_text(
            "projection-note",
            &format!(
                "Pair j = {} (columns {} and {}), offset δ = {}: the same matrix M carries every p_i to p_(i+δ).",
                p.pair,
                2 * p.pair,
                2 * p.pair + 1,
                p.delta
            ),
        )?;
        set_text(
            "projection-angle",
            &format!(
                "ω_{j} = {:.6} rad per position; δ·ω_{j} = {:.4} rad{}",
                view.omega,
                view.angle,
                if view.angle.abs() > std::f64::consts::PI {
                    format!(
                        ", the same turn as {:.4} rad ({:.2}°)",
                        reduced_angle(view.angle),
                        reduced_angle(view.angle).to_degrees()
                    )
                } else {
                    format!(" ({:.2}°)", view.angle.to_degrees())
                },
                j = p.pair
            ),
        )?;
        set_text(
            "projection-point",
            &format!(
                "p_{i} = ({:.4}, {:.4}) → M·p_{i} = ({:.4}, {:.4}); p_{target} = ({:.4}, {:.4})",
                view.from.0,
                view.from.1,
                view.projected.0,
                view.projected.1,
                view.target.0,
                view.target.1,
                i = p.position
            ),
        )?;
        set_text("projection-error", &format!("{max_error:.2e}"))?;
        self.stats.matrix = vec![m[0], m[1]];
        Ok(())
    }

    /// Leaves WebGPU for the CPU path for the rest of the session, says why on the page, and
    /// redraws. Called on any GPU failure: a failed frame, a validation error, a lost device.
    fn fall_back_to_cpu(&mut self, reason: &str) -> Result<(), WebError> {
        if matches!(self.backend, Backend::Cpu) {
            return Ok(());
        }
        self.backend = Backend::Cpu;
        self.frame_in_flight = false;
        let mut notices = vec![format!(
            "WebGPU stopped working ({}); switched to the CPU path.",
            shorten_reason(reason)
        )];
        notices.extend(self.params.set_limits(CPU_LIMITS));
        self.show_notices(notices);
        show_backend(&self.backend, "")?;
        self.sync_controls()?;
        self.render()
    }

    /// Installs the chosen backend, narrows the limits to it, and draws the first frame; `ready`
    /// settles when that frame is complete (see `finish_frame`).
    fn start_on(&mut self, backend: Backend, why_cpu: &str) -> Result<(), WebError> {
        self.backend = backend;
        self.backend_chosen = true;
        let limits = match self.backend {
            Backend::Cpu => CPU_LIMITS,
            Backend::Gpu(_) => GPU_LIMITS,
        };
        let notices = self.params.set_limits(limits);
        if !notices.is_empty() {
            let mut all = std::mem::take(&mut self.stats.notices);
            all.extend(notices);
            self.show_notices(all);
        }
        show_backend(&self.backend, why_cpu)?;
        self.stats.adapter = match &self.backend {
            Backend::Gpu(gpu) => gpu.adapter_name(),
            Backend::Cpu => why_cpu.to_string(),
        };
        self.sync_controls()?;
        self.render()?;
        self.write_url_and_notify()
    }

    /// Resolves `peLab.whenDrawn()` promises once nothing is left to draw.
    fn settle_drawn_waiters(&mut self) {
        if self.frame_requested || self.frame_in_flight || self.panels.requested {
            return;
        }
        for resolve in self.drawn_waiters.drain(..) {
            let _ = resolve.call0(&JsValue::NULL);
        }
    }

    /// Shows position, column, value and sin/cos of the cell under the pointer (CSS pixels).
    fn hover_heatmap(&self, x_css: f64, y_css: f64) -> Result<(), WebError> {
        let canvas: HtmlCanvasElement = element("heatmap")?;
        let scale_x = canvas.width() as f64 / (canvas.client_width().max(1) as f64);
        let scale_y = canvas.height() as f64 / (canvas.client_height().max(1) as f64);
        let (n, d) = (self.params.n, self.params.d);
        let tooltip: HtmlElement = element("heatmap-tooltip")?;
        let Some((row, column)) =
            cell_at(self.heatmap_rect, n, d, x_css * scale_x, y_css * scale_y)
        else {
            tooltip.set_hidden(true);
            return Ok(());
        };
        self.show_cell(row, column, x_css, y_css)
    }

    /// Shows the cell (row, column) of P in the tooltip (placed near CSS point x, y) and the
    /// readout below the heatmap.
    fn show_cell(&self, row: usize, column: usize, x_css: f64, y_css: f64) -> Result<(), WebError> {
        let d = self.params.d;
        let tooltip: HtmlElement = element("heatmap-tooltip")?;
        let pair = pair_of_column(column);
        let kind = if is_sine_column(column) { "sin" } else { "cos" };
        let omega = frequency(pair, d, self.params.base);
        let describe = move |value: f32| {
            format!(
                "position {row}, column {column} ({kind}, pair j = {pair}, ω = {omega:.4}): p = {value:.4}"
            )
        };
        let (left, top) = (format!("{}px", x_css + 14.0), format!("{}px", y_css + 14.0));
        let style = tooltip.style();
        style.set_property("left", &left)?;
        style.set_property("top", &top)?;
        match &self.backend {
            Backend::Cpu => show_hover(&describe(self.encoding[[row, column]])),
            Backend::Gpu(gpu) => {
                // One value read back from the GPU's P; a stale answer (the pointer moved on, or P
                // changed) is simply overwritten by the next.
                let read = gpu.read_value(row * d + column);
                wasm_bindgen_futures::spawn_local(async move {
                    if let Ok(value) = read.await {
                        report(Some(show_hover(&describe(value))));
                    }
                });
                Ok(())
            }
        }
    }
}

fn show_hover(text: &str) -> Result<(), WebError> {
    let tooltip: HtmlElement = element("heatmap-tooltip")?;
    tooltip.set_text_content(Some(text));
    tooltip.set_hidden(false);
    set_text("heatmap-hover", text)
}

/// A GPU error message can be long (a whole validation report): the notice keeps its first line.
fn shorten_reason(reason: &str) -> String {
    let first = reason.lines().next().unwrap_or(reason);
    if first.chars().count() > 160 {
        format!("{}…", first.chars().take(160).collect::<String>())
    } else {
        first.to_string()
    }
}

/// The compute badge: which backend, and the adapter's name on WebGPU.
fn show_backend(backend: &Backend, why_cpu: &str) -> Result<(), WebError> {
    let text = match backend {
        Backend::Gpu(gpu) => format!("WebGPU · {}", gpu.adapter_name()),
        Backend::Cpu if why_cpu.is_empty() => "CPU · Rust → WebAssembly".to_string(),
        Backend::Cpu => format!("CPU · Rust → WebAssembly ({why_cpu})"),
    };
    set_text("backend", &text)
}

/// Draw every panel at once, not only when scrolled into view (the browser tests read the numbers
/// of panels below the test page's fold).
pub fn set_eager_panels(eager: bool) {
    classroom::set_eager_panels(eager);
}

/// Used by the browser tests: the current stats without going through `window.peLab`.
pub fn current_stats() -> Option<Stats> {
    with_app(|app| app.stats.clone())
}

/// Used by the browser tests: the current parameters.
pub fn current_params() -> Option<Params> {
    with_app(|app| app.params.clone())
}

/// Every key the URL carries, for the tests.
pub fn url_keys() -> &'static [&'static str] {
    &KEYS
}
