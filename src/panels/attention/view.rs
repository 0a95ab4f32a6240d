//! Panel 1, attention weights: softmax(Z·Zᵀ/√d) of the sentence, Z = X (·√d) (+ P), queries as
//! rows and keys as columns, keys at index ≥ valid_len masked (weight exactly 0, hatched grey).
//! Computed with the CPU twin on both backends: at most 64 × 64 weights.

use crate::model::inputs::Inputs;
use crate::model::panels::PanelId;
use crate::model::query::values::UrlName;
use crate::model::settings::AttentionExtras;
use crate::web::surface;
use ndarray::Array2;
use serde::Serialize;
use web_sys::HtmlCanvasElement;

use super::takeaway::{self, AttentionTakeaway};
pub use super::weights_view::WeightsView;
use super::{
    encoding_sentence, formula, identity_warning, offset_sentence, projection_description,
    weights_summary, IdentityNumbers, Strongest, WeightsSummary,
};
use crate::math::colormap::{sequential_bar_rgba, weights_image};
use crate::math::layer::ProjectionMode;
use crate::math::measures::{masked_weights_are_zero, row_sum_error};
use crate::math::position::Encoding;
use crate::math::sentence::{self_and_other_dots, sentence_attention};
use crate::model::figure_style::FigureStyle;
use crate::model::plot::{step_cell, PixelRect};
use crate::web::action::{Action, PanelEvent};
use crate::web::backend::LocalFuture;
use crate::web::dom::{self, now_ms};
use crate::web::draw::heatmap::{draw_styled_heatmap_frame, paint_image, HeatmapAxes, RgbaImage};
use crate::web::error::WebError;
use crate::web::panel::Panel;
use crate::web::panels::reading::{self, Paging};
use crate::web::panels::{canvas_message, elapsed, Ctx};
use web_sys::HtmlElement;

#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AttentionStats {
    pub tokens: Vec<String>,
    pub d: usize,
    /// `null`: no key is masked.
    pub valid_len: Option<usize>,
    pub positional_encoding: bool,
    /// The position family in use (`enc`): sinusoidal, rope, alibi, t5, shaw, learned or none.
    pub encoding: &'static str,
    pub scale_embeddings: bool,
    /// Row q holds the weights of query q over every key.
    pub weights: Vec<Vec<f32>>,
    /// Masked weights (keys ≥ valid_len) counted, and whether every one is exactly 0.
    pub masked_count: usize,
    pub masked_weights_zero: bool,
    /// Cells the map hatches grey: masked keys whose weight is exactly 0 (none with valid_len = 0,
    /// where every weight is 1/n).
    pub hatched_count: usize,
    /// max |Σ_k w[q, k] − 1| over the queries with at least one valid key.
    pub row_sum_error: f64,
    /// Mean weight of each token on itself.
    pub diagonal_mean: f64,
    /// The projections in use: "random", "identity" or "offset".
    pub projection: &'static str,
    /// The seed of the random projections.
    pub seed: u64,
    /// Mean weight of a token on itself (the same as `diagonal_mean`).
    pub mean_self_weight: f64,
    /// The visible warning (non-empty with the identity projections).
    pub warning: String,
    /// The offset head's fraction of queries whose strongest key is i + δ: on P alone, and on the
    /// sentence's X (·√d) + P (`null` when no query has a key δ away).
    pub offset_hit_rate: Option<f64>,
    pub offset_hit_rate_with_tokens: Option<f64>,
    /// The offset head's mean weight of query i on key i + δ: on P alone (what its map shows),
    /// and on the sentence's X (·√d) + P (`null` when no query has a key δ away).
    pub offset_mean_weight: Option<f64>,
    pub offset_mean_weight_with_tokens: Option<f64>,
    /// What the map's rows and columns are: "tokens" (Z = X (·√d) (+ P)) or "positions" (the
    /// offset head, drawn on P alone).
    pub input: &'static str,
    /// The δ of the offset head (the page's δ).
    pub offset_delta: i64,
    /// The largest weight off the diagonal: [query, key] and its value.
    pub strongest_other: Option<(usize, usize)>,
    pub strongest_other_weight: f64,
    /// Where the cells are drawn on the canvas, in its backing-store pixels [x0, y0, x1, y1] (zeros while the
    /// panel is off screen and not drawn yet).
    pub image: [f64; 4],
    pub ms: f64,
}

