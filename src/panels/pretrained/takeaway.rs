//! The pretrained panel's takeaway: the reader's question ("can't we remove the need for this
//! layer by learning the positional encoding?") answered on a model that did learn its encoding,
//! from the numbers of the reader's sentence: which heads attend by position, how many of them
//! lose that pattern when the table's rows are zero, and whether, without the table, reversing
//! the words only reverses the attention. The sentences are messages of `locales/training` (the
//! catalog of the panels whose code loads lazily).

use super::{offset_name, PositionHead};
use crate::model::present::format_number;

/// Below this, two runs' weights differ by float32 rounding only (they are at most 1).
pub const ROUNDING: f64 = 1e-5;

/// What the takeaway is written from.
#[derive(Debug, Clone, Copy)]
pub struct TakeawayInputs<'a> {
    /// Whether the shown run adds the table (`ptable`).
    pub position_table: bool,
    pub total_heads: usize,
    /// The sentence's tokens, `[CLS]` and `[SEP]` included.
    pub tokens: usize,
    /// The heads that attend by position with the table (largest fall first).
    pub position_heads: &'a [PositionHead],
    /// max |A(πX) − πA(X)π⊤| with the words reversed, without the table and with it.
    pub gap_without_table: f64,
    pub gap_with_table: f64,
    /// Whether the reversal moves any token (a sentence of one word does not).
    pub reversal_moves: bool,
}

/// One head, as the sentences name it: "layer 0, head 2 (the previous token: 1.00 → 0.11)".
pub fn head_words(head: &PositionHead) -> String {
    crate::training_message!(
        "pretrained-head",
        layer = head.layer,
        head = head.head,
        offset = offset_name(head.offset),
        with = format!("{:.2}", head.with_table),
        without = format!("{:.2}", head.without_table)
    )
}

/// The takeaway for one sentence: with the table, the answer and the heads that lose their
/// pattern without it; without the table, the order-blindness first (the reversal), then the same
/// heads.
pub fn takeaway(inputs: &TakeawayInputs) -> String {
    let heads = inputs.position_heads;
    let lost: Vec<&PositionHead> = heads.iter().filter(|h| h.lost()).collect();
    let pattern = match (heads.first(), lost.first()) {
        (None, _) if inputs.tokens < super::MIN_TOKENS => crate::training_message!(
            "pretrained-too-short",
            tokens = inputs.tokens,
            least = super::MIN_TOKENS
        ),
        (None, _) => crate::training_message!("pretrained-no-position-heads"),
        (Some(_), Some(example)) => crate::training_message!(
            "pretrained-heads-lost",
            heads = heads.len(),
            total = inputs.total_heads,
            lost = lost.len(),
            example = head_words(example)
        ),
        (Some(example), None) => crate::training_message!(
            "pretrained-heads-kept",
            heads = heads.len(),
            total = inputs.total_heads,
            example = head_words(example)
        ),
    };
    if inputs.position_table {
        return [
            crate::training_message!("pretrained-opening-table"),
            pattern,
        ]
        .join(&crate::training_message!("train-sentence-separator"));
    }
    let order = if !inputs.reversal_moves {
        crate::training_message!("pretrained-opening-zeroed")
    } else if inputs.gap_without_table < ROUNDING {
        crate::training_message!(
            "pretrained-order-blind",
            without = format_number(inputs.gap_without_table)
        )
    } else {
        crate::training_message!(
            "pretrained-order-gap",
            without = format_number(inputs.gap_without_table),
            with = format!("{:.2}", inputs.gap_with_table)
        )
    };
    [order, pattern].join(&crate::training_message!("train-sentence-separator"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::sentence_checks::numbers;

    fn head(layer: usize, head: usize, offset: i64, with: f64, without: f64) -> PositionHead {
        PositionHead {
            layer,
            head,
            offset,
            with_table: with,
            without_table: without,
        }
    }

    fn inputs<'a>(position_table: bool, heads: &'a [PositionHead], gap: f64) -> TakeawayInputs<'a> {
        TakeawayInputs {
            position_table,
            total_heads: 72,
            tokens: 16,
            position_heads: heads,
            gap_without_table: gap,
            gap_with_table: 0.93,
            reversal_moves: true,
        }
    }

    #[test]
    fn the_answer_comes_first_and_the_numbers_are_the_runs() {
        let heads = [head(0, 2, -1, 0.999, 0.11), head(1, 8, 1, 0.61, 0.45)];
        let text = takeaway(&inputs(true, &heads, 3e-7));
        assert!(
            text.starts_with("Learning the encoding does not remove the need for it"),
            "{text}"
        );
        assert!(text.contains("2 of its 72 heads"), "{text}");
        assert!(text.contains("1 of them"), "{text}");
        assert!(text.contains("layer 0, head 2"), "{text}");
        assert!(text.contains("the previous token"), "{text}");
        let found = numbers(&text);
        for expected in ["1.00", "0.11"] {
            assert!(found.iter().any(|x| x == expected), "{expected} in {text}");
        }
        assert!(
            !text.contains("revers"),
            "the reversal is the zeroed table's: {text}"
        );
    }

    #[test]
    fn without_the_table_it_says_the_model_is_blind_to_order() {
        let heads = [head(0, 2, -1, 0.999, 0.11)];
        let text = takeaway(&inputs(false, &heads, 2e-7));
        assert!(text.starts_with("Without its position table"), "{text}");
        assert!(text.contains("reversing the words only reverses"), "{text}");
        assert!(text.contains("rounding"), "{text}");
        assert!(text.contains("layer 0, head 2"), "{text}");
    }

    #[test]
    fn a_gap_above_rounding_is_not_called_rounding() {
        let heads = [head(0, 2, -1, 0.999, 0.11)];
        let text = takeaway(&inputs(false, &heads, 0.02));
        assert!(!text.contains("rounding"), "{text}");
        assert!(text.contains("0.02"), "{text}");
    }

    #[test]
    fn no_lost_head_and_no_position_head_are_said_as_they_are() {
        let kept = [head(1, 8, 1, 0.61, 0.45)];
        let text = takeaway(&inputs(true, &kept, 1e-7));
        assert!(text.contains("none of them loses"), "{text}");
        let text = takeaway(&inputs(true, &[], 1e-7));
        assert!(text.contains("no head"), "{text}");
        let mut short = inputs(true, &[], 1e-7);
        short.tokens = 3;
        let text = takeaway(&short);
        assert!(text.contains("too short") && text.contains('3'), "{text}");
        let mut one_word = inputs(true, &kept, 0.0);
        one_word.reversal_moves = false;
        one_word.position_table = false;
        assert!(!takeaway(&one_word).contains("revers"));
    }
}
