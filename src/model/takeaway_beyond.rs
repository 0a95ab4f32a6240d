//! The one-sentence takeaways of the position-family panels (RoPE, context extension, ALiBi, T5,
//! Shaw, the learned table, NoPE): each states the figure's conclusion with the live numbers that
//! show it, computed from the panel's own stats so that it cannot disagree with its read-outs.
//! Pure functions, tested natively; the panels write them above their "More".

use super::alibi::{AlibiStats, SPAN_SHARE};
use super::extension::ExtensionStats;
use super::learned::LearnedStats;
use super::nope::NopeStats;
use super::present::{format_number, format_period, plural};
use super::rope::RopeStats;
use super::shaw::ShawStats;
use super::t5::T5Stats;

/// A diagonal spread this small against the largest score is float32 rounding, not a dependence
/// on the absolute position (the measured spread is ~1e-6 of the scores; 1e-3 leaves room).
const ROUNDING_SHARE: f64 = 1e-3;

/// RoPE: the score map is constant along each diagonal j − i (up to float32 rounding).
/// `rows` is how many rows the measurement covered (the page's n, at most the check's limit).
pub fn rope(stats: &RopeStats, rows: usize) -> String {
    if stats.d < 2 {
        return format!(
            "d = {} has no pair of dimensions to rotate: RoPE needs d ≥ 2.",
            stats.d.max(1)
        );
    }
    if rows < 2 {
        return format!(
            "With n = {rows} there is one query and one key: one score ({}), no second offset to compare it with.",
            format_number(stats.score_max_abs)
        );
    }
    let (spread, size) = (stats.score_diagonal_spread, stats.score_max_abs);
    if spread <= ROUNDING_SHARE * size {
        format!(
            "Along every diagonal j\u{a0}−\u{a0}i the scores differ by at most {} (float32 rounding) against scores up to {}: the score depends on the offset only.",
            format_number(spread),
            format_number(size)
        )
    } else {
        format!(
            "Along the diagonals j\u{a0}−\u{a0}i the scores differ by up to {} against scores up to {}: more than float32 rounding.",
            format_number(spread),
            format_number(size)
        )
    }
}

/// A frequency ratio: "1" when exactly 1, else four significant digits.
fn ratio(x: f64) -> String {
    if x == 1.0 {
        "1".into()
    } else {
        format_number(x)
    }
}

/// Context extension: how many pairs turn at least once within L, and what each method does to
/// the slowest pair's frequency.
pub fn extension(stats: &ExtensionStats) -> String {
    let pairs = stats.ntk_ratios.len();
    let (Some(&ntk), Some(&yarn), Some(&wavelength)) = (
        stats.ntk_ratios.last(),
        stats.yarn_ratios.last(),
        stats.wavelengths.last(),
    ) else {
        return format!(
            "A rotary dimension of {} has fewer than two pairs: the extension methods need d ≥ 4.",
            stats.d
        );
    };
    let (pi, context) = (stats.pi_ratio, stats.training_context);
    let near = |a: f64, b: f64| (a - b).abs() <= 1e-9 * a.abs().max(b.abs());
    let methods = if near(pi, ntk) && near(pi, yarn) {
        format!("all three methods multiply its frequency by {}", ratio(pi))
    } else if near(pi, ntk) {
        format!(
            "PI and NTK-aware multiply its frequency by {}, YaRN by {}",
            ratio(pi),
            ratio(yarn)
        )
    } else {
        // NTK's last ratio is 1/s exactly: only rounding can make it differ from PI's.
        format!(
            "PI multiplies its frequency by {}, NTK-aware by {}, YaRN by {}",
            ratio(pi),
            ratio(ntk),
            ratio(yarn)
        )
    };
    format!(
        "{} of {pairs} pairs complete a turn within L = {context}; the slowest (wavelength {} positions) {}{methods}.",
        stats.pairs_within_context,
        format_period(wavelength),
        if stats.pairs_within_context == pairs {
            "turns too, and "
        } else {
            "never does: "
        },
    )
}

