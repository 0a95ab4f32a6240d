//! Panel 3, order is lost without P: permute the tokens, and without P the outputs are the same
//! rows permuted (max |Y(πX) − πY(X)| is float32 rounding); with P they are not. No mask here: the
//! masked variant is not equivariant (shown as its own number). CPU twins on both backends.

use crate::model::query::values::UrlName;
use crate::web::surface::{self, Plotting};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use serde::Serialize;
use web_sys::HtmlCanvasElement;

use super::{
    family_label, gap_without_position, is_rounding, masked_sentence, permutation_sentence,
    rounding_bound, shift_sentence, token_line, Gaps, SHIFT,
};
use crate::math::measures::{
    layer_output, masked_equivariance_gap_projected, row_gaps_projected, shift_gaps,
};
use crate::math::order::permute_tokens;
use crate::math::position::{Encoding, PositionScheme};
use crate::math::tokens::attention_input;
use crate::model::figure_style::FigureStyle;
use crate::model::plot::integer_ticks;
use crate::web::dom;
use crate::web::draw::chart::{
    colour, prepare, record, styled_mesh, text_style, Axis, ChartFrame, LegendEntry,
};
use crate::web::error::{draw_error, WebError};
use crate::web::panels::view::View;
use crate::web::panels::{canvas_message, format_number, Ctx};
use web_sys::HtmlElement;

#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OrderStats {
    pub tokens: Vec<String>,
    pub permutation: Vec<usize>,
    pub permuted_tokens: Vec<String>,
    pub description: String,
    /// max |Y(πX) − πY(X)| with the embeddings alone: float32 rounding.
    pub without_pe: f64,
    /// The same with P added by position: large.
    pub with_pe: f64,
    /// Per output row (of the permuted sentence).
    pub rows_without_pe: Vec<f64>,
    pub rows_with_pe: Vec<f64>,
    /// The "without P" gap when keys ≥ `masked_valid_len` are masked: not equivariant.
    pub masked_without_pe: f64,
    pub masked_valid_len: usize,
    /// Whether the permutation moves any token.
    pub moves_tokens: bool,
    /// The float32 rounding bound ([`rounding_bound`](super::rounding_bound)): gaps at or below
    /// it are drawn as 0 and called rounding.
    pub rounding_bound: f64,
    /// The largest |Y(X)| without P, the size the bound is taken relative to.
    pub output_scale: f64,
    pub takeaway: String,
    /// The layer's projections (as the attention panel's).
    pub projection: &'static str,
    /// The position family of the "with" gaps: the attention panels' `enc`, or sinusoidal when
    /// that is `none` (the comparison needs a position).
    pub encoding: &'static str,
    /// Exercise 3: max |A(positions s…s+n−1) − A(positions 0…n−1)| of the attention weights when
    /// the whole sentence is shifted by s = `shift` positions, per family.
    pub shift_gap: ShiftGaps,
    pub shift: usize,
    /// The d of the shift check (the page's d, at most [`SHIFT_MAX_D`]).
    pub shift_d: usize,
    pub ms: f64,
}

/// [`OrderStats::shift_gap`], one field per family (named as in `enc`).
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct ShiftGaps {
    pub sinusoidal: f64,
    pub learned: f64,
    pub rope: f64,
    pub alibi: f64,
    pub t5: f64,
    pub shaw: f64,
    pub none: f64,
}

impl ShiftGaps {
    fn from_pairs(pairs: &[(Encoding, f64)]) -> Self {
        let mut gaps = ShiftGaps::default();
        for &(encoding, gap) in pairs {
            let slot = match encoding {
                Encoding::Sinusoidal => &mut gaps.sinusoidal,
                Encoding::Learned => &mut gaps.learned,
                Encoding::Rope => &mut gaps.rope,
                Encoding::Alibi => &mut gaps.alibi,
                Encoding::T5 => &mut gaps.t5,
                Encoding::Shaw => &mut gaps.shaw,
                Encoding::None => &mut gaps.none,
            };
            *slot = gap;
        }
        gaps
    }
}