/// Whether the map hatches cell (row, column): a masked key whose weight is exactly 0 (as in the
/// pipeline panel), masked by valid_len or by the family's causal mask (ALiBi: keys after the
/// query). With valid_len = 0 every key is masked but every weight is 1/n, drawn in its colour.
fn hatched(
    w: &Array2<f32>,
    valid_len: Option<usize>,
    causal: bool,
    row: usize,
    column: usize,
) -> bool {
    let masked = valid_len.is_some_and(|v| column >= v) || (causal && column > row);
    masked && w[[row, column]] == 0.0
}

pub fn render(
    ctx: &mut Ctx,
    dom: &AttentionDom,
) -> Result<(AttentionStats, Option<WeightsView>), WebError> {
    let started = now_ms();
    let (params, lesson) = (ctx.params, ctx.settings);
    let tokens = lesson.tokens();
    let n = tokens.len();
    let valid_len = lesson.effective_valid_len();
    let mut stats = AttentionStats {
        tokens: tokens.clone(),
        d: params.d,
        valid_len,
        positional_encoding: lesson.positional_encoding,
        encoding: lesson.encoding_in_use().to_query(),
        scale_embeddings: lesson.scale_embeddings,
        masked_weights_zero: true,
        ..AttentionStats::default()
    };
    if n == 0 {
        render_empty(ctx, dom)?;
        stats.ms = elapsed(started);
        return Ok((stats, None));
    }
    let choice = crate::web::panels::layer_choice(ctx);
    let layer = sentence_attention(
        &tokens,
        &choice,
        &crate::web::panels::projections(ctx),
        valid_len,
    )?;
    let w = layer.weights().clone();
    // The offset head is drawn on P alone: its rows and columns are positions, not words.
    let on_positions = lesson.projection == ProjectionMode::Offset;
    // The family's own causal mask (ALiBi) is drawn like valid_len's; not on P alone.
    let causal = !on_positions && lesson.encoding_in_use().is_causal();
    stats.input = if on_positions { "positions" } else { "tokens" };
    let labels: Vec<String> = if on_positions {
        (0..n).map(|i| i.to_string()).collect()
    } else {
        tokens.clone()
    };
    let masked = Masked { valid_len, causal };
    // Off screen, the picture waits (see `PanelsState::visible`); the numbers do not.
    let rect = if ctx.draw {
        Some(draw_weights(
            ctx,
            &dom.canvas,
            &w,
            &labels,
            on_positions,
            masked,
        )?)
    } else {
        None
    };
    stats.image = rect.map_or([0.0; 4], |r| {
        surface::backing_rect(&dom.canvas, (r.x0, r.y0, r.x1, r.y1))
    });
    let strongest = measure_weights(&mut stats, &w, masked);
    // The takeaway names the strongest cell (not on P alone, where it names an offset): ringed
    // in the ink over a ring in the paper, visible on every viridis colour in either theme.
    if let (Some(rect), false) = (rect, on_positions) {
        if let Some((q, k, _)) = takeaway::strongest(&stats.weights) {
            ring_cell(&dom.canvas, ctx.style, rect, n, (q, k))?;
        }
    }
    measure_layer(&mut stats, ctx, &layer, &w);
    stats.offset_delta = choice.delta;
    write_texts(ctx, dom, &stats, &layer, &choice, strongest, &labels);
    stats.ms = elapsed(started);
    let view = rect.map(|rect| WeightsView {
        rect,
        formula: formula(
            lesson.projection,
            lesson.scale_embeddings,
            lesson.encoding_in_use(),
        ),
        tokens: labels,
        weights: w,
        valid_len,
        on_positions,
    });
    Ok((stats, view))
}

/// Which cells are masked: keys at or beyond valid_len, and the family's causal mask.
#[derive(Debug, Clone, Copy)]
struct Masked {
    valid_len: Option<usize>,
    causal: bool,
}

