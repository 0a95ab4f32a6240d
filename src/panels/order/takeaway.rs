//! The order panel's takeaway, from its measured gaps: without P the outputs are the permuted
//! rows up to rounding, with P they differ, or what holds instead at this setting. The sentences
//! are messages of `locales/computed` (`takeaway-order-…`). Tested natively; the view writes it
//! above its "More".

use super::is_rounding;
use crate::model::present::format_number;

/// The order panel's one sentence, from its measured gaps: without P the outputs are the
/// permuted rows up to rounding, with P they differ — or what holds instead at this setting.
pub fn takeaway(
    tokens: usize,
    moves: bool,
    without: f64,
    with: f64,
    bound: f64,
    family: &str,
) -> String {
    if tokens == 0 {
        return crate::message!("takeaway-order-no-tokens");
    }
    if !moves {
        return crate::message!("takeaway-order-nothing-moved");
    }
    let bound_text = format!("{bound:.1e}");
    let without_text = if is_rounding(without, bound) {
        crate::message!("takeaway-order-without-rounding", bound = &bound_text)
    } else {
        crate::message!(
            "takeaway-order-without-differs",
            gap = format_number(without),
            bound = &bound_text
        )
    };
    let with_text = if is_rounding(with, bound) {
        crate::message!("takeaway-order-with-rounding", family = family)
    } else {
        crate::message!(
            "takeaway-order-with-differs",
            family = family,
            gap = format_number(with)
        )
    };
    crate::message!("takeaway-order", without = without_text, with = with_text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::sentence_checks::numbers;
    use crate::panels::order::rounding_bound;

    #[test]
    fn the_takeaway_says_what_the_gaps_show() {
        let bound = rounding_bound(8, 32, 1.0);
        assert_eq!(
            takeaway(8, true, 2.4e-7, 1.234, bound, "P"),
            "The rows are in order only because the input is: without P, shuffling the words just shuffles the output rows, Y(πX) = πY(X) up to rounding (4.8e-6), so the layer cannot see the order; with P the rows differ by up to 1.234: it sees the order."
        );
        // "cannot see the order" only where the gap is rounding, "sees the order" only where
        // it is more.
        assert!(is_rounding(2.4e-7, bound) && !is_rounding(1.234, bound));
        assert_eq!(
            takeaway(8, false, 0.0, 0.0, bound, "P"),
            "The rows are in order only because the input is: without P, shuffling the words just shuffles the rows. Nothing is moved yet: press Swap or Shuffle."
        );
        assert!(takeaway(0, false, 0.0, 0.0, bound, "P")
            .ends_with("type a sentence in the attention panel to test the layer."));
        let odd = takeaway(8, true, 0.5, 1e-9, bound, "RoPE");
        assert_eq!(
            odd,
            "Without P, shuffling the words should just shuffle the output rows, yet Y(πX) and πY(X) differ by up to 0.5000, more than rounding (4.8e-6); with RoPE the gap is within rounding too."
        );
    }

    #[test]
    fn in_chinese_the_takeaway_states_the_same_numbers() {
        use crate::model::messages::{install_source, use_english, Computed};
        let bound = rounding_bound(8, 32, 1.0);
        let sentences = || {
            vec![
                takeaway(8, true, 2.4e-7, 1.234, bound, "P"),
                takeaway(8, true, 0.5, 1e-9, bound, "RoPE"),
                takeaway(8, false, 0.0, 0.0, bound, "P"),
            ]
        };
        let english = sentences();
        install_source::<Computed>("zh", include_str!("../../../locales/computed/zh.ftl")).unwrap();
        let chinese = sentences();
        use_english::<Computed>();
        for (en, zh) in english.iter().zip(&chinese) {
            assert!(
                zh.starts_with("各行之所以有顺序") || zh.starts_with("没有 P 时"),
                "{zh}"
            );
            assert_eq!(numbers(en), numbers(zh), "{en}\n{zh}");
        }
    }
}
