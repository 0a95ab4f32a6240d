//! Integration tests of the positional-encoding families beyond the sinusoid: ALiBi slopes and
//! biases, T5 relative buckets, RoPE context extension (PI, NTK, YaRN), RoPE itself, NoPE and
//! stacked attention. Every formula is checked against an independent float64 transcription
//! written here (differently from the crate's code), against published values, or by properties.
#![cfg(not(target_arch = "wasm32"))]

mod common;
use common::{gamma, UNIT_ROUNDOFF};
use pe_lab::math::rng::SplitMix64;
use pe_lab::math::rope::{Layout, Precision};
use pe_lab::math::{alibi, extension, learned, nope, rope, shaw, stacking, t5};

// ---------------------------------------------------------------- ALiBi

/// `get_slopes` of ofirpress/attention_with_linear_biases, transcribed: start = 2^(−2^−(log2 n − 3)),
/// slopes start·start^i; otherwise the closest lower power of two and every other slope of 2n.
fn reference_alibi_slopes(n: usize) -> Vec<f64> {
    fn power_of_2(n: usize) -> Vec<f64> {
        let start = 2f64.powf(-(2f64.powf(-((n as f64).log2() - 3.0))));
        (0..n).map(|i| start * start.powi(i as i32)).collect()
    }
    if (n as f64).log2().fract() == 0.0 {
        power_of_2(n)
    } else {
        let closest = 2f64.powf((n as f64).log2().floor()) as usize;
        let mut out = power_of_2(closest);
        let doubled = reference_alibi_slopes(2 * closest);
        out.extend(doubled.iter().step_by(2).take(n - closest));
        out
    }
}

#[test]
fn alibi_slopes_match_the_reference_code_for_1_to_64_heads() {
    for heads in 1..=64 {
        let got = alibi::slopes(heads);
        let want = reference_alibi_slopes(heads);
        assert_eq!(got.len(), heads);
        for (h, (g, w)) in got.iter().zip(&want).enumerate() {
            assert!(
                (g - w).abs() <= 1e-14 * w,
                "H = {heads}, head {h}: {g} vs {w}"
            );
        }
    }
}

#[test]
fn alibi_twelve_heads_are_the_paper_values() {
    let s = alibi::slopes(12);
    let want = [
        0.5,
        0.25,
        0.125,
        0.0625,
        0.03125,
        0.015625,
        0.0078125,
        0.00390625,
        2f64.powf(-0.5),
        2f64.powf(-1.5),
        2f64.powf(-2.5),
        2f64.powf(-3.5),
    ];
    for (g, w) in s.iter().zip(want) {
        assert!((g - w).abs() < 1e-15, "{g} vs {w}");
    }
    assert!((s[8] - 0.707).abs() < 1e-3 && (s[11] - 0.088).abs() < 1e-3);
}

#[test]
fn alibi_causal_weights_match_a_direct_f64_softmax() {
    let n = 9;
    let slope = alibi::slopes(8)[2];
    // Arbitrary deterministic scores.
    let scores =
        ndarray::Array2::from_shape_fn((n, n), |(i, j)| ((i * 7 + j * 3) % 5) as f32 * 0.3);
    let w = alibi::causal_weights(scores.view(), slope);
    let b = alibi::bias(slope, n);
    for i in 0..n {
        // Softmax over the whole row with −∞ above the diagonal: exp(−∞) = 0 masks it.
        let logits: Vec<f64> = (0..n).map(|j| scores[[i, j]] as f64 + b[[i, j]]).collect();
        let top = logits.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let z: f64 = logits.iter().map(|l| (l - top).exp()).sum();
        for j in 0..n {
            let want = (logits[j] - top).exp() / z;
            assert!((w[[i, j]] as f64 - want).abs() < 1e-6, "({i}, {j})");
            if j > i {
                assert_eq!(w[[i, j]], 0.0);
            }
        }
    }
}

#[test]
fn alibi_bias_alone_decays_geometrically() {
    let slope = 0.5;
    let w = alibi::bias_only_weights(slope, 6);
    for i in 1..6 {
        for j in 1..=i {
            let ratio = w[[i, j - 1]] as f64 / w[[i, j]] as f64;
            assert!((ratio - (-slope).exp()).abs() < 1e-5);
        }
    }
}

/// Seeded approximately standard normal f32 entries.
fn random_matrix(n: usize, d: usize, seed: u64) -> ndarray::Array2<f32> {
    let mut stream = SplitMix64::new(seed);
    ndarray::Array2::from_shape_simple_fn((n, d), || stream.approx_standard_normal() as f32)
}

