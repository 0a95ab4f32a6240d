//! What the stacking panel says: every sentence is derived from the measured rank residuals and
//! probe values it describes, so a setting cannot be described as keeping the rows apart while
//! its numbers show them collapsed. Tested natively; the view (`view.rs`) draws and wires.

use crate::model::query::values::UrlName;
use serde::Serialize;

use crate::math::stacking::{run, PositionInjection, StackOptions, StackingError, PROBE_FOLDS};
use crate::model::present::format_number;

pub mod takeaway;
#[cfg(target_arch = "wasm32")]
mod view;
#[cfg(target_arch = "wasm32")]
pub use view::mount;

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
    let yes_no = |on: bool| if on { "yes" } else { "no" };
    crate::message!(
        "readout-stacking-setting",
        skip = yes_no(options.skip),
        layer_norm = yes_no(options.layer_norm),
        causal = yes_no(options.causal),
        positions = match options.positions {
            PositionInjection::Once => "once",
            PositionInjection::EveryLayer => "every-layer",
            PositionInjection::None => "never",
        },
    )
}

/// What the probe measures, in one sentence.
pub fn probe_definition() -> String {
    crate::message!("readout-stacking-probe-definition", folds = PROBE_FOLDS)
}

/// The verdict on the last layer, from its measured residual and probe.
pub fn verdict(options: &StackOptions, residuals: &[f64], probe: &[f64]) -> String {
    let (Some(&first), Some(&last)) = (residuals.first(), residuals.last()) else {
        return String::new();
    };
    let layers = residuals.len() - 1;
    let probe_last = probe.last().copied().unwrap_or(f64::NAN);
    let collapsed = last < COLLAPSED;
    let (first_text, last_text) = (format_number(first), format_number(last));
    let rows = if collapsed {
        crate::message!(
            "readout-stacking-rows-collapsed",
            layers = layers,
            last = last_text,
        )
    } else if last < 0.5 * first {
        crate::message!(
            "readout-stacking-rows-closer",
            layers = layers,
            first = first_text,
            last = last_text,
        )
    } else {
        crate::message!(
            "readout-stacking-rows-apart",
            layers = layers,
            first = first_text,
            last = last_text,
        )
    };
    let r2 = format_number(probe_last);
    let position = if probe_last.is_nan() {
        crate::message!("readout-stacking-probe-too-few-positions")
    } else if probe_last >= PROBE_READS {
        crate::message!("readout-stacking-probe-reads", layers = layers, r2 = r2)
    } else if probe_last <= PROBE_GUESSES {
        crate::message!("readout-stacking-probe-guesses", layers = layers, r2 = r2)
    } else {
        crate::message!("readout-stacking-probe-weak", r2 = r2)
    };
    let cause = if !options.skip {
        if collapsed {
            crate::message!("readout-stacking-cause-pure-attention-collapsed")
        } else {
            crate::message!("readout-stacking-cause-pure-attention-falling")
        }
    } else {
        crate::message!(
            "readout-stacking-cause-skip-connections",
            layer_norm = if options.layer_norm { "yes" } else { "no" },
            rows = if collapsed { "collapse" } else { "apart" },
            layers = layers,
        )
    };
    let reinjected = if options.positions == PositionInjection::EveryLayer {
        crate::message!("readout-stacking-reinjected")
    } else {
        String::new()
    };
    crate::message!(
        "readout-stacking-verdict",
        rows = rows,
        position = position,
        cause = cause,
        reinjected = reinjected,
    )
}

/// The panel's read-out: the setting, the measured residuals r_L and held-out probe R² (the
/// first six of each), the verdict drawn from them, and what the probe measures.
pub fn readout(stats: &StackingStats, options: &StackOptions, seed: u64, max_n: usize) -> String {
    let list = |values: &[f64]| {
        values
            .iter()
            .take(6)
            .map(|&v| format_number(v))
            .chain((values.len() > 6).then(|| "…".to_string()))
            .collect::<Vec<_>>()
            .join(", ")
    };
    crate::message!(
        "readout-stacking",
        n = stats.n,
        d = stats.d,
        max_n = max_n,
        layers = stats.layers,
        setting = setting(options),
        seed = seed.to_string(),
        residuals = list(&stats.rank_residual),
        probes = list(&stats.probe_r2),
        verdict = verdict(options, &stats.rank_residual, &stats.probe_r2),
        definition = probe_definition(),
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
