//! Panel 2, multi-head: the chapter's batch example (two sequences of four tokens, valid_lens
//! [3, 2]) split into heads; every head of a sequence uses that sequence's valid length (d2l's
//! `repeat`, not `np.tile`, the seeds' bug). CPU twins on both backends (2 × heads maps of 4 × 4).

use crate::model::inputs::Inputs;
use crate::model::panels::PanelId;
use crate::web::draw::ellipsize;
use crate::web::surface;
use ndarray::{s, Array4};
use web_sys::HtmlCanvasElement;

use super::{compute, map_caption, note, readout, row_title, HeadMap, HeadsPanelError, HeadsStats};
use crate::math::colormap::weights_image;
use crate::model::figure_style::FigureStyle;
use crate::model::plot::{
    cell_at, label_step, min_matrix_px, step_cell, thinned_caption, PixelRect,
};
use crate::model::settings::{batch_sequences, BATCH_SEQUENCE_LEN};
use crate::web::action::{Action, PanelEvent};
use crate::web::dom::{self, now_ms};
use crate::web::draw::heatmap::{fit, paint_image, set_frame_colour, RgbaImage};
use crate::web::error::WebError;
use crate::web::panel::Panel;
use crate::web::panels::reading::{self, Paging};
use crate::web::panels::{elapsed, Ctx};
use web_sys::HtmlElement;

/// The panel's numbers, and its maps as drawn (`None` while off screen).
pub fn render(
    ctx: &mut Ctx,
    dom: &HeadsDom,
) -> Result<(HeadsStats, Option<Vec<HeadMap>>), WebError> {
    let started = now_ms();
    let lesson = ctx.settings;
    let sequences = batch_sequences(&lesson.tokens());
    let heads = compute(
        &sequences,
        lesson.batch_lens,
        lesson.heads(),
        lesson.show_tile,
        &crate::web::panels::layer_choice(ctx),
        &crate::web::panels::projections(ctx),
    )
    .map_err(|error| match error {
        HeadsPanelError::Sentence(error) => WebError::from(error),
        HeadsPanelError::Heads(error) => WebError::from(error),
    })?;
    let mut stats = heads.stats;
    let drawn = if ctx.draw {
        Some(draw_maps(
            ctx,
            dom,
            &stats,
            &heads.weights,
            &heads.tiled_weights,
        )?)
    } else {
        None
    };
    dom::text(&dom.readout, &readout(&stats));
    dom::text(&dom.note, &note(ctx.params.d, &stats));
    dom::text(
        &dom.takeaway,
        &super::takeaway::takeaway(
            &stats.valid_lens,
            stats.heads,
            BATCH_SEQUENCE_LEN,
            stats.wrong_heads_with_tile,
        ),
    );
    stats.ms = elapsed(started);
    Ok((stats, drawn))
}

/// One row of maps per sequence (the first `shown` heads), and with `tile` on a second row per
/// sequence with what `np.tile` gave: maps whose length is wrong are outlined in red. Returns the
/// maps in reading order (row by row, head by head).
fn draw_maps(
    ctx: &mut Ctx,
    dom: &HeadsDom,
    stats: &HeadsStats,
    w: &Array4<f32>,
    tiled_w: &Array4<f32>,
) -> Result<Vec<HeadMap>, WebError> {
    let (sequences, per_head, tiled) = (
        &stats.sequences,
        &stats.per_head_valid_lens,
        &stats.tiled_valid_lens,
    );
    let shown = stats.shown_heads;
    let canvas = &dom.canvas;
    let (margin, gap) = (14.0, 10.0);
    // Each map keeps cells of at least MIN_CELL_PX: with many heads the canvas keeps the width
    // that needs and the panel scrolls sideways (set before drawing, which fits the canvas).
    let longest = sequences.iter().map(|s| s.len()).max().unwrap_or(1).max(1);
    let (map_width, _) = min_matrix_px((longest, longest));
    fit::set_min_width(
        canvas,
        2.0 * margin + shown as f64 * map_width + (shown as f64 - 1.0).max(0.0) * gap,
    );
    let context = surface::context(canvas)?;
    let (width, height) = surface::size(canvas);
    let style = ctx.style;
    context.set_fill_style_str(&style.background.css());
    context.fill_rect(0.0, 0.0, width, height);
    set_frame_colour(canvas, style);
    let show_tile = stats.show_tile;
    let rows: Vec<(usize, bool)> = (0..2)
        .flat_map(|b| std::iter::once((b, false)).chain(show_tile.then_some((b, true))))
        .collect();
    let mut drawn = Vec::with_capacity(rows.len() * shown);
    let row_height = (height - 8.0) / rows.len() as f64;
    // Title line, caption line, then the map.
    let map_offset = if show_tile { 42.0 } else { 50.0 };
    // Under each map, its keys' indices (the takeaway names the masked keys by index).
    let key_band = style.tick_px + 6.0;
    let tile = ((width - 2.0 * margin - gap * (shown as f64 - 1.0)) / shown as f64)
        .min(row_height - map_offset - 8.0 - key_band)
        .floor()
        .max(8.0);
    // An index is as wide as its digits and one more, at 0.6 of the type each.
    let digits = f64::from(longest.max(1).ilog10() + 2);
    let key_step = label_step(longest, tile, style.tick_px * digits * 0.6);
    for (r, &(b, buggy)) in rows.iter().enumerate() {
        let top = 6.0 + r as f64 * row_height;
        context.set_fill_style_str(&if buggy {
            wrong_colour(style).to_string()
        } else {
            style.ink.css()
        });
        context.set_font(&format!("600 {}px {}", style.title_px, style.font));
        let title = ellipsize(&context, &row_title(stats, b, buggy), width - margin - 4.0);
        context.fill_text(&title, margin, top + 16.0)?;
        let (maps, used) = if buggy {
            (tiled_w, &tiled[b])
        } else {
            (w, &per_head[b])
        };
        for h in 0..shown {
            let (x0, y0) = (margin + h as f64 * (tile + gap), top + map_offset);
            let map = HeadMap {
                rect: PixelRect {
                    x0,
                    y0,
                    x1: x0 + tile,
                    y1: y0 + tile,
                },
                sequence: b,
                head: h,
                buggy,
                used_len: used[h],
                right_len: per_head[b][h],
                tokens: sequences[b].clone(),
                weights: maps.slice(s![b, h, .., ..]).to_owned(),
            };
            paint_map(canvas, ctx.scratch, style, &map, key_step)?;
            drawn.push(map);
        }
    }
    let tokens = drawn.first().map_or(1, |m| m.tokens.len().max(1));
    if let Some(map) = drawn.first() {
        let cell = fit::cell_css_px(canvas, map.rect, (tokens, tokens));
        let caption = thinned_caption(key_step, &crate::message!("label-noun-key"));
        fit::record_cells(canvas, cell, (key_step, 0), caption.as_deref());
    }
    Ok(drawn)
}

