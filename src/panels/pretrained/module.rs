//! The pretrained panel's own wasm module (built from this crate with the `pretrained-module`
//! feature by `crates/pe-lab-pretrained-panel`, imported by the page's `view.rs` the first time
//! the panel is on screen). It fetches the model's files beside the page (`fetch.rs`), counting
//! their bytes; tokenizes the reader's sentence as Hugging Face's tokenizer does; fetches the
//! rows of the word table the sentence needs; runs the model four times (the sentence and its
//! reversal, with the trained table and with its rows set to zero); writes the numbers and the
//! takeaway, and draws the figures. The page renders it through its one message path: this
//! module only asks for a render (`host.wake()`) when bytes or a run arrive.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use pe_lab_minilm::BertConfig;
use wasm_bindgen::prelude::*;
use web_sys::{HtmlCanvasElement, HtmlElement, HtmlInputElement};

use super::figure::{draw_grid, draw_head, head_title};
use super::gpu::{start_gpu, start_runs, GpuEncoder, GpuJob, GpuStage};
use super::layout::GridLayout;
use super::loading::{start_loading, start_words, wake, wake_later, Host, Shared, Stage};
use super::runs::{complete_stats, cut, first_run, gpu_job, gpu_runs, rest_runs, Runs};
use super::takeaway::head_words;
use super::*;
use crate::model::figure_style::{FigureLook, FigureStyle};
use crate::model::messages::{Computed, Training};
use crate::model::present::format_number;
use crate::web::dom;
use crate::web::error::WebError;
use crate::web::surface;

crate::element_table! {
    struct PretrainedDom {
        status: HtmlElement = "pretrained-status",
        takeaway: HtmlElement = "pretrained-takeaway",
        tokens: HtmlElement = "pretrained-tokens",
        heads: HtmlElement = "pretrained-heads",
        grid: HtmlCanvasElement = "pretrained-grid",
        head: HtmlCanvasElement = "pretrained-head",
        switch: HtmlInputElement = "pretrained-ptable",
        definition: HtmlElement = "pretrained-definition",
    }
}

#[wasm_bindgen]
pub struct PretrainedModule {
    host: Rc<Host>,
    shared: Rc<RefCell<Shared>>,
    dom: PretrainedDom,
    scratch: HtmlCanvasElement,
    runs: Option<Runs>,
    stats: PretrainedStats,
    /// The ids and switch asked for by the last render.
    wanted: Option<(Vec<u32>, bool)>,
    /// The enlarged head (chosen by a click or the arrow keys); `None`: the strongest position
    /// head of the sentence.
    chosen: Rc<Cell<Option<(usize, usize)>>>,
    grid: Rc<RefCell<Option<GridLayout>>>,
    /// The stats as the page reads them, made once per change (the weights are thousands of
    /// numbers, and the page asks after every frame).
    stats_js: RefCell<Option<JsValue>>,
    /// The heads outlined in the grid: the last complete sentence's position heads, kept while
    /// a new sentence's other runs are still to come, so that the outlines do not blink.
    marked: Vec<(usize, usize)>,
    /// The ids and switch whose complete stats are published: a render that changes neither
    /// (the chosen head, the theme, bytes of another fetch) keeps them instead of rebuilding
    /// every layer's and head's weights.
    published: Option<(Vec<u32>, bool)>,
    /// Whether the page asks for the WebGPU path ([`PretrainedModule::use_gpu`]).
    gpu: bool,
}

fn js_error(error: WebError) -> JsError {
    JsError::new(&error.to_string())
}

