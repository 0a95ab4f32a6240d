//! The BERT encoder's forward pass in float32, as transformers' `BertModel` with eager attention
//! computes it, keeping every layer's and head's attention weights.

use ndarray::{s, Array1, Array2, Array4, ArrayView2, ArrayViewMut3, Axis};
use safetensors::{Dtype, SafeTensorError, SafeTensors};

use crate::{BertConfig, MiniLmError};

/// Whether the learned position table is added to the token embeddings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PositionTable {
    /// The trained table, as the model was trained with it.
    Learned,
    /// Every row set to zero (the page's `ptable=0`): the model sees no order, only the bag of
    /// tokens, and its attention becomes a function of the tokens alone.
    Zeroed,
}

/// What one forward pass returns.
#[derive(Debug, Clone)]
pub struct ForwardOutput {
    /// The softmax weights of every layer and head: `[layer, head, query, key]`; each row over
    /// the keys sums to 1.
    pub attention: Array4<f32>,
    /// The last layer's output: `[token, hidden]`.
    pub last_hidden_state: Array2<f32>,
}

/// A dense layer as PyTorch stores it: `y = x · Wᵀ + b`, with `W` of shape `[out, in]`.
#[derive(Debug, Clone)]
struct Linear {
    weight: Array2<f32>,
    bias: Array1<f32>,
}

impl Linear {
    fn apply(&self, input: &Array2<f32>) -> Array2<f32> {
        let mut output = input.dot(&self.weight.t());
        output += &self.bias;
        output
    }
}

#[derive(Debug, Clone)]
struct LayerNorm {
    weight: Array1<f32>,
    bias: Array1<f32>,
    eps: f32,
}

impl LayerNorm {
    /// Normalizes each row to mean 0 and (biased) variance 1, then scales and shifts it. The
    /// moments are summed in float64 so that they do not depend on the order of the sum.
    fn apply(&self, rows: &mut Array2<f32>) {
        for mut row in rows.rows_mut() {
            let width = row.len() as f64;
            let mean = row.iter().map(|&x| f64::from(x)).sum::<f64>() / width;
            let variance = row
                .iter()
                .map(|&x| (f64::from(x) - mean).powi(2))
                .sum::<f64>()
                / width;
            let inverse_deviation = 1.0 / (variance + f64::from(self.eps)).sqrt();
            for ((x, &weight), &bias) in row.iter_mut().zip(&self.weight).zip(&self.bias) {
                let normalized = ((f64::from(*x) - mean) * inverse_deviation) as f32;
                *x = normalized * weight + bias;
            }
        }
    }
}

/// One encoder layer: self-attention with its output projection and norm, then the MLP.
#[derive(Debug, Clone)]
struct EncoderLayer {
    query: Linear,
    key: Linear,
    value: Linear,
    attention_output: Linear,
    attention_norm: LayerNorm,
    intermediate: Linear,
    output: Linear,
    output_norm: LayerNorm,
}

/// all-MiniLM-L6-v2 (or any BERT encoder with learned absolute positions), ready to run.
#[derive(Debug, Clone)]
pub struct MiniLm {
    config: BertConfig,
    word_embeddings: Array2<f32>,
    position_embeddings: Array2<f32>,
    token_type_embeddings: Array2<f32>,
    embedding_norm: LayerNorm,
    layers: Vec<EncoderLayer>,
}

