//! RoPE (Su et al. 2021): the shift residual |s(m, n) − s(m + Δ, n + Δ)|/(‖q‖‖k‖) in float64
//! and float32 against Δ, RoFormer's long-term-decay bound beside the mean score of random q, k,
//! and the interleaved vs half-split layouts. CPU (`math::rope`) on both backends: a few hundred
//! rotations of one vector. The numbers and sentences are the panel's (`mod.rs`, `takeaway.rs`); this draws and wires.

use crate::model::inputs::Inputs;
use web_sys::{HtmlCanvasElement, HtmlElement};

use super::{
    compute, cpu_score_rows, decay_sentence, gpu_score_rows, measure_scores, no_pair_message,
    no_pair_sentence, repeated, residual_sentence, score_range, score_vectors, scores_sentence,
    RopeStats,
};
use crate::gpu::rope_scores::ROPE_MAX_DIMENSION;
use crate::math::rope::scores_f32;
use crate::model::figure_style::FigureStyle;
use crate::web::dom;
use crate::web::error::WebError;
use crate::web::panels::family_charts::{
    draw_lines, draw_matrix, key_query_axes, matrix_frame, LineChart, Scale, Series,
};
use crate::web::panels::view::View;
use crate::web::panels::{canvas_message, Ctx};

/// The score heatmap's numbers (every backend) and picture (when drawn).
fn score_heatmap(ctx: &mut Ctx, dom: &RopeDom, stats: &mut RopeStats) -> Result<(), WebError> {
    let (n, d, base) = (ctx.params.n, ctx.params.d, ctx.params.base);
    let (q, k) = score_vectors(d, ctx.settings.seed);
    measure_scores(&q, &k, n, base, stats)?;
    let range = score_range(stats);
    let gpu_rows = gpu_score_rows(n);
    let cpu_rows = cpu_score_rows(n, d);
    if !ctx.draw {
        return Ok(());
    }
    let (key, query) = key_query_axes();
    let names = (key.as_str(), query.as_str());
    // Only on WebGPU: on the CPU path the frame and the n-row copies of q and k would be made
    // for nothing (draw_matrix below draws its own frame).
    if d <= ROPE_MAX_DIMENSION && ctx.backend.is_gpu() {
        let rect = matrix_frame(
            &dom.scores,
            ctx.scratch,
            (gpu_rows, gpu_rows),
            Scale::Diverging(range),
            names,
            (None, None),
        )?;
        let (qg, kg) = (repeated(&q, gpu_rows), repeated(&k, gpu_rows));
        let (qk, scores) = ((qg.view(), kg.view()), &dom.scores);
        let drawn = ctx
            .backend
            .draw_on_gpu(|gpu| gpu.draw_rope_scores(qk, base, range, rect, scores));
        match drawn {
            Ok(true) => {
                stats.scores_n = gpu_rows;
                stats.scores_backend = "webgpu";
                return Ok(());
            }
            Ok(false) => {}
            // Any GPU failure: the CPU twin draws instead, and the stats say why.
            Err(error) => stats.scores_gpu_error = Some(error.to_string()),
        }
    }
    let scores = scores_f32(
        repeated(&q, cpu_rows).view(),
        repeated(&k, cpu_rows).view(),
        base,
    )?;
    draw_matrix(
        &dom.scores,
        ctx.scratch,
        scores.as_slice().unwrap_or(&[]),
        (cpu_rows, cpu_rows),
        Scale::Diverging(range),
        names,
        (None, None),
    )?;
    stats.scores_n = cpu_rows;
    stats.scores_backend = "cpu";
    Ok(())
}

