//! Training steps per second of the GPU trainer (`pe_lab::gpu::train::GpuTrainer`, WGSL) on the
//! default model (`TrainConfig::default()`: shift k = 3, vocabulary 16, lengths 8–16, batch 64,
//! d = 32, 2 heads, 2 layers, LayerNorm, no MLP, Adam at 3e-3), beside the CPU trainer
//! (`pe_lab_train::Trainer`, one thread) in the same run and, where PyTorch and CUDA are there,
//! the same model in PyTorch eager on CUDA (`python3 benches/train_reference.py --device cuda`,
//! run as a child process after the Rust timings, so that nothing else runs meanwhile). One JSON
//! object goes to stdout, a table with the ratios to stderr.
//!
//! A GPU window is `PE_LAB_TRAIN_GPU_STEPS` steps (default 300) ended by the loss readback that
//! waits for the GPU: the trainer reads the loss back every `PE_LAB_TRAIN_GPU_READBACK` steps
//! (default 10), so steps pipeline between readbacks as they would in a training loop. A CPU
//! window runs steps until [`CPU_WINDOW_SECONDS`] have passed. Each reports the median, minimum
//! and maximum over `PE_LAB_TRAIN_GPU_WINDOWS` windows (default 5), after untimed warm-up steps.
//! `PE_LAB_TRAIN_GPU_ENCODINGS` (default `sinusoidal`, the default model's) takes a comma list;
//! `PE_LAB_TRAIN_GPU_TORCH=0` skips PyTorch.
//!
//!     cargo bench --bench train_gpu
//!     PE_LAB_TRAIN_GPU_STEPS=30 PE_LAB_TRAIN_GPU_WINDOWS=3 cargo bench --bench train_gpu

use std::time::Instant;

#[path = "python/mod.rs"]
mod python;

use pe_lab::gpu::native_context_blocking;
use pe_lab::gpu::train::{supports, GpuTrainer, LongSums};
use pe_lab_train::{Encoding, TrainConfig, Trainer};

/// Wall time of one CPU window.
const CPU_WINDOW_SECONDS: f64 = 0.5;
/// Untimed steps before the timed ones (shader compilation, caches, the first readbacks).
const WARMUP_STEPS: usize = 30;
/// PyTorch's window, in seconds of wall time (passed as `--seconds`).
const TORCH_WINDOW_SECONDS: &str = "1.0";

fn env_usize(name: &str, default: usize) -> usize {
    match std::env::var(name) {
        Ok(value) => match value.trim().parse::<usize>() {
            Ok(parsed) if parsed > 0 => parsed,
            _ => {
                eprintln!("{name}={value} is not a positive integer; using {default}");
                default
            }
        },
        Err(_) => default,
    }
}

/// Median, minimum and maximum of some rates.
#[derive(Debug, Clone, Copy)]
struct Rates {
    median: f64,
    min: f64,
    max: f64,
}

impl Rates {
    fn of(mut rates: Vec<f64>) -> Rates {
        rates.sort_by(f64::total_cmp);
        Rates {
            median: rates[rates.len() / 2],
            min: rates[0],
            max: rates[rates.len() - 1],
        }
    }

    fn json(&self) -> String {
        format!(
            "{{\"median\": {:.2}, \"min\": {:.2}, \"max\": {:.2}}}",
            self.median, self.min, self.max
        )
    }
}

