//! The GPU kernels (`pe_lab_gpu`) against their CPU twins (`pe_lab_math`) and, for the encoding,
//! against the float64 reference of P from the definition (`pe_lab_math::f64_reference`).
//!
//! Runs on whatever adapter wgpu finds (lavapipe's software Vulkan on CI). Without an adapter every
//! test FAILS, unless `PE_LAB_ALLOW_NO_GPU=1` is set: then each prints a line and returns. One
//! context is shared by the whole binary (behind a mutex), so the tests also show that one
//! long-lived context serves every size in turn.
#![cfg(not(target_arch = "wasm32"))]

mod common;
use common::{
    assert_within_bound, for_every_tile, gamma, max_abs_diff, pseudo_random, with_shared_gpu,
    UNIT_ROUNDOFF,
};
use std::sync::{Mutex, OnceLock};

use ndarray::{s, Array2, Array3, Array4, ArrayView2};
use pe_lab_gpu::attention::AttentionShape;
use pe_lab_gpu::attention::ATTENTION_MAX_POSITIONS;
use pe_lab_gpu::columns::MAX_GATHER_COLUMNS;
use pe_lab_gpu::encoding::{turn_parts, MAX_EXACT_POSITIONS, SPLIT_BITS};
use pe_lab_gpu::gram::GRAM_MAX_POSITIONS;
use pe_lab_gpu::stats::{from_order_key, order_key};
use pe_lab_gpu::{read_f32, EncodingKernel, GpuContext, GpuError, Kernel};
use pe_lab_gpu::{QkKernel, Tiled};
use pe_lab_math::attention::{multi_head_weights, multi_head_weights_qk, AttentionError};
use pe_lab_math::encoding::{gather_columns, sinusoidal, sinusoidal_from};
use pe_lab_math::f64_reference;
use pe_lab_math::gram::gram;
use pe_lab_math::relative::projection_error_of;
use pe_lab_math::MathError;

/// Required agreement of the GPU encoding with the float64 definition, every entry.
const ENCODING_TOLERANCE: f64 = 2e-6;
/// Agreement of the GPU attention weights with the CPU twin allowed for the exp, the sum and the
/// division (a few ulp of weights ≤ 1 on each side), on top of what the scores' rounding allows
/// (see [`attention_bound`]).
const ATTENTION_TOLERANCE: f32 = 1e-5;
// γ_d (common::gamma): a d-term f32 dot product summed in any order is within γ_d·Σ_k |a_k·b_k|
// of the exact value. The GPU sums k = 0, 1, …, d−1 and the CPU's GEMM in its own blocked order,
// so their results may differ by up to twice that.

/// Euclidean norms of the rows of `x`, in f64: by Cauchy–Schwarz Σ_k |a_k·b_k| ≤ ‖a‖·‖b‖.
fn row_norms(x: ArrayView2<f32>) -> Vec<f64> {
    x.rows()
        .into_iter()
        .map(|row| row.iter().map(|&v| (v as f64).powi(2)).sum::<f64>().sqrt())
        .collect()
}

static CONTEXT: OnceLock<Option<Mutex<GpuContext>>> = OnceLock::new();

/// Runs `f` with the shared context; fails without an adapter unless PE_LAB_ALLOW_NO_GPU=1.
fn with_gpu(test: &str, f: impl FnOnce(&mut GpuContext)) {
    with_shared_gpu(&CONTEXT, |context| context, test, f);
}

fn read(context: &GpuContext, buffer: &wgpu::Buffer, len: usize) -> Vec<f32> {
    pollster::block_on(read_f32(
        &context.device,
        &context.queue,
        buffer,
        0,
        len as u64,
    ))
    .expect("read back")
}

fn gpu_encoding(context: &mut GpuContext, n: usize, d: usize, base: f64) -> Array2<f32> {
    let GpuContext {
        device,
        queue,
        encoding,
        ..
    } = context;
    encoding
        .run(device, queue, (0, n, d, base))
        .expect("encoding");
    let buffer = encoding.buffer().expect("encoding buffer").clone();
    Array2::from_shape_vec((n, d), read(context, &buffer, n * d)).expect("n·d values")
}

