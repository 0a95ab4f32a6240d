//! What the attention panels say about the layer: which projections are used, the warning for
//! Q = K = V = Z, the mask (as d2l's `masked_softmax` does it), and the offset head's result.
//! The sentences are messages of `locales/computed` (`readout-attention-…`); the CSV's formula
//! stays in code, a machine-read header. Tested natively; the view (`view.rs`) draws the map and
//! wires its reading.

use crate::math::layer::ProjectionMode;
use crate::math::position::{Encoding, PositionScheme};
use crate::math::sentence::OffsetHeadReport;
use crate::model::present::format_number;
use crate::model::query::values::UrlName;

pub mod takeaway;
#[cfg(target_arch = "wasm32")]
mod view;
#[cfg(target_arch = "wasm32")]
mod weights_view;
#[cfg(target_arch = "wasm32")]
pub use view::mount;

/// The projections, in words (the CSV's first line uses [`formula`]).
pub fn projection_description(mode: ProjectionMode, seed: u64, delta: i64, beta: f64) -> String {
    match mode {
        ProjectionMode::Random => {
            crate::message!("readout-attention-projection-random", seed = seed)
        }
        ProjectionMode::Identity => crate::message!("readout-attention-projection-identity"),
        ProjectionMode::Offset => crate::message!(
            "readout-attention-projection-offset",
            delta = delta,
            beta = beta.to_string()
        ),
    }
}

/// The formula of the weights, for the CSV's first line, with the position family `encoding`.
pub fn formula(mode: ProjectionMode, scale_embeddings: bool, encoding: Encoding) -> String {
    let x = if scale_embeddings { "X*sqrt(d)" } else { "X" };
    if mode == ProjectionMode::Offset {
        // The offset head is drawn on the positions alone (math::sentence::sentence_attention).
        return "attention weights softmax((Z W_q)(Z W_k)^T/sqrt(d)) with Z = P (positions alone), offset projections".to_string();
    }
    let z = match encoding {
        Encoding::Sinusoidal => format!("Z = {x} + P"),
        Encoding::Learned => format!("Z = {x} + E (learned table)"),
        _ => format!("Z = {x}"),
    };
    let (q, k) = match mode {
        ProjectionMode::Identity => ("Z", "Z"),
        _ => ("(Z W_q)", "(Z W_k)"),
    };
    let scores = match encoding {
        Encoding::Rope => format!("(R_i {q}_i).(R_j {k}_j)/sqrt(d)"),
        Encoding::Alibi => format!("{q}{k}^T/sqrt(d) + m*(j-i), keys j > i masked"),
        Encoding::T5 => format!("{q}{k}^T/sqrt(d) + b[bucket(j-i)]"),
        Encoding::Shaw => format!("{q}({k} + a^K[clip(j-i)])^T/sqrt(d)"),
        _ => format!("{q}{k}^T/sqrt(d)"),
    };
    match mode {
        ProjectionMode::Identity => format!("attention weights softmax({scores}) with {z}"),
        _ => format!(
            "attention weights softmax({scores}) with {z}, {} projections",
            mode.to_query()
        ),
    }
}

/// How position enters the layer, in words, for the attention panels' read-outs.
pub fn encoding_sentence(encoding: Encoding, scheme: &PositionScheme) -> String {
    match encoding {
        Encoding::Sinusoidal => crate::message!("readout-attention-position-sinusoidal"),
        Encoding::Learned => crate::message!(
            "readout-attention-position-learned",
            max = scheme.learned_max
        ),
        Encoding::Rope => crate::message!(
            "readout-attention-position-rope",
            base = format_number(scheme.base)
        ),
        Encoding::Alibi => crate::message!(
            "readout-attention-position-alibi",
            heads = scheme.alibi_heads,
            slope = format_number(scheme.alibi_slope(0))
        ),
        Encoding::T5 => crate::message!(
            "readout-attention-position-t5",
            buckets = scheme.t5.num_buckets,
            max_distance = scheme.t5.max_distance
        ),
        Encoding::Shaw => crate::message!("readout-attention-position-shaw", clip = scheme.clip),
        Encoding::None => crate::message!("readout-attention-position-none"),
    }
}

