//! The learned panel's takeaway: it first answers the panel's question, then states the figure's
//! conclusion with the live numbers that show it, computed from the panel's own stats so that it
//! cannot disagree with its read-outs. Tested natively; the view writes it above its "More".

use super::LearnedStats;

/// The learned table: rows exist only below L_max.
pub fn takeaway(stats: &LearnedStats) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn learned_says_which_positions_have_a_row() {
        let stats = super::super::compute(32, 60, 10_000.0, 512, 1)
            .unwrap()
            .stats;
        assert_eq!(
            takeaway(&stats),
            "Yes, up to a length: E has rows for positions 0–511 only, so the page's 60 positions fit but position 512 has none, where the sinusoid still gives p_512."
        );
        let one = super::super::compute(32, 1, 10_000.0, 512, 1)
            .unwrap()
            .stats;
        assert!(takeaway(&one).contains("the page's 1 position fits but position 512 has none"));
        let short = super::super::compute(32, 60, 10_000.0, 1, 1).unwrap().stats;
        assert_eq!(
            takeaway(&short),
            "Yes, up to a length: E has a row for position 0 only, so of the page's n = 60 positions 59 have none, from position 1 on; the sinusoid gives every position a row."
        );
    }
}
