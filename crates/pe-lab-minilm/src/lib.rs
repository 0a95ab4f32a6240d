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

pub mod config;
pub mod model;
pub mod tokenizer;

pub use config::BertConfig;
pub use model::{ForwardOutput, MiniLm, PositionTable};
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
    #[error("the weights' tensor `{name}` is {dtype}, not float32")]
    TensorDtype { name: String, dtype: String },
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
}