fn assert_encoding_accurate(context: &mut GpuContext, n: usize, d: usize, base: f64) -> f64 {
    let p = gpu_encoding(context, n, d, base);
    let (err, i, c) = f64_reference::max_error(p.view(), 0, base);
    eprintln!("encoding n={n} d={d} base={base}: max |GPU − f64| = {err:.3e} at ({i}, {c})");
    assert!(
        err <= ENCODING_TOLERANCE,
        "n={n} d={d} base={base}: error {err:e} at ({i}, {c}) exceeds {ENCODING_TOLERANCE:e}"
    );
    err
}

#[test]
fn frequency_split_is_exact_for_every_position() {
    // a and b have at most SPLIT_BITS significant bits, so i·a and i·b are exact in f32 for
    // i < MAX_EXACT_POSITIONS; a + b + c reproduces f = ω/2π to f32 precision of c.
    assert!(MAX_EXACT_POSITIONS.ilog2() as i32 + SPLIT_BITS <= 24);
    for (d, base) in [
        (1, 10000.0),
        (33, 250.0),
        (2048, 10000.0),
        (64, 1e6),
        (8, 2.0),
    ] {
        for (j, [a, b, c, _]) in turn_parts(d, base).into_iter().enumerate() {
            let f = base.powf(-((2 * j) as f64) / d as f64) / std::f64::consts::TAU;
            for part in [a, b] {
                let m = part.abs().to_bits() & 0x007f_ffff | 0x0080_0000;
                let significant = 24 - m.trailing_zeros() as i32;
                assert!(
                    part == 0.0 || significant <= SPLIT_BITS,
                    "{part} has {significant} bits"
                );
                let i = (MAX_EXACT_POSITIONS - 1) as f32;
                assert_eq!(
                    (i * part) as f64,
                    i as f64 * part as f64,
                    "i·{part} is not exact"
                );
            }
            let sum = a as f64 + b as f64 + c as f64;
            assert!(
                (sum - f).abs() <= f * 2f64.powi(-44),
                "d={d} j={j}: {sum} vs {f}"
            );
        }
    }
}

#[test]
fn encoding_matches_float64_at_small_and_odd_sizes() {
    with_gpu("encoding small", |context| {
        for (n, d, base) in [
            (1, 1, 10000.0),
            (1, 33, 10000.0),
            (7, 3, 250.0),
            (100, 1, 10000.0),
            (120, 33, 250.0),
            (60, 64, 2.0),
            (300, 128, 1e6),
            (2048, 1024, 10000.0),
        ] {
            assert_encoding_accurate(context, n, d, base);
        }
    });
}

#[test]
fn encoding_matches_float64_at_the_largest_sizes() {
    with_gpu("encoding large", |context| {
        assert_encoding_accurate(context, 4096, 2048, 10000.0);
        assert_encoding_accurate(context, MAX_EXACT_POSITIONS, 64, 10000.0);
        assert_encoding_accurate(context, MAX_EXACT_POSITIONS, 2048, 10000.0);
    });
}

#[test]
fn encoding_matches_its_cpu_twin_and_reuses_its_buffer() {
    with_gpu("encoding twin", |context| {
        // A kernel of its own, so that its buffer's history is known.
        let mut kernel = EncodingKernel::new(&context.device);
        let (device, queue) = (&context.device, &context.queue);
        let mut run = |n: usize, d: usize, base: f64| {
            let buffer = kernel
                .run(device, queue, (0, n, d, base))
                .expect("encoding")
                .clone();
            let values = pollster::block_on(read_f32(device, queue, &buffer, 0, (n * d) as u64))
                .expect("read back");
            let p = Array2::from_shape_vec((n, d), values).expect("n·d");
            let diff = max_abs_diff(p.view(), sinusoidal(n, d, base).view());
            assert!(diff <= 2e-6, "n={n} d={d}: GPU vs CPU twin {diff:e}");
            (buffer, p)
        };
        let (first, big) = run(1000, 256, 10000.0);
        // Smaller sizes reuse the same buffer; the values are those of the new size.
        for (n, d, base) in [(10, 33, 250.0), (1, 1, 10000.0), (999, 255, 10000.0)] {
            assert_eq!(run(n, d, base).0, first, "reallocated for a smaller size");
        }
        let (same, again) = run(1000, 256, 10000.0);
        assert_eq!(same, first);
        assert_eq!(big, again, "the same parameters give the same P");
        // A larger size grows it (at least doubling, so a dragged slider reallocates rarely).
        let (grown, _) = run(1001, 256, 10000.0);
        assert_ne!(grown, first, "not reallocated for a larger size");
        assert!(grown.size() >= 2 * first.size());
        assert_eq!(kernel.shape(), Some((1001, 256)));
    });
}