fn render(ctx: &mut Ctx, dom: &RopeDom) -> Result<RopeStats, WebError> {
    let (d, base, seed) = (ctx.params.d, ctx.params.base, ctx.settings.seed);
    let mut stats = compute(d, base, seed)?;
    if stats.d >= 2 {
        score_heatmap(ctx, dom, &mut stats)?;
    }
    if stats.d < 2 {
        if ctx.draw {
            for canvas in [&dom.residuals, &dom.decay, &dom.scores] {
                canvas_message(canvas, &no_pair_message())?;
            }
        }
        dom::text(&dom.readout, &no_pair_sentence(d));
        dom::text(&dom.takeaway, &super::takeaway::takeaway(&stats));
        dom::text(&dom.decay_readout, "");
        return Ok(stats);
    }
    if ctx.draw {
        draw_log_y(
            &dom.residuals,
            ctx.style,
            (
                &crate::message!("figure-rope-residuals-x"),
                &crate::message!("figure-rope-residuals-y"),
            ),
            true,
            residual_series(&stats),
        )?;
        draw_log_y(
            &dom.decay,
            ctx.style,
            (
                &crate::message!("figure-rope-decay-x"),
                &crate::message!("figure-rope-decay-y"),
            ),
            false,
            decay_series(&stats),
        )?;
    }
    dom::text(&dom.readout, &residual_sentence(&stats));
    dom::text(&dom.decay_readout, &decay_sentence(&stats));
    // The same sentence whether or not the heatmap was drawn (see `scores_sentence`).
    dom::text(&dom.scores_readout, &scores_sentence(&stats, ctx.params.n));
    dom::text(&dom.takeaway, &super::takeaway::takeaway(&stats));
    Ok(stats)
}

/// A chart of the panel's (both are on a log y axis, fitted to their points).
fn draw_log_y(
    canvas: &HtmlCanvasElement,
    style: &FigureStyle,
    (x_desc, y_desc): (&str, &str),
    log_x: bool,
    series: Vec<Series>,
) -> Result<(), WebError> {
    draw_lines(
        canvas,
        &LineChart {
            style,
            x_desc,
            y_desc,
            log_x,
            log_y: true,
            series,
            y_range: None,
            marks: Vec::new(),
        },
    )
}

/// The shift residual against Δ in float32 and float64.
fn residual_series(stats: &RopeStats) -> Vec<Series> {
    vec![
        Series {
            label: "float32".into(),
            colour: 4,
            points: stats
                .shift_residual_f32
                .iter()
                .map(|&(x, y)| (x as f64, y))
                .collect(),
            dashed: false,
            markers: true,
            ..Default::default()
        },
        Series {
            label: "float64".into(),
            colour: 0,
            points: stats
                .shift_residual_f64_curve
                .iter()
                .map(|&(x, y)| (x as f64, y.max(1e-18)))
                .collect(),
            dashed: false,
            markers: true,
            ..Default::default()
        },
    ]
}

/// The long-term decay: the bound on |score| and the mean |score| against the distance.
fn decay_series(stats: &RopeStats) -> Vec<Series> {
    vec![
        Series {
            label: crate::message!("figure-rope-legend-bound"),
            colour: 0,
            points: stats.score_bound.clone(),
            dashed: false,
            markers: false,
            ..Default::default()
        },
        Series {
            label: crate::message!("figure-rope-legend-mean"),
            colour: 4,
            points: stats.mean_abs_score.clone(),
            dashed: false,
            markers: true,
            ..Default::default()
        },
    ]
}

crate::element_table! {
    pub struct RopeDom {
        takeaway: HtmlElement = "rope-takeaway",
        residuals: HtmlCanvasElement = "rope-residuals",
        readout: HtmlElement = "rope-readout",
        decay: HtmlCanvasElement = "rope-decay",
        decay_readout: HtmlElement = "rope-decay-readout",
        scores: HtmlCanvasElement = "rope-scores",
        scores_readout: HtmlElement = "rope-scores-readout",
    }
}

/// The panel: its elements, the inputs it reads and its view ([`crate::web::panels::view`]).
pub static VIEW: View<RopeDom, RopeStats> = View {
    elements: RopeDom::mount,
    takeaway: |dom| &dom.takeaway,
    inputs: |ctx| {
        Inputs::new()
            .with(ctx.params.d)
            .with(ctx.params.base)
            .with(ctx.params.n)
            .with(ctx.settings.seed)
    },
    render,
    ms: |stats| &mut stats.ms,
};

crate::web::panels::view::mount_view!(VIEW);
