//! The takeaways of the position-family panels (RoPE, context extension, ALiBi, T5, Shaw, the
//! learned table, NoPE): each first answers its panel's question ("does the score depend on the
//! offset only?", "how do they know the order?", "can we learn embeddings per offset?" …), then
//! states the figure's conclusion with the live numbers that show it, computed from the panel's
//! own stats so that it cannot disagree with its read-outs.
//! Pure functions, tested natively; the panels write them above their "More".

use super::alibi::{AlibiStats, SHOWN_POSITIONS};
use super::extension::ExtensionStats;
use super::learned::LearnedStats;
use super::nope::NopeStats;
use super::present::format_number;
use super::rope::RopeStats;
use super::shaw::ShawStats;
use super::t5::T5Stats;

/// Shift residuals this far below the largest float32 one are rounding of float64 itself: the
/// float64 curve sits ~1e-9 below float32's on the chart, a real dependence on the position
/// would lift both alike.
const ROUNDING_SHARE: f64 = 1e-3;

/// RoPE: what the main chart (the shift residual against Δ) shows: in float64 the score does not
/// change when both positions move by Δ (it depends on the offset only); float32's rounding of
/// the angles grows with Δ. Every number is a point of the chart's two curves.
pub fn rope(stats: &RopeStats) -> String {
    if stats.d < 2 {
        return crate::message!("takeaway-rope-no-pair", d = stats.d.max(1));
    }
    let largest = |curve: &[(u64, f64)]| curve.iter().map(|p| p.1).fold(0.0, f64::max);
    let (f64_max, f32_max) = (
        largest(&stats.shift_residual_f64_curve),
        largest(&stats.shift_residual_f32),
    );
    let (Some(&(first_shift, f32_first)), Some(&(last_shift, f32_last))) = (
        stats.shift_residual_f32.first(),
        stats.shift_residual_f32.last(),
    ) else {
        return crate::message!("takeaway-rope-no-shifts");
    };
    let depends_on = if f64_max <= ROUNDING_SHARE * f32_max.max(f64::MIN_POSITIVE) {
        "offset"
    } else {
        "position"
    };
    crate::message!(
        "takeaway-rope",
        f64_max = format_number(f64_max),
        depends_on = depends_on,
        f32_first = format_number(f32_first),
        first_shift = first_shift,
        f32_last = format_number(f32_last),
        last_shift = format_shift(last_shift),
    )
}

