//! Training steps per second for each encoding at the size the page's default run is measured
//! against (2 layers, d = 32, 2 heads, batch 64, lengths 8–16, Adam 3e-3), with LayerNorm and
//! without and with the MLP. `cargo bench -p pe-lab-train` (one thread).

use std::time::Instant;

use pe_lab_train::{Encoding, Task, TrainConfig, Trainer};

const WARMUP_STEPS: usize = 5;
const MIN_SECONDS: f64 = 1.5;

/// This thread's time on a CPU in seconds (Linux's schedstat), `None` elsewhere: on a shared
/// machine the wall clock also counts the time other processes held the core.
fn cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanoseconds: f64 = text.split_whitespace().next()?.parse().ok()?;
    Some(nanoseconds * 1e-9)
}

fn main() {
    let only: Option<String> = std::env::args().nth(1).filter(|a| !a.starts_with('-'));
    for mlp in [false, true] {
        println!("2 layers, d = 32, 2 heads, batch 64, lengths 8–16, LayerNorm, MLP {mlp}:");
        for encoding in Encoding::ALL {
            if only.as_deref().is_some_and(|o| o != encoding.link_name()) {
                continue;
            }
            let config = TrainConfig {
                task: Task::Shift,
                shift_k: 3,
                train_length: 16,
                d: 32,
                heads: 2,
                layers: 2,
                batch: 64,
                layer_norm: true,
                mlp,
                encoding,
                steps: usize::MAX >> 1,
                ..TrainConfig::default()
            };
            let Ok(mut trainer) = Trainer::new(config.clamp().0) else {
                println!("  {:>10}: configuration rejected", encoding.link_name());
                continue;
            };
            for _ in 0..WARMUP_STEPS {
                trainer.step();
            }
            let start = Instant::now();
            let cpu_start = cpu_seconds();
            let mut steps = 0;
            while start.elapsed().as_secs_f64() < MIN_SECONDS {
                trainer.step();
                steps += 1;
            }
            let rate = steps as f64 / start.elapsed().as_secs_f64();
            let cpu_rate = cpu_start
                .zip(cpu_seconds())
                .map(|(a, b)| format!(", {:7.1} per CPU second", steps as f64 / (b - a)))
                .unwrap_or_default();
            println!(
                "  {:>10}: {rate:7.1} steps/s{cpu_rate}",
                encoding.link_name()
            );
        }
    }
}
