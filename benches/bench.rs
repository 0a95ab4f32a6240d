//! Timing of the native math kernels and of the GPU kernels, printed as one JSON object on stdout
//! (progress goes to stderr).
//!
//! Run with `cargo bench --bench bench`. No framework: each measured item is a function that
//! returns its [`Stats`] from [`time_ms`] (a few warm-up calls, then at least [`RUNS`] timed ones),
//! so further items can be added as one more function and one more JSON entry.
//!
//! GPU kernels (under `"gpu"`, `null` without an adapter) are timed with timestamp queries around
//! their compute pass where the adapter has `TIMESTAMP_QUERY`, else by wall time around a submitted
//! and waited dispatch; slow items (the CPU twins of Gram and attention at n = 2048, software GPUs)
//! get fewer runs, see [`runs_for`].

use std::hint::black_box;
use std::time::Instant;

use ndarray::Array2;
use pe_lab::gpu::attention::AttentionShape;
use pe_lab::gpu::{read_bytes, GpuContext};
use pe_lab::math::attention::weights;
use pe_lab::math::encoding::sinusoidal;
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

fn bench_attention_cpu(n: usize, d: usize) -> Stats {
    let p = sinusoidal(n, d, BASE);
    time_ms_adaptive(&format!("attention CPU {n}x{d}"), || {
        weights(black_box(p.view()), black_box(p.view()), None)
    })
}

/// How GPU kernels are timed on this adapter.
enum GpuClock {
    /// Timestamps written at the beginning and end of the compute pass; ns per tick.
    Timestamps {
        queries: wgpu::QuerySet,
        resolved: wgpu::Buffer,
        period_ns: f64,
    },
    /// Wall time around submit + wait.
    Wall,
}

