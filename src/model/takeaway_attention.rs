//! The takeaways of the attention, pipeline, heads, complexity, scaling and stacking panels: each
//! first answers its panel's question in words (what Q, K and V are, why the order is lost, why
//! self-attention is slow on long sequences, why × √d and why add …), then gives the live numbers
//! of the figure beside it as the evidence, and says what does hold where the usual conclusion
//! does not (a mask on every key, one token, k = 1, d = 1 …), so it can never disagree with the
//! figure. The sentences are messages of `locales/computed` (`takeaway-…`).

use super::complexity::{format_count, ComplexityStats};
use super::present::format_number;
use super::scaling::ScalingStats;
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
pub fn attention_empty() -> String {
    crate::message!("takeaway-attention-no-tokens", idea = idea(false))
}

/// The attention panel's takeaway: what a weight is (the answer to "what are Q, K and V?"), how
/// much of its output the strongest pair's word takes from the other, that each row sums to 1,
/// what the mask changes, and why the word order is lost without position.
pub fn attention(t: &AttentionTakeaway) -> String {
    let n = t.tokens.len();
    if n == 0 {
        return attention_empty();
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

/// The pipeline panel's takeaway: what Q, K and V are, then the shapes that flow through the
/// layer, head by head.
pub fn pipeline(n: usize, d: usize, heads: usize, head_dim: usize, row_sum_error: f64) -> String {
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

/// Which keys of a 4-token sequence a valid length masks, in words.
fn masked_keys(valid_len: usize, tokens: usize) -> String {
    match valid_len {
        0 => crate::message!("takeaway-heads-every-key"),
        v if v >= tokens => crate::message!("takeaway-heads-no-key"),
        v if v + 1 == tokens => crate::message!("takeaway-heads-key", key = v),
        v => crate::message!("takeaway-heads-keys", first = v, last = tokens - 1),
    }
}

/// The heads panel's takeaway: yes, `np.tile` is a bug (a sequence's heads sit side by side in
/// the batch), then every head of a sequence masking the same keys (its own `valid_len`), and
/// how many maps `np.tile` would get wrong.
pub fn heads(valid_lens: &[usize], heads: usize, tokens: usize, wrong_with_tile: usize) -> String {
    // The second sequence's clause drops the repeated subject and verb ("all 4 of sequence 1
    // keys 2–3"), so the sentence stays short.
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

/// The complexity panel's takeaway: why self-attention is slow on long sequences (n² scores,
/// four times the work for twice the length, against the RNN's and the CNN's doubling, with the
/// CNN's count derived), and the lengths past which it costs more: what the chart draws. The
/// path lengths are left to the path figure, which draws at most 16 positions.
pub fn complexity(stats: &ComplexityStats) -> String {
    let (n, d, k) = (stats.n, stats.d, stats.k);
    crate::message!(
        "takeaway-complexity",
        attention = format_count(stats.self_attention.operations),
        rnn = format_count(stats.rnn.operations),
        cnn = format_count(stats.cnn.operations),
        n = n,
        d = d,
        k = k,
        kd = format_count((k as f64) * (d as f64))
    )
}

/// The scaling panel's takeaway: why × √d (the embeddings' size next to P's, with and without
/// it, as the magnitude chart draws them), then why add rather than append (the two tokens' dot
/// product term by term, as the bars draw it).
pub fn scaling(stats: &ScalingStats) -> String {
    let Some(pair) = stats.pair.as_ref() else {
        return crate::message!("takeaway-scaling-empty");
    };
    let d = stats.d;
    let (u, s) = (
        format_number(stats.unscaled_ratio),
        format_number(stats.scaled_ratio),
    );
    let magnitudes = if d == 1 {
        crate::message!("takeaway-scaling-d-one", scaled = s)
    } else if stats.unscaled_ratio < 1.0 {
        crate::message!(
            "takeaway-scaling-position-outweighs",
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
    };
    let add = crate::message!(
        "takeaway-scaling-add",
        d = d,
        columns = 2 * d,
        cross = format_number(pair.cross_terms),
        token_i = &pair.tokens.0,
        token_j = &pair.tokens.1,
        bars = if pair.scaled { "scaled" } else { "unscaled" },
        xx = format_number(pair.xx),
        pp = format_number(pair.pp),
        added = format_number(pair.added),
    );
    crate::message!("takeaway-scaling", magnitudes = magnitudes, add = add)
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
mod tests;
