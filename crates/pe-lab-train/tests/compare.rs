//! The side-by-side run: determinism, its stepwise form, what it reports, and the measures it
//! reports besides accuracy (offset hit rate, translation spread).

use pe_lab_train::compare::{evaluation_lengths, FINAL_LOSS_STEPS};
use pe_lab_train::{compare, Comparison, ComparisonRun, Encoding, Task, TrainConfig, TrainError};
use pe_lab_train::{translation_spread, Trainer};

fn small_config() -> TrainConfig {
    TrainConfig {
        steps: 30,
        batch: 8,
        train_length: 8,
        ..TrainConfig::default()
    }
}

const SOME: [Encoding; 4] = [
    Encoding::None,
    Encoding::Learned,
    Encoding::Rope,
    Encoding::Shaw,
];

/// Every number of a comparison as bits, so that equality means bit for bit (NaN included).
fn bits(comparison: &Comparison) -> Vec<u64> {
    let mut out = vec![comparison.chance.to_bits()];
    out.push(comparison.translation_spread_sinusoidal.to_bits());
    for r in &comparison.results {
        out.extend(r.loss.iter().map(|l| u64::from(l.to_bits())));
        out.push(r.final_loss.to_bits());
        out.extend(r.accuracy_by_length.iter().map(|a| a.to_bits()));
        out.extend(r.accuracy_at_multiples.iter().map(|a| a.to_bits()));
        out.extend(r.translation_spread_initial.map(f64::to_bits));
        out.extend(r.translation_spread_trained.map(f64::to_bits));
        out.extend(r.offset_hit_rate.map(|h| h.rate.to_bits()));
    }
    out
}

#[test]
fn two_comparisons_from_one_config_are_bit_identical() {
    let first = compare(small_config(), &SOME).expect("valid");
    let second = compare(small_config(), &SOME).expect("valid");
    assert_eq!(bits(&first), bits(&second));
    assert_eq!(first, second);
}

#[test]
fn the_stepwise_run_gives_the_blocking_result() {
    let blocking = compare(small_config(), &SOME).expect("valid");
    let mut run = ComparisonRun::new(small_config(), &SOME).expect("valid");
    // Nothing is evaluated before training ends.
    assert!(!run.evaluate_next());
    let mut advanced = 0;
    while !run.training_done() {
        advanced += run.advance(7);
        assert_eq!(run.steps_done(), advanced);
        assert!(run.losses().iter().all(|curve| curve.len() == advanced));
    }
    assert_eq!(advanced, 30);
    assert_eq!(run.advance(5), 0, "no step past the run's steps");
    let lengths = evaluation_lengths(run.config()).len();
    assert_eq!(run.evaluations_left(), SOME.len() * lengths);
    let mut evaluated = 0;
    while run.evaluate_next() {
        evaluated += 1;
    }
    assert_eq!(evaluated, SOME.len() * lengths);
    assert!(run.is_done());
    assert_eq!(bits(&run.finish()), bits(&blocking));
}

#[test]
fn a_comparison_reports_every_length_and_the_chance_level() {
    let config = TrainConfig {
        task: Task::Reverse,
        ..small_config()
    };
    let comparison = compare(config, &SOME).expect("valid");
    // Lengths 4–8 are trained; 4 … 32 are evaluated.
    assert_eq!(comparison.lengths, (4..=32).collect::<Vec<_>>());
    assert_eq!(comparison.chance, 1.0 / 16.0);
    assert_eq!(comparison.example.len(), 8);
    assert!(comparison.translation_spread_sinusoidal < 1e-6);
    for (r, encoding) in comparison.results.iter().zip(SOME) {
        assert_eq!(r.encoding, encoding);
        assert_eq!(r.loss.len(), 30);
        let last = &r.loss[30 - FINAL_LOSS_STEPS..];
        let mean = last.iter().map(|&l| f64::from(l)).sum::<f64>() / FINAL_LOSS_STEPS as f64;
        assert_eq!(r.final_loss, mean);
        assert_eq!(r.accuracy_by_length.len(), comparison.lengths.len());
        assert!(r.accuracy_by_length.iter().all(|a| (0.0..=1.0).contains(a)));
        let at = |length: usize| r.accuracy_by_length[length - 4];
        assert_eq!(r.accuracy_at_multiples, [at(8), at(16), at(32)]);
        // Only `shift` has an offset to hit; only `learned` has a table.
        assert!(r.offset_hit_rate.is_none());
        let learned = encoding == Encoding::Learned;
        assert_eq!(r.translation_spread_initial.is_some(), learned);
        assert_eq!(r.translation_spread_trained.is_some(), learned);
    }
    let trainer = |encoding| {
        Trainer::new(TrainConfig {
            encoding,
            ..small_config()
        })
        .expect("valid")
        .parameter_count()
    };
    assert_eq!(
        comparison.results[3].parameter_count,
        trainer(Encoding::Shaw)
    );
}

#[test]
fn bad_comparisons_are_errors() {
    assert_eq!(
        compare(small_config(), &[]).err(),
        Some(TrainError::NoEncodings)
    );
    let bad = TrainConfig {
        heads: 0,
        ..small_config()
    };
    assert!(matches!(
        compare(bad, &SOME),
        Err(TrainError::OutOfRange(_))
    ));
}

