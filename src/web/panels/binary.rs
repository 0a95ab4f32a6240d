//! Panel 5, the binary analogy: the bits of 0 … n−1 (lowest bit first, as the chapter prints
//! them) drawn like P, next to P, with the period of each bit (2^(k+1)) beside the period of each
//! column pair (2π·base^(2j/d)). P is the page's own heatmap of P (drawn by the GPU's render pass
//! on WebGPU, from the CPU's cells otherwise), copied and scaled.

use crate::model::inputs::Inputs;
use crate::web::surface;
use serde::Serialize;
use web_sys::HtmlCanvasElement;

use super::super::dom::{self, now_ms};
use super::super::draw::heatmap::{
    draw_encoding_axes, draw_heatmap_frame, paint_cells, HeatmapAxes, RgbaImage,
};
use super::super::error::WebError;
use super::super::panel::{to_js, Panel, PanelSpec};
use super::{elapsed, Ctx};
use crate::math::binary::{bit_count, bit_period, bits, pair_bits_with_frequencies, pair_period};
use crate::math::colormap::{diverging_bar_rgba, diverging_rgba};
use crate::math::encoding::frequency_count;
use crate::math::panels::bits_as_signs;
use wasm_bindgen::JsValue;
use web_sys::HtmlElement;

/// Rows of the period table beyond the bits (the faster pairs are the interesting ones).
const TABLE_PAIRS: usize = 8;
/// At most this many pair periods go into `stats` (d = 2048 has 1024 pairs).
const STATS_PAIRS: usize = 64;

#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Pairing {
    pub bit: usize,
    pub bit_period: f64,
    pub pair: usize,
    pub pair_period: f64,
    pub ratio: f64,
}

#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BinaryStats {
    pub n: usize,
    pub bits: usize,
    /// 2^(k+1) for each bit k.
    pub bit_periods: Vec<f64>,
    /// 2π·base^(2j/d) for the first pairs j.
    pub pair_periods: Vec<f64>,
    /// Each bit with the pair of the closest period.
    pub pairings: Vec<Pairing>,
    /// The backend that drew P (its heatmap is copied beside the bits): "webgpu" or "cpu".
    pub p_source: &'static str,
    pub ms: f64,
}

pub fn render(ctx: &mut Ctx, dom: &BinaryDom) -> Result<BinaryStats, WebError> {
    let started = now_ms();
    let (n, d, base) = (ctx.params.n, ctx.params.d, ctx.params.base);
    let bar = diverging_bar_rgba(256, -1.0, 1.0);
    let bar_image = RgbaImage {
        width: 1,
        height: bar.len() / 4,
        pixels: &bar,
    };

    let width = bit_count(n);
    // Off screen, the pictures wait (see `PanelsState::visible`); the table and numbers do not.
    if ctx.draw {
        let signs = bits_as_signs(bits(n).view());
        let bit_names: Vec<String> = (0..width).map(|k| k.to_string()).collect();
        let bits_canvas = &dom.bits;
        let rect = draw_heatmap_frame(
            bits_canvas,
            ctx.scratch,
            n,
            width,
            &bar_image,
            &HeatmapAxes {
                x_desc: "Bit k (lowest first)",
                y_desc: "Number i",
                value_range: (-1.0, 1.0),
                x_names: Some(&bit_names),
                y_names: None,
            },
        )?;
        paint_cells(
            bits_canvas,
            ctx.scratch,
            &RgbaImage {
                width,
                height: n,
                pixels: &diverging_rgba(signs.as_slice().unwrap_or(&[]), -1.0, 1.0),
            },
            rect,
        )?;

        let p_canvas = &dom.p;
        // The same axes as the heatmap of P (1-based with `?index=1`).
        let rect = draw_encoding_axes(p_canvas, ctx.scratch, n, d, ctx.params.first_position)?;
        // P itself is already drawn above (by the GPU's render pass on WebGPU, from the CPU's cells
        // otherwise): its image is copied, scaled, rather than computed and coloured again.
        let source = ctx.encoding_canvas;
        let from = ctx.heatmap_rect;
        // The source rectangle is read in the source canvas's own (device) pixels.
        let [x0, y0, x1, y1] = surface::backing_rect(source, (from.x0, from.y0, from.x1, from.y1));
        let context = surface::context(p_canvas)?;
        context.set_image_smoothing_enabled(true);
        context.draw_image_with_html_canvas_element_and_sw_and_sh_and_dx_and_dy_and_dw_and_dh(
            source,
            x0,
            y0,
            x1 - x0,
            y1 - y0,
            rect.x0,
            rect.y0,
            rect.width(),
            rect.height(),
        )?;
    }
    let p_source = ctx.backend.name();

    let pairings = pair_bits_with_frequencies(n, d, base)?;
    let pairs = frequency_count(d);
    fill_table(&dom.table, width, pairs, d, base, &pairings)?;
    let fastest = pair_period(0, d, base);
    let step = if pairs > 1 {
        pair_period(1, d, base) / fastest
    } else {
        f64::NAN
    };
    let last = pairings.last();
    dom::text(
        &dom.summary,
        &(format!(
            "{width} bit{} number 0…{}: bit k repeats every 2^(k+1) numbers (2, 4, 8, …). The encoding's pairs slow down the same way, but smoothly: the fastest pair repeats every 2π ≈ {:.2} positions (no column alternates like the lowest bit), and each next pair is {} times slower (base^(2/d)), not 2 times.{}",
            if width == 1 { "" } else { "s" },
            n - 1,
            fastest,
            if step.is_finite() { format!("{step:.3}") } else { "—".into() },
            last.map(|p| format!(
                " The slowest bit here (k = {}, period {}) is closest to pair j = {} (period {:.1}).",
                p.bit, p.bit_period, p.pair, p.pair_period
            ))
            .unwrap_or_default()
        ) + if ctx.params.first_position == 0 {
            ""
        } else {
            " With index=1 the rows of P are positions 1…n: row r of P sits beside the number r − 1."
        })[..],
    );
    Ok(BinaryStats {
        n,
        bits: width,
        bit_periods: (0..width).map(bit_period).collect(),
        pair_periods: (0..pairs.min(STATS_PAIRS))
            .map(|j| pair_period(j, d, base))
            .collect(),
        pairings: pairings
            .iter()
            .map(|p| Pairing {
                bit: p.bit,
                bit_period: p.bit_period,
                pair: p.pair,
                pair_period: p.pair_period,
                ratio: p.period_ratio,
            })
            .collect(),
        p_source,
        ms: elapsed(started),
    })
}

