//! Panel 2, multi-head: the chapter's batch example (two sequences of four tokens, valid_lens
//! [3, 2]) split into heads; every head of a sequence uses that sequence's valid length (d2l's
//! `repeat`, not `np.tile`, the seeds' bug). CPU twins on both backends (2 × heads maps of 4 × 4).

use crate::model::inputs::Inputs;
use crate::model::query::values::UrlName;
use crate::model::tables::PanelId;
use crate::web::draw::ellipsize;
use crate::web::surface;
use ndarray::{s, Array2, Array4};
use serde::Serialize;
use web_sys::HtmlCanvasElement;

use super::super::action::{Action, PanelEvent};
use super::super::dom::{self, now_ms};
use super::super::draw::heatmap::{paint_image, RgbaImage};
use super::super::error::WebError;
use super::super::panel::{to_js, Panel, PanelSpec};
use super::reading::{self, Paging};
use super::{elapsed, format_number, Ctx};
use crate::math::colormap::weights_image;
use crate::math::heads::{
    compare_valid_len_orders_qk, head_valid_lens, multi_head_weights_positioned, repeat_valid_lens,
    tiled_head_valid_lens,
};
use crate::math::panels::masked_weights_are_zero;
use crate::math::projection::mean_self_weight;
use crate::math::sentence::projected_batch;
use crate::model::plot::{cell_at, step_cell, PixelRect};
use crate::model::settings::{batch_sequences, divisors, PAD_TOKEN};
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

/// One map as drawn, for reading its cells.
pub struct HeadMap {
    rect: PixelRect,
    sequence: usize,
    head: usize,
    /// A map of `np.tile`'s row.
    buggy: bool,
    /// The valid length this map used, and the one its sequence has.
    used_len: usize,
    right_len: usize,
    tokens: Vec<String>,
    weights: Array2<f32>,
}

impl HeadMap {
    /// The read-out of cell (query, key): which map, which tokens, the weight or the mask.
    fn describe(&self, query: usize, key: usize) -> String {
        let (b, h, used) = (self.sequence, self.head, self.used_len);
        let map = if self.buggy && used != self.right_len {
            format!(
                "np.tile (buggy), sequence {b}, head {h} (valid_len {used}, should be {})",
                self.right_len
            )
        } else if self.buggy {
            format!("np.tile (buggy), sequence {b}, head {h} (valid_len {used})")
        } else {
            format!("sequence {b}, head {h} (valid_len {used})")
        };
        let names = format!(
            "{map}: query “{}” (row {query}) → key “{}” (column {key})",
            self.tokens[query], self.tokens[key]
        );
        let weight = self.weights[[query, key]];
        match used {
            0 => format!("{names}: every key masked, uniform weight {weight:.4}"),
            v if key >= v => {
                format!("{names}: masked (key {key} ≥ valid_len {v}), weight exactly 0")
            }
            _ => format!("{names}: weight {weight:.4}"),
        }
    }

    fn size(&self) -> (usize, usize) {
        self.weights.dim()
    }
}

/// The panel's numbers, and its maps as drawn (`None` while off screen).
pub fn render(
    ctx: &mut Ctx,
    dom: &HeadsDom,
) -> Result<(HeadsStats, Option<Vec<HeadMap>>), WebError> {
    let started = now_ms();
    let (params, lesson) = (ctx.params, ctx.settings);
    let d = params.d;
    let heads = lesson.heads();
    let sequences = batch_sequences(&lesson.tokens());
    let lens = lesson.batch_lens;
    let (q, k) = projected_batch(
        &sequences,
        &super::layer_choice(ctx),
        &super::projections(ctx),
    )?;
    let position = lesson.position_scheme(params.base);
    let w = multi_head_weights_positioned(
        q.view(),
        k.view(),
        heads,
        &repeat_valid_lens(&lens, heads)?,
        &position,
    )?;
    let (comparison, tiled_w) =
        compare_valid_len_orders_qk(q.view(), k.view(), heads, &lens, &position)?;
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
    let drawn = if ctx.draw {
        Some(draw_maps(
            ctx, dom, &sequences, &lens, &per_head, &tiled, &w, &tiled_w, shown,
        )?)
    } else {
        None
    };

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
    let stats = HeadsStats {
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
    };
    Ok((stats, drawn))
}

