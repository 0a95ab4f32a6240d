//! Training steps per second for each encoding at the size the page's default run is measured
//! against (2 layers, d = 32, 2 heads, batch 64, lengths 8–16, Adam 3e-3), with LayerNorm and
//! without and with the MLP. `cargo bench -p pe-lab-train` (one thread); `-- <encoding>` measures
//! one encoding, `-- --no-reference` leaves out the PyTorch comparison.
//!
//! After its own figures, the bench runs the PyTorch reference of the same model
//! (`python3 benches/train_reference.py` in the repository root, float32, one thread) on the
//! first block's configuration and prints Rust's and PyTorch's steps per CPU second side by side,
//! then the reference's gradient check (`--check`: the loss and every gradient of one step of the
//! crate against PyTorch's, in f32 and f64). Without python3 or PyTorch, those lines say why.
//!
//! Both sides measure the same way: a few untimed steps, then [`WINDOWS`] windows of
//! [`WINDOW_SECONDS`] of this thread's CPU time each; the median rate over the windows is
//! reported. CPU time, because on a shared machine the wall clock also counts the time other
//! processes held the core.

use std::process::{Command, Stdio};
use std::time::Instant;

use pe_lab_train::{Encoding, Task, TrainConfig, Trainer};

const WARMUP_STEPS: usize = 5;
const WINDOWS: usize = 5;
const WINDOW_SECONDS: f64 = 0.3;

/// This thread's time on a CPU in seconds (Linux's schedstat), `None` elsewhere.
fn cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanoseconds: f64 = text.split_whitespace().next()?.parse().ok()?;
    Some(nanoseconds * 1e-9)
}

/// The rates of one encoding: steps per wall-clock second over every window, and the median of
/// the windows' steps per CPU second (`None` without a CPU clock).
struct Rates {
    wall: f64,
    cpu: Option<f64>,
}

/// Times `step` over [`WINDOWS`] windows, each until [`WINDOW_SECONDS`] of CPU time (of wall
/// time without a CPU clock) have passed.
fn measure(mut step: impl FnMut()) -> Rates {
    for _ in 0..WARMUP_STEPS {
        step();
    }
    let start = Instant::now();
    let mut total_steps = 0;
    let mut cpu_rates = Vec::new();
    for _ in 0..WINDOWS {
        let window_start = Instant::now();
        let cpu_start = cpu_seconds();
        let elapsed = || match cpu_start.zip(cpu_seconds()) {
            Some((a, b)) => b - a,
            None => window_start.elapsed().as_secs_f64(),
        };
        let mut steps = 0;
        while elapsed() < WINDOW_SECONDS {
            step();
            steps += 1;
        }
        total_steps += steps;
        if cpu_start.is_some() {
            cpu_rates.push(steps as f64 / elapsed());
        }
    }
    cpu_rates.sort_by(f64::total_cmp);
    Rates {
        wall: total_steps as f64 / start.elapsed().as_secs_f64(),
        cpu: cpu_rates.get(cpu_rates.len() / 2).copied(),
    }
}

fn config(encoding: Encoding, mlp: bool) -> TrainConfig {
    TrainConfig {
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
    }
}

/// The path of `benches/train_reference.py` in the repository root.
fn reference_script() -> String {
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../benches/train_reference.py"
    )
    .to_string()
}

/// The JSON object `train_reference.py` prints with `args`, or why there is none. Its stderr
/// (progress, the check's table) goes to the terminal as it comes.
fn run_reference(args: &[&str]) -> Result<String, String> {
    let output = Command::new("python3")
        .arg(reference_script())
        .args(args)
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("python3 did not run: {e}"))?;
    let json = String::from_utf8_lossy(&output.stdout).trim().to_string();
    if !json.starts_with('{') {
        return Err(format!("{}, no JSON object on stdout", output.status));
    }
    // The reference reports a missing PyTorch as {"error": why} and exits 0.
    if let Some(why) = string_after(&json, &["error"]) {
        return Err(why);
    }
    Ok(json)
}

/// The position just after the colon of `"key":`, found from `from` on.
fn after_key(json: &str, from: usize, key: &str) -> Option<usize> {
    let pattern = format!("\"{key}\":");
    Some(from + json[from..].find(&pattern)? + pattern.len())
}