#[test]
fn alibi_weights_of_q_and_k_are_causal_and_rows_sum_to_one() {
    let (n, d) = (200, 16);
    let q = random_matrix(n, d, 11);
    let k = random_matrix(n, d, 12);
    for slope in alibi::slopes(8) {
        let slope = slope as f32;
        let w = alibi::causal_weights_f32(q.view(), k.view(), slope);
        // The twin is causal_weights of the scaled products, nothing more.
        let scale = pe_lab::math::attention::score_scale(d);
        let scores = q.dot(&k.t()).mapv(|s| s * scale);
        let direct = alibi::causal_weights(scores.view(), f64::from(slope));
        for ((i, j), &v) in w.indexed_iter() {
            if j > i {
                assert_eq!(v, 0.0, "W[{i}, {j}] is after the query");
            } else {
                assert!(v >= 0.0);
                // Products summed in different orders: the weights agree to the softmax's
                // sensitivity, far below 1e-5 here.
                assert!((v - direct[[i, j]]).abs() < 1e-5, "({i}, {j})");
            }
        }
        assert_eq!(w[[0, 0]], 1.0);
        for (i, row) in w.rows().into_iter().enumerate() {
            // The sum of the exponentials (16 lanes, then their sum) rounds with relative error
            // ≤ γ_(⌈(i+1)/16⌉+16); each division once more (u·w_j, u in all).
            let total: f64 = row.iter().map(|&v| f64::from(v)).sum();
            let allowed = gamma((i + 1).div_ceil(16) + 16) + 2.0 * UNIT_ROUNDOFF;
            assert!(
                (total - 1.0).abs() <= allowed,
                "slope {slope}, row {i}: {total}"
            );
        }
    }
}

// ---------------------------------------------------------------- T5 buckets

/// The reference `_relative_position_bucket` (bidirectional or not) with every float32 step
/// emulated by computing in f64 and rounding to f32 after each operation, and truncation toward
/// zero by `trunc`.
fn reference_t5_bucket(rel: i64, bidirectional: bool, num_buckets: i64, max_distance: i64) -> i64 {
    let mut buckets = 0;
    let mut nb = num_buckets;
    let n = if bidirectional {
        nb /= 2;
        if rel > 0 {
            buckets += nb;
        }
        rel.abs()
    } else {
        -(rel.min(0))
    };
    let max_exact = nb / 2;
    if n < max_exact {
        return buckets + n;
    }
    let ratio = (n as f32 as f64 / max_exact as f32 as f64) as f32;
    let log = (ratio as f64).ln() as f32;
    let span = (max_distance as f64 / max_exact as f64).ln() as f32;
    let q = (log as f64 / span as f64) as f32;
    let scaled = (q as f64 * (nb - max_exact) as f32 as f64) as f32;
    let large = (max_exact + scaled.trunc() as i64).min(nb - 1);
    buckets + large
}

/// The same formula in exact f64, without any f32 rounding.
fn exact_t5_bucket(rel: i64) -> i64 {
    let offset = if rel > 0 { 16 } else { 0 };
    let n = rel.abs();
    if n < 8 {
        return offset + n;
    }
    offset + (8 + ((n as f64 / 8.0).ln() / 16f64.ln() * 8.0).floor() as i64).min(15)
}

/// Hugging Face transformers 5.24.0, `T5Attention._relative_position_bucket` (32 buckets,
/// max_distance 128) on relative_position = key − query = −160 … 160, bidirectional.
const TRANSFORMERS_T5_BUCKETS: [u32; 321] = [
    15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,
    15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,
    15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 14, 14,
    14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14,
    14, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 12, 12, 12, 12, 12,
    12, 12, 12, 12, 12, 12, 12, 12, 12, 11, 11, 11, 11, 11, 11, 11, 11, 11, 10, 10, 10, 10, 10, 10,
    10, 9, 9, 9, 9, 8, 8, 8, 8, 7, 6, 5, 4, 3, 2, 1, 0, 17, 18, 19, 20, 21, 22, 23, 24, 24, 24, 24,
    25, 25, 25, 25, 26, 26, 26, 26, 26, 26, 26, 27, 27, 27, 27, 27, 27, 27, 27, 27, 28, 28, 28, 28,
    28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 29, 29, 29, 29, 29, 29, 29, 29, 29, 29, 29, 29, 29, 29,
    29, 29, 29, 29, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
    30, 30, 30, 30, 30, 30, 30, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
    31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
    31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
    31, 31, 31, 31, 31,
];

/// The same, bidirectional = False (a decoder).
const TRANSFORMERS_T5_BUCKETS_CAUSAL: [u32; 321] = [
    31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
    31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
    30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 29, 29, 29, 29, 29, 29, 29, 29, 29, 29,
    29, 29, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 27, 27, 27, 27, 27, 27, 27, 27, 27, 27, 26, 26,
    26, 26, 26, 26, 26, 26, 25, 25, 25, 25, 25, 25, 25, 24, 24, 24, 24, 24, 24, 23, 23, 23, 23, 23,
    23, 22, 22, 22, 22, 22, 21, 21, 21, 21, 20, 20, 20, 20, 19, 19, 19, 18, 18, 18, 17, 17, 16, 16,
    16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
];

