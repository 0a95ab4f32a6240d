//! The scale-and-add panel without the DOM: the entry magnitudes (RMS) of the embeddings with
//! and without × √d against d, next to P's, and for two tokens the four terms of
//! (x_i + p_i)·(x_j + p_j) against [x_i; p_i]·[x_j; p_j], with the read-outs that state them.
//! Tested natively; the view (`view.rs`) draws and wires.

use serde::Serialize;
use thiserror::Error;

use crate::math::measures::magnitude_widths;
use crate::math::scaling::{
    dot_decomposition_for_tokens, magnitude_curve, Magnitudes, ScalingError,
};
use crate::model::present::format_number;

pub mod takeaway;
#[cfg(target_arch = "wasm32")]
mod view;
#[cfg(target_arch = "wasm32")]
pub use view::mount;

/// The magnitude curve runs over d = 1, 2, 4, … up to this (the widest d).
pub const CURVE_MAX_D: usize = 2048;

/// What both canvases say when there is nothing to measure.
pub fn no_tokens_lines() -> [String; 2] {
    [
        crate::message!("figure-scaling-no-tokens"),
        crate::message!("figure-scaling-type-words"),
    ]
}

/// The two tokens' dot products, term by term (`peLab.stats.panels.scaling.pair`).
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PairTerms {
    pub i: usize,
    pub j: usize,
    pub tokens: (String, String),
    pub scaled: bool,
    pub xx: f64,
    pub xp: f64,
    pub px: f64,
    pub pp: f64,
    pub added: f64,
    pub concatenated: f64,
    pub cross_terms: f64,
    /// ‖x_i‖‖p_j‖ + ‖p_i‖‖x_j‖, the largest |cross_terms| can be.
    pub cross_bound: f64,
    /// |cross_terms| / cross_bound, in [0, 1].
    pub cross_terms_relative: f64,
}

/// The panel's numbers (`peLab.stats.panels.scaling`).
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ScalingStats {
    pub d: usize,
    /// RMS of the entries at the current d.
    pub embedding_rms: f64,
    pub scaled_embedding_rms: f64,
    pub encoding_rms: f64,
    /// The same words' embeddings drawn with variance 1 (N(0, 1), PyTorch's and Flux's default):
    /// RMS ≈ 1, and ≈ √d after × √d.
    pub unit_normal_embedding_rms: f64,
    pub unit_normal_scaled_rms: f64,
    /// unit_normal_scaled_rms / encoding_rms (≈ √(2d)).
    pub unit_normal_scaled_ratio: f64,
    /// P's entries lie in [−1, 1].
    pub encoding_min: f64,
    pub encoding_max: f64,
    pub unscaled_ratio: f64,
    pub scaled_ratio: f64,
    /// The curve: widths and the three RMS values at each.
    pub widths: Vec<usize>,
    pub embedding_rms_curve: Vec<f64>,
    pub scaled_embedding_rms_curve: Vec<f64>,
    pub encoding_rms_curve: Vec<f64>,
    pub unit_normal_scaled_rms_curve: Vec<f64>,
    pub pair: Option<PairTerms>,
    /// The pair's |x·p + p·x| / (‖x_i‖‖p_j‖ + ‖p_i‖‖x_j‖) (`None` without tokens).
    pub cross_terms_relative: Option<f64>,
    pub ms: f64,
}

/// Why the panel's numbers cannot be computed.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum ScalingPanelError {
    #[error(transparent)]
    Scaling(#[from] ScalingError),
    /// The curve's widths always include d (`magnitude_widths`); this says if they did not.
    #[error("the current d is missing from the curve")]
    MissingWidth,
}

/// The panel's numbers and the curve they were read from (drawn against d).
#[derive(Debug, Clone)]
pub struct Scaling {
    pub stats: ScalingStats,
    /// Empty without tokens.
    pub curve: Vec<Magnitudes>,
}

