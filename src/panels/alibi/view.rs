//! ALiBi (Press et al. 2022): no position vectors; head h adds m_h·(j − i) to the scores of the
//! keys j ≤ i (causal), with the slopes a geometric sequence from 2^(−8/H) (the paper's rule for H
//! not a power of two). Shows the slope table, every head's bias matrix, and how far each head
//! looks: the bias alone puts weight ∝ e^(−m·(i − j)) on the key i − j back, at every query
//! position i, inside the training length or far beyond it. CPU (`math::alibi`) on both backends.
//! The numbers and sentences are `model::alibi`; this draws and wires.

use crate::model::inputs::Inputs;
use web_sys::{HtmlCanvasElement, HtmlElement};

use super::{
    beyond_sentence, bias_limit, bias_only_curve, compute, content, content_width, curve_label,
    head_block, head_name, head_name_boxes, heatmap_rows, heatmap_sentence, heatmap_slope,
    measure_weights, slopes_sentence, tile_names, tiled_biases, AlibiStats, HeadNames,
    CONTENT_WIDTH, CPU_WEIGHT_ROWS, CURVE_HEADS,
};
use crate::math::alibi::causal_weights_f32;
use crate::model::figure_style::{FigureStyle, Rgb};
use crate::model::plot::PixelRect;
use crate::web::dom;
use crate::web::error::WebError;
use crate::web::panels::family_charts::{
    draw_lines, draw_matrix, draw_matrix_in, key_query_axes, matrix_frame, LineChart, Scale, Series,
};
use crate::web::panels::view::View;
use crate::web::panels::Ctx;
use crate::web::surface;
use ndarray::s;

/// Head 0's causal weights: numbers from the CPU twin on the first rows, the picture from the
/// ALiBi kernel on WebGPU (the page's n) or the CPU twin (fewer rows).
fn weight_heatmap(ctx: &mut Ctx, dom: &AlibiDom, stats: &mut AlibiStats) -> Result<(), WebError> {
    let width = content_width(ctx.params.d);
    let slope = heatmap_slope(stats);
    let rows = heatmap_rows(ctx.params.n);
    let (q, k) = content(rows, width, ctx.settings.seed);
    measure_weights(&q, &k, slope, stats);
    if !ctx.draw {
        return Ok(());
    }
    let (key, query) = key_query_axes();
    let names = (key.as_str(), query.as_str());
    // Only on WebGPU: on the CPU path draw_matrix below draws the frame once.
    if ctx.backend.is_gpu() {
        let rect = matrix_frame(
            &dom.heatmap,
            ctx.scratch,
            (rows, rows),
            Scale::Weights,
            names,
            (None, None),
        )?;
        let (qk, heatmap) = ((q.view(), k.view()), &dom.heatmap);
        let drawn = ctx
            .backend
            .draw_on_gpu(|gpu| gpu.draw_alibi_weights(qk, slope, rect, heatmap));
        match drawn {
            Ok(true) => {
                stats.weights_n = rows;
                stats.weights_backend = "webgpu";
                return Ok(());
            }
            Ok(false) => {}
            // Any GPU failure: the CPU twin draws instead, and the stats say why.
            Err(error) => stats.weights_gpu_error = Some(error.to_string()),
        }
    }
    let cpu_rows = rows.min(CPU_WEIGHT_ROWS);
    let weights = causal_weights_f32(
        q.slice(s![..cpu_rows, ..]),
        k.slice(s![..cpu_rows, ..]),
        slope,
    );
    draw_matrix(
        &dom.heatmap,
        ctx.scratch,
        weights.as_slice().unwrap_or(&[]),
        (cpu_rows, cpu_rows),
        Scale::Weights,
        names,
        (None, None),
    )?;
    stats.weights_n = cpu_rows;
    stats.weights_backend = "cpu";
    Ok(())
}

/// The masked cells' grey (math::colormap's NaN colour), on which the heads' names are written.
const MASKED_GREY: Rgb = Rgb(128, 128, 128);

