//! The encoder's tensors, borrowed from a [`crate::MiniLm`] in the order its forward pass
//! applies them: what another implementation of the encoder (the GPU's, `pe_lab_gpu::minilm`)
//! uploads, so that it reads the very numbers the CPU path multiplies.

use ndarray::{ArrayView1, ArrayView2};

use crate::model::{LayerNorm, Linear};
use crate::MiniLm;

/// A dense layer's tensors as PyTorch stores them: `weight` is `[out, in]`.
#[derive(Debug, Clone, Copy)]
pub struct LinearTensors<'a> {
    pub weight: ArrayView2<'a, f32>,
    pub bias: ArrayView1<'a, f32>,
}

/// A LayerNorm's scale, shift and ε.
#[derive(Debug, Clone, Copy)]
pub struct NormTensors<'a> {
    pub weight: ArrayView1<'a, f32>,
    pub bias: ArrayView1<'a, f32>,
    pub eps: f32,
}

/// One encoder layer's tensors, in the order the forward pass applies them.
#[derive(Debug, Clone, Copy)]
pub struct LayerTensors<'a> {
    pub query: LinearTensors<'a>,
    pub key: LinearTensors<'a>,
    pub value: LinearTensors<'a>,
    pub attention_output: LinearTensors<'a>,
    pub attention_norm: NormTensors<'a>,
    /// Followed by the exact (erf) GELU.
    pub intermediate: LinearTensors<'a>,
    pub output: LinearTensors<'a>,
    pub output_norm: NormTensors<'a>,
}

/// Every tensor the encoder applies after the embeddings' sum ([`MiniLm::encoder_tensors`]).
#[derive(Debug, Clone)]
pub struct EncoderTensors<'a> {
    pub embedding_norm: NormTensors<'a>,
    pub layers: Vec<LayerTensors<'a>>,
}

impl MiniLm {
    /// The embeddings' LayerNorm and every encoder layer's tensors, borrowed, in the order the
    /// forward pass applies them (after [`MiniLm::embedding_sum`]).
    pub fn encoder_tensors(&self) -> EncoderTensors<'_> {
        EncoderTensors {
            embedding_norm: self.embedding_norm.tensors(),
            layers: self
                .layers
                .iter()
                .map(|layer| LayerTensors {
                    query: layer.query.tensors(),
                    key: layer.key.tensors(),
                    value: layer.value.tensors(),
                    attention_output: layer.attention_output.tensors(),
                    attention_norm: layer.attention_norm.tensors(),
                    intermediate: layer.intermediate.tensors(),
                    output: layer.output.tensors(),
                    output_norm: layer.output_norm.tensors(),
                })
                .collect(),
        }
    }
}

impl Linear {
    fn tensors(&self) -> LinearTensors<'_> {
        LinearTensors {
            weight: self.weight.view(),
            bias: self.bias.view(),
        }
    }
}

impl LayerNorm {
    fn tensors(&self) -> NormTensors<'_> {
        NormTensors {
            weight: self.weight.view(),
            bias: self.bias.view(),
            eps: self.eps,
        }
    }
}
