//! The positional-score kernels (`pe_lab_gpu::rope_scores`, `pe_lab_gpu::alibi_scores`) against
//! their CPU twins (`pe_lab_math::rope::scores_f32`, `pe_lab_math::alibi::causal_weights_f32`),
//! every entry within a bound derived from float32 rounding (stated at each bound), and the RoPE
//! kernel also against a float64 evaluation of the definition.
//!
//! Runs on whatever adapter wgpu finds (lavapipe's software Vulkan on CI). Without an adapter every
//! test FAILS, unless `PE_LAB_ALLOW_NO_GPU=1` is set: then each prints a line and returns (the
//! pattern of tests/gpu_kernels.rs). One context and one instance of each kernel are shared by the
//! whole binary (behind a mutex), so the tests also show that the kernels' buffers serve every size
//! in turn.
#![cfg(not(target_arch = "wasm32"))]

mod common;
use common::{assert_within_bound, for_every_tile, gamma, with_shared_gpu, UNIT_ROUNDOFF};
use std::sync::{Mutex, OnceLock};

use ndarray::{Array2, ArrayView2, Axis};
use pe_lab_gpu::alibi_scores::ALIBI_MAX_POSITIONS;
use pe_lab_gpu::rope_scores::{ROPE_MAX_DIMENSION, ROPE_MAX_POSITIONS};
use pe_lab_gpu::{read_f32, AlibiScoresKernel, GpuContext, GpuError, RopeScoresKernel};
use pe_lab_gpu::{Kernel, QkKernel, Tiled};
use pe_lab_math::alibi::causal_weights_f32;
use pe_lab_math::attention::score_scale;
use pe_lab_math::encoding::frequency;
use pe_lab_math::gram::dot_products;
use pe_lab_math::rng::SplitMix64;
use pe_lab_math::rope::{scores_f32, theta_table_f32, RopeError};
use pe_lab_math::MathError;

/// Absolute error of the shader's sine and cosine of an f32 angle below 4096 rad: the Cody–Waite
/// reduction rounds once at magnitude ≤ π/4 (≤ 5e-8), the Taylor truncation is ≤ 1.8e-9 and the
/// Horner evaluation a few roundings of values ≤ 1 (≲ 1e-7); 4e-7 leaves room for a compiler that
/// contracts the polynomial differently.
const GPU_TRIG_ERROR: f64 = 4e-7;
/// Absolute error of Rust's f32 `sin_cos` (libm's sinf/cosf, within an ulp of values ≤ 1).
const CPU_TRIG_ERROR: f64 = 2.0 * UNIT_ROUNDOFF;

struct Kernels {
    context: GpuContext,
    rope: RopeScoresKernel,
    alibi: AlibiScoresKernel,
}

static KERNELS: OnceLock<Option<Mutex<Kernels>>> = OnceLock::new();

/// Runs `f` with the shared context and kernels; fails without an adapter unless
/// PE_LAB_ALLOW_NO_GPU=1.
fn with_gpu(test: &str, f: impl FnOnce(&mut Kernels)) {
    let make = |context: GpuContext| {
        let rope = RopeScoresKernel::new(&context.device);
        let alibi = AlibiScoresKernel::new(&context.device);
        Kernels {
            context,
            rope,
            alibi,
        }
    };
    with_shared_gpu(&KERNELS, make, test, f);
}

fn read_square(context: &GpuContext, buffer: &wgpu::Buffer, n: usize) -> Array2<f32> {
    let values = pollster::block_on(read_f32(
        &context.device,
        &context.queue,
        buffer,
        0,
        (n * n) as u64,
    ))
    .expect("read back");
    Array2::from_shape_vec((n, n), values).expect("n·n values")
}

/// Seeded approximately standard normal entries (the crate's own portable RNG).
fn random(n: usize, d: usize, seed: u64) -> Array2<f32> {
    let mut stream = SplitMix64::new(seed);
    Array2::from_shape_simple_fn((n, d), || stream.approx_standard_normal() as f32)
}

/// Norms ‖x_{m,t}‖ of the rotated pairs (2t, 2t + 1) of every row, in f64; for odd d the last
/// "pair" is the lone unrotated column.
fn pair_norms(x: ArrayView2<f32>) -> Array2<f64> {
    let (n, d) = x.dim();
    Array2::from_shape_fn((n, d.div_ceil(2)), |(m, t)| {
        let a = f64::from(x[[m, 2 * t]]);
        let b = if 2 * t + 1 < d {
            f64::from(x[[m, 2 * t + 1]])
        } else {
            0.0
        };
        a.hypot(b)
    })
}