/// The shift check runs at most at this d: seven families, two layers each, stay a few
/// milliseconds (at d = 2048 each layer's projections alone are 8·10⁶ multiply-adds per token).
pub const SHIFT_MAX_D: usize = 256;

/// The shift gaps of every family, cached on the tokens, the layer and the families' settings.
fn shift_gaps_of(ctx: &Ctx, tokens: &[String]) -> Result<(Vec<(Encoding, f64)>, usize), WebError> {
    let (params, lesson) = (ctx.params, ctx.settings);
    let d = params.d.min(SHIFT_MAX_D);
    let scheme = lesson.position_scheme(params.base);
    let inputs = crate::web::panels::tokens_key(ctx)
        .with_parts(&scheme)
        .with_all(crate::web::panels::projection_key(ctx))
        .with(d);
    let gaps = ctx.caches.shift_gaps.get_or_try(inputs, || {
        let projections = if d == params.d {
            crate::web::panels::projections(ctx)
        } else {
            std::rc::Rc::new(crate::math::layer::Projections::of_mode(
                lesson.projection,
                d,
                lesson.seed,
                params.base,
                params.delta,
                lesson.beta,
            ))
        };
        shift_gaps(
            tokens,
            d,
            lesson.scale_embeddings,
            &scheme,
            &projections,
            SHIFT,
        )
    })?;
    Ok((gaps, d))
}

/// The gaps of each output row between the two orders, without and with P (the family's, the
/// chapter's when position is off), and the outputs' size for the rounding bound. They do not
/// depend on valid_len: a mask change reuses them (at d = 2048 each is four layers of 4·10⁶
/// multiply-adds per token).
fn order_gaps(
    ctx: &Ctx,
    tokens: &[String],
    permutation: &[usize],
    family: Encoding,
) -> Result<Gaps, WebError> {
    let (params, lesson) = (ctx.params, ctx.settings);
    let (d, base, scale) = (params.d, params.base, lesson.scale_embeddings);
    // The same layer as the attention panel: the order argument holds for any W_q, W_k, W_v, W_o.
    let projections = crate::web::panels::projections(ctx);
    let layer = Some(projections.as_ref());
    let with_position = PositionScheme {
        encoding: family,
        ..lesson.position_scheme(base)
    };
    let without_position = PositionScheme {
        encoding: Encoding::None,
        ..with_position
    };
    let inputs = crate::web::panels::tokens_key(ctx)
        .with_parts(&with_position)
        .with_list(permutation.iter().copied())
        .with_all(crate::web::panels::projection_key(ctx));
    ctx.caches.order_gaps.get_or_try(inputs, || {
        // The outputs' size, for the rounding bound: the layer's output without P, the one whose
        // two orders are compared (one more layer, cached with the gaps).
        let plain = attention_input(tokens, d, base, false, scale)
            .map_err(|e| WebError::Draw(e.to_string()))?;
        let output = layer_output(plain.view(), layer, None)?;
        let size = output
            .iter()
            .fold(0.0f64, |worst, &v| worst.max(f64::from(v).abs()));
        Ok::<Gaps, WebError>((
            row_gaps_projected(tokens, permutation, d, scale, &without_position, layer)?,
            row_gaps_projected(tokens, permutation, d, scale, &with_position, layer)?,
            size,
        ))
    })
}

