//! The pretrained panel's figures, painted into the rectangles of `layout.rs`: the grid of every
//! layer's and head's map (the heads that attend by position outlined, the chosen one framed) and
//! the chosen head enlarged with its tokens on both axes. Viridis from 0 to 1, as every attention
//! map of the page.

use ndarray::ArrayView2;
use web_sys::HtmlCanvasElement;

use super::layout::{GridLayout, HeadLayout};
use super::HeadOffset;
use crate::math::colormap::{sequential_bar_rgba, weights_image};
use crate::model::figure_style::FigureStyle;
use crate::model::plot::PixelRect;
use crate::web::draw::heatmap::{paint_image, RgbaImage};
use crate::web::error::WebError;
use crate::web::surface;

/// The maps of one run: `[layer, head, query, key]`.
pub type Maps<'a> = ndarray::ArrayView4<'a, f32>;

fn clear(canvas: &HtmlCanvasElement, style: &FigureStyle) -> Result<(f64, f64), WebError> {
    let (w, h) = surface::fit(canvas)?;
    let context = surface::context(canvas)?;
    context.set_fill_style_str(&style.background.css());
    context.fill_rect(0.0, 0.0, w, h);
    Ok((w, h))
}

fn paint_map(
    canvas: &HtmlCanvasElement,
    scratch: &HtmlCanvasElement,
    map: ArrayView2<f32>,
    rect: PixelRect,
) -> Result<(), WebError> {
    let n = map.nrows();
    let values: Vec<f32> = map.iter().copied().collect();
    let (pixels, width, height) = weights_image(&values, n, n, 1, |_, _| false);
    let image = RgbaImage {
        width,
        height,
        pixels: &pixels,
    };
    paint_image(canvas, scratch, &image, rect)
}

/// The grid; `marked` says which heads attend by position, `chosen` is the enlarged one.
pub fn draw_grid(
    canvas: &HtmlCanvasElement,
    scratch: &HtmlCanvasElement,
    style: &FigureStyle,
    maps: Maps,
    marked: &dyn Fn(usize, usize) -> bool,
    chosen: (usize, usize),
) -> Result<GridLayout, WebError> {
    let (w, h) = clear(canvas, style)?;
    let (layers, heads) = (maps.shape()[0], maps.shape()[1]);
    let context = surface::context(canvas)?;
    context.set_font(&format!("{}px {}", style.tick_px, style.font));
    let legend_width = legend_entries(style)
        .iter()
        .map(|(_, _, label)| legend_entry_width(&context, style, label))
        .sum::<Result<f64, WebError>>()?;
    let grid = GridLayout::fit(w, h, (layers, heads), style.tick_px, legend_width);
    context.set_fill_style_str(&style.muted.css());
    context.set_text_baseline("middle");
    context.set_text_align("right");
    for layer in 0..layers {
        let r = grid.tile_rect(layer, 0);
        let label = crate::training_message!("pretrained-layer-label", layer = layer);
        context.fill_text(&label, r.x0 - 6.0, (r.y0 + r.y1) / 2.0)?;
    }
    context.set_text_align("center");
    for head in 0..heads {
        let r = grid.tile_rect(0, head);
        context.fill_text(
            &head.to_string(),
            (r.x0 + r.x1) / 2.0,
            r.y0 - style.tick_px * 0.8,
        )?;
    }
    context.set_text_align("start");
    context.set_text_baseline("alphabetic");
    for layer in 0..layers {
        for head in 0..heads {
            let rect = grid.tile_rect(layer, head);
            let map = maps.slice(ndarray::s![layer, head, .., ..]);
            paint_map(canvas, scratch, map, rect)?;
            let context = surface::context(canvas)?;
            if (layer, head) == chosen {
                context.set_stroke_style_str(&style.ink.css());
                context.set_line_width(3.0);
                context.stroke_rect(
                    rect.x0 - 2.5,
                    rect.y0 - 2.5,
                    grid.tile + 5.0,
                    grid.tile + 5.0,
                );
            } else if marked(layer, head) {
                context.set_stroke_style_str(&style.series(1).css());
                context.set_line_width(2.0);
                context.stroke_rect(
                    rect.x0 - 1.5,
                    rect.y0 - 1.5,
                    grid.tile + 3.0,
                    grid.tile + 3.0,
                );
            }
        }
    }
    draw_legend(canvas, style, &grid)?;
    Ok(grid)
}

/// Under the grid: what its two outlines mean.
fn draw_legend(
    canvas: &HtmlCanvasElement,
    style: &FigureStyle,
    grid: &GridLayout,
) -> Result<(), WebError> {
    let context = surface::context(canvas)?;
    let px = style.tick_px;
    let mut x = grid.origin.0;
    context.set_font(&format!("{px}px {}", style.font));
    context.set_text_baseline("alphabetic");
    for (line, (colour, width, label)) in legend_entries(style).into_iter().enumerate() {
        let y = grid.legend_y(px, line * (grid.legend_lines - 1));
        if line > 0 && grid.legend_lines > 1 {
            x = grid.origin.0;
        }
        context.set_stroke_style_str(&colour);
        context.set_line_width(width);
        context.stroke_rect(x + 1.5, y - px * 0.85, px * 0.8, px * 0.8);
        context.set_fill_style_str(&style.muted.css());
        context.fill_text(&label, x + px * 1.4, y)?;
        x += legend_entry_width(&context, style, &label)?;
    }
    Ok(())
}

