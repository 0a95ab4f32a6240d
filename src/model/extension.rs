//! The context-extension panel without the DOM: every pair's ratio under position
//! interpolation, NTK-aware scaling and YaRN (as models run it and as the paper writes it), and
//! the sentences that state them. Tested natively; `web::panels::extension` draws and wires.

use serde::Serialize;

use super::present::format_number;
use crate::math::extension::{
    frequencies, ntk_base, ntk_ratios, yarn, yarn_attention_factor, yarn_correction_range,
    yarn_deployed_ratios, ExtensionError, YarnParams,
};

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
    format!(
            "s = {}, d = {}, base {}: position interpolation divides every frequency by s (ratio {}). NTK-aware scaling uses base b' = b·s^(d/(d−2)) = {}: pair 0 keeps its frequency (ratio 1), the last pair gets {} = 1/s, the ones between s^(−2j/(d−2)). YaRN as models run it (Hugging Face transformers, the rule of the reference code): it keeps the {} pairs up to index {} (at least β_fast = 32 turns within L = {context}), divides by s the {} pairs from index {} on (at most β_slow = 1 turn), and ramps the {} between linearly in the pair index. The paper's ramp is linear in the number of turns instead (dashed): the two differ by up to {} (pair {}: {} as run, {} in the paper). YaRN also multiplies q and k by 0.1·ln s + 1 = {} (the logits by its square, {}).",
            s,
            stats.d,
            crate::model::params::format_base(stats.base),
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
        )
}

/// The read-out under the wavelength chart.
pub fn wavelength_sentence(stats: &ExtensionStats) -> String {
    let (pairs, context) = (stats.ntk_ratios.len(), stats.training_context);
    format!(
            "{} of {pairs} pairs have a wavelength shorter than L = {context}: they made at least one full turn in training, so every angle they meet beyond L was already seen. The other {} never completed a turn in training; past L they reach angles the model never saw, which is why YaRN interpolates the slowest of them fully.",
            stats.pairs_within_context,
            pairs - stats.pairs_within_context,
        )
}

/// What the panel says when d leaves fewer than two rotary pairs.
pub fn too_few_pairs_sentence(d: usize) -> String {
    format!("d = {d} has fewer than two rotary pairs: NTK-aware scaling needs d ≥ 4.")
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
