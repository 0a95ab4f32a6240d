//! What the stacking panel says: every sentence is derived from the measured rank residuals and
//! probe values it describes, so a setting cannot be described as keeping the rows apart while
//! its numbers show them collapsed.

use crate::model::query::values::UrlName;
use serde::Serialize;

use super::present::format_number;
use crate::math::stacking::{run, PositionInjection, StackOptions, StackingError, PROBE_FOLDS};

/// Below this residual the rows differ by less than 0.1% of their size: collapsed onto one row.
pub const COLLAPSED: f64 = 1e-3;
/// From this held-out R² on, a linear probe reads the position well.
pub const PROBE_READS: f64 = 0.5;
/// Up to this held-out R² the probe does no better than guessing the mean position.
pub const PROBE_GUESSES: f64 = 0.1;

/// The panel's numbers (`peLab.stats.panels.stacking`).
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StackingStats {
    pub n: usize,
    pub d: usize,
    pub layers: usize,
    pub skip: bool,
    pub layer_norm: bool,
    pub causal: bool,
    pub injection: &'static str,
    /// r_L for L = 0 … layers.
    pub rank_residual: Vec<f64>,
    /// The held-out (cross-validated) R² of a linear probe for the position, L = 0 … layers
    /// (`math::stacking::probe_r2`).
    pub probe_r2: Vec<f64>,
    pub ms: f64,
}

/// Runs the stack and keeps what the page shows.
pub fn compute(options: &StackOptions) -> Result<StackingStats, StackingError> {
    let report = run(options)?;
    Ok(StackingStats {
        n: options.n,
        d: options.d,
        layers: options.layers,
        skip: options.skip,
        layer_norm: options.layer_norm,
        causal: options.causal,
        injection: options.positions.to_query(),
        rank_residual: report.rank_residuals,
        probe_r2: report.probe_r2,
        ms: 0.0,
    })
}

/// The setting in words: "no skip, P added once to X_0".
pub fn setting(options: &StackOptions) -> String {
    format!(
        "{}{}{}, P {}",
        if options.skip {
            "skip connections"
        } else {
            "no skip"
        },
        if options.layer_norm {
            ", LayerNorm"
        } else {
            ""
        },
        if options.causal { ", causal mask" } else { "" },
        match options.positions {
            PositionInjection::Once => "added once to X_0",
            PositionInjection::EveryLayer => "added again after every layer",
            PositionInjection::None => "never added",
        }
    )
}

/// What the probe measures, in one sentence.
pub fn probe_definition() -> String {
    format!(
        "The probe's R² is out of sample: a linear read-out of the position (ridge regression) is fitted on 4 of every {PROBE_FOLDS} positions and scored on the held-out fifth, in turn ({PROBE_FOLDS}-fold cross-validation); 1 means held-out positions are read exactly, 0 or below means no better than guessing the mean position."
    )
}

/// The verdict on the last layer, from its measured residual and probe.
pub fn verdict(options: &StackOptions, residuals: &[f64], probe: &[f64]) -> String {
    let (Some(&first), Some(&last)) = (residuals.first(), residuals.last()) else {
        return String::new();
    };
    let layers = residuals.len() - 1;
    let probe_last = probe.last().copied().unwrap_or(f64::NAN);
    let collapsed = last < COLLAPSED;
    let rows = if collapsed {
        format!(
            "At L = {layers} the rows have collapsed onto one row: r_{layers} = {} (they differ by less than 0.1% of their size).",
            format_number(last)
        )
    } else if last < 0.5 * first {
        format!(
            "At L = {layers} the rows are still apart but closer: r falls from {} to {}.",
            format_number(first),
            format_number(last)
        )
    } else {
        format!(
            "At L = {layers} the rows stay apart: r_{layers} = {} (r_0 = {}).",
            format_number(last),
            format_number(first)
        )
    };
    let position = if probe_last.is_nan() {
        "The probe needs at least 3 positions.".to_string()
    } else if probe_last >= PROBE_READS {
        format!(
            "The held-out probe reads the position from X_{layers} (R² = {}).",
            format_number(probe_last)
        )
    } else if probe_last <= PROBE_GUESSES {
        format!(
            "The held-out probe does no better than guessing the mean position (R² = {}): no position can be read from X_{layers}.",
            format_number(probe_last)
        )
    } else {
        format!(
            "The held-out probe reads the position only weakly (R² = {}).",
            format_number(probe_last)
        )
    };
    let cause = if !options.skip {
        if collapsed {
            "Pure attention averages rows, and Dong, Cordonnier & Loukas (2021) bound the distance to one shared row doubly exponentially in depth: every token ends up with the same vector."
                .to_string()
        } else {
            "Pure attention averages rows; Dong, Cordonnier & Loukas (2021) bound the distance to one shared row doubly exponentially in depth, so more layers continue the fall.".to_string()
        }
    } else {
        format!(
            "Dong, Cordonnier & Loukas (2021) prove the collapse for attention without skip connections; with them their bound no longer applies (a path through the skips alone carries X through), so skip connections can prevent the collapse, but nothing guarantees it: here, with random untrained W_q, W_k, W_v{}, the rows {} after {layers} layers.",
            if options.layer_norm { " and LayerNorm" } else { "" },
            if collapsed { "still collapse" } else { "stay apart" }
        )
    };
    let reinjected = if options.positions == PositionInjection::EveryLayer {
        " P added after every layer puts the position back whatever the layer did to the rows."
    } else {
        ""
    };
    format!("{rows} {position} {cause}{reinjected}")
}

