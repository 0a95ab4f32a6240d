//! The training loop the page's worker drives: one [`Trainer`] per encoding, stepped one batch at
//! a time, evaluated at any length.

use pe_lab_math::rng::SplitMix64;
use thiserror::Error;

use crate::adam::Adam;
use crate::analysis::{best_offset_hit_rate, HeadHitRate};
use crate::config::{Notice, TrainConfig, MAX_EVAL_LENGTH};
use crate::encodings::Encoding;
use crate::model::{Model, Workspace};
use crate::tasks::{Batch, NO_TARGET};

/// Mixed into the seed for the training data, so that the data stream is independent of the
/// initial weights (and the same for every encoding trained from the same seed).
const DATA_STREAM: u64 = 0x6461_7461_0000_0000;

/// Why a trainer cannot do what was asked.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum TrainError {
    #[error("the configuration is out of range ({}); TrainConfig::clamp brings it into range", describe(.0))]
    OutOfRange(Vec<Notice>),
    #[error("length {requested} is outside 1..={limit}")]
    Length { requested: usize, limit: usize },
    #[error("token {token} is outside the vocabulary 0..{vocab}")]
    Token { token: usize, vocab: usize },
    #[error("at least one sample is needed")]
    NoSamples,
    #[error("a table of {rows} × {cols} needs {} values, not {values}", .rows.saturating_mul(*.cols))]
    TableShape {
        values: usize,
        rows: usize,
        cols: usize,
    },
    #[error("at least one encoding is needed")]
    NoEncodings,
    #[error("{given} trained values do not fit a model of {expected} parameters")]
    ParameterCount { given: usize, expected: usize },
    #[error("{given} losses do not match the {steps} steps trained")]
    LossCount { given: usize, steps: usize },
    #[error("the {0} encoding is not in this run")]
    NotInRun(&'static str),
}

fn describe(notices: &[Notice]) -> String {
    notices
        .iter()
        .map(|n| format!("{}: {}", n.field, n.reason))
        .collect::<Vec<_>>()
        .join("; ")
}

/// The attention weights of one head on one example: `weights[i·length + j]` is how much query i
/// attends to key j.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AttentionMap {
    pub layer: usize,
    pub head: usize,
    pub length: usize,
    pub weights: Vec<f32>,
}

/// The `learned` position table: `rows` = train_length rows of `cols` = d values, row-major.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PositionTable {
    pub rows: usize,
    pub cols: usize,
    pub values: Vec<f32>,
}

/// The training batches of a run: each step's length drawn from the training range, then the
/// batch, from one stream seeded by the run's seed. Public so that other trainers of the same
/// model (the GPU's) see exactly the batches [`Trainer`] sees.
#[derive(Debug, Clone)]
pub struct BatchStream {
    data: SplitMix64,
}

impl BatchStream {
    /// The stream of a run with `seed`.
    pub fn new(seed: u64) -> Self {
        BatchStream {
            data: SplitMix64::new(seed ^ DATA_STREAM),
        }
    }

    /// Replaces `batch` with the next training batch of `config`.
    pub fn next_batch(&mut self, config: &TrainConfig, batch: &mut Batch) {
        let (shortest, longest) = config.length_range();
        let length = shortest + self.data.below(longest - shortest + 1);
        batch.sample(
            config.task,
            config.shift_k,
            config.vocab,
            config.batch,
            length,
            &mut self.data,
        );
    }
}

/// A model, its parameters, Adam's state and the data stream of one run.
#[derive(Debug, Clone)]
pub struct Trainer {
    model: Model<f32>,
    params: Vec<f32>,
    grads: Vec<f32>,
    adam: Adam<f32>,
    workspace: Workspace<f32>,
    batch: Batch,
    data: BatchStream,
    steps_done: usize,
}

impl Trainer {
    /// A trainer at step 0. The configuration must be in range: pass it through
    /// [`TrainConfig::clamp`] first to turn bad values into notices.
    pub fn new(config: TrainConfig) -> Result<Self, TrainError> {
        let notices = config.clamp().1;
        if !notices.is_empty() {
            return Err(TrainError::OutOfRange(notices));
        }
        let model = Model::new(&config);
        let params = model.layout.initial_values(config.seed);
        let total = model.layout.total;
        Ok(Trainer {
            adam: Adam::new(total, config.learning_rate),
            grads: vec![0.0; total],
            params,
            workspace: Workspace::default(),
            batch: Batch::default(),
            data: BatchStream::new(config.seed),
            steps_done: 0,
            model,
        })
    }

    pub fn config(&self) -> &TrainConfig {
        &self.model.config
    }

    /// The number of trained numbers.
    pub fn parameter_count(&self) -> usize {
        self.params.len()
    }

    pub fn parameters(&self) -> &[f32] {
        &self.params
    }

    pub fn model(&self) -> &Model<f32> {
        &self.model
    }

    pub fn steps_done(&self) -> usize {
        self.steps_done
    }

    /// Whether the configured number of steps has been taken.
    pub fn is_done(&self) -> bool {
        self.steps_done >= self.model.config.steps
    }

    /// One step on a fresh batch (its length drawn from the training range); returns the batch's
    /// loss before the update.
    pub fn step(&mut self) -> f32 {
        self.data.next_batch(&self.model.config, &mut self.batch);
        let loss = self
            .model
            .forward(&self.params, &self.batch, &mut self.workspace);
        self.model.backward(
            &self.params,
            &self.batch,
            &mut self.workspace,
            &mut self.grads,
        );
        self.adam.update(&mut self.params, &self.grads);
        self.steps_done += 1;
        loss
    }

