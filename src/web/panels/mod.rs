//! The attention panels (issue 4): attention weights, multi-head masks, order, similarity, the
//! binary analogy, CNN vs RNN vs self-attention, scale and add vs concatenate. Each panel has its
//! own file; here are what they share: the state the page keeps between frames (what each panel
//! was last drawn with, the hover data, the timing), the listeners, the control sync, and
//! [`App::render_panels`], which the frame calls after P's panels.
//!
//! Where the numbers come from: the attention weights of ≤ 64 tokens (panels 1–3, 7) are tiny, so
//! both backends use the CPU twins (`math::attention`, `math::order`, `math::scaling`). The Gram
//! heatmap and P beside the bits come from the GPU on WebGPU (the Gram kernel and the heatmap
//! render pass, nothing read back) and from the CPU otherwise; the complexity panel times the GPU
//! attention kernel on WebGPU and `math::attention::weights` on the CPU.

mod attention;
mod binary;
mod complexity;
mod heads;
mod order;
mod scaling;
mod similarity;

use ndarray::Array2;
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{
    Element, HtmlButtonElement, HtmlCanvasElement, HtmlElement, HtmlInputElement,
    HtmlSelectElement, MouseEvent,
};

use super::dom::{self, context_2d, element, now_ms};
use super::error::WebError;
use super::{listen, report, with_app, App, Backend};
use crate::math::lesson::{
    divisors, next_shuffle_seed, LessonParams, PermutationChoice, COMPLEXITY_D_MAX,
    COMPLEXITY_N_MAX, KERNEL_MAX, SIM_MAX_OFFSET_LIMIT, SIM_POSITION_MAX,
};
use crate::math::params::Params;
use crate::math::plot::PixelRect;
use crate::math::tokens::MAX_TOKENS;

pub use attention::AttentionStats;
pub use binary::BinaryStats;
pub use complexity::ComplexityStats;
pub use heads::HeadsStats;
pub use order::OrderStats;
pub use scaling::ScalingStats;
pub use similarity::SimilarityStats;

/// `peLab.stats.panels`: the numbers every attention panel shows.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PanelStats {
    pub attention: AttentionStats,
    pub heads: HeadsStats,
    pub order: OrderStats,
    pub similarity: SimilarityStats,
    pub binary: BinaryStats,
    pub complexity: ComplexityStats,
    pub scaling: ScalingStats,
}

/// `peLab.lesson`: the panel settings after clamping (the global ones are `peLab.state`).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LessonView {
    pub text: String,
    pub tokens: Vec<String>,
    /// `null`: every key is valid.
    pub valid_len: Option<usize>,
    pub positional_encoding: bool,
    pub scale_embeddings: bool,
    pub heads: usize,
    pub valid_lens: [usize; 2],
    pub permutation: String,
    pub sim_position: usize,
    pub sim_max_offset: usize,
    pub sim_view: &'static str,
    pub complexity_n: usize,
    pub complexity_d: usize,
    pub kernel: usize,
    pub token_i: usize,
    pub token_j: usize,
}

impl LessonView {
    pub fn new(lesson: &LessonParams, params: &Params) -> Self {
        let (cn, cd, k) = lesson.complexity(params.n, params.d);
        LessonView {
            text: lesson.text.clone(),
            tokens: lesson.tokens(),
            valid_len: lesson.effective_valid_len(),
            positional_encoding: lesson.positional_encoding,
            scale_embeddings: lesson.scale_embeddings,
            heads: lesson.heads(),
            valid_lens: lesson.batch_lens,
            permutation: lesson.permutation.to_query(),
            sim_position: lesson.sim_position,
            sim_max_offset: lesson.sim_max_offset,
            sim_view: lesson.sim_view.to_query(),
            complexity_n: cn,
            complexity_d: cd,
            kernel: k,
            token_i: lesson.token_pair.0,
            token_j: lesson.token_pair.1,
        }
    }
}

/// The panels' memory between frames (not part of `stats`).
#[derive(Default)]
pub struct PanelsState {
    /// What each panel was last computed with, and whether its canvases were drawn then: a panel
    /// whose inputs did not change is not recomputed (its canvas keeps the picture, `stats` keeps
    /// the numbers) unless it has come on screen since and was not drawn yet.
    drawn: [Option<(String, bool)>; 7],
    /// A panels-only redraw waits for the next animation frame.
    pub requested: bool,
    /// The attention heatmap as drawn, for hovering.
    pub attention_view: Option<attention::WeightsView>,
    /// The d the heads select was built for, and the tokens of the token selects.
    heads_options_for: Option<usize>,
    token_options_for: Option<Vec<String>>,
    measure: complexity::MeasureState,
}

