//! The attention panels' numbers for a sentence with the layer's projections: the weights of the
//! attention panel, the projected batch of the multi-head panel, and the offset head's hit rates
//! on P alone and on X + P.

use ndarray::{Array2, Array3, Axis};

use super::attention::score_scale;
use super::encoding::sinusoidal;
use super::layer::{
    layer, layer_positioned, mean_self_weight, offset, offset_hit_rate, LayerError, LayerStages,
    ProjectionMode, Projections,
};
use super::measures::batch_input;
use super::position::PositionScheme;
use super::tokens::{attention_input, embed_tokens};
use super::validate;

/// Why the sentence's layer cannot be computed.
pub type SentenceError = LayerError;

/// How the attention panels build their layer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LayerChoice {
    pub d: usize,
    pub base: f64,
    pub positional_encoding: bool,
    pub scale_embeddings: bool,
    pub mode: ProjectionMode,
    pub seed: u64,
    /// The offset head's δ (the page's global δ) and sharpness β.
    pub delta: i64,
    pub beta: f64,
    /// How position enters beyond the input sum (RoPE, ALiBi, T5, Shaw) or in it (learned).
    pub position: PositionScheme,
}

impl LayerChoice {
    pub fn projections(&self) -> Projections {
        Projections::of_mode(
            self.mode, self.d, self.seed, self.base, self.delta, self.beta,
        )
    }
}

/// The attention panel's layer on one sentence.
#[derive(Debug, Clone, PartialEq)]
pub struct SentenceAttention {
    /// The layer's input, n × d: Z = X (·√d) (+ P), or P alone for the offset head (see
    /// [`sentence_attention`]).
    pub z: Array2<f32>,
    pub stages: LayerStages,
    /// Mean weight of a token on itself.
    pub mean_self_weight: f64,
    /// The offset head on P alone and on the sentence.
    pub offset: OffsetHeadReport,
}

impl SentenceAttention {
    /// The single head's weights, n × n.
    pub fn weights(&self) -> &Array2<f32> {
        &self.stages.weights[0]
    }
}

/// The offset head (δ, sharpness of the [`LayerChoice`]) on P alone and on the sentence's
/// X (·√d) + P, without a mask; every mean is over the queries i whose key i + δ exists (NaN
/// when none has).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OffsetHeadReport {
    /// The queries i whose key i + δ is one of the n positions: the rates and means count these.
    pub queries_with_target: usize,
    /// Fraction of queries whose strongest key is i + δ, on P alone.
    pub hit_rate: f64,
    /// The same on X (·√d) + P.
    pub hit_rate_with_tokens: f64,
    /// Mean weight of query i on key i + δ, on P alone.
    pub mean_weight: f64,
    /// The same on X (·√d) + P.
    pub mean_weight_with_tokens: f64,
    /// Mean weight of a token on itself on X (·√d) + P.
    pub self_weight_with_tokens: f64,
    /// Mean of (p_i·W_q·p_(i+δ) − p_i·W_q·p_i)/√d: how much the positional part of the score
    /// favours key i + δ over the query's own position.
    pub position_margin: f64,
    /// Mean of p_(i+δ)·p_i, the neighbour's similarity that makes the margin small.
    pub neighbour_dot: f64,
    /// Mean of ‖p_(i+δ)‖² (d/2 for even d).
    pub row_norm_squared: f64,
    /// Mean of x̃_i·W_q·x̃_i/√d with x̃ = X (·√d): the token's own content term.
    pub content_self_term: f64,
}

/// One head of the chosen layer on the sentence, and the offset head's report.
///
/// With the offset projections the layer's input is P alone (the positions without the
/// tokens): that is the input the head is built for, and on it every query's strongest key is
/// i + δ. What the same head does on the sentence's X (·√d) + P is in [`OffsetHeadReport`].
pub fn sentence_attention<S: AsRef<str>>(
    tokens: &[S],
    choice: &LayerChoice,
    projections: &Projections,
    valid_len: Option<usize>,
) -> Result<SentenceAttention, SentenceError> {
    let d = choice.d;
    let offset_mode = choice.mode == ProjectionMode::Offset;
    let stages = if offset_mode {
        validate(tokens.len().max(1), d, choice.base)?;
        let z = sinusoidal(tokens.len(), d, choice.base);
        let stages = layer(z.view(), projections, 1, valid_len)?;
        (z, stages)
    } else {
        let mut z = attention_input(
            tokens,
            d,
            choice.base,
            choice.positional_encoding,
            choice.scale_embeddings,
        )?;
        choice.position.add_to_input(&mut z)?;
        let stages = layer_positioned(z.view(), projections, 1, valid_len, &choice.position)?;
        (z, stages)
    };
    let (z, stages) = stages;
    let mean_self_weight = mean_self_weight(&stages.weights);
    let offset = offset_head_report(tokens, choice)?;
    Ok(SentenceAttention {
        z,
        stages,
        mean_self_weight,
        offset,
    })
}

