//! The BERT encoder's forward pass in float32, as transformers' `BertModel` with eager attention
//! computes it, keeping every layer's and head's attention weights.

use ndarray::{s, Array1, Array2, Array4, ArrayView1, ArrayView2, ArrayViewMut3, Axis};
use safetensors::{Dtype, SafeTensorError, SafeTensors};

use crate::page_assets::{
    word_chunk_count, word_chunk_of, word_chunk_rows, WORD_CHUNK_ROWS, WORD_CHUNK_VALUE_BYTES,
};
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
pub(crate) struct Linear {
    pub(crate) weight: Array2<f32>,
    pub(crate) bias: Array1<f32>,
}

impl Linear {
    fn apply(&self, input: &Array2<f32>) -> Array2<f32> {
        let mut output = input.dot(&self.weight.t());
        output += &self.bias;
        output
    }
}

#[derive(Debug, Clone)]
pub(crate) struct LayerNorm {
    pub(crate) weight: Array1<f32>,
    pub(crate) bias: Array1<f32>,
    pub(crate) eps: f32,
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
pub(crate) struct EncoderLayer {
    pub(crate) query: Linear,
    pub(crate) key: Linear,
    pub(crate) value: Linear,
    pub(crate) attention_output: Linear,
    pub(crate) attention_norm: LayerNorm,
    pub(crate) intermediate: Linear,
    pub(crate) output: Linear,
    pub(crate) output_norm: LayerNorm,
}

/// The word-embedding table, whole or as the chunks fetched so far.
#[derive(Debug, Clone)]
enum WordRows {
    /// Every row, as the model's safetensors file holds them.
    Full(Array2<f32>),
    /// One entry per chunk of [`WORD_CHUNK_ROWS`] rows (the last one shorter), `None` until the
    /// page has fetched and inserted it. Kept as float32 like the full table, so that the
    /// forward pass reads a row the same way and no slower.
    Chunked(Vec<Option<Array2<f32>>>),
}

/// all-MiniLM-L6-v2 (or any BERT encoder with learned absolute positions), ready to run.
#[derive(Debug, Clone)]
pub struct MiniLm {
    config: BertConfig,
    word_embeddings: WordRows,
    position_embeddings: Array2<f32>,
    token_type_embeddings: Array2<f32>,
    pub(crate) embedding_norm: LayerNorm,
    pub(crate) layers: Vec<EncoderLayer>,
}

impl MiniLm {
    /// Reads the weights from the bytes of a safetensors file (float32), named as transformers'
    /// `BertModel` names them (with or without a `bert.` prefix), and checks every shape against
    /// the configuration. The pooler and anything else in the file is left unread.
    pub fn from_safetensors(config: BertConfig, bytes: &[u8]) -> Result<Self, MiniLmError> {
        config.validate()?;
        let tensors = SafeTensors::deserialize(bytes)?;
        let reader = TensorReader {
            tensors: &tensors,
            accepts_float16: false,
        };
        Ok(Self {
            word_embeddings: WordRows::Full(reader.matrix(
                WORD_EMBEDDINGS,
                config.vocab_size,
                config.hidden_size,
            )?),
            position_embeddings: read_position_embeddings(&reader, &config)?,
            token_type_embeddings: read_token_type_embeddings(&reader, &config)?,
            embedding_norm: read_layer_norm(&reader, &config, EMBEDDING_NORM)?,
            layers: read_encoder_layers(&reader, &config)?,
            config,
        })
    }

    /// Builds the model from the page's assets (see [`crate::page_assets`]): the bytes of
    /// layers.safetensors and embeddings.safetensors, whose tensors may be float16 or float32
    /// (float16 values are widened to float32; the arithmetic is float32 as ever). The model
    /// starts with no word rows: insert the chunks a sentence needs
    /// ([`Self::missing_word_chunks`], [`Self::insert_word_chunk`]) before running it.
    pub fn from_page_assets(
        config: BertConfig,
        layers: &[u8],
        embeddings: &[u8],
    ) -> Result<Self, MiniLmError> {
        config.validate()?;
        let layer_tensors = SafeTensors::deserialize(layers)?;
        let embedding_tensors = SafeTensors::deserialize(embeddings)?;
        let layer_reader = TensorReader {
            tensors: &layer_tensors,
            accepts_float16: true,
        };
        let embedding_reader = TensorReader {
            tensors: &embedding_tensors,
            accepts_float16: true,
        };
        let chunks = word_chunk_count(config.vocab_size) as usize;
        Ok(Self {
            word_embeddings: WordRows::Chunked(vec![None; chunks]),
            position_embeddings: read_position_embeddings(&embedding_reader, &config)?,
            token_type_embeddings: read_token_type_embeddings(&embedding_reader, &config)?,
            embedding_norm: read_layer_norm(&embedding_reader, &config, EMBEDDING_NORM)?,
            layers: read_encoder_layers(&layer_reader, &config)?,
            config,
        })
    }

