//! The pipeline panel, "What exactly are Q, K and V?": one self-attention layer of the sentence
//! drawn stage by stage for head 0 (Z, Q, K, V, QKᵀ/√d_h, the mask, the softmax, ·V and the
//! output ·W_o), each a small labelled heatmap on one canvas. Hovering a cell traces its query row
//! (and a key) through every stage. The numbers are `math::pipeline`, the words the panel's
//! (`mod.rs`), the layout `figure.rs`.

use crate::model::inputs::Inputs;
use crate::model::panels::PanelId;
use crate::model::query::values::UrlName;
use crate::web::surface;
use serde::Serialize;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, HtmlElement, MouseEvent};

use super::figure::{FigureLayout, LEGEND_LINE};
use super::fit::fit_figure_in_room;
use super::selection::{outline_rect, outlines, stage_at, Mark, Selection};
use super::{cell_text, empty_summary, stage_label, summary, trace, trace_hint};
use crate::math::pipeline::{Pipeline, PipelineError, PipelineSettings, Stage, STAGES};
use crate::model::figure_style::FigureStyle;
use crate::model::plot::thinned_caption;
use crate::model::settings::nearest_divisor;
use crate::web::action::{Action, PanelEvent};
use crate::web::dom::{self, listen, now_ms};
use crate::web::draw::heatmap::{fit, paint_cells, set_frame_colour, RgbaImage};
use crate::web::error::WebError;
use crate::web::panel::Panel;
use crate::web::panels::{canvas_message, elapsed, Ctx};

/// The shapes of the stages, [rows, columns].
#[derive(Debug, Clone, Default, Serialize)]
pub struct Shapes {
    pub z: [usize; 2],
    pub q: [usize; 2],
    pub k: [usize; 2],
    pub v: [usize; 2],
    pub scores: [usize; 2],
    pub output: [usize; 2],
}

#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PipelineStats {
    pub tokens: Vec<String>,
    pub heads: usize,
    pub head_dim: usize,
    /// `random`, `identity` or `offset`.
    pub projection: &'static str,
    pub seed: u64,
    /// `null`: no key is masked.
    pub valid_len: Option<usize>,
    pub shapes: Shapes,
    /// max |Σ_j w_ij − 1| over every row of every head.
    pub row_sum_error: f64,
    pub ms: f64,
}

crate::element_table! {
    pub struct PipelineDom {
        canvas: HtmlCanvasElement = "pipeline-canvas",
        tooltip: HtmlElement = "pipeline-tooltip",
        summary: HtmlElement = "pipeline-summary",
        takeaway: HtmlElement = "pipeline-takeaway",
        trace: HtmlElement = "pipeline-trace",
    }
}

/// The computed layer with where and how each stage is drawn.
struct View {
    pipeline: Pipeline,
    layout: FigureLayout,
    images: Vec<(Vec<u8>, usize, usize)>,
    /// The legend's lines, as laid out.
    legend: Vec<String>,
    /// Every k-th token is named beside the bands (the legend says so when k > 1).
    token_step: usize,
    /// The look it is drawn in (the page's theme and mode when it was rendered).
    style: FigureStyle,
}

pub struct PipelinePanel {
    dom: PipelineDom,
    stats: PipelineStats,
    view: Option<View>,
    /// Whether the canvas shows `view`.
    drawn: bool,
    selection: Option<Selection>,
}

impl PipelinePanel {
    pub fn mount() -> Result<Self, WebError> {
        Ok(PipelinePanel {
            dom: PipelineDom::mount()?,
            stats: PipelineStats::default(),
            view: None,
            drawn: false,
            selection: None,
        })
    }

    fn show_trace(&self) {
        let text = match (&self.view, &self.selection) {
            (Some(view), Some(selection)) => trace(&view.pipeline, selection),
            (Some(_), None) => trace_hint(),
            (None, _) => String::new(),
        };
        dom::text(&self.dom.trace, &text);
    }

    fn redraw(&self, scratch: &HtmlCanvasElement) -> Result<(), WebError> {
        match &self.view {
            Some(view) if self.drawn => {
                draw(&self.dom.canvas, scratch, view, self.selection.as_ref())
            }
            _ => Ok(()),
        }
    }

