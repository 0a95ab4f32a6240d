//! The scaling panel's takeaway: why × √d (the embeddings' size next to P's) and why add rather
//! than append (the two tokens' dot product term by term), with the live numbers of the charts
//! beside it. The sentences are messages of `locales/computed` (`takeaway-scaling-…`). Tested
//! natively; the view writes it above its "More".

use super::ScalingStats;
use crate::model::present::format_number;

/// The scaling panel's takeaway: why × √d (the embeddings' size next to P's, with and without
/// it, as the magnitude chart draws them), then why add rather than append (the two tokens' dot
/// product term by term, as the bars draw it).
pub fn takeaway(stats: &ScalingStats) -> String {
    let Some(pair) = stats.pair.as_ref() else {
        return crate::message!("takeaway-scaling-empty");
    };
    let d = stats.d;
    let (u, s) = (
        format_number(stats.unscaled_ratio),
        format_number(stats.scaled_ratio),
    );
    let magnitudes = if d == 1 {
        crate::message!("takeaway-scaling-d-one", scaled = s)
    } else if stats.unscaled_ratio < 1.0 {
        crate::message!(
            "takeaway-scaling-position-outweighs",
            unscaled = u,
            scaled = s
        )
    } else {
        crate::message!(
            "takeaway-scaling-words-outweigh",
            d = d,
            unscaled = u,
            scaled = s
        )
    };
    let add = crate::message!(
        "takeaway-scaling-add",
        d = d,
        columns = 2 * d,
        cross = format_number(pair.cross_terms),
        token_i = &pair.tokens.0,
        token_j = &pair.tokens.1,
        bars = if pair.scaled { "scaled" } else { "unscaled" },
        xx = format_number(pair.xx),
        pp = format_number(pair.pp),
        added = format_number(pair.added),
    );
    crate::message!("takeaway-scaling", magnitudes = magnitudes, add = add)
}

/// The scaling panel's numbers for the default sentence, pair and base, at d and with or
/// without × √d (a case of the takeaway tests).
#[cfg(test)]
pub(crate) fn default_scaling(d: usize, scaled: bool) -> ScalingStats {
    let tokens: Vec<String> = "I would like 3 oranges and 4 bananas"
        .split(' ')
        .map(String::from)
        .collect();
    super::compute(&tokens, d, 10_000.0, (3, 6), scaled)
        .unwrap()
        .stats
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scaling_answers_both_questions_with_the_charts_numbers() {
        let stats = default_scaling(32, true);
        let pair = stats.pair.clone().unwrap();
        let text = takeaway(&stats);
        assert_eq!(
            text,
            format!(
                "× √d keeps P from drowning the words: their embeddings go from {}× to {}× P's size (RMS). Adding keeps d = 32 columns (appending: 64) at the cost of x·p + p·x = {}: for “3” · “4” the bars show x·x = {}, p·p = {}, added {}.",
                format_number(stats.unscaled_ratio),
                format_number(stats.scaled_ratio),
                format_number(pair.cross_terms),
                format_number(pair.xx),
                format_number(pair.pp),
                format_number(pair.added),
            )
        );
        assert!(
            text.contains("0.2478× to 1.401×") && text.contains("x·x = 6.926, p·p = 12.272"),
            "{text}"
        );
        // What the sentence claims: the words below P's size without × √d, × √d multiplying them by
        // √d; added = x·x + cross terms + p·p, concatenated = x·x + p·p (only the cross terms
        // differ).
        assert!(stats.unscaled_ratio < 1.0 && stats.scaled_ratio > 1.0);
        let factor = stats.scaled_ratio / stats.unscaled_ratio;
        assert!((factor / 32f64.sqrt() - 1.0).abs() < 1e-6, "{factor}");
        // (float32 sums: to their rounding)
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-5 * a.abs().max(b.abs()).max(1.0);
        assert!(close(pair.added, pair.xx + pair.cross_terms + pair.pp));
        assert!(close(pair.concatenated, pair.xx + pair.pp));
        assert!(close(pair.added - pair.concatenated, pair.cross_terms));
        // Without × √d the bars show the unscaled words, and say so; x·x is d times smaller.
        let plain = default_scaling(32, false);
        let plain_pair = plain.pair.clone().unwrap();
        assert!(takeaway(&plain).contains("the bars (without × √d) show x·x = "));
        assert!(close(pair.xx, 32.0 * plain_pair.xx));
        // d = 1: √d = 1 changes nothing.
        let one = default_scaling(1, true);
        assert!((one.scaled_ratio - one.unscaled_ratio).abs() < 1e-12);
        assert!(takeaway(&one).starts_with("At d = 1, √d = 1 changes nothing"));
        // Where the words are P's size even without × √d, the sentence says so.
        let big = ScalingStats {
            unscaled_ratio: 1.1,
            scaled_ratio: 1.5,
            d: 2,
            ..stats.clone()
        };
        assert!(takeaway(&big).starts_with(
            "× √d is meant to keep P from drowning the words; at d = 2 they are 1.100× P's size (RMS) even without it, 1.500× with it."
        ));
        let empty = ScalingStats {
            pair: None,
            ..stats
        };
        assert!(
            takeaway(&empty).ends_with("type a few words in the attention panel to measure both.")
        );
    }
}
