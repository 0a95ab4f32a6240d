//! The learned panel's trained table, in the pretrained panel's wasm module (the same files,
//! `crates/pe-lab-pretrained-panel`, which the browser fetches once for both panels): imported by
//! the learned view the first time the panel is on screen. It fetches MiniLM's position table
//! (`minilm/embeddings.safetensors`, float16, 399,744 bytes: the model's shape is built in, and
//! the tests hold it to its config.json), measures it against the sinusoid of the page's base
//! (`trained.rs`), writes the takeaway and draws the figure: the two similarity maps and the mean
//! similarity against the offset. The page renders it through its one message path: this module
//! only asks for a render (`host.wake()`) when its bytes arrive.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use pe_lab_minilm::page_assets::{read_position_table, EMBEDDINGS_FILE};
use pe_lab_minilm::BertConfig;
use wasm_bindgen::prelude::*;
use web_sys::{HtmlCanvasElement, HtmlElement};

use super::trained::{stats, Similarity, TrainedLayout, TrainedStats};
use crate::math::colormap::diverging_bar_rgba;
use crate::model::figure_style::{FigureLook, FigureStyle};
use crate::model::messages::{Computed, Training};
use crate::model::plot::PixelRect;
use crate::panels::pretrained::fetch::fetch_counted;
use crate::panels::pretrained::MODEL_NAME;
use crate::web::dom::{self, now_ms};
use crate::web::draw::heatmap::{paint_diverging, paint_image, RgbaImage};
use crate::web::error::WebError;
use crate::web::surface;

#[wasm_bindgen]
extern "C" {
    /// The page's side (the learned view): `wake()` asks it to render the panel again.
    pub type TableHost;
    #[wasm_bindgen(method)]
    fn wake(this: &TableHost);
    /// The lazily loaded panels' catalog in the page's language; absent on the English page.
    #[wasm_bindgen(method, getter)]
    fn catalog(this: &TableHost) -> Option<String>;
}

crate::element_table! {
    struct TableDom {
        figure: HtmlCanvasElement = "learned-trained",
        takeaway: HtmlElement = "learned-trained-takeaway",
    }
}

/// The table, measured.
struct Table {
    similarity: Similarity,
    values: Vec<f32>,
    columns: usize,
}

enum Stage {
    Idle,
    Loading,
    Ready(Box<Table>),
    Failed(String),
}

/// The sinusoid's similarity for one base.
struct Sinusoid {
    base: f64,
    similarity: Similarity,
    values: Vec<f32>,
}

#[wasm_bindgen]
pub struct TrainedTableModule {
    host: Rc<TableHost>,
    stage: Rc<RefCell<Stage>>,
    bytes: Rc<Cell<f64>>,
    news: Rc<Cell<u32>>,
    dom: TableDom,
    scratch: HtmlCanvasElement,
    sinusoid: Option<Sinusoid>,
    stats: TrainedStats,
    /// Whether the page still states the default view's takeaway (the English page, the default
    /// base), which stands while the table loads instead of a progress line.
    prefilled: bool,
}

fn js_error(error: WebError) -> JsError {
    JsError::new(&error.to_string())
}

async fn load(bytes: Rc<Cell<f64>>, arrived: Rc<dyn Fn()>) -> Result<Table, WebError> {
    let file = fetch_counted(EMBEDDINGS_FILE, bytes, arrived).await?;
    let config = BertConfig::all_minilm_l6_v2();
    let table = read_position_table(&file, &config)
        .map_err(|error| WebError::Js(format!("{EMBEDDINGS_FILE}: {error}")))?;
    let similarity = Similarity::of(table.view());
    Ok(Table {
        values: similarity.values(),
        similarity,
        columns: table.ncols(),
    })
}

#[wasm_bindgen]
impl TrainedTableModule {
    #[wasm_bindgen(constructor)]
    pub fn new(host: TableHost) -> Result<TrainedTableModule, JsError> {
        crate::web::install_panic_hook();
        let _ = crate::web::language::install_page_catalog::<Computed>();
        if let Some(catalog) = host.catalog() {
            let _ = crate::web::language::install_catalog::<Training>(&catalog);
        }
        let dom = TableDom::mount().map_err(js_error)?;
        surface::record_design(&dom.figure);
        let prefilled = dom.takeaway.text_content().is_some_and(|t| !t.is_empty());
        Ok(TrainedTableModule {
            host: Rc::new(host),
            stage: Rc::new(RefCell::new(Stage::Idle)),
            bytes: Rc::new(Cell::new(0.0)),
            news: Rc::new(Cell::new(0)),
            dom,
            scratch: dom::new_canvas().map_err(js_error)?,
            sinusoid: None,
            stats: TrainedStats::default(),
            prefilled,
        })
    }

