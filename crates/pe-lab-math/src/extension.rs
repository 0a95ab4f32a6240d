//! Context extension of rotary (RoPE) frequencies θ_j = base^(−2j/d), j = 0..d/2: how a model
//! trained on L positions is made to read s·L positions.
//!
//! - Position interpolation (Chen et al. 2023): every frequency divided by s, θ'_j = θ_j/s, so
//!   the positions 0..sL are squeezed into the trained angle range.
//! - NTK-aware scaling (bloc97, 2023): a larger base b' = b·s^(d/(d−2)). The highest frequency
//!   (j = 0) is unchanged and the lowest (j = d/2 − 1) is divided by exactly s; in between
//!   θ'_j/θ_j = s^(−2j/(d−2)).
//! - YaRN (Peng et al. 2023, "NTK-by-parts" plus a temperature): pairs whose wavelength fits many
//!   times in the training context keep their frequency, pairs with a wavelength longer than the
//!   context are interpolated, with a linear ramp in between.

use thiserror::Error;

use super::encoding::frequency;

/// Why a context extension cannot be computed.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum ExtensionError {
    #[error("the rotary dimension d must be even and at least {min} (got {d})")]
    InvalidDimension { d: usize, min: usize },
    #[error("the frequency base must be a finite number greater than 1 (got {0})")]
    InvalidBase(f64),
    #[error("the scale factor s must be a finite number ≥ 1 (got {0})")]
    InvalidScale(f64),
    #[error("the training context length must be at least 1")]
    ZeroContext,
    #[error("the ramp needs 0 ≤ α < β, both finite (got α = {alpha}, β = {beta})")]
    InvalidRamp { alpha: f64, beta: f64 },
    #[error("d = {requested} is larger than the limit {limit}")]
    TooLarge { requested: usize, limit: usize },
}

/// Largest rotary dimension accepted (a frequency table is d/2 long).
pub const MAX_DIMENSION: usize = 1 << 16;

fn check(d: usize, min: usize, base: f64, scale: f64) -> Result<(), ExtensionError> {
    if d < min || d % 2 != 0 {
        return Err(ExtensionError::InvalidDimension { d, min });
    }
    if d > MAX_DIMENSION {
        return Err(ExtensionError::TooLarge {
            requested: d,
            limit: MAX_DIMENSION,
        });
    }
    if !base.is_finite() || base <= 1.0 {
        return Err(ExtensionError::InvalidBase(base));
    }
    if !scale.is_finite() || scale < 1.0 {
        return Err(ExtensionError::InvalidScale(scale));
    }
    Ok(())
}

/// The rotary frequencies θ_j = base^(−2j/d), j = 0..d/2 (d even, ≥ 2).
pub fn frequencies(d: usize, base: f64) -> Result<Vec<f64>, ExtensionError> {
    check(d, 2, base, 1.0)?;
    Ok((0..d / 2).map(|j| frequency(j, d, base)).collect())
}

/// Position interpolation: θ_j/s for every pair.
pub fn position_interpolation(d: usize, base: f64, scale: f64) -> Result<Vec<f64>, ExtensionError> {
    check(d, 2, base, scale)?;
    Ok(frequencies(d, base)?
        .into_iter()
        .map(|t| t / scale)
        .collect())
}

/// The NTK-aware base b·s^(d/(d−2)). The exponent is chosen so that the lowest frequency
/// base^(−(d−2)/d) becomes exactly base^(−(d−2)/d)/s. Needs d ≥ 4 (d = 2 has one pair, j = 0,
/// which no base changes).
pub fn ntk_base(d: usize, base: f64, scale: f64) -> Result<f64, ExtensionError> {
    check(d, 4, base, scale)?;
    Ok(base * scale.powf(d as f64 / (d as f64 - 2.0)))
}

/// The frequencies with the NTK-aware base: b'^(−2j/d).
pub fn ntk_frequencies(d: usize, base: f64, scale: f64) -> Result<Vec<f64>, ExtensionError> {
    frequencies(d, ntk_base(d, base, scale)?)
}