/// The two sums the RoPE bounds need, n × n each: A[i, j] = Σ_t ‖q_{i,t}‖·‖k_{j,t}‖ and
/// B[i, j] = Σ_t θ_t·‖q_{i,t}‖·‖k_{j,t}‖ (θ = 0 for the lone column of odd d).
fn pair_sums(q: ArrayView2<f32>, k: ArrayView2<f32>, base: f64) -> (Array2<f64>, Array2<f64>) {
    let (nq, nk) = (pair_norms(q), pair_norms(k));
    let mut thetas: Vec<f64> = theta_table_f32(q.ncols(), base)
        .into_iter()
        .map(f64::from)
        .collect();
    thetas.resize(nq.ncols(), 0.0);
    let mut weighted = nq.clone();
    for mut row in weighted.rows_mut() {
        row.iter_mut().zip(&thetas).for_each(|(v, &t)| *v *= t);
    }
    (nq.dot(&nk.t()), weighted.dot(&nk.t()))
}

/// η_x: how far one twin's rotated pair is from the exact rotation of the pair by the f32 angle,
/// relative to the pair's norm. Each coordinate x_a·cos − x_b·sin takes the trig error ε on each
/// factor and two roundings (γ_2, with or without a fused multiply-add): ≤ (ε + γ_2(1 + ε))·
/// (|x_a| + |x_b|) ≤ (ε + γ_2(1 + ε))·√2·‖x‖, so the pair moves by ≤ 2(ε + γ_2(1 + ε))·‖x‖.
fn eta(trig_error: f64) -> f64 {
    2.0 * (trig_error + gamma(2) * (1.0 + trig_error))
}

/// Allowed |GPU − CPU| of each RoPE score, derived pair by pair (rotations keep norms, and
/// |⟨a, b⟩| over a pair ≤ ‖a‖·‖b‖):
/// - each twin's rotated pairs are within η·‖x_t‖ of the exact rotation ([`eta`]), so the scores
///   move by ≤ (η_gpu + η_cpu)(2 + η)·Σ_t ‖q_t‖‖k_t‖ between them;
/// - the angles: both twins take the same f32 θ_t and form f32(m)·θ_t, but a GPU compiler may fuse
///   that product into the range reduction (then it is not rounded) or reassociate the reduction,
///   so the angles may differ by ≤ 2·2⁻²⁴·m·θ_t rad; a pair rotated by an extra Δ moves by
///   ≤ |Δ|·‖x_t‖, which adds 2u·(i + j)·Σ_t θ_t‖q_t‖‖k_t‖ — the term that grows with the position;
/// - the d-term dot products, summed in different orders, are each within
///   γ_d·Σ_c |rq_c·rk_c| ≤ γ_d(1 + η)²·Σ_t ‖q_t‖‖k_t‖ of the exact dot of their rotated rows;
/// - the scale multiply rounds once on each side (2u·|S|).
///
/// All times scale = f32(1/√d), the same on both sides, and 1 % for the second-order terms.
fn rope_twin_bounds(
    q: ArrayView2<f32>,
    k: ArrayView2<f32>,
    base: f64,
    s: &Array2<f32>,
) -> Array2<f64> {
    let d = q.ncols();
    let scale = f64::from(score_scale(d));
    let (a, b) = pair_sums(q, k, base);
    let (eta_gpu, eta_cpu) = (eta(GPU_TRIG_ERROR), eta(CPU_TRIG_ERROR));
    let per_norms =
        2.0 * gamma(d) * (1.0 + eta_gpu).powi(2) + (eta_gpu + eta_cpu) * (2.0 + eta_gpu);
    Array2::from_shape_fn(a.dim(), |(i, j)| {
        let positions = (i + j) as f64;
        1.01 * scale * (per_norms * a[[i, j]] + 2.0 * UNIT_ROUNDOFF * positions * b[[i, j]])
            + 2.0 * UNIT_ROUNDOFF * f64::from(s[[i, j]]).abs()
    })
}

