//! The projected self-attention layer (`math::layer`) against an independent float64
//! computation, the offset head's hit rate, and d2l's masked softmax at valid_len = 0.

use ndarray::{s, Array2};
use pe_lab::math::encoding::sinusoidal;
use pe_lab::math::layer::{
    identity, layer, mean_self_weight, offset, offset_hit_rate, random, Projections,
};
use pe_lab::math::rng::SplitMix64;
use pe_lab::math::tokens::{attention_input, tokenize, DEFAULT_SENTENCE};

fn random_matrix(n: usize, d: usize, seed: u64) -> Array2<f32> {
    let mut stream = SplitMix64::new(seed);
    Array2::from_shape_simple_fn((n, d), || stream.approx_standard_normal() as f32)
}

/// softmax(Q_h K_hᵀ/√(d/h)) with keys ≥ valid masked as d2l does, V_h, concatenation and W_o,
/// all in f64 from the f32 inputs. Returns (weights per head, output).
fn reference(
    z: &Array2<f32>,
    p: &Projections,
    heads: usize,
    valid: usize,
) -> (Vec<Array2<f64>>, Array2<f64>) {
    let (n, d) = z.dim();
    let f = |a: &Array2<f32>| a.mapv(f64::from);
    let (z, wq, wk, wv, wo) = (f(z), f(&p.w_q), f(&p.w_k), f(&p.w_v), f(&p.w_o));
    let (q, k, v) = (z.dot(&wq), z.dot(&wk), z.dot(&wv));
    let hd = d / heads;
    let mut all = Vec::new();
    let mut concat = Array2::<f64>::zeros((n, d));
    for h in 0..heads {
        let cols = s![.., h * hd..(h + 1) * hd];
        let mut w = Array2::<f64>::zeros((n, n));
        for i in 0..n {
            let scores: Vec<f64> = (0..n)
                .map(|j| {
                    if j < valid {
                        q.slice(cols).row(i).dot(&k.slice(cols).row(j)) / (hd as f64).sqrt()
                    } else {
                        -1e6
                    }
                })
                .collect();
            let max = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let total: f64 = scores.iter().map(|s| (s - max).exp()).sum();
            for j in 0..n {
                w[[i, j]] = (scores[j] - max).exp() / total;
            }
        }
        concat.slice_mut(cols).assign(&w.dot(&v.slice(cols)));
        all.push(w);
    }
    (all, concat.dot(&wo))
}

#[test]
fn projected_single_and_multi_head_attention_match_float64() {
    for (n, d, heads, valid, seed) in [
        (8, 32, 1, 8, 1u64),
        (8, 100, 5, 3, 2),
        (5, 12, 3, 0, 3),
        (17, 64, 4, 11, 4),
        (1, 6, 2, 1, 5),
    ] {
        let z = random_matrix(n, d, seed + 100);
        let p = random(d, seed);
        let stages = layer(z.view(), &p, heads, Some(valid)).unwrap();
        let (weights, output) = reference(&z, &p, heads, valid);
        assert_eq!(stages.weights.len(), heads);
        for (got, want) in stages.weights.iter().zip(&weights) {
            for (g, w) in got.iter().zip(want) {
                assert!((f64::from(*g) - w).abs() < 2e-6, "n={n} d={d}: {g} vs {w}");
            }
        }
        let scale = output.iter().fold(1.0f64, |m, v| m.max(v.abs()));
        for (g, w) in stages.output.iter().zip(&output) {
            assert!(
                (f64::from(*g) - w).abs() < 1e-5 * scale,
                "n={n} d={d}: {g} vs {w}"
            );
        }
        for w in &stages.weights {
            for (i, row) in w.rows().into_iter().enumerate() {
                let sum: f64 = row.iter().map(|&v| f64::from(v)).sum();
                assert!((sum - 1.0).abs() < 1e-5, "row {i} sums to {sum}");
                if valid > 0 {
                    assert!(row.iter().skip(valid).all(|&v| v == 0.0));
                }
            }
        }
    }
}

#[test]
fn valid_len_zero_gives_uniform_rows_as_d2l_masked_softmax() {
    let z = random_matrix(6, 8, 9);
    let stages = layer(z.view(), &random(8, 1), 2, Some(0)).unwrap();
    for w in &stages.weights {
        assert!(w.iter().all(|&v| (v - 1.0 / 6.0).abs() < 1e-7));
    }
    // The masked scores are d2l's −10⁶.
    assert!(stages.masked_scores[0].iter().all(|&s| s == -1e6));
}

#[test]
fn identity_projections_are_q_equals_k_equals_v_equals_z() {
    let z = random_matrix(5, 16, 4);
    let stages = layer(z.view(), &identity(16), 1, None).unwrap();
    assert_eq!(stages.q, z);
    assert_eq!(stages.k, z);
    assert_eq!(stages.v, z);
}

#[test]
fn the_offset_head_attends_from_i_to_i_plus_delta_on_p_alone() {
    for d in [4, 8, 32, 33, 100, 128] {
        for base in [100.0, 1e4, 1e5] {
            for delta in [-5i64, -1, 1, 2, 7] {
                let n = 40;
                let p = sinusoidal(n, d, base);
                let heads = offset(d, base, delta, 1.0);
                let stages = layer(p.view(), &heads, 1, None).unwrap();
                let rate = offset_hit_rate(stages.weights[0].view(), delta);
                assert_eq!(rate, 1.0, "d={d} base={base} δ={delta}");
                // q_i = β·p_(i+δ) wherever i + δ is a row of P (complete pairs only).
                for i in 0..n {
                    let t = i as i64 + delta;
                    if (0..n as i64).contains(&t) {
                        for c in 0..2 * (d / 2) {
                            let (g, w) = (stages.q[[i, c]], p[[t as usize, c]]);
                            assert!((g - w).abs() < 2e-6, "d={d} i={i} c={c}: {g} vs {w}");
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn random_projections_do_not_make_the_diagonal_dominate() {
    let tokens = tokenize(DEFAULT_SENTENCE);
    for d in [32, 100] {
        let z = attention_input(&tokens, d, 1e4, true, true).unwrap();
        let with_identity = layer(z.view(), &identity(d), 1, None).unwrap();
        let with_random = layer(z.view(), &random(d, 1), 1, None).unwrap();
        let (id, rnd) = (
            mean_self_weight(&with_identity.weights),
            mean_self_weight(&with_random.weights),
        );
        assert!(id > 0.85, "d={d}: identity self-weight {id}");
        assert!(rnd < 0.5, "d={d}: random self-weight {rnd}");
    }
}

#[test]
fn hit_rate_counts_only_queries_with_a_partner_and_ties_miss() {
    let mut w = Array2::<f32>::zeros((3, 3));
    w[[0, 1]] = 1.0;
    w[[1, 2]] = 1.0;
    assert_eq!(offset_hit_rate(w.view(), 1), 1.0);
    w[[1, 0]] = 1.0; // a tie
    assert_eq!(offset_hit_rate(w.view(), 1), 0.5);
    assert!(offset_hit_rate(w.view(), 5).is_nan());
}