#[test]
fn t5_buckets_match_hugging_face_transformers() {
    let layout = t5::BucketLayout::default();
    let causal = t5::BucketLayout {
        bidirectional: false,
        ..layout
    };
    for (index, k) in (-160i64..=160).enumerate() {
        assert_eq!(
            t5::bucket(k, &layout).unwrap() as u32,
            TRANSFORMERS_T5_BUCKETS[index],
            "k = {k}"
        );
        assert_eq!(
            t5::bucket(k, &causal).unwrap() as u32,
            TRANSFORMERS_T5_BUCKETS_CAUSAL[index],
            "causal, k = {k}"
        );
    }
}

#[test]
fn position_interpolation_matches_hugging_face_transformers() {
    // transformers 5.24.0, ROPE_INIT_FUNCTIONS["linear"] at factor 4: inv_freq / 4, every ratio
    // 0.25 up to float32 rounding (its largest deviation 1.7e-8); here exactly 1/s.
    let theta = pe_lab::math::extension::frequencies(32, 10_000.0).unwrap();
    let pi = pe_lab::math::extension::position_interpolation(32, 10_000.0, 4.0).unwrap();
    for (a, b) in pi.iter().zip(&theta) {
        assert!((a / b - 0.25).abs() < 1e-15);
    }
}

#[test]
fn t5_buckets_match_the_reference_for_distances_up_to_1000() {
    let layout = t5::BucketLayout::default();
    let all = t5::buckets(1000, &layout).unwrap();
    assert_eq!(all.len(), 2001);
    for (k, b) in all {
        assert_eq!(b as i64, reference_t5_bucket(k, true, 32, 128), "k = {k}");
        // At these sizes the float32 reference and exact arithmetic agree everywhere.
        assert_eq!(b as i64, exact_t5_bucket(k), "k = {k}");
    }
    let causal = t5::BucketLayout {
        bidirectional: false,
        ..layout
    };
    for k in -1000..=1000 {
        let b = t5::bucket(k, &causal).unwrap();
        assert_eq!(b as i64, reference_t5_bucket(k, false, 32, 128), "k = {k}");
    }
}

#[test]
fn t5_small_distances_are_exact_and_91_is_the_first_in_the_last_bucket() {
    let layout = t5::BucketLayout::default();
    for d in 0..8i64 {
        assert_eq!(t5::bucket(-d, &layout).unwrap() as i64, d);
        if d > 0 {
            assert_eq!(t5::bucket(d, &layout).unwrap() as i64, 16 + d);
        }
    }
    assert_eq!(t5::first_distance_in_last_bucket(&layout), Ok(91));
    assert_eq!(t5::bucket(-90, &layout), Ok(14));
    assert_eq!(t5::bucket(90, &layout), Ok(30));
    for d in 91..=1000 {
        assert_eq!(t5::bucket(-d, &layout), Ok(15));
        assert_eq!(t5::bucket(d, &layout), Ok(31));
    }
    // The integer boundaries 16, 32, 64 open buckets 10, 12, 14.
    assert_eq!(t5::bucket(-15, &layout), Ok(9));
    assert_eq!(t5::bucket(-16, &layout), Ok(10));
    assert_eq!(t5::bucket(-32, &layout), Ok(12));
    assert_eq!(t5::bucket(-63, &layout), Ok(13));
    assert_eq!(t5::bucket(-64, &layout), Ok(14));
}

#[test]
fn t5_buckets_never_decrease_with_distance() {
    let layout = t5::BucketLayout::default();
    let mut last = 0;
    for d in 0..=2000 {
        let b = t5::bucket(-d, &layout).unwrap();
        assert!(b >= last);
        last = b;
    }
}

// ---------------------------------------------------------------- context extension

#[test]
fn ntk_base_and_ratios_at_d128_s4() {
    let (d, base, s) = (128, 10_000.0, 4.0);
    let b = extension::ntk_base(d, base, s).unwrap();
    assert!((b - 10_000.0 * 4f64.powf(128.0 / 126.0)).abs() < 1e-9);
    assert!((b - 40_890.0).abs() < 5.0, "{b}");
    let old = extension::frequencies(d, base).unwrap();
    let new = extension::ntk_frequencies(d, base, s).unwrap();
    let ratios = extension::ntk_ratios(d, s).unwrap();
    for j in 0..d / 2 {
        let direct = (b.ln() * (-2.0 * j as f64 / d as f64)).exp()
            / (base.ln() * (-2.0 * j as f64 / d as f64)).exp();
        assert!((new[j] / old[j] - ratios[j]).abs() < 1e-12);
        assert!((direct - ratios[j]).abs() < 1e-12);
    }
    assert_eq!(ratios[0], 1.0);
    assert!((ratios[63] - 0.25).abs() < 1e-15);
}

#[test]
fn position_interpolation_divides_by_s() {
    let old = extension::frequencies(64, 10_000.0).unwrap();
    let pi = extension::position_interpolation(64, 10_000.0, 8.0).unwrap();
    for (o, p) in old.iter().zip(&pi) {
        assert!((o / 8.0 - p).abs() <= 1e-16 * o);
    }
}