/// The legend's two entries: an outline's colour and line width, and what it means.
fn legend_entries(style: &FigureStyle) -> [(String, f64, String); 2] {
    [
        (
            style.series(1).css(),
            2.0,
            crate::training_message!("pretrained-legend-position"),
        ),
        (
            style.ink.css(),
            3.0,
            crate::training_message!("pretrained-legend-chosen"),
        ),
    ]
}

/// The room one legend entry takes on its line, in the context's font: its square, its label
/// and the space before the next entry.
fn legend_entry_width(
    context: &web_sys::CanvasRenderingContext2d,
    style: &FigureStyle,
    label: &str,
) -> Result<f64, WebError> {
    let px = style.tick_px;
    Ok(px * 1.4 + context.measure_text(label)?.width() + px * 1.5)
}

/// The chosen head, enlarged: its title, its map, the tokens on both axes and the colour scale.
pub fn draw_head(
    canvas: &HtmlCanvasElement,
    scratch: &HtmlCanvasElement,
    style: &FigureStyle,
    map: ArrayView2<f32>,
    tokens: &[String],
    title: &str,
) -> Result<(), WebError> {
    let (w, h) = clear(canvas, style)?;
    let context = surface::context(canvas)?;
    context.set_font(&format!("{}px {}", style.tick_px, style.font));
    let mut label_room: f64 = 0.0;
    for token in tokens {
        label_room = label_room.max(context.measure_text(token)?.width());
    }
    let label_room = (label_room + 10.0).min(w * 0.25);
    let title_room = (style.title_px * 1.8).ceil();
    let bar_room = style.tick_px * 4.0;
    let layout = HeadLayout::fit(
        w - bar_room,
        h,
        tokens.len(),
        style.tick_px,
        label_room,
        title_room,
    );
    // The title in the title's type, smaller where the figure is narrower than it (an embed).
    let mut title_px = style.title_px;
    loop {
        context.set_font(&format!("{title_px}px {}", style.font));
        if context.measure_text(title)?.width() <= w - 8.0 || title_px <= style.tick_px * 0.8 {
            break;
        }
        title_px = (title_px * 0.9).floor();
    }
    context.set_fill_style_str(&style.ink.css());
    context.fill_text(title, 4.0, style.title_px * 1.2)?;
    paint_map(canvas, scratch, map, layout.map)?;
    let context = surface::context(canvas)?;
    context.set_font(&format!("{}px {}", style.tick_px, style.font));
    context.set_fill_style_str(&style.ink.css());
    let PixelRect { x0, y0, y1, .. } = layout.map;
    context.set_text_baseline("middle");
    context.set_text_align("right");
    for (i, token) in tokens.iter().enumerate().step_by(layout.label_step) {
        context.fill_text(token, x0 - 4.0, y0 + (i as f64 + 0.5) * layout.cell)?;
    }
    // The keys' tokens, written downwards under their columns.
    for (i, token) in tokens.iter().enumerate().step_by(layout.label_step) {
        context.save();
        context.translate(x0 + (i as f64 + 0.5) * layout.cell, y1 + 4.0)?;
        context.rotate(std::f64::consts::FRAC_PI_2)?;
        context.set_text_align("left");
        context.fill_text(token, 0.0, 0.0)?;
        context.restore();
    }
    // The colour scale, 0 at the bottom and 1 at the top, beside the map.
    let bar = PixelRect {
        x0: layout.map.x1 + bar_room * 0.3,
        y0,
        x1: layout.map.x1 + bar_room * 0.3 + style.tick_px,
        y1,
    };
    let height = (y1 - y0).max(2.0) as usize;
    let pixels = sequential_bar_rgba(height, 0.0, 1.0);
    let image = RgbaImage {
        width: 1,
        height,
        pixels: &pixels,
    };
    paint_image(canvas, scratch, &image, bar)?;
    let context = surface::context(canvas)?;
    context.set_fill_style_str(&style.muted.css());
    context.set_text_align("left");
    context.fill_text("1", bar.x1 + 3.0, y0 + style.tick_px * 0.5)?;
    context.fill_text("0", bar.x1 + 3.0, y1 - style.tick_px * 0.5)?;
    context.set_text_align("start");
    context.set_text_baseline("alphabetic");
    Ok(())
}

/// The enlarged map's title: "layer 0, head 2: the previous token, mean weight 1.00".
pub fn head_title(layer: usize, head: usize, offset: &HeadOffset) -> String {
    crate::training_message!(
        "pretrained-head-title",
        layer = layer,
        head = head,
        offset = super::offset_name(offset.offset),
        weight = format!("{:.2}", offset.mean_weight)
    )
}
