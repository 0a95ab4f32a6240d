//! Integration tests of `pe_lab::math::gram` (G = P·Pᵀ) against an independent float64 reference
//! and the closed forms of the chapter: for even d, G[i, j] = Σ_j cos((i − j)·ω_j), so the
//! diagonal is d/2 and every diagonal G[i, i+k] is constant in i.
#![cfg(not(target_arch = "wasm32"))]

mod common;
use common::pseudo_random;

use ndarray::{Array2, ArrayView2};
use pe_lab::math::encoding::sinusoidal;
use pe_lab::math::gram::{dot_products, gram};
use proptest::prelude::*;

fn omega(j: usize, d: usize, base: f64) -> f64 {
    base.powf(-((2 * j) as f64) / d as f64)
}

/// Σ_k P[i,k]·P[j,k] in f64 over the given f32 values.
fn reference(p: ArrayView2<f32>) -> Array2<f64> {
    let n = p.nrows();
    Array2::from_shape_fn((n, n), |(i, j)| {
        p.row(i)
            .iter()
            .zip(p.row(j))
            .map(|(&a, &b)| a as f64 * b as f64)
            .sum()
    })
}

/// p_i · p_j from the definition, in f64: Σ over complete pairs of cos((i−j)ω) plus, for odd d,
/// sin(iω)·sin(jω) of the last (sine-only) frequency.
fn closed_form(i: usize, j: usize, d: usize, base: f64) -> f64 {
    let offset = i as f64 - j as f64;
    let mut g: f64 = (0..d / 2).map(|q| (offset * omega(q, d, base)).cos()).sum();
    if d % 2 == 1 {
        let w = omega(d / 2, d, base);
        g += (i as f64 * w).sin() * (j as f64 * w).sin();
    }
    g
}

/// The classic bound for a d-term dot product summed in f32 in any order (the GEMM blocks the
/// columns and may fuse multiply-adds): γ_d·Σ|a_k·b_k| with γ_d = d·u/(1 − d·u), u = ε/2 = 2⁻²⁴,
/// and Σ|a_k·b_k| ≤ d for entries in [−1, 1].
fn tolerance(d: usize) -> f64 {
    let du = d as f64 * f32::EPSILON as f64 / 2.0;
    du / (1.0 - du) * d as f64
}

fn max_diff(g: &Array2<f32>, r: &Array2<f64>) -> f64 {
    g.iter()
        .zip(r)
        .fold(0.0, |m, (&a, &b)| m.max((a as f64 - b).abs()))
}

#[test]
fn matches_the_float64_reference() {
    for (n, d, base) in [
        (1, 1, 10000.0),
        (5, 3, 250.0),
        (40, 33, 10000.0),
        (65, 64, 10000.0),
        (100, 128, 2.0),
    ] {
        let p = sinusoidal(n, d, base);
        let g = gram(p.view());
        let diff = max_diff(&g, &reference(p.view()));
        assert!(diff <= tolerance(d), "n={n} d={d}: {diff:e}");
        // And the definition (P itself is within 1e-7 of it per entry).
        for i in 0..n {
            for j in 0..n {
                let exact = closed_form(i, j, d, base);
                assert!(
                    (g[[i, j]] as f64 - exact).abs() <= tolerance(d) + d as f64 * 1e-7,
                    "n={n} d={d} ({i},{j}): {} vs {exact}",
                    g[[i, j]]
                );
            }
        }
    }
}

#[test]
fn is_exactly_symmetric() {
    let p = sinusoidal(77, 33, 10000.0);
    let g = gram(p.view());
    assert_eq!(g, g.t());
}

#[test]
fn diagonal_counts_complete_pairs_plus_the_odd_sine() {
    for d in [1usize, 2, 3, 16, 33, 64] {
        let base = 10000.0;
        let p = sinusoidal(50, d, base);
        let g = gram(p.view());
        let w = omega(d / 2, d, base);
        for i in 0..50 {
            let expected = (d / 2) as f64
                + if d % 2 == 1 {
                    (i as f64 * w).sin().powi(2)
                } else {
                    0.0
                };
            assert!(
                (g[[i, i]] as f64 - expected).abs() <= 1e-5,
                "d={d} i={i}: {} vs {expected}",
                g[[i, i]]
            );
        }
    }
}

#[test]
fn diagonals_are_translation_invariant_for_even_d() {
    let (n, d) = (200, 64);
    let g = gram(sinusoidal(n, d, 10000.0).view());
    for k in [1usize, 2, 5, 17, 100] {
        let first = g[[0, k]];
        for i in 0..n - k {
            assert!(
                (g[[i, i + k]] - first).abs() <= 1e-5,
                "k={k} i={i}: {} vs {first}",
                g[[i, i + k]]
            );
        }
    }
}

#[test]
fn forum_numbers_for_d_16() {
    // d2l forum: p_5·p_6 = p_105·p_106 = 7.4852 and p_5·p_10 = 6.1370 (d = 16, base 10⁴).
    let g = gram(sinusoidal(120, 16, 10000.0).view());
    for (i, j, expected) in [(5, 6, 7.4852), (105, 106, 7.4852), (5, 10, 6.1370)] {
        assert!(
            (g[[i, j]] as f64 - expected).abs() < 5e-5,
            "p_{i}·p_{j} = {} (expected {expected})",
            g[[i, j]]
        );
    }
}