#[test]
fn yarn_matches_a_direct_computation() {
    let (d, base, s, l) = (128, 10_000.0, 16.0, 4096usize);
    let pairs = extension::yarn(d, base, &extension::YarnParams::new(s, l)).unwrap();
    assert_eq!(pairs.len(), 64);
    let mut saw = [false; 3];
    for p in &pairs {
        let theta = 1.0 / 10_000f64.powf(2.0 * p.j as f64 / d as f64);
        let lambda = 2.0 * std::f64::consts::PI / theta;
        let r = l as f64 / lambda;
        let gamma = ((r - 1.0) / 31.0).clamp(0.0, 1.0);
        let want = theta * (gamma + (1.0 - gamma) / s);
        assert!((p.theta_new - want).abs() <= 1e-13 * theta, "pair {}", p.j);
        assert!((p.ramp - gamma).abs() < 1e-13);
        assert_eq!(p.fits_in_context, lambda < l as f64);
        saw[if gamma == 0.0 {
            0
        } else if gamma == 1.0 {
            2
        } else {
            1
        }] = true;
    }
    // The three regimes all occur at these sizes.
    assert_eq!(saw, [true; 3]);
    // High frequencies keep θ, the lowest are fully interpolated.
    assert_eq!(pairs[0].theta_new, pairs[0].theta);
    assert!((pairs[63].theta_new - pairs[63].theta / s).abs() < 1e-18);
}

#[test]
fn scale_one_changes_nothing() {
    let old = extension::frequencies(32, 500.0).unwrap();
    assert_eq!(
        extension::position_interpolation(32, 500.0, 1.0).unwrap(),
        old
    );
    assert_eq!(extension::ntk_base(32, 500.0, 1.0).unwrap(), 500.0);
    for (p, o) in extension::yarn(32, 500.0, &extension::YarnParams::new(1.0, 64))
        .unwrap()
        .iter()
        .zip(&old)
    {
        // (1 − γ)·θ/1 + γ·θ: two roundings.
        assert!((p.theta_new - o).abs() <= 4.5e-16 * o);
    }
    assert_eq!(extension::yarn_attention_factor(1.0), 1.0);
}

#[test]
fn yarn_temperature_is_the_paper_formula() {
    let f = extension::yarn_attention_factor(16.0);
    assert!((f - (1.0 + 0.1 * 16f64.ln())).abs() < 1e-15);
    assert!((f - 1.2773).abs() < 1e-4);
}

// ---------------------------------------------------------------- RoPE

fn random_vector(d: usize, stream: &mut SplitMix64) -> Vec<f64> {
    (0..d).map(|_| stream.approx_standard_normal()).collect()
}

/// RoPE written with complex numbers: coordinates (2j, 2j+1) as z_j = x_{2j} + i·x_{2j+1}, the
/// score Re Σ_j z_j(q)·conj(z_j(k))·e^{i(m−n)θ_j}, which depends on m − n by construction.
fn complex_reference_score(q: &[f64], k: &[f64], m: f64, n: f64, base: f64) -> f64 {
    let d = q.len();
    (0..d / 2)
        .map(|j| {
            let theta = (-(2.0 * j as f64) / d as f64 * base.ln()).exp();
            let (qr, qi, kr, ki) = (q[2 * j], q[2 * j + 1], k[2 * j], k[2 * j + 1]);
            // z_q·conj(z_k) = (qr·kr + qi·ki) + i(qi·kr − qr·ki)
            let (re, im) = (qr * kr + qi * ki, qi * kr - qr * ki);
            let a = (m - n) * theta;
            re * a.cos() - im * a.sin()
        })
        .sum()
}

#[test]
fn rope_scores_match_the_complex_form_and_depend_on_the_offset_only() {
    let mut stream = SplitMix64::new(7);
    for d in [2, 8, 64] {
        let q = random_vector(d, &mut stream);
        let k = random_vector(d, &mut stream);
        for (m, n) in [(0.0, 0.0), (3.0, 11.0), (50.0, 2.0), (1000.0, 1007.0)] {
            let s =
                rope::score(&q, &k, m, n, 10_000.0, Layout::Interleaved, Precision::F64).unwrap();
            let want = complex_reference_score(&q, &k, m, n, 10_000.0);
            assert!(
                (s - want).abs() < 1e-10,
                "d = {d}, ({m}, {n}): {s} vs {want}"
            );
            let shifted = rope::score(
                &q,
                &k,
                m + 17.0,
                n + 17.0,
                10_000.0,
                Layout::Interleaved,
                Precision::F64,
            )
            .unwrap();
            assert!((s - shifted).abs() < 1e-10);
        }
    }
}