    /// The word chunks (sorted, each once) that `ids` need and that have not been inserted.
    /// Ids outside the vocabulary are in no chunk ([`Self::forward`] reports them); a model read
    /// from a safetensors file has every row and so never misses one.
    pub fn missing_word_chunks(&self, ids: &[u32]) -> Vec<u32> {
        let WordRows::Chunked(chunks) = &self.word_embeddings else {
            return Vec::new();
        };
        let mut missing: Vec<u32> = ids
            .iter()
            .filter(|&&id| (id as usize) < self.config.vocab_size)
            .map(|&id| word_chunk_of(id))
            .filter(|&chunk| matches!(chunks.get(chunk as usize), Some(None)))
            .collect();
        missing.sort_unstable();
        missing.dedup();
        missing
    }

    /// Inserts one chunk of the word table: the bytes of words/NNNN.bin, [`WORD_CHUNK_ROWS`]
    /// rows (fewer in the last chunk) of `hidden_size` little-endian float32 values. Inserting
    /// a chunk again replaces its rows (in a model read from a safetensors file too).
    pub fn insert_word_chunk(&mut self, chunk: u32, bytes: &[u8]) -> Result<(), MiniLmError> {
        let hidden = self.config.hidden_size;
        let Some(rows) = word_chunk_rows(self.config.vocab_size, chunk) else {
            return Err(MiniLmError::WordChunkOutOfRange {
                chunk,
                chunks: word_chunk_count(self.config.vocab_size),
            });
        };
        let expected = rows * hidden * WORD_CHUNK_VALUE_BYTES;
        if bytes.len() != expected {
            return Err(MiniLmError::WordChunkLength {
                chunk,
                actual: bytes.len(),
                expected,
            });
        }
        let values: Vec<f32> = bytes
            .chunks_exact(WORD_CHUNK_VALUE_BYTES)
            .map(|value| f32::from_le_bytes([value[0], value[1], value[2], value[3]]))
            .collect();
        let block = Array2::from_shape_vec((rows, hidden), values).map_err(|_| {
            MiniLmError::WordChunkLength {
                chunk,
                actual: bytes.len(),
                expected,
            }
        })?;
        let first = chunk as usize * WORD_CHUNK_ROWS;
        match &mut self.word_embeddings {
            WordRows::Full(table) => table.slice_mut(s![first..first + rows, ..]).assign(&block),
            WordRows::Chunked(chunks) => {
                if let Some(slot) = chunks.get_mut(chunk as usize) {
                    *slot = Some(block);
                }
            }
        }
        Ok(())
    }

    /// The embedding of one token id (already checked to be inside the vocabulary).
    fn word_row(&self, id: u32) -> Result<ArrayView1<'_, f32>, MiniLmError> {
        let missing = || MiniLmError::MissingWordRow {
            id,
            chunk: word_chunk_of(id),
        };
        match &self.word_embeddings {
            WordRows::Full(table) if (id as usize) < table.nrows() => Ok(table.row(id as usize)),
            WordRows::Chunked(chunks) => match chunks.get(word_chunk_of(id) as usize) {
                Some(Some(rows)) if id as usize % WORD_CHUNK_ROWS < rows.nrows() => {
                    Ok(rows.row(id as usize % WORD_CHUNK_ROWS))
                }
                _ => Err(missing()),
            },
            WordRows::Full(_) => Err(missing()),
        }
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
        let mut hidden = self.embedding_sum(ids, position_table)?;
        self.embedding_norm.apply(&mut hidden);
        let count = ids.len();
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

