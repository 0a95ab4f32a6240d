//! The binary panel's takeaway: it first answers the panel's question, then gives the figure's
//! live numbers as the evidence, and says what holds instead where the usual conclusion does not,
//! so that it cannot disagree with the figure beside it. Tested natively.

use super::BinaryStats;
use crate::math::binary::pair_period;
use crate::math::encoding::frequency_count;
use crate::model::present::{format_number, format_period};

/// The binary panel's takeaway: bit k repeats every 2^(k+1) numbers, pair j every
/// 2π·(base^(2/d))^j positions; both slow down to the right, the bits by 2 at each step, the
/// pairs smoothly by base^(2/d).
pub fn takeaway(stats: &BinaryStats, d: usize, base: f64) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    use super::super::compute as binary_stats;
    use crate::model::sentence_checks::words;

    #[test]
    fn binary_answers_the_correspondence_with_its_factors() {
        let stats = binary_stats(60, 32, 10_000.0, "cpu").unwrap();
        assert_eq!(
            takeaway(&stats, 32, 10_000.0),
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
        assert!(takeaway(&eight, 32, 10_000.0).contains("numbers: 2, 4, 8)"));
        let one = binary_stats(1, 2, 10_000.0, "cpu").unwrap();
        assert_eq!(
            takeaway(&one, 2, 10_000.0),
            "They correspond in principle: both tell positions apart with fast and slow columns, the bits slowing by 2× per column (bit 0 repeats every 2 numbers); with d = 2 P has only one frequency, period 6.28 positions."
        );
        assert!(words(&takeaway(&stats, 32, 10_000.0)) <= 60);
    }
}