/// The red of a wrong map, on the theme's paper.
fn wrong_colour(style: &FigureStyle) -> &'static str {
    if style.look.dark {
        "#ff8a80"
    } else {
        "#b2182b"
    }
}

/// One map at its rect: its caption above it (the short one on a narrow map), its weights with
/// the masked keys hatched, its keys' indices below it (every `key_step`-th) and, for a map of
/// `np.tile`'s row whose length is wrong, a red outline.
fn paint_map(
    canvas: &HtmlCanvasElement,
    scratch: &HtmlCanvasElement,
    style: &FigureStyle,
    map: &HeadMap,
    key_step: usize,
) -> Result<(), WebError> {
    let context = surface::context(canvas)?;
    let PixelRect { x0, y0, .. } = map.rect;
    let tile = map.rect.width();
    context.set_font(&format!("{}px {}", style.tick_px, style.font));
    context.set_fill_style_str(&style.muted.css());
    context.fill_text(
        &map_caption(map.head, map.used_len, tile < 100.0),
        x0,
        y0 - 6.0,
    )?;
    let values: Vec<f32> = map.weights.iter().copied().collect();
    let n = map.weights.nrows();
    let cell_px = (tile / n as f64).floor().max(1.0) as usize;
    let valid = map.used_len;
    let (pixels, width, height) = weights_image(&values, n, n, cell_px, |_, column| {
        column >= valid && valid > 0
    });
    let image = RgbaImage {
        width,
        height,
        pixels: &pixels,
    };
    paint_image(canvas, scratch, &image, map.rect)?;
    context.set_text_align("center");
    context.set_text_baseline("top");
    for key in (0..n).step_by(key_step) {
        let x = x0 + (key as f64 + 0.5) * tile / n as f64;
        context.fill_text(&key.to_string(), x, y0 + tile + 3.0)?;
    }
    context.set_text_align("start");
    context.set_text_baseline("alphabetic");
    if map.buggy && map.used_len != map.right_len {
        context.set_stroke_style_str(wrong_colour(style));
        context.set_line_width(3.0);
        context.stroke_rect(x0 - 2.0, y0 - 2.0, tile + 4.0, tile + 4.0);
    }
    Ok(())
}

crate::element_table! {
    pub struct HeadsDom {
        canvas: HtmlCanvasElement = "heads-canvas",
        tooltip: HtmlElement = "heads-tooltip",
        hover: HtmlElement = "heads-hover",
        readout: HtmlElement = "heads-readout",
        takeaway: HtmlElement = "heads-takeaway",
        note: HtmlElement = "heads-note",
    }
}

pub struct HeadsPanel {
    dom: HeadsDom,
    stats: HeadsStats,
    /// The maps as drawn, for reading their cells.
    maps: Vec<HeadMap>,
    /// The cell read from the keyboard: (map, query, key).
    cursor: (usize, usize, usize),
}

impl HeadsPanel {
    pub fn mount() -> Result<Self, WebError> {
        Ok(HeadsPanel {
            dom: HeadsDom::mount()?,
            stats: HeadsStats::default(),
            maps: Vec::new(),
            cursor: (0, 0, 0),
        })
    }
}

impl Panel for HeadsPanel {
    fn inputs(&self, ctx: &Ctx) -> Inputs {
        let l = ctx.settings;
        crate::web::panels::tokens_key(ctx)
            .with(l.heads())
            .with(l.batch_lens[0])
            .with(l.batch_lens[1])
            .with_all(crate::web::panels::projection_key(ctx))
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

    crate::web::panel::stats_in!(stats);

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

/// The panel, mounted (its row of the panel list names this module).
#[inline(always)] // into the list's one `match` (see `crate::panels`)
pub fn mount() -> Result<Box<dyn crate::web::panel::Panel>, crate::web::error::WebError> {
    Ok(Box::new(HeadsPanel::mount()?))
}
