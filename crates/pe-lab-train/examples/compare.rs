//! Trains every encoding (or those of `enc=a,b,…`) side by side with [`compare`] and prints the
//! final loss, the accuracy at 1×, 2× and 4× the training length, the first checked step at which
//! 95% was reached, the parameters, the offset hit rate on `shift`, the learned table's
//! translation spreads, and the steps per CPU second:
//! `cargo run --release -p pe-lab-train --example compare -- shift steps=600 k=3 lr=0.003 n=16
//! d=32 heads=2 layers=2 batch=64 vocab=16 seed=1 mlp causal enc=none,rope no95` (`no95` skips the
//! first-95% pass).
//!
//! With `--link "<a page's query string>"` it instead runs exactly what that link runs in the
//! page's training panel (its settings, encodings and seeds, on the CPU) and prints JSON shaped
//! like the page's `peLab.stats.panels.train` (`results.<encoding>.bySeed[k].loss`, …): the same
//! bits as the page, e.g.
//! `cargo run --release -p pe-lab-train --example compare -- --link "?task=reverse&tseeds=3"`.
//!
//! The first-95% step comes from a second pass that trains each encoding alone and evaluates it
//! every 25 steps; the results above it come from one [`compare`] call.

use pe_lab_train::compare::{compare, EVAL_SAMPLES};
use pe_lab_train::{Encoding, Task, TrainConfig, Trainer};

const CHECK_EVERY: usize = 25;

/// This thread's time on a CPU in seconds (Linux's schedstat), `None` elsewhere: on a shared
/// machine the wall clock also counts the time other processes held the core.
fn cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanoseconds: f64 = text.split_whitespace().next()?.parse().ok()?;
    Some(nanoseconds * 1e-9)
}

fn parse_args() -> (TrainConfig, Vec<Encoding>, bool) {
    let mut config = TrainConfig::default();
    let mut encodings = Encoding::ALL.to_vec();
    let mut find_95 = true;
    for arg in std::env::args().skip(1) {
        let (key, value) = arg.split_once('=').unwrap_or((arg.as_str(), ""));
        let number = value.parse::<usize>().ok();
        match (key, number) {
            ("steps", Some(v)) => config.steps = v,
            ("k", Some(v)) => config.shift_k = v,
            ("n", Some(v)) => config.train_length = v,
            ("d", Some(v)) => config.d = v,
            ("heads", Some(v)) => config.heads = v,
            ("layers", Some(v)) => config.layers = v,
            ("batch", Some(v)) => config.batch = v,
            ("vocab", Some(v)) => config.vocab = v,
            ("seed", Some(v)) => config.seed = v as u64,
            ("lr", _) => config.learning_rate = value.parse().unwrap_or(config.learning_rate),
            ("mlp", _) => config.mlp = true,
            ("no95", _) => find_95 = false,
            ("causal", _) => config.causal = true,
            ("nonorm", _) => config.layer_norm = false,
            ("enc", _) => {
                encodings = value.split(',').filter_map(Encoding::from_link).collect();
            }
            _ => {
                if let Some(task) = Task::from_link(key) {
                    config.task = task;
                } else {
                    println!("ignored: {arg}");
                }
            }
        }
    }
    (config, encodings, find_95)
}

/// The first multiple of [`CHECK_EVERY`] steps at which the accuracy at the training length
/// reached 95%.
fn first_95(config: &TrainConfig, encoding: Encoding) -> Option<usize> {
    let mut trainer = Trainer::new(TrainConfig {
        encoding,
        ..config.clone()
    })
    .ok()?;
    while !trainer.is_done() {
        trainer.step();
        if trainer.steps_done() % CHECK_EVERY == 0
            && trainer
                .evaluate(config.train_length, EVAL_SAMPLES, 9)
                .unwrap_or(0.0)
                >= 0.95
        {
            return Some(trainer.steps_done());
        }
    }
    None
}

/// `--link "<query string>"`: the page's run of that link, as the page's stats.
fn run_link(search: &str) {
    match pe_lab::model::train::replay::run_link(search) {
        Ok((run, notices)) => {
            for notice in notices {
                eprintln!("{notice}");
            }
            match serde_json::to_string_pretty(&run.stats()) {
                Ok(json) => println!("{json}"),
                Err(error) => eprintln!("{error}"),
            }
        }
        Err(error) => {
            eprintln!("{error}");
            std::process::exit(1);
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(at) = args.iter().position(|a| a == "--link") {
        run_link(args.get(at + 1).map_or("", String::as_str));
        return;
    }
    let (requested, encodings, find_95) = parse_args();
    let (config, notices) = requested.clamp();
    for notice in notices {
        println!(
            "{}: {} → {} ({})",
            notice.field, notice.requested, notice.used, notice.reason
        );
    }
    let start = cpu_seconds();
    let comparison = match compare(config.clone(), &encodings) {
        Ok(comparison) => comparison,
        Err(error) => {
            println!("{error}");
            return;
        }
    };
    let cpu = start.zip(cpu_seconds()).map(|(a, b)| b - a);
    let n = config.train_length;
    println!("{}", config.task.description());
    println!(
        "{config:?}\nchance at {n}: {:.3}; sinusoidal translation spread {:.2e}",
        comparison.chance, comparison.translation_spread_sinusoidal
    );
    for result in &comparison.results {
        let [one, two, four] = result.accuracy_at_multiples;
        let hits = result
            .offset_hit_rate
            .map(|h| format!(", hits {:.2} (layer {} head {})", h.rate, h.layer, h.head))
            .unwrap_or_default();
        let spreads = result
            .translation_spread_initial
            .zip(result.translation_spread_trained)
            .map(|(a, b)| format!(", spread {a:.3} → {b:.3}"))
            .unwrap_or_default();
        println!(
            "{:>10}: loss {:.3}, accuracy {one:.3} {two:.3} {four:.3}, 95% at {}, {} parameters{hits}{spreads}",
            result.encoding.link_name(),
            result.final_loss,
            find_95
                .then(|| first_95(&config, result.encoding))
                .flatten()
                .map_or("–".to_string(), |s| s.to_string()),
            result.parameter_count,
        );
    }
    if let Some(cpu) = cpu {
        let steps = config.steps * encodings.len();
        println!(
            "compare: {cpu:.2} CPU s for {steps} steps and the evaluation ({:.0} steps per CPU second, evaluation included)",
            steps as f64 / cpu
        );
    }
}
