//! The extension panel's takeaway: it first answers the panel's question, then states the figure's
//! conclusion with the live numbers that show it, computed from the panel's own stats so that it
//! cannot disagree with its read-outs. Tested natively; the view writes it above its "More".

use super::ExtensionStats;
use crate::model::present::format_number;

/// Context extension: what the methods do (lower frequencies so that s·L positions reach angles
/// the model has seen, nothing at s = 1), then what the main chart (θ'_j/θ_j per pair) shows at
/// its two ends: the slowest pair (right), which every method slows, and the fastest (left),
/// which NTK-aware and YaRN keep while PI slows it alike.
pub fn takeaway(stats: &ExtensionStats) -> String {
    let pairs = stats.ntk_ratios.len();
    let (Some(&ntk), Some(&yarn), Some(&ntk_fast), Some(&yarn_fast)) = (
        stats.ntk_ratios.last(),
        stats.yarn_ratios.last(),
        stats.ntk_ratios.first(),
        stats.yarn_ratios.first(),
    ) else {
        return crate::message!("takeaway-extension-too-few-pairs", d = stats.d);
    };
    let pi = stats.pi_ratio;
    let near = |a: f64, b: f64| (a - b).abs() <= 1e-9 * a.abs().max(b.abs());
    let slow = if near(pi, ntk) && near(pi, yarn) {
        "all"
    } else if near(pi, ntk) {
        "pi-ntk"
    } else {
        // NTK's last ratio is 1/s exactly: only rounding can make it differ from PI's.
        "each"
    };
    let fast = if near(ntk_fast, 1.0) && near(yarn_fast, 1.0) && !near(pi, 1.0) {
        "kept"
    } else {
        "each"
    };
    crate::message!(
        "takeaway-extension",
        stretch = if pi < 1.0 { "yes" } else { "no" },
        last_pair = pairs - 1,
        slow = slow,
        fast = fast,
        pi = ratio(pi),
        ntk = ratio(ntk),
        yarn = ratio(yarn),
        ntk_fast = ratio(ntk_fast),
        yarn_fast = ratio(yarn_fast),
    )
}

/// A frequency ratio: "1" when exactly 1, else four significant digits.
fn ratio(x: f64) -> String {
    if x == 1.0 {
        "1".into()
    } else {
        format_number(x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::sentence_checks::words;

    #[test]
    fn extension_states_the_charts_slowest_and_fastest_pair() {
        let stats = super::super::compute(32, 10_000.0, 4.0, 2048).unwrap();
        let text = takeaway(&stats);
        assert_eq!(
            text,
            "To read s·L positions with angles the model has seen, the methods lower frequencies: at pair 15, the slowest (right), all three multiply its frequency by 0.2500; at pair 0, the fastest, NTK-aware and YaRN keep it (1), PI multiplies it by 0.2500 too."
        );
        assert!(words(&text) <= 60);
        // A small base: every pair turns within L, so YaRN keeps the slowest one.
        let fast = super::super::compute(32, 10.0, 4.0, 2048).unwrap();
        let text = takeaway(&fast);
        assert!(
            text.contains("PI and NTK-aware multiply its frequency by 0.2500, YaRN by 1;"),
            "{text}"
        );
        // s = 1: nothing changes, and the sentence does not say the methods lower anything.
        let same = super::super::compute(32, 10_000.0, 1.0, 2048).unwrap();
        let text = takeaway(&same);
        assert!(
            text.starts_with("With s = 1 there is nothing to stretch: at pair 15")
                && text.ends_with("PI multiplies it by 1, NTK-aware by 1, YaRN by 1."),
            "{text}"
        );
        let odd = super::super::compute(3, 10_000.0, 4.0, 2048).unwrap();
        assert!(takeaway(&odd).starts_with("A rotary dimension of 2 has fewer than two pairs"));
        // "lower frequencies … with angles the model has seen": no method raises a frequency,
        // and at s·L each method's slowest pair turns no farther than in training, unless it
        // turned fully within L (then every angle was seen).
        for (base, s) in [
            (10_000.0, 4.0),
            (10.0, 4.0),
            (500_000.0, 16.0),
            (10_000.0, 1.5),
        ] {
            let stats = super::super::compute(32, base, s, 2048).unwrap();
            let context = stats.training_context as f64;
            let slowest = *stats.wavelengths.last().unwrap();
            for ratios in [&stats.ntk_ratios, &stats.yarn_ratios] {
                assert!(ratios.iter().all(|&r| r <= 1.0 + 1e-12));
                let last = *ratios.last().unwrap();
                assert!(
                    last * s <= 1.0 + 1e-9 || slowest <= context,
                    "base {base}, s {s}"
                );
            }
            assert!(stats.pi_ratio * s <= 1.0 + 1e-12);
        }
    }
}