    /// No tokens: a message instead of the figure.
    fn render_empty(&mut self, ctx: &Ctx, heads: usize, started: f64) -> Result<(), WebError> {
        self.view = None;
        self.drawn = false;
        self.dom.tooltip.set_hidden(true);
        if ctx.draw {
            canvas_message(
                &self.dom.canvas,
                &[
                    crate::message!("figure-pipeline-no-tokens").as_str(),
                    crate::message!("figure-pipeline-type-words").as_str(),
                ],
            )?;
        }
        dom::text(&self.dom.summary, &empty_summary());
        dom::text(
            &self.dom.takeaway,
            &super::takeaway::takeaway(0, ctx.params.d, heads, 0, 0.0),
        );
        self.show_trace();
        self.stats.ms = elapsed(started);
        Ok(())
    }
}

/// Draws every stage, its labels, the token names, the legend and the selection's outlines, in
/// the page's look.
fn draw(
    canvas: &HtmlCanvasElement,
    scratch: &HtmlCanvasElement,
    view: &View,
    selection: Option<&Selection>,
) -> Result<(), WebError> {
    let (p, style, lay) = (&view.pipeline, &view.style, &view.layout);
    let context = surface::context(canvas)?;
    let (width, height) = surface::size(canvas);
    context.set_fill_style_str(&style.background.css());
    context.fill_rect(0.0, 0.0, width, height);
    set_frame_colour(canvas, style);
    context.set_text_baseline("alphabetic");
    context.set_text_align("start");
    let gap = lay.gap;
    let font = style.font;
    let band_ends: Vec<usize> = lay.bands.iter().map(|b| b.end - 1).collect();
    for (k, &stage) in STAGES.iter().enumerate() {
        let rect = lay.rects[k];
        let (pixels, w, h) = &view.images[k];
        let image = RgbaImage {
            width: *w,
            height: *h,
            pixels,
        };
        paint_cells(canvas, scratch, &image, rect)?;
        let (title, shape, size) = stage_label(p, stage);
        // The label may run into the gap after its stage, never past the canvas's right edge.
        let room = (rect.width() + gap - 8.0).min(width - rect.x0 - 2.0);
        context.set_fill_style_str(&style.ink.css());
        context.set_font(&format!("bold {}px {font}", style.title_px));
        context.fill_text_with_max_width(&title, rect.x0, rect.y0 - lay.label * 0.57, room)?;
        context.set_fill_style_str(&style.muted.css());
        context.set_font(&format!("{}px {font}", style.tick_px));
        let shape = if context.measure_text(&shape)?.width() > room {
            size
        } else {
            shape
        };
        context.fill_text_with_max_width(&shape, rect.x0, rect.y0 - lay.label * 0.19, room)?;
        // An arrow to the next stage of the band, where that stage is computed from this one:
        // Q, K and V each come from Z (their titles say Z·W), not from one another.
        let feeds_next = !matches!(stage, Stage::Q | Stage::K);
        if feeds_next && !band_ends.contains(&k) {
            context.set_font(&format!("{}px {font}", style.label_px * 1.2));
            context.set_fill_style_str(&style.muted.css());
            context.set_text_align("center");
            let y = (rect.y0 + rect.y1) / 2.0 + 6.0;
            context.fill_text("→", rect.x1 + gap / 2.0, y)?;
            context.set_text_align("start");
        }
    }
    // The masked block says what its scores are.
    let (n, valid) = (p.n(), p.valid());
    let masked = lay.rects[Stage::Masked.index()];
    let x0 = masked.x0 + masked.width() * valid as f64 / n.max(1) as f64;
    if valid < n && masked.x1 - x0 >= 36.0 {
        let (cx, cy) = ((x0 + masked.x1) / 2.0, (masked.y0 + masked.y1) / 2.0);
        context.set_fill_style_str(&style.background.css_alpha(0.9));
        context.fill_rect(cx - 18.0, cy - 11.0, 36.0, 22.0);
        context.set_fill_style_str(&style.ink.css());
        context.set_font(&format!("bold {}px {font}", style.tick_px));
        context.set_text_align("center");
        context.set_text_baseline("middle");
        context.fill_text("−10⁶", cx, cy)?;
    }
    draw_token_names(&context, view)?;
    context.set_fill_style_str(&style.muted.css());
    // The legend on the lines the layout left for it.
    let line_height = LEGEND_LINE * style.label_px / 15.0;
    let lines = &view.legend;
    for (k, line) in lines.iter().enumerate() {
        let y = height - 10.0 - line_height * (lines.len() - 1 - k) as f64;
        context.fill_text_with_max_width(line, 12.0, y, width - 24.0)?;
    }
    if let Some(selection) = selection {
        draw_outlines(&context, view, selection)?;
    }
    Ok(())
}