/// Allowed |GPU − exact| of each RoPE score against the float64 definition with exact angles
/// m·θ_t (θ_t = base^(−2t/d) in f64): the GPU's rotation error η_gpu, one dot product's γ_d, and
/// the angle: |fl(m·fl(θ_t)) − m·θ_t| ≤ 2u·m·θ_t (θ_t's rounding and the product's), so
/// 2u·(i + j)·Σ_t θ_t‖q_t‖‖k_t‖ again; plus the scale's and its multiply's roundings (2u·|S|).
fn rope_exact_bounds(
    q: ArrayView2<f32>,
    k: ArrayView2<f32>,
    base: f64,
    s: &Array2<f64>,
) -> Array2<f64> {
    let d = q.ncols();
    let scale = 1.0 / (d as f64).sqrt();
    let (a, b) = pair_sums(q, k, base);
    let eta_gpu = eta(GPU_TRIG_ERROR);
    let per_norms = gamma(d) * (1.0 + eta_gpu).powi(2) + eta_gpu * (1.0 + eta_gpu);
    Array2::from_shape_fn(a.dim(), |(i, j)| {
        let positions = (i + j) as f64;
        1.01 * scale
            * (per_norms * a[[i, j]] + 2.0 * UNIT_ROUNDOFF * positions * b[[i, j]] * (1.0 + 1e-6))
            + 2.0 * UNIT_ROUNDOFF * s[[i, j]].abs()
    })
}

/// Rows rotated in float64 by the exact angles m·θ_t (θ_t = base^(−2t/d) in f64), interleaved
/// pairs, the last column of odd d unrotated.
fn rotate_rows_f64(x: ArrayView2<f32>, base: f64) -> Array2<f64> {
    let d = x.ncols();
    let mut out = x.mapv(f64::from);
    for (m, mut row) in out.rows_mut().into_iter().enumerate() {
        for t in 0..d / 2 {
            let (sin, cos) = (m as f64 * frequency(t, d, base)).sin_cos();
            let (a, b) = (row[2 * t], row[2 * t + 1]);
            row[2 * t] = a * cos - b * sin;
            row[2 * t + 1] = a * sin + b * cos;
        }
    }
    out
}

/// The definition in float64: S = Qr·Krᵀ/√d of the rows rotated by [`rotate_rows_f64`].
fn rope_scores_f64(q: ArrayView2<f32>, k: ArrayView2<f32>, base: f64) -> Array2<f64> {
    let d = q.ncols();
    rotate_rows_f64(q, base).dot(&rotate_rows_f64(k, base).t()) / (d as f64).sqrt()
}

/// Runs a square score kernel on host Q and K; its n × n output and how long the run and the read
/// took.
fn run_square<K, X>(
    context: &GpuContext,
    kernel: &mut K,
    q: &Array2<f32>,
    k: &Array2<f32>,
    extra: X,
) -> (Array2<f32>, std::time::Duration)
where
    K: for<'e> QkKernel<'e, Dim = ndarray::Ix2, Extra = X>,
{
    let started = std::time::Instant::now();
    let buffer = kernel
        .run_host(&context.device, &context.queue, q.view(), k.view(), extra)
        .expect(K::LABEL)
        .clone();
    let gpu = read_square(context, &buffer, q.nrows());
    (gpu, started.elapsed())
}

/// (n, d, base): n = 1, tile-straddling and odd n, even and odd d, and a large case; d = 1, and a
/// multiple of 4 (vec4 loads) that no TILE_K divides.
const ROPE_CASES: [(usize, usize, f64); 10] = [
    (1, 2, 10_000.0),
    (5, 1, 10_000.0),
    (130, 12, 10_000.0),
    (7, 8, 10_000.0),
    (7, 3, 10_000.0),
    (65, 30, 500.0),
    (65, 7, 10_000.0),
    (300, 64, 10_000.0),
    (300, 2, 10.0),
    (1024, 64, 10_000.0),
];