/// The number after the last of `keys`, each looked for after the one before (enough for the
/// flat, known layout of the reference's JSON).
fn number_after(json: &str, keys: &[&str]) -> Option<f64> {
    let at = keys
        .iter()
        .try_fold(0, |at, key| after_key(json, at, key))?;
    let value = json[at..].trim_start();
    let end = value.find([',', '}', ']']).unwrap_or(value.len());
    value[..end].trim().parse().ok()
}

/// The string after the last of `keys` (no escapes are expected in it but `\"`).
fn string_after(json: &str, keys: &[&str]) -> Option<String> {
    let at = keys
        .iter()
        .try_fold(0, |at, key| after_key(json, at, key))?;
    let value = json[at..].trim_start().strip_prefix('"')?;
    let mut out = String::new();
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some(out),
            '\\' => out.extend(chars.next()),
            c => out.push(c),
        }
    }
    None
}

/// Rust's and PyTorch's steps per CPU second for every encoding of the first block, and their
/// ratio (above 1: Rust takes more steps per second).
fn print_comparison(rust: &[(Encoding, Rates)]) {
    let names: Vec<&str> = rust.iter().map(|(e, _)| e.link_name()).collect();
    println!();
    println!("PyTorch reference (python3 benches/train_reference.py, float32, one thread):");
    let reference = run_reference(&["--encodings", &names.join(",")]);
    match &reference {
        Ok(json) => println!(
            "  torch {}; Adam: {}; clock: {}",
            string_after(json, &["torch_version"]).unwrap_or_default(),
            string_after(json, &["adam"]).unwrap_or_default(),
            string_after(json, &["clock"]).unwrap_or_default()
        ),
        Err(why) => println!("  no PyTorch figures: {why}"),
    }
    println!("Rust vs PyTorch, first block (LayerNorm, no MLP), steps per CPU second (median):");
    println!(
        "  {:>10} {:>10} {:>10} {:>14}",
        "encoding", "Rust", "PyTorch", "Rust/PyTorch"
    );
    for (encoding, rates) in rust {
        let name = encoding.link_name();
        let theirs = reference.as_ref().ok().and_then(|json| {
            number_after(json, &["encodings", name, "steps_per_cpu_second", "median"])
        });
        let ours = rates.cpu;
        let cell = |v: Option<f64>| v.map_or("n/a".into(), |v| format!("{v:.1}"));
        let ratio = ours.zip(theirs).map(|(a, b)| format!("{:.2}", a / b));
        println!(
            "  {name:>10} {:>10} {:>10} {:>14}",
            cell(ours),
            cell(theirs),
            ratio.unwrap_or_else(|| "n/a".into())
        );
    }
    if reference.is_err() {
        return;
    }
    println!();
    println!("Gradient check (python3 benches/train_reference.py --check):");
    match run_reference(&["--check", "--encodings", &names.join(",")]) {
        Ok(json) => {
            let passed = json.contains("\"all_passed\": true");
            let number = |key: &str| number_after(&json, &[key]).unwrap_or(f64::NAN);
            println!(
                "  {}: largest f32 error {:.1e} (tolerance {:.0e}, floor {:.0e} of each tensor's \
                 largest), largest f64 error {:.1e}",
                if passed { "passed" } else { "FAILED" },
                number("max_error_f32"),
                number("tolerance"),
                number("floor"),
                number("max_error_f64"),
            );
        }
        Err(why) => println!("  not run: {why}"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let only = args.iter().find(|a| !a.starts_with('-'));
    let with_reference = !args.iter().any(|a| a == "--no-reference");
    let mut first_block = Vec::new();
    for mlp in [false, true] {
        println!("2 layers, d = 32, 2 heads, batch 64, lengths 8–16, LayerNorm, MLP {mlp}:");
        for encoding in Encoding::ALL {
            if only.is_some_and(|o| o != encoding.link_name()) {
                continue;
            }
            let Ok(mut trainer) = Trainer::new(config(encoding, mlp).clamp().0) else {
                println!("  {:>10}: configuration rejected", encoding.link_name());
                continue;
            };
            let rates = measure(|| {
                trainer.step();
            });
            let cpu_rate = rates
                .cpu
                .map(|r| format!(", {r:7.1} per CPU second"))
                .unwrap_or_default();
            println!(
                "  {:>10}: {:7.1} steps/s{cpu_rate}",
                encoding.link_name(),
                rates.wall
            );
            if !mlp {
                first_block.push((encoding, rates));
            }
        }
    }
    if with_reference && !first_block.is_empty() {
        print_comparison(&first_block);
    }
}
