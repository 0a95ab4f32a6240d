//! The pretrained panel's model: sentence-transformers' all-MiniLM-L6-v2, a 6-layer, 12-head BERT
//! encoder (hidden 384, learned absolute positions), with its uncased WordPiece tokenizer.
//!
//! Everything here takes bytes (tokenizer.json, config.json, model.safetensors) and returns plain
//! arrays, so that the same code runs natively (its tests compare it with Hugging Face's
//! tokenizer and transformers' attention weights) and in the page's wasm module, which fetches
//! the files itself. No files, no threads, no DOM, no GPU.
//!
//! - [`tokenizer::WordPieceTokenizer`]: text to tokens and ids, as Hugging Face's tokenizer.json
//!   defines it (BERT normalizer, BERT pre-tokenizer, WordPiece, `[CLS] … [SEP]`).
//! - [`model::MiniLm`]: the float32 forward pass, returning every layer's and head's attention
//!   weights and the last hidden state, with or without the learned position table.
//! - [`page_assets`]: the model cut into the files the page fetches lazily (encoder layers and
//!   the small embedding tables at float16, the word table in float32 chunks of
//!   [`page_assets::WORD_CHUNK_ROWS`] rows), how to write them, and [`MiniLm::from_page_assets`]
//!   with [`MiniLm::insert_word_chunk`] to run the model from them.

pub mod config;
pub mod encoder_tensors;
pub mod model;
pub mod page_assets;
pub mod tokenizer;

pub use config::BertConfig;
pub use encoder_tensors::{EncoderTensors, LayerTensors, LinearTensors, NormTensors};
pub use model::{ForwardOutput, MiniLm, PositionTable};
pub use page_assets::{
    read_position_table, word_chunk_count, word_chunk_of, word_chunk_path, word_chunk_rows,
    write_page_assets, CONFIG_FILE, EMBEDDINGS_FILE, LAYERS_FILE, MANIFEST_FILE, MODEL_NAME,
    TOKENIZER_FILE, WORD_CHUNK_ROWS,
};
pub use tokenizer::{Encoding, WordPieceTokenizer};

use thiserror::Error;

/// Why a file of the model cannot be used, or an input cannot be run through it.
#[derive(Debug, Error)]
pub enum MiniLmError {
    #[error("tokenizer.json cannot be read: {0}")]
    TokenizerJson(#[source] serde_json::Error),
    #[error("tokenizer.json describes a tokenizer this crate does not implement: {0}")]
    UnsupportedTokenizer(String),
    #[error("tokenizer.json's vocabulary is unusable: {0}")]
    InvalidVocabulary(String),
    #[error("config.json cannot be read: {0}")]
    ConfigJson(#[source] serde_json::Error),
    #[error("config.json describes a model this crate does not implement: {0}")]
    UnsupportedConfig(String),
    #[error("the weights are not a readable safetensors file: {0}")]
    Safetensors(#[from] safetensors::SafeTensorError),
    #[error("the weights have no tensor named `{0}`")]
    MissingTensor(String),
    #[error("the weights' tensor `{name}` is {dtype}, not {expected}")]
    TensorDtype {
        name: String,
        dtype: String,
        /// What this file may hold: "float32", or "float16 or float32" for the page's assets.
        expected: &'static str,
    },
    #[error("the weights' tensor `{name}` holds {value}, which float16 cannot hold")]
    OutOfFloat16Range { name: String, value: f32 },
    #[error("the page assets' manifest.json cannot be written: {0}")]
    Manifest(#[source] serde_json::Error),
    #[error("word chunk {chunk} does not exist: the word table has {chunks} chunks")]
    WordChunkOutOfRange { chunk: u32, chunks: u32 },
    #[error("word chunk {chunk} has {actual} bytes, it must have {expected}")]
    WordChunkLength {
        chunk: u32,
        actual: usize,
        expected: usize,
    },
    #[error(
        "the weights' tensor `{name}` has shape {actual:?}, the configuration needs {expected:?}"
    )]
    TensorShape {
        name: String,
        actual: Vec<usize>,
        expected: Vec<usize>,
    },
    #[error("there are no tokens to run the model on")]
    NoTokens,
    #[error("{count} tokens are more than the model's {limit} positions")]
    TooManyTokens { count: usize, limit: usize },
    #[error("token id {id} (at position {position}) is outside the vocabulary of {vocab_size}")]
    TokenIdOutOfRange {
        id: u32,
        position: usize,
        vocab_size: usize,
    },
    /// The model was built from the page's assets and the chunk holding this token's row has not
    /// been inserted yet ([`MiniLm::missing_word_chunks`] lists what to fetch).
    #[error("token id {id}'s embedding is not loaded: word chunk {chunk} is missing")]
    MissingWordRow { id: u32, chunk: u32 },
}