#[test]
fn rope_scores_match_the_cpu_twin_and_the_f64_definition() {
    with_gpu("rope scores", |kernels| {
        for_every_tile(
            kernels,
            |k| &mut k.rope,
            &ROPE_CASES,
            |kernels, case, (n, d, base)| {
                let Kernels { context, rope, .. } = kernels;
                let (q, k) = (
                    random(n, d, 1000 + case as u64),
                    random(n, d, 2000 + case as u64),
                );
                let (gpu, elapsed) = run_square(context, rope, &q, &k, base);
                let cpu = scores_f32(q.view(), k.view(), base).expect("CPU twin");
                let bounds = rope_twin_bounds(q.view(), k.view(), base, &cpu);
                let twin = assert_within_bound(
                    gpu.view(),
                    cpu.mapv(f64::from).view(),
                    &format!("RoPE twin n={n} d={d} base={base}"),
                    |index, _, _| bounds[index],
                );
                let exact = rope_scores_f64(q.view(), k.view(), base);
                let bounds = rope_exact_bounds(q.view(), k.view(), base, &exact);
                let vs_f64 = assert_within_bound(
                    gpu.view(),
                    exact.view(),
                    &format!("RoPE vs f64 n={n} d={d} base={base}"),
                    |index, _, _| bounds[index],
                );
                eprintln!(
                    "rope n={n} d={d} base={base} tile {:?}: max |GPU − CPU| = {:.3e} ({:.1} % of \
                 its bound), max |GPU − f64| = {:.3e} ({:.1} % of its bound), GPU {elapsed:?}",
                    rope.tile().map(|t| t.tile()),
                    twin.worst,
                    100.0 * twin.ratio,
                    vs_f64.worst,
                    100.0 * vs_f64.ratio
                );
            },
        );
    });
}

#[test]
fn rope_scores_reject_bad_inputs() {
    with_gpu("rope errors", |kernels| {
        let Kernels { context, rope, .. } = kernels;
        let (device, queue) = (&context.device, &context.queue);
        let q = random(4, 6, 1);
        let wide = random(4, 8, 2);
        let tall = random(5, 6, 3);
        assert!(matches!(
            rope.run_host(device, queue, q.view(), wide.view(), 10.0),
            Err(GpuError::ShapeMismatch {
                what: "columns",
                ..
            })
        ));
        assert!(matches!(
            rope.run_host(device, queue, q.view(), tall.view(), 10.0),
            Err(GpuError::ShapeMismatch { what: "rows", .. })
        ));
        assert_eq!(
            rope.run_host(device, queue, q.view(), q.view(), 1.0).err(),
            Some(GpuError::Rope(RopeError::InvalidBase(1.0)))
        );
        let empty = Array2::<f32>::zeros((0, 6));
        assert_eq!(
            rope.run_host(device, queue, empty.view(), empty.view(), 10.0)
                .err(),
            Some(GpuError::Math(MathError::ZeroPositions(0)))
        );
        let no_columns = Array2::<f32>::zeros((3, 0));
        assert_eq!(
            rope.run_host(device, queue, no_columns.view(), no_columns.view(), 10.0)
                .err(),
            Some(GpuError::Math(MathError::ZeroDimension(0)))
        );
        let small = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("small"),
            size: 64,
            usage: wgpu::BufferUsages::STORAGE,
            mapped_at_creation: false,
        });
        assert!(matches!(
            rope.run(
                device,
                queue,
                (&small, &small, ROPE_MAX_POSITIONS + 1, 2, 10.0)
            ),
            Err(GpuError::TooLarge { .. })
        ));
        assert!(matches!(
            rope.run(
                device,
                queue,
                (&small, &small, 2, ROPE_MAX_DIMENSION + 1, 10.0)
            ),
            Err(GpuError::TooLarge { .. })
        ));
        assert_eq!(
            rope.run(device, queue, (&small, &small, 4, 8, 10.0)).err(),
            Some(GpuError::BufferTooSmall {
                what: "Q",
                needed: 4 * 8 * 4,
                available: 64
            })
        );
    });
}