/// No tokens: a message instead of the map.
fn render_empty(ctx: &Ctx, dom: &AttentionDom) -> Result<(), WebError> {
    if ctx.draw {
        canvas_message(
            &dom.canvas,
            &[
                crate::message!("figure-attention-no-tokens").as_str(),
                crate::message!("figure-attention-type-words").as_str(),
            ],
        )?;
    }
    dom::text(&dom.summary, &crate::message!("status-attention-no-tokens"));
    dom::text(&dom.takeaway, &takeaway::empty());
    Ok(())
}

/// The weights' map with its axes and colour bar, masked cells hatched; returns where the cells
/// are.
fn draw_weights(
    ctx: &mut Ctx,
    canvas: &HtmlCanvasElement,
    w: &Array2<f32>,
    labels: &[String],
    on_positions: bool,
    masked: Masked,
) -> Result<PixelRect, WebError> {
    let n = labels.len();
    let bar = sequential_bar_rgba(256, 0.0, 1.0);
    let rect = draw_styled_heatmap_frame(
        canvas,
        ctx.scratch,
        (n, n),
        &RgbaImage {
            width: 1,
            height: bar.len() / 4,
            pixels: &bar,
        },
        &HeatmapAxes {
            x_desc: &if on_positions {
                crate::message!("label-axis-key-position-p-alone")
            } else {
                crate::message!("label-axis-key")
            },
            y_desc: &if on_positions {
                crate::message!("label-axis-query-position-p-alone")
            } else {
                crate::message!("label-axis-query")
            },
            value_range: (0.0, 1.0),
            x_names: Some(labels),
            y_names: Some(labels),
        },
        ctx.style,
    )?;
    let values: Vec<f32> = w.iter().copied().collect();
    let cell_px = (rect.width().min(rect.height()) / n as f64)
        .floor()
        .max(1.0) as usize;
    let hatch =
        |row: usize, column: usize| hatched(w, masked.valid_len, masked.causal, row, column);
    let (pixels, width, height) = weights_image(&values, n, n, cell_px, hatch);
    paint_image(
        canvas,
        ctx.scratch,
        &RgbaImage {
            width,
            height,
            pixels: &pixels,
        },
        rect,
    )?;
    Ok(rect)
}

/// A ring around cell (row, column) of an n × n map drawn in `rect`.
fn ring_cell(
    canvas: &HtmlCanvasElement,
    style: &FigureStyle,
    rect: PixelRect,
    n: usize,
    (row, column): (usize, usize),
) -> Result<(), WebError> {
    let context = surface::context(canvas)?;
    let (w, h) = (rect.width() / n as f64, rect.height() / n as f64);
    let (x, y) = (rect.x0 + column as f64 * w, rect.y0 + row as f64 * h);
    // Inside a cell big enough to keep its colour readable; around a small one.
    let inset = if w.min(h) >= 12.0 { 2.0 } else { -2.0 };
    for (colour, width) in [(style.background, 4.0), (style.ink, 2.0)] {
        context.set_stroke_style_str(&colour.css());
        context.set_line_width(width);
        context.stroke_rect(x + inset, y + inset, w - 2.0 * inset, h - 2.0 * inset);
    }
    Ok(())
}

/// The weights' numbers: the masked and hatched cells, the row sums, the diagonal; returns the
/// strongest pair of different tokens.
fn measure_weights(
    stats: &mut AttentionStats,
    w: &Array2<f32>,
    masked: Masked,
) -> Option<((usize, usize), f32)> {
    let n = w.nrows();
    let Masked { valid_len, causal } = masked;
    stats.weights = w.rows().into_iter().map(|r| r.to_vec()).collect();
    stats.masked_count = valid_len.map_or(0, |v| n * (n - v));
    stats.hatched_count = w
        .indexed_iter()
        .filter(|&((row, column), _)| hatched(w, valid_len, causal, row, column))
        .count();
    stats.masked_weights_zero = masked_weights_are_zero(w.view(), valid_len);
    stats.row_sum_error = row_sum_error(w.view());
    stats.diagonal_mean = (0..n).map(|i| f64::from(w[[i, i]])).sum::<f64>() / n as f64;
    let mut strongest: Option<((usize, usize), f32)> = None;
    for ((q, k), &v) in w.indexed_iter() {
        let better = match strongest {
            Some((_, best)) => v > best,
            None => true,
        };
        if q != k && better {
            strongest = Some(((q, k), v));
        }
    }
    stats.strongest_other = strongest.map(|(at, _)| at);
    stats.strongest_other_weight = strongest.map_or(0.0, |(_, v)| f64::from(v));
    strongest
}

