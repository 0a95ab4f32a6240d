//! Classroom features: theme and projector mode, "Copy link", presets, `peLab.on('change', fn)`,
//! export toolbars on every panel, keyboard reading of the heatmap, and panels that are only drawn
//! once they are on screen.

use std::cell::RefCell;
use std::collections::HashSet;

use js_sys::Function;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlButtonElement, HtmlCanvasElement, HtmlElement, HtmlSelectElement};

use super::dom::{self, element, set_text};
use super::error::WebError;
use super::{listen, report, with_app};
use crate::math::presets::{self, PRESETS};

thread_local! {
    /// Functions registered with `peLab.on('change', fn)`.
    static CHANGE_LISTENERS: RefCell<Vec<Function>> = const { RefCell::new(Vec::new()) };
    /// Ids of the panels (sections) currently on screen or near it.
    static VISIBLE_PANELS: RefCell<Option<HashSet<String>>> = const { RefCell::new(None) };
    /// Draw every panel whether or not it is on screen (see `set_eager_panels`).
    static EAGER_PANELS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// `theme=auto|light|dark` and `present=1` from the link, before the first frame.
pub fn apply_view_settings(
    pairs: &[(String, String)],
    notices: &mut Vec<String>,
) -> Result<(), WebError> {
    let last = |key: &str| {
        pairs
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    };
    if let Some(theme) = last("theme") {
        match theme {
            "auto" | "light" | "dark" => set_theme(theme)?,
            other => notices.push(format!(
                "theme = '{}' is not auto, light or dark; following the system.",
                other.chars().take(24).collect::<String>()
            )),
        }
    }
    if let Some(present) = last("present") {
        set_present(matches!(present, "1" | "true" | "on" | "yes"))?;
    }
    Ok(())
}

/// The preset named by `?preset=`, its updates put before the link's own values (which win).
pub fn expand_preset(
    pairs: Vec<(String, String)>,
    notices: &mut Vec<String>,
) -> Vec<(String, String)> {
    let Some(name) = pairs
        .iter()
        .rev()
        .find(|(k, _)| k == "preset")
        .map(|(_, v)| v.clone())
    else {
        return pairs;
    };
    match presets::find(&name) {
        Some(preset) => preset
            .updates
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .chain(pairs.into_iter().filter(|(k, _)| k != "preset"))
            .collect(),
        None => {
            notices.push(format!(
                "preset = '{}' is not one of: {}.",
                name.chars().take(24).collect::<String>(),
                presets::names().join(", ")
            ));
            pairs
        }
    }
}

fn root() -> Result<Element, WebError> {
    dom::document()?
        .document_element()
        .ok_or_else(|| WebError::Js("no document element".into()))
}

fn set_theme(theme: &str) -> Result<(), WebError> {
    let root = root()?;
    match theme {
        "light" | "dark" => root.set_attribute("data-theme", theme)?,
        _ => root.remove_attribute("data-theme")?,
    }
    if let Ok(select) = element::<HtmlSelectElement>("theme-select") {
        select.set_value(if theme == "light" || theme == "dark" {
            theme
        } else {
            "auto"
        });
    }
    Ok(())
}

fn set_present(on: bool) -> Result<(), WebError> {
    let root = root()?;
    if on {
        root.set_attribute("data-present", "")?;
    } else {
        root.remove_attribute("data-present")?;
    }
    if let Ok(button) = element::<HtmlElement>("present-toggle") {
        button.set_attribute("aria-pressed", if on { "true" } else { "false" })?;
    }
    Ok(())
}

/// Sets (or with `None` removes) one query parameter of the address bar.
fn set_url_param(key: &str, value: Option<&str>) -> Result<(), WebError> {
    let window = dom::window()?;
    let url = web_sys::Url::new(&window.location().href()?)?;
    match value {
        Some(v) => url.search_params().set(key, v),
        None => url.search_params().delete(key),
    }
    window
        .history()?
        .replace_state_with_url(&JsValue::NULL, "", Some(&url.href()))?;
    Ok(())
}

/// Wires the page tools, the presets, the export toolbars and the heatmap's keyboard reading.
pub fn wire() -> Result<(), WebError> {
    listen("theme-select", "change", |_| {
        let Ok(select) = element::<HtmlSelectElement>("theme-select") else {
            return;
        };
        let theme = select.value();
        report(Some(set_theme(&theme).and_then(|_| {
            set_url_param("theme", (theme != "auto").then_some(theme.as_str()))
        })));
    })?;
    listen("present-toggle", "click", |_| {
        let on = root()
            .map(|r| !r.has_attribute("data-present"))
            .unwrap_or(false);
        report(Some(
            set_present(on).and_then(|_| set_url_param("present", on.then_some("1"))),
        ));
        // The canvases keep their pixel size; the layout around them changed.
        report(with_app(|app| {
            app.request_frame();
            Ok(())
        }));
    })?;
    listen("copy-link", "click", |_| copy_link())?;

    let presets_bar = element::<HtmlElement>("presets")?;
    let document = dom::document()?;
    for preset in PRESETS {
        let button: HtmlButtonElement = document
            .create_element("button")?
            .dyn_into()
            .map_err(|_| WebError::Js("could not create a button".into()))?;
        button.set_type("button");
        button.set_id(&format!("preset-{}", preset.name));
        button.set_text_content(Some(preset.label));
        presets_bar.append_child(&button)?;
        listen(&format!("preset-{}", preset.name), "click", move |_| {
            report(with_app(|app| app.apply_preset(preset.name)));
        })?;
    }

    install_export_tools()?;
    wire_heatmap_keyboard()?;
    observe_panels()?;
    Ok(())
}

/// Copies the address bar (brought up to date first) to the clipboard, or shows it to copy by hand.
fn copy_link() {
    report(with_app(|app| app.write_url()));
    let Ok(window) = dom::window() else { return };
    let Ok(href) = window.location().href() else {
        return;
    };
    let promise = window.navigator().clipboard().write_text(&href);
    wasm_bindgen_futures::spawn_local(async move {
        let text = match wasm_bindgen_futures::JsFuture::from(promise).await {
            Ok(_) => "Link copied.".to_string(),
            Err(_) => format!("Copy this link: {href}"),
        };
        report(Some(set_text("copy-status", &text)));
    });
}

/// `peLab.on('change', fn)` / `peLab.off('change', fn)`.
pub fn install_api(object: &js_sys::Object) -> Result<(), WebError> {
    super::api::define_method2(object, "on", |event, listener| {
        let listener = change_listener(&event, listener)?;
        CHANGE_LISTENERS.with(|l| l.borrow_mut().push(listener));
        Ok(JsValue::UNDEFINED)
    })?;
    super::api::define_method2(object, "off", |event, listener| {
        let listener = change_listener(&event, listener)?;
        CHANGE_LISTENERS.with(|l| l.borrow_mut().retain(|f| !js_sys::Object::is(f, &listener)));
        Ok(JsValue::UNDEFINED)
    })?;
    Ok(())
}

fn change_listener(event: &JsValue, listener: JsValue) -> Result<Function, JsValue> {
    if event.as_string().as_deref() != Some("change") {
        return Err(JsError::new("peLab.on: the only event is 'change'").into());
    }
    listener
        .dyn_into::<Function>()
        .map_err(|_| JsError::new("peLab.on('change', fn) needs a function").into())
}

/// Tells every `change` listener the new state (a listener that throws does not stop the others).
pub fn notify_change(state: &JsValue) {
    let listeners = CHANGE_LISTENERS.with(|l| l.borrow().clone());
    for listener in listeners {
        if let Err(error) = listener.call1(&JsValue::NULL, state) {
            web_sys::console::error_2(&"pe-lab: a change listener failed:".into(), &error);
        }
    }
}

/// A toolbar at the top of every panel: PNG of each of its figures, and CSV (and SVG) where the
/// panel has a matrix to give.
fn install_export_tools() -> Result<(), WebError> {
    let document = dom::document()?;
    let sections = document.query_selector_all("section.panel")?;
    for k in 0..sections.length() {
        let Some(section) = sections.item(k).and_then(|n| n.dyn_into::<Element>().ok()) else {
            continue;
        };
        let panel = section.id().trim_start_matches("panel-").to_string();
        let tools = document.create_element("div")?;
        tools.set_class_name("panel-tools");
        tools.set_attribute("role", "toolbar")?;
        tools.set_attribute("aria-label", &format!("Export the {panel} panel"))?;
        let canvases = section.query_selector_all("canvas")?;
        let mut buttons: Vec<(String, String, String)> = Vec::new(); // (id, label, title)
        for c in 0..canvases.length() {
            let Some(canvas) = canvases
                .item(c)
                .and_then(|n| n.dyn_into::<HtmlCanvasElement>().ok())
            else {
                continue;
            };
            if canvas.id().is_empty() {
                continue;
            }
            let label = if canvases.length() > 1 {
                format!("PNG: {}", canvas.id())
            } else {
                "PNG".into()
            };
            buttons.push((
                format!("export-png-{}", canvas.id()),
                label,
                "Save this figure as a PNG image".into(),
            ));
        }
        if CSV_PANELS.contains(&panel.as_str()) {
            buttons.push((
                format!("export-csv-{panel}"),
                "CSV".into(),
                "Save the exact numbers (float32) as CSV".into(),
            ));
        }
        if panel == "curves" {
            buttons.push((
                "export-svg-curves".into(),
                "SVG".into(),
                "Save the curves as an SVG drawing".into(),
            ));
        }
        for (id, label, title) in &buttons {
            let button: HtmlButtonElement = document
                .create_element("button")?
                .dyn_into()
                .map_err(|_| WebError::Js("could not create a button".into()))?;
            button.set_type("button");
            button.set_id(id);
            button.set_text_content(Some(label));
            button.set_title(title);
            tools.append_child(&button)?;
        }
        match section.query_selector("h2")? {
            Some(heading) => heading.after_with_node_1(&tools)?,
            None => section.prepend_with_node_1(&tools)?,
        }
        for (id, _, _) in buttons {
            if let Some(canvas_id) = id.strip_prefix("export-png-").map(str::to_string) {
                listen(&id, "click", move |_| {
                    report(with_app(|app| app.export_png(&canvas_id)));
                })?;
            } else if let Some(panel) = id.strip_prefix("export-csv-").map(str::to_string) {
                listen(&id, "click", move |_| {
                    report(with_app(|app| app.export_csv(&panel)))
                })?;
            } else {
                listen(&id, "click", |_| report(with_app(|app| app.export_svg())))?;
            }
        }
    }
    Ok(())
}

/// The heatmap can be read from the keyboard: focus it, then the arrow keys move a cursor cell
/// whose value is shown like the pointer's (Home/End: first/last column, PageUp/PageDown: 10 rows).
fn wire_heatmap_keyboard() -> Result<(), WebError> {
    let canvas: HtmlElement = element("heatmap")?;
    canvas.set_tab_index(0);
    listen("heatmap", "keydown", |event| {
        let Some(key) = event.dyn_ref::<web_sys::KeyboardEvent>().map(|k| k.key()) else {
            return;
        };
        let step: Option<(i64, i64)> = match key.as_str() {
            "ArrowUp" => Some((-1, 0)),
            "ArrowDown" => Some((1, 0)),
            "ArrowLeft" => Some((0, -1)),
            "ArrowRight" => Some((0, 1)),
            "PageUp" => Some((-10, 0)),
            "PageDown" => Some((10, 0)),
            "Home" => Some((0, i64::MIN / 2)),
            "End" => Some((0, i64::MAX / 2)),
            _ => None,
        };
        if let Some((rows, columns)) = step {
            event.prevent_default();
            report(with_app(|app| app.move_heatmap_cursor(rows, columns)));
        }
    })?;
    listen("heatmap", "focus", |_| {
        report(with_app(|app| app.move_heatmap_cursor(0, 0)))
    })?;
    Ok(())
}

/// Whether the panel with this section id is on (or near) the screen (every panel counts as
/// visible if the observer could not be set up).
pub fn is_visible(section_id: &str) -> bool {
    if EAGER_PANELS.with(|e| e.get()) {
        return true;
    }
    VISIBLE_PANELS.with(|v| {
        v.borrow()
            .as_ref()
            .map_or(true, |set| set.contains(section_id))
    })
}

/// Watches which panels are on screen: off-screen panels are not recomputed until they are seen.
fn observe_panels() -> Result<(), WebError> {
    let callback = Closure::<dyn FnMut(js_sys::Array)>::new(|entries: js_sys::Array| {
        let mut newly_visible = false;
        VISIBLE_PANELS.with(|v| {
            let mut visible = v.borrow_mut();
            let set = visible.get_or_insert_with(HashSet::new);
            for entry in entries.iter() {
                let Ok(entry) = entry.dyn_into::<web_sys::IntersectionObserverEntry>() else {
                    continue;
                };
                let id = entry.target().id();
                if entry.is_intersecting() {
                    newly_visible |= set.insert(id);
                } else {
                    set.remove(&id);
                }
            }
        });
        if newly_visible {
            // Only the attention panels wait for visibility: redraw them, not P.
            report(with_app(|app| {
                app.request_panels();
                Ok(())
            }));
        }
    });
    let options = web_sys::IntersectionObserverInit::new();
    // Start drawing a little before a panel scrolls in.
    options.set_root_margin("300px 0px");
    let observer = web_sys::IntersectionObserver::new_with_options(
        callback.as_ref().unchecked_ref(),
        &options,
    )?;
    // The observer reports asynchronously; the first frame is drawn before that, so the panels
    // on screen now are found from their positions.
    let window = dom::window()?;
    let viewport = window.inner_height()?.as_f64().unwrap_or(0.0);
    let mut on_screen = HashSet::new();
    let sections = dom::document()?.query_selector_all("section.panel")?;
    for k in 0..sections.length() {
        if let Some(section) = sections.item(k).and_then(|n| n.dyn_into::<Element>().ok()) {
            let rect = section.get_bounding_client_rect();
            if rect.bottom() > -300.0 && rect.top() < viewport + 300.0 {
                on_screen.insert(section.id());
            }
            observer.observe(&section);
        }
    }
    VISIBLE_PANELS.with(|v| *v.borrow_mut() = Some(on_screen));
    // Observer and callback live as long as the page.
    callback.forget();
    std::mem::forget(observer);
    Ok(())
}

/// The panels whose numbers can be saved as CSV.
pub const CSV_PANELS: [&str; 4] = ["heatmap", "curves", "projection", "attention"];

impl super::App {
    /// Applies a preset on top of the default state and shows its panel.
    pub(super) fn apply_preset(&mut self, name: &str) -> Result<(), WebError> {
        let Some(preset) = presets::find(name) else {
            return Ok(());
        };
        let limits = self.params.limits;
        self.params = crate::math::params::Params {
            limits,
            ..Default::default()
        };
        self.lesson = crate::math::lesson::LessonParams::default();
        let mut notices = Vec::new();
        // Global parameters first: the panel settings depend on d.
        for (key, value) in preset
            .updates
            .iter()
            .filter(|(k, _)| !crate::math::lesson::is_lesson_key(k))
        {
            notices.extend(self.params.update(key, value));
        }
        notices.extend(self.lesson.fit_to(self.params.d));
        for (key, value) in preset
            .updates
            .iter()
            .filter(|(k, _)| crate::math::lesson::is_lesson_key(k))
        {
            notices.extend(self.lesson.update(key, value));
        }
        self.show_notices(notices);
        self.sync_controls()?;
        self.request_frame();
        if let Some(section) = dom::document()?.get_element_by_id(preset.panel) {
            section.scroll_into_view();
        }
        Ok(())
    }

    /// Saves a canvas of the page as PNG, named after the view.
    pub(super) fn export_png(&self, canvas_id: &str) -> Result<(), WebError> {
        let canvas: HtmlCanvasElement = element(canvas_id)?;
        let name = super::export::file_name(canvas_id, &self.view_parameters(), "png");
        super::export::download_canvas_png(&canvas, &name)
    }

    /// Saves the numbers of a panel as CSV (full float32 precision).
    pub(super) fn export_csv(&self, panel: &str) -> Result<(), WebError> {
        use crate::math::export::{encoding_csv, matrix_csv};
        let parameters = self.view_parameters();
        let name = super::export::file_name(panel, &parameters, "csv");
        let mime = "text/csv";
        match panel {
            "heatmap" => match &self.backend {
                super::Backend::Cpu => super::export::download_text(
                    &name,
                    mime,
                    &encoding_csv(self.encoding.view(), self.params.base),
                ),
                super::Backend::Gpu(gpu) => {
                    let (n, d, base) = (self.params.n, self.params.d, self.params.base);
                    let read = gpu.read_range(0, n * d);
                    wasm_bindgen_futures::spawn_local(async move {
                        let result = read.await.and_then(|values| {
                            let p =
                                ndarray::Array2::from_shape_vec((n, d), values).map_err(|e| {
                                    WebError::Gpu(format!("read-back of the wrong size: {e}"))
                                })?;
                            super::export::download_text(&name, mime, &encoding_csv(p.view(), base))
                        });
                        report(Some(result));
                    });
                    Ok(())
                }
            },
            "curves" | "projection" => {
                let curves = self.params.columns.len();
                let columns: Vec<usize> = if panel == "curves" {
                    self.params.columns.clone()
                } else {
                    vec![2 * self.params.pair, 2 * self.params.pair + 1]
                };
                let range = if panel == "curves" {
                    0..curves
                } else {
                    curves..curves + 2
                };
                if self.last_gathered.ncols() < range.end {
                    return Err(WebError::Js(
                        "no complete (sin, cos) pair to export at d = 1".into(),
                    ));
                }
                let values = self.last_gathered.slice(ndarray::s![.., range]);
                let labels: Vec<String> = columns.iter().map(|c| format!("col_{c}")).collect();
                let title = if panel == "curves" {
                    "P columns"
                } else {
                    "P pair (sin, cos)"
                };
                let csv = matrix_csv(title, &parameters, "position", &labels, values);
                super::export::download_text(&name, mime, &csv)
            }
            "attention" => {
                let Some(view) = &self.panels.attention_view else {
                    return Err(WebError::Js(
                        "the attention panel has not been drawn yet".into(),
                    ));
                };
                super::export::download_text(&name, mime, &view.csv())
            }
            _ => Ok(()),
        }
    }

    /// Saves the curves as an SVG drawing.
    pub(super) fn export_svg(&self) -> Result<(), WebError> {
        let curves = self.params.columns.len().min(self.last_gathered.ncols());
        let series: Vec<(usize, ndarray::ArrayView1<f32>)> = self
            .params
            .columns
            .iter()
            .take(curves)
            .enumerate()
            .map(|(k, &c)| (c, self.last_gathered.column(k)))
            .collect();
        let svg = super::curves::curves_svg(&series, self.params.d, self.params.base, (900, 560))?;
        let name = super::export::file_name("curves", &self.view_parameters(), "svg");
        super::export::download_text(&name, "image/svg+xml", &svg)
    }

    fn view_parameters(&self) -> Vec<(&'static str, String)> {
        vec![
            ("d", self.params.d.to_string()),
            ("n", self.params.n.to_string()),
            ("base", crate::math::params::format_base(self.params.base)),
        ]
    }

    /// Moves the keyboard cursor of the heatmap and shows that cell's value.
    pub(super) fn move_heatmap_cursor(&mut self, rows: i64, columns: i64) -> Result<(), WebError> {
        let (n, d) = (self.params.n as i64, self.params.d as i64);
        let (row, column) = self.heatmap_cursor;
        let row = (row as i64).saturating_add(rows).clamp(0, n - 1) as usize;
        let column = (column as i64).saturating_add(columns).clamp(0, d - 1) as usize;
        self.heatmap_cursor = (row, column);
        let canvas: HtmlCanvasElement = element("heatmap")?;
        let to_css_x = canvas.client_width().max(1) as f64 / canvas.width().max(1) as f64;
        let to_css_y = canvas.client_height().max(1) as f64 / canvas.height().max(1) as f64;
        let rect = self.heatmap_rect;
        let x = rect.x0 + (column as f64 + 0.5) * rect.width() / d as f64;
        let y = rect.y0 + (row as f64 + 0.5) * rect.height() / n as f64;
        self.show_cell(row, column, x * to_css_x, y * to_css_y)
    }
}

/// Gives every slider an `aria-valuetext` ("label: value") so that screen readers say what it is
/// set to; the global sliders get their own, more precise text in `sync_controls`.
pub fn describe_ranges() -> Result<(), WebError> {
    let ranges = dom::document()?.query_selector_all("input[type=range]")?;
    for k in 0..ranges.length() {
        let Some(range) = ranges
            .item(k)
            .and_then(|n| n.dyn_into::<web_sys::HtmlInputElement>().ok())
        else {
            continue;
        };
        if range.has_attribute("data-valuetext-own") {
            continue;
        }
        let label = range
            .labels()
            .and_then(|labels| labels.item(0))
            .and_then(|l| l.text_content())
            .map(|t| t.split_whitespace().collect::<Vec<_>>().join(" "))
            .unwrap_or_else(|| range.id());
        range.set_attribute("aria-valuetext", &format!("{label}: {}", range.value()))?;
    }
    Ok(())
}

/// Draws every panel at once instead of when it scrolls into view: for tests that read the numbers
/// of panels far down a page they cannot scroll.
pub fn set_eager_panels(eager: bool) {
    EAGER_PANELS.with(|e| e.set(eager));
}
