//! The context-extension panel without the DOM: every pair's ratio under position
//! interpolation, NTK-aware scaling and YaRN (as models run it and as the paper writes it), and
//! the sentences that state them. Tested natively; its view (`view.rs`) draws and wires.

use serde::Serialize;

use crate::math::extension::{
    frequencies, ntk_base, ntk_ratios, yarn, yarn_attention_factor, yarn_correction_range,
    yarn_deployed_ratios, ExtensionError, YarnParams,
};
use crate::model::present::format_number;

pub mod takeaway;
#[cfg(target_arch = "wasm32")]
mod view;
#[cfg(target_arch = "wasm32")]
pub use view::mount;

/// The panel's numbers (`peLab.stats.panels.extension`).
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

/// Every pair's numbers for rotary dimension `d_global` (one less when odd), with base, scale s
/// and training length L; d < 4 gives the empty stats (NTK-aware scaling needs two pairs).
pub fn compute(
    d_global: usize,
    base: f64,
    scale: f64,
    context: usize,
) -> Result<ExtensionStats, ExtensionError> {
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

/// The read-out under the ratio chart.
pub fn ratios_sentence(stats: &ExtensionStats) -> String {
    let (s, context) = (stats.scale, stats.training_context);
    let last = stats.ntk_ratios.last().copied().unwrap_or(f64::NAN);
    let (low, high) = yarn_correction_range(
        stats.d,
        stats.base,
        &YarnParams::new(stats.scale, stats.training_context),
    );
    let gap_pair = stats.yarn_convention_gap_pair;
    crate::message!(
        "readout-extension-ratios",
        s = s.to_string(),
        d = stats.d,
        base = crate::model::params::format_base(stats.base),
        pi_ratio = format_number(stats.pi_ratio),
        ntk_base = format_number(stats.ntk_base),
        ntk_last = format_number(last),
        kept = stats.yarn_kept,
        kept_last = low.to_string(),
        context = context,
        interpolated = stats.yarn_interpolated,
        interpolated_first = high.ceil().to_string(),
        ramped = stats.yarn_ramped,
        gap = format_number(stats.yarn_convention_gap),
        gap_pair = gap_pair,
        gap_as_run = format_number(stats.yarn_ratios.get(gap_pair).copied().unwrap_or(f64::NAN)),
        gap_in_paper = format_number(
            stats
                .yarn_ratios_paper
                .get(gap_pair)
                .copied()
                .unwrap_or(f64::NAN)
        ),
        temperature = format_number(stats.yarn_temperature),
        temperature_squared = format_number(stats.yarn_temperature * stats.yarn_temperature),
    )
}

/// The read-out under the wavelength chart.
pub fn wavelength_sentence(stats: &ExtensionStats) -> String {
    let (pairs, context) = (stats.ntk_ratios.len(), stats.training_context);
    crate::message!(
        "readout-extension-wavelengths",
        within = stats.pairs_within_context,
        pairs = pairs,
        context = context,
        beyond = pairs - stats.pairs_within_context,
    )
}

/// What the panel says when d leaves fewer than two rotary pairs.
pub fn too_few_pairs_sentence(d: usize) -> String {
    crate::message!("readout-extension-too-few-pairs", d = d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sentences_state_the_computed_numbers() {
        let stats = compute(32, 10_000.0, 4.0, 2048).unwrap();
        assert_eq!(
            (stats.yarn_kept, stats.yarn_ramped, stats.yarn_interpolated),
            (5, 6, 5)
        );
        assert_eq!(stats.yarn_convention_gap_pair, 7);
        let text = ratios_sentence(&stats);
        assert!(text.contains("keeps the 5 pairs up to index 4"), "{text}");
        assert!(
            text.contains("divides by s the 5 pairs from index 11 on"),
            "{text}"
        );
        assert!(
            text.contains("pair 7: 0.6786 as run, 0.3660 in the paper"),
            "{text}"
        );
        let waves = wavelength_sentence(&stats);
        assert!(
            waves.starts_with(&format!("{} of 16 pairs", stats.pairs_within_context)),
            "{waves}"
        );
        // Fewer than two pairs: no ratios, and compute says why not rather than failing.
        assert!(compute(3, 10_000.0, 4.0, 2048)
            .unwrap()
            .ntk_ratios
            .is_empty());
    }

    #[test]
    fn too_few_pairs_names_d() {
        assert_eq!(
            too_few_pairs_sentence(2),
            "d = 2 has fewer than two rotary pairs: NTK-aware scaling needs d ≥ 4."
        );
    }
}
