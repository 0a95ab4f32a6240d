//! The one-sentence takeaways of the attention, pipeline, heads, complexity, scaling and stacking
//! panels: each states the figure's conclusion with the live numbers that show it, and says what
//! does hold where the usual conclusion does not (a mask on every key, one token, k = 1, d = 1 …),
//! so it can never disagree with the figure beside it. The sentences are messages of
//! `locales/computed` (`takeaway-…`).

use super::complexity::{format_count, ComplexityStats};
use super::present::format_number;
use super::stacking::COLLAPSED;
use crate::math::layer::ProjectionMode;

/// Rows whose weights are this close to 1 are said to sum to 1 (float32 rounding of n terms).
const ROW_SUM_TOLERANCE: f64 = 1e-5;

/// A weight to 2–4 significant digits: 0.5346, 1, 0.125.
fn weight(x: f64) -> String {
    if x == 1.0 {
        "1".into()
    } else {
        format_number(x)
    }
}

/// "every row sums to 1" or, if rounding ever broke it, what was measured.
fn rows_sum(row_sum_error: f64) -> String {
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

/// The attention panel's takeaway without tokens.
pub fn attention_empty() -> String {
    crate::message!("takeaway-attention-no-tokens")
}

/// The attention panel's takeaway: which key gets the strongest weight, that each row sums to 1,
/// and what the mask, the missing P or the chosen projections change.
pub fn attention(t: &AttentionTakeaway) -> String {
    let n = t.tokens.len();
    if n == 0 {
        return attention_empty();
    }
    if n == 1 {
        return crate::message!(
            "takeaway-attention-one-token",
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
        return crate::message!("takeaway-attention-all-masked", weights = n * n, n = n);
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
                sign = if t.delta < 0 { "−" } else { "+" },
                delta = t.delta.unsigned_abs(),
                percent = format!("{:.0}", 100.0 * rate),
                weight = weight(f64::from(w)),
                rows = &rows,
                mask = &mask
            ),
            None => crate::message!(
                "takeaway-attention-offset-no-target",
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

/// The takeaway with words as rows and columns: the strongest pair, and what the projections
/// and the missing position change.
fn strongest_pair(
    t: &AttentionTakeaway,
    (q, k, w): (usize, usize, f32),
    rows: &str,
    mask: &str,
) -> String {
    let n = t.tokens.len();
    let (query, key) = (&t.tokens[q], &t.tokens[k]);
    let pair = if q == k {
        crate::message!("takeaway-attention-pair-self", query = query)
    } else {
        crate::message!("takeaway-attention-pair", query = query, key = key)
    };
    let position = if t.has_position {
        String::new()
    } else {
        crate::message!("takeaway-attention-no-position")
    };
    let strongest = weight(f64::from(w));
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
                diagonal = format_number(diagonal),
                weight = strongest,
                pair = pair,
                rows = rows,
                mask = mask,
                position = position
            )
        }
        // Random projections are an untrained layer: the strongest pair means nothing.
        ProjectionMode::Random => crate::message!(
            "takeaway-attention-strongest-untrained",
            weight = strongest,
            pair = pair,
            rows = rows,
            mask = mask,
            position = position
        ),
        ProjectionMode::Offset => crate::message!(
            "takeaway-attention-strongest",
            weight = strongest,
            pair = pair,
            rows = rows,
            mask = mask,
            position = position
        ),
    }
}

/// The pipeline panel's takeaway: the shapes that flow through the layer, head by head.
pub fn pipeline(n: usize, d: usize, heads: usize, head_dim: usize, row_sum_error: f64) -> String {
    if n == 0 {
        return crate::message!("takeaway-pipeline-no-tokens");
    }
    let rows = rows_sum(row_sum_error);
    // Arrows read as the figure does, stage after stage, left to right.
    if heads <= 1 {
        return crate::message!("takeaway-pipeline-one-head", n = n, d = d, rows = rows);
    }
    crate::message!(
        "takeaway-pipeline-heads",
        n = n,
        d = d,
        heads = heads,
        head_dim = head_dim,
        rows = rows
    )
}

/// Which keys of a 4-token sequence a valid length masks, in words.
fn masked_keys(valid_len: usize, tokens: usize) -> String {
    match valid_len {
        0 => crate::message!("takeaway-heads-every-key"),
        v if v >= tokens => crate::message!("takeaway-heads-no-key"),
        v if v + 1 == tokens => crate::message!("takeaway-heads-key", key = v),
        v => crate::message!("takeaway-heads-keys", first = v, last = tokens - 1),
    }
}

/// The heads panel's takeaway: every head of a sequence masks the same keys (its own
/// `valid_len`), and how many maps `np.tile` would get wrong.
pub fn heads(valid_lens: &[usize], heads: usize, tokens: usize, wrong_with_tile: usize) -> String {
    // The second sequence's clause drops the repeated subject and verb ("all 4 of sequence 1
    // keys 2–3"), so the sentence stays short; the first starts the sentence (capitalised).
    let sequences: Vec<String> = valid_lens
        .iter()
        .enumerate()
        .map(|(b, &v)| {
            // d2l's masked_softmax on a fully masked row: equal scores, uniform weights.
            let uniform = if v == 0 {
                crate::message!("takeaway-heads-uniform")
            } else {
                String::new()
            };
            let keys = masked_keys(v, tokens);
            match (heads == 1, b == 0) {
                (true, true) => crate::message!(
                    "takeaway-heads-first-one-head",
                    sequence = b,
                    keys = keys,
                    valid_len = v,
                    uniform = uniform
                ),
                (true, false) => crate::message!(
                    "takeaway-heads-next-one-head",
                    sequence = b,
                    keys = keys,
                    valid_len = v,
                    uniform = uniform
                ),
                (false, true) => crate::message!(
                    "takeaway-heads-first",
                    heads = heads,
                    sequence = b,
                    keys = keys,
                    valid_len = v,
                    uniform = uniform
                ),
                (false, false) => crate::message!(
                    "takeaway-heads-next",
                    heads = heads,
                    sequence = b,
                    keys = keys,
                    valid_len = v,
                    uniform = uniform
                ),
            }
        })
        .collect();
    let sequences = sequences.join(&crate::message!("takeaway-heads-clause-separator"));
    let tile = if wrong_with_tile == 0 {
        crate::message!("takeaway-heads-tile-changes-nothing")
    } else {
        crate::message!(
            "takeaway-heads-tile-wrong",
            wrong = wrong_with_tile,
            maps = valid_lens.len() * heads
        )
    };
    crate::message!("takeaway-heads", sequences = sequences, tile = tile)
}

/// The complexity panel's takeaway: which layer needs fewest operations at this n, d and k, and
/// the three maximum path lengths.
pub fn complexity(stats: &ComplexityStats) -> String {
    let (n, d, k) = (stats.n, stats.d, stats.k);
    // Names as the catalog's selects have them.
    let layers = [
        ("attention", stats.self_attention.operations),
        ("rnn", stats.rnn.operations),
        ("cnn", stats.cnn.operations),
    ];
    let fewest = layers
        .iter()
        .map(|&(_, ops)| ops)
        .fold(f64::INFINITY, f64::min);
    let winners: Vec<&str> = layers
        .iter()
        .filter(|&&(_, ops)| ops == fewest)
        .map(|&(name, _)| name)
        .collect();
    let who = match winners.as_slice() {
        [one] => crate::message!("takeaway-complexity-fewest-one", layer = *one),
        [a, b] => crate::message!("takeaway-complexity-fewest-two", pair = format!("{a}-{b}")),
        _ => crate::message!("takeaway-complexity-fewest-all"),
    };
    // The table beside the chart lists every count; the sentence names the smallest.
    let counts = format_count(fewest);
    let cnn_path = match stats.cnn_layers_to_connect {
        None => crate::message!("takeaway-complexity-cnn-never"),
        Some(l) => l.max(1).to_string(),
    };
    crate::message!(
        "takeaway-complexity",
        n = n,
        d = d,
        k = k,
        who = who,
        counts = counts,
        cnn_path = cnn_path,
        rnn_path = format_count(stats.rnn.max_path_length)
    )
}

/// The scaling panel's takeaway: the content's size next to the position's, with and without
/// × √d, at the page's d (`None`: no tokens).
pub fn scaling(d: usize, ratios: Option<(f64, f64)>) -> String {
    let Some((unscaled, scaled)) = ratios else {
        return crate::message!("takeaway-scaling-no-tokens");
    };
    let (u, s) = (format_number(unscaled), format_number(scaled));
    if d == 1 {
        return crate::message!("takeaway-scaling-d-one", scaled = s);
    }
    if unscaled < 1.0 {
        crate::message!(
            "takeaway-scaling-position-outweighs",
            d = d,
            unscaled = u,
            scaled = s
        )
    } else {
        crate::message!(
            "takeaway-scaling-words-outweigh",
            d = d,
            unscaled = u,
            scaled = s
        )
    }
}

/// What the stacking panel's takeaway reads: the setting and the measured curves.
#[derive(Debug, Clone, Copy)]
pub struct StackingTakeaway<'a> {
    /// Positions (rows) in the stack.
    pub n: usize,
    pub skip: bool,
    pub layer_norm: bool,
    /// r_L for L = 0 … layers.
    pub residuals: &'a [f64],
}

