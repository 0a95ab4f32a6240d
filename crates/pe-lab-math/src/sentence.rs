//! The attention panels' numbers for a sentence with the layer's projections: the weights of the
//! attention panel, the projected batch of the multi-head panel, and the offset head's hit rates
//! on P alone and on X + P.

use ndarray::{Array2, Array3, Axis};
use thiserror::Error;

use super::encoding::sinusoidal;
use super::panels::batch_input;
use super::position::{PositionError, PositionScheme};
use super::projection::{
    layer, layer_positioned, mean_self_weight, offset, offset_hit_rate, LayerStages,
    ProjectionError, ProjectionMode, Projections,
};
use super::tokens::attention_input;
use super::MathError;

#[derive(Debug, Clone, PartialEq, Error)]
pub enum SentenceError {
    #[error(transparent)]
    Math(#[from] MathError),
    #[error(transparent)]
    Projection(#[from] ProjectionError),
    #[error(transparent)]
    Position(#[from] PositionError),
}

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
    /// Z = X (·√d) (+ P), n × d.
    pub z: Array2<f32>,
    pub stages: LayerStages,
    /// Mean weight of a token on itself.
    pub mean_self_weight: f64,
    /// The offset head's fraction of queries whose strongest key is i + δ: on P alone, and on the
    /// sentence's X (·√d) + P (NaN when no query has a key δ away).
    pub offset_hit_rate: f64,
    pub offset_hit_rate_with_tokens: f64,
}

impl SentenceAttention {
    /// The single head's weights, n × n.
    pub fn weights(&self) -> &Array2<f32> {
        &self.stages.weights[0]
    }
}

/// One head of the chosen layer on the sentence, and the offset head's hit rates.
pub fn sentence_attention<S: AsRef<str>>(
    tokens: &[S],
    choice: &LayerChoice,
    projections: &Projections,
    valid_len: Option<usize>,
) -> Result<SentenceAttention, SentenceError> {
    let d = choice.d;
    let mut z = attention_input(
        tokens,
        d,
        choice.base,
        choice.positional_encoding,
        choice.scale_embeddings,
    )?;
    choice.position.add_to_input(&mut z)?;
    let stages = layer_positioned(z.view(), projections, 1, valid_len, &choice.position)?;
    let mean_self_weight = mean_self_weight(&stages.weights);
    let (offset_hit_rate, offset_hit_rate_with_tokens) = offset_hit_rates(tokens, choice)?;
    Ok(SentenceAttention {
        z,
        stages,
        mean_self_weight,
        offset_hit_rate,
        offset_hit_rate_with_tokens,
    })
}

/// The offset head (δ, β of `choice`) on P alone and on the sentence's X (·√d) + P, no mask.
pub fn offset_hit_rates<S: AsRef<str>>(
    tokens: &[S],
    choice: &LayerChoice,
) -> Result<(f64, f64), SentenceError> {
    let n = tokens.len();
    if n == 0 {
        return Ok((f64::NAN, f64::NAN));
    }
    let head = offset(choice.d, choice.base, choice.delta, choice.beta);
    let p = sinusoidal(n, choice.d, choice.base);
    let on_p = layer(p.view(), &head, 1, None)?;
    let z = attention_input(tokens, choice.d, choice.base, true, choice.scale_embeddings)?;
    let on_z = layer(z.view(), &head, 1, None)?;
    Ok((
        offset_hit_rate(on_p.weights[0].view(), choice.delta),
        offset_hit_rate(on_z.weights[0].view(), choice.delta),
    ))
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
        assert_eq!(a.offset_hit_rate, 1.0);
        assert!(a.offset_hit_rate_with_tokens <= 1.0);
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