/// θ'_j/θ_j of NTK-aware scaling in closed form: s^(−2j/(d−2)) (1 for j = 0, 1/s for the last
/// pair). Equal to [`ntk_frequencies`] divided by [`frequencies`] up to rounding.
pub fn ntk_ratios(d: usize, scale: f64) -> Result<Vec<f64>, ExtensionError> {
    check(d, 4, 2.0, scale)?;
    Ok((0..d / 2)
        .map(|j| scale.powf(-2.0 * j as f64 / (d as f64 - 2.0)))
        .collect())
}

/// YaRN's parameters. The paper's defaults for LLaMA are α = 1, β = 32.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct YarnParams {
    /// The scale factor s = extended length / training length, ≥ 1.
    pub scale: f64,
    /// The training context length L in positions.
    pub training_context: usize,
    /// Below α rotations within L a pair is fully interpolated (β_slow in the reference code).
    pub alpha: f64,
    /// Above β rotations within L a pair is left alone (β_fast in the reference code).
    pub beta: f64,
}

impl YarnParams {
    /// α = 1, β = 32 for the given scale and training length.
    pub fn new(scale: f64, training_context: usize) -> Self {
        YarnParams {
            scale,
            training_context,
            alpha: 1.0,
            beta: 32.0,
        }
    }
}

/// One rotary pair under YaRN.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct YarnPair {
    /// The pair index j.
    pub j: usize,
    /// The original frequency θ_j.
    pub theta: f64,
    /// The wavelength λ_j = 2π/θ_j in positions.
    pub wavelength: f64,
    /// r_j = L/λ_j: how many full rotations the pair makes within the training context.
    pub rotations: f64,
    /// The ramp γ(r_j) ∈ [0, 1]: 0 interpolates fully, 1 keeps the frequency.
    pub ramp: f64,
    /// The new frequency (1 − γ)·θ/s + γ·θ.
    pub theta_new: f64,
    /// λ_j < L: the pair completes at least one rotation in the training context, so every angle
    /// it meets beyond L was already seen in training and it extrapolates safely. The others
    /// (λ_j ≥ L) never went all the way round in training and are the ones that need
    /// interpolating.
    pub fits_in_context: bool,
}

/// The ramp γ(r) = 0 for r < α, 1 for r > β, (r − α)/(β − α) in between.
pub fn ramp(r: f64, alpha: f64, beta: f64) -> f64 {
    if r < alpha {
        0.0
    } else if r > beta {
        1.0
    } else {
        (r - alpha) / (beta - alpha)
    }
}

/// YaRN's frequencies, pair by pair, in the paper's formulation: the ramp is a function of the
/// number of rotations r_j = L/λ_j. The reference code (`find_correction_range`) turns α and β
/// into the two pair indices where r_j crosses them, rounds those to integers and ramps linearly
/// in the pair index between them; the two agree at the ends of the ramp and differ only in how
/// the pairs inside it are weighted.
pub fn yarn(d: usize, base: f64, params: &YarnParams) -> Result<Vec<YarnPair>, ExtensionError> {
    check(d, 2, base, params.scale)?;
    if params.training_context == 0 {
        return Err(ExtensionError::ZeroContext);
    }
    let (alpha, beta) = (params.alpha, params.beta);
    if !(alpha.is_finite() && beta.is_finite() && 0.0 <= alpha && alpha < beta) {
        return Err(ExtensionError::InvalidRamp { alpha, beta });
    }
    let context = params.training_context as f64;
    Ok(frequencies(d, base)?
        .into_iter()
        .enumerate()
        .map(|(j, theta)| {
            let wavelength = std::f64::consts::TAU / theta;
            let rotations = context / wavelength;
            let gamma = ramp(rotations, alpha, beta);
            YarnPair {
                j,
                theta,
                wavelength,
                rotations,
                ramp: gamma,
                theta_new: (1.0 - gamma) * theta / params.scale + gamma * theta,
                fits_in_context: wavelength < context,
            }
        })
        .collect())
}