    /// Fetches the table the first time, measures it against the sinusoid of `base`, writes the
    /// takeaway and, when `draw`, draws the figure in the page's theme and mode.
    pub fn render(&mut self, base: f64, draw: bool, look: u32) -> Result<(), JsError> {
        if matches!(*self.stage.borrow(), Stage::Idle) {
            self.start_loading();
        }
        self.update(base);
        self.prefilled &= base == crate::model::params::DEFAULT_BASE;
        let text = match self.stats.status.as_str() {
            "ready" => Some(self.stats.takeaway.clone()),
            "failed" => Some(crate::training_message!(
                "learned-trained-status-failed",
                error = self.stats.error.clone().unwrap_or_default()
            )),
            // The page's takeaway is this table's at the default base: it stands while the
            // table loads.
            _ if self.prefilled => None,
            _ => Some(crate::training_message!(
                "learned-trained-status-loading",
                loaded = format!("{:.0}", self.stats.bytes_loaded / 1e3)
            )),
        };
        if let Some(text) = text {
            self.prefilled = false;
            dom::text(&self.dom.takeaway, &text);
        }
        if draw {
            let style = FigureStyle::for_look(FigureLook::from_bits(look));
            self.draw(&style).map_err(js_error)?;
        }
        Ok(())
    }

    /// `stats.panels.learned.trained`.
    pub fn stats(&self) -> JsValue {
        crate::web::panel::to_js(&self.stats)
    }

    /// Changes whenever something arrived (bytes, the table).
    pub fn version(&self) -> f64 {
        f64::from(self.news.get())
    }

    /// Whether the table is still to come.
    pub fn busy(&self) -> bool {
        matches!(*self.stage.borrow(), Stage::Loading)
    }
}

impl TrainedTableModule {
    fn start_loading(&self) {
        *self.stage.borrow_mut() = Stage::Loading;
        let (host, stage, news) = (self.host.clone(), self.stage.clone(), self.news.clone());
        let last_wake = Rc::new(Cell::new(f64::NEG_INFINITY));
        let arrived: Rc<dyn Fn()> = {
            let (host, news) = (host.clone(), news.clone());
            Rc::new(move || {
                news.set(news.get().wrapping_add(1));
                // A render per piece would be hundreds: one every 150 ms shows the bytes.
                if now_ms() - last_wake.get() >= 150.0 {
                    last_wake.set(now_ms());
                    host.wake();
                }
            })
        };
        let bytes = self.bytes.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let loaded = load(bytes, arrived).await;
            *stage.borrow_mut() = match loaded {
                Ok(table) => Stage::Ready(Box::new(table)),
                Err(error) => Stage::Failed(error.to_string()),
            };
            news.set(news.get().wrapping_add(1));
            host.wake();
        });
    }

    /// The stats for the stage the load is at, and the sinusoid of `base` once the table is in.
    fn update(&mut self, base: f64) {
        let bytes_loaded = self.bytes.get();
        let stage = self.stage.borrow();
        let Stage::Ready(table) = &*stage else {
            let (status, error) = match &*stage {
                Stage::Failed(message) => ("failed", Some(message.clone())),
                _ => ("loading", None),
            };
            self.stats = TrainedStats {
                model: MODEL_NAME.into(),
                status: status.into(),
                error,
                bytes_loaded,
                ..TrainedStats::default()
            };
            return;
        };
        let started = now_ms();
        if self.sinusoid.as_ref().map(|s| s.base) != Some(base) {
            let similarity =
                Similarity::of_sinusoid(table.similarity.cosine.nrows(), table.columns, base);
            self.sinusoid = Some(Sinusoid {
                base,
                values: similarity.values(),
                similarity,
            });
        }
        if let Some(sinusoid) = &self.sinusoid {
            let computed = self.stats.status == "ready" && self.stats.base == Some(base);
            if !computed {
                self.stats = TrainedStats {
                    bytes_loaded,
                    ms: now_ms() - started,
                    ..stats(&table.similarity, &sinusoid.similarity, table.columns, base)
                };
            }
        }
    }

    fn draw(&self, style: &FigureStyle) -> Result<(), WebError> {
        let stage = self.stage.borrow();
        let (Stage::Ready(table), Some(sinusoid)) = (&*stage, &self.sinusoid) else {
            return Ok(());
        };
        let canvas = &self.dom.figure;
        let (w, h) = surface::fit(canvas)?;
        let context = surface::context(canvas)?;
        context.set_fill_style_str(&style.background.css());
        context.fill_rect(0.0, 0.0, w, h);
        let layout = TrainedLayout::fit(w, h, style.tick_px, style.title_px);
        let rows = table.similarity.cosine.nrows();
        let d = table.columns;
        let maps = [
            (
                &table.values,
                layout.trained,
                crate::training_message!("learned-trained-map-trained"),
            ),
            (
                &sinusoid.values,
                layout.sinusoid,
                crate::training_message!("learned-trained-map-sinusoid", d = d),
            ),
        ];
        for (k, (values, rect, title)) in maps.iter().enumerate() {
            paint_diverging(
                canvas,
                &self.scratch,
                values,
                (rows, rows),
                (-1.0, 1.0),
                *rect,
            )?;
            let context = surface::context(canvas)?;
            let x = if k == 0 { 2.0 } else { rect.x0 };
            write_title(&context, style, title, x, rect.y0, rect.x1 - x)?;
            map_axes(&context, style, *rect, rows, k == 0)?;
        }
        // The colour bar: 1 at the top, −1 at the bottom.
        let bar = layout.bar;
        let height = bar.height().max(2.0) as usize;
        let pixels = diverging_bar_rgba(height, -1.0, 1.0);
        paint_image(
            canvas,
            &self.scratch,
            &RgbaImage {
                width: 1,
                height,
                pixels: &pixels,
            },
            bar,
        )?;
        let context = surface::context(canvas)?;
        context.set_font(&format!("{}px {}", style.tick_px, style.font));
        context.set_fill_style_str(&style.ink.css());
        context.set_text_align("left");
        context.set_text_baseline("middle");
        for (value, y) in [
            ("1", bar.y0),
            ("0", (bar.y0 + bar.y1) / 2.0),
            ("−1", bar.y1),
        ] {
            context.fill_text(value, bar.x1 + 3.0, y)?;
        }
        let curves = [
            (
                &table.similarity.mean_at_offset,
                style.series(0),
                crate::training_message!("learned-trained-curve-trained"),
            ),
            (
                &sinusoid.similarity.mean_at_offset,
                style.series(1),
                crate::training_message!("learned-trained-curve-sinusoid", d = d),
            ),
        ];
        draw_curves(&context, style, layout.curve, rows, &curves)
    }
}

