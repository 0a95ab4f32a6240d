//! The WGSL kernels in the browser (wasm-bindgen-test in headless Chromium, SwiftShader's WebGPU
//! adapter): each against its CPU twin, through the same `GpuContext` the page uses.
#![cfg(target_arch = "wasm32")]

use ndarray::{Array3, Axis};
use pe_lab_gpu::{read_f32, GpuContext};
use pe_lab_gpu::{Kernel, QkKernel, Tiled};
use pe_lab_math::attention::multi_head_weights;
use pe_lab_math::encoding::sinusoidal;
use pe_lab_math::gram::gram;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

async fn context() -> GpuContext {
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends: wgpu::Backends::BROWSER_WEBGPU,
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    });
    GpuContext::new(&instance)
        .await
        .expect("a WebGPU adapter (run Chromium with --enable-unsafe-webgpu, see webdriver.json)")
}

fn max_abs_diff(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f32::max)
}

#[wasm_bindgen_test]
async fn encoding_matches_the_float64_reference_in_the_browser() {
    let mut ctx = context().await;
    for (n, d, base) in [
        (60, 32, 10000.0),
        (1, 33, 10000.0),
        (7, 1, 250.0),
        (4096, 64, 10000.0),
        (512, 2048, 10000.0),
    ] {
        let buffer = ctx
            .encoding
            .run(&ctx.device, &ctx.queue, (0, n, d, base))
            .unwrap()
            .clone();
        let gpu = read_f32(&ctx.device, &ctx.queue, &buffer, 0, (n * d) as u64)
            .await
            .unwrap();
        let mut worst = 0.0f64;
        for i in 0..n {
            for c in 0..d {
                let angle = i as f64 * base.powf(-((c / 2 * 2) as f64) / d as f64);
                let exact = if c % 2 == 0 { angle.sin() } else { angle.cos() };
                worst = worst.max((gpu[i * d + c] as f64 - exact).abs());
            }
        }
        assert!(worst <= 2e-6, "n={n} d={d}: {worst}");
    }
}

#[wasm_bindgen_test]
async fn gram_and_stats_match_their_cpu_twins_in_the_browser() {
    let mut ctx = context().await;
    let (n, d, base) = (200, 33, 10000.0);
    let p_buffer = ctx
        .encoding
        .run(&ctx.device, &ctx.queue, (0, n, d, base))
        .unwrap()
        .clone();
    let g = ctx
        .gram
        .run(&ctx.device, &ctx.queue, (&p_buffer, n, d))
        .unwrap()
        .clone();
    let gpu = read_f32(&ctx.device, &ctx.queue, &g, 0, (n * n) as u64)
        .await
        .unwrap();
    let cpu = gram(sinusoidal(n, d, base).view());
    let worst = max_abs_diff(&gpu, cpu.as_slice().unwrap());
    // The GPU sums each entry in column order, the CPU twin in its GEMM's blocked order: each is
    // within γ_d·Σ_k |p_ik·p_jk| ≤ γ_d·‖p_i‖·‖p_j‖ of the exact value (γ_d = d·u/(1 − d·u),
    // u = 2⁻²⁴), so they differ by at most 2·γ_33·17 ≈ 6.7e-5 here (‖p_i‖² ≤ 16 sin/cos pairs
    // plus one sine² ≤ 17); 1e-5·d = 3.3e-4 covers it.
    assert!(worst <= 1e-5 * d as f32, "Gram differs by {worst}");

    ctx.stats
        .run(&ctx.device, &ctx.queue, (&p_buffer, n, d, base, 7))
        .unwrap();
    let stats = ctx.stats.read(&ctx.device, &ctx.queue).await.unwrap();
    assert!(stats.max_projection_error > 0.0 && stats.max_projection_error < 5e-7);
    let p = sinusoidal(n, d, base);
    let cpu_min = p.iter().copied().fold(f32::INFINITY, f32::min);
    let cpu_max = p.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    assert!((stats.min - cpu_min).abs() <= 2e-6 && (stats.max - cpu_max).abs() <= 2e-6);
    let cpu_error = pe_lab_math::relative::projection_error_of(p.view(), base, 7);
    assert!((stats.max_projection_error as f64 - cpu_error).abs() < 2.5e-7);
}

#[wasm_bindgen_test]
async fn masked_multi_head_attention_matches_the_cpu_twin_in_the_browser() {
    let mut ctx = context().await;
    // The chapter's example: batch 2, 4 queries, d = 100, 5 heads, valid_lens [3, 2]; X from P so
    // that the rows differ.
    let p = sinusoidal(8, 100, 10000.0);
    let x: Array3<f32> = ndarray::stack(
        Axis(0),
        &[
            p.slice(ndarray::s![0..4, ..]),
            p.slice(ndarray::s![4..8, ..]),
        ],
    )
    .unwrap();
    let cpu = multi_head_weights(x.view(), 5, &[3, 2]).unwrap();
    let out = ctx
        .attention
        .run_host(&ctx.device, &ctx.queue, x.view(), x.view(), (5, &[3, 2]))
        .unwrap()
        .clone();
    let gpu = read_f32(&ctx.device, &ctx.queue, &out, 0, cpu.len() as u64)
        .await
        .unwrap();
    // Each head has 20 columns, 10 complete sin/cos pairs of P, so ‖q_i‖ = ‖k_j‖ = √10. The GPU
    // sums the dot products in column order and the CPU twin in its GEMM's order, each within
    // γ₂₀·‖q_i‖·‖k_j‖ of the exact value, and each rounds the scale multiply once: the scores may
    // differ by δ = c·10·(2γ₂₀ + 2u(1 + γ₂₀)) ≈ 5.6e-6 (c = 1/√20). Moving every score of a row by
    // at most δ multiplies each weight w by a factor in [e^(−2δ), e^(2δ)], so w moves by at most
    // e^(2δ) − 1 ≈ 1.1e-5; 1e-5 more for the exp, the sum and the division.
    let u = 1.0 / (1u64 << 24) as f64;
    let gamma = 20.0 * u / (1.0 - 20.0 * u);
    let delta = 10.0 / 20f64.sqrt() * (2.0 * gamma + 2.0 * u * (1.0 + gamma));
    let tolerance = 1e-5 + (2.0 * delta).exp_m1();
    let worst = max_abs_diff(&gpu, cpu.as_slice().unwrap());
    assert!(worst as f64 <= tolerance, "attention differs by {worst}");
    // Every head of sequence 1 masks keys 2 and 3 to exactly zero.
    for h in 0..5 {
        for q in 0..4 {
            let row = ((5 + h) * 4 + q) * 4;
            assert_eq!(&gpu[row + 2..row + 4], &[0.0, 0.0]);
        }
    }
}
