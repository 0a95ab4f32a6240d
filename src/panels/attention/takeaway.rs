//! The attention panel's takeaway: it first answers the panel's question in words (what Q, K and
//! V are, why the order is lost without position), then gives the live numbers of the map beside
//! it as the evidence, and says what does hold where the usual conclusion does not (a mask on
//! every key, one token), so it can never disagree with the figure. The sentences are messages of
//! `locales/computed` (`takeaway-attention-…`). Tested natively; the view writes it above its
//! "More".

use crate::math::layer::ProjectionMode;
use crate::model::present::format_number;

/// Rows whose weights are this close to 1 are said to sum to 1 (float32 rounding of n terms).
pub(crate) const ROW_SUM_TOLERANCE: f64 = 1e-5;

/// A weight to 2–4 significant digits: 0.5346, 1, 0.125.
fn weight(x: f64) -> String {
    if x == 1.0 {
        "1".into()
    } else {
        format_number(x)
    }
}

/// "every row sums to 1" or, if rounding ever broke it, what was measured.
pub(crate) fn rows_sum(row_sum_error: f64) -> String {
    if row_sum_error <= ROW_SUM_TOLERANCE {
        crate::message!("takeaway-attention-rows-sum-to-one")
    } else {
        crate::message!(
            "takeaway-attention-rows-do-not-sum",
            error = format!("{row_sum_error:.1e}")
        )
    }
}

/// What the attention panel's takeaway reads: the map as drawn and how it was made.
#[derive(Debug, Clone, Copy)]
pub struct AttentionTakeaway<'a> {
    /// The map's row and column names (tokens, or positions for the offset head).
    pub tokens: &'a [String],
    /// weights[query][key], n × n.
    pub weights: &'a [Vec<f32>],
    pub valid_len: Option<usize>,
    pub mode: ProjectionMode,
    /// Whether position enters the layer at all (any family, not `none`).
    pub has_position: bool,
    pub row_sum_error: f64,
    /// The offset head's δ and its hit rate on P alone (`None`: no query has a key δ away).
    pub delta: i64,
    pub offset_hit_rate: Option<f64>,
}

/// The answer to "What exactly are Q, K and V?" that starts every attention takeaway: what the
/// map's weights do (`on_positions`: the rows are positions, P alone).
fn idea(on_positions: bool) -> String {
    crate::message!(
        "takeaway-attention-idea",
        input = if on_positions { "positions" } else { "words" }
    )
}

/// A weight as a percentage of a row: whole numbers, with as many decimals as it takes not to
/// round a weight that is not 0 or 1 to 0% or 100% (99.6, 0.4).
pub fn percent(x: f64) -> String {
    if x >= 1.0 {
        return "100".into();
    }
    if x <= 0.0 {
        return "0".into();
    }
    // Read from the digits written (no float parser in the page: it is kilobytes of wasm).
    let p = 100.0 * x;
    for decimals in 0..=4 {
        let text = format!("{p:.decimals$}");
        let zero = text.chars().all(|c| c == '0' || c == '.');
        let hundred = text
            .strip_prefix("100")
            .is_some_and(|rest| rest.chars().all(|c| c == '0' || c == '.'));
        if !zero && !hundred {
            return text;
        }
    }
    format!("{p:.2e}")
}

/// The attention panel's takeaway without tokens.
pub fn empty() -> String {
    crate::message!("takeaway-attention-no-tokens", idea = idea(false))
}

