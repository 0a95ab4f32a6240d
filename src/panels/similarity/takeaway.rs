//! The similarity panel's takeaway: it first answers the panel's question, then gives the figure's
//! live numbers as the evidence, and says what holds instead where the usual conclusion does not,
//! so that it cannot disagree with the figure beside it. Tested natively.

use super::SimilarityStats;
use crate::model::query::values::UrlName;
use crate::model::settings::SimilarityView;

/// The similarity panel's takeaway, where the lesson has shown all three reasons for sine and
/// cosine (the values in [−1, 1], a code per position, one rotation per offset): why not i/n,
/// and why early positions are not special: pᵢ·pᵢ₊ₖ depends on the offset k only, every
/// diagonal of the heatmap constant to rounding. With odd d the unpaired sine makes it depend on
/// i too, and with d = 1 (no pair at all) it depends on i; the sentences say so.
pub fn takeaway(stats: &SimilarityStats) -> String {
    let spread = format!("{:.1e}", stats.diagonal_spread);
    // The select's key: which matrix the figure shows.
    let map = if stats.view == SimilarityView::Distance.to_query() {
        "distance"
    } else {
        "gram"
    };
    if stats.d <= 1 {
        return crate::message!("takeaway-similarity-one-column", map = map, spread = spread);
    }
    if stats.d % 2 == 1 {
        return crate::message!(
            "takeaway-similarity-odd",
            map = map,
            d = stats.d,
            spread = spread
        );
    }
    crate::message!("takeaway-similarity", map = map, spread = spread)
}

/// The similarity panel's numbers with the heatmap's diagonal check, as the page has them (a case
/// of the takeaway tests).
#[cfg(test)]
pub(crate) fn similarity_case(view: SimilarityView, d: usize) -> SimilarityStats {
    let mut stats = super::compute(view, 60, d, 10_000.0, 5, 60).unwrap();
    let (spread, rows) = super::diagonal_check(60, d, 10_000.0).unwrap();
    stats.diagonal_spread = spread;
    stats.diagonal_spread_rows = rows;
    stats
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::encoding::sinusoidal;
    use crate::model::sentence_checks::words;
    use crate::model::settings::SimilarityView;

    #[test]
    fn similarity_answers_why_not_i_over_n_with_why_sine_and_cosine() {
        let stats = super::similarity_case(SimilarityView::Gram, 32);
        let text = takeaway(&stats);
        assert_eq!(
            text,
            format!(
                "Because i/n changes whenever n does, while sine and cosine give each position a fixed code: bounded (in [−1, 1]), unique, and carried k places on by the same rotation anywhere, so pᵢ·pᵢ₊ₖ depends on k only: every diagonal of P·Pᵀ is constant (to {:.1e}), early positions no more alike than late ones.",
                stats.diagonal_spread
            )
        );
        let distance = takeaway(&super::similarity_case(SimilarityView::Distance, 32));
        assert!(
            distance.contains("every diagonal of the distances ‖pᵢ − pⱼ‖ is constant (in P·Pᵀ to "),
            "{distance}"
        );
        // Odd d: the sentence says what holds instead.
        let odd = takeaway(&super::similarity_case(SimilarityView::Gram, 33));
        assert!(
            odd.contains("in each (sin, cos) pair; with odd d = 33 the last sine has no cosine, so pᵢ·pᵢ₊ₖ depends on i too: the diagonals of P·Pᵀ vary (Gram entries by up to 4.1e-5)."),
            "{odd}"
        );
        let single = takeaway(&super::similarity_case(SimilarityView::Gram, 1));
        assert!(
            single.contains("with d = 1 that code is one sine")
                && single.ends_with("(Gram entries by up to 5.6e-1)."),
            "{single}"
        );
        assert!(words(&text) <= 60);
    }

    #[test]
    fn the_reasons_for_sine_and_cosine_hold() {
        let n = 2048;
        for (d, base) in [(32, 10_000.0), (2, 10_000.0), (1024, 2.0), (1, 10_000.0)] {
            let p = sinusoidal(n, d, base);
            // Bounded: every entry in [−1, 1].
            assert!(p.iter().all(|x| x.abs() <= 1.0), "d = {d}");
            // Unique: no two positions share a code (pair 0 alone turns 1 rad per position).
            let first_pair = |i: usize| (p[[i, 0]], if d > 1 { p[[i, 1]] } else { 0.0 });
            let mut codes: Vec<(u32, u32)> = (0..n)
                .map(|i| {
                    let (a, b) = first_pair(i);
                    (a.to_bits(), b.to_bits())
                })
                .collect();
            codes.sort_unstable();
            codes.dedup();
            assert_eq!(codes.len(), n, "d = {d}, base {base}");
        }
        // The same rotation wherever it starts: constant diagonals at even d (to rounding),
        // not at odd d.
        let even = super::similarity_case(SimilarityView::Gram, 32).diagonal_spread;
        let odd = super::similarity_case(SimilarityView::Gram, 33).diagonal_spread;
        assert!(even < 1e-5 && odd > 10.0 * even, "{even} {odd}");
        // i/n: the same two neighbours get another value when n doubles.
        let s = super::similarity_case(SimilarityView::Gram, 32);
        assert!((s.normalized_short - s.normalized_long).abs() > 1e-3);
    }
}