#[wasm_bindgen]
impl PretrainedModule {
    /// Finds the panel's elements and listens to its grid (a click or the arrow keys choose the
    /// enlarged head).
    #[wasm_bindgen(constructor)]
    pub fn new(host: Host) -> Result<PretrainedModule, JsError> {
        crate::web::install_panic_hook();
        let _ = crate::web::language::install_page_catalog::<Computed>();
        if let Some(catalog) = host.catalog() {
            let _ = crate::web::language::install_catalog::<Training>(&catalog);
        }
        let dom = PretrainedDom::mount().map_err(js_error)?;
        // The words of the takeaway, defined where its numbers come from (not in the page's
        // first load).
        dom.definition
            .set_text_content(Some(&crate::training_message!("pretrained-definition")));
        surface::record_design(&dom.grid);
        surface::record_design(&dom.head);
        let module = PretrainedModule {
            host: Rc::new(host),
            shared: Rc::new(RefCell::new(Shared::new())),
            dom,
            scratch: dom::new_canvas().map_err(js_error)?,
            runs: None,
            stats: PretrainedStats::default(),
            wanted: None,
            chosen: Rc::new(Cell::new(None)),
            grid: Rc::new(RefCell::new(None)),
            stats_js: RefCell::new(None),
            published: None,
            marked: Vec::new(),
            gpu: false,
        };
        module.wire().map_err(js_error)?;
        Ok(module)
    }

    /// Whether to run the model on WebGPU (the page computes there); the CPU path otherwise, and
    /// whenever WebGPU fails.
    pub fn use_gpu(&mut self, gpu: bool) {
        self.gpu = gpu;
    }

    /// Computes the numbers of this sentence (on WebGPU after `use_gpu(true)`) and, when `draw`,
    /// its figures, in the page's theme and mode.
    pub fn render(
        &mut self,
        text: &str,
        position_table: bool,
        draw: bool,
        look: u32,
    ) -> Result<(), JsError> {
        let style = FigureStyle::for_look(FigureLook::from_bits(look));
        self.dom.switch.set_checked(position_table);
        self.update(text, position_table).map_err(js_error)?;
        self.write_lines();
        // Where the page's takeaway does not hold, until the model has run on the sentence:
        // what it gives on every sentence of the test corpus long enough to tell (`tests.rs`).
        if !super::view::page_states_takeaway(text, position_table)
            && !matches!(self.stats.status.as_str(), "ready" | "running")
        {
            self.dom
                .takeaway
                .set_text_content(Some(&crate::training_message!(
                    "pretrained-takeaway-before"
                )));
        }
        if draw {
            self.draw(&style).map_err(js_error)?;
        }
        Ok(())
    }

    /// `stats.panels.pretrained`.
    pub fn stats(&self) -> JsValue {
        self.stats_js
            .borrow_mut()
            .get_or_insert_with(|| crate::web::panel::to_js(&self.stats))
            .clone()
    }

    /// Changes whenever something arrived (bytes, the model, the word rows).
    pub fn version(&self) -> f64 {
        f64::from(self.shared.borrow().news)
    }

    /// Whether the numbers of the sentence asked for are still to come.
    pub fn busy(&self) -> bool {
        let shared = self.shared.borrow();
        match &shared.stage {
            Stage::Failed(_) => false,
            Stage::Idle => self.wanted.is_some(),
            Stage::Loading => true,
            Stage::Ready(_) => {
                shared.fetching_words
                    || (shared.words_error.is_none()
                        && self.wanted.as_ref().is_some_and(|(ids, _)| {
                            !self
                                .runs
                                .as_ref()
                                .is_some_and(|runs| &runs.ids == ids && runs.rest.is_some())
                        }))
            }
        }
    }
}