/// ALiBi: how many of the most recent keys hold 90 % of the bias-only weight of head 0 and of
/// the last head, at query position i = L.
pub fn alibi(stats: &AlibiStats) -> String {
    // The query at i = L (the second of L/2, L, 2L, 4L).
    let slot = 1;
    let Some(&i) = stats.query_positions.get(slot) else {
        return "No heads: ALiBi needs at least one.".into();
    };
    let share = (SPAN_SHARE * 100.0).round();
    let keys = |h: usize| match stats.spans.get(h).and_then(|s| s.get(slot)) {
        Some(&k) if k > i => format!("all {} keys", i + 1),
        Some(&k) => format!("the last {}", plural(k, "key", "keys")),
        None => "—".into(),
    };
    let slope = |h: usize| format_number(stats.slopes.get(h).copied().unwrap_or(f64::NAN));
    let last = stats.slopes.len().saturating_sub(1);
    if last == 0 {
        return format!(
            "Bias alone, query i = L = {i}: the single head (m = {}) puts {share} % of its weight on {}.",
            slope(0),
            keys(0)
        );
    }
    format!(
        "Bias alone, query i = L = {i}: head 0 (m = {}) puts {share} % of its weight on {}, head {last} (m = {}) on {}.",
        slope(0),
        keys(0),
        slope(last),
        keys(last)
    )
}

/// T5: how many buckets the shown distances use, and from where they share the last bucket.
pub fn t5(stats: &T5Stats) -> String {
    let (range, first) = (stats.range, stats.first_in_last_bucket);
    let half = stats.num_buckets / 2;
    let used = format!(
        "Over δ = −{range} … {range} the encoder uses {} of its {} buckets",
        stats.distinct_buckets, stats.num_buckets
    );
    if range >= first {
        format!(
            "{used}; every distance ≥ {first} shares its direction's last bucket ({} before the query, {} after).",
            half - 1,
            stats.num_buckets - 1
        )
    } else {
        format!(
            "{used}; no distance shown reaches {first}, from where all share their direction's last bucket."
        )
    }
}

/// Shaw: 2k + 1 rows; offsets beyond ±k share the end rows.
pub fn shaw(stats: &ShawStats) -> String {
    let (clip, rows, n) = (stats.clip, stats.table_rows, stats.tokens.len());
    let head = format!("The table has 2k + 1 = {rows} rows, one per offset −{clip} … {clip}");
    if n == 0 {
        return format!(
            "{head}; every farther offset shares an end row (the sentence has no tokens)."
        );
    }
    let offsets = 2 * n - 1;
    if offsets > rows {
        format!(
            "{head}; the sentence's {offsets} offsets use all {}, those beyond ±{clip} sharing an end row.",
            stats.distinct_offsets_used
        )
    } else {
        format!(
            "{head}; the sentence's {} {} within ±{clip}, each with its own row.",
            plural(offsets, "offset", "offsets"),
            if offsets == 1 { "lies" } else { "lie" },
        )
    }
}

/// The learned table: rows exist only below L_max.
pub fn learned(stats: &LearnedStats) -> String {
    let (max_len, n) = (stats.max_len, stats.n);
    let rows = if max_len == 1 {
        "E has a row for position 0 only".to_string()
    } else {
        format!("E has rows for positions 0–{} only", max_len - 1)
    };
    if stats.positions_beyond > 0 {
        format!(
            "{rows}: of the page's n = {n} positions, {} have none, from position {max_len} on; the sinusoid gives every position a row.",
            stats.positions_beyond
        )
    } else {
        format!(
            "{rows}: the page's {} {}, but position {max_len} has none, where the sinusoid still gives p_{max_len}.",
            plural(n, "position", "positions"),
            if n == 1 { "fits" } else { "fit" }
        )
    }
}