/// The attention panel's takeaway: what a weight is (the answer to "what are Q, K and V?"), how
/// much of its output the strongest pair's word takes from the other, that each row sums to 1,
/// what the mask changes, and why the word order is lost without position.
pub fn takeaway(t: &AttentionTakeaway) -> String {
    let n = t.tokens.len();
    if n == 0 {
        return empty();
    }
    let on_positions = t.mode == ProjectionMode::Offset;
    if n == 1 {
        return crate::message!(
            "takeaway-attention-one-token",
            idea = idea(on_positions),
            token = &t.tokens[0],
            weight = weight(
                t.weights
                    .first()
                    .and_then(|r| r.first())
                    .map_or(0.0, |&w| f64::from(w))
            )
        );
    }
    if t.valid_len == Some(0) {
        return crate::message!(
            "takeaway-attention-all-masked",
            idea = idea(on_positions),
            weights = n * n,
            n = n
        );
    }
    let best = strongest(t.weights);
    let Some((q, k, w)) = best else {
        return crate::message!("takeaway-attention-no-weights");
    };
    let rows = rows_sum(t.row_sum_error);
    let mask = match t.valid_len {
        Some(v) if v + 1 == n => crate::message!("takeaway-attention-mask-one-key", key = v),
        Some(v) if v < n => {
            crate::message!("takeaway-attention-mask-keys", first = v, last = n - 1)
        }
        _ => String::new(),
    };
    match t.mode {
        ProjectionMode::Offset => match t.offset_hit_rate {
            Some(rate) => crate::message!(
                "takeaway-attention-offset",
                idea = idea(true),
                sign = if t.delta < 0 { "−" } else { "+" },
                delta = t.delta.unsigned_abs(),
                percent = format!("{:.0}", 100.0 * rate),
                weight = weight(f64::from(w)),
                rows = &rows,
                mask = &mask
            ),
            None => crate::message!(
                "takeaway-attention-offset-no-target",
                idea = idea(true),
                delta = t.delta,
                n = n,
                rows = &rows,
                mask = &mask
            ),
        },
        _ => strongest_pair(t, (q, k, w), &rows, &mask),
    }
}

/// The strongest weight of the whole map (the first in reading order on a tie): the cell the
/// takeaway names, ringed on the heatmap so that it can be found where its column's name is
/// thinned away.
pub fn strongest(weights: &[Vec<f32>]) -> Option<(usize, usize, f32)> {
    let mut best: Option<(usize, usize, f32)> = None;
    for (q, row) in weights.iter().enumerate() {
        for (k, &w) in row.iter().enumerate() {
            if best.map_or(true, |(_, _, b)| w > b) {
                best = Some((q, k, w));
            }
        }
    }
    best
}

/// The takeaway with words as rows and columns: what a weight is, the strongest pair as a share
/// of its word's output, what the projections change, and why the order is lost without
/// position (a mask, which cuts keys by their place, aside).
fn strongest_pair(
    t: &AttentionTakeaway,
    (q, k, w): (usize, usize, f32),
    rows: &str,
    mask: &str,
) -> String {
    let n = t.tokens.len();
    let (query, key) = (&t.tokens[q], &t.tokens[k]);
    let share = percent(f64::from(w));
    let pair = if q == k {
        crate::message!(
            "takeaway-attention-pair-self",
            query = query,
            percent = &share
        )
    } else {
        crate::message!(
            "takeaway-attention-pair",
            query = query,
            key = key,
            percent = &share
        )
    };
    let aside = if mask.is_empty() {
        String::new()
    } else {
        crate::message!("takeaway-attention-mask-aside")
    };
    let order = if t.has_position {
        crate::message!("takeaway-attention-order-some", aside = aside)
    } else {
        crate::message!("takeaway-attention-order-none", aside = aside)
    };
    let idea = idea(false);
    // "every row sums to 1" is what "averages" already says: stated only beside a mask, or
    // where a row does not sum to 1.
    let checks = if t.row_sum_error <= ROW_SUM_TOLERANCE && mask.is_empty() {
        String::new()
    } else {
        crate::message!("takeaway-attention-checks", rows = rows, mask = mask)
    };
    match t.mode {
        // Without projections every query is its own key: say how much stays on the diagonal.
        ProjectionMode::Identity => {
            let diagonal = (0..n)
                .filter_map(|i| t.weights.get(i).and_then(|r| r.get(i)))
                .map(|&w| f64::from(w))
                .sum::<f64>()
                / n as f64;
            crate::message!(
                "takeaway-attention-strongest-identity",
                idea = idea,
                diagonal = percent(diagonal),
                pair = pair,
                checks = &checks,
                order = order
            )
        }
        // Random projections are an untrained layer: the strongest pair means nothing.
        ProjectionMode::Random => crate::message!(
            "takeaway-attention-strongest-untrained",
            idea = idea,
            pair = pair,
            checks = &checks,
            order = order
        ),
        ProjectionMode::Offset => crate::message!(
            "takeaway-attention-strongest",
            idea = idea,
            pair = pair,
            checks = &checks,
            order = order
        ),
    }
}

