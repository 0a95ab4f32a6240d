//! Several encodings trained side by side on the same task, seed, data stream and steps, then
//! evaluated at every length from the shortest training length to 4 × the training length.
//!
//! [`ComparisonRun`] does the work in pieces ([`ComparisonRun::advance`] a few steps,
//! [`ComparisonRun::evaluate_next`] one length) so that a worker can report progress and pause
//! between them; [`compare`] does it all at once. Nothing here reads a clock: the caller measures
//! the seconds.

use crate::analysis::{sinusoidal_table, HeadHitRate};
use crate::config::TrainConfig;
use crate::encodings::Encoding;
use crate::trainer::{TrainError, Trainer};

/// The final loss is the mean training loss of this many last steps (all of them in a shorter
/// run): one step's loss is that of a single fresh batch of one length, and varies with both.
pub const FINAL_LOSS_STEPS: usize = 20;

/// Sequences per length in the evaluation: 64 sequences of length n give 64·n targets (fewer on
/// `shift`, whose first k positions have none).
pub const EVAL_SAMPLES: usize = 64;

/// Mixed into the run's seed for the evaluation sequences and the attention example, so that
/// they are independent of the training batches and the same for every encoding.
const EVALUATION_STREAM: u64 = 0x6576_616c_0000_0000;

/// What one encoding did in a comparison.
#[derive(Debug, Clone, PartialEq)]
pub struct EncodingResult {
    pub encoding: Encoding,
    /// The training loss of every step (the batch's mean cross-entropy before the update).
    pub loss: Vec<f32>,
    /// The mean of the last [`FINAL_LOSS_STEPS`] entries of `loss`.
    pub final_loss: f64,
    /// Token accuracy at each of [`Comparison::lengths`], in the same order.
    pub accuracy_by_length: Vec<f64>,
    /// Token accuracy at 1×, 2× and 4× the training length.
    pub accuracy_at_multiples: [f64; 3],
    pub parameter_count: usize,
    /// `learned` only: the [`crate::analysis::translation_spread`] of the table at step 0 and
    /// after training.
    pub translation_spread_initial: Option<f64>,
    pub translation_spread_trained: Option<f64>,
    /// `shift` only: the head with the highest offset hit rate for k on
    /// [`Comparison::example`].
    pub offset_hit_rate: Option<HeadHitRate>,
}

/// The results of a side-by-side run.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    /// The configuration every encoding was trained with (its `encoding` field is the first
    /// encoding's).
    pub config: TrainConfig,
    /// The task's chance level ([`crate::Task::chance`]) at the training length.
    pub chance: f64,
    /// The evaluated lengths: every length from the shortest training length to 4 × the training
    /// length.
    pub lengths: Vec<usize>,
    /// The sequence the attention maps and offset hit rates are measured on (training length).
    pub example: Vec<usize>,
    /// The [`crate::analysis::translation_spread`] of the sinusoidal P of the learned table's
    /// size (training length × d).
    pub translation_spread_sinusoidal: f64,
    pub results: Vec<EncodingResult>,
}

/// The lengths a comparison evaluates for `config`: from the shortest training length to
/// 4 × the training length, every one.
pub fn evaluation_lengths(config: &TrainConfig) -> Vec<usize> {
    let (shortest, longest) = config.length_range();
    (shortest..=4 * longest).collect()
}

/// A side-by-side run in progress: one [`Trainer`] per encoding, all from the same configuration.
#[derive(Debug, Clone)]
pub struct ComparisonRun {
    config: TrainConfig,
    trainers: Vec<Trainer>,
    losses: Vec<Vec<f32>>,
    initial_spreads: Vec<Option<f64>>,
    lengths: Vec<usize>,
    /// Per encoding, the accuracies of the lengths evaluated so far.
    accuracies: Vec<Vec<f64>>,
}

