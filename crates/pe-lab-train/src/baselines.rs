//! The best accuracy a position-blind model can reach on each task: the line a trained model
//! without position information cannot cross.
//!
//! A model with no position information and bidirectional attention is permutation-equivariant:
//! its prediction at position i is a function of its own token x_i and of the multiset of the
//! sequence's tokens (the counts c_t, t < vocab), so positions holding the same token get the
//! same prediction. The tokens are i.i.d. uniform, so given the counts every arrangement is
//! equally likely, and for fixed distinct positions i ≠ p
//!
//! P(x_i = t, x_p = s | c) = c_t (c_s − [s = t]) / (n (n − 1)).
//!
//! - `shift` (1 ≤ k < n): every target position's partner i − k is another position, so the best
//!   guess for own token t is argmax_s (c_s − [s = t]) and, given the counts, the accuracy is
//!   Σ_t (c_t / n) · max_s (c_s − [s = t]) / (n − 1) (it does not depend on k).
//! - `reverse`: m = n mod 2 middle positions have their own token as target. For own token t the
//!   best guess maximises (n − m)(c_s − [s = t]) / (n − 1) + m·[s = t]; the expected number of
//!   correct positions is Σ_t (c_t / n) · max_s [...], and the accuracy is that over n. At even n
//!   this is the `shift` value; at odd n it is max_t c_t / n (guess the mode), never above it.
//! - `histogram`: the target is a function of the own token and the counts, so the ceiling is 1.
//!
//! Edge cases: a task with no target positions (length 0, or `shift` with k ≥ n) gets 0, as
//! [`crate::Trainer::evaluate`] reports for it; `shift` with k = 0 and `reverse` at n = 1 ask
//! for the own token and get 1. These, and `histogram`, are exact (standard error 0, 0 samples).
//!
//! The expectation over the counts is a seeded, Rao–Blackwellised simulation: each of
//! [`SAMPLES`] sequences from [`SplitMix64`] seeded by [`SEED`] contributes the exact conditional
//! accuracy X given its counts (an integer ratio, one f64 division). The standard deviation of X
//! reaches 0.19 (`reverse`, n = 3, vocabulary 4), so the plain mean would need about 4,200
//! sequences per length for a standard error below 0.003. X is therefore paired with a control
//! variate of known mean, the share of ordered pairs of distinct positions holding the same token,
//! Y = Σ_t c_t (c_t − 1) / (n (n − 1)), E\[Y\] = 1/vocab; both grow as the counts concentrate. The
//! estimate is mean(X) − β (mean(Y) − 1/vocab) with β the least-squares slope of X on Y over the
//! samples, and its standard error is the residuals' standard deviation (samples − 2 degrees of
//! freedom) over √samples. The worst residual standard deviation is 0.05, so 500 sequences
//! suffice; the bias from estimating β is below a tenth of the standard error.
//! Only +, −, ×, ÷ and sqrt on f64 are used, so the bits are the same on every target. The same
//! seed serves every task and length, so `shift` and `reverse` see the same sequences.

use pe_lab_math::rng::SplitMix64;

use crate::tasks::Task;

/// The seed of the simulation's stream.
pub const SEED: u64 = 0x0b11_9d5e_11a9_0001;

/// The number of simulated sequences: the standard error stays below 0.003 at every length
/// 2…256 and vocabulary 2…64: the largest, 0.0023, is `reverse` at n = 3, vocabulary 4 (see the
/// test `standard_error_scan`).
pub const SAMPLES: usize = 500;

/// A position-blind model's best expected token accuracy and the simulation's uncertainty.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct BlindCeiling {
    /// The estimated best accuracy (exact where `samples` is 0).
    pub accuracy: f64,
    /// The standard error of `accuracy` (0 where exact).
    pub standard_error: f64,
    /// The number of simulated sequences (0 where the value is exact).
    pub samples: usize,
}

impl BlindCeiling {
    fn exact(accuracy: f64) -> Self {
        BlindCeiling {
            accuracy,
            standard_error: 0.0,
            samples: 0,
        }
    }
}