#[test]
fn one_based_encoding_matches_its_cpu_twin_and_feeds_the_other_kernels() {
    // `?index=1`: rows are positions 1…n (the Julia edition). The encoding kernel takes the first
    // position as a uniform; the stats and gather kernels work on rows and need no change.
    with_gpu("encoding 1-based", |context| {
        for (n, d, base, delta) in [
            (60usize, 32usize, 10000.0, 1i64),
            (7, 3, 250.0, -3),
            (2048, 1024, 10000.0, 1000),
            (MAX_EXACT_POSITIONS - 1, 64, 10000.0, -7),
        ] {
            let GpuContext {
                device,
                queue,
                encoding,
                stats,
                columns,
                ..
            } = context;
            let buffer = encoding
                .run(device, queue, (1, n, d, base))
                .expect("encoding")
                .clone();
            let values = pollster::block_on(read_f32(device, queue, &buffer, 0, (n * d) as u64))
                .expect("read back");
            let p = Array2::from_shape_vec((n, d), values).expect("n·d");
            let twin = sinusoidal_from(1, n, d, base);
            let diff = max_abs_diff(p.view(), twin.view());
            // Against float64 at positions 1…n, not rows 0…n−1.
            let mut worst = 0.0f64;
            for (r, row) in p.rows().into_iter().enumerate() {
                for (c, &value) in row.iter().enumerate() {
                    let omega = base.powf(-((2 * (c / 2)) as f64) / d as f64);
                    let angle = (r + 1) as f64 * omega;
                    let exact = if c % 2 == 0 { angle.sin() } else { angle.cos() };
                    worst = worst.max((value as f64 - exact).abs());
                }
            }
            eprintln!("1-based n={n} d={d}: GPU vs CPU twin {diff:e}, vs f64 {worst:e}");
            assert!(diff <= 2e-6, "n={n} d={d}: GPU vs CPU twin {diff:e}");
            assert!(worst <= ENCODING_TOLERANCE, "n={n} d={d}: vs f64 {worst:e}");
            stats
                .run(device, queue, (&buffer, n, d, base, delta))
                .expect("stats");
            let got = pollster::block_on(stats.read(device, queue)).expect("read stats");
            let cpu_error = projection_error_of(p.view(), base, delta);
            let gpu_error = got.max_projection_error as f64;
            assert!(
                (gpu_error - cpu_error).abs() <= 2.5e-7 && gpu_error < 5e-7,
                "n={n} d={d} δ={delta}: GPU {gpu_error:e} vs CPU {cpu_error:e}"
            );
            // The Julia figure's columns where they exist (0-based 5…9), else the last one.
            let mut cols: Vec<usize> = [5usize, 6, 7, 8, 9]
                .into_iter()
                .filter(|&c| c < d)
                .collect();
            if cols.is_empty() {
                cols.push(d - 1);
            }
            let gathered = columns
                .run(device, queue, (&buffer, n, d, &cols))
                .expect("columns")
                .clone();
            let k = cols.len();
            let got = pollster::block_on(read_f32(device, queue, &gathered, 0, (k * n) as u64))
                .expect("read columns");
            let got = Array2::from_shape_vec((k, n), got).expect("k·n");
            assert_eq!(got, gather_columns(p.view(), &cols), "n={n} d={d}");
        }
        // The exactness bound is on the positions: first + n ≤ 8192.
        let GpuContext {
            device,
            queue,
            encoding,
            ..
        } = context;
        assert!(matches!(
            encoding
                .run(device, queue, (1, MAX_EXACT_POSITIONS, 4, 10000.0))
                .err(),
            Some(GpuError::TooLarge {
                requested: 8193,
                limit: 8192,
                ..
            })
        ));
    });
}

