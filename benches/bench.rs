//! Timing of the native math kernels and of the GPU kernels, printed as one JSON object on stdout
//! (progress goes to stderr).
//!
//! The CPU Gram and attention kernels are also compared with NumPy float32 on one thread
//! (`benches/numpy_reference.py --kernels`, run as a child process with `python3` between the Rust
//! CPU timings and the GPU ones, so that nothing else runs meanwhile): the JSON gets its figures
//! under `"numpy"`, and a table of Rust ms, NumPy ms and their ratio goes to stderr at the end.
//! Without python3 or NumPy those columns say why they are empty. The GPU kernels are compared in
//! the same way with PyTorch float32 on CUDA (`benches/gpu_reference.py`, see `bench_gpu/mod.rs`).
//!
//! Run with `cargo bench --bench bench` (`PE_LAB_BENCH_ONLY=gpu cargo bench --bench bench`: only
//! the `"gpu"` section, see `bench_gpu/mod.rs`). No framework: each measured item is a function that
//! returns its [`Stats`] from [`time_ms`] (a few warm-up calls, then at least [`RUNS`] timed ones),
//! so further items can be added as one more function and one more JSON entry.
//!
//! GPU kernels (under `"gpu"`, `null` without an adapter) are timed with timestamp queries around
//! their compute pass where the adapter has `TIMESTAMP_QUERY`, else by wall time around a submitted
//! and waited dispatch; slow items (the CPU twins of Gram and attention at n = 2048, software GPUs)
//! get fewer runs, see [`runs_for`].

#[path = "bench_gpu/mod.rs"]
mod gpu;
#[path = "python/mod.rs"]
mod python;

use python::python_json;

use std::hint::black_box;
use std::time::Instant;

use pe_lab::math::attention::weights;
use pe_lab::math::encoding::sinusoidal;
use pe_lab::math::f64_reference;
use pe_lab::math::gram::gram;
use pe_lab::math::relative::{max_projection_error, projection_error_of};

/// Timed repetitions per item.
const RUNS: usize = 21;
/// Untimed calls before the timed ones (page faults, caches, frequency scaling).
const WARMUPS: usize = 3;
const BASE: f64 = 10000.0;

/// Median and minimum wall time of one call, in milliseconds.
#[derive(Debug, Clone, Copy)]
struct Stats {
    median: f64,
    min: f64,
    runs: usize,
}

impl Stats {
    fn json(&self) -> String {
        format!(
            "{{\"median\": {:.4}, \"min\": {:.4}, \"runs\": {}}}",
            self.median, self.min, self.runs
        )
    }
}

