//! The heatmap panel's takeaway: it first answers the panel's question, then gives the figure's
//! live numbers as the evidence, and says what holds instead where the usual conclusion does not,
//! so that it cannot disagree with the figure beside it. Tested natively.

use crate::math::encoding::{frequency_count, period};
use crate::model::present::{column_label, format_period};

/// The heatmap's takeaway: what a row is, and how the periods of its columns run from left to
/// right; with odd d, which column is a sine without its cosine. `first_position` 1 numbers
/// positions and columns from 1 (the Julia edition).
pub fn takeaway(d: usize, base: f64, first_position: usize) -> String {
    let fastest = format_period(period(0, d, base));
    if d <= 1 {
        return crate::message!("takeaway-heatmap-one-column", fastest = fastest);
    }
    let pairs = frequency_count(d);
    if pairs == 1 {
        return crate::message!("takeaway-heatmap-one-pair", fastest = fastest);
    }
    let slowest = format_period(period(pairs - 1, d, base));
    if d % 2 == 1 {
        crate::message!(
            "takeaway-heatmap-odd",
            d = d,
            fastest = fastest,
            slowest = slowest,
            last = column_label(d - 1, first_position).to_string()
        )
    } else {
        crate::message!(
            "takeaway-heatmap",
            d = d,
            fastest = fastest,
            slowest = slowest
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::encoding::{frequency, sinusoidal};
    use crate::model::sentence_checks::words;
    use crate::panels::similarity::compute as similarity_stats;

    /// The sentence's second half at even d: odd d works too.
    const ODD_TOO: &str = "Odd d works too: the last column is then a sine without its cosine.";
    use crate::model::settings::SimilarityView;

    #[test]
    fn heatmap_answers_why_rows_look_alike_and_whether_odd_d_works() {
        let text = takeaway(32, 10_000.0, 0);
        assert_eq!(
            text,
            format!("Neighbouring rows look alike everywhere, not only early: each column is a wave, from period 6.28 positions (left) to 35333 (right), so close rows differ most on the left. {ODD_TOO}")
        );
        let odd = takeaway(33, 10_000.0, 0);
        assert!(
            odd.ends_with("Odd d = 33 works: column 32, the last, is a sine without its cosine."),
            "{odd}"
        );
        // Counted from 1 (the Julia edition), the same column is 33.
        assert!(takeaway(33, 10_000.0, 1).contains("column 33, the last,"));
        assert_eq!(
            takeaway(1, 10_000.0, 0),
            "With d = 1 each row is a single sine of period 6.28 positions, so rows whose sines are close look alike, early or late; odd d works: the one column just has no cosine."
        );
        assert!(takeaway(2, 10_000.0, 0).contains(
            "each row is a sine and its cosine, turned a fixed step per position (period 6.28)"
        ));
        // d = 3: one pair and a lone sine of period 2π·10000^(2/3) ≈ 2916.
        let three = takeaway(3, 10_000.0, 0);
        assert!(
            three.contains("to 2916 (right)") && three.contains("column 2, the last,"),
            "{three}"
        );
        for d in [1, 2, 3, 32, 33, 1024] {
            assert!(words(&takeaway(d, 10_000.0, 0)) <= 60, "d = {d}");
        }
    }

    #[test]
    fn the_heatmaps_claims_hold_in_p() {
        for (d, base) in [(32, 10_000.0), (33, 10_000.0), (1024, 2.0), (4, 2.0)] {
            let p = sinusoidal(70, d, base);
            let gap = |i: usize, c: usize| (p[[i + 1, c]] - p[[i, c]]).abs();
            for i in [0, 40, 68] {
                // "close rows differ most in the left columns": a pair's step between
                // neighbours, 2·|sin(ω_j/2)|, falls from pair to pair (ω_j ≤ 1 rad).
                let steps: Vec<f64> = (0..d / 2)
                    .map(|j| {
                        let (a, b) = (gap(i, 2 * j), gap(i, 2 * j + 1));
                        f64::from(a * a + b * b).sqrt()
                    })
                    .collect();
                for (j, pair) in steps.windows(2).enumerate() {
                    assert!(
                        pair[1] <= pair[0] + 1e-6,
                        "d = {d}, base {base}, i = {i}, pair {j}"
                    );
                }
                assert!(
                    (steps[0] - 2.0 * (0.5f64).sin()).abs() < 1e-6,
                    "{}",
                    steps[0]
                );
            }
            // "the last column is then a sine without its cosine": column d − 1 at odd d.
            if d % 2 == 1 {
                let omega = frequency(d / 2, d, base);
                for i in [0, 7, 69] {
                    let expected = (i as f64 * omega).sin();
                    assert!((f64::from(p[[i, d - 1]]) - expected).abs() < 1e-6);
                }
            }
        }
        // "at every position, not only early ones": ‖p₀ − p₁‖ = ‖p₄₀ − p₄₁‖ (even d).
        let s = similarity_stats(SimilarityView::Gram, 60, 32, 10_000.0, 5, 60).unwrap();
        assert!((s.distance01 - s.distance4041).abs() < 1e-6);
    }
}