/// The dot products behind Q = K = V = Z: the mean of q_i·k_i = ‖z_i‖² over the rows, and the
/// mean over the rows of the largest q_i·k_j with j ≠ i (NaN for fewer than two rows).
pub fn self_and_other_dots(z: ndarray::ArrayView2<f32>) -> (f64, f64) {
    let n = z.nrows();
    if n < 2 {
        return (f64::NAN, f64::NAN);
    }
    let dot = |i: usize, j: usize| -> f64 {
        z.row(i)
            .iter()
            .zip(z.row(j))
            .map(|(a, b)| f64::from(*a) * f64::from(*b))
            .sum()
    };
    let own = (0..n).map(|i| dot(i, i)).sum::<f64>() / n as f64;
    let other = (0..n)
        .map(|i| {
            (0..n)
                .filter(|&j| j != i)
                .map(|j| dot(i, j))
                .fold(f64::NEG_INFINITY, f64::max)
        })
        .sum::<f64>()
        / n as f64;
    (own, other)
}

/// Mean of `value(i, i + δ)` over the queries i whose key i + δ is one of the n positions.
fn mean_over_offset_pairs(n: usize, delta: i64, value: impl Fn(usize, usize) -> f64) -> f64 {
    let pairs: Vec<(usize, usize)> = (0..n)
        .filter_map(|i| {
            let target = i as i64 + delta;
            (0..n as i64)
                .contains(&target)
                .then_some((i, target as usize))
        })
        .collect();
    if pairs.is_empty() {
        return f64::NAN;
    }
    pairs.iter().map(|&(i, j)| value(i, j)).sum::<f64>() / pairs.len() as f64
}

/// The offset head (δ and sharpness of `choice`) on P alone and on the sentence's
/// X (·√d) + P, no mask.
pub fn offset_head_report<S: AsRef<str>>(
    tokens: &[S],
    choice: &LayerChoice,
) -> Result<OffsetHeadReport, SentenceError> {
    let n = tokens.len();
    let delta = choice.delta;
    if n == 0 {
        return Ok(OffsetHeadReport {
            queries_with_target: 0,
            hit_rate: f64::NAN,
            hit_rate_with_tokens: f64::NAN,
            mean_weight: f64::NAN,
            mean_weight_with_tokens: f64::NAN,
            self_weight_with_tokens: f64::NAN,
            position_margin: f64::NAN,
            neighbour_dot: f64::NAN,
            row_norm_squared: f64::NAN,
            content_self_term: f64::NAN,
        });
    }
    let head = offset(choice.d, choice.base, delta, choice.beta);
    let p = sinusoidal(n, choice.d, choice.base);
    let on_p = layer(p.view(), &head, 1, None)?;
    let z = attention_input(tokens, choice.d, choice.base, true, choice.scale_embeddings)?;
    let on_z = layer(z.view(), &head, 1, None)?;
    let x = embed_tokens(tokens, choice.d, choice.scale_embeddings)?;
    let scale = f64::from(score_scale(choice.d));
    let pq = head.queries(p.view());
    let xq = head.queries(x.view());
    let dot = |a: ndarray::ArrayView1<f32>, b: ndarray::ArrayView1<f32>| -> f64 {
        a.iter()
            .zip(b)
            .map(|(u, v)| f64::from(*u) * f64::from(*v))
            .sum()
    };
    let (wp, wz) = (&on_p.weights[0], &on_z.weights[0]);
    Ok(OffsetHeadReport {
        queries_with_target: n.saturating_sub(delta.unsigned_abs().min(n as u64) as usize),
        hit_rate: offset_hit_rate(wp.view(), delta),
        hit_rate_with_tokens: offset_hit_rate(wz.view(), delta),
        mean_weight: mean_over_offset_pairs(n, delta, |i, j| f64::from(wp[[i, j]])),
        mean_weight_with_tokens: mean_over_offset_pairs(n, delta, |i, j| f64::from(wz[[i, j]])),
        self_weight_with_tokens: mean_self_weight(&on_z.weights),
        position_margin: mean_over_offset_pairs(n, delta, |i, j| {
            (dot(pq.row(i), p.row(j)) - dot(pq.row(i), p.row(i))) * scale
        }),
        neighbour_dot: mean_over_offset_pairs(n, delta, |i, j| dot(p.row(j), p.row(i))),
        row_norm_squared: mean_over_offset_pairs(n, delta, |_, j| dot(p.row(j), p.row(j))),
        content_self_term: (0..n).map(|i| dot(xq.row(i), x.row(i))).sum::<f64>() * scale / n as f64,
    })
}