/// S = scores_f32 of Q with every row q and K with every row k: in exact arithmetic (with the
/// same f32 θ_t) S[i, j] depends on j − i only. The f32 computation is off from that exact value
/// by at most
/// - γ_d(1 + η)²·A for the dot product and η(1 + η)·A for the rotations (η = 2(ε + γ_2(1 + ε))
///   with ε = 2u the error of Rust's f32 sine and cosine), A = Σ_t ‖q_t‖‖k_t‖;
/// - u·(i + j)·B for the angles: f32(m)·θ_t is off from m·θ_t by ≤ u·m·θ_t, and a pair rotated by
///   an extra Δ moves by ≤ |Δ|·‖x_t‖, B = Σ_t θ_t‖q_t‖‖k_t‖ — the part that grows with position;
/// - u·|S| for the scale multiply;
///
/// all times scale = 1/√d. Entries of one diagonal j − i = r are compared with the entry (0, r)
/// (or (r, 0)), so the allowed difference is the sum of both entries' bounds.
#[test]
fn rope_scores_f32_depend_on_the_offset_only_within_the_f32_bound() {
    for (d, base) in [(64usize, 10_000.0f64), (8, 10_000.0), (7, 500.0)] {
        let n = 512;
        let q_row = random_matrix(1, d, 21);
        let k_row = random_matrix(1, d, 22);
        let q = ndarray::Array2::from_shape_fn((n, d), |(_, c)| q_row[[0, c]]);
        let k = ndarray::Array2::from_shape_fn((n, d), |(_, c)| k_row[[0, c]]);
        let s = rope::scores_f32(q.view(), k.view(), base).unwrap();
        let thetas = rope::theta_table_f32(d, base);
        let pair_norm = |x: &ndarray::Array2<f32>, t: usize| {
            let a = f64::from(x[[0, 2 * t]]);
            let b = if 2 * t + 1 < d {
                f64::from(x[[0, 2 * t + 1]])
            } else {
                0.0
            };
            a.hypot(b)
        };
        let (mut a, mut b) = (0.0, 0.0);
        for t in 0..d.div_ceil(2) {
            let product = pair_norm(&q_row, t) * pair_norm(&k_row, t);
            a += product;
            b += thetas.get(t).map_or(0.0, |&theta| f64::from(theta)) * product;
        }
        let u = UNIT_ROUNDOFF;
        let eta = 2.0 * (2.0 * u + gamma(2) * (1.0 + 2.0 * u));
        let scale = f64::from(pe_lab::math::attention::score_scale(d));
        let entry_bound = |i: usize, j: usize| {
            1.01 * scale
                * ((gamma(d) * (1.0 + eta).powi(2) + eta * (1.0 + eta)) * a
                    + u * (i + j) as f64 * b)
                + u * f64::from(s[[i, j]]).abs()
        };
        let (mut near, mut far, mut spread) = (0.0f64, 0.0f64, 0.0f64);
        for ((i, j), &v) in s.indexed_iter() {
            let (ri, rj) = if j >= i { (0, j - i) } else { (i - j, 0) };
            let reference = s[[ri, rj]];
            let diff = f64::from(v - reference).abs();
            let allowed = entry_bound(i, j) + entry_bound(ri, rj);
            assert!(
                diff <= allowed,
                "d = {d}, ({i}, {j}) vs ({ri}, {rj}): {v} vs {reference}, {diff:e} > {allowed:e}"
            );
            if i + j < 64 {
                near = near.max(diff);
            } else if i + j > 900 {
                far = far.max(diff);
            }
            spread = spread.max(f64::from(v - s[[0, 0]]).abs());
        }
        // The scores do vary with the offset, far beyond the rounding allowed along a diagonal.
        assert!(
            spread > 1e3 * entry_bound(n - 1, n - 1),
            "d = {d}: spread {spread}"
        );
        eprintln!(
            "RoPE f32 shift invariance d = {d}: max diagonal deviation {near:.2e} for i + j < 64, \
             {far:.2e} for i + j > 900 (spread across offsets {spread:.2})"
        );
    }
}

#[test]
fn rope_half_split_equals_interleaved_after_the_permutation() {
    let mut stream = SplitMix64::new(3);
    let d = 16;
    let perm = rope::interleaved_to_half_split(d);
    let q = random_vector(d, &mut stream);
    let k = random_vector(d, &mut stream);
    let (qh, kh) = (rope::permute(&q, &perm), rope::permute(&k, &perm));
    for (m, n) in [(0.0, 5.0), (9.0, 2.0), (123.0, 456.0)] {
        let a = rope::score(&q, &k, m, n, 10_000.0, Layout::Interleaved, Precision::F64).unwrap();
        let b = rope::score(&qh, &kh, m, n, 10_000.0, Layout::HalfSplit, Precision::F64).unwrap();
        assert!((a - b).abs() < 1e-12, "{a} vs {b}");
        // Without the permutation the layouts pair different coordinates.
        let c = rope::score(&q, &k, m, n, 10_000.0, Layout::HalfSplit, Precision::F64).unwrap();
        if m != n {
            assert!((a - c).abs() > 1e-6);
        }
    }
    // The rotated vectors themselves correspond under the permutation.
    let rq = rope::rotate(&q, 7.0, 10_000.0, Layout::Interleaved).unwrap();
    let rqh = rope::rotate(&qh, 7.0, 10_000.0, Layout::HalfSplit).unwrap();
    for (a, b) in rope::permute(&rq, &perm).iter().zip(&rqh) {
        assert!((a - b).abs() < 1e-15);
    }
}

