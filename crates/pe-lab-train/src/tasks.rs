//! The three tasks, each built so that one kind of position information is needed to solve it.

use pe_lab_math::rng::SplitMix64;

/// Marks a position with nothing to predict: it takes no part in the loss or the accuracy.
pub const NO_TARGET: usize = usize::MAX;

/// The largest count `histogram` distinguishes: a token seen more often is labelled with this.
pub const HISTOGRAM_CAP: usize = 8;

/// What the model is asked to predict at every position.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Task {
    /// y_i = x_{i−k}. Positions i < k have no earlier token and no target (they are left out of
    /// the loss and of the accuracy).
    #[default]
    Shift,
    /// y_i = x_{n−1−i}.
    Reverse,
    /// y_i = how often x_i occurs in the sequence, capped at [`HISTOGRAM_CAP`].
    Histogram,
}

impl Task {
    pub const ALL: [Task; 3] = [Task::Shift, Task::Reverse, Task::Histogram];

    /// The name used in links.
    pub fn link_name(self) -> &'static str {
        match self {
            Task::Shift => "shift",
            Task::Reverse => "reverse",
            Task::Histogram => "histogram",
        }
    }

    /// The task of a link name.
    pub fn from_link(name: &str) -> Option<Task> {
        Task::ALL.into_iter().find(|t| t.link_name() == name)
    }

    /// One line: the rule and the information it needs.
    pub fn description(self) -> &'static str {
        match self {
            Task::Shift => "y_i = x_(i−k): needs relative position (which token is k places back)",
            Task::Reverse => {
                "y_i = x_(n−1−i): needs absolute position and the length of the sequence"
            }
            Task::Histogram => {
                "y_i = how often x_i occurs in the sequence: needs no position at all"
            }
        }
    }

    /// The number of output classes: the vocabulary for `shift` and `reverse`, the counts
    /// 1…[`HISTOGRAM_CAP`] for `histogram` (class c is the count c + 1).
    pub fn classes(self, vocab: usize) -> usize {
        match self {
            Task::Shift | Task::Reverse => vocab,
            Task::Histogram => HISTOGRAM_CAP,
        }
    }

    /// The token accuracy of the best guess made without looking at the input, at sequence
    /// length `length` with tokens drawn uniformly from `vocab`: 1/vocab for `shift` and
    /// `reverse`; for `histogram` the probability of the most likely capped count, where the count
    /// of x_i is 1 + Binomial(length − 1, 1/vocab). A model that sees which tokens occur but not
    /// where (no position, bidirectional) can beat 1/vocab on `shift` and `reverse` by guessing
    /// a frequent token of the sequence.
    pub fn chance(self, length: usize, vocab: usize) -> f64 {
        let vocab = vocab.max(1);
        match self {
            Task::Shift | Task::Reverse => 1.0 / vocab as f64,
            Task::Histogram => {
                let by_count = capped_count_distribution(length, vocab);
                by_count.into_iter().fold(0.0, f64::max)
            }
        }
    }

    /// `histogram`: the most likely capped count of a token at sequence length `length` (1 …
    /// [`HISTOGRAM_CAP`], the last meaning "that many or more"), the guess [`Task::chance`] makes.
    pub fn most_likely_count(length: usize, vocab: usize) -> usize {
        let by_count = capped_count_distribution(length, vocab.max(1));
        let mut best = 0;
        for (class, &p) in by_count.iter().enumerate() {
            if p > by_count[best] {
                best = class;
            }
        }
        best + 1
    }

    /// The targets of one sequence (`NO_TARGET` where there is none).
    pub fn targets(self, tokens: &[usize], shift_k: usize, out: &mut [usize]) {
        let n = tokens.len();
        match self {
            Task::Shift => {
                for (i, target) in out.iter_mut().enumerate().take(n) {
                    *target = if i >= shift_k {
                        tokens[i - shift_k]
                    } else {
                        NO_TARGET
                    };
                }
            }
            Task::Reverse => {
                for (i, target) in out.iter_mut().enumerate().take(n) {
                    *target = tokens[n - 1 - i];
                }
            }
            Task::Histogram => {
                for (i, target) in out.iter_mut().enumerate().take(n) {
                    let count = tokens.iter().filter(|&&t| t == tokens[i]).count();
                    *target = count.min(HISTOGRAM_CAP) - 1;
                }
            }
        }
    }
}