#[test]
fn encoding_rejects_bad_sizes_with_typed_errors() {
    with_gpu("encoding errors", |context| {
        let GpuContext {
            device,
            queue,
            encoding,
            ..
        } = context;
        let mut run = |n, d, base| encoding.run(device, queue, (0, n, d, base)).err();
        assert_eq!(
            run(0, 4, 10000.0),
            Some(GpuError::Math(MathError::ZeroPositions(0)))
        );
        assert_eq!(
            run(4, 0, 10000.0),
            Some(GpuError::Math(MathError::ZeroDimension(0)))
        );
        assert!(matches!(
            run(4, 4, 1.0),
            Some(GpuError::Math(MathError::InvalidBase(_)))
        ));
        assert!(matches!(
            run(MAX_EXACT_POSITIONS + 1, 4, 10000.0),
            Some(GpuError::TooLarge {
                requested: 8193,
                limit: 8192,
                ..
            })
        ));
        assert!(matches!(
            run(8192, 1 << 20, 10000.0),
            Some(GpuError::TooLarge { .. })
        ));
    });
}

#[test]
fn gram_matches_its_cpu_twin() {
    with_gpu("gram", |context| {
        // Every tile shape (and the chooser's pick): n not a multiple of any tile, d = 1, d odd,
        // d a multiple of 4 (vec4 loads) but not of TILE_K, d past one stage.
        let cases = [
            (1, 1, 10000.0),
            (1, 33, 10000.0),
            (17, 3, 250.0),
            (33, 33, 10000.0),
            (130, 12, 10000.0),
            (300, 64, 10000.0),
            (1024, 128, 10000.0),
        ];
        for_every_tile(
            context,
            |c| &mut c.gram,
            &cases,
            |context, _, (n, d, base)| {
                let p = gpu_encoding(context, n, d, base);
                let GpuContext {
                    device,
                    queue,
                    encoding,
                    gram: kernel,
                    ..
                } = context;
                let buffer = encoding.buffer().expect("P");
                let g = kernel
                    .run(device, queue, (buffer, n, d))
                    .expect("gram")
                    .clone();
                let g = Array2::from_shape_vec((n, n), read(context, &g, n * n)).expect("n·n");
                let cpu = gram(p.view());
                // The GPU sums each entry k = 0, 1, …, d−1, the CPU in its GEMM's blocked order: each
                // is within γ_d·Σ_k |p_ik·p_jk| ≤ γ_d·‖p_i‖·‖p_j‖ of the exact p_i·p_j, so they differ
                // by at most 2·γ_d·‖p_i‖·‖p_j‖ (‖p_i‖² = d/2 for even d: 2·γ_d·d/2 = 7.8e-4 at
                // d = 128, where the largest difference measured is 1.5e-5).
                let norms = row_norms(p.view());
                let gap = assert_within_bound(
                    g.view(),
                    cpu.mapv(f64::from).view(),
                    &format!("gram n={n} d={d}"),
                    |(i, j), _, _| 2.0 * gamma(d) * norms[i] * norms[j],
                );
                let tile = context.gram.tile().map(|t| t.tile());
                eprintln!(
                    "gram n={n} d={d} tile {tile:?}: max |GPU − CPU| = {:e}",
                    gap.worst
                );
                assert_eq!(g, g.t(), "G is symmetric");
            },
        );
        context.gram.force_tile(None);
    });
}

