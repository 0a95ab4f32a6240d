//! The NoPE panel's numbers without the DOM (tested natively): with a causal mask and equal
//! scores, position t averages the first t values, so a start indicator comes out as 1/t.

use serde::Serialize;

use crate::model::present::format_number;

use crate::math::nope::{start_indicator_outputs, MAX_POSITIONS};

pub mod takeaway;
#[cfg(target_arch = "wasm32")]
mod view;
#[cfg(target_arch = "wasm32")]
pub use view::mount;

/// The panel's numbers (`peLab.stats.panels.nope`).
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NopeStats {
    /// Positions t = 1 … n (the page's n, at most the panel's limit).
    pub n: usize,
    /// The causal output at position t = 1 … n (index t − 1): 1/t.
    pub causal_outputs: Vec<f64>,
    /// The bidirectional output at every position: 1/n.
    pub bidirectional_outputs: Vec<f64>,
    /// max_t |causal output − 1/t| and max_t |bidirectional output − 1/n|: rounding.
    pub causal_error: f64,
    pub bidirectional_error: f64,
    /// Whether the causal outputs strictly decrease (every position has its own value).
    pub causal_distinct: bool,
    pub ms: f64,
}

/// The causal and bidirectional outputs over the page's n positions (at most [`MAX_POSITIONS`]).
pub fn compute(n_global: usize) -> NopeStats {
    let n = n_global.min(MAX_POSITIONS);
    let causal = start_indicator_outputs(n, true);
    let bidirectional = start_indicator_outputs(n, false);
    let causal_error = causal
        .iter()
        .enumerate()
        .map(|(t, v)| (v - 1.0 / (t as f64 + 1.0)).abs())
        .fold(0.0, f64::max);
    let bidirectional_error = bidirectional
        .iter()
        .map(|v| (v - 1.0 / n as f64).abs())
        .fold(0.0, f64::max);
    NopeStats {
        n,
        causal_distinct: causal.windows(2).all(|w| w[1] < w[0]),
        causal_outputs: causal,
        bidirectional_outputs: bidirectional,
        causal_error,
        bidirectional_error,
        ms: 0.0,
    }
}

/// The panel's read-out: the causal outputs 1/t it measured, their largest error, the
/// bidirectional output 1/n, and what that shows.
pub fn readout(stats: &NopeStats, n: usize) -> String {
    let at = |t: usize| {
        stats
            .causal_outputs
            .get(t - 1)
            .map_or("—".into(), |&v| format_number(v))
    };
    crate::message!(
        "readout-nope",
        at_1 = at(1),
        at_2 = if n >= 2 { at(2) } else { "—".into() },
        at_n = at(n.max(1)),
        n = n,
        error = format_number(stats.causal_error),
        // Measured, not assumed: at n = 1 there is nothing to tell apart.
        outputs = match (n, stats.causal_distinct) {
            (0 | 1, _) => "one-position",
            (_, true) => "distinct",
            (_, false) => "shared",
        },
        all = stats
            .bidirectional_outputs
            .first()
            .map_or("—".into(), |&v| format_number(v)),
        all_error = format_number(stats.bidirectional_error),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn causal_outputs_are_one_over_t() {
        let stats = compute(10);
        assert_eq!(stats.n, 10);
        assert!(stats.causal_error < 1e-15 && stats.bidirectional_error < 1e-15);
        assert!(stats.causal_distinct);
        assert_eq!(compute(usize::MAX).n, MAX_POSITIONS);
    }

    #[test]
    fn the_readout_states_the_measured_outputs() {
        let stats = compute(10);
        let text = readout(&stats, stats.n);
        assert!(
            text.contains("output 1.000 at t = 1, 0.5000 at t = 2, 0.1000 at t = 10"),
            "{text}"
        );
        assert!(
            text.contains("every position a different value —"),
            "{text}"
        );
        assert!(
            text.contains("averages all 10 tokens and gets 0.1000"),
            "{text}"
        );
        let one = compute(1);
        let text = readout(&one, one.n);
        assert!(
            !text.contains("0.5000") && text.contains("— at t = 2"),
            "{text}"
        );
        assert!(text.contains("one position only (n = 1)"), "{text}");
        assert!(!text.contains("every position a different value"), "{text}");
    }
}