/// A batch of sequences of one length, tokens and targets stored sequence after sequence.
#[derive(Debug, Clone, Default)]
pub struct Batch {
    pub sequences: usize,
    pub length: usize,
    pub tokens: Vec<usize>,
    pub targets: Vec<usize>,
}

impl Batch {
    /// Replaces the contents with `sequences` fresh sequences of `length` uniform tokens from
    /// `stream`, and their targets. The buffers are reused (no allocation once large enough).
    #[allow(clippy::too_many_arguments)]
    pub fn sample(
        &mut self,
        task: Task,
        shift_k: usize,
        vocab: usize,
        sequences: usize,
        length: usize,
        stream: &mut SplitMix64,
    ) {
        self.sequences = sequences;
        self.length = length;
        self.tokens.clear();
        self.tokens
            .extend((0..sequences * length).map(|_| stream.below(vocab)));
        self.targets.clear();
        self.targets.resize(sequences * length, NO_TARGET);
        for (tokens, targets) in self
            .tokens
            .chunks_exact(length)
            .zip(self.targets.chunks_exact_mut(length))
        {
            task.targets(tokens, shift_k, targets);
        }
    }
}

/// The distribution of a token's count, capped at [`HISTOGRAM_CAP`] (class c is the count c + 1),
/// where the count is 1 + Binomial(length − 1, 1/vocab).
fn capped_count_distribution(length: usize, vocab: usize) -> [f64; HISTOGRAM_CAP] {
    let mut by_count = [0.0f64; HISTOGRAM_CAP];
    let others = length.saturating_sub(1);
    let p = 1.0 / vocab as f64;
    // The binomial pmf by the ratio of consecutive terms, from P(0) = (1 − p)^others (a product,
    // not `powi`, whose rounding is the platform's).
    let mut pmf = (0..others).fold(1.0, |acc, _| acc * (1.0 - p));
    for extra in 0..=others {
        let class = extra.min(HISTOGRAM_CAP - 1);
        by_count[class] += pmf;
        pmf *= (others - extra) as f64 / (extra + 1) as f64 * p / (1.0 - p);
    }
    by_count
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_follow_the_rules() {
        let tokens = [3, 1, 3, 2, 3];
        let mut out = [0; 5];
        Task::Shift.targets(&tokens, 2, &mut out);
        assert_eq!(out, [NO_TARGET, NO_TARGET, 3, 1, 3]);
        Task::Reverse.targets(&tokens, 2, &mut out);
        assert_eq!(out, [3, 2, 3, 1, 3]);
        Task::Histogram.targets(&tokens, 2, &mut out);
        assert_eq!(out, [2, 0, 2, 0, 2]);
    }

    #[test]
    fn chance_levels() {
        assert_eq!(Task::Shift.chance(16, 16), 1.0 / 16.0);
        // One token: its count is always 1.
        assert!((Task::Histogram.chance(1, 16) - 1.0).abs() < 1e-12);
        // Two tokens from two symbols: counts 1 and 2 equally likely.
        assert!((Task::Histogram.chance(2, 2) - 0.5).abs() < 1e-12);
        // At 16 tokens of 8 the most likely count is 2 (28.9%); at 64 it is "8 or more" (68.7%).
        assert_eq!(Task::most_likely_count(16, 8), 2);
        assert!((Task::Histogram.chance(16, 8) - 0.2891).abs() < 1e-4);
        assert_eq!(Task::most_likely_count(64, 8), HISTOGRAM_CAP);
        assert!((Task::Histogram.chance(64, 8) - 0.6870).abs() < 1e-4);
    }

    #[test]
    fn link_names_round_trip() {
        for task in Task::ALL {
            assert_eq!(Task::from_link(task.link_name()), Some(task));
        }
    }
}