#[test]
fn a_trained_model_on_shift_has_a_head_looking_k_back() {
    for encoding in [Encoding::Rope, Encoding::Shaw] {
        let config = TrainConfig {
            encoding,
            steps: 200,
            ..TrainConfig::default()
        };
        let mut trainer = Trainer::new(config).expect("valid");
        let example = trainer.example(16, 5).expect("valid");
        let untrained = trainer
            .offset_hit_rate(&example, 3)
            .expect("valid")
            .expect("13 queries");
        while !trainer.is_done() {
            trainer.step();
        }
        let trained = trainer
            .offset_hit_rate(&example, 3)
            .expect("valid")
            .expect("13 queries");
        println!(
            "{}: best head before {:.2}, after {:.2} (layer {}, head {})",
            encoding.link_name(),
            untrained.rate,
            trained.rate,
            trained.layer,
            trained.head
        );
        assert!(untrained.rate < 0.5, "{untrained:?}");
        assert!(trained.rate >= 0.9, "{trained:?}");
        assert_eq!(trainer.offset_hit_rate(&example, 16).expect("valid"), None);
    }
}

#[test]
fn the_learned_table_starts_far_from_translation_invariant() {
    let mut trainer = Trainer::new(TrainConfig {
        encoding: Encoding::Learned,
        steps: 100,
        ..TrainConfig::default()
    })
    .expect("valid");
    let table = trainer.position_table().expect("learned");
    let initial = translation_spread(&table.values, table.rows, table.cols).expect("shape");
    // Sixteen independent N(0, 0.02²) rows of width 32: cosines of spread about 1/√32.
    assert!((0.1..0.3).contains(&initial), "{initial}");
    while !trainer.is_done() {
        trainer.step();
    }
    let trained = trainer.position_table().expect("learned");
    let after = trained.translation_spread().expect("shape");
    println!(
        "learned table: translation spread {initial:.3} at step 0, {after:.3} after 100 steps"
    );
    assert!((0.0..=1.0).contains(&after));
}

/// Why ALiBi fails on `shift`: not because its bias is the same k places back and k ahead (the
/// page once said so). With the causal mask no key lies ahead, and on the default run's settings
/// it still does no better than `none` on every seed, while sinusoidal P solves the task: its
/// bias, largest at the query itself and falling with distance, cannot favour the key k back over
/// nearer ones. (The training panel's verdict states this reason; this is its experiment.)
#[test]
fn alibi_fails_on_shift_with_the_causal_mask_too() {
    let preset = pe_lab_train::presets::shift();
    let accuracy = |encoding: Encoding, seed: u64| {
        let config = TrainConfig {
            causal: true,
            seed,
            ..preset.config.clone()
        };
        let comparison = compare(config, &[encoding]).expect("valid");
        comparison.results[0].accuracy_at_multiples[0]
    };
    for seed in 1..=3 {
        let (none, alibi, sinusoidal) = (
            accuracy(Encoding::None, seed),
            accuracy(Encoding::Alibi, seed),
            accuracy(Encoding::Sinusoidal, seed),
        );
        println!("seed {seed}: none {none:.3}, alibi {alibi:.3}, sinusoidal {sinusoidal:.3}");
        assert!(
            alibi < none + 0.05,
            "seed {seed}: alibi {alibi} against none {none}"
        );
        assert!(sinusoidal >= 0.95, "seed {seed}: sinusoidal {sinusoidal}");
    }
}

/// Each task's default run gives the same verdict classes on seeds 1–3 and on seeds 4–6: which
/// encodings solve the task at the training length (≥ 95% on every seed of the three) and which
/// still do at 4× the training length. (At 600 steps reverse's concat solved it on seeds 1–3 but
/// not on seed 4: the preset trains 800.) Slow (about a minute): `cargo test --release -p
/// pe-lab-train --test compare -- --ignored`.
#[test]
#[ignore]
fn every_default_gives_the_same_verdict_on_seeds_1_to_3_and_4_to_6() {
    for task in Task::ALL {
        let preset = pe_lab_train::presets::for_task(task);
        let classes = |first: u64| {
            let mut solved = Vec::new();
            let mut kept = Vec::new();
            for &encoding in preset.encodings {
                let runs: Vec<[f64; 3]> = (first..first + 3)
                    .map(|seed| {
                        let config = TrainConfig {
                            seed,
                            ..preset.config.clone()
                        };
                        compare(config, &[encoding]).expect("valid").results[0]
                            .accuracy_at_multiples
                    })
                    .collect();
                if runs.iter().all(|a| a[0] >= 0.95) {
                    solved.push(encoding);
                }
                if runs.iter().all(|a| a[2] >= 0.95) {
                    kept.push(encoding);
                }
            }
            (solved, kept)
        };
        let (low, high) = (classes(1), classes(4));
        println!("{task:?}: seeds 1-3 {low:?}, seeds 4-6 {high:?}");
        assert_eq!(low, high, "{task:?}");
    }
}
