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

use ndarray::Array4;
use pe_lab_minilm::{MiniLm, PositionTable};
use wasm_bindgen::prelude::*;
use web_sys::{HtmlCanvasElement, HtmlElement, HtmlInputElement};

use super::loading::{model_error, start_loading, start_words, wake, Host, Shared, Stage};
use super::figure::{draw_grid, draw_head, head_title};
use super::layout::GridLayout;
use super::takeaway::{takeaway, TakeawayInputs};
use super::*;
use crate::model::figure_style::{FigureLook, FigureStyle};
use crate::model::messages::{Computed, Training};
use crate::model::present::format_number;
use crate::web::dom::{self, now_ms};
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
    }
}


/// The four runs of one sentence.
struct Runs {
    ids: Vec<u32>,
    with_table: Array4<f32>,
    without_table: Array4<f32>,
    gap_without_table: f64,
    gap_with_table: f64,
    reversal_moves: bool,
    ms: f64,
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
}

fn js_error(error: WebError) -> JsError {
    JsError::new(&error.to_string())
}


/// The sentence's ids, cut to [`MAX_TOKENS`] with its `[SEP]` kept.
fn cut(mut tokens: Vec<String>, mut ids: Vec<u32>) -> (Vec<String>, Vec<u32>, bool) {
    let truncated = ids.len() > MAX_TOKENS;
    if truncated {
        let (last_token, last_id) = (tokens.pop(), ids.pop());
        tokens.truncate(MAX_TOKENS - 1);
        ids.truncate(MAX_TOKENS - 1);
        tokens.extend(last_token);
        ids.extend(last_id);
    }
    (tokens, ids, truncated)
}