/// A shift as the chart's axis writes it: 1, 10, 100, 1e3 … (powers of ten above 100 as 1eK).
fn format_shift(shift: u64) -> String {
    let exponent = (shift as f64).log10().round() as u32;
    if shift >= 1_000 && 10_u64.checked_pow(exponent) == Some(shift) {
        format!("1e{exponent}")
    } else {
        shift.to_string()
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

/// Context extension: what the methods do (lower frequencies so that s·L positions reach angles
/// the model has seen, nothing at s = 1), then what the main chart (θ'_j/θ_j per pair) shows at
/// its two ends: the slowest pair (right), which every method slows, and the fastest (left),
/// which NTK-aware and YaRN keep while PI slows it alike.
pub fn extension(stats: &ExtensionStats) -> String {
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

/// ALiBi: what the main figure (each head's bias matrix, −m·(i − j) over the first
/// SHOWN_POSITIONS positions) shows: the first head's bias falls steeply with the distance, the
/// last head's barely, and the bias alone decides how far back a head reads.
pub fn alibi(stats: &AlibiStats) -> String {
    let (Some(&first), Some(&last)) = (stats.slopes.first(), stats.slopes.last()) else {
        return crate::message!("takeaway-alibi-no-heads");
    };
    let back = SHOWN_POSITIONS - 1;
    let corner = |m: f64| format!("−{}", format_number(m * back as f64));
    if stats.slopes.len() == 1 {
        return crate::message!(
            "takeaway-alibi-single-head",
            m = format_number(first),
            corner = corner(first),
            back = back,
        );
    }
    let h = stats.slopes.len() - 1;
    crate::message!(
        "takeaway-alibi",
        first_m = format_number(first),
        first_corner = corner(first),
        back = back,
        last_head = h,
        last_m = format_number(last),
        last_corner = corner(last),
    )
}

/// T5: yes, one learned number per bucket of offsets (exact near the query, wider farther out);
/// how many buckets the shown distances use, and from where they share the last bucket.
pub fn t5(stats: &T5Stats) -> String {
    let (range, first) = (stats.range, stats.first_in_last_bucket);
    let half = stats.num_buckets / 2;
    if range >= first {
        crate::message!(
            "takeaway-t5-last-bucket-shared",
            exact = stats.max_exact,
            range = range,
            used = stats.distinct_buckets,
            buckets = stats.num_buckets,
            first = first,
            before = half - 1,
            after = stats.num_buckets - 1,
        )
    } else {
        crate::message!(
            "takeaway-t5-last-bucket-not-reached",
            exact = stats.max_exact,
            range = range,
            used = stats.distinct_buckets,
            buckets = stats.num_buckets,
            first = first,
        )
    }
}

/// Shaw: what the main figure (the key table) shows: 2k + 1 rows; offsets beyond ±k share
/// the end rows.
pub fn shaw(stats: &ShawStats) -> String {
    let (clip, rows) = (stats.clip, stats.table_rows);
    crate::message!("takeaway-shaw", rows = rows, clip = clip)
}

/// The learned table: rows exist only below L_max.
pub fn learned(stats: &LearnedStats) -> String {
    let (max_len, n) = (stats.max_len, stats.n);
    let last = max_len.saturating_sub(1);
    if stats.positions_beyond > 0 {
        crate::message!(
            "takeaway-learned-positions-beyond",
            max_len = max_len,
            last = last,
            n = n,
            beyond = stats.positions_beyond,
        )
    } else {
        crate::message!(
            "takeaway-learned-positions-fit",
            max_len = max_len,
            last = last,
            n = n,
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
        return crate::message!("takeaway-nope-no-positions");
    };
    if n == 1 {
        return crate::message!("takeaway-nope-one-position", output = format_number(first));
    }
    crate::message!(
        "takeaway-nope",
        first = format_number(first),
        last = format_number(last),
        n = n,
        distinct = if stats.causal_distinct { "yes" } else { "no" },
        all = format_number(all),
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
    fn rope_states_the_shift_residual_charts_points() {
        let stats = rope::compute(32, 10_000.0, 1).unwrap();
        let text = rope(&stats);
        let f64_max = stats
            .shift_residual_f64_curve
            .iter()
            .map(|p| p.1)
            .fold(0.0, f64::max);
        let (f32_first, f32_last) = (
            stats.shift_residual_f32[0].1,
            stats.shift_residual_f32.last().unwrap().1,
        );
        assert_eq!(
            text,
            format!(
                "Yes: rotating query and key by their positions' angles leaves only the angles' difference in the score: moving both by Δ changes it by at most {} in float64 (blue); float32 rounding (orange) grows from {} at Δ\u{a0}=\u{a0}1 to {} at Δ\u{a0}=\u{a0}1e5.",
                format_number(f64_max),
                format_number(f32_first),
                format_number(f32_last)
            )
        );
        assert!(f32_last > 100.0 * f64_max, "{text}");
        assert!(words(&text) <= 60, "{text}");
        let one = rope::compute(1, 10_000.0, 1).unwrap();
        assert_eq!(
            rope(&one),
            "d = 1 has no pair of dimensions to rotate: RoPE needs d ≥ 2."
        );
        // A float64 residual as large as float32's is no longer rounding.
        let mut lifted = stats.clone();
        for point in &mut lifted.shift_residual_f64_curve {
            point.1 = 1e-3;
        }
        assert!(rope(&lifted).starts_with(
            "Not here: moving query and key together by Δ changes their score by up to 0.0010 in float64 (blue), more than rounding;"
        ));
        assert_eq!(format_shift(100), "100");
        assert_eq!(format_shift(10_000), "1e4");
    }

    #[test]
    fn extension_states_the_charts_slowest_and_fastest_pair() {
        let stats = extension::compute(32, 10_000.0, 4.0, 2048).unwrap();
        let text = extension(&stats);
        assert_eq!(
            text,
            "To read s·L positions with angles the model has seen, the methods lower frequencies: at pair 15, the slowest (right), all three multiply its frequency by 0.2500; at pair 0, the fastest, NTK-aware and YaRN keep it (1), PI multiplies it by 0.2500 too."
        );
        assert!(words(&text) <= 60);
        // A small base: every pair turns within L, so YaRN keeps the slowest one.
        let fast = extension::compute(32, 10.0, 4.0, 2048).unwrap();
        let text = extension(&fast);
        assert!(
            text.contains("PI and NTK-aware multiply its frequency by 0.2500, YaRN by 1;"),
            "{text}"
        );
        // s = 1: nothing changes, and the sentence does not say the methods lower anything.
        let same = extension::compute(32, 10_000.0, 1.0, 2048).unwrap();
        let text = extension(&same);
        assert!(
            text.starts_with("With s = 1 there is nothing to stretch: at pair 15")
                && text.ends_with("PI multiplies it by 1, NTK-aware by 1, YaRN by 1."),
            "{text}"
        );
        let odd = extension::compute(3, 10_000.0, 4.0, 2048).unwrap();
        assert!(extension(&odd).starts_with("A rotary dimension of 2 has fewer than two pairs"));
        // "lower frequencies … with angles the model has seen": no method raises a frequency,
        // and at s·L each method's slowest pair turns no farther than in training, unless it
        // turned fully within L (then every angle was seen).
        for (base, s) in [
            (10_000.0, 4.0),
            (10.0, 4.0),
            (500_000.0, 16.0),
            (10_000.0, 1.5),
        ] {
            let stats = extension::compute(32, base, s, 2048).unwrap();
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

    #[test]
    fn alibi_compares_the_first_and_the_last_heads_bias() {
        let stats = alibi::compute(8, 2048);
        let text = alibi(&stats);
        assert_eq!(
            text,
            "Through the scores: each head adds −m·(i\u{a0}−\u{a0}j), a rule with no table that holds at any length: head 0 (m = 0.5000) falls to −5.500 at 11 keys back, head 7 (m = 0.0039) only to −0.0430: it reads farther."
        );
        assert!(
            alibi(&alibi::compute(1, 2048)).starts_with("Through the scores: the single head adds")
        );
        assert!(words(&text) <= 45);
    }

    #[test]
    fn t5_counts_buckets_and_says_where_the_last_one_starts() {
        let stats = t5::compute(160).unwrap();
        let text = t5(&stats);
        assert!(
            text.starts_with(&format!(
                "Yes: T5 learns one number per offset bucket, one per distance below 8, wider buckets farther out: over δ = −160 … 160 the encoder uses {} of its 32 buckets; every distance ≥ 91",
                stats.distinct_buckets
            )),
            "{text}"
        );
        assert!(text.contains("(15 before the query, 31 after)"));
        let short = t5(&t5::compute(8).unwrap());
        assert_eq!(
            short,
            "Yes: T5 learns one number per offset bucket, one per distance below 8, wider buckets farther out: over δ = −8 … 8 the encoder uses 17 of its 32 buckets; no distance shown reaches 91, from where all share their direction's last bucket."
        );
        assert!(words(&text) <= 60);
        // "one bucket each for distances below 8, wider ones farther out": the encoder's buckets
        // of δ = 0 … 7 all differ; past them several distances share one.
        let bucket = |delta: i64| stats.buckets[(delta + stats.range as i64) as usize];
        let near: std::collections::BTreeSet<usize> = (0..8).map(bucket).collect();
        assert_eq!((stats.max_exact, near.len()), (8, 8));
        assert_eq!(bucket(20), bucket(21));
    }

    #[test]
    fn shaw_counts_the_tables_rows() {
        let tokens: Vec<String> = "I would like 3 oranges and 4 bananas"
            .split(' ')
            .map(str::to_string)
            .collect();
        let stats = shaw::compute(&tokens, 60, 32, 10_000.0, 4, 1, true)
            .unwrap()
            .stats;
        assert_eq!(
            shaw(&stats),
            "Yes: one learned vector per offset, added to the keys: the table has 2k + 1 = 9 rows, one per offset −4 … 4, and every offset beyond ±4 reuses an end row, so any length works."
        );
        let wide = shaw::compute(&tokens, 60, 32, 10_000.0, 64, 1, true)
            .unwrap()
            .stats;
        assert!(shaw(&wide).contains("the table has 2k + 1 = 129 rows"));
    }

    #[test]
    fn learned_says_which_positions_have_a_row() {
        let stats = learned::compute(32, 60, 10_000.0, 512, 1).unwrap().stats;
        assert_eq!(
            learned(&stats),
            "Yes, up to a length: E has rows for positions 0–511 only, so the page's 60 positions fit but position 512 has none, where the sinusoid still gives p_512."
        );
        let one = learned::compute(32, 1, 10_000.0, 512, 1).unwrap().stats;
        assert!(learned(&one).contains("the page's 1 position fits but position 512 has none"));
        let short = learned::compute(32, 60, 10_000.0, 1, 1).unwrap().stats;
        assert_eq!(
            learned(&short),
            "Yes, up to a length: E has a row for position 0 only, so of the page's n = 60 positions 59 have none, from position 1 on; the sinusoid gives every position a row."
        );
    }

    /// The numbers of a sentence (runs of digits and decimal points), sorted: the same in every
    /// language, whatever its word order.
    fn numbers(text: &str) -> Vec<String> {
        let mut sorted: Vec<String> = text
            .split(|c: char| !c.is_ascii_digit() && c != '.')
            .map(|run| run.trim_matches('.'))
            .filter(|run| !run.is_empty())
            .map(str::to_string)
            .collect();
        sorted.sort();
        sorted
    }

    #[test]
    fn the_chinese_takeaways_state_the_same_numbers() {
        use crate::model::messages::{install_source, use_english, Computed};
        let extension_stats = extension::compute(32, 10_000.0, 4.0, 2048).unwrap();
        let alibi_stats = alibi::compute(8, 2048);
        let t5_stats = t5::compute(160).unwrap();
        let nope_stats = nope::compute(60);
        let rope_stats = rope::compute(32, 10_000.0, 1).unwrap();
        let same = extension::compute(32, 10_000.0, 1.0, 2048).unwrap();
        let short = t5::compute(8).unwrap();
        let tokens: Vec<String> = "I would like 3 oranges and 4 bananas"
            .split(' ')
            .map(str::to_string)
            .collect();
        let shaw_stats = shaw::compute(&tokens, 60, 32, 10_000.0, 4, 1, true)
            .unwrap()
            .stats;
        let fit = learned::compute(32, 60, 10_000.0, 512, 1).unwrap().stats;
        let beyond = learned::compute(32, 60, 10_000.0, 40, 1).unwrap().stats;
        let single = alibi::compute(1, 2048);
        let sentences = || {
            vec![
                extension(&extension_stats),
                alibi(&alibi_stats),
                t5(&t5_stats),
                nope(&nope_stats),
                rope(&rope_stats),
                extension(&same),
                t5(&short),
                shaw(&shaw_stats),
                learned(&fit),
                learned(&beyond),
                alibi(&single),
            ]
        };
        let english = sentences();
        install_source::<Computed>("zh", include_str!("../../locales/computed/zh.ftl")).unwrap();
        let chinese = sentences();
        use_english::<Computed>();
        assert_eq!(sentences(), english);
        assert!(
            chinese[0].starts_with(
                "为了用模型见过的角度读取 s·L 个位置，这些方法降低频率：在第 15 个列对（最慢的一对，在右端），三种方法都把它的频率乘以 0.2500；"
            ),
            "{}",
            chinese[0]
        );
        for (zh, en) in chinese.iter().zip(&english) {
            assert!(
                zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
                "{zh}"
            );
            assert_eq!(numbers(zh), numbers(en), "{zh}\n{en}");
        }
    }

    #[test]
    fn nope_states_one_over_t_against_one_over_n() {
        let text = nope(&nope::compute(60));
        assert_eq!(
            text,
            "Yes, in principle: with the causal mask position t sees only t tokens and can count them, outputting 1/t (1.000 at t = 1 down to 0.0167 at t = 60), a different value at each; without the mask every position gets 1/60 = 0.0167."
        );
        assert!(nope(&nope::compute(1)).starts_with("With one position the output is 1.000"));
        assert!(nope(&nope::compute(2)).contains("0.5000 at t = 2"));
    }
}
