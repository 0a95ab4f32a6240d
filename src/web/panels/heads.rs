//! Panel 2, multi-head: the chapter's batch example (two sequences of four tokens, valid_lens
//! [3, 2]) split into heads; every head of a sequence uses that sequence's valid length (d2l's
//! `repeat`, not `np.tile`, the seeds' bug). CPU twins on both backends (2 × heads maps of 4 × 4).

use ndarray::{s, Array4};
use serde::Serialize;
use web_sys::HtmlCanvasElement;

use super::super::dom::{self, context_2d, now_ms};
use super::super::draw::heatmap::{paint_image, RgbaImage};
use super::super::error::WebError;
use super::super::panel::{to_js, Panel, PanelSpec};
use super::{elapsed, format_number, Ctx};
use crate::math::attention::multi_head_weights_qk;
use crate::math::colormap::weights_image;
use crate::math::heads::{compare_valid_len_orders_qk, head_valid_lens, tiled_head_valid_lens};
use crate::math::lesson::{batch_sequences, divisors, PAD_TOKEN};
use crate::math::panels::masked_weights_are_zero;
use crate::math::plot::PixelRect;
use crate::math::projection::mean_self_weight;
use crate::math::sentence::projected_batch;
use wasm_bindgen::JsValue;
use web_sys::HtmlElement;

/// At most this many heads are drawn per sequence (the readout covers all of them).
const SHOWN_HEADS: usize = 8;

#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HeadsStats {
    pub heads: usize,
    /// The choices offered: the divisors of d.
    pub divisors: Vec<usize>,
    pub head_dim: usize,
    pub sequences: Vec<Vec<String>>,
    pub valid_lens: Vec<usize>,
    /// [sequence][head]: the valid length each head actually used (`repeat`).
    pub per_head_valid_lens: Vec<Vec<usize>>,
    /// [sequence][head]: what `np.tile` would have given.
    pub tiled_valid_lens: Vec<Vec<usize>>,
    /// (sequence, head) maps that `tile` gives another sequence's length.
    pub wrong_heads_with_tile: usize,
    /// max |weight(tile) − weight(repeat)|.
    pub tile_max_weight_difference: f64,
    /// Every masked weight of every map is exactly 0.
    pub masked_weights_zero: bool,
    /// Mean weight of a query on its own key over every map of both sequences.
    pub mean_self_weight: f64,
    /// The projections in use (as the attention panel's).
    pub projection: &'static str,
    /// Whether np.tile's maps are drawn beside the right ones.
    pub show_tile: bool,
    pub shown_heads: usize,
    /// weights[sequence][head][query][key].
    pub weights: Vec<Vec<Vec<Vec<f32>>>>,
    pub ms: f64,
}