impl MiniLm {
    /// Reads the weights from the bytes of a safetensors file (float32), named as transformers'
    /// `BertModel` names them (with or without a `bert.` prefix), and checks every shape against
    /// the configuration. The pooler and anything else in the file is left unread.
    pub fn from_safetensors(config: BertConfig, bytes: &[u8]) -> Result<Self, MiniLmError> {
        config.validate()?;
        let tensors = SafeTensors::deserialize(bytes)?;
        let hidden = config.hidden_size;
        let inner = config.intermediate_size;
        let eps = config.layer_norm_eps;
        let reader = TensorReader { tensors: &tensors };

        let layer_norm = |prefix: &str| -> Result<LayerNorm, MiniLmError> {
            Ok(LayerNorm {
                weight: reader.vector(&format!("{prefix}.weight"), hidden)?,
                bias: reader.vector(&format!("{prefix}.bias"), hidden)?,
                eps,
            })
        };
        let linear = |prefix: &str, inputs: usize, outputs: usize| -> Result<Linear, MiniLmError> {
            Ok(Linear {
                weight: reader.matrix(&format!("{prefix}.weight"), outputs, inputs)?,
                bias: reader.vector(&format!("{prefix}.bias"), outputs)?,
            })
        };

        let mut layers = Vec::with_capacity(config.num_hidden_layers);
        for index in 0..config.num_hidden_layers {
            let prefix = format!("encoder.layer.{index}");
            layers.push(EncoderLayer {
                query: linear(&format!("{prefix}.attention.self.query"), hidden, hidden)?,
                key: linear(&format!("{prefix}.attention.self.key"), hidden, hidden)?,
                value: linear(&format!("{prefix}.attention.self.value"), hidden, hidden)?,
                attention_output: linear(
                    &format!("{prefix}.attention.output.dense"),
                    hidden,
                    hidden,
                )?,
                attention_norm: layer_norm(&format!("{prefix}.attention.output.LayerNorm"))?,
                intermediate: linear(&format!("{prefix}.intermediate.dense"), hidden, inner)?,
                output: linear(&format!("{prefix}.output.dense"), inner, hidden)?,
                output_norm: layer_norm(&format!("{prefix}.output.LayerNorm"))?,
            });
        }

        Ok(Self {
            word_embeddings: reader.matrix(
                "embeddings.word_embeddings.weight",
                config.vocab_size,
                hidden,
            )?,
            position_embeddings: reader.matrix(
                "embeddings.position_embeddings.weight",
                config.max_position_embeddings,
                hidden,
            )?,
            token_type_embeddings: reader.matrix(
                "embeddings.token_type_embeddings.weight",
                config.type_vocab_size,
                hidden,
            )?,
            embedding_norm: layer_norm("embeddings.LayerNorm")?,
            layers,
            config,
        })
    }

    pub fn config(&self) -> &BertConfig {
        &self.config
    }

    /// The learned position table, `[position, hidden]`.
    pub fn position_table(&self) -> ArrayView2<'_, f32> {
        self.position_embeddings.view()
    }

    /// Runs the encoder on one sequence of token ids (with its `[CLS]` and `[SEP]`), all of
    /// token type 0 and all attended to (no padding).
    pub fn forward(
        &self,
        ids: &[u32],
        position_table: PositionTable,
    ) -> Result<ForwardOutput, MiniLmError> {
        let count = ids.len();
        if count == 0 {
            return Err(MiniLmError::NoTokens);
        }
        let limit = self.config.max_position_embeddings;
        if count > limit {
            return Err(MiniLmError::TooManyTokens { count, limit });
        }
        let vocab_size = self.config.vocab_size;
        if let Some((position, &id)) = ids
            .iter()
            .enumerate()
            .find(|(_, &id)| id as usize >= vocab_size)
        {
            return Err(MiniLmError::TokenIdOutOfRange {
                id,
                position,
                vocab_size,
            });
        }

        let mut hidden = self.embed(ids, position_table);
        let heads = self.config.num_attention_heads;
        let mut attention = Array4::zeros((self.layers.len(), heads, count, count));
        for (layer, weights) in self.layers.iter().zip(attention.outer_iter_mut()) {
            hidden = self.encoder_layer(layer, &hidden, weights);
        }
        Ok(ForwardOutput {
            attention,
            last_hidden_state: hidden,
        })
    }

    /// Word, token-type (0) and, unless zeroed, position embeddings, summed in transformers'
    /// order, then normalized.
    fn embed(&self, ids: &[u32], position_table: PositionTable) -> Array2<f32> {
        let mut embeddings = Array2::zeros((ids.len(), self.config.hidden_size));
        let token_type = self.token_type_embeddings.row(0);
        for (position, (mut row, &id)) in embeddings.outer_iter_mut().zip(ids).enumerate() {
            row.assign(&self.word_embeddings.row(id as usize));
            row += &token_type;
            if position_table == PositionTable::Learned {
                row += &self.position_embeddings.row(position);
            }
        }
        self.embedding_norm.apply(&mut embeddings);
        embeddings
    }

    /// One encoder layer; writes its heads' attention weights into `weights` ([head, query, key]).
    fn encoder_layer(
        &self,
        layer: &EncoderLayer,
        input: &Array2<f32>,
        mut weights: ArrayViewMut3<'_, f32>,
    ) -> Array2<f32> {
        let head_size = self.config.head_size();
        // transformers scales by head_size ** -0.5, a float64 rounded once to float32.
        let scale = (head_size as f64).powf(-0.5) as f32;
        let queries = layer.query.apply(input);
        let keys = layer.key.apply(input);
        let values = layer.value.apply(input);

        let mut context = Array2::zeros(input.raw_dim());
        for (head, mut head_weights) in weights.outer_iter_mut().enumerate() {
            let columns = s![.., head * head_size..(head + 1) * head_size];
            let mut scores = queries.slice(columns).dot(&keys.slice(columns).t());
            scores *= scale;
            softmax_rows(&mut scores);
            context
                .slice_mut(columns)
                .assign(&scores.dot(&values.slice(columns)));
            head_weights.assign(&scores);
        }

        let mut attended = layer.attention_output.apply(&context);
        attended += input;
        layer.attention_norm.apply(&mut attended);

        let mut intermediate = layer.intermediate.apply(&attended);
        intermediate.mapv_inplace(gelu);
        let mut output = layer.output.apply(&intermediate);
        output += &attended;
        layer.output_norm.apply(&mut output);
        output
    }
}

