//! The chapter's first exercise: stack self-attention layers with positional encoding and watch
//! what happens. Pure attention (no skip, no LayerNorm) drives every row towards the same vector:
//! the residual r_L = ‖X_L − 1μ_Lᵀ‖_F / ‖X_L‖_F falls doubly exponentially with depth (Dong,
//! Cordonnier & Loukas 2021), and a linear probe can no longer read the position from X_L. Skip
//! connections stop the collapse. Random W_q, W_k, W_v ~ N(0, 1/d) per layer; CPU
//! (`math::stacking`, float64) on both backends.

use crate::model::inputs::Inputs;
use web_sys::{HtmlCanvasElement, HtmlElement};

use super::takeaway::{self, StackingTakeaway};
use super::{compute, readout, StackingStats};
use crate::math::stacking::StackOptions;
use crate::web::dom;
use crate::web::error::WebError;
use crate::web::panels::family_charts::{draw_lines, LineChart, Series};
use crate::web::panels::view::View;
use crate::web::panels::Ctx;

/// The experiment runs on at most this many positions and dimensions: 48 layers of a 64 × 64
/// block take about 50 million multiply-adds, a fraction of a frame's budget per layer.
pub const MAX_STACK_N: usize = 64;
pub const MAX_STACK_D: usize = 64;
/// Residuals below this are drawn at this height of the log axis (float64 rounding).
const FLOOR: f64 = 1e-17;
/// Held-out R² below this is drawn at this height.
const PROBE_FLOOR: f64 = -1.0;

fn options(ctx: &Ctx) -> StackOptions {
    let l = ctx.settings;
    StackOptions {
        n: ctx.params.n.min(MAX_STACK_N),
        d: ctx.params.d.min(MAX_STACK_D),
        layers: l.layers,
        skip: l.skip,
        layer_norm: l.layer_norm,
        causal: l.causal,
        positions: l.injection,
        seed: l.seed,
    }
}

fn render(ctx: &mut Ctx, dom: &StackingDom) -> Result<StackingStats, WebError> {
    let options = options(ctx);
    let stats = compute(&options)?;
    let depth = |values: &[f64], floor: f64| -> Vec<(f64, f64)> {
        values
            .iter()
            .enumerate()
            .filter(|(_, v)| !v.is_nan())
            .map(|(layer, &v)| (layer as f64, v.max(floor)))
            .collect()
    };
    if ctx.draw {
        let few = stats.layers <= 24;
        // The held-out R² can be far below 0 (a probe fitted to noise); values under −1 are
        // drawn at −1, the numbers themselves are in the read-out and in stats.
        let lowest = stats.probe_r2.iter().copied().fold(0.0_f64, f64::min);
        let probe_bottom = (lowest.max(PROBE_FLOOR) - 0.05).min(-0.05);
        draw_lines(
            &dom.residuals,
            &LineChart {
                style: ctx.style,
                x_desc: &crate::message!("label-axis-layer-l"),
                y_desc: &crate::message!("figure-stacking-residuals-y"),
                log_x: false,
                log_y: true,
                series: vec![Series {
                    label: "r_L".into(),
                    colour: 0,
                    points: depth(&stats.rank_residual, FLOOR),
                    dashed: false,
                    markers: few,
                    ..Default::default()
                }],
                y_range: Some((FLOOR / 2.0, 2.0)),
                marks: Vec::new(),
            },
        )?;
        draw_lines(
            &dom.probe,
            &LineChart {
                style: ctx.style,
                x_desc: &crate::message!("label-axis-layer-l"),
                y_desc: &crate::message!("figure-stacking-probe-y"),
                log_x: false,
                log_y: false,
                series: vec![Series {
                    label: crate::message!("figure-stacking-legend-probe"),
                    colour: 4,
                    points: depth(&stats.probe_r2, PROBE_FLOOR),
                    dashed: false,
                    markers: few,
                    ..Default::default()
                }],
                y_range: Some((probe_bottom, 1.05)),
                marks: Vec::new(),
            },
        )?;
    }
    dom::text(
        &dom.readout,
        &readout(&stats, &options, ctx.settings.seed, MAX_STACK_N),
    );
    dom::text(
        &dom.takeaway,
        &takeaway::takeaway(&StackingTakeaway {
            n: stats.n,
            skip: stats.skip,
            layer_norm: stats.layer_norm,
            residuals: &stats.rank_residual,
        }),
    );
    Ok(stats)
}

crate::element_table! {
    pub struct StackingDom {
        residuals: HtmlCanvasElement = "stack-residuals",
        probe: HtmlCanvasElement = "stack-probe",
        readout: HtmlElement = "stack-readout",
        takeaway: HtmlElement = "stacking-takeaway",
    }
}

/// The panel: its elements, the inputs it reads and its view ([`crate::web::panels::view`]).
pub static VIEW: View<StackingDom, StackingStats> = View {
    elements: StackingDom::mount,
    takeaway: |dom| &dom.takeaway,
    inputs: |ctx| Inputs::new().with_parts(&options(ctx)),
    render,
    ms: |stats| &mut stats.ms,
};

crate::web::panels::view::mount_view!(VIEW);