/// The stacking panel's takeaway: what its main chart shows, the residual after L layers, and
/// what collapsed rows mean for the position.
pub fn stacking(t: &StackingTakeaway) -> String {
    let (Some(&first), Some(&last)) = (t.residuals.first(), t.residuals.last()) else {
        return crate::message!("takeaway-stacking-no-layers");
    };
    let l = t.residuals.len() - 1;
    if t.n <= 1 {
        return crate::message!("takeaway-stacking-one-position");
    }
    let setting = crate::message!(
        "takeaway-stacking-setting",
        setting = match (t.skip, t.layer_norm) {
            (false, false) => "plain",
            (false, true) => "norm",
            (true, false) => "skip",
            (true, true) => "skip-norm",
        }
    );
    let r = format_number(last);
    let rows = if l == 0 && last < COLLAPSED {
        crate::message!("takeaway-stacking-before-coincide", r = r)
    } else if l == 0 {
        crate::message!("takeaway-stacking-before-apart", r = r)
    } else if last < COLLAPSED {
        crate::message!(
            "takeaway-stacking-collapsed",
            layers = l,
            setting = setting,
            r = r
        )
    } else if last < 0.5 * first {
        crate::message!(
            "takeaway-stacking-closer",
            layers = l,
            setting = setting,
            first = format_number(first),
            r = r
        )
    } else {
        crate::message!(
            "takeaway-stacking-apart",
            layers = l,
            setting = setting,
            r = r
        )
    };
    // The consequence the chart shows: rows that coincide carry no position at all. (The
    // probe's R², read from another chart, stays in its read-out.)
    if last < COLLAPSED && t.n > 1 {
        crate::message!("takeaway-stacking-order-gone", rows = rows)
    } else {
        crate::message!("takeaway-stacking-rows-differ", rows = rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::complexity::{compute, MeasureState};

    fn words(text: &str) -> Vec<String> {
        text.split(' ').map(String::from).collect()
    }

    fn attention_case<'a>(
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

    #[test]
    fn attention_names_the_strongest_weight_and_the_mask() {
        let tokens = words("the cat sat");
        let w = vec![
            vec![0.2, 0.5, 0.3],
            vec![0.1, 0.1, 0.8],
            vec![0.3, 0.3, 0.4],
        ];
        let text = attention(&attention_case(&tokens, &w, None));
        assert_eq!(
            text,
            "In this untrained layer the strongest weight, 0.8000, is “cat” on “sat” (ringed); every row sums to 1."
        );
        let masked = vec![
            vec![0.6, 0.4, 0.0],
            vec![0.3, 0.7, 0.0],
            vec![0.5, 0.5, 0.0],
        ];
        let text = attention(&attention_case(&tokens, &masked, Some(2)));
        assert!(text.contains("“cat” on itself (ringed)"), "{text}");
        assert!(text.contains("key 2 is masked to exactly 0"), "{text}");
        let no_p = AttentionTakeaway {
            has_position: false,
            ..attention_case(&tokens, &w, None)
        };
        assert!(attention(&no_p).contains("depends only on the words"));
        let identity = AttentionTakeaway {
            mode: ProjectionMode::Identity,
            ..attention_case(&tokens, &w, None)
        };
        let text = attention(&identity);
        assert!(
            text.starts_with("Without projections (Q = K = V = Z) a token's mean weight on itself is 0.2333; the strongest weight, 0.8000,"),
            "{text}"
        );
        let broken = AttentionTakeaway {
            row_sum_error: 0.3,
            ..attention_case(&tokens, &w, None)
        };
        assert!(attention(&broken).contains("do NOT all sum to 1"));
    }

    #[test]
    fn attention_at_the_extremes_says_what_holds() {
        let tokens = words("a b c d");
        let uniform = vec![vec![0.25; 4]; 4];
        let text = attention(&attention_case(&tokens, &uniform, Some(0)));
        assert!(text.contains("all 16 weights are 1/4"), "{text}");
        let one = words("solo");
        let text = attention(&attention_case(&one, &[vec![1.0]], None));
        assert!(
            text.contains("only to itself") && text.ends_with("is 1."),
            "{text}"
        );
        assert!(attention(&attention_case(&[], &[], None)).starts_with("No tokens"));
        let offset = AttentionTakeaway {
            mode: ProjectionMode::Offset,
            offset_hit_rate: Some(0.75),
            ..attention_case(&tokens, &uniform, None)
        };
        assert!(attention(&offset).contains("key i + 1 the strongest for 75% of the queries"));
        let back = AttentionTakeaway {
            delta: -3,
            ..offset
        };
        assert!(attention(&back).contains("key i − 3 the strongest"));
        let none = AttentionTakeaway {
            offset_hit_rate: None,
            delta: 9,
            ..offset
        };
        assert!(attention(&none).contains("No query has a key δ = 9 away"));
    }

    #[test]
    fn pipeline_states_the_shapes() {
        assert_eq!(
            pipeline(8, 32, 4, 8, 8e-8),
            "Z (8 × 32) → 4 heads, each with Q, K, V of 8 × 8 and weights of 8 × 8 (every row sums to 1) → heads joined (8 × 32) → × W_o → output (8 × 32)."
        );
        let one = pipeline(1, 1, 1, 1, 0.0);
        assert!(
            one.contains("Z (1 × 1) → one head") && one.contains("1 × 1 (every row sums to 1)"),
            "{one}"
        );
        assert!(pipeline(0, 32, 4, 8, 0.0).starts_with("No tokens"));
    }

    #[test]
    fn heads_say_each_sequence_masks_its_own_keys() {
        assert_eq!(
            heads(&[3, 2], 4, 4, 4),
            "All 4 heads of sequence 0 mask key 3 (valid_len 3), all 4 of sequence 1 keys 2–3 (valid_len 2); np.tile would give 4 of 8 maps the wrong length."
        );
        let text = heads(&[0, 4], 1, 4, 0);
        assert!(
            text.starts_with(
                "Sequence 0's one head masks every key (valid_len 0: uniform weights)"
            ),
            "{text}"
        );
        assert!(
            text.contains(", sequence 1's no key (valid_len 4)"),
            "{text}"
        );
        assert!(
            text.ends_with("np.tile would change nothing here."),
            "{text}"
        );
    }

    #[test]
    fn complexity_names_the_cheapest_layer_and_the_paths() {
        let stats = compute(60, 32, 3, "cpu", &MeasureState::default()).unwrap();
        let text = complexity(&stats);
        assert!(
            text.starts_with("At n = 60, d = 32, k = 3 the RNN needs the fewest operations"),
            "{text}"
        );
        assert!(text.contains("operations (61\u{202f}440);"), "{text}");
        assert!(
            text.ends_with("self-attention 1, CNN 30, RNN 60."),
            "{text}"
        );
        let short = complexity(&compute(10, 512, 3, "cpu", &MeasureState::default()).unwrap());
        assert!(short.contains("self-attention needs the fewest"), "{short}");
        // k = 1: the CNN costs what the RNN costs and never connects the two ends.
        let k1 = complexity(&compute(60, 32, 1, "cpu", &MeasureState::default()).unwrap());
        assert!(
            k1.contains("the RNN and the CNN tie for the fewest"),
            "{k1}"
        );
        assert!(k1.contains("CNN never (k = 1)"), "{k1}");
        let single = complexity(&compute(1, 1, 1, "cpu", &MeasureState::default()).unwrap());
        assert!(single.contains("all three need the same"), "{single}");
        assert!(
            single.ends_with("self-attention 1, CNN 1, RNN 1."),
            "{single}"
        );
    }

    #[test]
    fn scaling_compares_content_and_position() {
        assert_eq!(
            scaling(32, Some((0.2478, 1.401))),
            "At d = 32 the words' embeddings are 0.2478× P's size (RMS) without × √d and 1.401× with it: without it the position outweighs the words."
        );
        assert!(scaling(1, Some((1.3, 1.3))).contains("√d = 1"));
        assert!(scaling(2, Some((1.1, 1.5))).contains("even without it"));
        assert!(scaling(32, None).starts_with("No tokens"));
    }

    #[test]
    fn the_chinese_catalog_states_the_same_numbers() {
        use crate::model::messages::{install_source, use_english, Computed};
        install_source::<Computed>("zh", include_str!("../../locales/computed/zh.ftl")).unwrap();
        let shapes = pipeline(8, 32, 4, 8, 8e-8);
        let tokens = words("the cat sat");
        let w = vec![
            vec![0.2, 0.5, 0.3],
            vec![0.1, 0.1, 0.8],
            vec![0.3, 0.3, 0.4],
        ];
        let strongest = attention(&attention_case(&tokens, &w, Some(2)));
        let tile = heads(&[3, 2], 4, 4, 4);
        let stack = stacking(&StackingTakeaway {
            n: 60,
            skip: false,
            layer_norm: false,
            residuals: &[0.9, 1e-4, 2.3e-10],
        });
        use_english::<Computed>();
        assert!(
            shapes.contains("4 个头") && shapes.contains("8 × 32") && shapes.contains("8 × 8"),
            "{shapes}"
        );
        assert!(shapes.contains("每一行的和都为 1"), "{shapes}");
        assert!(
            strongest.contains("未训练")
                && strongest.contains("0.8000")
                && strongest.contains("键 2"),
            "{strongest}"
        );
        assert!(
            tile.starts_with("序列 0 的全部 4 个头都掩蔽键 3（valid_len 3）")
                && tile.contains("8 张图"),
            "{tile}"
        );
        assert!(
            stack.contains("经过 2 层") && stack.contains("2.30e-10") && stack.contains("顺序丢失"),
            "{stack}"
        );
        // Back in English, the same call gives the English sentence.
        assert!(pipeline(8, 32, 4, 8, 8e-8).starts_with("Z (8 × 32) → 4 heads"));
    }

    #[test]
    fn stacking_follows_the_residual() {
        let collapsed = stacking(&StackingTakeaway {
            n: 60,
            skip: false,
            layer_norm: false,
            residuals: &[0.9, 1e-4, 2.3e-10],
        });
        assert_eq!(
            collapsed,
            "After 2 layers without skip connections the rows have collapsed to one (r_2 = 2.30e-10): every position outputs the same row, so the order is gone."
        );
        let apart = stacking(&StackingTakeaway {
            n: 60,
            skip: true,
            layer_norm: true,
            residuals: &[0.9, 0.85],
        });
        assert!(
            apart.contains("stay apart") && apart.ends_with("rows still differ."),
            "{apart}"
        );
        let zero = stacking(&StackingTakeaway {
            n: 2,
            skip: false,
            layer_norm: false,
            residuals: &[0.9],
        });
        assert!(
            zero.starts_with("Before any layer the rows are apart"),
            "{zero}"
        );
        let one = stacking(&StackingTakeaway {
            n: 1,
            skip: false,
            layer_norm: false,
            residuals: &[0.0, 0.0],
        });
        assert!(
            one.starts_with("With one position") && !one.contains("apart"),
            "{one}"
        );
    }
}
