//! Short training runs that must reach their targets, determinism, and the trainer's API.

use pe_lab_train::{Encoding, Task, TrainConfig, TrainError, Trainer};

const EVAL_SAMPLES: usize = 256;
const EVAL_SEED: u64 = 12345;

/// Trains until the accuracy at the training length reaches `target` (checked every 50 steps) or
/// `max_steps` are taken; returns the last accuracy and the steps taken.
fn train_until(config: TrainConfig, target: f64, max_steps: usize) -> (f64, usize) {
    let length = config.train_length;
    let mut trainer = Trainer::new(config).expect("a valid configuration");
    let mut accuracy = 0.0;
    while trainer.steps_done() < max_steps {
        for _ in 0..50 {
            trainer.step();
        }
        accuracy = trainer
            .evaluate(length, EVAL_SAMPLES, EVAL_SEED)
            .expect("a valid length");
        if accuracy >= target {
            break;
        }
    }
    (accuracy, trainer.steps_done())
}

#[test]
fn shift_is_learned_with_rope_and_sinusoidal() {
    let runs = [
        (Encoding::Rope, 1),
        (Encoding::Rope, 2),
        (Encoding::Rope, 3),
        (Encoding::Sinusoidal, 3),
    ];
    for (encoding, shift_k) in runs {
        let config = TrainConfig {
            encoding,
            shift_k,
            ..TrainConfig::default()
        };
        let (accuracy, steps) = train_until(config, 0.95, 500);
        println!(
            "shift k = {shift_k}, {}: {accuracy:.3} after {steps} steps",
            encoding.link_name()
        );
        assert!(accuracy >= 0.95, "{encoding:?} k = {shift_k}: {accuracy}");
    }
}

#[test]
fn none_on_shift_stays_near_chance_when_bidirectional() {
    let config = TrainConfig {
        encoding: Encoding::None,
        ..TrainConfig::default()
    };
    let (accuracy, _) = train_until(config, 1.0, 300);
    println!("shift k = 3, none: {accuracy:.3} after 300 steps");
    // Without positions the best guess is a frequent token of the sequence: far below 95%.
    assert!(accuracy < 0.35, "{accuracy}");
}

#[test]
fn reverse_is_learned_with_sinusoidal() {
    let config = TrainConfig {
        task: Task::Reverse,
        train_length: 8,
        vocab: 8,
        encoding: Encoding::Sinusoidal,
        ..TrainConfig::default()
    };
    let chance = Task::Reverse.chance(8, 8);
    let (accuracy, steps) = train_until(config, 0.5, 400);
    println!("reverse, sinusoidal: {accuracy:.3} after {steps} steps (chance {chance:.3})");
    assert!(accuracy >= 0.5, "{accuracy}");
}

#[test]
fn histogram_is_learned_without_positions() {
    let config = TrainConfig {
        task: Task::Histogram,
        vocab: 8,
        mlp: true,
        encoding: Encoding::None,
        ..TrainConfig::default()
    };
    let chance = Task::Histogram.chance(16, 8);
    let (accuracy, steps) = train_until(config, chance + 0.2, 700);
    println!("histogram, none: {accuracy:.3} after {steps} steps (chance {chance:.3})");
    assert!(
        accuracy >= chance + 0.2,
        "{accuracy} against chance {chance}"
    );
}

#[test]
fn two_runs_give_the_same_bits() {
    for encoding in Encoding::ALL {
        let config = TrainConfig {
            encoding,
            batch: 8,
            mlp: true,
            ..TrainConfig::default()
        };
        let mut first = Trainer::new(config.clone()).expect("valid");
        let mut second = Trainer::new(config).expect("valid");
        for _ in 0..10 {
            assert_eq!(first.step().to_bits(), second.step().to_bits());
        }
        // An evaluation in between does not change what follows.
        first.evaluate(40, 8, 1).expect("valid");
        assert_eq!(first.step().to_bits(), second.step().to_bits());
        let bits = |t: &Trainer| {
            t.parameters()
                .iter()
                .map(|p| p.to_bits())
                .collect::<Vec<_>>()
        };
        assert_eq!(bits(&first), bits(&second), "{encoding:?}");
    }
}