fn write_title(
    context: &web_sys::CanvasRenderingContext2d,
    style: &FigureStyle,
    title: &str,
    x: f64,
    map_top: f64,
    room: f64,
) -> Result<(), WebError> {
    // The title's type, smaller where the figure is narrow (a phone).
    let mut px = style.title_px;
    loop {
        context.set_font(&format!("{px}px {}", style.font));
        if context.measure_text(title)?.width() <= room || px <= style.tick_px * 0.75 {
            break;
        }
        px = (px * 0.9).floor();
    }
    context.set_fill_style_str(&style.ink.css());
    context.set_text_align("left");
    context.set_text_baseline("alphabetic");
    context.fill_text(title, x, map_top - style.title_px * 0.55)?;
    Ok(())
}

/// A similarity map's ticks (0, the middle and the last position) and axis titles; the position
/// axis on the left only for the first map (`first`), which the second shares.
fn map_axes(
    context: &web_sys::CanvasRenderingContext2d,
    style: &FigureStyle,
    rect: PixelRect,
    rows: usize,
    first: bool,
) -> Result<(), WebError> {
    let last = rows.saturating_sub(1);
    let cell = rect.width() / rows.max(1) as f64;
    context.set_font(&format!("{}px {}", style.tick_px, style.font));
    context.set_fill_style_str(&style.muted.css());
    let ticks = [0, last / 2 + 1, last];
    context.set_text_align("right");
    context.set_text_baseline("middle");
    for tick in ticks.into_iter().filter(|_| first) {
        let y = (rect.y0 + (tick as f64 + 0.5) * cell).clamp(rect.y0 + 4.0, rect.y1 - 4.0);
        context.fill_text(&tick.to_string(), rect.x0 - 3.0, y)?;
    }
    context.set_text_baseline("top");
    for (k, tick) in ticks.into_iter().enumerate() {
        context.set_text_align(["left", "center", "right"][k]);
        let x = rect.x0 + (tick as f64 + 0.5) * cell;
        context.fill_text(&tick.to_string(), x.clamp(rect.x0, rect.x1), rect.y1 + 3.0)?;
    }
    context.set_fill_style_str(&style.ink.css());
    context.set_text_align("center");
    context.fill_text(
        &crate::training_message!("learned-trained-axis-j"),
        (rect.x0 + rect.x1) / 2.0,
        rect.y1 + style.tick_px * 1.4,
    )?;
    if first {
        context.save();
        context.translate(rect.x0 - style.tick_px * 2.6, (rect.y0 + rect.y1) / 2.0)?;
        context.rotate(-std::f64::consts::FRAC_PI_2)?;
        context.set_text_baseline("bottom");
        context.fill_text(
            &crate::training_message!("learned-trained-axis-i"),
            0.0,
            0.0,
        )?;
        context.restore();
    }
    Ok(())
}