impl PanelId {
    /// The id of the panel's `<section>` in index.html.
    fn section_id(self) -> &'static str {
        match self {
            PanelId::Attention => "panel-attention",
            PanelId::Heads => "panel-heads",
            PanelId::Order => "panel-order",
            PanelId::Similarity => "panel-similarity",
            PanelId::Binary => "panel-binary",
            PanelId::Complexity => "panel-complexity",
            PanelId::Scaling => "panel-scaling",
        }
    }
}

/// Indices of `PanelsState::drawn`.
#[derive(Debug, Clone, Copy)]
enum PanelId {
    Attention = 0,
    Heads = 1,
    Order = 2,
    Similarity = 3,
    Binary = 4,
    Complexity = 5,
    Scaling = 6,
}

/// What a panel renders with: the global parameters, the panel settings, the backend, P on the CPU
/// path, and the offscreen canvas for cell images.
pub(super) struct Ctx<'a> {
    pub params: &'a Params,
    pub lesson: &'a LessonParams,
    pub backend: &'a mut Backend,
    /// P (n × d) on the CPU path; empty on WebGPU.
    pub encoding: &'a Array2<f32>,
    pub scratch: &'a HtmlCanvasElement,
    /// Where the heatmap of P has its cells (the binary panel copies them).
    pub heatmap_rect: PixelRect,
    /// Whether the panel being rendered is on screen: draw its canvases, or only its numbers.
    pub draw: bool,
}

/// The range/number pairs of the panels: `<key>-range` and `<key>-number`.
const SLIDERS: [&str; 6] = ["valid", "simi", "simk", "cn", "cd", "k"];

/// Every element the panels need, checked at start-up like the page's own.
pub fn check_elements() -> Result<(), WebError> {
    for key in SLIDERS {
        element::<HtmlInputElement>(&format!("{key}-range"))?;
        element::<HtmlInputElement>(&format!("{key}-number"))?;
    }
    for id in [
        "attn-heatmap",
        "heads-canvas",
        "order-chart",
        "sim-heatmap",
        "sim-curve",
        "sim-norm",
        "binary-bits",
        "binary-p",
        "complexity-chart",
        "scale-chart",
        "scale-dots",
    ] {
        element::<HtmlCanvasElement>(id)?;
    }
    for id in ["attn-text", "attn-pe", "attn-scale", "lens0", "lens1"] {
        element::<HtmlInputElement>(id)?;
    }
    for id in ["heads-select", "simview-select", "ti-select", "tj-select"] {
        element::<HtmlSelectElement>(id)?;
    }
    for id in [
        "order-shuffle",
        "order-swap",
        "order-reset",
        "measure-button",
        "cx-follow",
    ] {
        element::<HtmlButtonElement>(id)?;
    }
    for id in [
        "attn-summary",
        "attn-hover",
        "attn-tooltip",
        "heads-readout",
        "heads-note",
        "order-original",
        "order-permuted",
        "order-description",
        "order-without",
        "order-with",
        "order-masked",
        "sim-live",
        "sim-forum",
        "sim-heatmap-note",
        "sim-curve-readout",
        "sim-norm-readout",
        "sim-distance-readout",
        "binary-table",
        "binary-summary",
        "complexity-table",
        "complexity-crossover",
        "complexity-measured",
        "scale-magnitudes",
        "scale-dots-readout",
    ] {
        element::<HtmlElement>(id)?;
    }
    for layer in ["cnn", "rnn", "sa"] {
        for what in ["ops", "seq", "path"] {
            element::<HtmlElement>(&format!("cx-{layer}-{what}"))?;
        }
    }
    Ok(())
}