/// Allowed |GPU − CPU| of each ALiBi weight, row by row. Exponent x_j = z_j − max with
/// z_j = s_j + b_j, s_j = scale·(q_i·k_j), b_j = slope·(j − i); between the twins x_j differs by
/// δ_j, the sum of:
/// - 2γ_d·scale·‖q_i‖‖k_j‖ (the dot products in different orders, Cauchy–Schwarz);
/// - 2u|s_j| (the scale multiply), u|b_j| (the bias product, fused into the addition or not),
///   2u|z_j| (the addition) and 2u|x_j| (subtracting the maximum; the maximum itself is a shift
///   common to the row, which the softmax ignores);
/// - (4 + 2|x_j|)u (WGSL's exp: 3 + 2|x| ulp; the CPU's within one).
///
/// Softmax: w'_j/w_j = e^(δ_j)/Σ_k w_k e^(δ_k), so |w'_j − w_j| ≲ w_j·(e^(δ_j + Σ_k w_k δ_k) − 1):
/// far keys carry both the large biases and tiny weights. The sums of the exponentials round
/// with relative error ≤ γ_(⌈(i+1)/64⌉+6) (GPU: 64 lanes, then a 6-level tree) and
/// γ_(⌈(i+1)/16⌉+16) (CPU: 16 lanes, then their sum), and each division once. Plus 2⁻¹²⁶ for
/// weights the GPU may flush to zero as subnormals; 1 % for the second-order terms.
fn alibi_bounds(
    q: ArrayView2<f32>,
    k: ArrayView2<f32>,
    slope: f32,
    w: &Array2<f32>,
) -> Array2<f64> {
    let n = q.nrows();
    let products = dot_products(q, k);
    let norms_k = row_norms(k);
    let mut bounds = Array2::<f64>::zeros((n, n));
    for i in 0..n {
        let row = alibi_row_bounds(
            q.row(i).to_vec(),
            products.row(i).to_vec(),
            &norms_k,
            i,
            slope,
            w.row(i).to_vec(),
        );
        bounds.row_mut(i).assign(&ndarray::Array1::from(row));
    }
    bounds
}

/// Euclidean norms of the rows, in f64.
fn row_norms(x: ArrayView2<f32>) -> Vec<f64> {
    x.rows()
        .into_iter()
        .map(|r| r.iter().map(|&v| f64::from(v).powi(2)).sum::<f64>().sqrt())
        .collect()
}

/// Row i of [`alibi_bounds`]: `q_i` the query, `products[j]` = q_i·k_j, `w` the row's weights.
fn alibi_row_bounds(
    q_i: Vec<f32>,
    products: Vec<f32>,
    norms_k: &[f64],
    i: usize,
    slope: f32,
    w: Vec<f32>,
) -> Vec<f64> {
    let d = q_i.len();
    let scale = f64::from(score_scale(d));
    let u = UNIT_ROUNDOFF;
    let norm_q = q_i
        .iter()
        .map(|&v| f64::from(v).powi(2))
        .sum::<f64>()
        .sqrt();
    let z: Vec<f64> = (0..=i)
        .map(|j| f64::from(products[j]) * scale + f64::from(slope) * (j as f64 - i as f64))
        .collect();
    let row_max = z.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let deltas: Vec<f64> = (0..=i)
        .map(|j| {
            let s = f64::from(products[j]) * scale;
            let b = f64::from(slope) * (j as f64 - i as f64);
            let x = z[j] - row_max;
            2.0 * gamma(d) * scale * norm_q * norms_k[j]
                + 2.0 * u * s.abs()
                + u * b.abs()
                + 2.0 * u * z[j].abs()
                + 2.0 * u * x.abs()
                + (4.0 + 2.0 * x.abs()) * u
        })
        .collect();
    let mean_delta: f64 = (0..=i).map(|j| f64::from(w[j]) * deltas[j]).sum();
    let sums = gamma((i + 1).div_ceil(64) + 6) + gamma((i + 1).div_ceil(16) + 16) + 2.0 * u;
    let mut bounds = vec![0.0; w.len()];
    for j in 0..=i {
        let weight = f64::from(w[j]);
        bounds[j] = 1.01 * weight * ((deltas[j] + mean_delta).exp_m1() + sums)
            + f64::from(f32::MIN_POSITIVE);
    }
    bounds
}

/// (n, d, slope): n = 1, tile-straddling and odd n, the slopes of an 8-head model's first and last
/// heads and one in between, and a large case; d = 1, odd d (f32 loads), d a multiple of 4 but not
/// of any TILE_K (vec4 loads).
const ALIBI_CASES: [(usize, usize, f32); 9] = [
    (1, 2, 0.5),
    (5, 1, 0.5),
    (130, 12, 0.25),
    (7, 8, 0.5),
    (65, 30, 0.0625),
    (65, 7, 0.25),
    (300, 64, 0.00390625),
    (300, 2, 0.5),
    (1024, 64, 0.0625),
];