/// The pair index at which a pair makes `rotations` full turns within `context` positions, as a
/// real number: d·ln(L/(2π·rotations))/(2·ln base) (`find_correction_dim` of the reference code
/// and of Hugging Face transformers).
pub fn correction_pair(rotations: f64, d: usize, base: f64, context: usize) -> f64 {
    d as f64 * (context as f64 / (rotations * std::f64::consts::TAU)).ln() / (2.0 * base.ln())
}

/// The two correction pairs of [`yarn_deployed_ratios`]: low = ⌊correction_pair(β_fast)⌋ (at
/// least 0), high = ⌈correction_pair(β_slow)⌉ (at most d − 1; + 0.001 when equal to low).
pub fn yarn_correction_range(d: usize, base: f64, params: &YarnParams) -> (f64, f64) {
    let context = params.training_context;
    let low = correction_pair(params.beta, d, base, context)
        .floor()
        .max(0.0);
    let mut high = correction_pair(params.alpha, d, base, context)
        .ceil()
        .min(d.saturating_sub(1) as f64);
    if low == high {
        high += 0.001;
    }
    (low, high)
}

/// YaRN's per-pair ratios θ'_j/θ_j as models run it: Hugging Face transformers'
/// `_compute_yarn_parameters` (checked against transformers 5.24.0; the same rule as the
/// reference code). The correction pairs low = ⌊correction_pair(β_fast)⌋ (at least 0) and
/// high = ⌈correction_pair(β_slow)⌉ (at most d − 1; + 0.001 when equal to low) bound a ramp that is
/// linear in the pair index j: γ_j = clamp((j − low)/(high − low), 0, 1), and
/// θ'_j/θ_j = 1 − (1 − 1/s)·γ_j, so pairs up to low keep their frequency and pairs from high on
/// are divided by s. The paper's [`yarn`] ramps linearly in the number of turns r_j instead;
/// the two agree at both ends and differ inside the ramp.
pub fn yarn_deployed_ratios(
    d: usize,
    base: f64,
    params: &YarnParams,
) -> Result<Vec<f64>, ExtensionError> {
    check(d, 2, base, params.scale)?;
    if params.training_context == 0 {
        return Err(ExtensionError::ZeroContext);
    }
    let (alpha, beta) = (params.alpha, params.beta);
    if !(alpha.is_finite() && beta.is_finite() && 0.0 < alpha && alpha < beta) {
        return Err(ExtensionError::InvalidRamp { alpha, beta });
    }
    let (low, high) = yarn_correction_range(d, base, params);
    Ok((0..d / 2)
        .map(|j| {
            let ramp = ((j as f64 - low) / (high - low)).clamp(0.0, 1.0);
            1.0 - (1.0 - 1.0 / params.scale) * ramp
        })
        .collect())
}