/// The layer's numbers: the projections, the identity warning, the offset head's hits.
fn measure_layer(
    stats: &mut AttentionStats,
    ctx: &Ctx,
    layer: &crate::math::sentence::SentenceAttention,
    w: &Array2<f32>,
) {
    let n = w.nrows();
    let mode = ctx.settings.projection;
    stats.projection = mode.to_query();
    stats.seed = ctx.settings.seed;
    stats.mean_self_weight = layer.mean_self_weight;
    let (self_dot, other_dot) = self_and_other_dots(layer.z.view());
    stats.warning = identity_warning(
        mode,
        &IdentityNumbers {
            d: ctx.params.d,
            n,
            mean_self_weight: layer.mean_self_weight,
            self_dot,
            other_dot,
            // Measured, not derived from valid_len: at valid_len = 0 every key is masked, yet
            // each row still gives itself 1/n.
            masked_diagonal: (0..n).filter(|&i| w[[i, i]] == 0.0).count(),
        },
    );
    let finite = |r: f64| (!r.is_nan()).then_some(r);
    stats.offset_hit_rate = finite(layer.offset.hit_rate);
    stats.offset_hit_rate_with_tokens = finite(layer.offset.hit_rate_with_tokens);
    stats.offset_mean_weight = finite(layer.offset.mean_weight);
    stats.offset_mean_weight_with_tokens = finite(layer.offset.mean_weight_with_tokens);
}

/// The warning, the offset head's sentence, the summary and the takeaway.
fn write_texts(
    ctx: &Ctx,
    dom: &AttentionDom,
    stats: &AttentionStats,
    layer: &crate::math::sentence::SentenceAttention,
    choice: &crate::math::sentence::LayerChoice,
    strongest: Option<((usize, usize), f32)>,
    labels: &[String],
) {
    let (params, lesson) = (ctx.params, ctx.settings);
    let mode = lesson.projection;
    let (tokens, n) = (&stats.tokens, stats.tokens.len());
    dom::text(&dom.warning, &stats.warning);
    dom.warning.set_hidden(stats.warning.is_empty());
    dom::text(
        &dom.offset,
        &offset_sentence(
            choice.delta,
            lesson.beta,
            &layer.offset,
            lesson.scale_embeddings,
        ),
    );
    dom.offset_note.set_hidden(mode != ProjectionMode::Offset);
    // A tie (every weight equal, as at valid_len = 0) has no strongest pair to name.
    let (lowest, highest) = stats
        .weights
        .iter()
        .flatten()
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), &v| {
            (lo.min(v), hi.max(v))
        });
    let strongest = match strongest {
        _ if highest - lowest <= 1e-6 && n > 1 => Strongest::Tie,
        Some(((q, k), v)) if mode != ProjectionMode::Offset => {
            Strongest::Pair(&tokens[q], &tokens[k], f64::from(v))
        }
        _ => Strongest::Unnamed,
    };
    dom::text(
        &dom.summary,
        &weights_summary(&WeightsSummary {
            tokens: n,
            d: params.d,
            encoding: encoding_sentence(lesson.encoding_in_use(), &choice.position),
            scaled: lesson.scale_embeddings,
            projection: projection_description(mode, lesson.seed, choice.delta, lesson.beta),
            diagonal_mean: stats.diagonal_mean,
            strongest,
            row_sum_error: stats.row_sum_error,
            valid_len: stats.valid_len,
            masked_weights_zero: stats.masked_weights_zero,
        }),
    );
    dom::text(
        &dom.takeaway,
        &takeaway::takeaway(&AttentionTakeaway {
            tokens: labels,
            weights: &stats.weights,
            valid_len: stats.valid_len,
            mode,
            has_position: lesson.encoding_in_use() != Encoding::None,
            row_sum_error: stats.row_sum_error,
            delta: choice.delta,
            offset_hit_rate: stats.offset_hit_rate,
        }),
    );
}