/// The magnitudes of `tokens` at width `d` and along the curve up to [`CURVE_MAX_D`], and the
/// dot products of the tokens at positions `pair` (embeddings × √d when `scaled`). Without tokens
/// only d and P's bounds are set, and the curve and the pair are empty.
pub fn compute(
    tokens: &[String],
    d: usize,
    base: f64,
    pair: (usize, usize),
    scaled: bool,
) -> Result<Scaling, ScalingPanelError> {
    let mut stats = ScalingStats {
        d,
        encoding_min: -1.0,
        encoding_max: 1.0,
        ..ScalingStats::default()
    };
    if tokens.is_empty() {
        return Ok(Scaling {
            stats,
            curve: Vec::new(),
        });
    }
    let widths = magnitude_widths(d, CURVE_MAX_D);
    let curve = magnitude_curve(tokens, &widths, base)?;
    let here = curve
        .iter()
        .find(|m| m.d == d)
        .copied()
        .ok_or(ScalingPanelError::MissingWidth)?;
    stats.embedding_rms = here.embedding_rms;
    stats.scaled_embedding_rms = here.scaled_embedding_rms;
    stats.encoding_rms = here.encoding_rms;
    stats.unscaled_ratio = here.unscaled_ratio;
    stats.scaled_ratio = here.scaled_ratio;
    stats.unit_normal_embedding_rms = here.unit_normal_embedding_rms;
    stats.unit_normal_scaled_rms = here.unit_normal_scaled_rms;
    stats.unit_normal_scaled_ratio = here.unit_normal_scaled_ratio;
    stats.widths = widths;
    stats.embedding_rms_curve = curve.iter().map(|m| m.embedding_rms).collect();
    stats.scaled_embedding_rms_curve = curve.iter().map(|m| m.scaled_embedding_rms).collect();
    stats.encoding_rms_curve = curve.iter().map(|m| m.encoding_rms).collect();
    stats.unit_normal_scaled_rms_curve = curve.iter().map(|m| m.unit_normal_scaled_rms).collect();

    let (i, j) = pair;
    let terms = dot_decomposition_for_tokens(tokens, d, base, scaled, i, j)?;
    // The decomposition has checked that both positions exist.
    let token = |k: usize| tokens.get(k).cloned().unwrap_or_default();
    let pair = PairTerms {
        i,
        j,
        tokens: (token(i), token(j)),
        scaled,
        xx: terms.xx,
        xp: terms.xp,
        px: terms.px,
        pp: terms.pp,
        added: terms.added,
        concatenated: terms.concatenated,
        cross_terms: terms.cross_terms(),
        cross_bound: terms.cross_bound,
        cross_terms_relative: terms.cross_terms_relative(),
    };
    stats.cross_terms_relative = Some(pair.cross_terms_relative);
    stats.pair = Some(pair);
    Ok(Scaling { stats, curve })
}

/// The read-out under the magnitude chart when the sentence has no tokens.
pub fn no_tokens_sentence() -> String {
    crate::message!("takeaway-scaling-no-tokens")
}

/// The read-out under the magnitude chart: the RMS values at the page's d.
pub fn magnitudes_sentence(stats: &ScalingStats) -> String {
    let d = stats.d;
    crate::message!(
        "readout-scaling-magnitudes",
        d = d,
        encoding = format_number(stats.encoding_rms),
        embedding = format_number(stats.embedding_rms),
        scaled = format_number(stats.scaled_embedding_rms),
        unscaled_ratio = format_number(stats.unscaled_ratio),
        scaled_ratio = format_number(stats.scaled_ratio),
        normal = format_number(stats.unit_normal_embedding_rms),
        normal_scaled = format_number(stats.unit_normal_scaled_rms),
        sqrt_d = format_number((d as f64).sqrt()),
        normal_ratio = format_number(stats.unit_normal_scaled_ratio)
    )
}