pub fn render(ctx: &mut Ctx, dom: &HeadsDom) -> Result<HeadsStats, WebError> {
    let started = now_ms();
    let (params, lesson) = (ctx.params, ctx.lesson);
    let d = params.d;
    let heads = lesson.heads();
    let sequences = batch_sequences(&lesson.tokens());
    let lens = lesson.batch_lens;
    let (q, k) = projected_batch(
        &sequences,
        &super::layer_choice(ctx),
        &super::projections(ctx),
    )?;
    let w = multi_head_weights_qk(q.view(), k.view(), heads, &lens)?;
    let (comparison, tiled_w) = compare_valid_len_orders_qk(q.view(), k.view(), heads, &lens)?;
    let per_head = head_valid_lens(&lens, heads)?;
    let tiled = tiled_head_valid_lens(&lens, heads)?;
    let masked_zero = (0..2).all(|b| {
        (0..heads).all(|h| masked_weights_are_zero(w.slice(s![b, h, .., ..]), Some(lens[b])))
    });
    let maps: Vec<_> = (0..2)
        .flat_map(|b| (0..heads).map(move |h| (b, h)))
        .map(|(b, h)| w.slice(s![b, h, .., ..]).to_owned())
        .collect();
    let mean_self_weight = mean_self_weight(&maps);

    let shown = heads.min(SHOWN_HEADS);
    if ctx.draw {
        draw_maps(
            ctx, dom, &sequences, &lens, &per_head, &tiled, &w, &tiled_w, shown,
        )?;
    }

    let range = |count: usize| {
        if count == 1 {
            "head 0".to_string()
        } else {
            format!("heads 0–{}", count - 1)
        }
    };
    let list = |values: &[usize]| {
        values
            .iter()
            .map(|v| v.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let lines: Vec<String> = (0..2)
        .map(|b| {
            format!(
                "sequence {b}: {} use valid_len {} (np.tile would have given {})",
                range(heads),
                lens[b],
                list(&tiled[b])
            )
        })
        .collect();
    dom::text(
        &dom.readout,
        &format!(
            "{}. With tile, {} of {} maps would get the other sequence's length (largest weight change {}); every masked weight here is {}.",
            lines.join("; "),
            comparison.wrong_heads.len(),
            2 * heads,
            format_number(comparison.max_weight_difference),
            if masked_zero { "exactly 0" } else { "NOT 0" },
        ),
    );
    let padded = sequences.iter().flatten().any(|t| t == PAD_TOKEN);
    dom::text(
        &dom.note,
        &format!(
            "d = {d} split into {heads} head{} of {} columns each{}.{}",
            if heads == 1 { "" } else { "s" },
            d / heads,
            if heads > shown {
                format!(" (drawn: heads 0–{} of {heads})", shown - 1)
            } else {
                String::new()
            },
            if padded {
                format!(" The sentence is short, so “{PAD_TOKEN}” fills the sequences: mask it with valid_lens.")
            } else {
                String::new()
            }
        ),
    );
    Ok(HeadsStats {
        heads,
        divisors: divisors(d),
        head_dim: d / heads,
        sequences: sequences.to_vec(),
        valid_lens: lens.to_vec(),
        per_head_valid_lens: per_head,
        tiled_valid_lens: tiled,
        wrong_heads_with_tile: comparison.wrong_heads.len(),
        tile_max_weight_difference: comparison.max_weight_difference,
        masked_weights_zero: masked_zero,
        mean_self_weight,
        projection: lesson.projection.to_query(),
        show_tile: lesson.show_tile,
        shown_heads: shown,
        weights: (0..2)
            .map(|b| {
                (0..heads.min(SHOWN_HEADS))
                    .map(|h| {
                        w.slice(s![b, h, .., ..])
                            .rows()
                            .into_iter()
                            .map(|r| r.to_vec())
                            .collect()
                    })
                    .collect()
            })
            .collect(),
        ms: elapsed(started),
    })
}

/// One row of maps per sequence (the first `shown` heads), and with `tile` on a second row per
/// sequence with what `np.tile` gave: maps whose length is wrong are outlined in red.
#[allow(clippy::too_many_arguments)]
fn draw_maps(
    ctx: &mut Ctx,
    dom: &HeadsDom,
    sequences: &[Vec<String>; 2],
    lens: &[usize; 2],
    per_head: &[Vec<usize>],
    tiled: &[Vec<usize>],
    w: &Array4<f32>,
    tiled_w: &Array4<f32>,
    shown: usize,
) -> Result<(), WebError> {
    let canvas = &dom.canvas;
    let context = context_2d(canvas)?;
    let (width, height) = (canvas.width() as f64, canvas.height() as f64);
    context.set_fill_style_str("#fff");
    context.fill_rect(0.0, 0.0, width, height);
    let show_tile = ctx.lesson.show_tile;
    let rows: Vec<(usize, bool)> = (0..2)
        .flat_map(|b| std::iter::once((b, false)).chain(show_tile.then_some((b, true))))
        .collect();
    let (margin, gap) = (14.0, 10.0);
    let row_height = (height - 8.0) / rows.len() as f64;
    // Title line, caption line, then the map.
    let map_offset = if show_tile { 42.0 } else { 50.0 };
    let tile = ((width - 2.0 * margin - gap * (shown as f64 - 1.0)) / shown as f64)
        .min(row_height - map_offset - 8.0)
        .floor()
        .max(8.0);
    for (r, &(b, buggy)) in rows.iter().enumerate() {
        let top = 6.0 + r as f64 * row_height;
        context.set_fill_style_str(if buggy { "#b2182b" } else { "#1b1f24" });
        context.set_font("600 16px sans-serif");
        let title = if buggy {
            let wrong = (0..shown)
                .filter(|&h| tiled[b][h] != per_head[b][h])
                .count();
            format!("np.tile (buggy), sequence {b}: {wrong} of {shown} maps wrong")
        } else {
            format!(
                "Sequence {b}: {}  ·  valid_len = {}",
                sequences[b]
                    .iter()
                    .map(|t| format!("“{t}”"))
                    .collect::<Vec<_>>()
                    .join(" "),
                lens[b]
            )
        };
        context.fill_text(&title, margin, top + 16.0)?;
        context.set_font("15px sans-serif");
        let (maps, used) = if buggy {
            (tiled_w, &tiled[b])
        } else {
            (w, &per_head[b])
        };
        for h in 0..shown {
            let head_len = used[h];
            let x0 = margin + h as f64 * (tile + gap);
            let y0 = top + map_offset;
            context.set_fill_style_str("#333");
            // Narrow tiles (many heads) get the short caption.
            let caption = if tile >= 100.0 {
                format!("head {h} · {head_len}")
            } else {
                format!("h{h} · {head_len}")
            };
            context.fill_text(&caption, x0, y0 - 6.0)?;
            let map = maps.slice(s![b, h, .., ..]);
            let values: Vec<f32> = map.iter().copied().collect();
            let n = map.nrows();
            let cell_px = (tile / n as f64).floor().max(1.0) as usize;
            let valid = head_len;
            let (pixels, img_w, img_h) = weights_image(&values, n, n, cell_px, |_, column| {
                column >= valid && valid > 0
            });
            let rect = PixelRect {
                x0,
                y0,
                x1: x0 + tile,
                y1: y0 + tile,
            };
            paint_image(
                canvas,
                ctx.scratch,
                &RgbaImage {
                    width: img_w,
                    height: img_h,
                    pixels: &pixels,
                },
                rect,
            )?;
            if buggy && head_len != per_head[b][h] {
                context.set_stroke_style_str("#b2182b");
                context.set_line_width(3.0);
                context.stroke_rect(x0 - 2.0, y0 - 2.0, tile + 4.0, tile + 4.0);
            }
        }
    }
    Ok(())
}

crate::element_table! {
    pub struct HeadsDom {
        canvas: HtmlCanvasElement = "heads-canvas",
        readout: HtmlElement = "heads-readout",
        note: HtmlElement = "heads-note",
    }
}

pub struct HeadsPanel {
    spec: &'static PanelSpec,
    dom: HeadsDom,
    stats: HeadsStats,
}

impl HeadsPanel {
    pub fn mount(spec: &'static PanelSpec) -> Result<Self, WebError> {
        Ok(HeadsPanel {
            spec,
            dom: HeadsDom::mount()?,
            stats: HeadsStats::default(),
        })
    }
}

impl Panel for HeadsPanel {
    fn spec(&self) -> &'static PanelSpec {
        self.spec
    }

    fn inputs(&self, ctx: &Ctx) -> String {
        let l = ctx.lesson;
        format!(
            "{}|{}|{:?}|{}|{}",
            super::tokens_key(ctx),
            l.heads(),
            l.batch_lens,
            super::projection_key(ctx),
            l.show_tile
        )
    }

    fn render(&mut self, ctx: &mut Ctx) -> Result<(), WebError> {
        self.stats = render(ctx, &self.dom)?;
        Ok(())
    }

    fn stats(&self) -> Option<JsValue> {
        Some(to_js(&self.stats))
    }

    fn error_slot(&self) -> &HtmlElement {
        &self.dom.readout
    }
}
