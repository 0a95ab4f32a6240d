//! What a finished run shows, as sentences built from its measured numbers only. A run trains
//! every encoding on several seeds, and a sentence states a result only where it holds on every
//! seed; otherwise it says that the result varies and gives its range. Accuracies are written in
//! whole points (two significant figures below 10%): one seed's accuracy rests on 64 sequences,
//! whose standard error is about two points, so a decimal would be noise.
//!
//! [`verdict`] is the two or three sentences above the charts: which encodings solve the task at
//! the training length, which keep it past it, and why the failures fail, each reason checked on
//! the run's own numbers. [`findings`] are the detailed sentences below them.
//!
//! By topic: [`words`] (numbers and lists as the sentences write them), [`heads`] (where a trained
//! head looks), [`verdict`] (the takeaway and the verdict) and [`detail`] (the findings).

#[cfg(test)]
mod chinese_tests;
mod detail;
mod heads;
mod verdict;
mod words;

pub use detail::findings;
pub use heads::{best_offset_head, offset_weights, OffsetWeights};
pub use verdict::{takeaway, takeaway_before_run, verdict, verdict_after_takeaway};
#[allow(unused_imports)] // the topics' shared helpers, reached by `use super::*`
use words::*;
pub use words::{chance_name, loss_text, points, points_number, spread_points, spread_text};

use super::run::{Spread, TrainRun};
use super::{Task, TrainEncoding};
use pe_lab_train::protocol::EncodingReport;
use pe_lab_train::AttentionMap;

impl TrainRun {
    /// The verdict and the findings of a done run (both empty while it is going), computed once
    /// and kept with the run (here, beside what computes them, so that the run does not import
    /// its findings).
    pub fn conclusions(&self) -> (&[String], &[String]) {
        if !self.is_done() {
            return (&[], &[]);
        }
        let (verdict, findings) = self
            .conclusions
            .get_or_init(|| (verdict(self), findings(self)));
        (verdict, findings)
    }
}

/// The accuracy the page calls "solves the task".
pub const SOLVED: f64 = 0.95;

/// An encoding is "at the position-blind ceiling" when every seed's accuracy is below the ceiling
/// plus this margin (five points: more than twice one seed's standard error of about two points,
/// so that a model that really is blind is not called better by accident).
pub const CEILING_MARGIN: f64 = 0.05;

/// Per encoding, its accuracy at 1×, 2× or 4× the training length over the seeds.
pub(super) fn at_multiple(results: &[&EncodingReport], multiple: usize) -> Spread {
    Spread::of(results.iter().map(|r| r.accuracy_at_multiples[multiple]))
}

/// The ceiling and chance of a run at one evaluated length.
pub(super) fn baseline_at(run: &TrainRun, length: usize) -> (f64, f64) {
    let lengths = run.lengths();
    let ceiling = lengths
        .iter()
        .position(|&l| l == length)
        .and_then(|i| run.blind_ceiling().get(i).copied())
        .unwrap_or(f64::NAN);
    let c = &run.config;
    (ceiling, c.task.chance(length, c.vocab))
}

/// Below this many tokens right (on every seed), an accuracy is said as counts.
pub(super) const FEW_TOKENS: usize = 10;

/// The tokens with a target in one evaluation at `length`: every position of every sequence,
/// but on `shift` the first k, which have no token k back.
pub(super) fn evaluated_tokens(c: &pe_lab_train::TrainConfig, length: usize) -> usize {
    let per_sequence = match c.task {
        Task::Shift => length.saturating_sub(c.shift_k),
        _ => length,
    };
    pe_lab_train::compare::EVAL_SAMPLES * per_sequence
}