/// The token names beside the first stage of each band: every k-th where rows are shorter than
/// the type (the legend then says so).
fn draw_token_names(context: &CanvasRenderingContext2d, view: &View) -> Result<(), WebError> {
    let (p, style, lay) = (&view.pipeline, &view.style, &view.layout);
    context.set_font(&format!("{}px {}", style.tick_px, style.font));
    context.set_fill_style_str(&style.ink.css());
    context.set_text_align("right");
    context.set_text_baseline("middle");
    for band in lay.bands.iter().map(|b| lay.rects[b.start]) {
        let row = band.height() / p.n().max(1) as f64;
        for (i, token) in p.tokens.iter().enumerate().step_by(view.token_step) {
            let label: String = token.chars().take(11).collect();
            let y = band.y0 + (i as f64 + 0.5) * row;
            let (x, room) = (lay.left - 8.0, lay.left - 12.0);
            context.fill_text_with_max_width(&format!("{i} {label}"), x, y, room)?;
        }
    }
    context.set_text_align("start");
    context.set_text_baseline("alphabetic");
    Ok(())
}

/// The selection's outlines: its query row, its key and its cell, each stage's in its colour over
/// a halo of the paper.
fn draw_outlines(
    context: &CanvasRenderingContext2d,
    view: &View,
    selection: &Selection,
) -> Result<(), WebError> {
    let (p, style, lay) = (&view.pipeline, &view.style, &view.layout);
    for outline in outlines(selection, |s| p.shape(s)) {
        let stage = outline.stage;
        let r = outline_rect(lay.rects[stage.index()], p.shape(stage), &outline);
        let colour = match outline.mark {
            Mark::Query => style.ink.css(),
            Mark::Key => "#e69f00".to_string(),
            Mark::Cell => "#d81b60".to_string(),
        };
        for (colour, line) in [(style.background.css(), 4.0), (colour, 2.0)] {
            context.set_stroke_style_str(&colour);
            context.set_line_width(line);
            context.stroke_rect(r.x0, r.y0, r.width(), r.height());
        }
    }
    Ok(())
}

/// The pipeline of the sentence through the attention panels' layer, with `heads` heads.
fn compute_pipeline(ctx: &Ctx, tokens: Vec<String>, heads: usize) -> Result<Pipeline, WebError> {
    let (params, lesson) = (ctx.params, ctx.settings);
    let d = params.d;
    let settings = PipelineSettings {
        d,
        base: params.base,
        delta: params.delta,
        positional_encoding: lesson.encoding_in_use().adds_sinusoid(),
        scale_embeddings: lesson.scale_embeddings,
        mode: lesson.projection,
        seed: lesson.seed,
        beta: lesson.beta,
        heads,
        valid_len: lesson.effective_valid_len(),
        position: lesson.position_scheme(params.base),
    };
    // The same W as the attention, multi-head and order panels (one set per frame).
    let projections = crate::web::panels::projections(ctx);
    Pipeline::compute(tokens, settings, &projections).map_err(|e| match e {
        PipelineError::Math(e) => WebError::Math(e),
        PipelineError::Projection(e) => WebError::Projection(e),
        PipelineError::Position(e) => WebError::Position(e),
    })
}

impl Panel for PipelinePanel {
    fn inputs(&self, ctx: &Ctx) -> Inputs {
        let (p, l) = (ctx.params, ctx.settings);
        crate::web::panels::tokens_key(ctx)
            .with(l.effective_valid_len())
            .with(l.heads())
            .with_parts(&l.projection)
            .with(l.seed)
            .with(l.beta)
            .with(p.delta)
    }