impl PretrainedModule {
    fn wire(&self) -> Result<(), WebError> {
        let (grid, chosen, host, shared) = (
            self.grid.clone(),
            self.chosen.clone(),
            self.host.clone(),
            self.shared.clone(),
        );
        let canvas = self.dom.grid.clone();
        let pick = move |choice: Option<(usize, usize)>| {
            if let Some(choice) = choice {
                chosen.set(Some(choice));
                wake(&host, &shared, true);
            }
        };
        let pick_click = pick.clone();
        dom::listen(&self.dom.grid, "click", move |event| {
            let Some(event) = event.dyn_ref::<web_sys::MouseEvent>() else {
                return;
            };
            let (x, y) = surface::css_to_logical(
                &canvas,
                f64::from(event.offset_x()),
                f64::from(event.offset_y()),
            );
            pick_click(grid.borrow().as_ref().and_then(|grid| grid.hit(x, y)));
        })?;
        let (grid, chosen) = (self.grid.clone(), self.chosen.clone());
        dom::listen(&self.dom.grid, "keydown", move |event| {
            let Some(event) = event.dyn_ref::<web_sys::KeyboardEvent>() else {
                return;
            };
            let Some((layers, heads)) = grid.borrow().as_ref().map(|g| (g.layers, g.heads)) else {
                return;
            };
            let (layer, head) = chosen.get().unwrap_or((0, 0));
            let next = match event.key().as_str() {
                "ArrowLeft" => (layer, head.saturating_sub(1)),
                "ArrowRight" => (layer, (head + 1).min(heads - 1)),
                "ArrowUp" => (layer.saturating_sub(1), head),
                "ArrowDown" => ((layer + 1).min(layers - 1), head),
                _ => return,
            };
            event.prevent_default();
            pick(Some(next));
        })
    }

    fn start_loading(&self) {
        start_loading(self.host.clone(), self.shared.clone());
    }

    fn start_words(&self, chunks: Vec<u32>) {
        start_words(self.host.clone(), self.shared.clone(), chunks);
    }

    /// Loads what is missing and runs the model when the sentence changed: on the CPU the shown
    /// run at once and the other three in a later task; on WebGPU (`use_gpu`) all four in one
    /// job.
    fn update(&mut self, text: &str, position_table: bool) -> Result<(), WebError> {
        let gpu = self.gpu;
        if matches!(self.shared.borrow().stage, Stage::Idle) {
            self.start_loading();
        }
        // Borrowed from a clone of the Rc, not from `self`, which is written below.
        let shared_cell = self.shared.clone();
        let shared = shared_cell.borrow();
        if self.stats.status != "ready"
            || self.stats.position_table != position_table
            || self.stats.bytes_loaded != shared.bytes_loaded.get()
        {
            self.stats_js.replace(None);
        }
        self.stats.bytes_loaded = shared.bytes_loaded.get();
        self.stats.bytes_total = shared.bytes_total;
        self.stats.model = MODEL_NAME.into();
        self.stats.position_table = position_table;
        let model = match &shared.stage {
            Stage::Idle | Stage::Loading => {
                self.set_status("loading", None);
                self.wanted = Some((Vec::new(), position_table));
                return Ok(());
            }
            Stage::Failed(message) => {
                self.set_status("failed", Some(message.clone()));
                return Ok(());
            }
            Stage::Ready(model) => model,
        };
        let encoding = model.tokenizer.encode(text);
        let (tokens, ids, truncated) = cut(encoding.tokens, encoding.ids);
        self.wanted = Some((ids.clone(), position_table));
        if let Some(message) = &shared.words_error {
            self.set_status("failed", Some(message.clone()));
            return Ok(());
        }
        let missing = model.model.missing_word_chunks(&ids);
        if !missing.is_empty() {
            self.set_status("loading", None);
            let fetching = shared.fetching_words;
            drop(shared);
            if !fetching {
                self.start_words(missing);
            }
            return Ok(());
        }
        // What the stats take from the load, read while it is borrowed (the GPU's turn lets go).
        let bytes = (shared.bytes_loaded.get(), shared.bytes_total);
        let config = model.config.clone();
        let complete = self
            .runs
            .as_ref()
            .is_some_and(|runs| runs.ids == ids && runs.rest.is_some());
        self.stats.gpu_error = match &shared.gpu {
            GpuStage::Failed(message) if gpu => Some(message.clone()),
            _ => None,
        };
        if gpu && !complete && !matches!(shared.gpu, GpuStage::Failed(_)) {
            let job = match &shared.gpu {
                GpuStage::Ready(encoder)
                    if !shared.gpu_running
                        && !shared.gpu_runs.as_ref().is_some_and(|runs| runs.ids == ids) =>
                {
                    Some((
                        encoder.clone(),
                        gpu_job(&model.model, (&ids, &tokens), position_table)?,
                    ))
                }
                _ => None,
            };
            let start = matches!(shared.gpu, GpuStage::Off);
            drop(shared);
            if !self.take_gpu_runs((&ids, &tokens), start, job) {
                return Ok(());
            }
        } else if !self.runs.as_ref().is_some_and(|runs| runs.ids == ids) {
            // A new sentence: its shown run now, drawn by this render; the other three in the
            // render that a wake in a later task asks for, once the browser has painted.
            self.runs = Some(first_run(&model.model, &ids, position_table)?);
            self.chosen.set(None);
            wake_later(self.host.clone(), self.shared.clone());
        } else if let Some(runs) = self.runs.as_mut().filter(|runs| runs.rest.is_none()) {
            runs.rest = Some(rest_runs(&model.model, runs, &tokens)?);
        } else if self.published.as_ref() == Some(&(ids.clone(), position_table)) {
            self.stats.status = "ready".into();
            return Ok(());
        }
        self.publish(&config, (tokens, ids, truncated), position_table, bytes);
        Ok(())
    }

