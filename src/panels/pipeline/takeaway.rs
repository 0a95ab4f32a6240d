//! The pipeline panel's takeaway: what Q, K and V are, then the shapes that flow through the
//! layer, head by head, and the rows' sums only where they fail. The sentences are messages of
//! `locales/computed` (`takeaway-pipeline-…`). Tested natively; the view writes it above its
//! "More".

use crate::panels::attention::takeaway::{rows_sum, ROW_SUM_TOLERANCE};

/// The pipeline panel's takeaway: what Q, K and V are, then the shapes that flow through the
/// layer, head by head.
pub fn takeaway(n: usize, d: usize, heads: usize, head_dim: usize, row_sum_error: f64) -> String {
    let idea = crate::message!("takeaway-pipeline-idea");
    if n == 0 {
        return crate::message!("takeaway-pipeline-no-tokens", idea = idea);
    }
    let takeaway = if heads <= 1 {
        crate::message!("takeaway-pipeline-one-head", idea = idea, n = n, d = d)
    } else {
        // Heads are taught at their own step of the lesson: the sentence points there.
        let step = crate::model::panels::PanelId::Heads
            .lesson_position()
            .map_or(0, |k| k + 1);
        crate::message!(
            "takeaway-pipeline-heads",
            idea = idea,
            n = n,
            d = d,
            heads = heads,
            head_dim = head_dim,
            step = step
        )
    };
    // The rows' sums are the attention panel's point; here they are said only where they fail
    // (the projector's step keeps the takeaway to two lines above its figure).
    if row_sum_error <= ROW_SUM_TOLERANCE {
        takeaway
    } else {
        crate::message!(
            "takeaway-pipeline-rows-fail",
            takeaway = takeaway,
            rows = rows_sum(row_sum_error)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pipeline_says_what_q_k_and_v_are_then_the_shapes() {
        let idea = "Q, K and V are Z times three separate matrices: what a word looks for, is found by, and passes on";
        assert_eq!(
            takeaway(8, 32, 4, 8, 8e-8),
            format!("{idea}. Here 4 heads (step 3) use 8 of the 32 columns each.")
        );
        // The heads' columns make up the layer's width: 4 × 8 = 32.
        assert_eq!(4 * 8, 32);
        assert_eq!(
            takeaway(1, 1, 1, 1, 0.0),
            format!("{idea}. Here one head uses Q, K and V whole (d = 1).")
        );
        // Rows that do not sum to 1 are said, with the error.
        assert_eq!(
            takeaway(8, 32, 4, 8, 0.02),
            format!("{idea}. Here 4 heads (step 3) use 8 of the 32 columns each. Beware: the rows do NOT all sum to 1 (error 2.0e-2).")
        );
        assert_eq!(
            takeaway(0, 32, 4, 8, 0.0),
            format!(
                "{idea}. Type a sentence in the attention panel to follow one through the layer."
            )
        );
    }
}