    fn render(&mut self, ctx: &mut Ctx) -> Result<(), WebError> {
        let started = now_ms();
        let (params, lesson) = (ctx.params, ctx.settings);
        let tokens = lesson.tokens();
        let d = params.d;
        let heads = match lesson.heads() {
            h if h > 0 && d % h == 0 => h,
            h => nearest_divisor(d, h),
        };
        let dh = d / heads.max(1);
        let n = tokens.len();
        self.stats = PipelineStats {
            tokens: tokens.clone(),
            heads,
            head_dim: dh,
            projection: lesson.projection.to_query(),
            seed: lesson.seed,
            valid_len: lesson.effective_valid_len(),
            shapes: Shapes {
                z: [n, d],
                q: [n, dh],
                k: [n, dh],
                v: [n, dh],
                scores: [n, n],
                output: [n, d],
            },
            ..PipelineStats::default()
        };
        self.selection = self
            .selection
            .filter(|s| s.row < n && s.key.iter().all(|&j| j < n));
        if n == 0 {
            return self.render_empty(ctx, heads, started);
        }
        let pipeline = compute_pipeline(ctx, tokens, heads)?;
        self.stats.row_sum_error = pipeline.row_sum_error();
        dom::text(&self.dom.summary, &summary(&pipeline));
        dom::text(
            &self.dom.takeaway,
            &super::takeaway::takeaway(
                pipeline.n(),
                pipeline.d(),
                pipeline.heads(),
                pipeline.head_dim(),
                pipeline.row_sum_error(),
            ),
        );
        let canvas = &self.dom.canvas;
        let (layout, legend, step, style) = fit_figure_in_room(canvas, &pipeline, ctx.style)?;
        let cell = STAGES
            .iter()
            .map(|&s| fit::cell_css_px(canvas, layout.rects[s.index()], pipeline.shape(s)))
            .fold((f64::INFINITY, f64::INFINITY), |a, b| {
                (a.0.min(b.0), a.1.min(b.1))
            });
        // Columns are features, named by each stage's shape label rather than one by one (0).
        let caption = thinned_caption(step, &crate::message!("label-noun-token"));
        fit::record_cells(canvas, cell, (0, step), caption.as_deref());
        let images = STAGES.iter().map(|&s| pipeline.image(s)).collect();
        self.view = Some(View {
            pipeline,
            layout,
            images,
            legend,
            token_step: step,
            style,
        });
        self.drawn = ctx.draw;
        self.redraw(ctx.scratch)?;
        self.show_trace();
        self.stats.ms = elapsed(started);
        Ok(())
    }

    crate::web::panel::stats_in!(stats);

    fn error_slot(&self) -> &HtmlElement {
        &self.dom.summary
    }

    fn wire(&self, panel: PanelId, send: fn(Action)) -> Result<(), WebError> {
        let to_panel = move |event| send(Action::Panel { panel, event });
        // Pointer events: a finger or a pen traces a row as a mouse does (a tap is a press).
        for kind in ["pointermove", "pointerdown"] {
            listen(&self.dom.canvas, kind, move |event| {
                if let Some(pointer) = event.dyn_ref::<MouseEvent>() {
                    let (x, y) = (f64::from(pointer.offset_x()), f64::from(pointer.offset_y()));
                    to_panel(PanelEvent::Pointer { x, y });
                }
            })?;
        }
        listen(&self.dom.canvas, "mouseleave", move |_| {
            to_panel(PanelEvent::Leave)
        })
    }

    fn event(&mut self, ctx: &mut Ctx, event: PanelEvent) -> Result<bool, WebError> {
        let (canvas, tooltip) = (&self.dom.canvas, &self.dom.tooltip);
        let previous = self.selection;
        match (event, &self.view) {
            (PanelEvent::Pointer { x, y }, Some(view)) => {
                let (logical_x, logical_y) = surface::css_to_logical(canvas, x, y);
                let p = &view.pipeline;
                match stage_at(&view.layout.rects, |s| p.shape(s), logical_x, logical_y) {
                    Some((stage, row, column)) => {
                        let style = tooltip.style();
                        style.set_property("left", &format!("{}px", x + 14.0))?;
                        style.set_property("top", &format!("{}px", y + 14.0))?;
                        tooltip.set_text_content(Some(&cell_text(p, stage, row, column)));
                        tooltip.set_hidden(false);
                        self.selection = Some(Selection::at(stage, row, column, previous));
                    }
                    // Between stages the selection stays (to go from a query in Q to a key in K).
                    None => tooltip.set_hidden(true),
                }
            }
            _ => {
                tooltip.set_hidden(true);
                self.selection = None;
            }
        }
        if self.selection != previous {
            self.redraw(ctx.scratch)?;
            self.show_trace();
        }
        Ok(false)
    }
}

/// The panel, mounted (its row of the panel list names this module).
#[inline(always)] // into the list's one `match` (see `crate::panels`)
pub fn mount() -> Result<Box<dyn crate::web::panel::Panel>, crate::web::error::WebError> {
    Ok(Box::new(PipelinePanel::mount()?))
}