/// What the identity warning states, all measured on the panel's Z and weights.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IdentityNumbers {
    pub d: usize,
    pub n: usize,
    /// Mean weight of a token on itself.
    pub mean_self_weight: f64,
    /// Mean of q_i·k_i = ‖z_i‖².
    pub self_dot: f64,
    /// Mean over the rows of the largest q_i·k_j, j ≠ i.
    pub other_dot: f64,
    /// Rows whose weight on their own key is exactly 0 (their key masked by valid_len ≥ 1).
    pub masked_diagonal: usize,
}

/// The visible warning when Q = K = V = Z (empty otherwise): why the diagonal wins, with the
/// measured dot products, and a verdict that follows the measured weight on the diagonal.
pub fn identity_warning(mode: ProjectionMode, numbers: &IdentityNumbers) -> String {
    if mode != ProjectionMode::Identity {
        return String::new();
    }
    let IdentityNumbers {
        d,
        n,
        mean_self_weight,
        self_dot,
        other_dot,
        masked_diagonal,
    } = *numbers;
    let reason = if self_dot.is_nan() {
        crate::message!("readout-attention-identity-one-token")
    } else {
        crate::message!(
            "readout-attention-identity-reason",
            self_dot = format_number(self_dot),
            other_dot = format_number(other_dot),
            lead = format_number((self_dot - other_dot) / (d.max(1) as f64).sqrt())
        )
    };
    let masked = if masked_diagonal > 0 {
        crate::message!(
            "readout-attention-identity-masked",
            masked = masked_diagonal,
            n = n
        )
    } else {
        String::new()
    };
    let verdict = if mean_self_weight >= 0.8 {
        crate::message!("readout-attention-identity-close")
    } else if mean_self_weight >= 0.5 {
        crate::message!("readout-attention-identity-dominates")
    } else {
        crate::message!("readout-attention-identity-far")
    };
    crate::message!(
        "readout-attention-identity",
        reason = reason,
        masked = masked,
        d = d,
        weight = format_number(mean_self_weight),
        verdict = verdict
    )
}

/// The mask, as d2l's `masked_softmax` does it: scores of keys at index ≥ valid_len become −10⁶.
/// `masked_zero` is whether every masked weight came out exactly 0.
pub fn mask_sentence(valid_len: Option<usize>, n: usize, masked_zero: bool) -> String {
    match valid_len {
        None => crate::message!("readout-attention-mask-none"),
        Some(0) => crate::message!("readout-attention-mask-all", n = n),
        Some(v) => crate::message!(
            "readout-attention-mask-some",
            valid_len = v,
            last = n - 1,
            weights = n * (n - v),
            zero = if masked_zero { "exactly" } else { "not" }
        ),
    }
}

/// The rows' sums, stated only as measured.
pub fn row_sum_sentence(row_sum_error: f64) -> String {
    let error = format!("{row_sum_error:.1e}");
    if row_sum_error < 1e-5 {
        crate::message!("readout-attention-rows-sum-to-one", error = error)
    } else {
        crate::message!("readout-attention-rows-do-not-sum", error = error)
    }
}

/// The offset head's result on P alone (the map) and on the sentence's X (·√d) + P, with the
/// numbers that explain the difference.
pub fn offset_sentence(
    delta: i64,
    sharpness: f64,
    report: &OffsetHeadReport,
    scale_embeddings: bool,
) -> String {
    if report.hit_rate.is_nan() {
        return crate::message!("readout-attention-offset-no-target", delta = delta);
    }
    let x = if scale_embeddings { "X·√d" } else { "X" };
    let percent = |r: f64| format!("{:.0}%", 100.0 * r);
    let queries = crate::message!(
        "readout-attention-offset-queries",
        count = report.queries_with_target
    );
    let with_tokens = crate::message!(
        "readout-attention-offset-with-tokens",
        x = x,
        weight = format_number(report.mean_weight_with_tokens),
        self_weight = format_number(report.self_weight_with_tokens),
        percent = percent(report.hit_rate_with_tokens),
        queries = &queries
    );
    let content_wins = report.self_weight_with_tokens > report.mean_weight_with_tokens;
    let why = if content_wins {
        crate::message!(
            "readout-attention-offset-content-wins",
            margin = format_number(report.position_margin),
            neighbour_dot = format_number(report.neighbour_dot),
            norm = format_number(report.row_norm_squared),
            x = x,
            content = format_number(report.content_self_term)
        )
    } else {
        crate::message!(
            "readout-attention-offset-positions-win",
            margin = format_number(report.position_margin),
            content = format_number(report.content_self_term)
        )
    };
    crate::message!(
        "readout-attention-offset",
        delta = delta,
        sharpness = sharpness.to_string(),
        percent = percent(report.hit_rate),
        queries = &queries,
        weight = format_number(report.mean_weight),
        with_tokens = with_tokens,
        why = why
    )
}

