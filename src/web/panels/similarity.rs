//! Panel 4, similarity and translation invariance: the Gram matrix P·Pᵀ (constant diagonals) or
//! the distances ‖p_i − p_j‖, the curve p_i·p_{i+k} against k from two starting rows, the
//! normalised positions i/n whose similarity changes with n, and the forum's numbers at d = 16.
//!
//! The Gram heatmap: on WebGPU the Gram kernel and the heatmap render pass (nothing read back), of
//! the first rows whose r²·d fits [`GPU_GRAM_BUDGET`]; on the CPU `math::gram` of the first rows
//! within [`CPU_GRAM_BUDGET`] (a visible note says when rows are left out). The distances are
//! always computed on the CPU from a capped Gram matrix.

use crate::model::inputs::Inputs;
use crate::model::query::values::UrlName;
use crate::model::tables::PanelId;
use crate::web::surface;
use serde::Serialize;
use web_sys::HtmlCanvasElement;

use super::super::action::{Action, PanelEvent};
use super::super::dom::{self, now_ms};
use super::super::error::WebError;
use super::super::panel::{to_js, Panel, PanelSpec};
use super::reading::{self, Paging};
use super::similarity_charts::{draw_curve, draw_normalized};
use super::similarity_heatmap::{draw_heatmap, GramView};
use super::{elapsed, format_number, subscript, Ctx};
use crate::math::panels::{dot_curve, encoding_rows, row_dot};
use crate::math::similarity::{normalized_similarity, row_resemblance, RowResemblance};
use crate::model::plot::step_cell;
use wasm_bindgen::JsValue;
use web_sys::HtmlElement;

/// Multiply-adds of one Gram heatmap on the GPU: r²·d ≤ 2²⁶ (all 4096 rows up to d = 4, 181 rows
/// at d = 2048). Microseconds on a discrete GPU; on a 2-core software adapter (SwiftShader, the
/// tests' browser) 2²⁸ added 0.3–0.6 s to a frame at n = 4096, d = 2048, this about 0.1 s.
pub const GPU_GRAM_BUDGET: u64 = 1 << 26;
/// On the CPU (WebAssembly): r²·d ≤ 2²⁴, about 10 ms, so that the panel follows a slider.
pub const CPU_GRAM_BUDGET: u64 = 1 << 24;
/// The second starting row of the similarity curve is i + SHIFT (the forum's p_105 against p_5).
pub(super) const SHIFT: usize = 100;
/// Rows of the exact diagonal check when the heatmap came from the GPU.
pub(super) const CHECK_ROWS: usize = 128;

#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ForumCheck {
    pub d: usize,
    pub base: f64,
    pub p5p6: f64,
    pub p105p106: f64,
    pub p5p10: f64,
}

#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SimilarityStats {
    pub view: &'static str,
    pub n: usize,
    pub d: usize,
    /// Rows (and columns) of the heatmap: n, or fewer when capped.
    pub heatmap_rows: usize,
    pub capped: bool,
    /// "webgpu" (Gram kernel + render pass) or "cpu".
    pub heatmap_source: &'static str,
    /// Largest deviation of a Gram entry from its diagonal's mean (≈ 1e-6 for even d).
    pub diagonal_spread: f64,
    pub diagonal_spread_rows: usize,
    /// Live, at the current d and base.
    pub p5p6: f64,
    pub p105p106: f64,
    pub p5p10: f64,
    /// The Stack Exchange answer's numbers, at d = 16, base 10000.
    pub forum: ForumCheck,
    /// The curve p_i·p_{i+k}, k = 0 … max_offset, and the same from i + 100.
    pub position: usize,
    pub max_offset: usize,
    pub curve: Vec<f64>,
    pub curve_shifted: Vec<f64>,
    pub curve_max_difference: f64,
    /// (i/n)·((i+1)/n) at n and at 2n; p_i·p_{i+1} at any n.
    pub normalized_n: usize,
    pub normalized_short: f64,
    pub normalized_long: f64,
    pub sinusoidal_neighbours: f64,
    /// ‖p_0 − p_1‖, ‖p_40 − p_41‖ (equal for even d: neighbours look alike at every position), and
    /// how little the slow columns move between neighbours, early (p_0, p_1) and later (p_40, p_41).
    pub distance01: f64,
    pub distance4041: f64,
    pub split_column: usize,
    pub low_frequency_max_difference01: f64,
    pub low_frequency_share01: f64,
    pub low_frequency_max_difference4041: f64,
    pub low_frequency_share4041: f64,
    /// Where the heatmap's cells are drawn, in canvas pixels [x0, y0, x1, y1] (zeros while the
    /// panel is off screen and not drawn yet).
    pub image: [f64; 4],
    pub ms: f64,
}