#[test]
fn rope_shift_residual_is_rounding_in_f64_and_grows_in_f32() {
    let mut stream = SplitMix64::new(11);
    let d = 64;
    let q = random_vector(d, &mut stream);
    let k = random_vector(d, &mut stream);
    let deltas = [100_000, 10, 1_000, 10_000, 10];
    let f64_res = rope::shift_residuals(
        &q,
        &k,
        3,
        1,
        &deltas,
        10_000.0,
        Layout::Interleaved,
        Precision::F64,
    )
    .unwrap();
    let f32_res = rope::shift_residuals(
        &q,
        &k,
        3,
        1,
        &deltas,
        10_000.0,
        Layout::Interleaved,
        Precision::F32,
    )
    .unwrap();
    let order: Vec<u64> = f64_res.iter().map(|p| p.0).collect();
    assert_eq!(order, vec![10, 1_000, 10_000, 100_000]);
    for (delta, r) in &f64_res {
        assert!(*r < 1e-12, "f64 Δ = {delta}: {r}");
    }
    // f32 residuals are far above f64 ones and the largest shift is worse than the smallest.
    assert!(f32_res[3].1 > f32_res[0].1);
    // A single draw is noisy (the angle roundings of the two positions partly cancel), so only
    // the order of magnitude is checked: f32 is at least a thousand times worse than f64.
    let worst_f64 = f64_res.iter().map(|p| p.1).fold(0.0, f64::max);
    for (delta, r) in &f32_res[1..] {
        assert!(
            *r > 1e-7 && *r > 1e3 * worst_f64,
            "Δ = {delta}: {f32_res:?}"
        );
    }
    for (delta, r) in &f32_res {
        println!("RoPE f32 shift residual Δ = {delta}: {r:.3e}");
    }
    for (delta, r) in &f64_res {
        println!("RoPE f64 shift residual Δ = {delta}: {r:.3e}");
    }
}

#[test]
fn rope_decay_bound_matches_a_direct_sum_and_is_not_an_expectation() {
    let (d, base) = (128, 10_000.0);
    for r in [0.0, 1.0, 10.0, 100.0, 250.0] {
        // Direct: S_j summed from scratch for every j (quadratic, no running sum).
        let direct: f64 = (1..=d / 2)
            .map(|j| {
                let (mut re, mut im) = (0.0, 0.0);
                for k in 0..j {
                    let a = r * 10_000f64.powf(-2.0 * k as f64 / d as f64);
                    re += a.cos();
                    im += a.sin();
                }
                (re * re + im * im).sqrt()
            })
            .sum::<f64>()
            / (d / 2) as f64;
        let got = rope::decay_bound(d, base, r).unwrap();
        assert!((got - direct).abs() < 1e-10, "r = {r}");
    }
    let curve = rope::decay_bound_curve(d, base, &[0.0, 10.0, 100.0, 250.0]).unwrap();
    assert!((curve[0].1 - 32.5).abs() < 1e-12);
    assert!(curve[3].1 < curve[1].1 && curve[1].1 < curve[0].1);
    // Random q, k: the mean score is near 0 while the bound is of order d.
    let mean = rope::mean_random_score(d, base, 10.0, 2000, 5).unwrap();
    assert!(mean.abs() < 1.5, "{mean}"); // standard error √(128/2000) ≈ 0.25
    assert!(curve[1].1 > 10.0 * mean.abs());
    println!("decay bound at r = 0, 10, 100, 250: {curve:?}; mean random score at 10: {mean}");
}

// ---------------------------------------------------------------- NoPE

#[test]
fn nope_causal_outputs_are_one_over_t() {
    let n = 50;
    let causal = nope::start_indicator_outputs(n, true);
    let full = nope::start_indicator_outputs(n, false);
    for t in 1..=n {
        assert!((causal[t - 1] - 1.0 / t as f64).abs() < 1e-15, "t = {t}");
        assert!((full[t - 1] - 1.0 / n as f64).abs() < 1e-15);
    }
    assert!(causal.windows(2).all(|w| w[1] < w[0]));
}

// ---------------------------------------------------------------- stacking

/// ‖X − 1μᵀ‖_F/‖X‖_F by explicit loops, the mean formed per column.
fn direct_residual(x: &ndarray::Array2<f64>) -> f64 {
    let (n, d) = x.dim();
    let (mut num, mut den) = (0.0, 0.0);
    for c in 0..d {
        let mu: f64 = (0..n).map(|r| x[[r, c]]).sum::<f64>() / n as f64;
        for r in 0..n {
            num += (x[[r, c]] - mu).powi(2);
            den += x[[r, c]].powi(2);
        }
    }
    (num / den).sqrt()
}

#[test]
fn rank_residual_matches_a_direct_computation() {
    let mut stream = SplitMix64::new(2);
    let x = ndarray::Array2::from_shape_simple_fn((7, 5), || stream.approx_standard_normal() + 0.5);
    let got = stacking::rank_residual(x.view());
    assert!((got - direct_residual(&x)).abs() < 1e-14);
}