crate::element_table! {
    pub struct AttentionDom {
        canvas: HtmlCanvasElement = "attn-heatmap",
        tooltip: HtmlElement = "attn-tooltip",
        hover: HtmlElement = "attn-hover",
        summary: HtmlElement = "attn-summary",
        takeaway: HtmlElement = "attention-takeaway",
        warning: HtmlElement = "attn-warning",
        offset_note: HtmlElement = "attn-offset",
        offset: HtmlElement = "attn-offset-text",
        settings: HtmlElement = "attention-settings",
        beta_control: HtmlElement = "beta-control",
    }
}

pub struct AttentionPanel {
    dom: AttentionDom,
    stats: AttentionStats,
    /// The heatmap as drawn, for hovering and the CSV.
    view: Option<WeightsView>,
    /// The cell read from the keyboard (query, key).
    cursor: (usize, usize),
    /// The settings behind "More settings" as last rendered (see [`AttentionExtras`]).
    extras: Option<AttentionExtras>,
}

impl AttentionPanel {
    pub fn mount() -> Result<Self, WebError> {
        Ok(AttentionPanel {
            dom: AttentionDom::mount()?,
            stats: AttentionStats::default(),
            view: None,
            cursor: (0, 0),
            extras: None,
        })
    }
}

impl Panel for AttentionPanel {
    fn inputs(&self, ctx: &Ctx) -> Inputs {
        crate::web::panels::tokens_key(ctx)
            .with(ctx.settings.effective_valid_len())
            .with_all(crate::web::panels::projection_key(ctx))
    }

    fn render(&mut self, ctx: &mut Ctx) -> Result<(), WebError> {
        // A setting behind "More settings" that a link, a script or a preset changed is shown:
        // the line opens (a reader who closes it again keeps it closed until the next change).
        let extras = ctx.settings.attention_extras();
        if extras.is_some() && extras != self.extras {
            self.dom.settings.set_attribute("open", "")?;
        }
        self.extras = extras;
        // κ is the offset head's: shown with it.
        self.dom
            .beta_control
            .set_hidden(ctx.settings.projection != ProjectionMode::Offset);
        let (stats, view) = render(ctx, &self.dom)?;
        self.stats = stats;
        if view.is_some() || !ctx.draw {
            self.view = view;
        }
        Ok(())
    }

    crate::web::panel::stats_in!(stats);

    fn error_slot(&self) -> &HtmlElement {
        &self.dom.summary
    }

    fn wire(&self, panel: PanelId, send: fn(Action)) -> Result<(), WebError> {
        reading::wire(&self.dom.canvas, panel, send, Paging::Rows)
    }

    fn event(&mut self, _ctx: &mut Ctx, event: PanelEvent) -> Result<bool, WebError> {
        let (canvas, tooltip) = (&self.dom.canvas, &self.dom.tooltip);
        let Some(view) = &self.view else {
            tooltip.set_hidden(true);
            return Ok(false);
        };
        let described = match event {
            PanelEvent::Pointer { x, y } => {
                let (cx, cy) = reading::to_canvas(canvas, x, y);
                view.describe(cx, cy).map(|text| (text, (x, y)))
            }
            PanelEvent::Cursor { rows, columns } => {
                let n = view.tokens.len();
                self.cursor = step_cell(self.cursor, (rows, columns), (n, n));
                let (query, key) = self.cursor;
                let at = reading::cell_centre(canvas, view.rect, (n, n), self.cursor);
                (n > 0).then(|| (view.describe_cell(query, key), at))
            }
            _ => None,
        };
        match described {
            Some((text, at)) => reading::show(canvas, tooltip, &self.dom.hover, &text, at),
            None => tooltip.set_hidden(true),
        }
        Ok(false)
    }

    fn csv(&self, _ctx: &Ctx) -> Option<LocalFuture<Result<String, WebError>>> {
        let csv =
            self.view.as_ref().map(WeightsView::csv).ok_or_else(|| {
                WebError::NotReady("the attention panel has not been drawn yet".into())
            });
        Some(Box::pin(async move { csv }))
    }
}

/// The panel, mounted (its row of the panel list names this module).
#[inline(always)] // into the list's one `match` (see `crate::panels`)
pub fn mount() -> Result<Box<dyn crate::web::panel::Panel>, crate::web::error::WebError> {
    Ok(Box::new(AttentionPanel::mount()?))
}