/// The panel's numbers, and its heatmap as drawn (`None` while off screen).
pub fn render(
    ctx: &mut Ctx,
    dom: &SimilarityDom,
) -> Result<(SimilarityStats, Option<GramView>), WebError> {
    let started = now_ms();
    let (params, lesson) = (ctx.params, ctx.settings);
    let (n, d, base) = (params.n, params.d, params.base);
    let mut stats = SimilarityStats {
        view: lesson.sim_view.to_query(),
        n,
        d,
        ..SimilarityStats::default()
    };
    let drawn = draw_heatmap(ctx, dom, &mut stats)?;
    if let Some(view) = &drawn {
        let r = view.rect;
        stats.image = surface::backing_rect(&dom.heatmap, (r.x0, r.y0, r.x1, r.y1));
    }

    let live = |i, j| row_dot(i, j, d, base);
    stats.p5p6 = live(5, 6)?;
    stats.p105p106 = live(105, 106)?;
    stats.p5p10 = live(5, 10)?;
    let forum = |i, j| row_dot(i, j, 16, 10000.0);
    stats.forum = ForumCheck {
        d: 16,
        base: 10000.0,
        p5p6: forum(5, 6)?,
        p105p106: forum(105, 106)?,
        p5p10: forum(5, 10)?,
    };
    dom::text(
        &dom.live,
        &format!(
            "At d = {d}, base {}: p₅·p₆ = {:.4}, p₁₀₅·p₁₀₆ = {:.4}, p₅·p₁₀ = {:.4}",
            crate::model::params::format_base(base),
            stats.p5p6,
            stats.p105p106,
            stats.p5p10
        ),
    );
    dom::text(
        &dom.forum,
        &format!(
            "The Q&A's worked numbers, recomputed (d = 16, base 10000): p₅·p₆ = {:.4}, p₁₀₅·p₁₀₆ = {:.4}, p₅·p₁₀ = {:.4}",
            stats.forum.p5p6, stats.forum.p105p106, stats.forum.p5p10
        ),
    );

    let (i, k_max) = (lesson.sim_position, lesson.sim_max_offset);
    stats.position = i;
    stats.max_offset = k_max;
    stats.curve = dot_curve(i, k_max, d, base)?;
    stats.curve_shifted = dot_curve(i + SHIFT, k_max, d, base)?;
    stats.curve_max_difference = stats
        .curve
        .iter()
        .zip(&stats.curve_shifted)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    if ctx.draw {
        draw_curve(&dom.curve, &stats)?;
    }
    dom::text(
        &dom.curve_readout,
        &format!(
            "From i = {i} and from i = {}: largest difference between the two curves {:.1e}{}",
            i + SHIFT,
            stats.curve_max_difference,
            if d % 2 == 0 {
                " — the similarity depends on the offset k only.".to_string()
            } else {
                format!(
                    " — with odd d = {d} the unpaired last sine column makes it depend on i a little."
                )
            }
        ),
    );

    stats.normalized_n = n;
    stats.normalized_short = normalized_similarity(i, i + 1, n);
    stats.normalized_long = normalized_similarity(i, i + 1, 2 * n);
    stats.sinusoidal_neighbours = stats.curve.get(1).copied().unwrap_or(f64::NAN);
    if ctx.draw {
        draw_normalized(&dom.norm, i, n, k_max)?;
    }
    dom::text(
        &dom.norm_readout,
        &if i + 1 < n {
            format!(
                "Neighbours {i} and {}: (i/n)·((i+1)/n) = {} at n = {n} but {} at n = {} — the same two tokens, a different similarity. p{}·p{} = {:.4} at every n.",
                i + 1,
                format_number(stats.normalized_short),
                format_number(stats.normalized_long),
                2 * n,
                subscript(i),
                subscript(i + 1),
                stats.sinusoidal_neighbours
            )
        } else {
            format!(
                "Position i = {i} has no neighbour inside a sequence of n = {n}: raise n or lower i (p{}·p{} = {:.4} needs no n).",
                subscript(i),
                subscript(i + 1),
                stats.sinusoidal_neighbours
            )
        },
    );

    let rows = encoding_rows(0, 42, d, base)?;
    let near = row_resemblance(rows.view(), 0, 1)?;
    let later = row_resemblance(rows.view(), 40, 41)?;
    stats.distance01 = near.distance;
    stats.distance4041 = later.distance;
    stats.split_column = near.split_column;
    stats.low_frequency_max_difference01 = near.low_frequency_max_difference;
    stats.low_frequency_share01 = near.low_frequency_share;
    stats.low_frequency_max_difference4041 = later.low_frequency_max_difference;
    stats.low_frequency_share4041 = later.low_frequency_share;
    dom::text(
        &dom.distance_readout,
        &if near.split_column < d {
            format!(
                "‖p₀ − p₁‖ = {:.4} and ‖p₄₀ − p₄₁‖ = {:.4}{} Early rows are not special, neighbours are as alike at position 40 as at position 0: the slow columns {}–{} change by at most {} between p₀ and p₁ ({:.2}% of the squared distance) and by at most {} between p₄₀ and p₄₁ ({:.2}%). {}",
                near.distance,
                later.distance,
                if d % 2 == 0 {
                    ": neighbours are equally far apart at every position (the distance depends on the offset only)."
                } else {
                    " (odd d: almost, not exactly, equal)."
                },
                near.split_column,
                d - 1,
                format_number(near.low_frequency_max_difference),
                100.0 * near.low_frequency_share,
                format_number(later.low_frequency_max_difference),
                100.0 * later.low_frequency_share,
                if slow_columns_barely_move(&near) && slow_columns_barely_move(&later) {
                    "Over a few positions these columns barely move, wherever the positions are, so neighbours differ mostly in the fast columns on the left."
                        .to_string()
                } else {
                    format!(
                        "At base {} these columns are not slow enough to stay still: neighbours differ in them too.",
                        crate::model::params::format_base(base)
                    )
                }
            )
        } else {
            format!(
                "‖p₀ − p₁‖ = {:.4}, ‖p₄₀ − p₄₁‖ = {:.4}; with d = {d} there is a single frequency, so there are no slow columns.",
                near.distance, later.distance
            )
        },
    );
    stats.ms = elapsed(started);
    Ok((stats, drawn))
}