#[test]
fn pure_attention_collapses_and_skips_prevent_it() {
    let options = stacking::StackOptions::default();
    let pure = stacking::run(&options).unwrap();
    assert_eq!(pure.rank_residuals.len(), options.layers + 1);
    println!("pure attention rank residuals: {:?}", pure.rank_residuals);
    println!("pure attention probe R²: {:?}", pure.probe_r2);
    assert!(pure.rank_residuals[0] > 0.5);
    assert!(pure.rank_residuals[4] < 1e-3 * pure.rank_residuals[0]);
    let skip = stacking::run(&stacking::StackOptions {
        skip: true,
        layer_norm: true,
        ..options
    })
    .unwrap();
    println!("skip + LN rank residuals: {:?}", skip.rank_residuals);
    assert!(skip.rank_residuals[8] > 0.1);
}

#[test]
fn stacking_options_behave_as_documented() {
    let base = stacking::StackOptions::default();
    // Positions re-injected at every layer stay recoverable (the rows never become equal).
    let every = stacking::run(&stacking::StackOptions {
        positions: stacking::PositionInjection::EveryLayer,
        ..base
    })
    .unwrap();
    assert!(every.rank_residuals.iter().all(|&r| r > 0.1), "{every:?}");
    // The held-out probe: the position re-injected after every layer is read again, while the
    // collapsed rows of the same stack with P added once give nothing to read.
    let once = stacking::run(&base).unwrap();
    assert!(every.probe_r2[base.layers] > 0.5, "{every:?}");
    assert!(once.probe_r2[base.layers] < 0.1, "{once:?}");
    // Same seed, same numbers.
    assert_eq!(stacking::run(&base).unwrap(), stacking::run(&base).unwrap());
    // Causal pure attention also collapses (row 0 only sees itself, every row mixes towards it).
    let causal = stacking::run(&stacking::StackOptions {
        causal: true,
        ..base
    })
    .unwrap();
    println!(
        "causal pure attention rank residuals: {:?}",
        causal.rank_residuals
    );
    assert!(causal.rank_residuals[8] < causal.rank_residuals[0]);
}