#[test]
fn alibi_weights_match_the_cpu_twin_are_causal_and_sum_to_one() {
    with_gpu("alibi weights", |kernels| {
        for_every_tile(
            kernels,
            |k| &mut k.alibi,
            &ALIBI_CASES,
            |kernels, case, (n, d, slope)| {
                let Kernels { context, alibi, .. } = kernels;
                let (q, k) = (
                    random(n, d, 3000 + case as u64),
                    random(n, d, 4000 + case as u64),
                );
                let (gpu, elapsed) = run_square(context, alibi, &q, &k, slope);
                let cpu = causal_weights_f32(q.view(), k.view(), slope);
                let bounds = alibi_bounds(q.view(), k.view(), slope, &cpu);
                let twin = assert_within_bound(
                    gpu.view(),
                    cpu.mapv(f64::from).view(),
                    &format!("ALiBi n={n} d={d} slope={slope}"),
                    |index, _, _| bounds[index],
                );
                // Causal: every key after the query is exactly 0 (the bound there is 0 too, but say
                // it outright).
                for ((i, j), &v) in gpu.indexed_iter() {
                    assert!(j <= i || v == 0.0, "W[{i}, {j}] = {v} is after the query");
                }
                // Rows sum to 1 up to the rounding of the sum of exponentials (γ of its depth) and of
                // the n divisions (u each, weighted by w).
                let mut worst_sum = 0.0f64;
                for (i, row) in gpu.axis_iter(Axis(0)).enumerate() {
                    let total: f64 = row.iter().map(|&v| f64::from(v)).sum();
                    let allowed = gamma((i + 1).div_ceil(64) + 6) + 2.0 * UNIT_ROUNDOFF;
                    assert!(
                        (total - 1.0).abs() <= allowed,
                        "n={n} row {i} sums to {total}"
                    );
                    worst_sum = worst_sum.max((total - 1.0).abs());
                }
                eprintln!(
                    "alibi n={n} d={d} slope={slope} tile {:?}: max |GPU − CPU| = {:.3e} ({:.1} % \
                 of its bound), max |row sum − 1| = {worst_sum:.3e}, GPU {elapsed:?}",
                    alibi.tile().map(|t| t.tile()),
                    twin.worst,
                    100.0 * twin.ratio
                );
            },
        );
    });
}

#[test]
fn alibi_rejects_bad_inputs() {
    with_gpu("alibi errors", |kernels| {
        let Kernels { context, alibi, .. } = kernels;
        let (device, queue) = (&context.device, &context.queue);
        let q = random(4, 6, 1);
        let tall = random(5, 6, 3);
        assert!(matches!(
            alibi.run_host(device, queue, q.view(), tall.view(), 0.5),
            Err(GpuError::ShapeMismatch { what: "rows", .. })
        ));
        assert!(matches!(
            alibi.run_host(device, queue, q.view(), q.view(), f32::NAN),
            Err(GpuError::InvalidSlope(_))
        ));
        let small = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("small"),
            size: 64,
            usage: wgpu::BufferUsages::STORAGE,
            mapped_at_creation: false,
        });
        assert!(matches!(
            alibi.run(
                device,
                queue,
                (&small, &small, ALIBI_MAX_POSITIONS + 1, 2, 0.5)
            ),
            Err(GpuError::TooLarge { .. })
        ));
        assert_eq!(
            alibi.run(device, queue, (&small, &small, 4, 8, 0.5)).err(),
            Some(GpuError::BufferTooSmall {
                what: "Q",
                needed: 4 * 8 * 4,
                available: 64
            })
        );
    });
}