/// NoPE: the causal mask gives position t the output 1/t; without it every position gets 1/n.
pub fn nope(stats: &NopeStats) -> String {
    let n = stats.n;
    let (Some(&first), Some(&last), Some(&all)) = (
        stats.causal_outputs.first(),
        stats.causal_outputs.last(),
        stats.bidirectional_outputs.first(),
    ) else {
        return "No positions: nothing to count.".into();
    };
    if n == 1 {
        return format!(
            "With one position the output is {} with or without the causal mask: nothing to tell apart.",
            format_number(first)
        );
    }
    format!(
        "With the causal mask position t outputs 1/t ({} at t = 1 down to {} at t = {n}){}; without it every position gets 1/{n} = {}.",
        format_number(first),
        format_number(last),
        if stats.causal_distinct {
            ", a different value at each"
        } else {
            ""
        },
        format_number(all)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{alibi, extension, learned, nope, rope, shaw, t5};

    /// Words as the page's reading test counts them: runs with a letter or a digit.
    fn words(text: &str) -> usize {
        text.split_whitespace()
            .filter(|w| w.chars().any(char::is_alphanumeric))
            .count()
    }

    #[test]
    fn rope_states_the_diagonal_spread_against_the_scores() {
        let mut stats = rope::compute(32, 10_000.0, 1).unwrap();
        let (q, k) = rope::score_vectors(32, 1);
        rope::measure_scores(&q, &k, 60, 10_000.0, &mut stats).unwrap();
        let text = rope(&stats, 60);
        assert!(text.contains(&format_number(stats.score_diagonal_spread)));
        assert!(
            text.ends_with("the score depends on the offset only."),
            "{text}"
        );
        assert!(words(&text) <= 30, "{text}");
        // No pair (d = 1), one position, and a spread beyond rounding each say what holds.
        let one = rope::compute(1, 10_000.0, 1).unwrap();
        assert_eq!(
            rope(&one, 60),
            "d = 1 has no pair of dimensions to rotate: RoPE needs d ≥ 2."
        );
        assert!(rope(&stats, 1).starts_with("With n = 1 there is one query"));
        stats.score_diagonal_spread = 0.5 * stats.score_max_abs;
        assert!(rope(&stats, 60).ends_with("more than float32 rounding."));
    }

    #[test]
    fn extension_counts_turns_and_states_the_slowest_pairs_ratios() {
        let stats = extension::compute(32, 10_000.0, 4.0, 2048).unwrap();
        let text = extension(&stats);
        assert_eq!(
            text,
            "11 of 16 pairs complete a turn within L = 2048; the slowest (wavelength 35333 positions) never does: all three methods multiply its frequency by 0.2500."
        );
        assert!(words(&text) <= 30);
        // A small base: every pair turns within L, so YaRN keeps the slowest one.
        let fast = extension::compute(32, 10.0, 4.0, 2048).unwrap();
        let text = extension(&fast);
        assert!(text.starts_with("16 of 16 pairs"), "{text}");
        assert!(
            text.contains("PI and NTK-aware multiply its frequency by 0.2500, YaRN by 1."),
            "{text}"
        );
        // s = 1: nothing changes.
        let same = extension::compute(32, 10_000.0, 1.0, 2048).unwrap();
        assert!(extension(&same).ends_with("all three methods multiply its frequency by 1."));
        let odd = extension::compute(3, 10_000.0, 4.0, 2048).unwrap();
        assert!(extension(&odd).starts_with("A rotary dimension of 2 has fewer than two pairs"));
    }

    #[test]
    fn alibi_compares_the_first_and_the_last_heads_span() {
        let stats = alibi::compute(8, 2048);
        let text = alibi(&stats);
        assert_eq!(
            text,
            format!(
                "Bias alone, query i = L = 2048: head 0 (m = 0.5000) puts 90 % of its weight on the last {} keys, head 7 (m = 0.0039) on the last {} keys.",
                stats.spans[0][1], stats.spans[7][1]
            )
        );
        assert!(stats.spans[0][1] < stats.spans[7][1]);
        // One head; and a short L where the shallow head spreads over every key.
        assert!(alibi(&alibi::compute(1, 2048)).contains(
            "query i = L = 2048: the single head (m = 0.0039) puts 90 % of its weight on the last"
        ));
        let short = alibi::compute(64, 8);
        assert!(
            alibi(&short).ends_with("on all 9 keys."),
            "{}",
            alibi(&short)
        );
        assert!(words(&text) <= 30);
    }

    #[test]
    fn t5_counts_buckets_and_says_where_the_last_one_starts() {
        let stats = t5::compute(160).unwrap();
        let text = t5(&stats);
        assert!(
            text.starts_with(&format!(
                "Over δ = −160 … 160 the encoder uses {} of its 32 buckets; every distance ≥ 91",
                stats.distinct_buckets
            )),
            "{text}"
        );
        assert!(text.contains("(15 before the query, 31 after)"));
        let short = t5(&t5::compute(8).unwrap());
        assert_eq!(
            short,
            "Over δ = −8 … 8 the encoder uses 17 of its 32 buckets; no distance shown reaches 91, from where all share their direction's last bucket."
        );
        assert!(words(&text) <= 30);
    }

    #[test]
    fn shaw_counts_rows_and_the_offsets_that_share_them() {
        let tokens: Vec<String> = "I would like 3 oranges and 4 bananas"
            .split(' ')
            .map(str::to_string)
            .collect();
        let stats = shaw::compute(&tokens, 60, 32, 10_000.0, 4, 1, true)
            .unwrap()
            .stats;
        assert_eq!(
            shaw(&stats),
            "The table has 2k + 1 = 9 rows, one per offset −4 … 4; the sentence's 15 offsets use all 9, those beyond ±4 sharing an end row."
        );
        let wide = shaw::compute(&tokens, 60, 32, 10_000.0, 64, 1, true)
            .unwrap()
            .stats;
        assert!(shaw(&wide).ends_with("15 offsets lie within ±64, each with its own row."));
        let one = shaw::compute(&tokens[..1], 60, 32, 10_000.0, 1, 1, true)
            .unwrap()
            .stats;
        assert!(shaw(&one).ends_with("1 offset lies within ±1, each with its own row."));
        let none = shaw::compute(&[], 60, 32, 10_000.0, 1, 1, true)
            .unwrap()
            .stats;
        assert!(shaw(&none).ends_with("(the sentence has no tokens)."));
    }

    #[test]
    fn learned_says_which_positions_have_a_row() {
        let stats = learned::compute(32, 60, 10_000.0, 512, 1).unwrap().stats;
        assert_eq!(
            learned(&stats),
            "E has rows for positions 0–511 only: the page's 60 positions fit, but position 512 has none, where the sinusoid still gives p_512."
        );
        let one = learned::compute(32, 1, 10_000.0, 512, 1).unwrap().stats;
        assert!(learned(&one).contains("the page's 1 position fits, but position 512 has none"));
        let short = learned::compute(32, 60, 10_000.0, 1, 1).unwrap().stats;
        assert_eq!(
            learned(&short),
            "E has a row for position 0 only: of the page's n = 60 positions, 59 have none, from position 1 on; the sinusoid gives every position a row."
        );
    }

    #[test]
    fn nope_states_one_over_t_against_one_over_n() {
        let text = nope(&nope::compute(60));
        assert_eq!(
            text,
            "With the causal mask position t outputs 1/t (1.000 at t = 1 down to 0.0167 at t = 60), a different value at each; without it every position gets 1/60 = 0.0167."
        );
        assert!(nope(&nope::compute(1)).starts_with("With one position the output is 1.000"));
        assert!(nope(&nope::compute(2)).contains("0.5000 at t = 2"));
    }
}