/// The panel's read-out: the setting, the measured residuals r_L and held-out probe R² (the
/// first six of each), the verdict drawn from them, and what the probe measures.
pub fn readout(stats: &StackingStats, options: &StackOptions, seed: u64, max_n: usize) -> String {
    let list = |values: &[f64]| {
        values
            .iter()
            .take(6)
            .map(|&v| format_number(v))
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "n = {}, d = {} (the page's n and d, at most {max_n}), {} layers, {}; E = N(0, 1) rows, X_0 = E (+ P), W ~ N(0, 1/d) drawn anew per layer (seed {}). Residual r_L for L = 0, 1, 2, …: {}{}. Probe R² (held out): {}{}. {} {}",
        stats.n,
        stats.d,
        stats.layers,
        setting(options),
        seed,
        list(&stats.rank_residual),
        if stats.rank_residual.len() > 6 { ", …" } else { "" },
        list(&stats.probe_r2),
        if stats.probe_r2.len() > 6 { ", …" } else { "" },
        verdict(options, &stats.rank_residual, &stats.probe_r2),
        probe_definition(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(skip: bool) -> StackOptions {
        StackOptions {
            skip,
            ..StackOptions::default()
        }
    }

    #[test]
    fn the_verdict_follows_the_numbers() {
        // Skip connections with collapsed rows: the sentence says so, not "the rows stay apart".
        let text = verdict(&options(true), &[0.9, 0.5, 2.31e-6], &[0.3, 0.1, -0.002]);
        assert!(
            text.contains("collapsed") && text.contains("still collapse"),
            "{text}"
        );
        assert!(!text.contains("stay apart"), "{text}");
        assert!(text.contains("no better than guessing"), "{text}");
        let apart = verdict(&options(true), &[0.9, 0.8, 0.7], &[0.4, 0.6, 0.7]);
        assert!(
            apart.contains("stay apart") && apart.contains("reads the position"),
            "{apart}"
        );
        let pure = verdict(&options(false), &[0.9, 1e-4, 1e-12], &[0.3, 0.0, -0.1]);
        assert!(pure.contains("collapsed") && pure.contains("doubly exponentially"));
        assert!(verdict(&options(false), &[], &[]).is_empty());
    }

    #[test]
    fn the_readout_states_the_setting_the_first_numbers_and_the_verdict() {
        let options = StackOptions {
            n: 12,
            d: 16,
            layers: 8,
            ..StackOptions::default()
        };
        let stats = compute(&options).expect("a small stack");
        let text = readout(&stats, &options, 7, 64);
        assert!(
            text.starts_with("n = 12, d = 16 (the page's n and d, at most 64), 8 layers,"),
            "{text}"
        );
        assert!(text.contains("(seed 7)"), "{text}");
        let first = format_number(stats.rank_residual[0]);
        assert!(
            text.contains(&format!("Residual r_L for L = 0, 1, 2, …: {first}")),
            "{text}"
        );
        // Nine residuals (L = 0…8): six are listed, then "…".
        assert!(text.contains(", …. Probe R² (held out): "), "{text}");
        assert!(
            text.contains(&verdict(&options, &stats.rank_residual, &stats.probe_r2)),
            "{text}"
        );
    }
}