/// The best token accuracy any position-blind model (no position information, bidirectional
/// attention) can reach on `task` at `length` with tokens uniform over `vocab` (the shift distance
/// is `shift_k`). See the module documentation for the derivation, the edge cases and the
/// estimate.
pub fn blind_ceiling(task: Task, length: usize, vocab: usize, shift_k: usize) -> BlindCeiling {
    let vocab = vocab.max(1);
    match task {
        Task::Histogram => return BlindCeiling::exact(if length == 0 { 0.0 } else { 1.0 }),
        Task::Shift if shift_k >= length => return BlindCeiling::exact(0.0),
        Task::Shift if shift_k == 0 => return BlindCeiling::exact(1.0),
        Task::Reverse if length == 0 => return BlindCeiling::exact(0.0),
        Task::Reverse if length == 1 => return BlindCeiling::exact(1.0),
        Task::Shift | Task::Reverse => {}
    }
    // From here n ≥ 2 (shift has 1 ≤ k < n).
    let mut stream = SplitMix64::new(SEED);
    // The counts by token (all 0 between samples), the tokens seen in this sample, and their
    // counts in the order first seen: the conditional accuracy is symmetric in the tokens and
    // absent tokens add nothing, so the work per sample is O(length), not O(vocab).
    let mut counts = vec![0usize; vocab];
    let mut seen = vec![0usize; vocab.min(length) + 1];
    let mut present = Vec::with_capacity(vocab.min(length));
    let pairs = (length * (length - 1)) as f64;
    // Running means of X and Y and their centred sums of squares and products (Welford).
    let (mut mean_x, mut mean_y) = (0.0f64, 0.0f64);
    let (mut sxx, mut sxy, mut syy) = (0.0f64, 0.0f64, 0.0f64);
    for sample in 1..=SAMPLES {
        let mut distinct = 0;
        for _ in 0..length {
            // Branch-free: the token is always written, and kept when it is new.
            let token = stream.below(vocab);
            seen[distinct] = token;
            distinct += usize::from(counts[token] == 0);
            counts[token] += 1;
        }
        present.clear();
        for &token in &seen[..distinct] {
            present.push(counts[token]);
            counts[token] = 0;
        }
        let x = conditional_accuracy(task, &present, length);
        let same: usize = present.iter().map(|&c| c * (c - 1)).sum();
        let y = same as f64 / pairs;
        let (dx, dy) = (x - mean_x, y - mean_y);
        mean_x += dx / sample as f64;
        mean_y += dy / sample as f64;
        sxx += dx * (x - mean_x);
        sxy += dx * (y - mean_y);
        syy += dy * (y - mean_y);
    }
    let slope = if syy > 0.0 { sxy / syy } else { 0.0 };
    let residual = (sxx - slope * sxy).max(0.0);
    let samples = SAMPLES as f64;
    BlindCeiling {
        accuracy: mean_x - slope * (mean_y - 1.0 / vocab as f64),
        standard_error: (residual / (samples - 2.0) / samples).sqrt(),
        samples: SAMPLES,
    }
}

