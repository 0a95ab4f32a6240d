//! Context extension of RoPE: position interpolation (θ/s), NTK-aware scaling (base
//! b·s^(d/(d−2))) and YaRN (a ramp by rotations within the training length, and the temperature
//! 0.1·ln s + 1), pair by pair, with each pair's wavelength against the training length L and the
//! extended length s·L. CPU (`math::extension`) on both backends: d/2 numbers.

use plotters::prelude::SeriesLabelPosition;
use serde::Serialize;
use wasm_bindgen::JsValue;
use web_sys::{HtmlCanvasElement, HtmlElement};

use super::super::dom::{self, now_ms};
use super::super::error::WebError;
use super::super::panel::{to_js, Panel, PanelSpec};
use super::family_charts::{draw_lines, LineChart, Series};
use super::{canvas_message, elapsed, format_number, Ctx};
use crate::math::extension::{
    frequencies, ntk_base, ntk_ratios, yarn, yarn_attention_factor, yarn_correction_range,
    yarn_deployed_ratios, YarnParams,
};

#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExtensionStats {
    /// The rotary dimension (the global d, less one when odd).
    pub d: usize,
    pub base: f64,
    pub scale: f64,
    pub training_context: usize,
    /// The NTK-aware base b·s^(d/(d−2)).
    pub ntk_base: f64,
    /// θ'_j/θ_j per pair j for NTK-aware scaling: s^(−2j/(d−2)).
    pub ntk_ratios: Vec<f64>,
    /// θ'_j/θ_j for position interpolation: 1/s for every pair.
    pub pi_ratio: f64,
    /// θ'_j/θ_j per pair for YaRN as models run it (Hugging Face transformers: a ramp linear in
    /// the pair index between the two correction pairs).
    pub yarn_ratios: Vec<f64>,
    /// θ'_j/θ_j per pair for YaRN as the paper writes it (a ramp linear in the number of turns).
    pub yarn_ratios_paper: Vec<f64>,
    /// The paper's ramp γ(r_j) per pair (0: interpolated, 1: kept).
    pub yarn_ramp: Vec<f64>,
    /// The largest |difference| between the two conventions' ratios, and the pair where it is.
    pub yarn_convention_gap: f64,
    pub yarn_convention_gap_pair: usize,
    /// λ_j = 2π/θ_j per pair, in positions.
    pub wavelengths: Vec<f64>,
    /// Pairs with λ_j < L (at least one full turn within the training context).
    pub pairs_within_context: usize,
    /// YaRN as models run it: pairs fully interpolated (ratio 1/s), kept (ratio 1), and on the
    /// ramp.
    pub yarn_interpolated: usize,
    pub yarn_kept: usize,
    pub yarn_ramped: usize,
    /// √(1/t) = 0.1·ln s + 1: q and k are each multiplied by it (logits by its square).
    pub yarn_temperature: f64,
    pub ms: f64,
}

pub fn compute(
    d_global: usize,
    base: f64,
    scale: f64,
    context: usize,
) -> Result<ExtensionStats, WebError> {
    let d = d_global - d_global % 2;
    let mut stats = ExtensionStats {
        d,
        base,
        scale,
        training_context: context,
        pi_ratio: 1.0 / scale,
        yarn_temperature: yarn_attention_factor(scale),
        ..ExtensionStats::default()
    };
    if d < 4 {
        return Ok(stats);
    }
    stats.ntk_base = ntk_base(d, base, scale)?;
    stats.ntk_ratios = ntk_ratios(d, scale)?;
    let thetas = frequencies(d, base)?;
    let params = YarnParams::new(scale, context);
    let pairs = yarn(d, base, &params)?;
    stats.yarn_ratios_paper = pairs
        .iter()
        .zip(&thetas)
        .map(|(p, t)| p.theta_new / t)
        .collect();
    stats.yarn_ratios = yarn_deployed_ratios(d, base, &params)?;
    stats.yarn_ramp = pairs.iter().map(|p| p.ramp).collect();
    stats.wavelengths = pairs.iter().map(|p| p.wavelength).collect();
    stats.pairs_within_context = pairs.iter().filter(|p| p.fits_in_context).count();
    let (gap_pair, gap) = stats
        .yarn_ratios
        .iter()
        .zip(&stats.yarn_ratios_paper)
        .map(|(a, b)| (a - b).abs())
        .enumerate()
        .fold(
            (0, 0.0),
            |best, (j, g)| if g > best.1 { (j, g) } else { best },
        );
    stats.yarn_convention_gap = gap;
    stats.yarn_convention_gap_pair = gap_pair;
    // Ratios within rounding of 1 or of 1/s are the kept and the interpolated pairs.
    let near = |a: f64, b: f64| (a - b).abs() <= 1e-12 * b.abs().max(1.0);
    stats.yarn_kept = stats.yarn_ratios.iter().filter(|&&r| near(r, 1.0)).count();
    stats.yarn_interpolated = stats
        .yarn_ratios
        .iter()
        .filter(|&&r| near(r, 1.0 / scale) && !near(r, 1.0))
        .count();
    stats.yarn_ramped = stats.yarn_ratios.len() - stats.yarn_interpolated - stats.yarn_kept;
    Ok(stats)
}