pub fn render(ctx: &mut Ctx, dom: &OrderDom) -> Result<OrderStats, WebError> {
    let (params, lesson) = (ctx.params, ctx.settings);
    let (d, scale) = (params.d, lesson.scale_embeddings);
    let tokens = lesson.tokens();
    let n = tokens.len();
    let chosen = lesson.chosen_permutation(&tokens);
    let permuted = permute_tokens(&tokens, &chosen.permutation)?;
    // The same layer as the attention panel (see `order_gaps`).
    let projections = crate::web::panels::projections(ctx);
    let layer = Some(projections.as_ref());
    let family = match lesson.encoding {
        Encoding::None => Encoding::Sinusoidal,
        family => family,
    };
    let (without, with, output_scale) = order_gaps(ctx, &tokens, &chosen.permutation, family)?;
    let bound = rounding_bound(n, d, output_scale);
    let max = |v: &[f64]| v.iter().copied().fold(0.0, f64::max);
    let masked_valid_len = lesson
        .effective_valid_len()
        .unwrap_or(n.saturating_sub(2))
        .max(1);
    let masked = if n == 0 {
        0.0
    } else {
        masked_equivariance_gap_projected(
            &tokens,
            &chosen.permutation,
            d,
            masked_valid_len,
            scale,
            layer,
        )?
    };
    let moves = chosen.permutation.iter().enumerate().any(|(i, &p)| i != p);
    let (shift_pairs, shift_d) = shift_gaps_of(ctx, &tokens)?;
    let stats = OrderStats {
        projection: lesson.projection.to_query(),
        encoding: family.to_query(),
        tokens: tokens.clone(),
        permutation: chosen.permutation.clone(),
        permuted_tokens: permuted.clone(),
        description: chosen.description.clone(),
        without_pe: max(&without),
        with_pe: max(&with),
        rows_without_pe: without,
        rows_with_pe: with,
        masked_without_pe: masked,
        masked_valid_len,
        moves_tokens: moves,
        rounding_bound: bound,
        output_scale,
        takeaway: String::new(),
        shift_gap: ShiftGaps::from_pairs(&shift_pairs),
        shift: SHIFT,
        shift_d,
        ms: 0.0,
    };
    let takeaway = write_texts(dom, &stats, &shift_pairs, family);
    if ctx.draw {
        draw_chart(&dom.chart, &permuted, &stats, ctx.style)?;
    }
    Ok(OrderStats { takeaway, ..stats })
}

/// The panel's sentences: the shift, the two orders, the permutation, the gaps, the takeaway and
/// the masked gap. Returns the takeaway.
fn write_texts(
    dom: &OrderDom,
    stats: &OrderStats,
    shift_pairs: &[(Encoding, f64)],
    family: Encoding,
) -> String {
    let n = stats.tokens.len();
    dom::text(
        &dom.shift,
        &shift_sentence(SHIFT, stats.shift_d, shift_pairs),
    );

    dom::text(&dom.original, &format!("X: {}", token_line(&stats.tokens)));
    dom::text(
        &dom.permuted,
        &format!("πX: {}", token_line(&stats.permuted_tokens)),
    );
    dom::text(
        &dom.description,
        &permutation_sentence(&stats.description, stats.moves_tokens, n),
    );
    dom::text(&dom.without, &gap_without_position(stats.without_pe));
    dom::text(&dom.with, &format_number(stats.with_pe));
    dom::text(&dom.with_name, &family_label(family));
    dom::text(&dom.bound, &format!("{:.2e}", stats.rounding_bound));
    let takeaway = super::takeaway::takeaway(
        n,
        stats.moves_tokens,
        stats.without_pe,
        stats.with_pe,
        stats.rounding_bound,
        &family_label(family),
    );
    dom::text(&dom.takeaway, &takeaway);
    dom::text(
        &dom.masked,
        &if n == 0 {
            crate::message!("status-order-no-tokens")
        } else {
            masked_sentence(
                stats.masked_valid_len,
                stats.masked_without_pe,
                family == Encoding::Alibi,
            )
        },
    );
    takeaway
}

/// The chart the bars are drawn on.
type Plane<'a> = ChartContext<'a, Plotting<'static>, Cartesian2d<Axis, Axis>>;

/// The canvas the chart is drawn on.
type Area = DrawingArea<Plotting<'static>, Shift>;

/// A gap as drawn: 0 where it is float32 rounding (at or below `bound`).
fn shown(gap: f64, bound: f64) -> f64 {
    if is_rounding(gap, bound) {
        0.0
    } else {
        gap
    }
}