/// The best position-blind accuracy given the counts of a sequence of n ≥ 2 tokens, for `shift`
/// (1 ≤ k < n) or `reverse`, from the counts of the tokens (absent tokens may be left out). The
/// numerator and the denominator are integers (exact in f64).
fn conditional_accuracy(task: Task, counts: &[usize], n: usize) -> f64 {
    // The largest count (first at index `mode`) and the largest count at another index, so
    // max_{s ≠ t} c_s is `second` for t = mode and `first` otherwise.
    let (mut mode, mut first, mut second) = (0, 0, 0);
    for (t, &c) in counts.iter().enumerate() {
        if c > first {
            (mode, first, second) = (t, c, first);
        } else if c > second {
            second = c;
        }
    }
    let other = |t: usize| if t == mode { second } else { first };
    let (numerator, denominator) = match task {
        // Σ_t c_t · max(c_t − 1, max_{s≠t} c_s) over n(n − 1).
        Task::Shift => {
            let sum: usize = counts
                .iter()
                .enumerate()
                .filter(|&(_, &c)| c > 0)
                .map(|(t, &c)| c * (c - 1).max(other(t)))
                .sum();
            (sum, n * (n - 1))
        }
        // Σ_t c_t · max((n − m)(c_t − 1) + m(n − 1), (n − m) max_{s≠t} c_s) over n²(n − 1).
        _ => {
            let m = n % 2;
            let sum: usize = counts
                .iter()
                .enumerate()
                .filter(|&(_, &c)| c > 0)
                .map(|(t, &c)| c * ((n - m) * (c - 1) + m * (n - 1)).max((n - m) * other(t)))
                .sum();
            (sum, n * n * (n - 1))
        }
    };
    numerator as f64 / denominator as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::NO_TARGET;
    use std::collections::BTreeMap;

    /// Every sequence of `length` tokens over `vocab`, in lexicographic order.
    fn every_sequence(vocab: usize, length: usize) -> Vec<Vec<usize>> {
        let mut all = vec![Vec::new()];
        for _ in 0..length {
            all = all
                .into_iter()
                .flat_map(|prefix| {
                    (0..vocab).map(move |t| {
                        let mut next = prefix.clone();
                        next.push(t);
                        next
                    })
                })
                .collect();
        }
        all
    }

    fn counts_of(tokens: &[usize], vocab: usize) -> Vec<usize> {
        let mut counts = vec![0; vocab];
        for &t in tokens {
            counts[t] += 1;
        }
        counts
    }

    /// The best accuracy over all permutation-equivariant predictors, from the definition: the
    /// positions of all sequences are grouped by (own token, counts), each group predicts the
    /// target most frequent in it, and the correct positions are summed over all sequences.
    fn brute_force(task: Task, length: usize, vocab: usize, shift_k: usize) -> f64 {
        let mut groups: BTreeMap<(usize, Vec<usize>), Vec<u64>> = BTreeMap::new();
        let mut targets = vec![NO_TARGET; length];
        let mut counted = 0u64;
        for tokens in every_sequence(vocab, length) {
            task.targets(&tokens, shift_k, &mut targets);
            let counts = counts_of(&tokens, vocab);
            for (&own, &target) in tokens.iter().zip(&targets) {
                if target == NO_TARGET {
                    continue;
                }
                counted += 1;
                let tally = groups
                    .entry((own, counts.clone()))
                    .or_insert_with(|| vec![0; task.classes(vocab)]);
                tally[target] += 1;
            }
        }
        if counted == 0 {
            return 0.0;
        }
        let correct: u64 = groups
            .values()
            .map(|tally| *tally.iter().max().unwrap())
            .sum();
        correct as f64 / counted as f64
    }

    #[test]
    fn agrees_with_exact_enumeration() {
        for vocab in 2..=4 {
            for length in 0..=6 {
                let mut cases = vec![(Task::Reverse, 0), (Task::Histogram, 0)];
                cases.extend((0..=length + 1).map(|k| (Task::Shift, k)));
                for (task, k) in cases {
                    let exact = brute_force(task, length, vocab, k);
                    let estimate = blind_ceiling(task, length, vocab, k);
                    assert!(
                        (estimate.accuracy - exact).abs() <= 4.0 * estimate.standard_error + 1e-9,
                        "{task:?} n={length} V={vocab} k={k}: {estimate:?} vs exact {exact}"
                    );
                    // The closed form, averaged exactly over every sequence.
                    let uses_closed_form = match task {
                        Task::Shift => k >= 1 && k < length,
                        Task::Reverse => length >= 2,
                        Task::Histogram => false,
                    };
                    if uses_closed_form {
                        let all = every_sequence(vocab, length);
                        let closed: f64 = all
                            .iter()
                            .map(|tokens| {
                                conditional_accuracy(task, &counts_of(tokens, vocab), length)
                            })
                            .sum::<f64>()
                            / all.len() as f64;
                        if task == Task::Reverse {
                            // Sequence by sequence: equal to shift at even n, never above it.
                            for tokens in &all {
                                let counts = counts_of(tokens, vocab);
                                let r = conditional_accuracy(Task::Reverse, &counts, length);
                                let s = conditional_accuracy(Task::Shift, &counts, length);
                                assert!(r <= s, "{tokens:?}: {r} > {s}");
                                assert!(length % 2 == 1 || r == s, "{tokens:?}: {r} ≠ {s}");
                            }
                        }
                        assert!(
                            (closed - exact).abs() < 1e-12,
                            "{task:?} n={length} V={vocab} k={k}: closed {closed} vs {exact}"
                        );
                    } else {
                        assert_eq!(estimate.samples, 0);
                        assert_eq!(estimate.accuracy, exact, "{task:?} n={length} k={k}");
                    }
                }
            }
        }
    }

    #[test]
    fn shift_at_vocab_16_matches_the_report() {
        for (length, reported) in [(8, 0.27), (16, 0.20), (64, 0.12)] {
            let c = blind_ceiling(Task::Shift, length, 16, 3);
            println!(
                "shift V=16 k=3 n={length}: {:.4} ± {:.4}",
                c.accuracy, c.standard_error
            );
            assert!(
                (c.accuracy - reported).abs() <= 0.015,
                "n={length}: {c:?} vs {reported}"
            );
        }
    }

    #[test]
    fn orderings_and_chance() {
        for vocab in [2, 3, 8, 16, 64] {
            for length in 1..=40 {
                assert_eq!(
                    blind_ceiling(Task::Histogram, length, vocab, 3).accuracy,
                    1.0
                );
                let shift = blind_ceiling(Task::Shift, length, vocab, 1);
                let reverse = blind_ceiling(Task::Reverse, length, vocab, 1);
                // Same sequences and, at even n, the same conditional accuracies: equal. At odd n
                // the conditional accuracy of reverse (the mode's share) is never above that of
                // shift: the middle bonus does not make up for counting every position.
                if length >= 2 && length % 2 == 0 {
                    assert_eq!(shift, reverse, "n={length} V={vocab}");
                } else if length >= 2 {
                    let tolerance = 4.0
                        * (shift.standard_error.powi(2) + reverse.standard_error.powi(2)).sqrt();
                    assert!(
                        reverse.accuracy <= shift.accuracy + tolerance,
                        "n={length} V={vocab}: {reverse:?} above {shift:?}"
                    );
                }
                for (task, c) in [(Task::Shift, shift), (Task::Reverse, reverse)] {
                    if task == Task::Shift && length < 2 {
                        continue; // no target at k = 1
                    }
                    assert!(
                        c.accuracy >= task.chance(length, vocab) - 4.0 * c.standard_error,
                        "{task:?} n={length} V={vocab}: {c:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn deterministic_and_independent_of_k() {
        let a = blind_ceiling(Task::Shift, 20, 16, 3);
        assert_eq!(a, blind_ceiling(Task::Shift, 20, 16, 3));
        assert_eq!(a, blind_ceiling(Task::Shift, 20, 16, 7));
        assert_eq!(a.samples, SAMPLES);
    }

    #[test]
    fn standard_error_is_small_at_the_worst_cases() {
        // The largest standard errors of the full scan (`standard_error_scan`) are at short
        // lengths and small vocabularies.
        for vocab in 2..=16 {
            for length in 2..=16 {
                for task in [Task::Shift, Task::Reverse] {
                    let c = blind_ceiling(task, length, vocab, 1);
                    assert!(
                        c.standard_error < 0.003,
                        "{task:?} n={length} V={vocab}: {c:?}"
                    );
                }
            }
        }
    }

    /// The largest standard error over lengths 2…256 and vocabularies 2…64 (slow: run with
    /// `--release -- --ignored`).
    #[test]
    #[ignore]
    fn standard_error_scan() {
        let mut worst = (0.0, Task::Shift, 0, 0);
        for vocab in 2..=64 {
            for length in 2..=256 {
                for task in [Task::Shift, Task::Reverse] {
                    let c = blind_ceiling(task, length, vocab, 1);
                    if c.standard_error > worst.0 {
                        worst = (c.standard_error, task, length, vocab);
                    }
                }
            }
        }
        println!("largest standard error: {worst:?}");
        assert!(worst.0 < 0.003);
    }

    /// Prints the values the report quotes and the time of one panel call (lengths 8…64 at
    /// vocabulary 16); run with `--release -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn values_and_timing() {
        for length in [8, 12, 16, 32, 48, 64] {
            let c = blind_ceiling(Task::Shift, length, 16, 3);
            println!("shift V=16 k=3 n={length}: {c:?}");
        }
        for length in [4, 8, 16, 32] {
            let c = blind_ceiling(Task::Reverse, length, 8, 0);
            println!("reverse V=8 n={length}: {c:?}");
        }
        for task in [Task::Shift, Task::Reverse] {
            let start = std::time::Instant::now();
            let total: f64 = (8..=64)
                .map(|n| blind_ceiling(task, n, 16, 3).accuracy)
                .sum();
            println!(
                "{task:?}: 57 lengths in {:.2} ms (checksum {total})",
                start.elapsed().as_secs_f64() * 1e3
            );
        }
    }
}
