//! The settings of one training run, their ranges, and the clamping that brings any value into
//! range with a notice.

use crate::encodings::Encoding;
use crate::tasks::Task;

pub const MIN_VOCAB: usize = 2;
pub const MAX_VOCAB: usize = 64;
pub const MIN_TRAIN_LENGTH: usize = 2;
pub const MAX_TRAIN_LENGTH: usize = 64;
pub const MAX_STEPS: usize = 100_000;
pub const MIN_LEARNING_RATE: f64 = 1e-5;
pub const MAX_LEARNING_RATE: f64 = 0.1;
pub const MIN_D: usize = 4;
pub const MAX_D: usize = 128;
pub const MAX_HEADS: usize = 8;
pub const MAX_LAYERS: usize = 3;
pub const MAX_BATCH: usize = 256;
/// The longest sequence [`crate::Trainer::evaluate`] and the attention map accept (4 × the
/// longest training length).
pub const MAX_EVAL_LENGTH: usize = 4 * MAX_TRAIN_LENGTH;

/// Everything that determines a run: the same configuration gives the same run, bit for bit.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TrainConfig {
    pub task: Task,
    /// `shift`'s k, 1 ≤ k < train_length.
    pub shift_k: usize,
    /// Tokens are drawn uniformly from 0..vocab.
    pub vocab: usize,
    /// The longest training sequence; each step draws its length uniformly from
    /// [`TrainConfig::length_range`].
    pub train_length: usize,
    pub steps: usize,
    /// Adam's step size (constant).
    pub learning_rate: f64,
    pub seed: u64,
    /// The model width; a multiple of 2 × heads (every head has an even width, for RoPE).
    pub d: usize,
    pub heads: usize,
    pub layers: usize,
    /// Each position attends only to itself and earlier positions.
    pub causal: bool,
    /// LayerNorm after each residual sum (post-norm, as d2l's AddNorm).
    pub layer_norm: bool,
    /// A position-wise MLP (d → 4d → d, ReLU) after the attention of every layer.
    pub mlp: bool,
    /// Sequences per step.
    pub batch: usize,
    pub encoding: Encoding,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            task: Task::Shift,
            shift_k: 3,
            vocab: 16,
            train_length: 16,
            steps: 600,
            learning_rate: 3e-3,
            seed: 1,
            d: 32,
            heads: 2,
            layers: 2,
            causal: false,
            layer_norm: true,
            mlp: false,
            batch: 64,
            encoding: Encoding::Sinusoidal,
        }
    }
}

/// A value that was out of range and what it became.
#[derive(Debug, Clone, PartialEq)]
pub struct Notice {
    pub field: &'static str,
    pub requested: String,
    pub used: String,
    pub reason: String,
}

fn clamp_usize(
    notices: &mut Vec<Notice>,
    field: &'static str,
    value: &mut usize,
    low: usize,
    high: usize,
) {
    let used = (*value).clamp(low, high);
    if used != *value {
        notices.push(Notice {
            field,
            requested: value.to_string(),
            used: used.to_string(),
            reason: format!("{field} must be between {low} and {high}"),
        });
        *value = used;
    }
}

impl TrainConfig {
    /// The range of training lengths: from max(⌈train_length/2⌉, shift_k + 1) to train_length.
    pub fn length_range(&self) -> (usize, usize) {
        let shortest = self.train_length.div_ceil(2);
        let shortest = if self.task == Task::Shift {
            shortest.max(self.shift_k + 1)
        } else {
            shortest
        };
        (shortest.min(self.train_length), self.train_length)
    }

    /// The configuration with every value brought into range, and a notice for each change.
    pub fn clamp(&self) -> (TrainConfig, Vec<Notice>) {
        let mut c = self.clone();
        let mut notices = Vec::new();
        clamp_usize(&mut notices, "vocab", &mut c.vocab, MIN_VOCAB, MAX_VOCAB);
        clamp_usize(
            &mut notices,
            "train_length",
            &mut c.train_length,
            MIN_TRAIN_LENGTH,
            MAX_TRAIN_LENGTH,
        );
        clamp_usize(
            &mut notices,
            "shift_k",
            &mut c.shift_k,
            1,
            c.train_length - 1,
        );
        clamp_usize(&mut notices, "steps", &mut c.steps, 1, MAX_STEPS);
        clamp_usize(&mut notices, "heads", &mut c.heads, 1, MAX_HEADS);
        clamp_usize(&mut notices, "layers", &mut c.layers, 1, MAX_LAYERS);
        clamp_usize(&mut notices, "batch", &mut c.batch, 1, MAX_BATCH);
        clamp_usize(&mut notices, "d", &mut c.d, MIN_D, MAX_D);
        let unit = 2 * c.heads;
        if c.d % unit != 0 {
            // The nearest multiple at or below d, but at least one unit.
            let used = (c.d / unit).max(1) * unit;
            notices.push(Notice {
                field: "d",
                requested: c.d.to_string(),
                used: used.to_string(),
                reason: format!("d must be a multiple of 2 × heads = {unit}"),
            });
            c.d = used;
        }
        let lr = c.learning_rate;
        let used = if lr.is_finite() {
            lr.clamp(MIN_LEARNING_RATE, MAX_LEARNING_RATE)
        } else {
            TrainConfig::default().learning_rate
        };
        if used != lr {
            notices.push(Notice {
                field: "learning_rate",
                requested: lr.to_string(),
                used: used.to_string(),
                reason: format!(
                    "the learning rate must be a number between {MIN_LEARNING_RATE} and {MAX_LEARNING_RATE}"
                ),
            });
            c.learning_rate = used;
        }
        (c, notices)
    }

    /// Whether every value is in range (what [`TrainConfig::clamp`] would leave unchanged).
    pub fn is_valid(&self) -> bool {
        self.clamp().1.is_empty()
    }

    /// The output classes of the readout.
    pub fn classes(&self) -> usize {
        self.task.classes(self.vocab)
    }

    /// The width of one head.
    pub fn head_width(&self) -> usize {
        self.d / self.heads
    }

    /// The hidden width of the MLP.
    pub fn mlp_width(&self) -> usize {
        4 * self.d
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_is_valid() {
        assert!(TrainConfig::default().is_valid());
    }

    #[test]
    fn clamp_reports_every_change() {
        let config = TrainConfig {
            vocab: 1000,
            d: 30,
            heads: 4,
            shift_k: 40,
            learning_rate: f64::NAN,
            ..TrainConfig::default()
        };
        let (used, notices) = config.clamp();
        assert_eq!(used.vocab, MAX_VOCAB);
        assert_eq!(used.d, 24);
        assert_eq!(used.shift_k, 15);
        assert_eq!(used.learning_rate, 3e-3);
        let fields: Vec<_> = notices.iter().map(|n| n.field).collect();
        assert_eq!(fields, ["vocab", "shift_k", "d", "learning_rate"]);
        assert!(used.is_valid());
    }

    #[test]
    fn length_range_leaves_room_for_the_shift() {
        let config = TrainConfig {
            train_length: 8,
            shift_k: 6,
            ..TrainConfig::default()
        };
        assert_eq!(config.length_range(), (7, 8));
    }
}