/// The largest n the kernels accept, n = 4096 (64 MiB outputs, the size that meets the storage
/// limits), at d = 512 (8 MiB inputs; d ≤ 1024 is accepted): sampled rows against float64
/// evaluations of the definitions (the CPU twins at this size take too long in a debug build),
/// with the one-sided halves of the bounds above (the twin bounds count each rounding on both
/// sides, so they also cover GPU against exact). d only lengthens each dot product, which the
/// bounds cover at every d; on lavapipe this file took 45 s with d = 1024 and 27 s with 512. A d
/// beyond 1024 is refused (`rope_scores_reject_bad_inputs`).
#[test]
fn both_kernels_at_the_largest_sizes() {
    with_gpu("largest sizes", |kernels| {
        let Kernels {
            context,
            rope,
            alibi,
        } = kernels;
        let (n, d, base) = (ROPE_MAX_POSITIONS, ROPE_MAX_DIMENSION / 2, 10_000.0);
        let q = random(n, d, 91);
        let k = random(n, d, 92);
        let rows = [0, 1, 127, 128, 2047, n - 1];

        let started = std::time::Instant::now();
        let buffer = rope
            .run_host(&context.device, &context.queue, q.view(), k.view(), base)
            .expect("rope scores")
            .clone();
        let gpu = read_square(context, &buffer, n);
        eprintln!("rope n={n} d={d}: GPU {:?}", started.elapsed());
        let rotated_k = rotate_rows_f64(k.view(), base);
        let rotated_q = rotate_rows_f64(q.view(), base);
        let (nq, nk) = (pair_norms(q.view()), pair_norms(k.view()));
        let thetas = theta_table_f32(d, base);
        let scale = 1.0 / (d as f64).sqrt();
        let eta_gpu = eta(GPU_TRIG_ERROR);
        let per_norms = gamma(d) * (1.0 + eta_gpu).powi(2) + eta_gpu * (1.0 + eta_gpu);
        let mut worst = (0.0f64, 0.0f64);
        for &i in &rows {
            for j in 0..n {
                let (mut a, mut b) = (0.0, 0.0);
                for (t, &theta) in thetas.iter().enumerate() {
                    let product = nq[[i, t]] * nk[[j, t]];
                    a += product;
                    b += f64::from(theta) * product;
                }
                let exact = rotated_q.row(i).dot(&rotated_k.row(j)) * scale;
                let bound =
                    1.01 * scale * (per_norms * a + 2.0 * UNIT_ROUNDOFF * (i + j) as f64 * b)
                        + 2.0 * UNIT_ROUNDOFF * exact.abs();
                let err = (f64::from(gpu[[i, j]]) - exact).abs();
                assert!(err <= bound, "RoPE ({i}, {j}): {err:e} > {bound:e}");
                worst = (worst.0.max(err), worst.1.max(err / bound));
            }
        }
        eprintln!(
            "rope n={n} d={d}: sampled rows, max |GPU − f64| = {:.3e} ({:.1} % of its bound)",
            worst.0,
            100.0 * worst.1
        );

        let slope = 0.0625;
        let started = std::time::Instant::now();
        let buffer = alibi
            .run_host(&context.device, &context.queue, q.view(), k.view(), slope)
            .expect("alibi weights")
            .clone();
        let gpu = read_square(context, &buffer, n);
        eprintln!("alibi n={n} d={d}: GPU {:?}", started.elapsed());
        let norms_k = row_norms(k.view());
        let scale = f64::from(score_scale(d));
        let mut worst = (0.0f64, 0.0f64);
        for &i in &rows {
            let products: Vec<f32> = (0..n).map(|j| q.row(i).dot(&k.row(j))).collect();
            // The f64 definition: softmax over j ≤ i of scale·(q_i·k_j) + slope·(j − i).
            let logits: Vec<f64> = (0..=i)
                .map(|j| {
                    let dot: f64 = q
                        .row(i)
                        .iter()
                        .zip(k.row(j))
                        .map(|(&a, &b)| f64::from(a) * f64::from(b))
                        .sum();
                    dot * scale + f64::from(slope) * (j as f64 - i as f64)
                })
                .collect();
            let top = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let total: f64 = logits.iter().map(|l| (l - top).exp()).sum();
            let exact: Vec<f64> = (0..n)
                .map(|j| {
                    if j <= i {
                        (logits[j] - top).exp() / total
                    } else {
                        0.0
                    }
                })
                .collect();
            let w: Vec<f32> = exact.iter().map(|&v| v as f32).collect();
            let bounds = alibi_row_bounds(q.row(i).to_vec(), products, &norms_k, i, slope, w);
            let mut row_sum = 0.0;
            for j in 0..n {
                let g = f64::from(gpu[[i, j]]);
                let err = (g - exact[j]).abs();
                assert!(
                    err <= bounds[j],
                    "ALiBi ({i}, {j}): {err:e} > {:e}",
                    bounds[j]
                );
                assert!(j <= i || g == 0.0, "W[{i}, {j}] = {g} is after the query");
                worst = (worst.0.max(err), worst.1.max(err / bounds[j]));
                row_sum += g;
            }
            let allowed = gamma((i + 1).div_ceil(64) + 6) + 2.0 * UNIT_ROUNDOFF;
            assert!(
                (row_sum - 1.0).abs() <= allowed,
                "row {i} sums to {row_sum}"
            );
        }
        eprintln!(
            "alibi n={n} d={d}: sampled rows, max |GPU − f64| = {:.3e} ({:.1} % of its bound)",
            worst.0,
            100.0 * worst.1
        );
    });
}