#[test]
fn gram_rejects_bad_sizes() {
    with_gpu("gram errors", |context| {
        gpu_encoding(context, 4, 4, 10000.0);
        let GpuContext {
            device,
            queue,
            encoding,
            gram: kernel,
            ..
        } = context;
        let p = encoding.buffer().expect("P").clone();
        assert!(matches!(
            kernel.run(device, queue, (&p, GRAM_MAX_POSITIONS + 1, 1)),
            Err(GpuError::TooLarge { .. })
        ));
        assert!(matches!(
            kernel.run(device, queue, (&p, 0, 4)),
            Err(GpuError::Math(MathError::ZeroPositions(0)))
        ));
        // A 64-byte buffer cannot hold 4 × 2048 values.
        let small = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("small"),
            size: 64,
            usage: wgpu::BufferUsages::STORAGE,
            mapped_at_creation: false,
        });
        assert_eq!(
            kernel.run(device, queue, (&small, 4, 2048)).err(),
            Some(GpuError::BufferTooSmall {
                what: "P",
                needed: 4 * 2048 * 4,
                available: 64
            })
        );
    });
}

fn gpu_attention_host(
    context: &mut GpuContext,
    q: &Array3<f32>,
    k: &Array3<f32>,
    heads: usize,
    valid_lens: &[usize],
) -> Array4<f32> {
    let (batch, nq, _) = q.dim();
    let nk = k.dim().1;
    let GpuContext {
        device,
        queue,
        attention,
        ..
    } = context;
    let w = attention
        .run_host(device, queue, q.view(), k.view(), (heads, valid_lens))
        .expect("attention")
        .clone();
    let len = batch * heads * nq * nk;
    Array4::from_shape_vec((batch, heads, nq, nk), read(context, &w, len)).expect("weights")
}

/// For each (sequence, head, query row), the largest change δ that the rounding of the scores can
/// make between the GPU and the CPU twin. Score s_ij = fl(fl(q_i·k_j)·c), c = 1/√d_head: each side's
/// dot product is within γ_d·Σ|q_k·k_k| ≤ γ_d·‖q_i‖·‖k_j‖ of the exact one whatever its summation
/// order (the GPU sums the columns in order, the CPU's GEMM in blocks), and the scale multiply adds
/// one rounding u·|s| on each side, so |s_GPU − s_CPU| ≤ c·‖q_i‖·‖k_j‖·(2γ_d + 2u(1 + γ_d)).
fn attention_score_bounds(
    q: &Array3<f32>,
    k: &Array3<f32>,
    heads: usize,
    valid_lens: &[usize],
) -> Array3<f64> {
    let (batch, nq, d) = q.dim();
    let head_dim = d / heads;
    let c = 1.0 / (head_dim as f64).sqrt();
    let factor = 2.0 * gamma(head_dim) + 2.0 * UNIT_ROUNDOFF * (1.0 + gamma(head_dim));
    let mut bounds = Array3::zeros((batch, heads, nq));
    for (b, &valid) in valid_lens.iter().enumerate() {
        for h in 0..heads {
            let columns = s![b, .., h * head_dim..(h + 1) * head_dim];
            let q_norms = row_norms(q.slice(columns));
            let k_norms = row_norms(k.slice(columns));
            let k_max = k_norms
                .iter()
                .take(valid.max(1))
                .fold(0.0f64, |m, &v| m.max(v));
            for (i, q_norm) in q_norms.iter().enumerate() {
                bounds[[b, h, i]] = c * q_norm * k_max * factor;
            }
        }
    }
    bounds
}

