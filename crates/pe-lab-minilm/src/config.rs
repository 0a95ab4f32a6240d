//! The sizes of a BERT encoder, from its config.json.

use serde::Deserialize;

use crate::MiniLmError;

/// The shape of a BERT encoder: what the weights must hold and how the forward pass runs.
#[derive(Debug, Clone, PartialEq)]
pub struct BertConfig {
    pub vocab_size: usize,
    pub hidden_size: usize,
    pub num_hidden_layers: usize,
    pub num_attention_heads: usize,
    pub intermediate_size: usize,
    /// Rows of the learned position table: the longest input, in tokens.
    pub max_position_embeddings: usize,
    pub type_vocab_size: usize,
    pub layer_norm_eps: f32,
}

// config.json, as far as the forward pass needs it.
#[derive(Deserialize)]
struct ConfigFile {
    vocab_size: usize,
    hidden_size: usize,
    num_hidden_layers: usize,
    num_attention_heads: usize,
    intermediate_size: usize,
    max_position_embeddings: usize,
    type_vocab_size: usize,
    layer_norm_eps: f64,
    hidden_act: String,
    #[serde(default = "absolute")]
    position_embedding_type: String,
    model_type: Option<String>,
}

fn absolute() -> String {
    "absolute".to_owned()
}

impl BertConfig {
    /// sentence-transformers' all-MiniLM-L6-v2, as its config.json gives it.
    pub fn all_minilm_l6_v2() -> Self {
        Self {
            vocab_size: 30_522,
            hidden_size: 384,
            num_hidden_layers: 6,
            num_attention_heads: 12,
            intermediate_size: 1536,
            max_position_embeddings: 512,
            type_vocab_size: 2,
            layer_norm_eps: 1e-12,
        }
    }

    /// Reads the configuration of a BERT model from the bytes of its config.json.
    pub fn from_config_json(bytes: &[u8]) -> Result<Self, MiniLmError> {
        let file: ConfigFile = serde_json::from_slice(bytes).map_err(MiniLmError::ConfigJson)?;
        let unsupported = |what: String| Err(MiniLmError::UnsupportedConfig(what));
        if let Some(model_type) = &file.model_type {
            if model_type != "bert" {
                return unsupported(format!("model type `{model_type}`, not bert"));
            }
        }
        // Transformers' "gelu" is the exact one, with erf; the forward pass implements only it.
        if file.hidden_act != "gelu" {
            return unsupported(format!("activation `{}`, not gelu", file.hidden_act));
        }
        if file.position_embedding_type != "absolute" {
            return unsupported(format!(
                "position embedding type `{}`, not absolute",
                file.position_embedding_type
            ));
        }
        let config = Self {
            vocab_size: file.vocab_size,
            hidden_size: file.hidden_size,
            num_hidden_layers: file.num_hidden_layers,
            num_attention_heads: file.num_attention_heads,
            intermediate_size: file.intermediate_size,
            max_position_embeddings: file.max_position_embeddings,
            type_vocab_size: file.type_vocab_size,
            layer_norm_eps: file.layer_norm_eps as f32,
        };
        config.validate()?;
        Ok(config)
    }

    /// The width of one head's queries, keys and values.
    pub fn head_size(&self) -> usize {
        self.hidden_size / self.num_attention_heads
    }

    /// Checks the sizes the forward pass relies on.
    pub fn validate(&self) -> Result<(), MiniLmError> {
        let sizes = [
            ("vocab_size", self.vocab_size),
            ("hidden_size", self.hidden_size),
            ("num_hidden_layers", self.num_hidden_layers),
            ("num_attention_heads", self.num_attention_heads),
            ("intermediate_size", self.intermediate_size),
            ("max_position_embeddings", self.max_position_embeddings),
            ("type_vocab_size", self.type_vocab_size),
        ];
        if let Some((name, _)) = sizes.iter().find(|(_, size)| *size == 0) {
            return Err(MiniLmError::UnsupportedConfig(format!("{name} is 0")));
        }
        if self.hidden_size % self.num_attention_heads != 0 {
            return Err(MiniLmError::UnsupportedConfig(format!(
                "hidden_size {} is not a multiple of num_attention_heads {}",
                self.hidden_size, self.num_attention_heads
            )));
        }
        if !(self.layer_norm_eps.is_finite() && self.layer_norm_eps >= 0.0) {
            return Err(MiniLmError::UnsupportedConfig(format!(
                "layer_norm_eps {} is not a finite number ≥ 0",
                self.layer_norm_eps
            )));
        }
        Ok(())
    }
}