    /// The GPU's runs of `ids` when they are in (then kept as the sentence's runs: `true`); else
    /// starts the device (`start`) or the sentence's `job`, and says the model is computing.
    fn take_gpu_runs(
        &mut self,
        (ids, tokens): (&[u32], &[String]),
        start: bool,
        job: Option<(Rc<GpuEncoder>, GpuJob)>,
    ) -> bool {
        let finished = {
            let mut shared = self.shared.borrow_mut();
            match shared.gpu_runs.take() {
                Some(runs) if runs.ids == ids => Some(runs),
                other => {
                    shared.gpu_runs = other;
                    None
                }
            }
        };
        let Some(finished) = finished else {
            if start {
                start_gpu(self.host.clone(), self.shared.clone());
            } else if let Some((encoder, job)) = job {
                start_runs(self.host.clone(), self.shared.clone(), encoder, job);
            }
            self.set_status("computing", None);
            return false;
        };
        self.runs = Some(gpu_runs(finished, tokens));
        self.chosen.set(None);
        true
    }

    fn set_status(&mut self, status: &str, error: Option<String>) {
        self.stats.status = status.into();
        if error.is_some() {
            self.stats.error = error;
        }
        self.stats_js.replace(None);
    }

    /// The stats of the sentence from its runs so far (the shown one, or all four).
    fn publish(
        &mut self,
        config: &BertConfig,
        (tokens, ids, truncated): (Vec<String>, Vec<u32>, bool),
        position_table: bool,
        (bytes_loaded, bytes_total): (f64, f64),
    ) {
        let Some(runs) = &self.runs else {
            return;
        };
        let Some(shown) = runs.of(position_table) else {
            // The switch moved before the other runs: they come with the wake.
            return;
        };
        let common = PretrainedStats {
            model: MODEL_NAME.into(),
            layers: config.num_hidden_layers,
            heads: config.num_attention_heads,
            d: config.hidden_size,
            truncated,
            attention: nested(shown),
            position_table,
            head_offsets: head_offsets(shown),
            bytes_loaded,
            bytes_total,
            compute: runs.compute.into(),
            gpu_error: self.stats.gpu_error.clone(),
            ..PretrainedStats::default()
        };
        let (Some(rest), Some(with_table), Some(without_table)) =
            (&runs.rest, runs.of(true), runs.of(false))
        else {
            // Only the shown run so far: its maps and offsets, the sentence's comparison to come.
            self.stats = PretrainedStats {
                tokens,
                ids,
                status: "running".into(),
                run_ms: runs.first_ms,
                ..common
            };
            self.stats_js.replace(None);
            return;
        };
        let stats = complete_stats(
            PretrainedStats {
                tokens,
                ids,
                ..common
            },
            (with_table, without_table),
            rest,
            runs.first_ms,
        );
        if stats.status != self.stats.status || stats.ids != self.stats.ids {
            self.stats_js.replace(None);
        }
        self.published = Some((stats.ids.clone(), position_table));
        self.marked = stats
            .position_heads
            .iter()
            .map(|h| (h.layer, h.head))
            .collect();
        self.stats = stats;
    }