/// The mean similarity against the offset k = 1 … rows − 1, one line per table, with its axes, a
/// line at 0 and the legend above.
fn draw_curves(
    context: &web_sys::CanvasRenderingContext2d,
    style: &FigureStyle,
    rect: PixelRect,
    rows: usize,
    curves: &[(&Vec<f64>, crate::model::figure_style::Rgb, String)],
) -> Result<(), WebError> {
    let last = rows.saturating_sub(1).max(1) as f64;
    let low = curves
        .iter()
        .flat_map(|(values, _, _)| values.iter().skip(1).copied())
        .fold(0.0f64, f64::min);
    let low = ((low * 10.0).floor() / 10.0).min(-0.1);
    let x = |k: f64| rect.x0 + (k / last) * rect.width();
    let y = |v: f64| rect.y1 - (v - low) / (1.0 - low) * rect.height();
    context.set_line_width(style.axis_px);
    context.set_stroke_style_str(&style.grid.css());
    context.set_font(&format!("{}px {}", style.tick_px, style.font));
    context.set_fill_style_str(&style.muted.css());
    context.set_text_align("right");
    context.set_text_baseline("middle");
    for v in [0.0, 0.5, 1.0] {
        context.begin_path();
        context.move_to(rect.x0, y(v));
        context.line_to(rect.x1, y(v));
        context.stroke();
        context.fill_text(&format!("{v}"), rect.x0 - 4.0, y(v))?;
    }
    context.set_text_align("center");
    context.set_text_baseline("top");
    let step = if rect.width() < 300.0 { 200 } else { 100 };
    for k in (0..rows).step_by(step) {
        context.fill_text(&k.to_string(), x(k as f64), rect.y1 + 3.0)?;
    }
    context.set_stroke_style_str(&style.frame.css());
    context.stroke_rect(rect.x0, rect.y0, rect.width(), rect.height());
    context.set_line_width(style.line_px);
    for (values, colour, _) in curves {
        context.set_stroke_style_str(&colour.css());
        context.begin_path();
        for (k, &v) in values.iter().enumerate().skip(1) {
            if k == 1 {
                context.move_to(x(k as f64), y(v));
            } else {
                context.line_to(x(k as f64), y(v));
            }
        }
        context.stroke();
    }
    // The axis titles and the legend (a short line of each colour and its name) above the plot.
    context.set_fill_style_str(&style.ink.css());
    context.fill_text(
        &crate::training_message!("learned-trained-axis-offset"),
        (rect.x0 + rect.x1) / 2.0,
        rect.y1 + style.tick_px * 1.4,
    )?;
    context.save();
    context.translate(rect.x0 - style.tick_px * 2.6, (rect.y0 + rect.y1) / 2.0)?;
    context.rotate(-std::f64::consts::FRAC_PI_2)?;
    context.set_text_baseline("bottom");
    context.fill_text(
        &crate::training_message!("learned-trained-axis-mean"),
        0.0,
        0.0,
    )?;
    context.restore();
    // The legend above the plot: a short line of each colour and its name, in smaller type where
    // the plot is narrower than it (a phone).
    context.set_text_align("left");
    context.set_text_baseline("alphabetic");
    let mut px = style.legend_px;
    let (mark, gap) = loop {
        context.set_font(&format!("{px}px {}", style.font));
        let (mark, gap) = (px * 1.5, px * 0.4);
        let mut width = 0.0;
        for (_, _, label) in curves {
            width += mark + gap + context.measure_text(label)?.width() + px;
        }
        if width <= rect.width() || px <= style.tick_px * 0.7 {
            break (mark, gap);
        }
        px = (px * 0.9).floor();
    };
    let legend_y = rect.y0 - style.tick_px * 0.6;
    let mut at = rect.x0;
    for (_, colour, label) in curves {
        context.set_stroke_style_str(&colour.css());
        context.begin_path();
        context.move_to(at, legend_y - px * 0.35);
        context.line_to(at + mark, legend_y - px * 0.35);
        context.stroke();
        at += mark + gap;
        context.fill_text(label, at, legend_y)?;
        at += context.measure_text(label)?.width() + px;
    }
    Ok(())
}