/// Solves the (m × m) system a·x = b by Gauss–Jordan with partial pivoting.
#[allow(clippy::needless_range_loop)] // Gauss–Jordan reads best with row and column indices
fn gauss_jordan(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Vec<f64> {
    let m = b.len();
    for p in 0..m {
        let pivot_row = (p..m)
            .max_by(|&r, &s| a[r][p].abs().total_cmp(&a[s][p].abs()))
            .unwrap();
        a.swap(p, pivot_row);
        b.swap(p, pivot_row);
        let pivot = a[p][p];
        for c in 0..m {
            a[p][c] /= pivot;
        }
        b[p] /= pivot;
        for r in 0..m {
            if r != p {
                let f = a[r][p];
                for c in 0..m {
                    a[r][c] -= f * a[p][c];
                }
                b[r] -= f * b[p];
            }
        }
    }
    b
}

#[test]
fn probe_r2_is_a_held_out_ridge_fit() {
    // An independent reference in the primal form: per fold (positions i mod 5), centre the
    // training rows and positions, solve (X_cᵀX_c + λI)·w = X_cᵀy_c (d × d, Gauss–Jordan) with
    // λ = the mean squared centred training row norm, predict the held-out positions, and score
    // R² over the held-out predictions.
    let mut stream = SplitMix64::new(9);
    for (n, d) in [(30, 3), (12, 8), (40, 16)] {
        let x = ndarray::Array2::from_shape_fn((n, d), |(i, j)| {
            stream.approx_standard_normal() + if j == 0 { 0.1 * i as f64 } else { 0.0 }
        });
        let folds = 5;
        let mut ss_res = 0.0;
        for fold in 0..folds {
            let train: Vec<usize> = (0..n).filter(|i| i % folds != fold).collect();
            let m = train.len() as f64;
            let mean: Vec<f64> = (0..d)
                .map(|c| train.iter().map(|&i| x[[i, c]]).sum::<f64>() / m)
                .collect();
            let y_mean = train.iter().map(|&i| i as f64).sum::<f64>() / m;
            let energy = train
                .iter()
                .map(|&i| (0..d).map(|c| (x[[i, c]] - mean[c]).powi(2)).sum::<f64>())
                .sum::<f64>()
                / m;
            let mut a = vec![vec![0.0; d]; d];
            let mut b = vec![0.0; d];
            for &i in &train {
                for r in 0..d {
                    for c in 0..d {
                        a[r][c] += (x[[i, r]] - mean[r]) * (x[[i, c]] - mean[c]);
                    }
                    b[r] += (x[[i, r]] - mean[r]) * (i as f64 - y_mean);
                }
            }
            for (r, row) in a.iter_mut().enumerate() {
                row[r] += energy;
            }
            let w = gauss_jordan(a, b);
            for i in (0..n).filter(|i| i % folds == fold) {
                let fit = y_mean + (0..d).map(|c| w[c] * (x[[i, c]] - mean[c])).sum::<f64>();
                ss_res += (i as f64 - fit).powi(2);
            }
        }
        let centre = (n - 1) as f64 / 2.0;
        let ss_tot: f64 = (0..n).map(|i| (i as f64 - centre).powi(2)).sum();
        let want = 1.0 - ss_res / ss_tot;
        let got = stacking::probe_r2(x.view());
        assert!(
            (got - want).abs() < 1e-9,
            "n = {n}, d = {d}: {got} vs {want}"
        );
    }
}

// ---------------------------------------------------------------- Shaw et al. and learned tables

#[test]
fn shaw_logits_and_outputs_match_a_direct_computation() {
    let (n, d, clip) = (7, 6, 2);
    let layer = shaw::ShawLayer::new(d, clip, 4).unwrap();
    let mut stream = SplitMix64::new(8);
    let x = ndarray::Array2::from_shape_simple_fn((n, d), || stream.approx_standard_normal());
    let q = x.dot(&layer.wq);
    let k = x.dot(&layer.wk);
    let v = x.dot(&layer.wv);
    let logits = layer.logits(x.view()).unwrap();
    let out = layer.output(x.view(), false).unwrap();
    for i in 0..n {
        // Key vectors with the relative term added first, then one dot product each.
        let mut e = vec![0.0; n];
        for j in 0..n {
            let off = (j as i64 - i as i64).max(-(clip as i64)).min(clip as i64);
            let row = (off + clip as i64) as usize;
            let key: Vec<f64> = (0..d)
                .map(|c| k[[j, c]] + layer.key_table[[row, c]])
                .collect();
            e[j] = (0..d).map(|c| q[[i, c]] * key[c]).sum::<f64>() / (d as f64).sqrt();
            assert!((logits[[i, j]] - e[j]).abs() < 1e-12);
        }
        let z: f64 = e.iter().map(|l| l.exp()).sum();
        for c in 0..d {
            let mut want = 0.0;
            for j in 0..n {
                let off = (j as i64 - i as i64).clamp(-(clip as i64), clip as i64);
                let row = (off + clip as i64) as usize;
                want += e[j].exp() / z * (v[[j, c]] + layer.value_table[[row, c]]);
            }
            assert!((out[[i, c]] - want).abs() < 1e-12);
        }
    }
}

#[test]
fn shaw_logits_of_identical_tokens_depend_on_the_clipped_offset_only() {
    let (n, d, clip) = (9, 4, 3);
    let layer = shaw::ShawLayer::new(d, clip, 5).unwrap();
    let x = ndarray::Array2::from_shape_fn((n, d), |(_, c)| c as f64 - 1.5);
    let e = layer.logits(x.view()).unwrap();
    for i in 0..n {
        for j in 0..n {
            let off = (j as i64 - i as i64).clamp(-3, 3);
            // Same clipped offset, same logit: compare with the first pair that has it.
            let (i0, j0) = if off >= 0 {
                (0, off as usize)
            } else {
                ((-off) as usize, 0)
            };
            assert!((e[[i, j]] - e[[i0, j0]]).abs() < 1e-12);
        }
    }
}

#[test]
fn learned_table_is_seeded_and_bounded() {
    let table = learned::LearnedTable::new(16, 8, 3).unwrap();
    assert_eq!(table, learned::LearnedTable::new(16, 8, 3).unwrap());
    let rows = table.lookup(&[5, 0, 15]).unwrap();
    let all = table.encode(16).unwrap();
    assert_eq!(rows.row(0), all.row(5));
    assert_eq!(rows.row(2), all.row(15));
    assert!(matches!(
        table.lookup(&[16]),
        Err(learned::LearnedError::BeyondTable {
            position: 16,
            max_len: 16
        })
    ));
    let std = (all.iter().map(|v| v * v).sum::<f64>() / all.len() as f64).sqrt();
    assert!((std - learned::INIT_STD).abs() < 0.005, "{std}");
}

// ---------------------------------------------------------------- key numbers at default settings

#[test]
fn print_key_numbers() {
    println!("ALiBi slopes H = 12: {:?}", alibi::slopes(12));
    let layout = t5::BucketLayout::default();
    let b: Vec<usize> = t5::buckets(10, &layout)
        .unwrap()
        .into_iter()
        .map(|p| p.1)
        .collect();
    println!("T5 buckets k = -10..=10: {b:?}");
    println!(
        "T5 first distance in the last bucket: {:?}",
        t5::first_distance_in_last_bucket(&layout)
    );
    println!(
        "NTK base d = 128, s = 4: {}",
        extension::ntk_base(128, 10_000.0, 4.0).unwrap()
    );
    let r = extension::ntk_ratios(128, 4.0).unwrap();
    println!(
        "NTK ratios j = 0, 1, 16, 32, 48, 63: {:?}",
        [r[0], r[1], r[16], r[32], r[48], r[63]]
    );
    let report = stacking::run(&stacking::StackOptions::default()).unwrap();
    println!(
        "rank residuals L = 0..=4: {:?}",
        &report.rank_residuals[..5]
    );
    println!(
        "memory L = 512, d = 64: naive {} skewed {}",
        shaw::naive_relative_memory(512, 64),
        shaw::skewed_relative_memory(512, 64)
    );
}