/// Registers the panels' listeners (after `check_elements`).
pub fn wire() -> Result<(), WebError> {
    for key in SLIDERS {
        let range_id = format!("{key}-range");
        let id = range_id.clone();
        listen(&range_id, "input", move |_| {
            if let Ok(range) = element::<HtmlInputElement>(&id) {
                let value = range.value();
                report(with_app(|app| app.update_lesson(key, &value)));
            }
        })?;
        let number_id = format!("{key}-number");
        let id = number_id.clone();
        listen(&number_id, "change", move |_| {
            if let Ok(number) = element::<HtmlInputElement>(&id) {
                let value = number.value();
                report(with_app(|app| app.update_lesson(key, &value)));
            }
        })?;
    }
    // The sentence follows every keystroke: the panels are small.
    listen("attn-text", "input", |_| {
        if let Ok(input) = element::<HtmlInputElement>("attn-text") {
            let value = input.value();
            report(with_app(|app| app.update_lesson("text", &value)));
        }
    })?;
    for (id, key) in [("attn-pe", "pe"), ("attn-scale", "scale")] {
        listen(id, "change", move |_| {
            if let Ok(input) = element::<HtmlInputElement>(id) {
                let value = if input.checked() { "1" } else { "0" };
                report(with_app(|app| app.update_lesson(key, value)));
            }
        })?;
    }
    for (id, key) in [
        ("heads-select", "heads"),
        ("simview-select", "simview"),
        ("ti-select", "ti"),
        ("tj-select", "tj"),
    ] {
        listen(id, "change", move |_| {
            if let Ok(select) = element::<HtmlSelectElement>(id) {
                let value = select.value();
                report(with_app(|app| app.update_lesson(key, &value)));
            }
        })?;
    }
    for id in ["lens0", "lens1"] {
        listen(id, "change", |_| {
            let value = |id: &str| {
                element::<HtmlInputElement>(id)
                    .map(|i| i.value())
                    .unwrap_or_default()
            };
            let lens = format!("{},{}", value("lens0"), value("lens1"));
            report(with_app(|app| app.update_lesson("lens", &lens)));
        })?;
    }
    listen("order-shuffle", "click", |_| {
        report(with_app(|app| {
            let seed = match app.lesson.permutation {
                PermutationChoice::Shuffle(seed) => seed,
                _ => 0,
            };
            let next = next_shuffle_seed(app.lesson.token_count(), seed);
            app.update_lesson("perm", &next.to_string())
        }))
    })?;
    listen("order-swap", "click", |_| {
        report(with_app(|app| app.update_lesson("perm", "swap")))
    })?;
    listen("order-reset", "click", |_| {
        report(with_app(|app| app.update_lesson("perm", "none")))
    })?;
    listen("cx-follow", "click", |_| {
        report(with_app(|app| {
            app.lesson.complexity_n = None;
            app.lesson.complexity_d = None;
            app.update_lesson("k", &app.lesson.kernel.to_string())
        }))
    })?;
    listen("measure-button", "click", |_| {
        report(with_app(|app| app.measure_attention()))
    })?;
    listen("attn-heatmap", "mousemove", |event| {
        if let Some(mouse) = event.dyn_ref::<MouseEvent>() {
            let (x, y) = (mouse.offset_x() as f64, mouse.offset_y() as f64);
            report(with_app(|app| app.hover_attention(x, y)));
        }
    })?;
    listen("attn-heatmap", "mouseleave", |_| {
        dom::set_hidden("attn-tooltip", true).ok();
    })?;
    Ok(())
}

impl App {
    /// A panel control changed: applies it, shows the notices, redraws the panels on the next
    /// animation frame (P's panels are not redrawn: they do not depend on these settings).
    pub(super) fn update_lesson(&mut self, key: &str, value: &str) -> Result<(), WebError> {
        let notices = self.lesson.update(key, value);
        self.show_notices(notices);
        self.sync_panel_controls(true)?;
        self.request_panels();
        Ok(())
    }

    pub(super) fn request_panels(&mut self) {
        if self.panels.requested {
            return;
        }
        let Ok(window) = dom::window() else { return };
        let callback = Closure::once_into_js(|| {
            report(with_app(|app| {
                app.panels.requested = false;
                app.render_panels()?;
                app.request_url_update();
                app.settle_drawn_waiters();
                Ok(())
            }))
        });
        if window
            .request_animation_frame(callback.unchecked_ref())
            .is_ok()
        {
            self.panels.requested = true;
        }
    }

