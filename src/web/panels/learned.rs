//! A learned absolute table (BERT, GPT-2): E has one row per position 0 … L_max − 1, added to
//! the token at that position. Here E is only initialised (seeded N(0, 0.02²), the models'
//! `initializer_range`): training comes later. Beside it the sinusoid, which has a row for every
//! position. CPU (`math::learned`) on both backends.

use crate::model::inputs::Inputs;
use serde::Serialize;
use wasm_bindgen::JsValue;
use web_sys::{HtmlCanvasElement, HtmlElement};

use super::super::dom::{self, now_ms};
use super::super::error::WebError;
use super::super::panel::{to_js, Panel, PanelSpec};
use super::family_charts::{draw_matrix, Scale};
use super::{elapsed, format_number, Ctx};
use crate::math::encoding::sinusoidal_from;
use crate::math::learned::{LearnedTable, INIT_STD};

/// The figure shows at most this many positions and columns.
pub const SHOWN_ROWS: usize = 1024;
pub const SHOWN_COLUMNS: usize = 128;

#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LearnedStats {
    /// L_max (`lmax`).
    pub max_len: usize,
    pub d: usize,
    /// The page's n, and how many of its positions have a row (min(n, L_max)).
    pub n: usize,
    pub positions_with_row: usize,
    /// n − L_max when positive: positions the table cannot encode.
    pub positions_beyond: usize,
    /// What looking up position L_max gives: the error's text.
    pub lookup_beyond: String,
    /// The measured standard deviation of E's entries (≈ 0.02) and the mean row norm (≈ 0.02·√d).
    pub entry_std: f64,
    pub mean_row_norm: f64,
    /// ‖p_i‖ of the sinusoid (√(d/2) for even d) at position L_max, which exists.
    pub sinusoid_row_norm_at_max: f64,
    /// The figure's positions (rows ≥ L_max are grey: no entry).
    pub shown_rows: usize,
    pub ms: f64,
}

fn render(ctx: &mut Ctx, dom: &LearnedDom) -> Result<LearnedStats, WebError> {
    let started = now_ms();
    let (p, l) = (ctx.params, ctx.settings);
    let (d, max_len, n) = (p.d, l.learned_max, p.n);
    let table = LearnedTable::new(max_len, d, l.seed)?;
    let lookup_beyond = match table.lookup(&[max_len]) {
        Ok(_) => String::new(),
        Err(error) => error.to_string(),
    };
    let rows = table.encode(max_len)?;
    let count = (max_len * d) as f64;
    let mean = rows.sum() / count;
    let entry_std = (rows.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / count).sqrt();
    let mean_row_norm = rows
        .rows()
        .into_iter()
        .map(|r| r.dot(&r).sqrt())
        .sum::<f64>()
        / max_len as f64;
    let sinusoid = sinusoidal_from(max_len, 1, d, p.base);
    let sinusoid_row_norm_at_max = sinusoid
        .iter()
        .map(|&v| f64::from(v).powi(2))
        .sum::<f64>()
        .sqrt();
    // Enough rows to show the end of the table and what follows it.
    let shown_rows = n.max(max_len + max_len / 4 + 1).min(SHOWN_ROWS);
    let stats = LearnedStats {
        max_len,
        d,
        n,
        positions_with_row: n.min(max_len),
        positions_beyond: n.saturating_sub(max_len),
        lookup_beyond,
        entry_std,
        mean_row_norm,
        sinusoid_row_norm_at_max,
        shown_rows,
        ms: 0.0,
    };
    if ctx.draw {
        let columns = d.min(SHOWN_COLUMNS);
        let rows = &rows;
        let values: Vec<f32> = (0..shown_rows)
            .flat_map(|i| {
                (0..columns).map(move |j| {
                    if i < max_len {
                        rows[[i, j]] as f32
                    } else {
                        f32::NAN
                    }
                })
            })
            .collect();
        draw_matrix(
            &dom.table,
            ctx.scratch,
            &values,
            (shown_rows, columns),
            Scale::Diverging((3.0 * INIT_STD) as f32),
            ("Column", "Position (grey: no row in E)"),
            (None, None),
        )?;
    }
    dom::text(
        &dom.readout,
        &format!(
            "E has rows for positions 0–{} (L_max = {max_len}) of d = {d}, drawn N(0, {}²) as Hugging Face's BERT and GPT-2 initialise theirs (initializer_range) (measured: std {}, mean row norm {} ≈ 0.02·√d). The page's n = {n} {}. Looking up position {max_len}: “{}”. The sinusoid has a row there: ‖p_{max_len}‖ = {} (√(d/2) for even d), and for every later position. Untrained, E is {}× smaller than P and gives each position a distinct random row, but encodes no order or distance; what it learns depends on training, and rows past L_max are never trained.",
            max_len - 1,
            INIT_STD,
            format_number(stats.entry_std),
            format_number(stats.mean_row_norm),
            if stats.positions_beyond > 0 {
                format!(
                    "has {} positions with no row: a model with this table cannot read them (GPT-2 and BERT stop at their L_max)",
                    stats.positions_beyond
                )
            } else {
                "fits in the table".to_string()
            },
            stats.lookup_beyond,
            format_number(sinusoid_row_norm_at_max),
            format_number(sinusoid_row_norm_at_max / mean_row_norm.max(f64::MIN_POSITIVE)),
        ),
    );
    Ok(LearnedStats {
        ms: elapsed(started),
        ..stats
    })
}

crate::element_table! {
    pub struct LearnedDom {
        table: HtmlCanvasElement = "learned-table",
        readout: HtmlElement = "learned-readout",
    }
}

pub struct LearnedPanel {
    spec: &'static PanelSpec,
    dom: LearnedDom,
    stats: LearnedStats,
}

impl LearnedPanel {
    pub fn mount(spec: &'static PanelSpec) -> Result<Self, WebError> {
        Ok(LearnedPanel {
            spec,
            dom: LearnedDom::mount()?,
            stats: LearnedStats::default(),
        })
    }
}

impl Panel for LearnedPanel {
    fn spec(&self) -> &'static PanelSpec {
        self.spec
    }

    fn inputs(&self, ctx: &Ctx) -> Inputs {
        Inputs::new()
            .with(ctx.params.d)
            .with(ctx.params.n)
            .with(ctx.params.base)
            .with(ctx.settings.learned_max)
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