/// One row of maps per sequence (the first `shown` heads), and with `tile` on a second row per
/// sequence with what `np.tile` gave: maps whose length is wrong are outlined in red. Returns the
/// maps in reading order (row by row, head by head).
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
) -> Result<Vec<HeadMap>, WebError> {
    let canvas = &dom.canvas;
    let context = surface::context(canvas)?;
    let (width, height) = surface::size(canvas);
    context.set_fill_style_str("#fff");
    context.fill_rect(0.0, 0.0, width, height);
    let show_tile = ctx.settings.show_tile;
    let rows: Vec<(usize, bool)> = (0..2)
        .flat_map(|b| std::iter::once((b, false)).chain(show_tile.then_some((b, true))))
        .collect();
    let mut drawn = Vec::with_capacity(rows.len() * shown);
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
                "Sequence {b} (valid_len = {}): {}",
                lens[b],
                sequences[b]
                    .iter()
                    .map(|t| format!("“{t}”"))
                    .collect::<Vec<_>>()
                    .join(" ")
            )
        };
        let title = ellipsize(&context, &title, width - margin - 4.0);
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
            drawn.push(HeadMap {
                rect,
                sequence: b,
                head: h,
                buggy,
                used_len: head_len,
                right_len: per_head[b][h],
                tokens: sequences[b].clone(),
                weights: map.to_owned(),
            });
        }
    }
    Ok(drawn)
}

crate::element_table! {
    pub struct HeadsDom {
        canvas: HtmlCanvasElement = "heads-canvas",
        tooltip: HtmlElement = "heads-tooltip",
        hover: HtmlElement = "heads-hover",
        readout: HtmlElement = "heads-readout",
        note: HtmlElement = "heads-note",
    }
}

pub struct HeadsPanel {
    spec: &'static PanelSpec,
    dom: HeadsDom,
    stats: HeadsStats,
    /// The maps as drawn, for reading their cells.
    maps: Vec<HeadMap>,
    /// The cell read from the keyboard: (map, query, key).
    cursor: (usize, usize, usize),
}

impl HeadsPanel {
    pub fn mount(spec: &'static PanelSpec) -> Result<Self, WebError> {
        Ok(HeadsPanel {
            spec,
            dom: HeadsDom::mount()?,
            stats: HeadsStats::default(),
            maps: Vec::new(),
            cursor: (0, 0, 0),
        })
    }
}

impl Panel for HeadsPanel {
    fn spec(&self) -> &'static PanelSpec {
        self.spec
    }

    fn inputs(&self, ctx: &Ctx) -> Inputs {
        let l = ctx.settings;
        super::tokens_key(ctx)
            .with(l.heads())
            .with(l.batch_lens[0])
            .with(l.batch_lens[1])
            .with_all(super::projection_key(ctx))
            .with(l.show_tile)
    }

    fn render(&mut self, ctx: &mut Ctx) -> Result<(), WebError> {
        let (stats, maps) = render(ctx, &self.dom)?;
        self.stats = stats;
        if maps.is_some() || !ctx.draw {
            self.maps = maps.unwrap_or_default();
        }
        self.dom.tooltip.set_hidden(true);
        Ok(())
    }

    fn stats(&self) -> Option<JsValue> {
        Some(to_js(&self.stats))
    }

    fn error_slot(&self) -> &HtmlElement {
        &self.dom.readout
    }

    /// Reading from the keyboard: the arrows move within a map, Page Up/Page Down go to the
    /// previous/next map (row by row, head by head).
    fn wire(&self, panel: PanelId, send: fn(Action)) -> Result<(), WebError> {
        reading::wire(&self.dom.canvas, panel, send, Paging::Maps)
    }

    fn event(&mut self, _ctx: &mut Ctx, event: PanelEvent) -> Result<bool, WebError> {
        let (canvas, tooltip) = (&self.dom.canvas, &self.dom.tooltip);
        let last = self.maps.len().saturating_sub(1);
        let (map, query, key) = self.cursor;
        // From the keyboard: the cursor moves to a cell of map `m` and the tooltip to its centre.
        let keyboard = |m: usize, by: (i64, i64)| {
            let at = self.maps.get(m)?;
            let (q, k) = step_cell((query, key), by, at.size());
            Some((
                (m, q, k),
                reading::cell_centre(canvas, at.rect, at.size(), (q, k)),
            ))
        };
        let cell = match event {
            PanelEvent::Pointer { x, y } => {
                let (cx, cy) = reading::to_canvas(canvas, x, y);
                self.maps.iter().enumerate().find_map(|(m, at)| {
                    let (rows, columns) = at.size();
                    cell_at(at.rect, rows, columns, cx, cy).map(|(q, k)| ((m, q, k), (x, y)))
                })
            }
            PanelEvent::Cursor { rows, columns } => keyboard(map.min(last), (rows, columns)),
            PanelEvent::CursorMap { maps } => keyboard(
                (map as i64).saturating_add(maps).clamp(0, last as i64) as usize,
                (0, 0),
            ),
            _ => None,
        };
        match cell {
            Some(((m, q, k), at)) => {
                if !matches!(event, PanelEvent::Pointer { .. }) {
                    self.cursor = (m, q, k);
                }
                let text = self.maps[m].describe(q, k);
                reading::show(canvas, tooltip, &self.dom.hover, &text, at);
            }
            None => tooltip.set_hidden(true),
        }
        Ok(false)
    }
}