/// YaRN's attention temperature factor √(1/t) = 0.1·ln s + 1 (1 for s ≤ 1, as in the reference
/// code). The paper writes the attention as softmax(q·k/(t·√d)) and recommends the value
/// 0.1·ln s + 1 for √(1/t), not for 1/t: the implementation multiplies both the query and the key
/// (in practice the cos and sin tables) by this factor, so the logits are multiplied by its square
/// 1/t = (0.1·ln s + 1)². This function returns the per-vector factor √(1/t), not 1/t.
pub fn yarn_attention_factor(scale: f64) -> f64 {
    if scale.is_finite() && scale > 1.0 {
        0.1 * scale.ln() + 1.0
    } else {
        1.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ramp_is_clamped_and_linear() {
        assert_eq!(ramp(0.5, 1.0, 32.0), 0.0);
        assert_eq!(ramp(40.0, 1.0, 32.0), 1.0);
        assert!((ramp(16.5, 1.0, 32.0) - 0.5).abs() < 1e-15);
    }

    #[test]
    fn invalid_arguments_are_errors() {
        assert!(frequencies(3, 10_000.0).is_err());
        assert!(ntk_base(2, 10_000.0, 4.0).is_err());
        assert!(position_interpolation(8, 10_000.0, 0.5).is_err());
        assert!(yarn(8, 10_000.0, &YarnParams::new(f64::NAN, 16)).is_err());
        assert!(yarn(8, 10_000.0, &YarnParams::new(2.0, 0)).is_err());
    }

    #[test]
    fn deployed_yarn_matches_hugging_face_transformers() {
        // Reference: transformers 5.24.0, ROPE_INIT_FUNCTIONS["yarn"] (beta_fast 32, beta_slow 1,
        // truncate True), its float32 inv_freq divided by base^(−2j/d) in float64; the library's
        // float32 rounding is below 2e-7.
        let cases: [(usize, f64, f64, usize, &[f64]); 4] = [
            (
                32,
                10_000.0,
                4.0,
                2048,
                &[
                    1.0,
                    1.0,
                    1.0,
                    1.0,
                    1.0,
                    0.89285705,
                    0.78571437,
                    0.678571433,
                    0.571428565,
                    0.464285708,
                    0.357142885,
                    0.250000003,
                    0.250000012,
                    0.24999999,
                    0.250000016,
                    0.249999999,
                ],
            ),
            (
                16,
                10_000.0,
                4.0,
                64,
                &[
                    1.0,
                    0.749999971,
                    0.49999997,
                    0.250000016,
                    0.249999994,
                    0.250000016,
                    0.250000012,
                    0.250000016,
                ],
            ),
            (
                32,
                10_000.0,
                8.0,
                512,
                &[
                    1.0,
                    1.00000001,
                    0.874999935,
                    0.749999972,
                    0.624999963,
                    0.499999934,
                    0.375000009,
                    0.250000003,
                    0.124999997,
                    0.125,
                    0.125000008,
                    0.125000001,
                    0.125000006,
                    0.124999995,
                    0.125000008,
                    0.124999999,
                ],
            ),
            (
                64,
                10_000.0,
                4.0,
                2048,
                &[
                    1.0,
                    0.99999999,
                    1.00000001,
                    1.00000002,
                    0.999999993,
                    0.999999965,
                    0.999999991,
                    1.00000002,
                    1.00000001,
                    0.942307609,
                    0.88461531,
                    0.826923069,
                    0.769230818,
                    0.711538415,
                    0.65384619,
                    0.596153849,
                    0.538461516,
                    0.480769247,
                    0.423076926,
                    0.365384595,
                    0.307692327,
                    0.250000012,
                    0.250000003,
                    0.250000003,
                    0.250000012,
                    0.249999992,
                    0.24999999,
                    0.249999991,
                    0.250000016,
                    0.250000015,
                    0.249999999,
                    0.250000014,
                ],
            ),
        ];
        for (d, base, scale, context, want) in cases {
            let got = yarn_deployed_ratios(d, base, &YarnParams::new(scale, context)).unwrap();
            assert_eq!(got.len(), want.len());
            for (j, (g, w)) in got.iter().zip(want).enumerate() {
                assert!(
                    (g - w).abs() < 2e-7,
                    "d = {d}, s = {scale}, L = {context}, pair {j}: {g} vs {w}"
                );
            }
        }
        // The attention factor transformers returns for s = 4 and s = 8.
        assert!((yarn_attention_factor(4.0) - 1.138629436).abs() < 1e-9);
        assert!((yarn_attention_factor(8.0) - 1.207944154).abs() < 1e-9);
    }

    #[test]
    fn temperature_is_one_without_scaling() {
        assert_eq!(yarn_attention_factor(1.0), 1.0);
        assert_eq!(yarn_attention_factor(f64::NAN), 1.0);
    }
}
