//! Trains every encoding on one task from the same seed and prints the loss, the accuracy at 1×,
//! 2× and 4× the training length, the first step at which 95% was reached and the parameters:
//! `cargo run --release -p pe-lab-train --example compare -- shift 600 [causal]`.

use pe_lab_train::{Encoding, Task, TrainConfig, Trainer};

const EVAL_SAMPLES: usize = 256;
const EVAL_SEED: u64 = 9;
const CHECK_EVERY: usize = 50;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let task = args
        .first()
        .and_then(|name| Task::from_link(name))
        .unwrap_or_default();
    let steps = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(600);
    let causal = args.iter().any(|a| a == "causal");
    let requested = TrainConfig {
        task,
        steps,
        causal,
        ..TrainConfig::default()
    };
    let (base, notices) = requested.clamp();
    for notice in notices {
        println!(
            "{}: {} → {} ({})",
            notice.field, notice.requested, notice.used, notice.reason
        );
    }
    let n = base.train_length;
    println!(
        "{}, {} steps, causal {causal}; chance at {n}: {:.3}",
        task.description(),
        base.steps,
        task.chance(n, base.vocab)
    );
    for encoding in Encoding::ALL {
        let config = TrainConfig {
            encoding,
            ..base.clone()
        };
        let Ok(mut trainer) = Trainer::new(config) else {
            continue;
        };
        let mut loss = 0.0;
        let mut first_95 = None;
        while !trainer.is_done() {
            loss = trainer.step();
            let done = trainer.steps_done();
            if first_95.is_none()
                && done % CHECK_EVERY == 0
                && trainer.evaluate(n, 64, EVAL_SEED).unwrap_or(0.0) >= 0.95
            {
                first_95 = Some(done);
            }
        }
        let accuracy: Vec<String> = [n, 2 * n, 4 * n]
            .iter()
            .map(|&length| {
                let a = trainer
                    .evaluate(length, EVAL_SAMPLES, EVAL_SEED)
                    .unwrap_or(f64::NAN);
                format!("{a:.3}")
            })
            .collect();
        println!(
            "{:>10}: loss {loss:.3}, accuracy at 1×, 2×, 4× {}, 95% at step {}, {} parameters",
            encoding.link_name(),
            accuracy.join(" "),
            first_95.map_or("–".to_string(), |s| s.to_string()),
            trainer.parameter_count()
        );
    }
}