/// Softmax over each row, after subtracting the row's largest score (as torch does, so that
/// no exponential overflows).
fn softmax_rows(scores: &mut Array2<f32>) {
    for mut row in scores.axis_iter_mut(Axis(0)) {
        let largest = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        row.mapv_inplace(|score| (score - largest).exp());
        let sum = row.sum();
        row /= sum;
    }
}

/// The exact GELU, `x · Φ(x)` with the error function (transformers' "gelu"), not the tanh
/// approximation.
fn gelu(x: f32) -> f32 {
    x * 0.5 * (1.0 + libm::erff(x * std::f32::consts::FRAC_1_SQRT_2))
}

/// Reads named float32 tensors of known shapes out of a safetensors file.
struct TensorReader<'a, 'data> {
    tensors: &'a SafeTensors<'data>,
}

impl TensorReader<'_, '_> {
    fn matrix(&self, name: &str, rows: usize, columns: usize) -> Result<Array2<f32>, MiniLmError> {
        let values = self.floats(name, &[rows, columns])?;
        Array2::from_shape_vec((rows, columns), values)
            .map_err(|_| shape_error(name, &[rows, columns], &[rows, columns]))
    }

    fn vector(&self, name: &str, length: usize) -> Result<Array1<f32>, MiniLmError> {
        Ok(Array1::from(self.floats(name, &[length])?))
    }

    /// The values of a float32 tensor of the expected shape, in row-major order.
    fn floats(&self, name: &str, expected: &[usize]) -> Result<Vec<f32>, MiniLmError> {
        let view = match self.tensors.tensor(name) {
            Ok(view) => view,
            // Checkpoints saved from `BertForMaskedLM` and the like prefix the encoder's names.
            Err(SafeTensorError::TensorNotFound(_)) => self
                .tensors
                .tensor(&format!("bert.{name}"))
                .map_err(|_| MiniLmError::MissingTensor(name.to_owned()))?,
            Err(error) => return Err(error.into()),
        };
        if view.dtype() != Dtype::F32 {
            return Err(MiniLmError::TensorDtype {
                name: name.to_owned(),
                dtype: format!("{:?}", view.dtype()),
            });
        }
        let count: usize = expected.iter().product();
        // safetensors checks that the bytes fill the shape; checked again so that no value is
        // ever read past them.
        if view.shape() != expected || view.data().len() != count * 4 {
            return Err(shape_error(name, view.shape(), expected));
        }
        // The data need not be aligned to 4 bytes inside the file, so each value is copied out.
        Ok(view
            .data()
            .chunks_exact(4)
            .map(|chunk| {
                let mut bytes = [0u8; 4];
                bytes.copy_from_slice(chunk);
                f32::from_le_bytes(bytes)
            })
            .collect())
    }
}