/// The table body: bit k and its period beside pair j (columns 2j, 2j+1) and its period, and
/// the pair closest to each bit.
fn fill_table(
    body: &HtmlElement,
    bits: usize,
    pairs: usize,
    d: usize,
    base: f64,
    pairings: &[crate::math::binary::BitPairing],
) -> Result<(), WebError> {
    body.set_inner_html("");
    let document = dom::document()?;
    let rows = bits.max(pairs.min(TABLE_PAIRS.max(bits)));
    for r in 0..rows {
        let tr = document.create_element("tr")?;
        let mut cells: Vec<String> = Vec::new();
        if r < bits {
            cells.push(format!("{r}"));
            cells.push(format!("{}", bit_period(r)));
            cells.push(
                pairings
                    .get(r)
                    .map(|p| format!("{} ({:.2}×)", p.pair, p.period_ratio))
                    .unwrap_or_default(),
            );
        } else {
            cells.extend([String::new(), String::new(), String::new()]);
        }
        if r < pairs {
            let columns = if 2 * r + 1 < d {
                format!("{}, {}", 2 * r, 2 * r + 1)
            } else {
                format!("{}", 2 * r)
            };
            cells.push(format!("{r} ({columns})"));
            cells.push(format_period(pair_period(r, d, base)));
        } else {
            cells.extend([String::new(), String::new()]);
        }
        for cell in cells {
            let td = document.create_element("td")?;
            td.set_text_content(Some(&cell));
            tr.append_child(&td)?;
        }
        body.append_child(&tr)?;
    }
    if pairs > rows {
        let tr = document.create_element("tr")?;
        let td = document.create_element("td")?;
        td.set_attribute("colspan", "5")?;
        td.set_text_content(Some(&format!(
            "… {} more pairs, up to period {}",
            pairs - rows,
            format_period(pair_period(pairs - 1, d, base))
        )));
        tr.append_child(&td)?;
        body.append_child(&tr)?;
    }
    Ok(())
}

fn format_period(period: f64) -> String {
    crate::model::present::format_period(period)
}

crate::element_table! {
    pub struct BinaryDom {
        bits: HtmlCanvasElement = "binary-bits",
        p: HtmlCanvasElement = "binary-p",
        table: HtmlElement = "binary-table",
        summary: HtmlElement = "binary-summary",
    }
}

pub struct BinaryPanel {
    spec: &'static PanelSpec,
    dom: BinaryDom,
    stats: BinaryStats,
}

impl BinaryPanel {
    pub fn mount(spec: &'static PanelSpec) -> Result<Self, WebError> {
        Ok(BinaryPanel {
            spec,
            dom: BinaryDom::mount()?,
            stats: BinaryStats::default(),
        })
    }
}

impl Panel for BinaryPanel {
    fn spec(&self) -> &'static PanelSpec {
        self.spec
    }

    fn inputs(&self, ctx: &Ctx) -> Inputs {
        let p = ctx.params;
        // The copy of P's heatmap follows every frame of P.
        Inputs::new()
            .with(p.n)
            .with(p.d)
            .with(p.base)
            .with(ctx.backend.name())
            .with(ctx.frame_id)
    }

    fn render(&mut self, ctx: &mut Ctx) -> Result<(), WebError> {
        self.stats = render(ctx, &self.dom)?;
        Ok(())
    }

    fn stats(&self) -> Option<JsValue> {
        Some(to_js(&self.stats))
    }

    fn error_slot(&self) -> &HtmlElement {
        &self.dom.summary
    }
}