fn run_all(model: &MiniLm, ids: &[u32], tokens: &[String]) -> Result<Runs, WebError> {
    let start = now_ms();
    let run = |ids: &[u32], table| {
        model
            .forward(ids, table)
            .map(|output| output.attention)
            .map_err(model_error)
    };
    let with_table = run(ids, PositionTable::Learned)?;
    let without_table = run(ids, PositionTable::Zeroed)?;
    let permutation = reversal(tokens);
    let reversal_moves = permutation.iter().enumerate().any(|(i, &p)| i != p);
    let (gap_without_table, gap_with_table) = if reversal_moves {
        let reversed: Vec<u32> = permutation.iter().map(|&i| ids[i]).collect();
        (
            permutation_gap(
                &without_table,
                &run(&reversed, PositionTable::Zeroed)?,
                &permutation,
            ),
            permutation_gap(
                &with_table,
                &run(&reversed, PositionTable::Learned)?,
                &permutation,
            ),
        )
    } else {
        (0.0, 0.0)
    };
    Ok(Runs {
        ids: ids.to_vec(),
        with_table,
        without_table,
        gap_without_table,
        gap_with_table,
        reversal_moves,
        ms: now_ms() - start,
    })
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
        };
        module.wire().map_err(js_error)?;
        Ok(module)
    }

    /// Computes the numbers of this sentence and, when `draw`, its figures, in the page's theme
    /// and mode.
    pub fn render(
        &mut self,
        text: &str,
        position_table: bool,
        draw: bool,
        dark: bool,
        projector: bool,
        page_px: u16,
    ) -> Result<(), JsError> {
        let style = FigureStyle::for_look(FigureLook {
            dark,
            projector,
            page_px,
        });
        self.dom.switch.set_checked(position_table);
        self.update(text, position_table).map_err(js_error)?;
        self.write_lines();
        if draw {
            self.draw(&style).map_err(js_error)?;
        }
        Ok(())
    }

    /// `stats.panels.pretrained`.
    pub fn stats(&self) -> JsValue {
        crate::web::panel::to_js(&self.stats)
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
                            !self.runs.as_ref().is_some_and(|runs| &runs.ids == ids)
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

    /// Loads what is missing and runs the model when the sentence changed.
    fn update(&mut self, text: &str, position_table: bool) -> Result<(), WebError> {
        if matches!(self.shared.borrow().stage, Stage::Idle) {
            self.start_loading();
        }
        let shared = self.shared.borrow();
        self.stats.bytes_loaded = shared.bytes_loaded.get();
        self.stats.bytes_total = shared.bytes_total;
        self.stats.model = MODEL_NAME.into();
        self.stats.position_table = position_table;
        let model = match &shared.stage {
            Stage::Idle | Stage::Loading => {
                self.stats.status = "loading".into();
                self.wanted = Some((Vec::new(), position_table));
                return Ok(());
            }
            Stage::Failed(message) => {
                self.stats.status = "failed".into();
                self.stats.error = Some(message.clone());
                return Ok(());
            }
            Stage::Ready(model) => model,
        };
        let encoding = model.tokenizer.encode(text);
        let (tokens, ids, truncated) = cut(encoding.tokens, encoding.ids);
        self.wanted = Some((ids.clone(), position_table));
        if let Some(message) = &shared.words_error {
            self.stats.status = "failed".into();
            self.stats.error = Some(message.clone());
            return Ok(());
        }
        let missing = model.model.missing_word_chunks(&ids);
        if !missing.is_empty() {
            self.stats.status = "loading".into();
            let fetching = shared.fetching_words;
            drop(shared);
            if !fetching {
                self.start_words(missing);
            }
            return Ok(());
        }
        if !self.runs.as_ref().is_some_and(|runs| runs.ids == ids) {
            self.runs = Some(run_all(&model.model, &ids, &tokens)?);
            self.chosen.set(None);
        }
        let Some(runs) = &self.runs else {
            return Ok(());
        };
        let shown = if position_table {
            &runs.with_table
        } else {
            &runs.without_table
        };
        let heads = position_heads(&runs.with_table, &runs.without_table);
        let token_count = ids.len();
        self.stats = PretrainedStats {
            model: MODEL_NAME.into(),
            layers: model.config.num_hidden_layers,
            heads: model.config.num_attention_heads,
            d: model.config.hidden_size,
            tokens,
            ids,
            truncated,
            attention: nested(shown),
            position_table,
            head_offsets: head_offsets(shown),
            lost_patterns: heads.iter().filter(|h| h.lost()).count(),
            takeaway: takeaway(&TakeawayInputs {
                position_table,
                total_heads: model.config.num_hidden_layers * model.config.num_attention_heads,
                tokens: token_count,
                position_heads: &heads,
                gap_without_table: runs.gap_without_table,
                gap_with_table: runs.gap_with_table,
                reversal_moves: runs.reversal_moves,
            }),
            position_heads: heads,
            permutation_gap_without_table: runs.gap_without_table,
            permutation_gap_with_table: runs.gap_with_table,
            bytes_loaded: shared.bytes_loaded.get(),
            bytes_total: shared.bytes_total,
            status: "ready".into(),
            error: None,
            run_ms: runs.ms,
        };
        Ok(())
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
            "ready" => crate::training_message!(
                "pretrained-status-ready",
                tokens = s.tokens.len(),
                loaded = megabytes(s.bytes_loaded),
                ms = format!("{:.0}", s.run_ms)
            ),
            _ => crate::training_message!(
                "pretrained-status-loading",
                loaded = megabytes(s.bytes_loaded),
                total = megabytes(s.bytes_total.max(s.bytes_loaded))
            ),
        };
        self.dom.status.set_text_content(Some(&status));
        if s.status != "ready" {
            return;
        }
        self.dom.takeaway.set_text_content(Some(&s.takeaway));
        let mut tokens = s.tokens.join(" · ");
        if s.truncated {
            tokens.push(' ');
            tokens.push_str(&crate::training_message!(
                "pretrained-truncated",
                limit = MAX_TOKENS
            ));
        }
        self.dom.tokens.set_text_content(Some(&tokens));
        let listed: Vec<String> = s
            .position_heads
            .iter()
            .map(|head| {
                crate::training_message!(
                    "pretrained-head",
                    layer = head.layer,
                    head = head.head,
                    offset = offset_name(head.offset),
                    with = format!("{:.2}", head.with_table),
                    without = format!("{:.2}", head.without_table)
                )
            })
            .collect();
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
        if self.stats.status != "ready" {
            return Ok(());
        }
        let shown = if self.stats.position_table {
            &runs.with_table
        } else {
            &runs.without_table
        };
        let heads = &self.stats.position_heads;
        let chosen = self
            .chosen
            .get()
            .or_else(|| heads.first().map(|h| (h.layer, h.head)))
            .unwrap_or((0, 0));
        let marked =
            |layer: usize, head: usize| heads.iter().any(|h| (h.layer, h.head) == (layer, head));
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
