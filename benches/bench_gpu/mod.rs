//! The `"gpu"` section of the benchmark: every tiled kernel (Gram, attention, ALiBi and RoPE
//! scores) at n = 1024 and 2048, d = 512, and also 4096 on a real GPU (not on a CPU adapter such
//! as lavapipe, where it would take minutes), and the encoding at 4096 × 1024, each timed around
//! its compute pass (timestamp queries where the adapter has them, else wall time) after
//! [`WARM_UP`] of untimed runs.
//! `PE_LAB_BENCH_TILE=64` (or 128) times every tiled kernel with that tile shape instead of the one
//! `pe_lab::gpu::tile::choose_tile` picks. `PE_LAB_BENCH_SWEEP=16x8x16,16x4x16,…` (shapes as
//! side x block x tile_k) first times Gram and attention with each of those shapes at every size,
//! checking that each gives the chooser's Gram bit for bit, and prints a table: how the shapes
//! and the chooser's threshold were picked.
//!
//! Then the same kernels in PyTorch float32 on CUDA (`python3 benches/gpu_reference.py`, run as a
//! child process once the wgpu device is dropped, so that the two never share the GPU): its JSON
//! goes under `"torch_cuda"` with the ratios, and a table of WGSL ms, PyTorch ms and WGSL / PyTorch
//! to stderr. Without python3, torch or a CUDA device the table says why its column is empty.

use std::time::Instant;

use pe_lab::gpu::attention::AttentionShape;
use pe_lab::gpu::tile::TileShape;
use pe_lab::gpu::{read_bytes, AlibiScoresKernel, GpuContext, Kernel, RopeScoresKernel, Tiled};

use super::{json_median, json_string, python_json, runs_for, RatioTable, Stats, BASE};

/// The ALiBi slope timed (head 1 of 8 in the paper's geometric sequence; the speed does not depend
/// on it). Keep in sync with SLOPE in gpu_reference.py.
const SLOPE: f32 = 0.5;