#[test]
fn degenerate_shapes() {
    assert_eq!(gram(Array2::<f32>::zeros((0, 4)).view()).dim(), (0, 0));
    assert_eq!(
        gram(Array2::<f32>::zeros((3, 0)).view()),
        Array2::<f32>::zeros((3, 3))
    );
    let one = Array2::from_shape_vec((1, 3), vec![1.0f32, 2.0, 3.0]).expect("1×3");
    assert_eq!(gram(one.view()), Array2::from_elem((1, 1), 14.0));
}

#[test]
fn dot_products_of_two_matrices_use_their_common_columns() {
    let a = sinusoidal(37, 40, 10000.0);
    let b = sinusoidal(70, 33, 250.0);
    let ab = dot_products(a.view(), b.view());
    assert_eq!(ab.dim(), (37, 70));
    let r = Array2::from_shape_fn((37, 70), |(i, j)| {
        (0..33)
            .map(|k| a[[i, k]] as f64 * b[[j, k]] as f64)
            .sum::<f64>()
    });
    assert!(max_diff(&ab, &r) <= tolerance(33));
    assert_eq!(dot_products(a.view(), a.view()), gram(a.view()));
}

#[test]
fn sizes_around_the_symmetric_block_match_the_reference() {
    // The symmetric product runs in blocks of rows and copies its upper triangle down: sizes just
    // below, at and past a block boundary, and several blocks with a short last one.
    for (n, d) in [(255, 9), (256, 9), (257, 9), (520, 17)] {
        let p = pseudo_random((n, d), n as u64);
        let g = gram(p.view());
        let diff = max_diff(&g, &reference(p.view()));
        assert!(diff <= tolerance(d), "n={n} d={d}: {diff:e}");
        assert_eq!(g, g.t(), "n={n}: exactly symmetric");
    }
}

#[test]
fn views_with_any_strides_give_the_same_products() {
    let x = pseudo_random((300, 24), 11);
    let r = reference(x.view());
    // Column-major, every other column, rows reversed (negative stride), rows in steps of 2.
    let column_major = x.t().to_owned();
    let wide = ndarray::concatenate![ndarray::Axis(1), x, x];
    let cases: [(&str, ArrayView2<f32>, Array2<f64>); 4] = [
        ("column-major", column_major.t(), r.clone()),
        ("strided columns", wide.slice(ndarray::s![.., ..;2]), {
            // Columns 0, 2, …, 46 of [x x] are columns 0, 2, …, 22 of x, twice.
            let twice = ndarray::concatenate![
                ndarray::Axis(1),
                x.slice(ndarray::s![.., ..;2]),
                x.slice(ndarray::s![.., ..;2])
            ];
            reference(twice.view())
        }),
        (
            "reversed rows",
            x.slice(ndarray::s![..;-1, ..]),
            r.slice(ndarray::s![..;-1, ..;-1]).to_owned(),
        ),
        (
            "every other row",
            x.slice(ndarray::s![..;2, ..]),
            r.slice(ndarray::s![..;2, ..;2]).to_owned(),
        ),
    ];
    for (what, view, expected) in cases {
        let g = gram(view);
        let diff = max_diff(&g, &expected);
        assert!(diff <= tolerance(view.ncols()), "{what}: {diff:e}");
        assert_eq!(g, g.t(), "{what}: exactly symmetric");
        // A copy is another buffer, so this is the general (not the symmetric) product.
        let general = dot_products(view, view.to_owned().view());
        let diff = max_diff(&general, &expected);
        assert!(diff <= tolerance(view.ncols()), "{what}, general: {diff:e}");
    }
}

#[test]
fn dot_products_never_panic_on_degenerate_shapes() {
    let a = pseudo_random((4, 3), 1);
    let none = Array2::<f32>::zeros((0, 3));
    let no_columns = Array2::<f32>::zeros((5, 0));
    assert_eq!(dot_products(a.view(), none.view()).dim(), (4, 0));
    assert_eq!(dot_products(none.view(), a.view()).dim(), (0, 4));
    assert_eq!(
        dot_products(a.view(), no_columns.view()),
        Array2::<f32>::zeros((4, 5))
    );
    assert_eq!(gram(no_columns.view()), Array2::<f32>::zeros((5, 5)));
}

proptest! {
    #[test]
    fn any_matrix_matches_the_reference(
        (n, d, values) in (1usize..40, 1usize..40).prop_flat_map(|(n, d)| {
            (Just(n), Just(d), proptest::collection::vec(-1.0f32..1.0, n * d))
        })
    ) {
        let p = Array2::from_shape_vec((n, d), values).expect("n·d");
        let g = gram(p.view());
        let diff = max_diff(&g, &reference(p.view()));
        prop_assert!(diff <= tolerance(d), "n={} d={}: {:e}", n, d, diff);
        prop_assert_eq!(&g, &g.t());
    }
}
