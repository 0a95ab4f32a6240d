//! The pipeline panel, "What exactly are Q, K and V?": one self-attention layer of the sentence
//! drawn stage by stage for head 0 (Z, Q, K, V, QKᵀ/√d_h, the mask, the softmax, ·V and the
//! output ·W_o), each a small labelled heatmap on one canvas. Hovering a cell traces its query row
//! (and a key) through every stage. The numbers are `math::pipeline`, the words `model::pipeline`.

use crate::model::inputs::Inputs;
use crate::model::panels::PanelId;
use crate::model::query::values::UrlName;
use crate::web::surface;
use serde::Serialize;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{HtmlCanvasElement, HtmlElement, MouseEvent};

use super::super::action::{Action, PanelEvent};
use super::super::dom::{self, listen, now_ms};
use super::super::draw::heatmap::{fit, paint_cells, set_frame_colour, RgbaImage};
use super::super::error::WebError;
use super::super::panel::{to_js, Panel, PanelSpec};
use super::{canvas_message, elapsed, Ctx};
use crate::math::pipeline::{Pipeline, PipelineError, PipelineSettings, Stage, STAGES};
use crate::model::figure_style::FigureStyle;
use crate::model::pipeline::{
    cell_text, empty_summary, legend, stage_label, summary, trace, trace_hint,
};
use crate::model::pipeline_figure::{
    layout, layout_within, outline_rect, outlines, stage_at, token_name_row_px, FigureLayout, Mark,
    Selection, LEGEND_LINE,
};
use crate::model::plot::{label_step, thinned_caption};
use crate::model::settings::nearest_divisor;
use crate::model::takeaway_attention;

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
    spec: &'static PanelSpec,
    dom: PipelineDom,
    stats: PipelineStats,
    view: Option<View>,
    /// Whether the canvas shows `view`.
    drawn: bool,
    selection: Option<Selection>,
}