    /// The embeddings of `ids` before their LayerNorm: word, token-type (0) and, unless zeroed,
    /// position rows, summed in transformers' order, `[token, hidden]`. The first step of
    /// [`MiniLm::forward`], and the input another implementation of the encoder (the GPU's) is
    /// given: a gather of rows, which the word table's chunks make a CPU step.
    pub fn embedding_sum(
        &self,
        ids: &[u32],
        position_table: PositionTable,
    ) -> Result<Array2<f32>, MiniLmError> {
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
        let mut embeddings = Array2::zeros((count, self.config.hidden_size));
        let token_type = self.token_type_embeddings.row(0);
        for (position, (mut row, &id)) in embeddings.outer_iter_mut().zip(ids).enumerate() {
            row.assign(&self.word_row(id)?);
            row += &token_type;
            if position_table == PositionTable::Learned {
                row += &self.position_embeddings.row(position);
            }
        }
        Ok(embeddings)
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

pub(crate) const WORD_EMBEDDINGS: &str = "embeddings.word_embeddings.weight";
pub(crate) const POSITION_EMBEDDINGS: &str = "embeddings.position_embeddings.weight";
pub(crate) const TOKEN_TYPE_EMBEDDINGS: &str = "embeddings.token_type_embeddings.weight";
pub(crate) const EMBEDDING_NORM: &str = "embeddings.LayerNorm";

/// The dense layers of an encoder layer, as named under `encoder.layer.{index}.`.
const QUERY: &str = "attention.self.query";
const KEY: &str = "attention.self.key";
const VALUE: &str = "attention.self.value";
const ATTENTION_OUTPUT: &str = "attention.output.dense";
const INTERMEDIATE: &str = "intermediate.dense";
const OUTPUT: &str = "output.dense";
/// Its two LayerNorms.
const ATTENTION_NORM: &str = "attention.output.LayerNorm";
const OUTPUT_NORM: &str = "output.LayerNorm";

/// Every tensor of the encoder layers that the forward pass reads, with its shape: the list the
/// page's assets are written from, and the one [`read_encoder_layers`] reads (a test holds the
/// two to each other by a round trip).
pub(crate) fn encoder_layer_tensors(config: &BertConfig) -> Vec<(String, Vec<usize>)> {
    let hidden = config.hidden_size;
    let inner = config.intermediate_size;
    let mut tensors = Vec::new();
    for index in 0..config.num_hidden_layers {
        for (name, outputs, inputs) in [
            (QUERY, hidden, hidden),
            (KEY, hidden, hidden),
            (VALUE, hidden, hidden),
            (ATTENTION_OUTPUT, hidden, hidden),
            (INTERMEDIATE, inner, hidden),
            (OUTPUT, hidden, inner),
        ] {
            let prefix = layer_prefix(index, name);
            tensors.push((format!("{prefix}.weight"), vec![outputs, inputs]));
            tensors.push((format!("{prefix}.bias"), vec![outputs]));
        }
        for name in [ATTENTION_NORM, OUTPUT_NORM] {
            let prefix = layer_prefix(index, name);
            tensors.push((format!("{prefix}.weight"), vec![hidden]));
            tensors.push((format!("{prefix}.bias"), vec![hidden]));
        }
    }
    tensors
}

fn layer_prefix(index: usize, name: &str) -> String {
    format!("encoder.layer.{index}.{name}")
}

fn read_encoder_layers(
    reader: &TensorReader<'_, '_>,
    config: &BertConfig,
) -> Result<Vec<EncoderLayer>, MiniLmError> {
    let hidden = config.hidden_size;
    let inner = config.intermediate_size;
    let linear = |prefix: String, inputs: usize, outputs: usize| -> Result<Linear, MiniLmError> {
        Ok(Linear {
            weight: reader.matrix(&format!("{prefix}.weight"), outputs, inputs)?,
            bias: reader.vector(&format!("{prefix}.bias"), outputs)?,
        })
    };
    (0..config.num_hidden_layers)
        .map(|index| {
            Ok(EncoderLayer {
                query: linear(layer_prefix(index, QUERY), hidden, hidden)?,
                key: linear(layer_prefix(index, KEY), hidden, hidden)?,
                value: linear(layer_prefix(index, VALUE), hidden, hidden)?,
                attention_output: linear(layer_prefix(index, ATTENTION_OUTPUT), hidden, hidden)?,
                attention_norm: read_layer_norm(
                    reader,
                    config,
                    &layer_prefix(index, ATTENTION_NORM),
                )?,
                intermediate: linear(layer_prefix(index, INTERMEDIATE), hidden, inner)?,
                output: linear(layer_prefix(index, OUTPUT), inner, hidden)?,
                output_norm: read_layer_norm(reader, config, &layer_prefix(index, OUTPUT_NORM))?,
            })
        })
        .collect()
}

fn read_layer_norm(
    reader: &TensorReader<'_, '_>,
    config: &BertConfig,
    prefix: &str,
) -> Result<LayerNorm, MiniLmError> {
    Ok(LayerNorm {
        weight: reader.vector(&format!("{prefix}.weight"), config.hidden_size)?,
        bias: reader.vector(&format!("{prefix}.bias"), config.hidden_size)?,
        eps: config.layer_norm_eps,
    })
}

fn read_position_embeddings(
    reader: &TensorReader<'_, '_>,
    config: &BertConfig,
) -> Result<Array2<f32>, MiniLmError> {
    reader.matrix(
        POSITION_EMBEDDINGS,
        config.max_position_embeddings,
        config.hidden_size,
    )
}

fn read_token_type_embeddings(
    reader: &TensorReader<'_, '_>,
    config: &BertConfig,
) -> Result<Array2<f32>, MiniLmError> {
    reader.matrix(
        TOKEN_TYPE_EMBEDDINGS,
        config.type_vocab_size,
        config.hidden_size,
    )
}

/// The position table alone, from embeddings.safetensors (float16 or float32).
pub(crate) fn read_position_table_from(
    bytes: &[u8],
    config: &BertConfig,
) -> Result<Array2<f32>, MiniLmError> {
    config.validate()?;
    let tensors = SafeTensors::deserialize(bytes)?;
    let reader = TensorReader {
        tensors: &tensors,
        accepts_float16: true,
    };
    read_position_embeddings(&reader, config)
}

/// Reads named float tensors of known shapes out of a safetensors file.
pub(crate) struct TensorReader<'a, 'data> {
    pub(crate) tensors: &'a SafeTensors<'data>,
    /// Whether float16 tensors are read too (the page's assets), or only float32 (the model's
    /// own file, which is all float32).
    pub(crate) accepts_float16: bool,
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

    /// The values of a float tensor of the expected shape, in row-major order, as float32.
    pub(crate) fn floats(&self, name: &str, expected: &[usize]) -> Result<Vec<f32>, MiniLmError> {
        let view = match self.tensors.tensor(name) {
            Ok(view) => view,
            // Checkpoints saved from `BertForMaskedLM` and the like prefix the encoder's names.
            Err(SafeTensorError::TensorNotFound(_)) => self
                .tensors
                .tensor(&format!("bert.{name}"))
                .map_err(|_| MiniLmError::MissingTensor(name.to_owned()))?,
            Err(error) => return Err(error.into()),
        };
        let width = match view.dtype() {
            Dtype::F32 => 4,
            Dtype::F16 if self.accepts_float16 => 2,
            dtype => {
                return Err(MiniLmError::TensorDtype {
                    name: name.to_owned(),
                    dtype: format!("{dtype:?}"),
                    expected: if self.accepts_float16 {
                        "float16 or float32"
                    } else {
                        "float32"
                    },
                })
            }
        };
        let count: usize = expected.iter().product();
        // safetensors checks that the bytes fill the shape; checked again so that no value is
        // ever read past them.
        if view.shape() != expected || view.data().len() != count * width {
            return Err(shape_error(name, view.shape(), expected));
        }
        // The data need not be aligned inside the file, so each value is copied out.
        let data = view.data();
        Ok(if width == 4 {
            data.chunks_exact(4)
                .map(|chunk| f32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]))
                .collect()
        } else {
            data.chunks_exact(2)
                .map(|pair| half::f16::from_le_bytes([pair[0], pair[1]]).to_f32())
                .collect()
        })
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
pub(crate) mod tests;