/// The multi-head panel's batch projected: Q = Z·W_q and K = Z·W_k for each sequence, shape
/// (batch, len, d) each.
pub fn projected_batch(
    sequences: &[Vec<String>],
    choice: &LayerChoice,
    projections: &Projections,
) -> Result<(Array3<f32>, Array3<f32>), SentenceError> {
    let mut z = batch_input(
        sequences,
        choice.d,
        choice.base,
        choice.positional_encoding,
        choice.scale_embeddings,
    )?;
    for mut sequence in z.outer_iter_mut() {
        let mut rows = sequence.to_owned();
        choice.position.add_to_input(&mut rows)?;
        sequence.assign(&rows);
    }
    let mut q = Array3::<f32>::zeros(z.raw_dim());
    let mut k = Array3::<f32>::zeros(z.raw_dim());
    for (b, sequence) in z.axis_iter(Axis(0)).enumerate() {
        q.index_axis_mut(Axis(0), b)
            .assign(&projections.queries(sequence));
        k.index_axis_mut(Axis(0), b)
            .assign(&projections.keys(sequence));
    }
    Ok((q, k))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokens::{tokenize, DEFAULT_SENTENCE};

    fn choice(d: usize, mode: ProjectionMode) -> LayerChoice {
        LayerChoice {
            d,
            base: 1e4,
            positional_encoding: true,
            scale_embeddings: true,
            mode,
            seed: 1,
            delta: 1,
            beta: 1.0,
            position: PositionScheme::absolute(),
        }
    }

    #[test]
    fn identity_makes_the_diagonal_dominate_and_random_does_not() {
        let tokens = tokenize(DEFAULT_SENTENCE);
        for d in [32, 100] {
            let id = sentence_attention(
                &tokens,
                &choice(d, ProjectionMode::Identity),
                &choice(d, ProjectionMode::Identity).projections(),
                None,
            )
            .unwrap()
            .mean_self_weight;
            let rnd = sentence_attention(
                &tokens,
                &choice(d, ProjectionMode::Random),
                &choice(d, ProjectionMode::Random).projections(),
                None,
            )
            .unwrap()
            .mean_self_weight;
            assert!(id > 0.85 && rnd < 0.5, "d={d}: {id} {rnd}");
        }
    }

    #[test]
    fn the_offset_head_on_p_alone_always_hits() {
        let tokens = tokenize(DEFAULT_SENTENCE);
        let offset_choice = choice(32, ProjectionMode::Offset);
        let a = sentence_attention(&tokens, &offset_choice, &offset_choice.projections(), None)
            .unwrap();
        assert_eq!(a.offset.hit_rate, 1.0);
        assert!(a.offset.hit_rate_with_tokens <= 1.0);
        // The map is the head on P alone: its weight on i + δ is the report's.
        let w = a.weights();
        let on_target = (0..7).map(|i| f64::from(w[[i, i + 1]])).sum::<f64>() / 7.0;
        assert!((on_target - a.offset.mean_weight).abs() < 1e-7);
    }

    #[test]
    fn projected_batch_shapes() {
        let sequences = vec![
            vec!["a".to_string(), "b".to_string()],
            vec!["c".to_string(), "d".to_string()],
        ];
        let random_choice = choice(8, ProjectionMode::Random);
        let (q, k) =
            projected_batch(&sequences, &random_choice, &random_choice.projections()).unwrap();
        assert_eq!(q.dim(), (2, 2, 8));
        assert_ne!(q, k);
    }
}