/// Calls `f` [`WARMUPS`] times untimed, then `runs` times timed; its result goes through
/// `black_box` so the work cannot be optimised away.
fn time_ms<R>(runs: usize, mut f: impl FnMut() -> R) -> Stats {
    for _ in 0..WARMUPS {
        black_box(f());
    }
    let mut samples: Vec<f64> = (0..runs.max(1))
        .map(|_| {
            let start = Instant::now();
            black_box(f());
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    Stats {
        median: samples[samples.len() / 2],
        min: samples[0],
        runs: samples.len(),
    }
}

/// Timed runs for an item whose first call took `first_ms`: [`RUNS`] when fast, down to 3 when a
/// single call exceeds 5 s (never fewer than 5 below that).
fn runs_for(first_ms: f64) -> usize {
    match first_ms {
        t if t < 250.0 => RUNS,
        t if t < 1000.0 => 11,
        t if t < 5000.0 => 5,
        _ => 3,
    }
}

/// [`time_ms`] with the number of runs chosen from one untimed first call.
fn time_ms_adaptive<R>(label: &str, mut f: impl FnMut() -> R) -> Stats {
    let start = Instant::now();
    black_box(f());
    let first = start.elapsed().as_secs_f64() * 1e3;
    let runs = runs_for(first);
    eprintln!("  {label}: first call {first:.1} ms, {runs} runs");
    let stats = time_ms(runs, f);
    eprintln!("  {label}: median {:.3} ms", stats.median);
    stats
}

fn bench_gram_cpu(n: usize, d: usize) -> Stats {
    let p = sinusoidal(n, d, BASE);
    time_ms_adaptive(&format!("gram CPU {n}x{d}"), || gram(black_box(p.view())))
}

/// Self-attention on the encoding, Q = K = P (the page's attention panels): the scores are
/// symmetric and `weights` computes them with the Gram kernel's shortcut.
fn bench_attention_cpu(n: usize, d: usize) -> Stats {
    let p = sinusoidal(n, d, BASE);
    time_ms_adaptive(&format!("attention CPU {n}x{d}"), || {
        weights(black_box(p.view()), black_box(p.view()), None)
    })
}

/// Q = P and K = P with its rows reversed: two different matrices, so the scores are a general
/// GEMM (as with learned projections W_q ≠ W_k). NumPy gets the same two matrices.
fn bench_attention_qk_cpu(n: usize, d: usize) -> Stats {
    let p = sinusoidal(n, d, BASE);
    let k = p.slice(ndarray::s![..;-1, ..]).to_owned();
    time_ms_adaptive(&format!("attention Q≠K CPU {n}x{d}"), || {
        weights(black_box(p.view()), black_box(k.view()), None)
    })
}

/// The output of `python3 benches/numpy_reference.py --kernels` (one JSON object), or why there is
/// none.
fn numpy_kernels() -> Result<String, String> {
    python_json("numpy_reference.py", &["--kernels"])
}

/// The median of entry `key` in the JSON written by `numpy_reference.py` or `gpu_reference.py`
/// (`"key": {"median": x`).
fn json_median(json: &str, key: &str) -> Option<f64> {
    let entry = &json[json.find(&format!("\"{key}\""))?..];
    let value = &entry[entry.find("\"median\":")? + "\"median\":".len()..];
    let end = value.find([',', '}'])?;
    value[..end].trim().parse().ok()
}

/// A side-by-side table on stderr, for the CPU kernels against NumPy and the GPU kernels against
/// PyTorch: kernel, size (from the JSON key), our median, the reference's median for the same
/// key, ours / theirs ("n/a" where the reference has no positive figure). `heading` comes first;
/// when the reference is missing, why.
struct RatioTable<'a> {
    heading: &'a [String],
    /// The names of our column and of the reference's.
    columns: (&'a str, &'a str),
    label_width: usize,
    decimals: usize,
}

impl RatioTable<'_> {
    fn print(&self, rows: &[(&str, &str, &Stats)], reference: &Result<String, String>) {
        let (label_width, decimals) = (self.label_width, self.decimals);
        let (ours, theirs_name) = self.columns;
        let ratio_name = format!("{ours}/{theirs_name}");
        let ratio_width = ratio_name.len().max(11);
        eprintln!();
        for line in self.heading {
            eprintln!("{line}");
        }
        if let Err(why) = reference {
            eprintln!("  no {theirs_name} figures: {why}");
        }
        eprintln!(
            "{:<label_width$} {:>10} {:>9} {:>9} {:>ratio_width$}",
            "kernel", "n x d", ours, theirs_name, ratio_name
        );
        for &(label, key, stats) in rows {
            let size = key.trim_end_matches("_ms").rsplit('_').next().unwrap_or("");
            let theirs = reference
                .as_ref()
                .ok()
                .and_then(|json| json_median(json, key))
                .filter(|&t| t > 0.0);
            let (theirs, ratio) = match theirs {
                Some(t) => (
                    format!("{t:.decimals$}"),
                    format!("{:.2}", stats.median / t),
                ),
                None => ("n/a".into(), "n/a".into()),
            };
            eprintln!(
                "{label:<label_width$} {size:>10} {:>9.decimals$} {theirs:>9} {ratio:>ratio_width$}",
                stats.median
            );
        }
    }
}

/// `text` as a JSON string literal.
fn json_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn bench_sinusoidal(n: usize, d: usize) -> Stats {
    time_ms(RUNS, || {
        sinusoidal(black_box(n), black_box(d), black_box(BASE))
    })
}