/// The reading of one cell of the attention map: which query and key (tokens, or positions of P
/// alone for the offset head), and its weight, saying when the key is masked.
pub fn cell_reading<S: AsRef<str>>(
    tokens: &[S],
    query: usize,
    key: usize,
    weight: f64,
    valid_len: Option<usize>,
    on_positions: bool,
) -> String {
    let names = if on_positions {
        crate::message!("readout-attention-cell-positions", query = query, key = key)
    } else {
        let name = |i: usize| tokens.get(i).map_or("", |t| t.as_ref());
        crate::message!(
            "readout-attention-cell-tokens",
            query_token = name(query),
            query = query,
            key_token = name(key),
            key = key
        )
    };
    match valid_len {
        Some(v) if key >= v && v > 0 => crate::message!(
            "readout-attention-cell-masked",
            names = names,
            key = key,
            valid_len = v
        ),
        Some(0) => crate::message!(
            "readout-attention-cell-all-masked",
            names = names,
            weight = format!("{weight:.4}")
        ),
        _ => crate::message!(
            "readout-attention-cell",
            names = names,
            weight = format!("{weight:.4}")
        ),
    }
}

/// Which pair of different tokens the summary names.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Strongest<'a> {
    /// Every weight is equal (as at valid_len = 0): no pair stands out.
    Tie,
    /// The strongest weight between two different tokens: (query, key, weight).
    Pair(&'a str, &'a str, f64),
    /// None is named (one token, or the offset head, whose strongest pair is its own offset).
    Unnamed,
}

/// What the attention panel's summary states.
#[derive(Debug, Clone, PartialEq)]
pub struct WeightsSummary<'a> {
    pub tokens: usize,
    pub d: usize,
    /// [`encoding_sentence`]'s words for the position family.
    pub encoding: String,
    /// Whether the embeddings are multiplied by √d.
    pub scaled: bool,
    /// [`projection_description`]'s words for W_q … W_o.
    pub projection: String,
    pub diagonal_mean: f64,
    pub strongest: Strongest<'a>,
    pub row_sum_error: f64,
    pub valid_len: Option<usize>,
    pub masked_weights_zero: bool,
}

