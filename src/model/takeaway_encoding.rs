//! The one-sentence takeaways of the heatmap, curves, binary and similarity panels: each states
//! the figure's conclusion with the live numbers that show it, and says what holds instead where
//! the usual conclusion does not (d = 1, one pair, odd d, a position with no neighbour), so it can
//! never disagree with the figure beside it.

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

/// The curves' takeaway: the period of each pair of chosen columns, slower to the right, and,
/// where a sine and its cosine are both shown, that one is the other shifted by a quarter period.
/// `columns` are 0-based (the link's `cols`); those not below d are not drawn and are left out.
pub fn curves(columns: &[usize], d: usize, base: f64, first_position: usize) -> String {
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
    let twins = pairs
        .iter()
        .any(|(_, cols)| cols.len() == 2 && is_sine_column(cols[0]));
    let first = &pairs[0];
    let yes_no = |yes: bool| if yes { "yes" } else { "no" };
    if pairs.len() == 1 {
        // Only where there are columns to its right (not d = 1, 2 or the last pair).
        let slower = yes_no(first.0 + 1 < frequency_count(d));
        return if twins {
            crate::message!(
                "takeaway-curves-sine-and-cosine",
                columns = named(&first.1),
                period = period_of(first.0),
                quarter = format_period(period(first.0, d, base) / 4.0),
                slower = slower
            )
        } else {
            crate::message!(
                "takeaway-curves-one-pair",
                count = first.1.len(),
                columns = named(&first.1),
                period = period_of(first.0),
                slower = slower
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
        more = rest.join(&crate::message!("takeaway-curves-and")),
        twins = yes_no(twins)
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

/// The similarity panel's takeaway: pᵢ·pᵢ₊ₖ depends on the offset k only (the two curves
/// agree to rounding), unlike the similarity of normalised positions i/n, which changes with n.
/// With odd d the unpaired sine makes it depend on i a little, and the sentence says so.
pub fn similarity(stats: &SimilarityStats) -> String {
    let spread = format!("{:.1e}", stats.diagonal_spread);
    // The select's key: which matrix the figure shows.
    let map = if stats.view == SimilarityView::Distance.to_query() {
        "distance"
    } else {
        "gram"
    };
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
    use crate::model::binary::compute as binary_stats;
    use crate::model::settings::SimilarityView;
    use crate::model::similarity::compute as similarity_stats;

    fn words(text: &str) -> usize {
        text.split_whitespace().count()
    }

    #[test]
    fn heatmap_states_the_periods_and_the_odd_column() {
        let text = heatmap(32, 10_000.0, 0);
        assert_eq!(
            text,
            "Row i is added to the token at position i: its 32 columns slow from period 6.28 (left) to 35333 positions (right)."
        );
        let odd = heatmap(33, 10_000.0, 0);
        assert!(
            odd.ends_with("; column 32, the last, is a lone sine (odd d)."),
            "{odd}"
        );
        // Counted from 1 (the Julia edition), the same column is 33.
        assert!(heatmap(33, 10_000.0, 1).contains("column 33, the last,"));
        assert!(
            heatmap(1, 10_000.0, 0).contains("with d = 1 its only column is a sine of period 6.28")
        );
        assert!(heatmap(2, 10_000.0, 0).contains("both repeat every 6.28 positions"));
        // d = 3: one pair and a lone sine of period 2π·10000^(2/3) ≈ 2916.
        let three = heatmap(3, 10_000.0, 0);
        assert!(
            three.contains("to 2916 positions") && three.contains("column 2, the last,"),
            "{three}"
        );
        for d in [1, 2, 3, 32, 33, 1024] {
            assert!(words(&heatmap(d, 10_000.0, 0)) <= 32, "d = {d}");
        }
    }

    #[test]
    fn curves_name_each_pair_with_its_period() {
        let text = curves(&[6, 7, 8, 9], 32, 10_000.0, 0);
        assert_eq!(
            text,
            "Columns 6, 7 repeat every 35.3 positions and 8, 9 every 62.8: the frequency falls along the columns, and each cosine is its sine shifted by a quarter period."
        );
        // One pair: its quarter period in positions.
        let one = curves(&[6, 7], 32, 10_000.0, 0);
        assert!(
            one.contains("shifted by a quarter period (8.83 positions)"),
            "{one}"
        );
        // Single columns of different pairs: no twin is shown, so none is claimed.
        let lone = curves(&[7, 8], 32, 10_000.0, 0);
        assert!(!lone.contains("quarter"), "{lone}");
        assert!(
            lone.starts_with("Column 7 repeats every 35.3 positions and 8 every 62.8"),
            "{lone}"
        );
        // Many pairs: the first and the last, the rest summed up.
        let many = curves(&[0, 1, 2, 3, 4, 5, 14, 15], 32, 10_000.0, 0);
        assert!(
            many.contains("Columns 0, 1 repeat every 6.28 positions and …, 14, 15 every 353"),
            "{many}"
        );
        // The Julia figure's columns, counted from 1.
        let julia = curves(&[5, 6, 7, 8, 9], 32, 10_000.0, 1);
        assert!(
            julia.starts_with(
                "Column 6 repeats every 19.9 positions and 7, 8 every 35.3 and 9, 10 every 62.8"
            ),
            "{julia}"
        );
        // Columns beyond d are not drawn; none left says so.
        assert!(curves(&[40], 32, 10_000.0, 0).starts_with("No column below d"));
        assert_eq!(
            curves(&[0], 1, 10_000.0, 0),
            "Column 0 repeats every 6.28 positions."
        );
        assert!(
            curves(&[6], 32, 10_000.0, 0).ends_with("; columns further right repeat more slowly.")
        );
        for cols in [&[6, 7, 8, 9][..], &[0, 1, 2, 3, 4, 5, 14, 15], &[6, 7]] {
            assert!(words(&curves(cols, 32, 10_000.0, 0)) <= 32);
        }
    }

    #[test]
    fn binary_compares_the_doubling_bits_with_the_smooth_pairs() {
        let stats = binary_stats(60, 32, 10_000.0, "cpu").unwrap();
        assert_eq!(
            binary(&stats, 32, 10_000.0),
            "Bit k repeats every 2ᵏ⁺¹ numbers (2, 4, …, 64), pair j of P every 6.28 × 1.778ʲ positions: both slow down to the right, bits by 2×, pairs smoothly by 1.778×."
        );
        let eight = binary_stats(8, 32, 10_000.0, "cpu").unwrap();
        assert!(binary(&eight, 32, 10_000.0).contains("(2, 4, 8)"));
        let one = binary_stats(1, 2, 10_000.0, "cpu").unwrap();
        assert_eq!(
            binary(&one, 2, 10_000.0),
            "Bit 0 repeats every 2 numbers; with d = 2 P has one frequency, period 6.28 positions: nothing slows down beside the bits."
        );
        assert!(words(&binary(&stats, 32, 10_000.0)) <= 36);
    }

    #[test]
    fn similarity_states_the_heatmaps_constant_diagonals() {
        let stats = similarity_stats(SimilarityView::Gram, 60, 32, 10_000.0, 5, 60).unwrap();
        let text = similarity(&stats);
        assert_eq!(
            text,
            format!(
                "Every diagonal of P·Pᵀ is constant (to {:.1e}): pᵢ·pᵢ₊ₖ depends on the offset k only, the same at every position i, which i/n, changing with n, cannot give.",
                stats.diagonal_spread
            )
        );
        assert!(stats.diagonal_spread < 1e-5);
        let distance = similarity(
            &similarity_stats(SimilarityView::Distance, 60, 32, 10_000.0, 5, 60).unwrap(),
        );
        assert!(
            distance.starts_with("Every diagonal of the distances ‖pᵢ − pⱼ‖ is constant"),
            "{distance}"
        );
        // Odd d: the sentence says what holds instead.
        let odd =
            similarity(&similarity_stats(SimilarityView::Gram, 60, 33, 10_000.0, 5, 60).unwrap());
        assert!(
            odd.starts_with("With odd d = 33, the diagonals of P·Pᵀ are not quite constant"),
            "{odd}"
        );
        assert!(words(&text) <= 36);
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
