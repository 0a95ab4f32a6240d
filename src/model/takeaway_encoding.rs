//! The takeaways of the heatmap, curves, binary and similarity panels: each first answers its
//! panel's question (why neighbouring rows look alike, why the columns slow down and why a cosine
//! is its sine shifted, why the binary analogy holds, why sine and cosine rather than i/n), then
//! gives the figure's live numbers as the evidence, and says what holds instead where the usual
//! conclusion does not (d = 1, one pair, odd d), so it can never disagree with the figure beside
//! it.

use super::binary::BinaryStats;
use super::present::{column_label, format_number, format_period};
use super::query::values::UrlName;
use super::settings::SimilarityView;
use super::similarity::SimilarityStats;
use crate::math::binary::pair_period;
use crate::math::encoding::{frequency_count, is_sine_column, pair_of_column, period};

/// Pairs of columns the curves' takeaway names one by one; more are summed up with "…".
const NAMED_PAIRS: usize = 3;

/// The heatmap's takeaway: what a row is, and how the periods of its columns run from left to
/// right; with odd d, which column is a sine without its cosine. `first_position` 1 numbers
/// positions and columns from 1 (the Julia edition).
pub fn heatmap(d: usize, base: f64, first_position: usize) -> String {
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

/// The curves' takeaway: why columns to the right repeat more slowly and why each cosine is its
/// sine shifted by a quarter period (one angle per pair, a frequency falling from pair to pair),
/// then the period of each pair of chosen columns. `columns` are 0-based (the link's `cols`);
/// those not below d are not drawn and are left out.
pub fn curves(columns: &[usize], d: usize, base: f64, first_position: usize) -> String {
    let why = if d <= 1 {
        crate::message!("takeaway-curves-why-one-column")
    } else {
        crate::message!("takeaway-curves-why")
    };
    let here = chosen_periods(columns, d, base, first_position);
    crate::message!("takeaway-curves", why = why, here = here)
}

/// The chosen columns' periods, pair by pair ("Here columns 6, 7 repeat every 35.3 positions
/// and 8, 9 every 62.8.").
fn chosen_periods(columns: &[usize], d: usize, base: f64, first_position: usize) -> String {
    // (pair, its chosen columns), in the order of the pairs.
    let mut pairs: Vec<(usize, Vec<usize>)> = Vec::new();
    let mut shown: Vec<usize> = columns.iter().copied().filter(|&c| c < d).collect();
    shown.sort_unstable();
    shown.dedup();
    for c in shown {
        let pair = pair_of_column(c);
        match pairs.last_mut() {
            Some((j, cols)) if *j == pair => cols.push(c),
            _ => pairs.push((pair, vec![c])),
        }
    }
    if pairs.is_empty() {
        return crate::message!("takeaway-curves-none");
    }
    let named = |cols: &[usize]| {
        cols.iter()
            .map(|&c| column_label(c, first_position).to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let period_of = |j: usize| format_period(period(j, d, base));
    let first = &pairs[0];
    if pairs.len() == 1 {
        // A sine and its cosine: the quarter period, in positions.
        return if first.1.len() == 2 && is_sine_column(first.1[0]) {
            crate::message!(
                "takeaway-curves-sine-and-cosine",
                columns = named(&first.1),
                period = period_of(first.0),
                quarter = format_period(period(first.0, d, base) / 4.0)
            )
        } else {
            crate::message!(
                "takeaway-curves-one-pair",
                count = first.1.len(),
                columns = named(&first.1),
                period = period_of(first.0)
            )
        };
    }
    let rest: Vec<String> = if pairs.len() <= NAMED_PAIRS {
        pairs[1..]
            .iter()
            .map(|(j, cols)| {
                crate::message!(
                    "takeaway-curves-more-columns",
                    columns = named(cols),
                    period = period_of(*j)
                )
            })
            .collect()
    } else {
        let (j, cols) = &pairs[pairs.len() - 1];
        vec![crate::message!(
            "takeaway-curves-last-columns",
            columns = named(cols),
            period = period_of(*j)
        )]
    };
    crate::message!(
        "takeaway-curves-pairs",
        count = first.1.len(),
        columns = named(&first.1),
        period = period_of(first.0),
        more = rest.join(&crate::message!("takeaway-curves-and"))
    )
}

/// The binary panel's takeaway: bit k repeats every 2^(k+1) numbers, pair j every
/// 2π·(base^(2/d))^j positions; both slow down to the right, the bits by 2 at each step, the
/// pairs smoothly by base^(2/d).
pub fn binary(stats: &BinaryStats, d: usize, base: f64) -> String {
    let bits = stats.bits;
    let periods: Vec<String> = (0..bits)
        .map(|k| format!("{}", 2u128.saturating_pow(k as u32 + 1)))
        .collect();
    let listed = if bits <= 3 {
        periods.join(", ")
    } else {
        format!("{}, {}, …, {}", periods[0], periods[1], periods[bits - 1])
    };
    let fastest = pair_period(0, d, base);
    if frequency_count(d) < 2 {
        return crate::message!(
            "takeaway-binary-one-frequency",
            bits = bits,
            listed = listed,
            d = d,
            period = format_period(fastest)
        );
    }
    let step = pair_period(1, d, base) / fastest;
    crate::message!(
        "takeaway-binary",
        bits = bits,
        listed = listed,
        period = format_period(fastest),
        step = format_number(step)
    )
}

/// The similarity panel's takeaway, where the lesson has shown all three reasons for sine and
/// cosine (the values in [−1, 1], a code per position, one rotation per offset): why not i/n,
/// and why early positions are not special: pᵢ·pᵢ₊ₖ depends on the offset k only, every
/// diagonal of the heatmap constant to rounding. With odd d the unpaired sine makes it depend on
/// i too, and with d = 1 (no pair at all) it depends on i; the sentences say so.
pub fn similarity(stats: &SimilarityStats) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::encoding::{frequency, sinusoidal};
    use crate::model::binary::compute as binary_stats;
    use crate::model::settings::SimilarityView;
    use crate::model::similarity::{compute as similarity_stats, diagonal_check};

    fn words(text: &str) -> usize {
        text.split_whitespace().count()
    }

    /// The sentence's second half at even d: odd d works too.
    const ODD_TOO: &str = "Odd d works too: the last column is then a sine without its cosine.";

    #[test]
    fn heatmap_answers_why_rows_look_alike_and_whether_odd_d_works() {
        let text = heatmap(32, 10_000.0, 0);
        assert_eq!(
            text,
            format!("Neighbouring rows look alike everywhere, not only early: each column is a wave, from period 6.28 positions (left) to 35333 (right), so close rows differ most on the left. {ODD_TOO}")
        );
        let odd = heatmap(33, 10_000.0, 0);
        assert!(
            odd.ends_with("Odd d = 33 works: column 32, the last, is a sine without its cosine."),
            "{odd}"
        );
        // Counted from 1 (the Julia edition), the same column is 33.
        assert!(heatmap(33, 10_000.0, 1).contains("column 33, the last,"));
        assert_eq!(
            heatmap(1, 10_000.0, 0),
            "With d = 1 each row is a single sine of period 6.28 positions, so rows whose sines are close look alike, early or late; odd d works: the one column just has no cosine."
        );
        assert!(heatmap(2, 10_000.0, 0).contains(
            "each row is a sine and its cosine, turned a fixed step per position (period 6.28)"
        ));
        // d = 3: one pair and a lone sine of period 2π·10000^(2/3) ≈ 2916.
        let three = heatmap(3, 10_000.0, 0);
        assert!(
            three.contains("to 2916 (right)") && three.contains("column 2, the last,"),
            "{three}"
        );
        for d in [1, 2, 3, 32, 33, 1024] {
            assert!(words(&heatmap(d, 10_000.0, 0)) <= 60, "d = {d}");
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

    /// The curves' answer, before the chosen columns' periods.
    const WHY: &str = "Each column pair j is the sine and cosine of one angle, i·ω_j, with ω_j = base^(−2j/d) smaller to the right, and cos x = sin(x + π/2): a quarter period apart.";

    #[test]
    fn curves_answer_why_then_name_each_pair_with_its_period() {
        let text = curves(&[6, 7, 8, 9], 32, 10_000.0, 0);
        assert_eq!(
            text,
            format!("{WHY} Here columns 6, 7 repeat every 35.3 positions and 8, 9 every 62.8.")
        );
        // One pair: its quarter period in positions.
        let one = curves(&[6, 7], 32, 10_000.0, 0);
        assert!(
            one.ends_with("Here columns 6, 7 repeat every 35.3 positions, so a quarter period is 8.83 positions."),
            "{one}"
        );
        // Single columns of different pairs.
        let lone = curves(&[7, 8], 32, 10_000.0, 0);
        assert!(
            lone.ends_with("Here column 7 repeats every 35.3 positions and 8 every 62.8."),
            "{lone}"
        );
        // Many pairs: the first and the last, the rest summed up.
        let many = curves(&[0, 1, 2, 3, 4, 5, 14, 15], 32, 10_000.0, 0);
        assert!(
            many.contains("Here columns 0, 1 repeat every 6.28 positions and …, 14, 15 every 353"),
            "{many}"
        );
        // The Julia figure's columns, counted from 1.
        let julia = curves(&[5, 6, 7, 8, 9], 32, 10_000.0, 1);
        assert!(
            julia.ends_with(
                "Here column 6 repeats every 19.9 positions and 7, 8 every 35.3 and 9, 10 every 62.8."
            ),
            "{julia}"
        );
        // Columns beyond d are not drawn; none left says so.
        assert!(curves(&[40], 32, 10_000.0, 0).ends_with("Pick a column below d to see its curve."));
        assert_eq!(
            curves(&[0], 1, 10_000.0, 0),
            "With d = 1 the only column is the sine of one angle, i·ω_0, with ω_0 = 1 and no cosine. Here column 0 repeats every 6.28 positions."
        );
        for cols in [&[6, 7, 8, 9][..], &[0, 1, 2, 3, 4, 5, 14, 15], &[6, 7]] {
            assert!(words(&curves(cols, 32, 10_000.0, 0)) <= 60);
        }
    }

    #[test]
    fn the_curves_reason_holds_in_p() {
        // Columns 2j and 2j + 1 are sin and cos of one angle i·ω_j, ω_j = base^(−2j/d) falling
        // with j, ω_0 = 1.
        let (d, base) = (32, 10_000.0);
        let p = sinusoidal(80, d, base);
        for j in 0..d / 2 {
            let omega = frequency(j, d, base);
            assert!((omega - base.powf(-2.0 * j as f64 / d as f64)).abs() < 1e-15);
            if j > 0 {
                assert!(omega < frequency(j - 1, d, base));
            }
            for i in [0, 9, 79] {
                let angle = i as f64 * omega;
                assert!((f64::from(p[[i, 2 * j]]) - angle.sin()).abs() < 1e-6);
                assert!((f64::from(p[[i, 2 * j + 1]]) - angle.cos()).abs() < 1e-6);
            }
        }
        assert_eq!(frequency(0, 1, base), 1.0);
    }

    #[test]
    fn binary_answers_the_correspondence_with_its_factors() {
        let stats = binary_stats(60, 32, 10_000.0, "cpu").unwrap();
        assert_eq!(
            binary(&stats, 32, 10_000.0),
            "They correspond: both tell positions apart with fast columns on the left and slower ones to the right, the bits slowing by 2× per column (bit k repeats every 2ᵏ⁺¹ numbers: 2, 4, …, 64), P's pairs smoothly by 1.778× (pair j every 6.28 × 1.778ʲ positions)."
        );
        // "slowing by a fixed factor per column": every pair's period is the one before times
        // the same step, base^(2/d).
        let step = pair_period(1, 32, 10_000.0) / pair_period(0, 32, 10_000.0);
        for j in 1..16 {
            let ratio = pair_period(j, 32, 10_000.0) / pair_period(j - 1, 32, 10_000.0);
            assert!((ratio - step).abs() < 1e-9, "pair {j}: {ratio}");
        }
        let eight = binary_stats(8, 32, 10_000.0, "cpu").unwrap();
        assert!(binary(&eight, 32, 10_000.0).contains("numbers: 2, 4, 8)"));
        let one = binary_stats(1, 2, 10_000.0, "cpu").unwrap();
        assert_eq!(
            binary(&one, 2, 10_000.0),
            "They correspond in principle: both tell positions apart with fast and slow columns, the bits slowing by 2× per column (bit 0 repeats every 2 numbers); with d = 2 P has only one frequency, period 6.28 positions."
        );
        assert!(words(&binary(&stats, 32, 10_000.0)) <= 60);
    }

    /// The similarity panel's numbers with the heatmap's diagonal check, as the page has them.
    fn similarity_case(view: SimilarityView, d: usize) -> SimilarityStats {
        let mut stats = similarity_stats(view, 60, d, 10_000.0, 5, 60).unwrap();
        let (spread, rows) = diagonal_check(60, d, 10_000.0).unwrap();
        stats.diagonal_spread = spread;
        stats.diagonal_spread_rows = rows;
        stats
    }

    #[test]
    fn similarity_answers_why_not_i_over_n_with_why_sine_and_cosine() {
        let stats = similarity_case(SimilarityView::Gram, 32);
        let text = similarity(&stats);
        assert_eq!(
            text,
            format!(
                "Because i/n changes whenever n does, while sine and cosine give each position a fixed code: bounded (in [−1, 1]), unique, and carried k places on by the same rotation anywhere, so pᵢ·pᵢ₊ₖ depends on k only: every diagonal of P·Pᵀ is constant (to {:.1e}), early positions no more alike than late ones.",
                stats.diagonal_spread
            )
        );
        let distance = similarity(&similarity_case(SimilarityView::Distance, 32));
        assert!(
            distance.contains("every diagonal of the distances ‖pᵢ − pⱼ‖ is constant (in P·Pᵀ to "),
            "{distance}"
        );
        // Odd d: the sentence says what holds instead.
        let odd = similarity(&similarity_case(SimilarityView::Gram, 33));
        assert!(
            odd.contains("in each (sin, cos) pair; with odd d = 33 the last sine has no cosine, so pᵢ·pᵢ₊ₖ depends on i too: the diagonals of P·Pᵀ vary (Gram entries by up to 4.1e-5)."),
            "{odd}"
        );
        let single = similarity(&similarity_case(SimilarityView::Gram, 1));
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
        let even = similarity_case(SimilarityView::Gram, 32).diagonal_spread;
        let odd = similarity_case(SimilarityView::Gram, 33).diagonal_spread;
        assert!(even < 1e-5 && odd > 10.0 * even, "{even} {odd}");
        // i/n: the same two neighbours get another value when n doubles.
        let s = similarity_case(SimilarityView::Gram, 32);
        assert!((s.normalized_short - s.normalized_long).abs() > 1e-3);
    }

    /// The digits of a sentence, in order: what a translation must keep.
    fn numbers(text: &str) -> Vec<String> {
        text.split(|c: char| !(c.is_ascii_digit() || c == '.'))
            .map(|part| part.trim_matches('.'))
            .filter(|part| !part.is_empty())
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn in_chinese_the_takeaways_state_the_same_numbers() {
        use crate::model::messages::{install_source, use_english, Computed};
        let sentences = || {
            vec![
                heatmap(32, 10_000.0, 0),
                heatmap(33, 10_000.0, 1),
                curves(&[6, 7], 32, 10_000.0, 0),
                curves(&[0, 2, 4, 6, 8], 32, 10_000.0, 0),
                binary(
                    &binary_stats(60, 32, 10_000.0, "cpu").unwrap(),
                    32,
                    10_000.0,
                ),
                heatmap(1, 10_000.0, 0),
                heatmap(2, 10_000.0, 0),
                curves(&[0], 1, 10_000.0, 0),
                curves(&[7, 8], 32, 10_000.0, 0),
                curves(&[40], 32, 10_000.0, 0),
                binary(&binary_stats(1, 2, 10_000.0, "cpu").unwrap(), 2, 10_000.0),
                similarity(&similarity_case(SimilarityView::Gram, 32)),
                similarity(&similarity_case(SimilarityView::Distance, 32)),
                similarity(&similarity_case(SimilarityView::Gram, 33)),
                similarity(&similarity_case(SimilarityView::Distance, 1)),
            ]
        };
        let english = sentences();
        install_source::<Computed>("zh", include_str!("../../locales/computed/zh.ftl")).unwrap();
        let chinese = sentences();
        use_english::<Computed>();
        for (en, zh) in english.iter().zip(&chinese) {
            assert!(
                zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
                "{zh}"
            );
            let (mut a, mut b) = (numbers(en), numbers(zh));
            a.sort();
            b.sort();
            assert_eq!(a, b, "{en}\n{zh}");
        }
    }
}