fn bench_max_projection_error(n: usize, d: usize, delta: i64) -> Stats {
    time_ms(RUNS, || {
        max_projection_error(
            black_box(n),
            black_box(d),
            black_box(BASE),
            black_box(delta),
        )
    })
}

fn bench_projection_error_of(n: usize, d: usize, delta: i64) -> Stats {
    let p = sinusoidal(n, d, BASE);
    time_ms(RUNS, || {
        projection_error_of(black_box(p.view()), black_box(BASE), black_box(delta))
    })
}

fn main() {
    // PE_LAB_BENCH_ONLY=gpu: the GPU kernels alone (a minute on lavapipe instead of several), to
    // compare two builds of the kernels one right after the other.
    if std::env::var("PE_LAB_BENCH_ONLY").as_deref() == Ok("gpu") {
        eprintln!("GPU kernels only (PE_LAB_BENCH_ONLY=gpu)");
        println!("{{\"gpu\": {}}}", gpu::bench_gpu());
        return;
    }
    let mut entries: Vec<(String, String)> = Vec::new();
    entries.push((
        "sinusoidal_4096x1024_ms".into(),
        bench_sinusoidal(4096, 1024).json(),
    ));
    entries.push((
        "sinusoidal_8192x512_ms".into(),
        bench_sinusoidal(8192, 512).json(),
    ));
    entries.push((
        "sinusoidal_8192x2048_ms".into(),
        bench_sinusoidal(8192, 2048).json(),
    ));
    entries.push((
        "max_projection_error_4096x1024_delta7_ms".into(),
        bench_max_projection_error(4096, 1024, 7).json(),
    ));
    entries.push((
        "projection_error_of_4096x1024_delta7_ms".into(),
        bench_projection_error_of(4096, 1024, 7).json(),
    ));
    entries.push((
        "max_abs_error_vs_f64".into(),
        format!(
            "{:e}",
            f64_reference::max_error(sinusoidal(4096, 1024, BASE).view(), 0, BASE).0
        ),
    ));
    entries.push((
        "max_projection_error_4096x1024_delta7".into(),
        format!("{:e}", max_projection_error(4096, 1024, BASE, 7)),
    ));
    eprintln!("CPU twins of the GPU kernels");
    // (label, JSON key shared with numpy_reference.py, Rust timing)
    let mut compared: Vec<(String, String, Stats)> = Vec::new();
    for n in [1024, 2048] {
        let d = 512;
        compared.push((
            "Gram P·Pᵀ".into(),
            format!("gram_{n}x{d}_ms"),
            bench_gram_cpu(n, d),
        ));
        compared.push((
            "attention softmax(P·Pᵀ/√d)".into(),
            format!("attention_weights_{n}x{d}_ms"),
            bench_attention_cpu(n, d),
        ));
        compared.push((
            "attention softmax(Q·Kᵀ/√d), Q≠K".into(),
            format!("attention_weights_qk_{n}x{d}_ms"),
            bench_attention_qk_cpu(n, d),
        ));
    }
    for (_, key, stats) in &compared {
        entries.push((key.clone(), stats.json()));
    }
    eprintln!("NumPy reference (python3 benches/numpy_reference.py --kernels)");
    let numpy = numpy_kernels();
    entries.push((
        "numpy".into(),
        numpy.clone().unwrap_or_else(|why| json_string(&why)),
    ));
    eprintln!("GPU kernels");
    entries.push(("gpu".into(), gpu::bench_gpu()));
    let body: Vec<String> = entries
        .iter()
        .map(|(k, v)| format!("\"{k}\": {v}"))
        .collect();
    println!("{{{}}}", body.join(", "));
    let rows: Vec<(&str, &str, &Stats)> = compared
        .iter()
        .map(|(label, key, stats)| (label.as_str(), key.as_str(), stats))
        .collect();
    RatioTable {
        heading: &["CPU kernels vs NumPy float32 (one thread each): medians in ms".into()],
        columns: ("Rust", "NumPy"),
        label_width: 32,
        decimals: 2,
    }
    .print(&rows, &numpy);
}