    /// The status line, the takeaway, the tokens and the list of position heads.
    fn write_lines(&self) {
        let s = &self.stats;
        let megabytes = |bytes: f64| format!("{:.1}", bytes / 1e6);
        let status = match s.status.as_str() {
            "failed" => crate::training_message!(
                "pretrained-status-failed",
                error = s.error.clone().unwrap_or_default()
            ),
            "ready" if s.compute == "webgpu" => crate::training_message!(
                "pretrained-status-ready-gpu",
                tokens = s.tokens.len(),
                loaded = megabytes(s.bytes_loaded),
                ms = format!("{:.0}", s.run_ms)
            ),
            "ready" => {
                let ready = crate::training_message!(
                    "pretrained-status-ready",
                    tokens = s.tokens.len(),
                    loaded = megabytes(s.bytes_loaded),
                    ms = format!("{:.0}", s.run_ms)
                );
                match &s.gpu_error {
                    Some(error) => format!(
                        "{ready} {}",
                        crate::training_message!("pretrained-gpu-failed", error = error.clone())
                    ),
                    None => ready,
                }
            }
            "computing" => crate::training_message!("pretrained-status-computing"),
            // The new sentence's maps are drawn; its lines follow with its other runs.
            "running" => String::new(),
            _ => crate::training_message!(
                "pretrained-status-loading",
                loaded = megabytes(s.bytes_loaded),
                total = megabytes(s.bytes_total.max(s.bytes_loaded))
            ),
        };
        if !status.is_empty() {
            self.dom.status.set_text_content(Some(&status));
        }
        if !matches!(s.status.as_str(), "ready" | "running") {
            return;
        }
        let mut tokens = s.tokens.join(" · ");
        if s.truncated {
            tokens.push(' ');
            tokens.push_str(&crate::training_message!(
                "pretrained-truncated",
                limit = MAX_TOKENS
            ));
        }
        self.dom.tokens.set_text_content(Some(&tokens));
        if s.status != "ready" {
            return;
        }
        self.dom.takeaway.set_text_content(Some(&s.takeaway));
        let listed: Vec<String> = s.position_heads.iter().map(head_words).collect();
        let heads = crate::training_message!(
            "pretrained-heads-list",
            count = listed.len(),
            heads = listed.join("; "),
            without = format_number(s.permutation_gap_without_table),
            with = format_number(s.permutation_gap_with_table)
        );
        self.dom.heads.set_text_content(Some(&heads));
    }

    fn draw(&self, style: &FigureStyle) -> Result<(), WebError> {
        let Some(runs) = &self.runs else {
            return Ok(());
        };
        if !matches!(self.stats.status.as_str(), "ready" | "running") {
            return Ok(());
        }
        let Some(shown) = runs.of(self.stats.position_table) else {
            return Ok(());
        };
        let chosen = self
            .chosen
            .get()
            .or_else(|| self.marked.first().copied())
            .unwrap_or((0, 0));
        let marked = |layer: usize, head: usize| self.marked.contains(&(layer, head));
        let grid = draw_grid(
            &self.dom.grid,
            &self.scratch,
            style,
            shown.view(),
            &marked,
            chosen,
        )?;
        *self.grid.borrow_mut() = Some(grid);
        let (layer, head) = chosen;
        let map = shown.slice(ndarray::s![layer, head, .., ..]);
        let offset = dominant_offset(map);
        draw_head(
            &self.dom.head,
            &self.scratch,
            style,
            map,
            &self.stats.tokens,
            &head_title(layer, head, &offset),
        )
    }
}
