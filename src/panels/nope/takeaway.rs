//! The nope panel's takeaway: it first answers the panel's question, then states the figure's
//! conclusion with the live numbers that show it, computed from the panel's own stats so that it
//! cannot disagree with its read-outs. Tested natively; the view writes it above its "More".

use super::NopeStats;
use crate::model::present::format_number;

/// NoPE: the causal mask gives position t the output 1/t; without it every position gets 1/n.
pub fn takeaway(stats: &NopeStats) -> String {
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

    #[test]
    fn nope_states_one_over_t_against_one_over_n() {
        let text = takeaway(&super::super::compute(60));
        assert_eq!(
            text,
            "Yes, in principle: with the causal mask position t sees only t tokens and can count them, outputting 1/t (1.000 at t = 1 down to 0.0167 at t = 60), a different value at each; without the mask every position gets 1/60 = 0.0167."
        );
        assert!(takeaway(&super::super::compute(1))
            .starts_with("With one position the output is 1.000"));
        assert!(takeaway(&super::super::compute(2)).contains("0.5000 at t = 2"));
    }
}