impl GpuClock {
    fn new(context: &GpuContext) -> Self {
        if !context
            .device
            .features()
            .contains(wgpu::Features::TIMESTAMP_QUERY)
        {
            return GpuClock::Wall;
        }
        GpuClock::Timestamps {
            queries: context.device.create_query_set(&wgpu::QuerySetDescriptor {
                label: Some("bench timestamps"),
                ty: wgpu::QueryType::Timestamp,
                count: 2,
            }),
            resolved: context.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("bench timestamps resolved"),
                size: 16,
                usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
                mapped_at_creation: false,
            }),
            period_ns: context.queue.get_timestamp_period() as f64,
        }
    }

    fn name(&self) -> &'static str {
        match self {
            GpuClock::Timestamps { .. } => "timestamp_query",
            GpuClock::Wall => "wall",
        }
    }

    /// Milliseconds of one dispatch recorded by `encode`.
    fn measure(
        &self,
        context: &GpuContext,
        encode: &dyn Fn(&mut wgpu::CommandEncoder, Option<wgpu::ComputePassTimestampWrites<'_>>),
    ) -> f64 {
        let (device, queue) = (&context.device, &context.queue);
        let mut encoder = device.create_command_encoder(&Default::default());
        match self {
            GpuClock::Timestamps {
                queries,
                resolved,
                period_ns,
            } => {
                encode(
                    &mut encoder,
                    Some(wgpu::ComputePassTimestampWrites {
                        query_set: queries,
                        beginning_of_pass_write_index: Some(0),
                        end_of_pass_write_index: Some(1),
                    }),
                );
                encoder.resolve_query_set(queries, 0..2, resolved, 0);
                queue.submit([encoder.finish()]);
                let bytes = pollster::block_on(read_bytes(device, queue, resolved, 0, 16))
                    .expect("read timestamps");
                let ticks: Vec<u64> = bytemuck::pod_collect_to_vec(&bytes);
                ticks[1].saturating_sub(ticks[0]) as f64 * period_ns / 1e6
            }
            GpuClock::Wall => {
                let start = Instant::now();
                encode(&mut encoder, None);
                queue.submit([encoder.finish()]);
                device
                    .poll(wgpu::PollType::wait_indefinitely())
                    .expect("poll");
                start.elapsed().as_secs_f64() * 1e3
            }
        }
    }

    /// One untimed warm-up dispatch, then [`runs_for`] timed ones: median and minimum.
    fn time(
        &self,
        label: &str,
        context: &GpuContext,
        encode: &dyn Fn(&mut wgpu::CommandEncoder, Option<wgpu::ComputePassTimestampWrites<'_>>),
    ) -> Stats {
        let first = self.measure(context, encode);
        let runs = runs_for(first).max(5);
        let mut samples: Vec<f64> = (0..runs).map(|_| self.measure(context, encode)).collect();
        samples.sort_by(f64::total_cmp);
        let stats = Stats {
            median: samples[samples.len() / 2],
            min: samples[0],
            runs,
        };
        eprintln!("  {label}: median {:.3} ms ({runs} runs)", stats.median);
        stats
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

/// The `"gpu"` JSON object, or `null` when no adapter is available.
fn bench_gpu() -> String {
    let instance =
        wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    let mut context = match pollster::block_on(GpuContext::new_with_features(
        &instance,
        wgpu::Features::TIMESTAMP_QUERY,
    )) {
        Ok(context) => context,
        Err(e) => {
            eprintln!("no GPU: {e}");
            return "null".into();
        }
    };
    let clock = GpuClock::new(&context);
    eprintln!("GPU: {} (timing: {})", context.describe(), clock.name());
    let mut entries: Vec<(String, String)> = vec![
        ("adapter".into(), json_string(&context.adapter_info.name)),
        (
            "device_type".into(),
            json_string(&format!("{:?}", context.adapter_info.device_type)),
        ),
        (
            "backend".into(),
            json_string(&format!("{:?}", context.adapter_info.backend)),
        ),
        ("timing".into(), json_string(clock.name())),
    ];

    let (n, d) = (4096, 1024);
    {
        let GpuContext {
            device,
            queue,
            encoding,
            ..
        } = &mut context;
        encoding
            .prepare(device, queue, n, d, BASE)
            .expect("encoding");
    }
    let stats = clock.time("encoding 4096x1024", &context, &|e, t| {
        context.encoding.encode(e, t)
    });
    entries.push(("encoding_4096x1024_ms".into(), stats.json()));

    for n in [1024, 2048] {
        let d = 512;
        let GpuContext {
            device,
            queue,
            encoding,
            gram,
            attention,
            ..
        } = &mut context;
        let p = encoding
            .run(device, queue, n, d, BASE)
            .expect("encoding")
            .clone();
        gram.prepare(device, queue, &p, n, d).expect("gram");
        let shape = AttentionShape {
            batch: 1,
            nq: n,
            nk: n,
            d,
            heads: 1,
        };
        attention
            .prepare(device, queue, &p, &p, shape, &[n])
            .expect("attention");
        let stats = clock.time(&format!("gram {n}x{d}"), &context, &|e, t| {
            context.gram.encode(e, t)
        });
        entries.push((format!("gram_{n}x{d}_ms"), stats.json()));
        let stats = clock.time(&format!("attention {n}x{d}"), &context, &|e, t| {
            context.attention.encode(e, t)
        });
        entries.push((format!("attention_weights_{n}x{d}_ms"), stats.json()));
    }
    let body: Vec<String> = entries
        .iter()
        .map(|(k, v)| format!("\"{k}\": {v}"))
        .collect();
    format!("{{{}}}", body.join(", "))
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
    eprintln!("CPU twins of the GPU kernels");
    for n in [1024, 2048] {
        entries.push((format!("gram_{n}x512_ms"), bench_gram_cpu(n, 512).json()));
        entries.push((
            format!("attention_weights_{n}x512_ms"),
            bench_attention_cpu(n, 512).json(),
        ));
    }
    eprintln!("GPU kernels");
    entries.push(("gpu".into(), bench_gpu()));
    let body: Vec<String> = entries
        .iter()
        .map(|(k, v)| format!("\"{k}\": {v}"))
        .collect();
    println!("{{{}}}", body.join(", "));
}
