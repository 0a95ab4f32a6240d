//! Timing of the native math kernels, printed as one JSON object on stdout.
//!
//! Run with `cargo bench --bench bench`. No framework: each measured item is a function that
//! returns its [`Stats`] from [`time_ms`] (a few warm-up calls, then at least [`RUNS`] timed ones),
//! so further items (e.g. a GPU path) can be added as one more function and one more JSON entry.

use std::hint::black_box;
use std::time::Instant;

use ndarray::Array2;
use pe_lab::math::encoding::sinusoidal;
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

/// Largest |P − P_f64| over all entries, the float64 reference computed from the definition.
fn max_abs_error_vs_f64(p: &Array2<f32>, base: f64) -> f64 {
    let d = p.ncols();
    let omegas: Vec<f64> = (0..d)
        .map(|c| base.powf(-((2 * (c / 2)) as f64) / d as f64))
        .collect();
    let mut worst = 0.0f64;
    for (i, row) in p.rows().into_iter().enumerate() {
        for (c, (&v, &w)) in row.iter().zip(&omegas).enumerate() {
            let a = i as f64 * w;
            let exact = if c % 2 == 0 { a.sin() } else { a.cos() };
            worst = worst.max((v as f64 - exact).abs());
        }
    }
    worst
}

fn main() {
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
            max_abs_error_vs_f64(&sinusoidal(4096, 1024, BASE), BASE)
        ),
    ));
    entries.push((
        "max_projection_error_4096x1024_delta7".into(),
        format!("{:e}", max_projection_error(4096, 1024, BASE, 7)),
    ));
    let body: Vec<String> = entries
        .iter()
        .map(|(k, v)| format!("\"{k}\": {v}"))
        .collect();
    println!("{{{}}}", body.join(", "));
}