    /// Redraws every panel whose inputs changed and updates `stats.panels`. A failing panel shows
    /// its error in its own readout; the others still draw.
    pub(super) fn render_panels(&mut self) -> Result<(), WebError> {
        if !self.backend_chosen {
            return Ok(());
        }
        super::classroom::describe_ranges()?;
        let notices = self.lesson.fit_to(self.params.d);
        if !notices.is_empty() {
            let mut all = std::mem::take(&mut self.stats.notices);
            all.extend(notices);
            self.show_notices(all);
        }
        self.sync_panel_controls(false)?;
        let backend = self.backend.name();
        let mut ctx = Ctx {
            params: &self.params,
            lesson: &self.lesson,
            backend: &mut self.backend,
            encoding: &self.encoding,
            scratch: &self.scratch,
            heatmap_rect: self.heatmap_rect,
            draw: false,
        };
        let state = &mut self.panels;
        let stats = &mut self.stats.panels;
        let (p, l) = (ctx.params, ctx.lesson);
        let tokens_key = format!(
            "{:?}|{}|{}|{}|{}",
            l.tokens(),
            p.d,
            p.base,
            l.positional_encoding,
            l.scale_embeddings
        );

        let key = format!("{tokens_key}|{:?}", l.effective_valid_len());
        if let Some(result) = redraw(state, PanelId::Attention, key, |draw| {
            ctx.draw = draw;
            attention::render(&mut ctx)
        }) {
            panel_result(result, "attn-summary", |(s, view)| {
                state.attention_view = view;
                stats.attention = s;
            });
        }
        let key = format!("{tokens_key}|{}|{:?}", l.heads(), l.batch_lens);
        if let Some(result) = redraw(state, PanelId::Heads, key, |draw| {
            ctx.draw = draw;
            heads::render(&mut ctx)
        }) {
            panel_result(result, "heads-readout", |s| stats.heads = s);
        }
        let key = format!(
            "{tokens_key}|{:?}|{:?}",
            l.permutation,
            l.effective_valid_len()
        );
        if let Some(result) = redraw(state, PanelId::Order, key, |draw| {
            ctx.draw = draw;
            order::render(&mut ctx)
        }) {
            panel_result(result, "order-description", |s| stats.order = s);
        }
        let key = format!(
            "{}|{}|{}|{}|{}|{:?}|{backend}",
            p.n, p.d, p.base, l.sim_position, l.sim_max_offset, l.sim_view
        );
        if let Some(result) = redraw(state, PanelId::Similarity, key, |draw| {
            ctx.draw = draw;
            similarity::render(&mut ctx)
        }) {
            panel_result(result, "sim-heatmap-note", |s| stats.similarity = s);
        }
        let key = format!("{}|{}|{}|{backend}", p.n, p.d, p.base);
        if let Some(result) = redraw(state, PanelId::Binary, key, |draw| {
            ctx.draw = draw;
            binary::render(&mut ctx)
        }) {
            panel_result(result, "binary-summary", |s| stats.binary = s);
        }
        let (cn, cd, k) = l.complexity(p.n, p.d);
        let key = format!("{cn}|{cd}|{k}|{backend}|{:?}", state.measure);
        let measure = state.measure.clone();
        if let Some(result) = redraw(state, PanelId::Complexity, key, |draw| {
            ctx.draw = draw;
            complexity::render(&mut ctx, &measure)
        }) {
            panel_result(result, "complexity-crossover", |s| stats.complexity = s);
        }
        let key = format!("{tokens_key}|{:?}", l.token_pair);
        if let Some(result) = redraw(state, PanelId::Scaling, key, |draw| {
            ctx.draw = draw;
            scaling::render(&mut ctx)
        }) {
            panel_result(result, "scale-magnitudes", |s| stats.scaling = s);
        }
        self.schedule_auto_measure();
        Ok(())
    }