fn gpu_rates(
    context: &pe_lab::gpu::GpuContext,
    config: &TrainConfig,
    steps: usize,
    windows: usize,
    readback: usize,
) -> Result<(Rates, usize, f32), String> {
    let (device, queue) = (&context.device, &context.queue);
    let long_sums = LongSums::for_adapter(&context.adapter_info);
    let mut trainer = pollster::block_on(GpuTrainer::new(
        device,
        queue,
        config.clone(),
        readback,
        long_sums,
    ))
    .map_err(|e| e.to_string())?;
    let run = |trainer: &mut GpuTrainer, steps: usize| -> Result<(), String> {
        for _ in 0..steps {
            pollster::block_on(trainer.step_paced(device, queue)).map_err(|e| e.to_string())?;
        }
        pollster::block_on(trainer.finish(device, queue)).map_err(|e| e.to_string())
    };
    run(&mut trainer, WARMUP_STEPS)?;
    let mut rates = Vec::new();
    for _ in 0..windows {
        let start = Instant::now();
        run(&mut trainer, steps)?;
        rates.push(steps as f64 / start.elapsed().as_secs_f64());
    }
    let last = trainer.losses().last().copied().unwrap_or(f32::NAN);
    Ok((Rates::of(rates), trainer.dispatches_per_step(), last))
}

fn cpu_rates(config: &TrainConfig, windows: usize) -> Result<Rates, String> {
    let mut trainer = Trainer::new(config.clone()).map_err(|e| e.to_string())?;
    for _ in 0..WARMUP_STEPS {
        trainer.step();
    }
    let mut rates = Vec::new();
    for _ in 0..windows {
        let start = Instant::now();
        let mut steps = 0usize;
        while start.elapsed().as_secs_f64() < CPU_WINDOW_SECONDS {
            trainer.step();
            steps += 1;
        }
        rates.push(steps as f64 / start.elapsed().as_secs_f64());
    }
    Ok(Rates::of(rates))
}

/// The JSON object that `python3 benches/<script> <args>` prints, or why there is none, with the
/// script's own `{"error": why}` (no PyTorch, no CUDA) turned into that reason.
fn python_json(script: &str, args: &[&str]) -> Result<String, String> {
    let json = python::python_json(script, args)?;
    if let Some(at) = json.find("\"error\":") {
        let why = json[at + "\"error\":".len()..].trim_end_matches('}').trim();
        return Err(why.trim_matches('"').to_string());
    }
    Ok(json)
}

/// The median steps per second of `encoding` in train_reference.py's `--device cuda` JSON.
fn torch_median(json: &str, encoding: &str) -> Option<f64> {
    let encodings = &json[json.find("\"encodings\"")?..];
    let entry = &encodings[encodings.find(&format!("\"{encoding}\""))?..];
    let rates = &entry[entry.find("\"steps_per_wall_second\"")?..];
    let value = &rates[rates.find("\"median\":")? + "\"median\":".len()..];
    let end = value.find([',', '}'])?;
    value[..end].trim().parse().ok()
}