/// What the takeaway reads for a map of `tokens` with these weights, of a layer with random
/// projections and P whose rows sum to 1 (a case of the takeaway tests).
#[cfg(test)]
pub(crate) fn attention_case<'a>(
    tokens: &'a [String],
    weights: &'a [Vec<f32>],
    valid_len: Option<usize>,
) -> AttentionTakeaway<'a> {
    AttentionTakeaway {
        tokens,
        weights,
        valid_len,
        mode: ProjectionMode::Random,
        has_position: true,
        row_sum_error: 8e-8,
        delta: 1,
        offset_hit_rate: Some(1.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::position::{Encoding, PositionScheme};
    use crate::math::sentence::{sentence_attention, LayerChoice};

    /// A sentence's tokens (split at spaces).
    use crate::model::sentence_checks::tokens_of;

    /// The page's default base.
    const DEFAULT_BASE: f64 = 10_000.0;

    /// The answer to "What exactly are Q, K and V?" that starts every attention takeaway.
    const IDEA: &str =
        "Each word's output averages the values V, weighted by how well its query Q matches each key K";

    #[test]
    fn attention_answers_both_questions_then_gives_the_strongest_share() {
        let tokens = tokens_of("the cat sat");
        let w = vec![
            vec![0.2, 0.5, 0.3],
            vec![0.1, 0.1, 0.8],
            vec![0.3, 0.3, 0.4],
        ];
        let text = takeaway(&attention_case(&tokens, &w, None));
        assert_eq!(
            text,
            format!("{IDEA}: in this untrained layer “cat” takes 80% from “sat” (ringed). Without P they would ignore word order.")
        );
        // The share is the strongest weight of the map, as a percentage.
        let (q, k, strongest_weight) = strongest(&w).unwrap();
        assert_eq!((q, k), (1, 2));
        assert_eq!(percent(f64::from(strongest_weight)), "80");
        let masked = vec![
            vec![0.6, 0.4, 0.0],
            vec![0.3, 0.7, 0.0],
            vec![0.5, 0.5, 0.0],
        ];
        let text = takeaway(&attention_case(&tokens, &masked, Some(2)));
        assert!(
            text.contains("(every row sums to 1; key 2 is masked to exactly 0): in this untrained layer “cat” takes 70% from itself (ringed)."),
            "{text}"
        );
        // A mask cuts keys by their place: the order claim says so.
        assert!(
            text.ends_with("ignore word order (the mask aside)."),
            "{text}"
        );
        let no_p = AttentionTakeaway {
            has_position: false,
            ..attention_case(&tokens, &w, None)
        };
        assert!(takeaway(&no_p).ends_with("Without P, as here, the weights ignore word order."));
        let identity = AttentionTakeaway {
            mode: ProjectionMode::Identity,
            ..attention_case(&tokens, &w, None)
        };
        // The diagonal's mean: (0.2 + 0.1 + 0.4)/3 = 0.2333.
        let text = takeaway(&identity);
        assert!(
            text.contains("with Q = K = V = Z each word takes on average 23% of its output from itself, and “cat” takes 80% from “sat” (ringed)."),
            "{text}"
        );
        let broken = AttentionTakeaway {
            row_sum_error: 0.3,
            ..attention_case(&tokens, &w, None)
        };
        assert!(takeaway(&broken).contains("(the rows do NOT all sum to 1 (error 3.0e-1))"));
    }

    /// The default sentence's layer, with or without P, on the sentence or on it with "3" and "4"
    /// swapped (the order panel's example): the weights.
    fn layer_weights(tokens: &[String], position: bool, valid_len: Option<usize>) -> Vec<Vec<f32>> {
        let encoding = if position {
            Encoding::Sinusoidal
        } else {
            Encoding::None
        };
        let choice = LayerChoice {
            d: 32,
            base: DEFAULT_BASE,
            positional_encoding: position,
            scale_embeddings: true,
            mode: ProjectionMode::Random,
            seed: 1,
            delta: 1,
            beta: 1.0,
            position: PositionScheme::new(encoding, DEFAULT_BASE, 1),
        };
        let layer = sentence_attention(tokens, &choice, &choice.projections(), valid_len).unwrap();
        layer
            .weights()
            .rows()
            .into_iter()
            .map(|r| r.to_vec())
            .collect()
    }

    /// The largest |w'[π(i)][π(j)] − w[i][j]| for a permutation π that swaps `a` and `b`.
    fn gap_under_swap(w: &[Vec<f32>], swapped: &[Vec<f32>], (a, b): (usize, usize)) -> f32 {
        let pi = |i: usize| match i {
            i if i == a => b,
            i if i == b => a,
            i => i,
        };
        let mut gap = 0.0f32;
        for (i, row) in w.iter().enumerate() {
            for (j, &x) in row.iter().enumerate() {
                gap = gap.max((swapped[pi(i)][pi(j)] - x).abs());
            }
        }
        gap
    }

    #[test]
    fn the_order_clause_holds_in_the_layer_itself() {
        // "Without position the weight of one word on another depends only on the words, never on
        // their order (the mask aside)": the panel's layer, the default sentence and the swap of
        // "3" and "4" (positions 3 and 6).
        let sentence = tokens_of("I would like 3 oranges and 4 bananas");
        let swapped = tokens_of("I would like 4 oranges and 3 bananas");
        let swap = (3, 6);
        let without = gap_under_swap(
            &layer_weights(&sentence, false, None),
            &layer_weights(&swapped, false, None),
            swap,
        );
        assert!(without < 1e-5, "without P: {without}");
        // With P the same swap changes the weights: the layer sees the order.
        let with = gap_under_swap(
            &layer_weights(&sentence, true, None),
            &layer_weights(&swapped, true, None),
            swap,
        );
        assert!(with > 1e-3, "with P: {with}");
        // A mask (keys ≥ 5) is set by place: swapping a seen key with a masked one changes the
        // weights even without P, hence "(the mask aside)".
        let masked = gap_under_swap(
            &layer_weights(&sentence, false, Some(5)),
            &layer_weights(&swapped, false, Some(5)),
            swap,
        );
        assert!(masked > 1e-3, "masked, without P: {masked}");
    }

    #[test]
    fn a_share_never_rounds_to_0_or_100_percent_unless_it_is() {
        assert_eq!(percent(0.5346), "53");
        assert_eq!(percent(0.9962), "99.6");
        assert_eq!(percent(0.99999), "99.999");
        assert_eq!(percent(0.0004), "0.04");
        assert_eq!(percent(1.0), "100");
        assert_eq!(percent(0.0), "0");
        assert_eq!(percent(0.125), "12");
    }

    #[test]
    fn attention_at_the_extremes_says_what_holds() {
        let tokens = tokens_of("a b c d");
        let uniform = vec![vec![0.25; 4]; 4];
        let text = takeaway(&attention_case(&tokens, &uniform, Some(0)));
        assert_eq!(
            text,
            format!("{IDEA}; with every key masked every score is −10⁶, so each row is uniform: all 16 weights are 1/4.")
        );
        let one = tokens_of("solo");
        let text = takeaway(&attention_case(&one, &[vec![1.0]], None));
        assert_eq!(
            text,
            format!("{IDEA}: one token, “solo”, can attend only to itself (weight 1).")
        );
        assert_eq!(
            takeaway(&attention_case(&[], &[], None)),
            format!("{IDEA}: type a sentence to see the weights.")
        );
        let offset = AttentionTakeaway {
            mode: ProjectionMode::Offset,
            offset_hit_rate: Some(0.75),
            ..attention_case(&tokens, &uniform, None)
        };
        let text = takeaway(&offset);
        assert!(
            text.starts_with("Each position's output averages the values V"),
            "{text}"
        );
        assert!(
            text.ends_with("(every row sums to 1): on P alone, with no words, the offset head makes key i + 1 the strongest for 75% of the queries that have one (strongest weight 0.2500)."),
            "{text}"
        );
        let back = AttentionTakeaway {
            delta: -3,
            ..offset
        };
        assert!(takeaway(&back).contains("key i − 3 the strongest"));
        let none = AttentionTakeaway {
            offset_hit_rate: None,
            delta: 9,
            ..offset
        };
        assert!(takeaway(&none).contains("no query has a key δ = 9 away in 4 positions"));
    }
}
