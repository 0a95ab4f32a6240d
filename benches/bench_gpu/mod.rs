//! The `"gpu"` section of the benchmark: every tiled kernel (Gram, attention, ALiBi and RoPE
//! scores) at n = 1024 and 2048, d = 512, and the encoding at 4096 × 1024, each timed around its
//! compute pass (timestamp queries where the adapter has them, else wall time).
//! `PE_LAB_BENCH_TILE=64` (or 128) times every tiled kernel with that tile shape instead of the one
//! `pe_lab::gpu::tile::choose_tile` picks.

use std::time::Instant;

use pe_lab::gpu::attention::AttentionShape;
use pe_lab::gpu::tile::TileShape;
use pe_lab::gpu::{read_bytes, AlibiScoresKernel, GpuContext, RopeScoresKernel};

use super::{json_string, runs_for, Stats, BASE};

/// The ALiBi slope timed (head 1 of 8 in the paper's geometric sequence; the speed does not depend
/// on it).
const SLOPE: f32 = 0.5;

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
            .prepare(device, queue, n, d, BASE)
            .expect("encoding");
    }
    let stats = clock.time("encoding 4096x1024", &context, &|e, t| {
        context.encoding.encode(e, t)
    });
    entries.push(("encoding_4096x1024_ms".into(), stats.json()));

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
    context.gram.force_tile(forced);
    context.attention.force_tile(forced);
    alibi.force_tile(forced);
    rope.force_tile(forced);
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
        let (device, queue) = (&context.device, &context.queue);
        alibi
            .prepare(device, queue, &p, &p, n, d, SLOPE)
            .expect("alibi");
        rope.prepare(device, queue, &p, &p, n, d, BASE)
            .expect("rope");
        let stats = clock.time(&format!("alibi {n}x{d}"), &context, &|e, t| {
            alibi.encode(e, t)
        });
        entries.push((format!("alibi_weights_{n}x{d}_ms"), stats.json()));
        let stats = clock.time(&format!("rope {n}x{d}"), &context, &|e, t| {
            rope.encode(e, t)
        });
        entries.push((format!("rope_scores_{n}x{d}_ms"), stats.json()));
    }
    let body: Vec<String> = entries
        .iter()
        .map(|(k, v)| format!("\"{k}\": {v}"))
        .collect();
    format!("{{{}}}", body.join(", "))
}