/// Writes each head's name ("h0", …, or "0" on small blocks) on its block of the tiled bias matrices drawn into `cells`,
/// over the block's masked cells (model::alibi::head_name_boxes), and records the blocks, the
/// names' boxes (`data-head-blocks`, `data-head-names`: "x0 y0 x1 y1" joined by ";", logical
/// pixels) and the names' size in CSS pixels (`data-head-name-px`) for the tests.
fn name_heads(
    canvas: &HtmlCanvasElement,
    style: &FigureStyle,
    cells: PixelRect,
    heads: usize,
) -> Result<(), WebError> {
    let context = surface::context(canvas)?;
    let font = |px: f64| format!("{px:.1}px {}", style.font);
    let width = |text: &str, px: f64| {
        context.set_font(&font(px));
        context
            .measure_text(text)
            .map_or(0.6 * px * text.chars().count() as f64, |m| m.width())
    };
    // The tick labels' size where it fits, never below 10 px (a phone's small blocks).
    let HeadNames { short, px, boxes } =
        head_name_boxes(cells, heads, (style.tick_px, 10.0), width);
    context.set_font(&font(px));
    context.set_fill_style_str(&FigureStyle::text_on(MASKED_GREY).css());
    context.set_text_align("center");
    context.set_text_baseline("middle");
    for (h, b) in boxes.iter().enumerate() {
        context.fill_text(
            &head_name(h, short),
            (b.x0 + b.x1) / 2.0,
            (b.y0 + b.y1) / 2.0 + 1.0,
        )?;
    }
    let join = |rects: &mut dyn Iterator<Item = PixelRect>| {
        rects
            .map(|r| format!("{:.1} {:.1} {:.1} {:.1}", r.x0, r.y0, r.x1, r.y1))
            .collect::<Vec<_>>()
            .join(";")
    };
    let blocks = join(&mut (0..heads).map(|h| head_block(cells, heads, h)));
    canvas.set_attribute("data-head-blocks", &blocks)?;
    canvas.set_attribute("data-head-names", &join(&mut boxes.into_iter()))?;
    let (css_px, _) = surface::logical_to_css(canvas, px, 0.0);
    canvas.set_attribute("data-head-name-px", &format!("{css_px:.2}"))?;
    Ok(())
}

fn render(ctx: &mut Ctx, dom: &AlibiDom) -> Result<AlibiStats, WebError> {
    let (heads, context) = (ctx.settings.alibi_heads, ctx.settings.training_context);
    let mut stats = compute(heads, context);
    weight_heatmap(ctx, dom, &mut stats)?;
    if ctx.draw {
        let (values, rows, columns) = tiled_biases(&stats.slopes);
        let cells = draw_matrix_in(
            &dom.biases,
            ctx.scratch,
            &values,
            (rows, columns),
            Scale::Diverging(bias_limit(&stats.slopes)),
            (
                crate::message!("figure-alibi-biases-x").as_str(),
                crate::message!("label-axis-query-i").as_str(),
            ),
            (Some(&tile_names(columns)), Some(&tile_names(rows))),
        )?;
        if let Some(cells) = cells {
            name_heads(&dom.biases, ctx.style, cells, stats.slopes.len())?;
        }
        let series = stats
            .slopes
            .iter()
            .take(CURVE_HEADS)
            .enumerate()
            .map(|(h, &m)| Series {
                label: curve_label(h, m),
                colour: h,
                points: bias_only_curve(m, context),
                dashed: false,
                markers: false,
                ..Default::default()
            })
            .collect();
        draw_lines(
            &dom.weights,
            &LineChart {
                style: ctx.style,
                x_desc: &crate::message!("figure-alibi-weights-x"),
                y_desc: &crate::message!("figure-alibi-weights-y"),
                log_x: false,
                log_y: false,
                series,
                y_range: None,
                marks: Vec::new(),
            },
        )?;
    }
    dom::text(&dom.readout, &slopes_sentence(&stats));
    dom::text(&dom.beyond, &beyond_sentence(&stats));
    dom::text(&dom.takeaway, &super::takeaway::takeaway(&stats));
    // The same sentence whether or not the heatmap was drawn (see `heatmap_sentence`).
    dom::text(
        &dom.heatmap_readout,
        &heatmap_sentence(&stats, ctx.params.n, ctx.params.d),
    );
    Ok(stats)
}

crate::element_table! {
    pub struct AlibiDom {
        takeaway: HtmlElement = "alibi-takeaway",
        biases: HtmlCanvasElement = "alibi-biases",
        readout: HtmlElement = "alibi-readout",
        weights: HtmlCanvasElement = "alibi-weights",
        beyond: HtmlElement = "alibi-beyond",
        heatmap: HtmlCanvasElement = "alibi-heatmap",
        heatmap_readout: HtmlElement = "alibi-heatmap-readout",
    }
}

/// The panel: its elements, the inputs it reads and its view ([`crate::web::panels::view`]).
pub static VIEW: View<AlibiDom, AlibiStats> = View {
    elements: AlibiDom::mount,
    takeaway: |dom| &dom.takeaway,
    inputs: |ctx| {
        Inputs::new()
            .with(ctx.settings.alibi_heads)
            .with(ctx.settings.training_context)
            .with(ctx.params.n)
            .with(ctx.params.d.min(CONTENT_WIDTH))
            .with(ctx.settings.seed)
    },
    render,
    ms: |stats| &mut stats.ms,
};

crate::web::panels::view::mount_view!(VIEW);