fn render(ctx: &mut Ctx, dom: &ExtensionDom) -> Result<ExtensionStats, WebError> {
    let started = now_ms();
    let (p, l) = (ctx.params, ctx.lesson);
    let mut stats = compute(p.d, p.base, l.extension_scale, l.training_context)?;
    if stats.d < 4 {
        if ctx.draw {
            for canvas in [&dom.ratios, &dom.wavelengths] {
                canvas_message(
                    canvas,
                    &[
                        "Context extension needs at least",
                        "two rotary pairs: d ≥ 4.",
                    ],
                )?;
            }
        }
        dom::text(
            &dom.readout,
            &format!(
                "d = {} has fewer than two rotary pairs: NTK-aware scaling needs d ≥ 4.",
                p.d
            ),
        );
        dom::text(&dom.wavelength_readout, "");
        stats.ms = elapsed(started);
        return Ok(stats);
    }
    let (s, context) = (stats.scale, stats.training_context);
    let pairs = stats.ntk_ratios.len();
    if ctx.draw {
        let index = |values: &[f64]| -> Vec<(f64, f64)> {
            values
                .iter()
                .enumerate()
                .map(|(j, &v)| (j as f64, v))
                .collect()
        };
        draw_lines(
            &dom.ratios,
            &LineChart {
                x_desc: "Pair j (θ_j = base^(−2j/d))",
                // A linear axis: the ratios lie in [1/s, 1], less than two decades, where a log
                // axis gets a single tick.
                y_desc: "θ'_j / θ_j",
                log_x: false,
                log_y: false,
                series: vec![
                    Series {
                        label: "PI: 1/s".into(),
                        colour: 5,
                        points: vec![(0.0, 1.0 / s), ((pairs - 1) as f64, 1.0 / s)],
                        dashed: true,
                        markers: false,
                    },
                    Series {
                        label: "NTK-aware".into(),
                        colour: 0,
                        points: index(&stats.ntk_ratios),
                        dashed: false,
                        markers: pairs <= 64,
                    },
                    Series {
                        label: "YaRN (as run)".into(),
                        colour: 2,
                        points: index(&stats.yarn_ratios),
                        dashed: false,
                        markers: pairs <= 64,
                    },
                    Series {
                        label: "YaRN (paper)".into(),
                        colour: 3,
                        points: index(&stats.yarn_ratios_paper),
                        dashed: true,
                        markers: false,
                    },
                ],
                y_range: Some((0.0, 1.08)),
                legend: SeriesLabelPosition::UpperRight,
                marks: Vec::new(),
            },
        )?;
        draw_lines(
            &dom.wavelengths,
            &LineChart {
                x_desc: "Pair j",
                y_desc: "Wavelength 2π/θ_j (log)",
                log_x: false,
                log_y: true,
                series: vec![
                    Series {
                        label: "λ_j".into(),
                        colour: 0,
                        points: index(&stats.wavelengths),
                        dashed: false,
                        markers: pairs <= 64,
                    },
                    Series {
                        label: format!("L = {context}"),
                        colour: 6,
                        points: vec![(0.0, context as f64), ((pairs - 1) as f64, context as f64)],
                        dashed: true,
                        markers: false,
                    },
                    Series {
                        label: format!("s·L = {}", s * context as f64),
                        colour: 5,
                        points: vec![
                            (0.0, s * context as f64),
                            ((pairs - 1) as f64, s * context as f64),
                        ],
                        dashed: true,
                        markers: false,
                    },
                ],
                y_range: None,
                legend: SeriesLabelPosition::LowerRight,
                marks: Vec::new(),
            },
        )?;
    }
    let last = stats.ntk_ratios.last().copied().unwrap_or(f64::NAN);
    let (low, high) = yarn_correction_range(
        stats.d,
        stats.base,
        &YarnParams::new(stats.scale, stats.training_context),
    );
    dom::text(
        &dom.readout,
        &format!(
            "s = {}, d = {}, base {}: position interpolation divides every frequency by s (ratio {}). NTK-aware scaling uses base b' = b·s^(d/(d−2)) = {}: pair 0 keeps its frequency (ratio 1), the last pair gets {} = 1/s, the ones between s^(−2j/(d−2)). YaRN as models run it (Hugging Face transformers, the rule of the reference code): it keeps the {} pairs up to index {} (at least β_fast = 32 turns within L = {context}), divides by s the {} pairs from index {} on (at most β_slow = 1 turn), and ramps the {} between linearly in the pair index. The paper's ramp is linear in the number of turns instead (dashed): the two differ by up to {} (pair {}: {} as run, {} in the paper). YaRN also multiplies q and k by 0.1·ln s + 1 = {} (the logits by its square, {}).",
            s,
            stats.d,
            crate::math::params::format_base(stats.base),
            format_number(stats.pi_ratio),
            format_number(stats.ntk_base),
            format_number(last),
            stats.yarn_kept,
            low,
            stats.yarn_interpolated,
            high.ceil(),
            stats.yarn_ramped,
            format_number(stats.yarn_convention_gap),
            stats.yarn_convention_gap_pair,
            format_number(stats.yarn_ratios.get(stats.yarn_convention_gap_pair).copied().unwrap_or(f64::NAN)),
            format_number(stats.yarn_ratios_paper.get(stats.yarn_convention_gap_pair).copied().unwrap_or(f64::NAN)),
            format_number(stats.yarn_temperature),
            format_number(stats.yarn_temperature * stats.yarn_temperature),
        ),
    );
    dom::text(
        &dom.wavelength_readout,
        &format!(
            "{} of {pairs} pairs have a wavelength shorter than L = {context}: they made at least one full turn in training, so every angle they meet beyond L was already seen. The other {} never completed a turn in training; past L they reach angles the model never saw, which is why YaRN interpolates the slowest of them fully.",
            stats.pairs_within_context,
            pairs - stats.pairs_within_context,
        ),
    );
    stats.ms = elapsed(started);
    Ok(stats)
}

crate::element_table! {
    pub struct ExtensionDom {
        ratios: HtmlCanvasElement = "ext-ratios",
        readout: HtmlElement = "ext-readout",
        wavelengths: HtmlCanvasElement = "ext-wavelengths",
        wavelength_readout: HtmlElement = "ext-wavelength-readout",
    }
}

pub struct ExtensionPanel {
    spec: &'static PanelSpec,
    dom: ExtensionDom,
    stats: ExtensionStats,
}

impl ExtensionPanel {
    pub fn mount(spec: &'static PanelSpec) -> Result<Self, WebError> {
        Ok(ExtensionPanel {
            spec,
            dom: ExtensionDom::mount()?,
            stats: ExtensionStats::default(),
        })
    }
}

impl Panel for ExtensionPanel {
    fn spec(&self) -> &'static PanelSpec {
        self.spec
    }

    fn inputs(&self, ctx: &Ctx) -> String {
        format!(
            "{}|{}|{}|{}",
            ctx.params.d, ctx.params.base, ctx.lesson.extension_scale, ctx.lesson.training_context
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