/// The attention panel's summary: the layer, the mean weight of a token on itself, the strongest
/// pair (said to mean nothing for random weights), the rows' sums and the mask.
pub fn weights_summary(s: &WeightsSummary) -> String {
    let strongest = match s.strongest {
        Strongest::Tie => crate::message!("readout-attention-summary-tie"),
        Strongest::Pair(query, key, weight) => crate::message!(
            "readout-attention-summary-strongest",
            query = query,
            key = key,
            weight = format_number(weight)
        ),
        Strongest::Unnamed => String::new(),
    };
    crate::message!(
        "readout-attention-summary",
        tokens = s.tokens,
        d = s.d,
        encoding = &s.encoding,
        scaled = if s.scaled { "scaled" } else { "unscaled" },
        projection = &s.projection,
        diagonal = format_number(s.diagonal_mean),
        strongest = strongest,
        rows = row_sum_sentence(s.row_sum_error),
        mask = mask_sentence(s.valid_len, s.tokens, s.masked_weights_zero)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_and_sums_say_what_happens() {
        assert!(mask_sentence(Some(0), 8, false).contains("each weight is 1/8"));
        let one = mask_sentence(Some(7), 8, true);
        assert!(one.contains("their 8 weights are exactly 0"), "{one}");
        assert!(row_sum_sentence(1e-7).starts_with("Every row sums to 1"));
        assert!(row_sum_sentence(0.5).contains("NOT"));
    }

    #[test]
    fn identity_warning_only_in_identity_mode_and_follows_the_weights() {
        let numbers = IdentityNumbers {
            d: 100,
            n: 8,
            mean_self_weight: 0.9994,
            self_dot: 150.0,
            other_dot: 40.0,
            masked_diagonal: 0,
        };
        assert!(identity_warning(ProjectionMode::Random, &numbers).is_empty());
        let w = identity_warning(ProjectionMode::Identity, &numbers);
        assert!(
            w.contains("d = 100") && w.contains("0.9994") && w.contains("close to the identity"),
            "{w}"
        );
        assert!(
            w.contains("150") && w.contains("40.0") && !w.contains("near 0"),
            "{w}"
        );
        let masked = IdentityNumbers {
            mean_self_weight: 0.35,
            masked_diagonal: 5,
            ..numbers
        };
        let w = identity_warning(ProjectionMode::Identity, &masked);
        assert!(
            !w.contains("close to the identity") && w.contains("5 of the 8 rows"),
            "{w}"
        );
    }

    #[test]
    fn formula_names_what_is_used() {
        assert_eq!(
            formula(ProjectionMode::Identity, true, Encoding::Sinusoidal),
            "attention weights softmax(ZZ^T/sqrt(d)) with Z = X*sqrt(d) + P"
        );
        assert!(formula(ProjectionMode::Random, false, Encoding::Sinusoidal)
            .contains("(Z W_q)(Z W_k)^T"));
        assert!(formula(ProjectionMode::Random, true, Encoding::Rope).contains("R_i"));
        assert!(
            formula(ProjectionMode::Random, true, Encoding::None).contains("with Z = X*sqrt(d),")
        );
    }

    #[test]
    fn the_offset_sentence_follows_its_numbers() {
        let report = OffsetHeadReport {
            queries_with_target: 7,
            hit_rate: 1.0,
            hit_rate_with_tokens: 0.0,
            mean_weight: 0.69,
            mean_weight_with_tokens: 0.018,
            self_weight_with_tokens: 0.87,
            position_margin: 0.121,
            neighbour_dot: 15.31,
            row_norm_squared: 16.0,
            content_self_term: 5.34,
        };
        let text = offset_sentence(1, 12.0, &report, true);
        assert!(
            text.contains("strongest key for 100% of the 7 queries that have a key i + δ"),
            "{text}"
        );
        assert!(
            text.contains("0.6900")
                && text.contains("0.8700")
                && text.contains("Why the content wins"),
            "{text}"
        );
        assert!(
            text.contains("15.3") && text.contains("5.34") && text.contains("0.1210"),
            "{text}"
        );
        // When the positions win, the sentence does not say the content wins.
        let positions_win = OffsetHeadReport {
            mean_weight_with_tokens: 0.5,
            self_weight_with_tokens: 0.14,
            ..report
        };
        assert!(!offset_sentence(3, 8.0, &positions_win, false).contains("content wins"));
    }

    #[test]
    fn a_cell_reading_names_the_pair_and_says_when_the_key_is_masked() {
        let tokens = ["the", "cat", "sat"];
        assert_eq!(
            cell_reading(&tokens, 1, 2, 0.25, None, false),
            "query “cat” (row 1) → key “sat” (column 2): weight 0.2500"
        );
        assert_eq!(
            cell_reading(&tokens, 0, 2, 0.0, Some(2), false),
            "query “the” (row 0) → key “sat” (column 2): masked (key 2 ≥ valid_len 2), weight exactly 0"
        );
        assert!(cell_reading(&tokens, 0, 1, 1.0 / 3.0, Some(0), false)
            .ends_with("every key masked (valid_len 0), uniform weight 0.3333"));
        assert_eq!(
            cell_reading(&tokens, 2, 0, 0.5, None, true),
            "query position 2 → key position 0 (P alone): weight 0.5000"
        );
    }

    #[test]
    fn the_summary_states_its_numbers_and_names_no_pair_in_a_tie() {
        let summary = |strongest| {
            weights_summary(&WeightsSummary {
                tokens: 3,
                d: 32,
                encoding: "sinusoidal P".into(),
                scaled: true,
                projection: "random W".into(),
                diagonal_mean: 0.4,
                strongest,
                row_sum_error: 0.0,
                valid_len: None,
                masked_weights_zero: true,
            })
        };
        let named = summary(Strongest::Pair("cat", "sat", 0.61));
        assert!(named.starts_with("3 tokens, d = 32, sinusoidal P, embeddings × √d; random W."));
        assert!(
            named.contains("Mean weight of a token on itself: 0.4000."),
            "{named}"
        );
        assert!(named.contains("“cat” → “sat”, 0.6100"), "{named}");
        let tie = summary(Strongest::Tie);
        assert!(tie.contains("Every weight is equal: no token stands out."));
        assert!(!tie.contains("Strongest"));
        assert!(!summary(Strongest::Unnamed).contains("Strongest"));
    }
}