    /// Sets the panel controls from the (clamped) settings; a value is written only when it
    /// differs. A redraw (`from_control` false) leaves the field being edited alone, so that a
    /// frame never undoes what is being typed; the control's own change handler does update it.
    fn sync_panel_controls(&mut self, from_control: bool) -> Result<(), WebError> {
        let (lesson, params) = (&self.lesson, &self.params);
        let focused = dom::document()?.active_element();
        let editable = |input: &HtmlInputElement| {
            from_control || focused.as_ref() != Some(input.unchecked_ref::<Element>())
        };
        let tokens = lesson.tokens();
        let n_tokens = tokens.len();
        let text: HtmlInputElement = element("attn-text")?;
        if text.value() != lesson.text && editable(&text) {
            text.set_value(&lesson.text);
        }
        element::<HtmlInputElement>("attn-pe")?.set_checked(lesson.positional_encoding);
        element::<HtmlInputElement>("attn-scale")?.set_checked(lesson.scale_embeddings);
        let (cn, cd, k) = lesson.complexity(params.n, params.d);
        let valid = lesson.effective_valid_len().unwrap_or(n_tokens);
        let sliders: [(&str, usize, usize, usize); 6] = [
            ("valid", 0, n_tokens.min(MAX_TOKENS), valid),
            ("simi", 0, SIM_POSITION_MAX, lesson.sim_position),
            ("simk", 1, SIM_MAX_OFFSET_LIMIT, lesson.sim_max_offset),
            ("cn", 1, COMPLEXITY_N_MAX, cn),
            ("cd", 1, COMPLEXITY_D_MAX, cd),
            ("k", 1, KERNEL_MAX, k),
        ];
        for (key, min, max, value) in sliders {
            for suffix in ["range", "number"] {
                let input: HtmlInputElement = element(&format!("{key}-{suffix}"))?;
                set_if_changed(&input, "min", &min.to_string())?;
                set_if_changed(&input, "max", &max.to_string())?;
                if input.value() != value.to_string() && editable(&input) {
                    input.set_value(&value.to_string());
                }
                input.set_disabled(min == max);
            }
        }
        // What a screen reader says for each slider.
        for (key, text) in [
            ("valid", valid_text(lesson, n_tokens)),
            ("simi", format!("position i = {}", lesson.sim_position)),
            (
                "simk",
                format!("largest offset k = {}", lesson.sim_max_offset),
            ),
            ("cn", format!("n = {cn}")),
            ("cd", format!("d = {cd}")),
            ("k", format!("kernel size k = {k}")),
        ] {
            set_if_changed(
                &element::<HtmlInputElement>(&format!("{key}-range"))?,
                "aria-valuetext",
                &text,
            )?;
        }
        for (slot, id) in ["lens0", "lens1"].into_iter().enumerate() {
            let input: HtmlInputElement = element(id)?;
            let value = lesson.batch_lens[slot].to_string();
            if input.value() != value && editable(&input) {
                input.set_value(&value);
            }
        }
        let d = lesson.d();
        if self.panels.heads_options_for != Some(d) {
            let options: Vec<(String, String)> = divisors(d)
                .into_iter()
                .map(|h| (h.to_string(), format!("{h} (d/h = {})", d / h)))
                .collect();
            fill_select("heads-select", &options)?;
            self.panels.heads_options_for = Some(d);
        }
        element::<HtmlSelectElement>("heads-select")?.set_value(&lesson.heads().to_string());
        element::<HtmlSelectElement>("simview-select")?.set_value(lesson.sim_view.to_query());
        if self.panels.token_options_for.as_ref() != Some(&tokens) {
            let options: Vec<(String, String)> = tokens
                .iter()
                .enumerate()
                .map(|(i, t)| (i.to_string(), format!("{i}: {t}")))
                .collect();
            fill_select("ti-select", &options)?;
            fill_select("tj-select", &options)?;
            self.panels.token_options_for = Some(tokens);
        }
        for (id, value) in [
            ("ti-select", lesson.token_pair.0),
            ("tj-select", lesson.token_pair.1),
        ] {
            let select: HtmlSelectElement = element(id)?;
            select.set_value(&value.to_string());
            select.set_disabled(n_tokens == 0);
        }
        Ok(())
    }

    /// Shows the attention weight under the pointer (CSS pixels on the canvas).
    fn hover_attention(&self, x_css: f64, y_css: f64) -> Result<(), WebError> {
        let canvas: HtmlCanvasElement = element("attn-heatmap")?;
        let tooltip: HtmlElement = element("attn-tooltip")?;
        let Some(view) = &self.panels.attention_view else {
            tooltip.set_hidden(true);
            return Ok(());
        };
        let scale_x = canvas.width() as f64 / (canvas.client_width().max(1) as f64);
        let scale_y = canvas.height() as f64 / (canvas.client_height().max(1) as f64);
        let Some(text) = view.describe(x_css * scale_x, y_css * scale_y) else {
            tooltip.set_hidden(true);
            return Ok(());
        };
        let style = tooltip.style();
        style.set_property("left", &format!("{}px", x_css + 14.0))?;
        style.set_property("top", &format!("{}px", y_css + 14.0))?;
        tooltip.set_text_content(Some(&text));
        tooltip.set_hidden(false);
        dom::set_text("attn-hover", &text)
    }
}