/// The read-out under the bars: the pair's terms added and concatenated at width `d`.
pub fn dots_sentence(d: usize, pair: &PairTerms) -> String {
    crate::message!(
        "readout-scaling-dots",
        token_i = &pair.tokens.0,
        i = pair.i,
        token_j = &pair.tokens.1,
        j = pair.j,
        scaled = if pair.scaled { "scaled" } else { "unscaled" },
        added = format_number(pair.added),
        xx = format_number(pair.xx),
        cross = format_number(pair.cross_terms),
        pp = format_number(pair.pp),
        concatenated = format_number(pair.concatenated),
        columns = 2 * d,
        cross_size = format_number(pair.cross_terms.abs()),
        relative = format_number(pair.cross_terms_relative),
        bound = format_number(pair.cross_bound),
        d = d,
        cosine = format_number(1.0 / (d as f64).sqrt())
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::encoding::sinusoidal;
    use crate::math::tokens::embed_tokens;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    fn rms(values: impl Iterator<Item = f32>) -> f64 {
        let (sum, count) = values.fold((0.0, 0usize), |(s, c), v| {
            (s + f64::from(v) * f64::from(v), c + 1)
        });
        (sum / count as f64).sqrt()
    }

    #[test]
    fn magnitudes_at_d_equal_the_rms_of_x_and_p_measured_directly() {
        let tokens = words("one two three four five");
        let stats = compute(&tokens, 12, 10_000.0, (0, 3), false).unwrap().stats;
        // d = 12 is not a power of two: the curve gets it added in order.
        assert_eq!(
            stats.widths,
            [1, 2, 4, 8, 12, 16, 32, 64, 128, 256, 512, 1024, 2048]
        );
        assert_eq!(stats.embedding_rms_curve.len(), stats.widths.len());
        let x = embed_tokens(&tokens, 12, false).unwrap();
        let scaled = embed_tokens(&tokens, 12, true).unwrap();
        let p = sinusoidal(5, 12, 10_000.0);
        assert!((stats.embedding_rms - rms(x.iter().copied())).abs() < 1e-9);
        assert!((stats.scaled_embedding_rms - rms(scaled.iter().copied())).abs() < 1e-9);
        // Every (sin, cos) pair has squares summing to 1: P's RMS is 1/√2 for even d.
        assert!((stats.encoding_rms - 0.5f64.sqrt()).abs() < 1e-6);
        assert!((stats.unscaled_ratio - stats.embedding_rms / stats.encoding_rms).abs() < 1e-12);
        assert!(
            (stats.unit_normal_scaled_rms - stats.scaled_embedding_rms * 12f64.sqrt()).abs() < 1e-9
        );
        assert!((stats.encoding_rms - rms(p.iter().copied())).abs() < 1e-9);
        assert_eq!((stats.encoding_min, stats.encoding_max), (-1.0, 1.0));
    }

    #[test]
    fn added_splits_into_four_terms_and_concatenated_has_no_cross_terms() {
        let tokens = words("red green blue");
        let stats = compute(&tokens, 8, 10_000.0, (0, 2), true).unwrap().stats;
        let pair = stats.pair.as_ref().unwrap();
        assert_eq!(pair.tokens, ("red".to_string(), "blue".to_string()));
        assert!((pair.added - (pair.xx + pair.xp + pair.px + pair.pp)).abs() < 1e-4);
        assert!((pair.concatenated - (pair.xx + pair.pp)).abs() < 1e-9);
        assert!((pair.cross_terms - (pair.xp + pair.px)).abs() < 1e-12);
        assert!(pair.cross_terms.abs() <= pair.cross_bound);
        assert_eq!(stats.cross_terms_relative, Some(pair.cross_terms_relative));
        // x·x recomputed from the scaled embeddings.
        let x = embed_tokens(&tokens, 8, true).unwrap();
        let xx: f64 = (0..8)
            .map(|c| f64::from(x[[0, c]]) * f64::from(x[[2, c]]))
            .sum();
        assert!((pair.xx - xx).abs() < 1e-9);
    }

    #[test]
    fn no_tokens_give_no_curve_and_no_pair() {
        let scaling = compute(&[], 8, 10_000.0, (0, 1), false).unwrap();
        assert!(scaling.curve.is_empty() && scaling.stats.widths.is_empty());
        assert!(scaling.stats.pair.is_none() && scaling.stats.cross_terms_relative.is_none());
        assert_eq!(scaling.stats.d, 8);
        assert_eq!(no_tokens_sentence(), "No tokens: no embeddings to measure.");
    }

    #[test]
    fn the_magnitude_sentence_states_the_rms_values_as_the_page_formats_them() {
        let stats = compute(&words("a b c d"), 16, 10_000.0, (0, 1), false)
            .unwrap()
            .stats;
        let text = magnitudes_sentence(&stats);
        assert!(
            text.starts_with("At d = 16, P's entries lie in [−1, 1] with RMS 0.7071."),
            "{text}"
        );
        assert!(
            text.contains(&format!(
                "have RMS {}, and {} after × √d",
                format_number(stats.embedding_rms),
                format_number(stats.scaled_embedding_rms)
            )),
            "{text}"
        );
        assert!(
            text.contains(&format!(
                "(≈ √d = 4.000): {}× P's RMS instead of {}×.",
                format_number(stats.unit_normal_scaled_ratio),
                format_number(stats.scaled_ratio)
            )),
            "{text}"
        );
    }

    #[test]
    fn the_dots_sentence_states_the_pair_and_its_terms() {
        let stats = compute(&words("a b c d"), 16, 10_000.0, (1, 3), true)
            .unwrap()
            .stats;
        let pair = stats.pair.as_ref().unwrap();
        let text = dots_sentence(16, pair);
        assert!(
            text.starts_with("“b” (position 1) · “d” (position 3), embeddings × √d: added"),
            "{text}"
        );
        assert!(
            text.contains(&format!(
                "(x+p)·(x+p) = {} = x·x {} + cross terms x·p + p·x {} + p·p {};",
                format_number(pair.added),
                format_number(pair.xx),
                format_number(pair.cross_terms),
                format_number(pair.pp)
            )),
            "{text}"
        );
        assert!(text.contains("but 2d = 32 columns"), "{text}");
        assert!(
            text.contains("in d = 16 dimensions have cosines of order 1/√d ≈ 0.2500"),
            "{text}"
        );
        let unscaled = PairTerms {
            scaled: false,
            ..pair.clone()
        };
        assert!(dots_sentence(16, &unscaled).contains("embeddings not scaled:"));
    }
}