/// Checks every weight: masked ones exactly 0 on both sides, the rest within
/// [`ATTENTION_TOLERANCE`] + w·(e^(2δ) − 1) of each other, δ the row's score bound from
/// [`attention_score_bounds`]. The softmax is well conditioned: if every score of a row moves by at
/// most δ, the maximum cancels and each exp(s_j − max)/Σ exp(s − max) is multiplied by a factor in
/// [e^(−2δ), e^(2δ)], so a weight w changes by at most w·(e^(2δ) − 1) ≈ 2δ·w.
fn assert_attention_close(gpu: &Array4<f32>, cpu: &Array4<f32>, deltas: &Array3<f64>, what: &str) {
    for ((b, h, i, j), &c) in cpu.indexed_iter() {
        if c == 0.0 {
            // Masked weights are exactly zero on both sides.
            let g = gpu[[b, h, i, j]];
            assert_eq!(g, 0.0, "{what}: a masked weight is {g}, not 0");
        }
    }
    let gap = assert_within_bound(
        gpu.view(),
        cpu.mapv(f64::from).view(),
        what,
        |(b, h, i, _), g, c| {
            let weight = f64::from(g).max(c);
            ATTENTION_TOLERANCE as f64 + weight * (2.0 * deltas[[b, h, i]]).exp_m1()
        },
    );
    eprintln!("attention {what}: max |GPU − CPU| = {:e}", gap.worst);
}