fn valid_text(lesson: &LessonParams, n_tokens: usize) -> String {
    match lesson.effective_valid_len() {
        Some(v) => format!("valid_len = {v} of {n_tokens} keys"),
        None => format!("valid_len = all {n_tokens} keys"),
    }
}

/// Runs `render` (told whether the panel is on screen, i.e. whether to draw its canvases) unless
/// the panel is up to date: computed with the same `key`, and drawn too if it is on screen.
/// Returns its result, or `None` when it was up to date.
fn redraw<T>(
    state: &mut PanelsState,
    id: PanelId,
    key: String,
    render: impl FnOnce(bool) -> Result<T, WebError>,
) -> Option<Result<T, WebError>> {
    // The numbers and readouts of every panel are always computed; its canvases are drawn only
    // when it is on screen (`classroom::is_visible`), so that a page opened at the top does not
    // spend its first frame on pictures nobody sees.
    let visible = super::classroom::is_visible(id.section_id());
    let slot = &mut state.drawn[id as usize];
    if let Some((done, was_drawn)) = slot {
        if *done == key && (*was_drawn || !visible) {
            return None;
        }
    }
    let result = render(visible);
    // A failed panel is tried again on the next frame.
    *slot = result.is_ok().then_some((key, visible));
    Some(result)
}

/// Stores a panel's result, or shows its error in the panel's readout `error_id`.
fn panel_result<T>(result: Result<T, WebError>, error_id: &str, store: impl FnOnce(T)) {
    match result {
        Ok(value) => store(value),
        Err(error) => {
            dom::set_text(error_id, &format!("This panel could not be drawn: {error}")).ok();
        }
    }
}

fn set_if_changed(input: &HtmlInputElement, name: &str, value: &str) -> Result<(), WebError> {
    if input.get_attribute(name).as_deref() != Some(value) {
        input.set_attribute(name, value)?;
    }
    Ok(())
}

/// Replaces the options of a `<select>` with `(value, label)` pairs.
fn fill_select(id: &str, options: &[(String, String)]) -> Result<(), WebError> {
    let select: HtmlSelectElement = element(id)?;
    select.set_inner_html("");
    let document = dom::document()?;
    for (value, label) in options {
        let option: Element = document.create_element("option")?;
        option.set_attribute("value", value)?;
        option.set_text_content(Some(label));
        select.append_child(&option)?;
    }
    Ok(())
}

/// Clears a canvas to white and writes a message in its middle (an empty sentence, d = 1, …).
fn canvas_message(canvas: &HtmlCanvasElement, lines: &[&str]) -> Result<(), WebError> {
    let context = context_2d(canvas)?;
    let (w, h) = (canvas.width() as f64, canvas.height() as f64);
    context.set_fill_style_str("#fff");
    context.fill_rect(0.0, 0.0, w, h);
    context.set_fill_style_str("#333");
    context.set_font("20px sans-serif");
    context.set_text_align("center");
    context.set_text_baseline("middle");
    let top = h / 2.0 - 16.0 * (lines.len() as f64 - 1.0);
    for (k, line) in lines.iter().enumerate() {
        context.fill_text(line, w / 2.0, top + 32.0 * k as f64)?;
    }
    context.set_text_align("start");
    context.set_text_baseline("alphabetic");
    Ok(())
}

/// Milliseconds since `started`, for a panel's `ms`.
fn elapsed(started: f64) -> f64 {
    now_ms() - started
}

/// An index as subscript digits: p₁₀₅.
fn subscript(i: usize) -> String {
    i.to_string()
        .chars()
        .map(|c| match c.to_digit(10) {
            Some(digit) => char::from_u32(0x2080 + digit).unwrap_or(c),
            None => c,
        })
        .collect()
}

/// A number for a readout: 3 significant digits, exponent form when very small or large.
fn format_number(x: f64) -> String {
    if x == 0.0 {
        "0".into()
    } else if !x.is_finite() {
        format!("{x}")
    } else if x.abs() < 1e-3 || x.abs() >= 1e6 {
        format!("{x:.2e}")
    } else if x.abs() < 1.0 {
        format!("{x:.4}")
    } else {
        format!("{x:.3}")
    }
}
