//! The t5 panel's takeaway: it first answers the panel's question, then states the figure's
//! conclusion with the live numbers that show it, computed from the panel's own stats so that it
//! cannot disagree with its read-outs. Tested natively; the view writes it above its "More".

use super::T5Stats;

/// T5: yes, one learned number per bucket of offsets (exact near the query, wider farther out);
/// how many buckets the shown distances use, and from where they share the last bucket.
pub fn takeaway(stats: &T5Stats) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::sentence_checks::words;

    #[test]
    fn t5_counts_buckets_and_says_where_the_last_one_starts() {
        let stats = super::super::compute(160).unwrap();
        let text = takeaway(&stats);
        assert!(
            text.starts_with(&format!(
                "Yes: T5 learns one number per offset bucket, one per distance below 8, wider buckets farther out: over δ = −160 … 160 the encoder uses {} of its 32 buckets; every distance ≥ 91",
                stats.distinct_buckets
            )),
            "{text}"
        );
        assert!(text.contains("(15 before the query, 31 after)"));
        let short = takeaway(&super::super::compute(8).unwrap());
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
}
