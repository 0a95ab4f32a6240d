//! The alibi panel's takeaway: it first answers the panel's question, then states the figure's
//! conclusion with the live numbers that show it, computed from the panel's own stats so that it
//! cannot disagree with its read-outs. Tested natively; the view writes it above its "More".

use super::{AlibiStats, SHOWN_POSITIONS};
use crate::model::present::format_number;

/// ALiBi: what the main figure (each head's bias matrix, −m·(i − j) over the first
/// SHOWN_POSITIONS positions) shows: the first head's bias falls steeply with the distance, the
/// last head's barely, and the bias alone decides how far back a head reads.
pub fn takeaway(stats: &AlibiStats) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::sentence_checks::words;

    #[test]
    fn alibi_compares_the_first_and_the_last_heads_bias() {
        let stats = super::super::compute(8, 2048);
        let text = takeaway(&stats);
        assert_eq!(
            text,
            "Through the scores: each head adds −m·(i\u{a0}−\u{a0}j), a rule with no table that holds at any length: head 0 (m = 0.5000) falls to −5.500 at 11 keys back, head 7 (m = 0.0039) only to −0.0430: it reads farther."
        );
        assert!(takeaway(&super::super::compute(1, 2048))
            .starts_with("Through the scores: the single head adds"));
        assert!(words(&text) <= 45);
    }
}