/// How long each kernel runs untimed before it is timed. A GPU idles at a low clock and raises it
/// only under sustained work: on an H200, Gram at n = 4096 timed after one warm-up dispatch
/// measured 0.922 ms, and 0.405 ms in the same process right after other sustained work.
/// Keep in sync with WARM_UP_SECONDS in gpu_reference.py, so that both sides are timed warm.
const WARM_UP: std::time::Duration = std::time::Duration::from_millis(200);

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

    /// Untimed warm-up dispatches for at least [`WARM_UP`] (at least one), then [`runs_for`] timed
    /// ones: median and minimum.
    fn time(
        &self,
        label: &str,
        context: &GpuContext,
        encode: &dyn Fn(&mut wgpu::CommandEncoder, Option<wgpu::ComputePassTimestampWrites<'_>>),
    ) -> Stats {
        let warming = Instant::now();
        let mut first = self.measure(context, encode);
        while warming.elapsed() < WARM_UP {
            first = self.measure(context, encode);
        }
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

/// The `"gpu"` JSON object, or `null` when no adapter is available.
pub(crate) fn bench_gpu() -> String {
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
            .prepare(device, queue, (0, n, d, BASE))
            .expect("encoding");
    }
    let stats = clock.time("encoding 4096x1024", &context, &|e, t| {
        context.encoding.encode(e, t)
    });
    // (label, JSON key shared with gpu_reference.py, WGSL timing); keep the sizes in sync with it.
    let mut timed: Vec<(&str, String, Stats)> = Vec::new();
    timed.push(("encoding P", "encoding_4096x1024_ms".into(), stats));

    // Built here, not in the context (the page does not draw them); on the context's device.
    let mut alibi = AlibiScoresKernel::new(&context.device);
    let mut rope = RopeScoresKernel::new(&context.device);
    // PE_LAB_BENCH_TILE=64 (or 128): every tiled kernel with that tile instead of the chooser's.
    let forced = std::env::var("PE_LAB_BENCH_TILE").ok().map(|edge| {
        TileShape::ALL
            .into_iter()
            .find(|shape| shape.tile().to_string() == edge)
            .unwrap_or_else(|| panic!("PE_LAB_BENCH_TILE={edge}: no such tile"))
    });
    if let Some(shape) = forced {
        eprintln!("  every tile forced to {shape:?}");
        entries.push(("forced_tile".into(), shape.tile().to_string()));
    }
    let sizes: &[usize] = if context.adapter_info.device_type == wgpu::DeviceType::Cpu {
        &[1024, 2048]
    } else {
        &[1024, 2048, 4096]
    };
    if let Ok(list) = std::env::var("PE_LAB_BENCH_SWEEP") {
        let shapes: Vec<TileShape> = list
            .split(',')
            .map(|text| {
                TileShape::parse(text).unwrap_or_else(|| {
                    panic!("PE_LAB_BENCH_SWEEP: {text:?} is not SIDExBLOCKxTILE_K")
                })
            })
            .collect();
        entries.push((
            "tile_sweep".into(),
            sweep(&mut context, &clock, &shapes, sizes),
        ));
    }
    context.gram.force_tile(forced);
    context.attention.force_tile(forced);
    alibi.force_tile(forced);
    rope.force_tile(forced);
    for &n in sizes {
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
            .run(device, queue, (0, n, d, BASE))
            .expect("encoding")
            .clone();
        gram.prepare(device, queue, (&p, n, d)).expect("gram");
        let shape = AttentionShape {
            batch: 1,
            nq: n,
            nk: n,
            d,
            heads: 1,
        };
        attention
            .prepare(device, queue, (&p, &p, shape, &[n]))
            .expect("attention");
        let stats = clock.time(&format!("gram {n}x{d}"), &context, &|e, t| {
            context.gram.encode(e, t)
        });
        timed.push(("Gram P·Pᵀ", format!("gram_{n}x{d}_ms"), stats));
        let stats = clock.time(&format!("attention {n}x{d}"), &context, &|e, t| {
            context.attention.encode(e, t)
        });
        timed.push((
            "attention softmax(P·Pᵀ/√d)",
            format!("attention_weights_{n}x{d}_ms"),
            stats,
        ));
        let (device, queue) = (&context.device, &context.queue);
        alibi
            .prepare(device, queue, (&p, &p, n, d, SLOPE))
            .expect("alibi");
        rope.prepare(device, queue, (&p, &p, n, d, BASE))
            .expect("rope");
        let stats = clock.time(&format!("alibi {n}x{d}"), &context, &|e, t| {
            alibi.encode(e, t)
        });
        timed.push((
            "ALiBi causal weights",
            format!("alibi_weights_{n}x{d}_ms"),
            stats,
        ));
        let stats = clock.time(&format!("rope {n}x{d}"), &context, &|e, t| {
            rope.encode(e, t)
        });
        timed.push(("RoPE scores", format!("rope_scores_{n}x{d}_ms"), stats));
    }
    for (_, key, stats) in &timed {
        entries.push((key.clone(), stats.json()));
    }
    // PyTorch gets the GPU to itself: every wgpu buffer and the device are freed first.
    let (adapter, clock_name) = (context.adapter_info.name.clone(), clock.name());
    drop((clock, alibi, rope, context));
    eprintln!("PyTorch reference (python3 benches/gpu_reference.py)");
    let torch = torch_reference();
    entries.push(("torch_cuda".into(), torch_json(&timed, &torch)));
    let rows: Vec<(&str, &str, &Stats)> = timed
        .iter()
        .map(|(label, key, stats)| (*label, key.as_str(), stats))
        .collect();
    RatioTable {
        heading: &[
            "GPU kernels vs PyTorch float32 on CUDA (TF32 off): medians in ms".into(),
            format!("  WGSL: {adapter}, {clock_name} around the compute pass; PyTorch: CUDA events per call"),
        ],
        columns: ("WGSL", "PyTorch"),
        label_width: 28,
        decimals: 3,
    }
    .print(&rows, &torch);
    let body: Vec<String> = entries
        .iter()
        .map(|(k, v)| format!("\"{k}\": {v}"))
        .collect();
    format!("{{{}}}", body.join(", "))
}

/// Gram and attention (d = 512) with each of `shapes` at each of `sizes`: a table on stderr and
/// the JSON `{"<shape>": {"gram_<n>": ms, "attention_<n>": ms, "gram_equal_<n>": bool}}`. Each
/// shape's Gram is compared with the chooser's: the core sums every entry in the same order
/// whatever the shape, so they must be equal bit for bit.
fn sweep(
    context: &mut GpuContext,
    clock: &GpuClock,
    shapes: &[TileShape],
    sizes: &[usize],
) -> String {
    let d = 512;
    let limits = context.limits.clone();
    let mut rows: Vec<(String, Vec<String>)> = Vec::new();
    let mut json: Vec<String> = Vec::new();
    // The chooser's Gram at each size, computed and read back once for every shape to match.
    context.gram.force_tile(None);
    let references: Vec<Vec<u8>> = sizes
        .iter()
        .map(|&n| {
            let GpuContext {
                device,
                queue,
                encoding,
                gram,
                ..
            } = &mut *context;
            let p = encoding
                .run(device, queue, (0, n, d, BASE))
                .expect("encoding");
            gram.run(device, queue, (p, n, d)).expect("gram");
            gram_bytes(device, queue, gram, n)
        })
        .collect();
    for &shape in shapes {
        let name = format!("{}x{}x{}", shape.side, shape.block, shape.tile_k);
        if !shape.fits(&limits) {
            eprintln!("  sweep {name}: over the device's limits, skipped");
            continue;
        }
        let mut cells = Vec::new();
        let mut fields = Vec::new();
        for (&n, reference) in sizes.iter().zip(&references) {
            let GpuContext {
                device,
                queue,
                encoding,
                gram,
                attention,
                ..
            } = context;
            let p = encoding
                .run(device, queue, (0, n, d, BASE))
                .expect("encoding")
                .clone();
            gram.force_tile(Some(shape));
            gram.run(device, queue, (&p, n, d)).expect("gram");
            let equal = gram_bytes(device, queue, gram, n) == *reference;
            let attention_shape = AttentionShape {
                batch: 1,
                nq: n,
                nk: n,
                d,
                heads: 1,
            };
            attention.force_tile(Some(shape));
            attention
                .prepare(device, queue, (&p, &p, attention_shape, &[n]))
                .expect("attention");
            let g = clock.time(&format!("sweep {name} gram {n}"), context, &|e, t| {
                context.gram.encode(e, t)
            });
            let a = clock.time(&format!("sweep {name} attention {n}"), context, &|e, t| {
                context.attention.encode(e, t)
            });
            cells.push(format!(
                "{:>8.3} {:>8.3}{}",
                g.median,
                a.median,
                if equal { "" } else { " (Gram differs!)" }
            ));
            fields.push(format!(
                "\"gram_{n}\": {:.4}, \"attention_{n}\": {:.4}, \"gram_equal_{n}\": {equal}",
                g.median, a.median
            ));
        }
        json.push(format!("{}: {{{}}}", json_string(&name), fields.join(", ")));
        rows.push((name, cells));
    }
    context.gram.force_tile(None);
    context.attention.force_tile(None);
    eprintln!("Tile sweep (d = 512): medians in ms, Gram then attention weights");
    let heading: Vec<String> = sizes
        .iter()
        .map(|n| format!("{:>17}", format!("n = {n}")))
        .collect();
    eprintln!("  {:<10} {}", "shape", heading.join(" "));
    for (name, cells) in rows {
        eprintln!("  {name:<10} {}", cells.join(" "));
    }
    format!("{{{}}}", json.join(", "))
}

/// The Gram output's first n·n entries, as bytes (the buffer may be longer: it only grows).
fn gram_bytes(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    gram: &pe_lab::gpu::GramKernel,
    n: usize,
) -> Vec<u8> {
    let buffer = gram.buffer().expect("gram output");
    let len = (n * n * 4) as u64;
    pollster::block_on(read_bytes(device, queue, buffer, 0, len)).expect("read gram")
}

/// The JSON of `python3 benches/gpu_reference.py`, or why there is none (its own
/// `{"unavailable": why}` included).
fn torch_reference() -> Result<String, String> {
    let json = python_json("gpu_reference.py", &[])?;
    match json.find("\"unavailable\":") {
        Some(at) => {
            let why = json[at + "\"unavailable\":".len()..]
                .trim()
                .trim_end_matches('}')
                .trim();
            Err(why.trim_matches('"').replace("\\\"", "\""))
        }
        None => Ok(json),
    }
}

/// WGSL median / PyTorch median for `key`, when PyTorch has a figure for it.
fn wgsl_over_torch(torch: &Result<String, String>, key: &str, wgsl: &Stats) -> Option<f64> {
    let theirs = json_median(torch.as_ref().ok()?, key)?;
    (theirs > 0.0).then(|| wgsl.median / theirs)
}

/// The `"torch_cuda"` entry: the script's JSON and the ratio per key, or why there are none.
fn torch_json(timed: &[(&str, String, Stats)], torch: &Result<String, String>) -> String {
    let Ok(json) = torch else {
        let why = torch.as_ref().err().map_or("", String::as_str);
        return format!("{{\"unavailable\": {}}}", json_string(why));
    };
    let ratios: Vec<String> = timed
        .iter()
        .map(|(_, key, wgsl)| {
            let ratio = wgsl_over_torch(torch, key, wgsl);
            let value = ratio.map_or("null".into(), |r| format!("{r:.4}"));
            format!("\"{key}\": {value}")
        })
        .collect();
    format!(
        "{{\"reference\": {json}, \"wgsl_over_torch\": {{{}}}}}",
        ratios.join(", ")
    )
}