    /// Takes parameters trained elsewhere (the GPU trainer, which keeps the same [`ParamLayout`]
    /// order) as this run's after `steps_done` steps, so that evaluation, attention maps and
    /// tables describe them. Adam's moments are not carried over: a run adopted is over, and
    /// stepping on would start the moments from zero.
    pub fn adopt(&mut self, params: Vec<f32>, steps_done: usize) -> Result<(), TrainError> {
        if params.len() != self.params.len() {
            return Err(TrainError::ParameterCount {
                given: params.len(),
                expected: self.params.len(),
            });
        }
        self.params = params;
        self.steps_done = steps_done;
        Ok(())
    }

    fn check_length(length: usize) -> Result<(), TrainError> {
        if length == 0 || length > MAX_EVAL_LENGTH {
            return Err(TrainError::Length {
                requested: length,
                limit: MAX_EVAL_LENGTH,
            });
        }
        Ok(())
    }

    /// Token accuracy at `length` over `samples` fresh sequences from a stream seeded by `seed`
    /// (independent of the training data): the share of positions with a target where the
    /// readout's largest logit is the target. Leaves the training state unchanged.
    pub fn evaluate(
        &mut self,
        length: usize,
        samples: usize,
        seed: u64,
    ) -> Result<f64, TrainError> {
        Self::check_length(length)?;
        if samples == 0 {
            return Err(TrainError::NoSamples);
        }
        let c = self.model.config.clone();
        let mut stream = SplitMix64::new(seed);
        let mut batch = Batch::default();
        let (mut correct, mut counted) = (0usize, 0usize);
        let mut remaining = samples;
        self.model.tables.ensure(length);
        while remaining > 0 {
            let sequences = remaining.min(c.batch);
            remaining -= sequences;
            batch.sample(c.task, c.shift_k, c.vocab, sequences, length, &mut stream);
            self.model
                .run_layers(&self.params, &batch, &mut self.workspace);
            self.model.logits(&self.params, &mut self.workspace);
            let classes = c.classes();
            let logits = &self.workspace.probabilities[..sequences * length * classes];
            for (row, &target) in logits.chunks_exact(classes).zip(&batch.targets) {
                if target == NO_TARGET {
                    continue;
                }
                counted += 1;
                // The first largest logit (ties go to the smaller class).
                let best = row
                    .iter()
                    .enumerate()
                    .fold(0, |best, (k, &v)| if v > row[best] { k } else { best });
                if best == target {
                    correct += 1;
                }
            }
        }
        Ok(if counted == 0 {
            0.0
        } else {
            correct as f64 / counted as f64
        })
    }

    /// A sequence of `length` tokens for [`Trainer::attention_map`], from a stream seeded by `seed`.
    pub fn example(&self, length: usize, seed: u64) -> Result<Vec<usize>, TrainError> {
        Self::check_length(length)?;
        let mut stream = SplitMix64::new(seed);
        Ok((0..length)
            .map(|_| stream.below(self.model.config.vocab))
            .collect())
    }

    /// The attention weights of every layer and head on one example.
    pub fn attention_map(&mut self, tokens: &[usize]) -> Result<Vec<AttentionMap>, TrainError> {
        Self::check_length(tokens.len())?;
        let c = self.model.config.clone();
        if let Some(&token) = tokens.iter().find(|&&t| t >= c.vocab) {
            return Err(TrainError::Token {
                token,
                vocab: c.vocab,
            });
        }
        let n = tokens.len();
        let mut batch = Batch {
            sequences: 1,
            length: n,
            tokens: tokens.to_vec(),
            targets: vec![NO_TARGET; n],
        };
        c.task.targets(tokens, c.shift_k, &mut batch.targets);
        self.model.tables.ensure(n);
        self.model
            .run_layers(&self.params, &batch, &mut self.workspace);
        let mut maps = Vec::new();
        for (layer, cache) in self.workspace.layers.iter().enumerate() {
            for head in 0..c.heads {
                maps.push(AttentionMap {
                    layer,
                    head,
                    length: n,
                    weights: cache.weights[head * n * n..(head + 1) * n * n].to_vec(),
                });
            }
        }
        Ok(maps)
    }

    /// The head, over every layer, whose attention on `tokens` most often peaks on the key
    /// `offset` places back (see [`AttentionMap::offset_hit_rate`]); `None` when `offset` ≥ the
    /// example's length. On `shift`, pass the task's k.
    pub fn offset_hit_rate(
        &mut self,
        tokens: &[usize],
        offset: usize,
    ) -> Result<Option<HeadHitRate>, TrainError> {
        Ok(best_offset_hit_rate(&self.attention_map(tokens)?, offset))
    }

    /// The learned position table as it is now (`None` unless the encoding is `learned`). It has
    /// exactly `train_length` rows: positions past it get nothing added.
    pub fn position_table(&self) -> Option<PositionTable> {
        if self.model.config.encoding != Encoding::Learned {
            return None;
        }
        let tensor = self.model.layout.tensor("position_table")?;
        Some(PositionTable {
            rows: tensor.rows,
            cols: tensor.cols,
            values: self.params[tensor.range()].to_vec(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_encoding_from_one_seed_sees_the_same_batches() {
        let trainer = |encoding| {
            Trainer::new(TrainConfig {
                encoding,
                batch: 4,
                ..TrainConfig::default()
            })
            .expect("the default configuration is valid")
        };
        for encoding in Encoding::ALL {
            let mut reference = trainer(Encoding::None);
            let mut other = trainer(encoding);
            for _ in 0..3 {
                reference.step();
                other.step();
                assert_eq!(reference.batch.tokens, other.batch.tokens, "{encoding:?}");
            }
        }
    }
}