/// (batch, nq, nk, d, heads, valid_lens)
type AttentionCase = (usize, usize, usize, usize, usize, &'static [usize]);

#[test]
fn attention_matches_its_cpu_twin_with_heads_and_masks() {
    with_gpu("attention", |context| {
        // Head widths 1, 3, 11 (f32 loads), 4, 16, 20, 64, 512 (vec4 loads); every tile shape.
        let cases: [AttentionCase; 8] = [
            (1, 1, 1, 1, 1, &[1]),
            (1, 3, 5, 3, 1, &[2]),
            (2, 4, 4, 100, 5, &[3, 2]),
            (2, 6, 9, 33, 3, &[0, 100]),
            (3, 20, 300, 64, 4, &[1, 257, 300]),
            (1, 130, 70, 12, 3, &[65]),
            (1, 256, 256, 128, 2, &[256]),
            (2, 64, 200, 512, 1, &[199, 37]),
        ];
        for_every_tile(
            context,
            |c| &mut c.attention,
            &cases,
            |context, i, case| {
                let (batch, nq, nk, d, heads, lens) = case;
                let q = pseudo_random((batch, nq, d), 2 * i as u64);
                let k = pseudo_random((batch, nk, d), 2 * i as u64 + 1);
                let gpu = gpu_attention_host(context, &q, &k, heads, lens);
                let cpu = multi_head_weights_qk(q.view(), k.view(), heads, lens).expect("cpu");
                assert_attention_close(
                    &gpu,
                    &cpu,
                    &attention_score_bounds(&q, &k, heads, lens),
                    &format!(
                        "b={batch} nq={nq} nk={nk} d={d} h={heads} {lens:?} tile {:?}",
                        context.attention.tile().map(|t| t.tile())
                    ),
                );
            },
        );
    });
}

#[test]
fn attention_repeats_valid_lens_per_sequence_not_tiled() {
    with_gpu("attention tile vs repeat", |context| {
        // batch 2, heads 2, valid_lens [1, 3]: both heads of sequence 0 see 1 key, both heads of
        // sequence 1 see 3. Tiling ([1, 3, 1, 3] over b·heads) would give head 1 of sequence 0
        // three keys.
        let x = pseudo_random((2, 4, 8), 7);
        let w = gpu_attention_host(context, &x, &x, 2, &[1, 3]);
        for h in 0..2usize {
            for i in 0..4usize {
                assert_eq!(w[[0, h, i, 0]], 1.0, "sequence 0 head {h} row {i}");
                assert!(w.slice(s![0usize, h, i, 1..]).iter().all(|&v| v == 0.0));
                let row = w.slice(s![1usize, h, i, ..]);
                assert!((row.slice(s![..3]).sum() - 1.0).abs() < 1e-6);
                assert_eq!(row[3], 0.0);
                assert!(row.slice(s![..3]).iter().all(|&v| v > 0.0));
            }
        }
        let cpu = multi_head_weights(x.view(), 2, &[1, 3]).expect("cpu");
        let deltas = attention_score_bounds(&x, &x, 2, &[1, 3]);
        assert_attention_close(&w, &cpu, &deltas, "tile vs repeat");
    });
}

#[test]
fn attention_of_the_encoding_buffer_itself() {
    with_gpu("attention on P", |context| {
        for (n, d) in [(33, 33), (256, 64), (1024, 128)] {
            let p = gpu_encoding(context, n, d, 10000.0);
            let GpuContext {
                device,
                queue,
                encoding,
                attention,
                ..
            } = context;
            let buffer = encoding.buffer().expect("P");
            let started = std::time::Instant::now();
            let w = attention
                .run(
                    device,
                    queue,
                    (buffer, buffer, AttentionShape::one_head(n, d), &[n]),
                )
                .expect("attention")
                .clone();
            let gpu = Array4::from_shape_vec((1, 1, n, n), read(context, &w, n * n)).expect("w");
            eprintln!("attention on P n={n} d={d}: {:?}", started.elapsed());
            let x = p.insert_axis(ndarray::Axis(0));
            let cpu = multi_head_weights(x.view(), 1, &[n]).expect("cpu");
            let deltas = attention_score_bounds(&x, &x, 1, &[n]);
            assert_attention_close(&gpu, &cpu, &deltas, &format!("P n={n} d={d}"));
        }
    });
}

#[test]
fn attention_rejects_bad_shapes() {
    with_gpu("attention errors", |context| {
        let x = pseudo_random((2, 4, 6), 1);
        let GpuContext {
            device,
            queue,
            attention,
            ..
        } = context;
        let mut run = |heads, lens: &[usize]| {
            attention
                .run_host(device, queue, x.view(), x.view(), (heads, lens))
                .err()
        };
        assert_eq!(run(0, &[1, 1]), Some(AttentionError::ZeroHeads.into()));
        assert_eq!(
            run(4, &[1, 1]),
            Some(AttentionError::HeadsDoNotDivide { d: 6, heads: 4 }.into())
        );
        assert_eq!(
            run(2, &[1, 1, 1]),
            Some(AttentionError::ValidLensLength { batch: 2, got: 3 }.into())
        );
        let empty = Array3::<f32>::zeros((2, 0, 6));
        assert_eq!(
            attention
                .run_host(device, queue, empty.view(), x.view(), (1, &[1, 1]))
                .err(),
            Some(AttentionError::Empty { what: "n_q" }.into())
        );
        let wide = pseudo_random((2, 4, 8), 1);
        assert_eq!(
            attention
                .run_host(device, queue, x.view(), wide.view(), (1, &[1, 1]))
                .err(),
            Some(
                AttentionError::DimensionMismatch {
                    queries: 6,
                    keys: 8
                }
                .into()
            )
        );
        let long = Array3::<f32>::zeros((1, ATTENTION_MAX_POSITIONS + 1, 2));
        assert!(matches!(
            attention
                .run_host(device, queue, long.view(), long.view(), (1, &[1]))
                .err(),
            Some(GpuError::TooLarge { .. })
        ));
    });
}

#[test]
fn stats_match_the_cpu_twins() {
    with_gpu("stats", |context| {
        for (n, d, base, delta) in [
            (1, 1, 10000.0, 0),
            (1, 4, 10000.0, 0),
            (7, 3, 250.0, -3),
            (120, 33, 250.0, 5),
            (100, 64, 10000.0, 99),
            (100, 64, 10000.0, 100),
            (100, 64, 10000.0, -99),
            (2048, 1024, 10000.0, 7),
            (4096, 512, 10000.0, -1000),
        ] {
            let p = gpu_encoding(context, n, d, base);
            let GpuContext {
                device,
                queue,
                encoding,
                stats,
                ..
            } = context;
            let buffer = encoding.buffer().expect("P");
            stats
                .run(device, queue, (buffer, n, d, base, delta))
                .expect("stats");
            let got = pollster::block_on(stats.read(device, queue)).expect("read stats");
            let cpu_error = projection_error_of(p.view(), base, delta);
            let min = p.fold(f32::INFINITY, |m, &v| m.min(v));
            let max = p.fold(f32::NEG_INFINITY, |m, &v| m.max(v));
            eprintln!(
                "stats n={n} d={d} δ={delta}: GPU {:e} CPU {cpu_error:e}; range [{min}, {max}]",
                got.max_projection_error
            );
            assert_eq!((got.min, got.max), (min, max), "n={n} d={d}: range");
            let gpu_error = got.max_projection_error as f64;
            assert!(
                (gpu_error - cpu_error).abs() <= 2.5e-7,
                "n={n} d={d} δ={delta}: GPU {gpu_error:e} vs CPU {cpu_error:e}"
            );
            assert!(gpu_error < 5e-7 && cpu_error < 5e-7);
            if d < 2 || (delta.unsigned_abs() as usize) >= n {
                assert_eq!(gpu_error, 0.0, "no complete pair or no partner: 0");
            }
        }
    });
}

#[test]
fn order_keys_sort_like_floats() {
    let values = [
        f32::NEG_INFINITY,
        -3.0,
        -1.0,
        -f32::MIN_POSITIVE,
        -0.0,
        0.0,
        1e-30,
        0.5,
        1.0,
        f32::INFINITY,
    ];
    for pair in values.windows(2) {
        assert!(order_key(pair[0]) <= order_key(pair[1]), "{pair:?}");
    }
    for v in values {
        assert_eq!(from_order_key(order_key(v)).to_bits(), v.to_bits());
    }
}

#[test]
fn columns_match_their_cpu_twin() {
    with_gpu("columns", |context| {
        for (n, d, cols) in [
            (1, 1, vec![0]),
            (7, 3, vec![2, 0]),
            (120, 33, vec![0, 1, 32, 6, 7, 8, 9]),
            (
                2048,
                1024,
                (0..MAX_GATHER_COLUMNS).map(|c| c * 63).collect(),
            ),
        ] {
            let p = gpu_encoding(context, n, d, 10000.0);
            let GpuContext {
                device,
                queue,
                encoding,
                columns,
                ..
            } = context;
            let buffer = encoding.buffer().expect("P");
            let out = columns
                .run(device, queue, (buffer, n, d, &cols))
                .expect("columns")
                .clone();
            let got = Array2::from_shape_vec((cols.len(), n), read(context, &out, cols.len() * n))
                .expect("k·n");
            assert_eq!(got, gather_columns(p.view(), &cols), "n={n} d={d} {cols:?}");
        }
    });
}

#[test]
fn columns_reject_bad_requests() {
    with_gpu("columns errors", |context| {
        gpu_encoding(context, 10, 4, 10000.0);
        let GpuContext {
            device,
            queue,
            encoding,
            columns,
            ..
        } = context;
        let p = encoding.buffer().expect("P").clone();
        assert_eq!(
            columns.run(device, queue, (&p, 10, 4, &[])).err(),
            Some(GpuError::NoColumns)
        );
        assert_eq!(
            columns.run(device, queue, (&p, 10, 4, &[1, 4])).err(),
            Some(GpuError::ColumnOutOfRange { column: 4, d: 4 })
        );
        assert!(matches!(
            columns.run(device, queue, (&p, 10, 4, &[0; MAX_GATHER_COLUMNS + 1])),
            Err(GpuError::TooLarge { .. })
        ));
    });
}

#[test]
fn read_back_checks_its_range() {
    with_gpu("read_f32", |context| {
        gpu_encoding(context, 4, 4, 10000.0);
        let p = context.encoding.buffer().expect("P").clone();
        let words = p.size() / 4;
        let result =
            pollster::block_on(read_f32(&context.device, &context.queue, &p, words - 1, 2));
        assert!(matches!(result, Err(GpuError::BufferTooSmall { .. })));
        let empty = pollster::block_on(read_f32(&context.device, &context.queue, &p, 3, 0));
        assert_eq!(empty, Ok(Vec::new()));
        let offset = pollster::block_on(read_f32(&context.device, &context.queue, &p, 5, 3));
        let all = read(context, &p, 8);
        assert_eq!(offset, Ok(all[5..8].to_vec()));
    });
}