impl ComparisonRun {
    /// A run at step 0 of `config` (which must be in range: see [`TrainConfig::clamp`]) for each of
    /// `encodings`, in that order; `config.encoding` is not used.
    pub fn new(config: TrainConfig, encodings: &[Encoding]) -> Result<Self, TrainError> {
        if encodings.is_empty() {
            return Err(TrainError::NoEncodings);
        }
        let trainers = encodings
            .iter()
            .map(|&encoding| {
                Trainer::new(TrainConfig {
                    encoding,
                    ..config.clone()
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let initial_spreads = trainers
            .iter()
            .map(|t| t.position_table().and_then(|p| p.translation_spread().ok()))
            .collect();
        Ok(ComparisonRun {
            lengths: evaluation_lengths(&config),
            losses: vec![Vec::with_capacity(config.steps); encodings.len()],
            accuracies: vec![Vec::new(); encodings.len()],
            config: TrainConfig {
                encoding: encodings[0],
                ..config
            },
            trainers,
            initial_spreads,
        })
    }

    pub fn config(&self) -> &TrainConfig {
        &self.config
    }

    /// The trainers, one per encoding, in the order given.
    pub fn trainers(&self) -> &[Trainer] {
        &self.trainers
    }

    /// The trainers, for attention maps and position tables (evaluating or drawing maps does
    /// not change the training state).
    pub fn trainers_mut(&mut self) -> &mut [Trainer] {
        &mut self.trainers
    }

    /// The training losses so far, one curve per encoding.
    pub fn losses(&self) -> &[Vec<f32>] {
        &self.losses
    }

    /// Steps taken by every encoding (they advance together).
    pub fn steps_done(&self) -> usize {
        self.trainers.first().map_or(0, Trainer::steps_done)
    }

    pub fn training_done(&self) -> bool {
        self.trainers.iter().all(Trainer::is_done)
    }

    /// The lengths every encoding is evaluated at.
    pub fn evaluation_lengths(&self) -> &[usize] {
        &self.lengths
    }

    /// (encoding, length) evaluations still to do.
    pub fn evaluations_left(&self) -> usize {
        self.accuracies
            .iter()
            .map(|done| self.lengths.len() - done.len())
            .sum()
    }

    pub fn is_done(&self) -> bool {
        self.training_done() && self.evaluations_left() == 0
    }

    /// Takes `encoding`'s training from elsewhere (the GPU trainer): its parameters after the
    /// run's steps and the loss of every step. Evaluation then goes on as if this run had
    /// trained it.
    pub fn adopt(
        &mut self,
        encoding: Encoding,
        params: Vec<f32>,
        losses: Vec<f32>,
    ) -> Result<(), TrainError> {
        let index = self
            .trainers
            .iter()
            .position(|t| t.config().encoding == encoding)
            .ok_or(TrainError::NotInRun(encoding.link_name()))?;
        if losses.len() != self.config.steps {
            return Err(TrainError::LossCount {
                given: losses.len(),
                steps: self.config.steps,
            });
        }
        self.trainers[index].adopt(params, self.config.steps)?;
        self.losses[index] = losses;
        Ok(())
    }

    /// Trains every encoding `steps` more steps (fewer where the run's steps end); returns the
    /// steps each took.
    pub fn advance(&mut self, steps: usize) -> usize {
        let steps = steps.min(self.config.steps.saturating_sub(self.steps_done()));
        for (trainer, losses) in self.trainers.iter_mut().zip(&mut self.losses) {
            for _ in 0..steps {
                losses.push(trainer.step());
            }
        }
        steps
    }

    /// Once training is done, evaluates the next encoding at the next length (encodings in order,
    /// each at every length in turn); returns whether it evaluated one. Does nothing while
    /// training remains.
    pub fn evaluate_next(&mut self) -> bool {
        if !self.training_done() {
            return false;
        }
        let seed = self.evaluation_seed();
        let next = self
            .accuracies
            .iter()
            .position(|done| done.len() < self.lengths.len());
        let Some(index) = next else {
            return false;
        };
        let length = self.lengths[self.accuracies[index].len()];
        // Every length is within the evaluation limit (4 × the longest training length).
        let accuracy = self.trainers[index]
            .evaluate(length, EVAL_SAMPLES, seed)
            .unwrap_or(f64::NAN);
        self.accuracies[index].push(accuracy);
        true
    }

    fn evaluation_seed(&self) -> u64 {
        self.config.seed ^ EVALUATION_STREAM
    }

    /// Does what remains (training, then evaluation) and returns the results.
    pub fn finish(&mut self) -> Comparison {
        self.advance(self.config.steps);
        while self.evaluate_next() {}
        let c = self.config.clone();
        let n = c.train_length;
        let example = self.trainers[0]
            .example(n, self.evaluation_seed())
            .unwrap_or_default();
        let accuracy_at = |accuracies: &[f64], length: usize| {
            self.lengths
                .iter()
                .position(|&l| l == length)
                .and_then(|i| accuracies.get(i).copied())
                .unwrap_or(f64::NAN)
        };
        let mut results = Vec::with_capacity(self.trainers.len());
        for (index, trainer) in self.trainers.iter_mut().enumerate() {
            let accuracies = &self.accuracies[index];
            let losses = &self.losses[index];
            let last = &losses[losses.len().saturating_sub(FINAL_LOSS_STEPS)..];
            let final_loss = if last.is_empty() {
                f64::NAN
            } else {
                last.iter().map(|&l| f64::from(l)).sum::<f64>() / last.len() as f64
            };
            let offset_hit_rate = if c.task == crate::Task::Shift {
                trainer.offset_hit_rate(&example, c.shift_k).ok().flatten()
            } else {
                None
            };
            results.push(EncodingResult {
                encoding: trainer.config().encoding,
                loss: losses.clone(),
                final_loss,
                accuracy_by_length: accuracies.clone(),
                accuracy_at_multiples: [1, 2, 4].map(|m| accuracy_at(accuracies, m * n)),
                parameter_count: trainer.parameter_count(),
                translation_spread_initial: self.initial_spreads[index],
                translation_spread_trained: trainer
                    .position_table()
                    .and_then(|p| p.translation_spread().ok()),
                offset_hit_rate,
            });
        }
        Comparison {
            chance: c.task.chance(n, c.vocab),
            lengths: self.lengths.clone(),
            example,
            translation_spread_sinusoidal: sinusoidal_table(n, c.d)
                .translation_spread()
                .unwrap_or(f64::NAN),
            results,
            config: c,
        }
    }
}

/// Trains and evaluates every one of `encodings` on `config` (in range: see
/// [`TrainConfig::clamp`]; its `encoding` is not used) in one call.
pub fn compare(config: TrainConfig, encodings: &[Encoding]) -> Result<Comparison, TrainError> {
    Ok(ComparisonRun::new(config, encodings)?.finish())
}
