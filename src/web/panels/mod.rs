//! What the panels' views share (each view is in its panel's folder, `crate::panels::<name>`, a
//! [`super::panel::Panel`] mounted from the panel table, [`super::panel::PANELS`]): the layer's
//! projections and the caches the app owns, the sentence panels' key, the generic [`view::View`],
//! the line charts and matrices (`family_charts`), the reading of heatmap cells (`reading`). The
//! training panel's view is still here (`train*.rs`), built into its own wasm module.
//!
//! Where the numbers come from: the attention weights of ≤ 64 tokens are tiny, so both backends
//! use the CPU twins (`math::attention`, `math::order`, `math::scaling`). The Gram heatmap and P
//! beside the bits come from the GPU on WebGPU (the Gram kernel and the heatmap render pass,
//! nothing read back) and from the CPU otherwise; the complexity panel times the GPU attention
//! kernel on WebGPU and `math::attention::weights` on the CPU.

pub(crate) mod family_charts;
pub(crate) mod reading;
pub mod train;
mod train_figures;
pub mod train_loader;
pub mod view;

use crate::model::inputs::{Inputs, Memo};
use crate::web::surface;
use web_sys::HtmlCanvasElement;

use super::dom::now_ms;
use super::error::WebError;
pub use super::panel::Ctx;
use crate::math::layer::{ProjectionMode, Projections};
pub use crate::model::present::{format_number, subscript};

pub use crate::model::settings::table::LessonView;

/// The smallest type a figure's message shrinks to.
const MIN_MESSAGE_PX: f64 = 9.0;

/// Clears a canvas to the figures' paper and writes a message in its middle (an empty sentence,
/// d = 1, …).
pub(crate) fn canvas_message<S: AsRef<str>>(
    canvas: &HtmlCanvasElement,
    lines: &[S],
) -> Result<(), WebError> {
    let context = surface::context(canvas)?;
    let (w, h) = surface::size(canvas);
    // In the page's look, like every figure (a message stands where a figure would be).
    let style = crate::model::figure_style::FigureStyle::for_look(super::page::figure_look());
    context.set_fill_style_str(&style.background.css());
    context.fill_rect(0.0, 0.0, w, h);
    context.set_fill_style_str(&style.ink.css());
    // A third larger than a label (the message stands alone in a figure's room), smaller where
    // its widest line would not fit the figure's width (a phone, a projector's large type).
    let mut font_px = (style.label_px * 4.0 / 3.0).round();
    loop {
        context.set_font(&format!("{font_px}px {}", style.font));
        let mut widest = 0.0_f64;
        for line in lines {
            widest = widest.max(context.measure_text(line.as_ref())?.width());
        }
        if widest <= 0.92 * w || font_px <= MIN_MESSAGE_PX {
            break;
        }
        font_px = (font_px * 0.9).floor().max(MIN_MESSAGE_PX);
    }
    context.set_text_align("center");
    context.set_text_baseline("middle");
    let line_height = 1.4 * font_px;
    let top = h / 2.0 - line_height * (lines.len() as f64 - 1.0) / 2.0;
    for (k, line) in lines.iter().enumerate() {
        context.fill_text(line.as_ref(), w / 2.0, top + line_height * k as f64)?;
    }
    context.set_text_align("start");
    context.set_text_baseline("alphabetic");
    Ok(())
}

/// What the sentence panels depend on: the tokens, P's d and base, the embedding switches and
/// the position family with its settings.
pub(crate) fn tokens_key(ctx: &super::panel::Ctx) -> Inputs {
    let (p, l) = (ctx.params, ctx.settings);
    Inputs::new()
        .with_list(l.tokens().into_iter())
        .with(p.d)
        .with(p.base)
        .with(l.positional_encoding)
        .with(l.scale_embeddings)
        .with_parts(&l.position_scheme(p.base))
}

/// The attention panels' layer: the global d, base and δ with the panel settings.
pub(crate) fn layer_choice(ctx: &super::panel::Ctx) -> crate::math::sentence::LayerChoice {
    let (p, l) = (ctx.params, ctx.settings);
    crate::math::sentence::LayerChoice {
        d: p.d,
        base: p.base,
        positional_encoding: l.encoding_in_use().adds_sinusoid(),
        scale_embeddings: l.scale_embeddings,
        mode: l.projection,
        seed: l.seed,
        delta: p.delta,
        beta: l.beta,
        position: l.position_scheme(p.base),
    }
}

/// The values the panels share or keep between frames, each with the inputs it was computed
/// from; the app owns them (they go when it does) and hands them to every panel in its `Ctx`.
#[derive(Debug, Default)]
pub struct Caches {
    /// The layer's projections: the attention, multi-head, order and pipeline panels share one
    /// set per frame instead of drawing 4·d² random numbers each.
    pub projections: Memo<std::rc::Rc<Projections>>,
    /// The order panel's per-row equivariance gaps without and with P.
    pub order_gaps: Memo<crate::panels::order::Gaps>,
    /// The order panel's shift gaps of every family.
    pub shift_gaps: Memo<crate::panels::order::FamilyGaps>,
}

/// The layer's projections for this frame (built once, shared by the panels). The cache key holds
/// only what the mode's matrices are made from, so that random ones are not drawn again when δ or
/// the base change.
pub(crate) fn projections(ctx: &super::panel::Ctx) -> std::rc::Rc<Projections> {
    let (p, l) = (ctx.params, ctx.settings);
    let inputs = match l.projection {
        ProjectionMode::Random => Inputs::new().with("random").with(p.d).with(l.seed),
        ProjectionMode::Identity => Inputs::new().with("identity").with(p.d),
        ProjectionMode::Offset => Inputs::new()
            .with("offset")
            .with(p.d)
            .with(p.base)
            .with(p.delta)
            .with(l.beta),
    };
    ctx.caches
        .projections
        .get_or(inputs, || std::rc::Rc::new(layer_choice(ctx).projections()))
}

/// What the projections depend on (for the panels' `inputs`).
pub(crate) fn projection_key(ctx: &super::panel::Ctx) -> Inputs {
    let l = ctx.settings;
    Inputs::new()
        .with_parts(&l.projection)
        .with(l.seed)
        .with(l.beta)
        .with(ctx.params.delta)
        .with(ctx.params.base)
}

/// Milliseconds since `started`, for a panel's `ms`.
pub(crate) fn elapsed(started: f64) -> f64 {
    now_ms() - started
}
