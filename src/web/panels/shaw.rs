//! Shaw, Uszkoreit & Vaswani (2018): relative position representations. Each offset j − i,
//! clipped to [−k, k], has a learned key vector a^K and value vector a^V (2k + 1 rows each);
//! e_ij = x_iW^Q (x_jW^K + a^K_clip(j−i))ᵀ/√d. The naive form builds an L × L × d tensor of the
//! a^K rows; the Music Transformer's skewing (Huang et al. 2018) needs only L × d. CPU
//! (`math::shaw`) on both backends, on the attention panel's sentence.

use crate::model::inputs::Inputs;
use serde::Serialize;
use wasm_bindgen::JsValue;
use web_sys::{HtmlCanvasElement, HtmlElement};

use super::super::dom::{self, now_ms};
use super::super::error::WebError;
use super::super::panel::{to_js, Panel, PanelSpec};
use super::family_charts::{draw_matrix, Scale};
use super::{canvas_message, elapsed, format_number, Ctx};
use crate::math::shaw::{naive_relative_memory, skewed_relative_memory, ShawLayer, MAX_DIMENSION};
use crate::math::tokens::attention_input;
use crate::model::present::plural;

#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ShawStats {
    /// The clipping distance k (`clip`).
    pub clip: usize,
    /// 2k + 1 rows of a^K (and of a^V).
    pub table_rows: usize,
    /// The layer's width (the global d, at most the panel's limit).
    pub d: usize,
    pub tokens: Vec<String>,
    /// e_ij of the sentence, row i = query.
    pub logits: Vec<Vec<f64>>,
    /// How many of the 2k + 1 rows the sentence's offsets use: min(2n − 1, 2k + 1).
    pub distinct_offsets_used: usize,
    /// Floats of the relative keys at the page's n and d: the naive L²·d tensor and the skewed
    /// L·d form, and their ratio (= L).
    pub memory_n: usize,
    pub memory_d: usize,
    pub naive_memory: usize,
    pub skewed_memory: usize,
    pub ms: f64,
}

fn render(ctx: &mut Ctx, dom: &ShawDom) -> Result<ShawStats, WebError> {
    let started = now_ms();
    let (p, l) = (ctx.params, ctx.settings);
    let d = p.d.min(MAX_DIMENSION);
    let clip = l.clip;
    let tokens = l.tokens();
    let n = tokens.len();
    let mut stats = ShawStats {
        clip,
        table_rows: 2 * clip + 1,
        d,
        tokens: tokens.clone(),
        memory_n: p.n,
        memory_d: p.d,
        naive_memory: naive_relative_memory(p.n, p.d),
        skewed_memory: skewed_relative_memory(p.n, p.d),
        ..ShawStats::default()
    };
    let layer = ShawLayer::new(d, clip, l.seed)?;
    if ctx.draw {
        let offsets: Vec<String> = (0..2 * clip + 1)
            .map(|r| {
                let offset = r as i64 - clip as i64;
                // Every row when few, else the ends and the middle.
                if clip <= 8 || r == 0 || r == clip || r == 2 * clip {
                    format!("{offset:+}")
                } else {
                    String::new()
                }
            })
            .collect();
        let table: Vec<f32> = layer.key_table.iter().map(|&v| v as f32).collect();
        let limit = table.iter().fold(0.0f32, |m, v| m.max(v.abs()));
        draw_matrix(
            &dom.table,
            ctx.scratch,
            &table,
            (2 * clip + 1, d),
            Scale::Diverging(limit),
            ("Dimension", "Offset j − i, clipped to ±k"),
            (None, Some(&offsets)),
        )?;
    }
    let memory = format!(
        "Memory of the relative keys at this page's n = {} and d = {}: the naive form gathers an n × n × d tensor of them, {} floats ({}); the Music Transformer keeps one d-vector per distance (causal), {} floats ({}), n = {} times less, and skews Q·(a^K)ᵀ (n × n, like the logits) into place.",
        p.n,
        p.d,
        stats.naive_memory,
        bytes(stats.naive_memory),
        stats.skewed_memory,
        bytes(stats.skewed_memory),
        p.n,
    );
    if n == 0 {
        if ctx.draw {
            canvas_message(
                &dom.logits,
                &[
                    "The sentence has no tokens.",
                    "Type a few words in the attention panel.",
                ],
            )?;
        }
        dom::text(&dom.readout, &memory);
        stats.ms = elapsed(started);
        return Ok(stats);
    }
    let x = attention_input(&tokens, d, p.base, false, l.scale_embeddings)?.mapv(f64::from);
    let logits = layer.logits(x.view())?;
    stats.logits = logits.rows().into_iter().map(|r| r.to_vec()).collect();
    stats.distinct_offsets_used = (2 * n - 1).min(2 * clip + 1);
    if ctx.draw {
        let values: Vec<f32> = logits.iter().map(|&v| v as f32).collect();
        let limit = values.iter().fold(0.0f32, |m, v| m.max(v.abs()));
        draw_matrix(
            &dom.logits,
            ctx.scratch,
            &values,
            (n, n),
            Scale::Diverging(limit),
            ("Key j", "Query i"),
            (Some(&tokens), Some(&tokens)),
        )?;
    }
    dom::text(
        &dom.readout,
        &format!(
            "k = {clip}: a^K and a^V have 2k + 1 = {} rows of d = {d}; the {} offsets of {} use {} of them (every offset beyond ±{clip} shares the end row). The scores e_ij before the softmax (left; Shaw et al. call them logits) add q_i·a^K_clip(j−i)/√d to the content term; no position vector is added to X. {memory}",
            stats.table_rows,
            2 * n - 1,
            plural(n, "token", "tokens"),
            stats.distinct_offsets_used,
        ),
    );
    stats.ms = elapsed(started);
    Ok(stats)
}

/// A float32 count as bytes, in words.
fn bytes(floats: usize) -> String {
    let b = floats as f64 * 4.0;
    if b >= 1e9 {
        format!("{} GB", format_number(b / 1e9))
    } else if b >= 1e6 {
        format!("{} MB", format_number(b / 1e6))
    } else if b >= 1e3 {
        format!("{} kB", format_number(b / 1e3))
    } else {
        format!("{} B", format_number(b))
    }
}

crate::element_table! {
    pub struct ShawDom {
        logits: HtmlCanvasElement = "shaw-logits",
        table: HtmlCanvasElement = "shaw-table",
        readout: HtmlElement = "shaw-readout",
    }
}

pub struct ShawPanel {
    spec: &'static PanelSpec,
    dom: ShawDom,
    stats: ShawStats,
}

impl ShawPanel {
    pub fn mount(spec: &'static PanelSpec) -> Result<Self, WebError> {
        Ok(ShawPanel {
            spec,
            dom: ShawDom::mount()?,
            stats: ShawStats::default(),
        })
    }
}

impl Panel for ShawPanel {
    fn spec(&self) -> &'static PanelSpec {
        self.spec
    }

    fn inputs(&self, ctx: &Ctx) -> Inputs {
        super::tokens_key(ctx)
            .with(ctx.params.n)
            .with(ctx.settings.clip)
            .with(ctx.settings.seed)
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