/// One pair of bars per output row on a linear axis: the gap without P and with P. A gap at or
/// below the float32 rounding bound is drawn as 0 and written "0" where its bar would stand, so
/// that "identical" looks identical (a log axis had drawn 2e-7 of rounding as a bar a quarter as
/// tall as the real effect).
fn draw_chart(
    canvas: &HtmlCanvasElement,
    permuted: &[String],
    stats: &OrderStats,
    style: &FigureStyle,
) -> Result<(), WebError> {
    let with_label = crate::message!(
        "figure-order-legend-with",
        encoding = family_label(Encoding::from_query(stats.encoding).unwrap_or_default()),
    );
    let n = permuted.len();
    if n == 0 {
        return canvas_message(
            canvas,
            &[crate::message!("figure-order-no-tokens").as_str()],
        );
    }
    let bound = stats.rounding_bound;
    let backend = surface::plotting(canvas)?;
    let root = backend.into_drawing_area();
    let bars = [
        (
            &stats.rows_without_pe,
            crate::message!("figure-order-legend-without"),
            colour(style.series(0)),
        ),
        (&stats.rows_with_pe, with_label, colour(style.series(4))),
    ];
    let legend: Vec<LegendEntry> = bars
        .iter()
        .map(|(_, label, bar_colour)| LegendEntry::line(label.clone(), *bar_colour))
        .collect();
    let top = axis_top(bars.iter().map(|(rows, _, _)| rows.as_slice()), bound);
    let y_label = |v: &f64| gap_label(*v, top);
    let prepared = prepare(
        &root,
        &ChartFrame {
            style,
            x_title: &crate::message!("figure-order-x"),
            y_title: &crate::message!("figure-order-y"),
            y_ticks: &[y_label(&top), y_label(&(top / 2.0))],
            legend: &legend,
        },
    )?;
    let mut chart = prepared
        .builder()
        .build_cartesian_2d(
            Axis::ticked(-0.5..n as f64 - 0.5, integer_ticks(n, 16)),
            Axis::linear(0.0..top),
        )
        .map_err(draw_error)?;
    let names = column_names(&chart, &root, permuted, style);
    styled_mesh(&mut chart, &prepared, style, (16, 6))
        .x_label_formatter(&|v| column_label(&names, *v))
        .y_label_formatter(&y_label)
        .draw()
        .map_err(draw_error)?;
    for (k, (rows, _, bar_colour)) in bars.iter().enumerate() {
        draw_gap_bars(
            &mut chart,
            (k, rows.as_slice()),
            *bar_colour,
            (top, bound),
            style,
        )?;
    }
    record(canvas, &prepared.geometry(&chart), style)?;
    root.present().map_err(draw_error)?;
    Ok(())
}

/// The top of the y axis: a little above the largest gap drawn, or 1 when every gap is rounding
/// (an axis of 1 rather than of 0).
fn axis_top<'a>(rows: impl Iterator<Item = &'a [f64]>, bound: f64) -> f64 {
    let top = rows
        .flat_map(|rows| rows.iter().map(|&g| shown(g, bound)))
        .filter(|g| g.is_finite())
        .fold(0.0f64, f64::max);
    if top > 0.0 {
        top * 1.12
    } else {
        1.0
    }
}