#[test]
fn encodings_from_one_seed_start_from_the_same_attention_weights() {
    let start = |encoding| {
        let trainer = Trainer::new(TrainConfig {
            encoding,
            ..TrainConfig::default()
        })
        .expect("valid");
        let tensor = trainer
            .model()
            .layout
            .tensor("layer1.w_q")
            .expect("exists")
            .clone();
        trainer.parameters()[tensor.range()].to_vec()
    };
    assert_eq!(start(Encoding::None), start(Encoding::Shaw));
    assert_eq!(start(Encoding::Rope), start(Encoding::Learned));
}

#[test]
fn the_learned_table_has_train_length_rows() {
    let config = TrainConfig {
        encoding: Encoding::Learned,
        train_length: 12,
        steps: 20,
        ..TrainConfig::default()
    };
    let mut trainer = Trainer::new(config).expect("valid");
    let before = trainer.position_table().expect("a learned table");
    assert_eq!((before.rows, before.cols), (12, 32));
    assert_eq!(before.values.len(), 12 * 32);
    // Started as N(0, 0.02²).
    let rms =
        (before.values.iter().map(|v| v * v).sum::<f32>() / before.values.len() as f32).sqrt();
    assert!((0.015..0.025).contains(&rms), "{rms}");
    while !trainer.is_done() {
        trainer.step();
    }
    let after = trainer.position_table().expect("a learned table");
    assert_eq!(after.rows, 12);
    assert_ne!(before.values, after.values);
    // Longer sequences run: positions past the table get nothing added.
    assert!(trainer.evaluate(48, 16, 1).is_ok());
    assert!(Trainer::new(TrainConfig::default())
        .expect("valid")
        .position_table()
        .is_none());
}

#[test]
fn attention_maps_are_rows_of_weights() {
    let config = TrainConfig {
        causal: true,
        encoding: Encoding::Alibi,
        ..TrainConfig::default()
    };
    let mut trainer = Trainer::new(config).expect("valid");
    let example = trainer.example(20, 3).expect("valid");
    let maps = trainer.attention_map(&example).expect("valid");
    assert_eq!(maps.len(), 2 * 2);
    for map in &maps {
        for (i, row) in map.weights.chunks_exact(map.length).enumerate() {
            let sum: f32 = row.iter().sum();
            assert!((sum - 1.0).abs() < 1e-5);
            assert!(row[i + 1..].iter().all(|&w| w == 0.0), "causal");
        }
    }
}

#[test]
fn bad_requests_are_errors() {
    let mut trainer = Trainer::new(TrainConfig::default()).expect("valid");
    assert!(matches!(
        trainer.evaluate(0, 8, 1),
        Err(TrainError::Length { .. })
    ));
    assert!(matches!(
        trainer.evaluate(10_000, 8, 1),
        Err(TrainError::Length { .. })
    ));
    assert_eq!(trainer.evaluate(8, 0, 1), Err(TrainError::NoSamples));
    assert!(matches!(
        trainer.attention_map(&[0, 99]),
        Err(TrainError::Token { token: 99, .. })
    ));
    let bad = TrainConfig {
        layers: 9,
        ..TrainConfig::default()
    };
    assert!(matches!(
        Trainer::new(bad.clone()),
        Err(TrainError::OutOfRange(_))
    ));
    assert!(Trainer::new(bad.clamp().0).is_ok());
}

#[test]
fn parameter_counts_follow_the_encoding() {
    let count = |encoding, mlp| {
        Trainer::new(TrainConfig {
            encoding,
            mlp,
            ..TrainConfig::default()
        })
        .expect("valid")
        .parameter_count()
    };
    // d = 32, 2 layers, vocab 16 (16 classes): 16·32 + 2·(4·32² + 2·32) + 32·16 + 16.
    let none = 16 * 32 + 2 * (4 * 32 * 32 + 2 * 32) + 32 * 16 + 16;
    assert_eq!(count(Encoding::None, false), none);
    assert_eq!(count(Encoding::Sinusoidal, false), none);
    assert_eq!(count(Encoding::Concat, false), none - 16 * 16);
    assert_eq!(count(Encoding::Learned, false), none + 16 * 32);
    assert_eq!(count(Encoding::Conv, false), none + 3 * 32 + 32);
    assert_eq!(count(Encoding::T5, false), none + 2 * 2 * 32);
    assert_eq!(count(Encoding::Shaw, false), none + 2 * 2 * 2 * 9 * 16);
    // The MLP: 32·128 + 128 + 128·32 + 32, and a second LayerNorm (2·32), per layer.
    assert_eq!(
        count(Encoding::None, true),
        none + 2 * (2 * 32 * 128 + 128 + 32 + 64)
    );
}