impl PipelinePanel {
    pub fn mount(spec: &'static PanelSpec) -> Result<Self, WebError> {
        Ok(PipelinePanel {
            spec,
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
            &takeaway_attention::pipeline(0, ctx.params.d, heads, 0, 0.0),
        );
        self.show_trace();
        self.stats.ms = elapsed(started);
        Ok(())
    }
}

/// The legend below the stages, with what it says about thinned token names.
fn legend_text(p: &Pipeline, caption: Option<&str>) -> String {
    match caption {
        Some(caption) => crate::message!(
            "figure-pipeline-legend-thinned",
            legend = legend(p),
            thinned = caption,
        ),
        None => legend(p),
    }
}

/// The token names' step beside a band of `band_height` px for `n` rows, at the style's type.
fn token_step(n: usize, band_height: f64, style: &FigureStyle) -> usize {
    label_step(n, band_height, token_name_row_px(style.tick_px / 13.0))
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
    let (left, gap) = (lay.left, lay.gap);
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
    // Token names beside the first stage of each band: every k-th where rows are shorter than the
    // type (the legend then says so).
    context.set_font(&format!("{}px {font}", style.tick_px));
    context.set_fill_style_str(&style.ink.css());
    context.set_text_align("right");
    context.set_text_baseline("middle");
    for band in lay.bands.iter().map(|b| lay.rects[b.start]) {
        let row = band.height() / n.max(1) as f64;
        let step = view.token_step;
        for (i, token) in p.tokens.iter().enumerate().step_by(step) {
            let label: String = token.chars().take(11).collect();
            let y = band.y0 + (i as f64 + 0.5) * row;
            context.fill_text_with_max_width(
                &format!("{i} {label}"),
                left - 8.0,
                y,
                left - 12.0,
            )?;
        }
    }
    context.set_text_align("start");
    context.set_text_baseline("alphabetic");
    context.set_fill_style_str(&style.muted.css());
    // The legend on the lines the layout left for it.
    let line_height = LEGEND_LINE * style.label_px / 15.0;
    let lines = &view.legend;
    for (k, line) in lines.iter().enumerate() {
        let y = height - 10.0 - line_height * (lines.len() - 1 - k) as f64;
        context.fill_text_with_max_width(line, 12.0, y, width - 24.0)?;
    }
    if let Some(selection) = selection {
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
    }
    Ok(())
}

/// The smallest type a room reads a figure's labels at, in CSS pixels.
const ROOM_TICK_CSS_PX: f64 = 18.0;

/// [`fit_figure`] in the page's style, except in projector mode where a figure still taller than
/// the screen below its title (its rows already at their shortest) takes smaller type, never below
/// a laptop's: its nine stages then need fewer bands. There the type also shrinks, not below
/// [`ROOM_TICK_CSS_PX`], while rows too short for their names leave some tokens unnamed (a long
/// sentence then has its names thinned at a room's type). Returns the style it is drawn in.
fn fit_figure_in_room(
    canvas: &HtmlCanvasElement,
    p: &Pipeline,
    style: &FigureStyle,
) -> Result<(FigureLayout, Vec<String>, usize, FigureStyle), WebError> {
    let room = if style.look.projector {
        room_for_figure(canvas)
    } else {
        None
    };
    let laptop = FigureStyle::for_look(crate::model::figure_style::FigureLook {
        projector: false,
        page_px: 0,
        ..style.look
    });
    let mut trial = style.clone();
    loop {
        let (layout, legend, step) = fit_figure(canvas, p, &trial)?;
        let Some(room) = room else {
            return Ok((layout, legend, step, trial));
        };
        let drawn_width = surface::fit(canvas)?.0.max(1.0);
        let css_width = canvas.get_bounding_client_rect().width().max(1.0);
        let to_css = css_width / drawn_width;
        let fits = layout.height * to_css <= room;
        let tick_css = trial.tick_px * to_css;
        // Rows unnamed are worth smaller type down to a room's, not below it.
        let names_wanted = step > 1 && tick_css > ROOM_TICK_CSS_PX + 0.5;
        if (fits && !names_wanted) || trial.label_px <= laptop.label_px {
            return Ok((layout, legend, step, trial));
        }
        // Too tall: a tenth smaller; fitting with rows unnamed: straight to a room's type, or a
        // tenth smaller where that is larger.
        let factor = if fits {
            (ROOM_TICK_CSS_PX / tick_css).max(0.9)
        } else {
            0.9
        };
        for (px, floor) in [
            (&mut trial.tick_px, laptop.tick_px),
            (&mut trial.label_px, laptop.label_px),
            (&mut trial.title_px, laptop.title_px),
            (&mut trial.legend_px, laptop.legend_px),
        ] {
            *px = (*px * factor).max(floor);
        }
    }
}

/// The height a panel's main figure has on screen below the sticky bar, its panel's title and
/// whatever stands above it (what `www/layout.css` gives a main figure).
fn room_for_figure(canvas: &HtmlCanvasElement) -> Option<f64> {
    let window = web_sys::window()?;
    let view = window.inner_height().ok()?.as_f64()?;
    let section = canvas.closest("section.panel").ok()??;
    let above = canvas.get_bounding_client_rect().top() - section.get_bounding_client_rect().top();
    Some(view - crate::web::layout::sticky_height() - above - 2.0 * crate::web::layout::GAP - 2.0)
}

/// Lays the figure out for the canvas's width and makes the canvas as tall as the layout needs
/// (its aspect ratio, set here, overrides the stylesheet's: a figure that stacks its stages grows
/// down instead of squashing them) and at least `min_width` wide (a narrower panel scrolls it
/// sideways). Returns the layout, the legend's lines and the token names' step.
fn fit_figure(
    canvas: &HtmlCanvasElement,
    p: &Pipeline,
    style: &FigureStyle,
) -> Result<(FigureLayout, Vec<String>, usize), WebError> {
    let shapes = STAGES.map(|s| p.shape(s));
    let scale = style.label_px / 15.0;
    // In projector mode the whole figure fits the screen below the panel's title and takeaway
    // (its rows shorten for it); elsewhere it grows down as its bands need.
    let room = if style.look.projector {
        room_for_figure(canvas)
    } else {
        None
    };
    let canvas_style = canvas.style();
    canvas_style.set_property("width", "100%")?;
    let plan = |width: f64| -> Result<(FigureLayout, Vec<String>, usize), WebError> {
        let fitted = |lines: usize| match room {
            // The layout is in the canvas's drawing units, the room in CSS pixels.
            Some(room) => {
                let css_width = canvas.get_bounding_client_rect().width().max(1.0);
                layout_within(width, &shapes, scale, lines, room * width / css_width)
            }
            None => layout(width, &shapes, scale, lines),
        };
        let lay = fitted(1);
        // One step for every band, so that the legend's word about it is true of each.
        let step = lay
            .bands
            .iter()
            .map(|b| token_step(p.n(), lay.rects[b.start].height(), style))
            .max()
            .unwrap_or(1);
        let caption = thinned_caption(step, &crate::message!("label-noun-token"));
        let context = surface::context(canvas)?;
        context.set_font(&format!("{}px {}", style.tick_px, style.font));
        let lines = wrap_words(&context, &legend_text(p, caption.as_deref()), width - 24.0);
        Ok((fitted(lines.len()), lines, step))
    };
    let (mut width, _) = surface::fit(canvas)?;
    let mut planned = plan(width)?;
    // The width can change once: the minimum width set here may widen the canvas.
    for _ in 0..3 {
        let lay = &planned.0;
        fit::set_min_width(canvas, lay.min_width);
        let aspect = format!("{} / {}", width.round(), lay.height.round());
        if canvas_style.get_property_value("--aspect")? != aspect {
            canvas_style.set_property_with_priority("--aspect", &aspect, "important")?;
        }
        let (fitted, _) = surface::fit(canvas)?;
        if (fitted - width).abs() < 1.0 {
            break;
        }
        width = fitted;
        planned = plan(width)?;
    }
    Ok(planned)
}

/// `text` cut at spaces into lines no wider than `width` at the context's font (the last line keeps
/// whatever is left; `fill_text_with_max_width` narrows it if it must).
fn wrap_words(context: &web_sys::CanvasRenderingContext2d, text: &str, width: f64) -> Vec<String> {
    let fits = |line: &str| {
        context
            .measure_text(line)
            .map_or(true, |m| m.width() <= width)
    };
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for (glue, word) in break_pieces(text) {
        let candidate = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line}{glue}{word}")
        };
        if line.is_empty() || fits(&candidate) {
            line = candidate;
        } else {
            lines.push(std::mem::take(&mut line));
            line = word.to_string();
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// The pieces a line of `text` may break between, each with what joins it to the one before: its
/// words, joined by a space, and within a word of Chinese, each character, joined by nothing (a
/// full-width mark that closes a phrase stays with the character before it).
fn break_pieces(text: &str) -> Vec<(&'static str, &str)> {
    let wide = |c: char| c >= '\u{2E80}';
    let closing = |c: char| "，。：；、）》”’！？".contains(c);
    let mut pieces = Vec::new();
    for word in text.split(' ') {
        let mut start = 0;
        let mut previous_wide = false;
        for (at, c) in word.char_indices() {
            if at > start && (wide(c) || previous_wide) && !closing(c) {
                pieces.push((if start == 0 { " " } else { "" }, &word[start..at]));
                start = at;
            }
            previous_wide = wide(c);
        }
        pieces.push((if start == 0 { " " } else { "" }, &word[start..]));
    }
    pieces
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
    let projections = super::projections(ctx);
    Pipeline::compute(tokens, settings, &projections).map_err(|e| match e {
        PipelineError::Math(e) => WebError::Math(e),
        PipelineError::Projection(e) => WebError::Projection(e),
        PipelineError::Position(e) => WebError::Position(e),
    })
}

impl Panel for PipelinePanel {
    fn spec(&self) -> &'static PanelSpec {
        self.spec
    }

    fn inputs(&self, ctx: &Ctx) -> Inputs {
        let (p, l) = (ctx.params, ctx.settings);
        super::tokens_key(ctx)
            .with(l.effective_valid_len())
            .with(l.heads())
            .with_debug(&l.projection)
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
            &takeaway_attention::pipeline(
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

    fn stats(&self) -> Option<JsValue> {
        Some(to_js(&self.stats))
    }

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