fn shape_error(name: &str, actual: &[usize], expected: &[usize]) -> MiniLmError {
    MiniLmError::TensorShape {
        name: name.to_owned(),
        actual: actual.to_vec(),
        expected: expected.to_vec(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use safetensors::tensor::TensorView;

    /// A BERT of the smallest sizes, with weights made from their index.
    fn tiny_config() -> BertConfig {
        BertConfig {
            vocab_size: 7,
            hidden_size: 4,
            num_hidden_layers: 2,
            num_attention_heads: 2,
            intermediate_size: 8,
            max_position_embeddings: 5,
            type_vocab_size: 2,
            layer_norm_eps: 1e-12,
        }
    }

    fn tiny_tensors(config: &BertConfig) -> Vec<(String, Vec<usize>, Vec<u8>)> {
        let hidden = config.hidden_size;
        let inner = config.intermediate_size;
        let mut shapes: Vec<(String, Vec<usize>)> = vec![
            (
                "embeddings.word_embeddings.weight".into(),
                vec![config.vocab_size, hidden],
            ),
            (
                "embeddings.position_embeddings.weight".into(),
                vec![config.max_position_embeddings, hidden],
            ),
            (
                "embeddings.token_type_embeddings.weight".into(),
                vec![config.type_vocab_size, hidden],
            ),
            ("embeddings.LayerNorm.weight".into(), vec![hidden]),
            ("embeddings.LayerNorm.bias".into(), vec![hidden]),
        ];
        for layer in 0..config.num_hidden_layers {
            let prefix = format!("encoder.layer.{layer}");
            for (name, outputs, inputs) in [
                ("attention.self.query", hidden, hidden),
                ("attention.self.key", hidden, hidden),
                ("attention.self.value", hidden, hidden),
                ("attention.output.dense", hidden, hidden),
                ("intermediate.dense", inner, hidden),
                ("output.dense", hidden, inner),
            ] {
                shapes.push((format!("{prefix}.{name}.weight"), vec![outputs, inputs]));
                shapes.push((format!("{prefix}.{name}.bias"), vec![outputs]));
            }
            for name in ["attention.output.LayerNorm", "output.LayerNorm"] {
                shapes.push((format!("{prefix}.{name}.weight"), vec![hidden]));
                shapes.push((format!("{prefix}.{name}.bias"), vec![hidden]));
            }
        }
        shapes
            .into_iter()
            .enumerate()
            .map(|(tensor, (name, shape))| {
                let count: usize = shape.iter().product();
                let bytes = (0..count)
                    .flat_map(|index| {
                        let value = ((tensor * 31 + index * 17) % 23) as f32 / 23.0 - 0.4;
                        value.to_le_bytes()
                    })
                    .collect();
                (name, shape, bytes)
            })
            .collect()
    }

    fn serialize(tensors: &[(String, Vec<usize>, Vec<u8>)], dtype: Dtype) -> Vec<u8> {
        let views: Vec<(String, TensorView<'_>)> = tensors
            .iter()
            .map(|(name, shape, bytes)| {
                let view = TensorView::new(dtype, shape.clone(), bytes);
                match view {
                    Ok(view) => (name.clone(), view),
                    Err(error) => panic!("{name}: {error}"),
                }
            })
            .collect();
        match safetensors::serialize(views, None) {
            Ok(bytes) => bytes,
            Err(error) => panic!("{error}"),
        }
    }

    fn tiny_model() -> MiniLm {
        let config = tiny_config();
        let bytes = serialize(&tiny_tensors(&config), Dtype::F32);
        match MiniLm::from_safetensors(config, &bytes) {
            Ok(model) => model,
            Err(error) => panic!("the tiny weights are rejected: {error}"),
        }
    }

    #[test]
    fn attention_rows_are_distributions() {
        let model = tiny_model();
        let output = match model.forward(&[2, 5, 1, 3], PositionTable::Learned) {
            Ok(output) => output,
            Err(error) => panic!("{error}"),
        };
        assert_eq!(output.attention.shape(), &[2, 2, 4, 4]);
        assert_eq!(output.last_hidden_state.shape(), &[4, 4]);
        for row in output.attention.rows() {
            assert!((row.sum() - 1.0).abs() < 1e-5, "{row}");
            assert!(row.iter().all(|&weight| weight >= 0.0));
        }
    }

    #[test]
    fn without_the_table_the_order_of_tokens_only_permutes_the_weights() {
        let model = tiny_model();
        let run = |ids: &[u32]| match model.forward(ids, PositionTable::Zeroed) {
            Ok(output) => output,
            Err(error) => panic!("{error}"),
        };
        let forward = run(&[2, 5, 1, 3]);
        let reversed = run(&[3, 1, 5, 2]);
        let last = 3;
        for ((layer, head, query, key), &weight) in forward.attention.indexed_iter() {
            let mirrored = reversed.attention[(layer, head, last - query, last - key)];
            assert!((weight - mirrored).abs() < 1e-5);
        }
        let with_table = match model.forward(&[2, 5, 1, 3], PositionTable::Learned) {
            Ok(output) => output,
            Err(error) => panic!("{error}"),
        };
        assert_ne!(with_table.attention, forward.attention);
    }

    #[test]
    fn bad_inputs_are_typed_errors() {
        let model = tiny_model();
        assert!(matches!(
            model.forward(&[], PositionTable::Learned),
            Err(MiniLmError::NoTokens)
        ));
        assert!(matches!(
            model.forward(&[1; 6], PositionTable::Learned),
            Err(MiniLmError::TooManyTokens { count: 6, limit: 5 })
        ));
        assert!(matches!(
            model.forward(&[1, 7], PositionTable::Learned),
            Err(MiniLmError::TokenIdOutOfRange {
                id: 7,
                position: 1,
                ..
            })
        ));
    }

    #[test]
    fn bad_weights_are_typed_errors() {
        let config = tiny_config();
        let tensors = tiny_tensors(&config);
        let bytes = serialize(&tensors, Dtype::F32);

        let truncated = MiniLm::from_safetensors(config.clone(), &bytes[..bytes.len() - 1]);
        assert!(matches!(truncated, Err(MiniLmError::Safetensors(_))));
        let garbage = MiniLm::from_safetensors(config.clone(), b"not a safetensors file");
        assert!(matches!(garbage, Err(MiniLmError::Safetensors(_))));

        let missing = serialize(&tensors[1..], Dtype::F32);
        let missing = MiniLm::from_safetensors(config.clone(), &missing);
        assert!(
            matches!(missing, Err(MiniLmError::MissingTensor(name)) if name == "embeddings.word_embeddings.weight")
        );

        let wider = BertConfig {
            hidden_size: 6,
            ..config.clone()
        };
        let wider = MiniLm::from_safetensors(wider, &bytes);
        assert!(matches!(wider, Err(MiniLmError::TensorShape { .. })));

        // The same bytes called 32-bit integers.
        let integers = MiniLm::from_safetensors(config, &serialize(&tensors, Dtype::I32));
        assert!(matches!(integers, Err(MiniLmError::TensorDtype { .. })));
    }

    #[test]
    fn prefixed_names_are_read_too() {
        let config = tiny_config();
        let prefixed: Vec<_> = tiny_tensors(&config)
            .into_iter()
            .map(|(name, shape, bytes)| (format!("bert.{name}"), shape, bytes))
            .collect();
        let loaded = MiniLm::from_safetensors(config, &serialize(&prefixed, Dtype::F32));
        assert!(loaded.is_ok());
    }

    #[test]
    fn gelu_is_the_erf_one() {
        // Φ(1) = 0.841344746…; the tanh approximation gives 0.841191990…
        assert!((gelu(1.0) - 0.841_344_7).abs() < 1e-6);
        assert_eq!(gelu(0.0), 0.0);
    }
}
