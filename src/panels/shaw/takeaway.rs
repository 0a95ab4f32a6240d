//! The shaw panel's takeaway: it first answers the panel's question, then states the figure's
//! conclusion with the live numbers that show it, computed from the panel's own stats so that it
//! cannot disagree with its read-outs. Tested natively; the view writes it above its "More".

use super::ShawStats;

/// Shaw: what the main figure (the key table) shows: 2k + 1 rows; offsets beyond ±k share
/// the end rows.
pub fn takeaway(stats: &ShawStats) -> String {
    let (clip, rows) = (stats.clip, stats.table_rows);
    crate::message!("takeaway-shaw", rows = rows, clip = clip)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shaw_counts_the_tables_rows() {
        let tokens: Vec<String> = "I would like 3 oranges and 4 bananas"
            .split(' ')
            .map(str::to_string)
            .collect();
        let stats = super::super::compute(&tokens, 60, 32, 10_000.0, 4, 1, true)
            .unwrap()
            .stats;
        assert_eq!(
            takeaway(&stats),
            "Yes: one learned vector per offset, added to the keys: the table has 2k + 1 = 9 rows, one per offset −4 … 4, and every offset beyond ±4 reuses an end row, so any length works."
        );
        let wide = super::super::compute(&tokens, 60, 32, 10_000.0, 64, 1, true)
            .unwrap()
            .stats;
        assert!(takeaway(&wide).contains("the table has 2k + 1 = 129 rows"));
    }
}