/// A y tick label, with as many decimals as an axis up to `top` needs.
fn gap_label(v: f64, top: f64) -> String {
    if v == 0.0 {
        "0".to_string()
    } else if top >= 10.0 {
        format!("{v:.0}")
    } else if top >= 1.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

/// The columns' labels: the tokens' names where each fits its own column whole (a projector's
/// large type ran "oranges" into "and"; names cut with "…" were no longer names), measured with
/// the ticks' font, within 0.3 em of the next. Where one does not fit, every column is labelled
/// with its row number i instead, which the axis title ties to the i-th token of πX, printed
/// above.
fn column_names(
    chart: &Plane,
    root: &Area,
    permuted: &[String],
    style: &FigureStyle,
) -> Vec<String> {
    let n = permuted.len();
    let (plot_width, _) = chart.plotting_area().dim_in_pixel();
    let column = f64::from(plot_width) / n as f64 - 0.3 * style.tick_px;
    let tick_font = text_style(style, style.tick_px, style.ink);
    let width = |text: &str| {
        root.estimate_text_size(text, &tick_font)
            .map(|(w, _)| f64::from(w))
            .unwrap_or(text.chars().count() as f64 * 0.6 * style.tick_px)
    };
    let names_fit = permuted.iter().all(|token| width(token) <= column);
    permuted
        .iter()
        .enumerate()
        .map(|(i, token)| {
            if names_fit {
                token.clone()
            } else {
                i.to_string()
            }
        })
        .collect()
}

/// The label of column `v` (an integer tick), empty between columns.
fn column_label(names: &[String], v: f64) -> String {
    if (v - v.round()).abs() > 1e-9 || v < 0.0 {
        return String::new();
    }
    names.get(v.round() as usize).cloned().unwrap_or_default()
}

/// The bars of series `k` (0: without P, left of each row's tick; 1: with P, right of it) in
/// `bar_colour`, on an axis up to `top`, and "0" where a gap is rounding (at or below `bound`).
fn draw_gap_bars(
    chart: &mut Plane,
    (k, rows): (usize, &[f64]),
    bar_colour: RGBColor,
    (top, bound): (f64, f64),
    style: &FigureStyle,
) -> Result<(), WebError> {
    let offset = if k == 0 { -0.4 } else { 0.0 };
    chart
        .draw_series(
            rows.iter()
                .enumerate()
                .filter(|(_, &gap)| shown(gap, bound) > 0.0 || gap.is_nan())
                .map(|(r, &gap)| {
                    let x = r as f64 + offset;
                    let height = if gap.is_nan() { top } else { gap };
                    Rectangle::new([(x, 0.0), (x + 0.4, height)], bar_colour.filled())
                }),
        )
        .map_err(draw_error)?;
    // A rounding-sized gap has no bar: "0" stands where it would, in the series' colour.
    let zero = text_style(
        style,
        style.tick_px,
        style.series(if k == 0 { 0 } else { 4 }),
    )
    .pos(Pos::new(HPos::Center, VPos::Bottom));
    chart
        .draw_series(
            rows.iter()
                .enumerate()
                .filter(|(_, &gap)| is_rounding(gap, bound))
                .map(|(r, _)| Text::new("0", (r as f64 + offset + 0.2, top * 0.01), zero.clone())),
        )
        .map_err(draw_error)?;
    Ok(())
}

crate::element_table! {
    pub struct OrderDom {
        original: HtmlElement = "order-original",
        permuted: HtmlElement = "order-permuted",
        description: HtmlElement = "order-description",
        with_name: HtmlElement = "order-with-name",
        without: HtmlElement = "order-without",
        bound: HtmlElement = "order-bound",
        takeaway: HtmlElement = "order-takeaway",
        with: HtmlElement = "order-with",
        chart: HtmlCanvasElement = "order-chart",
        masked: HtmlElement = "order-masked",
        shift: HtmlElement = "order-shift",
    }
}

/// The panel: its elements, the inputs it reads and its view ([`crate::web::panels::view`]).
pub static VIEW: View<OrderDom, OrderStats> = View {
    elements: OrderDom::mount,
    takeaway: |dom| &dom.takeaway,
    inputs: |ctx| {
        let l = ctx.settings;
        crate::web::panels::tokens_key(ctx)
            .with_parts(&l.permutation)
            .with(l.effective_valid_len())
            .with_all(crate::web::panels::projection_key(ctx))
    },
    render,
    ms: |stats| &mut stats.ms,
};

crate::web::panels::view::mount_view!(VIEW);