/// Whether the slow half of two neighbouring rows barely moves (each entry by less than 0.1) and
/// holds less than half of their squared distance, as at base 10000.
fn slow_columns_barely_move(r: &RowResemblance) -> bool {
    r.low_frequency_max_difference < 0.1 && r.low_frequency_share < 0.5
}

crate::element_table! {
    pub struct SimilarityDom {
        live: HtmlElement = "sim-live",
        forum: HtmlElement = "sim-forum",
        heatmap: HtmlCanvasElement = "sim-heatmap",
        tooltip: HtmlElement = "sim-tooltip",
        hover: HtmlElement = "sim-hover",
        note: HtmlElement = "sim-heatmap-note",
        curve: HtmlCanvasElement = "sim-curve",
        curve_readout: HtmlElement = "sim-curve-readout",
        norm: HtmlCanvasElement = "sim-norm",
        norm_readout: HtmlElement = "sim-norm-readout",
        distance_readout: HtmlElement = "sim-distance-readout",
    }
}

pub struct SimilarityPanel {
    spec: &'static PanelSpec,
    dom: SimilarityDom,
    stats: SimilarityStats,
    /// The heatmap as drawn, for reading its cells.
    view: Option<GramView>,
    /// The cell read from the keyboard (i, j).
    cursor: (usize, usize),
}

impl SimilarityPanel {
    pub fn mount(spec: &'static PanelSpec) -> Result<Self, WebError> {
        Ok(SimilarityPanel {
            spec,
            dom: SimilarityDom::mount()?,
            stats: SimilarityStats::default(),
            view: None,
            cursor: (0, 0),
        })
    }
}

impl Panel for SimilarityPanel {
    fn spec(&self) -> &'static PanelSpec {
        self.spec
    }

    fn inputs(&self, ctx: &Ctx) -> Inputs {
        let (p, l) = (ctx.params, ctx.settings);
        Inputs::new()
            .with(p.n)
            .with(p.d)
            .with(p.base)
            .with(l.sim_position)
            .with(l.sim_max_offset)
            .with_debug(&l.sim_view)
            .with(ctx.backend.name())
    }

    fn render(&mut self, ctx: &mut Ctx) -> Result<(), WebError> {
        let (stats, view) = render(ctx, &self.dom)?;
        self.stats = stats;
        if view.is_some() || !ctx.draw {
            self.view = view;
        }
        self.dom.tooltip.set_hidden(true);
        Ok(())
    }

    fn stats(&self) -> Option<JsValue> {
        Some(to_js(&self.stats))
    }

    fn error_slot(&self) -> &HtmlElement {
        &self.dom.note
    }

    fn wire(&self, panel: PanelId, send: fn(Action)) -> Result<(), WebError> {
        reading::wire(&self.dom.heatmap, panel, send, Paging::Rows)
    }

    fn event(&mut self, _ctx: &mut Ctx, event: PanelEvent) -> Result<bool, WebError> {
        let (canvas, tooltip) = (&self.dom.heatmap, &self.dom.tooltip);
        let Some(view) = &self.view else {
            tooltip.set_hidden(true);
            return Ok(false);
        };
        let cell = match event {
            PanelEvent::Pointer { x, y } => {
                let (cx, cy) = reading::to_canvas(canvas, x, y);
                view.cell_at(cx, cy).map(|cell| (cell, (x, y)))
            }
            PanelEvent::Cursor { rows, columns } => {
                self.cursor = step_cell(self.cursor, (rows, columns), (view.rows, view.rows));
                let size = (view.rows, view.rows);
                Some((
                    self.cursor,
                    reading::cell_centre(canvas, view.rect, size, self.cursor),
                ))
            }
            _ => None,
        };
        match cell {
            Some(((i, j), at)) => {
                let text = view.describe_cell(i, j)?;
                reading::show(canvas, tooltip, &self.dom.hover, &text, at);
            }
            None => tooltip.set_hidden(true),
        }
        Ok(false)
    }
}