fn main() {
    // `cargo bench` passes `--bench`; nothing else is accepted.
    let steps = env_usize("PE_LAB_TRAIN_GPU_STEPS", 300);
    let windows = env_usize("PE_LAB_TRAIN_GPU_WINDOWS", 5);
    let readback = env_usize("PE_LAB_TRAIN_GPU_READBACK", 10);
    let encodings: Vec<Encoding> = std::env::var("PE_LAB_TRAIN_GPU_ENCODINGS")
        .unwrap_or_else(|_| "sinusoidal".into())
        .split(',')
        .filter(|name| !name.is_empty())
        .filter_map(|name| {
            let encoding = Encoding::from_link(name.trim());
            if encoding.is_none() {
                eprintln!("unknown encoding {name}: skipped");
            }
            encoding
        })
        .collect();
    let context = match native_context_blocking() {
        Ok(context) => context,
        Err(e) => {
            eprintln!("no GPU adapter: {e}");
            println!("{{\"error\": {:?}}}", e.to_string());
            return;
        }
    };
    eprintln!("GPU: {}", context.describe());
    eprintln!("{steps} steps per GPU window, {windows} windows, loss read back every {readback}");
    let mut rows = Vec::new();
    for &encoding in &encodings {
        let config = TrainConfig {
            encoding,
            ..TrainConfig::default()
        };
        let name = encoding.link_name();
        let gpu = if supports(encoding) {
            gpu_rates(&context, &config, steps, windows, readback)
        } else {
            Err("not implemented by the GPU trainer".into())
        };
        let cpu = cpu_rates(&config, windows);
        match &gpu {
            Ok((rates, dispatches, loss)) => eprintln!(
                "  {name:>10}: GPU {:.1} steps/s ({dispatches} dispatches per step, last loss \
                 {loss:.4})",
                rates.median
            ),
            Err(why) => eprintln!("  {name:>10}: GPU: {why}"),
        }
        if let Ok(rates) = &cpu {
            eprintln!("  {name:>10}: CPU {:.1} steps/s (one thread)", rates.median);
        }
        rows.push((name, gpu, cpu));
    }
    let torch = if std::env::var("PE_LAB_TRAIN_GPU_TORCH").as_deref() == Ok("0") {
        Err("skipped (PE_LAB_TRAIN_GPU_TORCH=0)".to_string())
    } else {
        let names: Vec<&str> = rows.iter().map(|(name, _, _)| *name).collect();
        let list = names.join(",");
        let windows = windows.to_string();
        eprintln!("PyTorch reference (python3 benches/train_reference.py --device cuda)");
        python_json(
            "train_reference.py",
            &[
                "--device",
                "cuda",
                "--encodings",
                &list,
                "--windows",
                &windows,
                "--seconds",
                TORCH_WINDOW_SECONDS,
            ],
        )
    };

    eprintln!();
    eprintln!(
        "training steps per second, default model ({})",
        context.describe()
    );
    if let Err(why) = &torch {
        eprintln!("  no PyTorch CUDA figures: {why}");
    }
    eprintln!(
        "{:>10} {:>10} {:>10} {:>11} {:>9} {:>11}",
        "encoding", "WGSL", "CPU 1 thr", "WGSL/CPU", "torch", "WGSL/torch"
    );
    let mut entries = Vec::new();
    for (name, gpu, cpu) in &rows {
        let gpu_median = gpu.as_ref().ok().map(|(r, _, _)| r.median);
        let cpu_median = cpu.as_ref().ok().map(|r| r.median);
        let torch_median = torch
            .as_ref()
            .ok()
            .and_then(|json| torch_median(json, name));
        let ratio = |a: Option<f64>, b: Option<f64>| match (a, b) {
            (Some(a), Some(b)) if b > 0.0 => format!("{:.2}", a / b),
            _ => "n/a".into(),
        };
        let figure = |v: Option<f64>| v.map_or("n/a".into(), |v| format!("{v:.1}"));
        eprintln!(
            "{name:>10} {:>10} {:>10} {:>11} {:>9} {:>11}",
            figure(gpu_median),
            figure(cpu_median),
            ratio(gpu_median, cpu_median),
            figure(torch_median),
            ratio(gpu_median, torch_median)
        );
        let json_of = |v: &Result<Rates, String>| match v {
            Ok(rates) => rates.json(),
            Err(why) => format!("{{\"error\": {why:?}}}"),
        };
        let gpu_json = match gpu {
            Ok((rates, dispatches, _)) => format!(
                "{{\"steps_per_second\": {}, \"dispatches_per_step\": {dispatches}}}",
                rates.json()
            ),
            Err(why) => format!("{{\"error\": {why:?}}}"),
        };
        entries.push(format!(
            "\"{name}\": {{\"wgsl\": {gpu_json}, \"cpu_one_thread\": {{\"steps_per_second\": {}}}, \
             \"torch_cuda_steps_per_second\": {}}}",
            json_of(cpu),
            torch_median.map_or("null".into(), |v| format!("{v:.2}"))
        ));
    }
    let torch_json = match &torch {
        Ok(json) => json.clone(),
        Err(why) => format!("{{\"error\": {why:?}}}"),
    };
    println!(
        "{{\"device\": {:?}, \"steps_per_gpu_window\": {steps}, \"windows\": {windows}, \
         \"readback_every\": {readback}, \"encodings\": {{{}}}, \"torch_cuda\": {torch_json}}}",
        context.describe(),
        entries.join(", ")
    );
}
