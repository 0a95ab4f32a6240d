//! Integration tests of `pe_lab::math::complexity`: the chapter's table (CNN O(knd²), O(1),
//! O(n/k); RNN O(nd²), O(n), O(n); self-attention O(n²d), O(1), O(1)), the crossovers, the
//! figure's "x1 and x5 meet after two layers of kernel 3", the exact CNN layer counts (plain and
//! dilated) against a brute-force receptive-field computation, and the log-spaced lengths.
#![cfg(not(target_arch = "wasm32"))] // native only: proptest

use pe_lab::math::complexity::{
    centred_window, cnn_connecting_cone, cnn_dilated_layers_to_connect, cnn_layers_to_connect,
    cost_curve, crossover_n, crossover_n_cnn, layer_costs, log_spaced_lengths, ComplexityError,
    MAX_CURVE_POINTS,
};
use proptest::prelude::*;

#[test]
fn default_costs_follow_the_chapter_table() {
    let costs = layer_costs(60, 32, 3).unwrap();
    assert_eq!(costs.cnn.operations, 3.0 * 60.0 * 32.0 * 32.0);
    assert_eq!(costs.cnn.sequential_operations, 1.0);
    // ⌈(60 − 1)/(3 − 1)⌉ = 30 stacked layers before one unit sees positions 0 and 59.
    assert_eq!(costs.cnn.max_path_length, 30.0);
    assert_eq!(costs.rnn.operations, 60.0 * 32.0 * 32.0);
    assert_eq!(costs.rnn.sequential_operations, 60.0);
    assert_eq!(costs.rnn.max_path_length, 60.0);
    assert_eq!(costs.self_attention.operations, 60.0 * 60.0 * 32.0);
    assert_eq!(costs.self_attention.sequential_operations, 1.0);
    assert_eq!(costs.self_attention.max_path_length, 1.0);
    // ⌈(n − 1)/(k − 1)⌉ rounds up: 61 positions need 30 layers, 62 need 31.
    assert_eq!(layer_costs(61, 32, 3).unwrap().cnn.max_path_length, 30.0);
    assert_eq!(layer_costs(62, 32, 3).unwrap().cnn.max_path_length, 31.0);
    // The browser test's n = 256, k = 5: ⌈255/4⌉ = 64.
    assert_eq!(layer_costs(256, 128, 5).unwrap().cnn.max_path_length, 64.0);
    // A kernel as wide as the sequence connects everything in one layer.
    assert_eq!(layer_costs(8, 4, 8).unwrap().cnn.max_path_length, 1.0);
    assert_eq!(layer_costs(8, 4, 64).unwrap().cnn.max_path_length, 1.0);
    // Kernel 1 never connects two positions.
    assert_eq!(
        layer_costs(2, 4, 1).unwrap().cnn.max_path_length,
        f64::INFINITY
    );
    // n = 1, d = 1, k = 1 is a valid (tiny) layer: one edge from the input to the output.
    let tiny = layer_costs(1, 1, 1).unwrap();
    assert_eq!(tiny.self_attention.operations, 1.0);
    assert_eq!(tiny.cnn.max_path_length, 1.0);
}

#[test]
fn self_attention_is_cheaper_than_the_rnn_exactly_below_n_equals_d() {
    for d in [1, 8, 32, 512] {
        let n_star = crossover_n(d);
        assert_eq!(n_star, d);
        let at = layer_costs(n_star, d, 3).unwrap();
        assert_eq!(at.self_attention.operations, at.rnn.operations);
        if n_star > 1 {
            let below = layer_costs(n_star - 1, d, 3).unwrap();
            assert!(below.self_attention.operations < below.rnn.operations);
        }
        let above = layer_costs(n_star + 1, d, 3).unwrap();
        assert!(above.self_attention.operations > above.rnn.operations);
    }
    let (d, k) = (32, 3);
    let n_cnn = crossover_n_cnn(d, k);
    assert_eq!(n_cnn, 96);
    let at = layer_costs(n_cnn, d, k).unwrap();
    assert_eq!(at.self_attention.operations, at.cnn.operations);
    assert_eq!(crossover_n_cnn(usize::MAX, 2), usize::MAX);
}

/// Receptive fields by brute force: `field[t]` is the set (a bit mask) of input positions that
/// unit t of the current layer sees. Unit t of a layer reads units t + offset of the layer below
/// for each offset in `taps`, those outside 0 … n−1 being padding (omitted, as in the chapter's
/// figure). Returns the first layer count at which some unit sees both position 0 and position
/// n − 1, or None if none does within n layers.
fn brute_force_layers(n: usize, taps: impl Fn(usize) -> Vec<isize>) -> Option<usize> {
    assert!(n <= 64);
    let ends = 1u64 | (1u64 << (n - 1));
    let mut field: Vec<u64> = (0..n).map(|t| 1u64 << t).collect();
    for layers in 0..=n {
        if field.iter().any(|&f| f & ends == ends) {
            return Some(layers);
        }
        let offsets = taps(layers + 1);
        field = (0..n as isize)
            .map(|t| {
                offsets
                    .iter()
                    .map(|o| t + o)
                    .filter(|s| (0..n as isize).contains(s))
                    .fold(0u64, |acc, s| acc | field[s as usize])
            })
            .collect();
    }
    None
}

/// The k taps of a plain convolution whose window starts `left` positions before the unit
/// (left = 0: a causal window; left = (k − 1)/2: centred, the chapter's picture).
fn plain_taps(k: usize, left: usize) -> Vec<isize> {
    (0..k as isize).map(|j| j - left as isize).collect()
}

#[test]
fn the_figure_needs_two_layers_of_kernel_three() {
    assert_eq!(cnn_layers_to_connect(5, 3), Some(2));
    assert_eq!(
        brute_force_layers(5, |_| plain_taps(3, 1)),
        Some(2),
        "x1 and x5 share a receptive field after two layers of kernel 3"
    );
    assert_eq!(cnn_layers_to_connect(5, 1), None);
    assert_eq!(cnn_layers_to_connect(1, 1), Some(0));
    assert_eq!(cnn_layers_to_connect(0, 0), Some(0));
}

#[test]
fn layers_to_connect_match_brute_force_receptive_fields() {
    for n in 1..=40 {
        for k in 1..=8 {
            let formula = cnn_layers_to_connect(n, k);
            // Any placement of the window (causal, centred, anything between) needs as many layers.
            for left in 0..k {
                assert_eq!(
                    brute_force_layers(n, |_| plain_taps(k, left)),
                    formula,
                    "n={n} k={k} left={left}"
                );
            }
            // And the table's maximum path length is that count (at least one layer).
            let path = layer_costs(n, 8, k).unwrap().cnn.max_path_length;
            match formula {
                Some(layers) => assert_eq!(path, layers.max(1) as f64, "n={n} k={k}"),
                None => assert_eq!(path, f64::INFINITY, "n={n} k={k}"),
            }
        }
    }
}

#[test]
fn the_drawn_cone_is_the_receptive_field_of_one_unit_that_sees_both_ends() {
    assert_eq!(
        cnn_connecting_cone(5, 3),
        Some(vec![(0, 4), (1, 3), (2, 2)])
    );
    assert_eq!(centred_window(3), (1, 1));
    assert_eq!(centred_window(4), (1, 2));
    assert_eq!(centred_window(1), (0, 0));
    assert_eq!(cnn_connecting_cone(5, 1), None);
    assert_eq!(cnn_connecting_cone(0, 3), None);
    assert_eq!(cnn_connecting_cone(1, 1), Some(vec![(0, 0)]));
    for n in 1..=40 {
        for k in 2..=8 {
            let cone = cnn_connecting_cone(n, k).unwrap();
            assert_eq!(cone.len(), cnn_layers_to_connect(n, k).unwrap() + 1);
            assert_eq!(cone[0], (0, n - 1), "n={n} k={k}");
            let (top, top_end) = cone[cone.len() - 1];
            assert_eq!(top, top_end, "one unit at the top, n={n} k={k}");
            // Each layer of the cone is exactly what the layer above reads (clipped to 0 … n−1).
            let (left, right) = centred_window(k);
            for l in 1..cone.len() {
                let (first, last) = cone[l];
                assert_eq!(
                    cone[l - 1],
                    (first.saturating_sub(left), (last + right).min(n - 1)),
                    "n={n} k={k} layer {l}"
                );
            }
        }
    }
}

#[test]
fn dilated_layers_match_brute_force_receptive_fields() {
    for n in 1..=40 {
        for k in 1..=8 {
            // Layer l (from 1) reads k taps spaced k^(l−1) apart, ending at the unit itself.
            let dilated = |layer: usize| -> Vec<isize> {
                let gap = (k as isize).pow(layer as u32 - 1);
                (0..k as isize).map(|j| -j * gap).collect()
            };
            assert_eq!(
                brute_force_layers(n, dilated),
                cnn_dilated_layers_to_connect(n, k),
                "n={n} k={k}"
            );
        }
    }
    // ⌈log_3 60⌉ = 4 (27 < 60 ≤ 81); ⌈log_2 1024⌉ = 10; ⌈log_2 1025⌉ = 11.
    assert_eq!(cnn_dilated_layers_to_connect(60, 3), Some(4));
    assert_eq!(cnn_dilated_layers_to_connect(1024, 2), Some(10));
    assert_eq!(cnn_dilated_layers_to_connect(1025, 2), Some(11));
    assert_eq!(cnn_dilated_layers_to_connect(5, 1), None);
    assert_eq!(cnn_dilated_layers_to_connect(usize::MAX, 64), Some(11));
}

#[test]
fn zero_sizes_are_errors() {
    assert_eq!(layer_costs(0, 32, 3), Err(ComplexityError::ZeroLength));
    assert_eq!(layer_costs(60, 0, 3), Err(ComplexityError::ZeroWidth));
    assert_eq!(layer_costs(60, 32, 0), Err(ComplexityError::ZeroKernel));
    assert_eq!(
        cost_curve(32, 3, &[10, 0]),
        Err(ComplexityError::ZeroLength)
    );
    let too_many = vec![1; MAX_CURVE_POINTS + 1];
    assert!(matches!(
        cost_curve(32, 3, &too_many),
        Err(ComplexityError::TooManyPoints { .. })
    ));
    assert_eq!(cost_curve(32, 3, &[]), Ok(Vec::new()));
}

#[test]
fn cost_curve_is_the_costs_at_each_length() {
    let lengths = log_spaced_lengths(1, 4096, 25);
    let curve = cost_curve(32, 3, &lengths).unwrap();
    assert_eq!(curve.len(), lengths.len());
    for (n, costs) in &curve {
        assert_eq!(*costs, layer_costs(*n, 32, 3).unwrap());
    }
    // On a log–log plot self-attention's slope is 2 and the others' 1.
    let (first, last) = (&curve[0], &curve[curve.len() - 1]);
    let slope = |a: f64, b: f64| (b / a).ln() / ((last.0 as f64) / (first.0 as f64)).ln();
    assert!(
        (slope(
            first.1.self_attention.operations,
            last.1.self_attention.operations
        ) - 2.0)
            .abs()
            < 1e-9
    );
    assert!((slope(first.1.rnn.operations, last.1.rnn.operations) - 1.0).abs() < 1e-9);
}

#[test]
fn log_spaced_lengths_edge_cases() {
    assert_eq!(log_spaced_lengths(1, 1000, 4), [1, 10, 100, 1000]);
    assert_eq!(log_spaced_lengths(1000, 1, 4), [1, 10, 100, 1000]);
    assert_eq!(log_spaced_lengths(0, 100, 3), [1, 10, 100]);
    assert_eq!(log_spaced_lengths(5, 5, 10), [5]);
    assert_eq!(log_spaced_lengths(1, 4, 100), [1, 2, 3, 4]);
    assert!(log_spaced_lengths(1, 100, 0).is_empty());
    assert_eq!(log_spaced_lengths(7, 100, 1), [7]);
    assert!(log_spaced_lengths(1, usize::MAX, usize::MAX).len() <= MAX_CURVE_POINTS);
}

proptest! {
    #[test]
    fn log_spaced_lengths_increase_between_the_ends(from in 0usize..5000, to in 0usize..5000, count in 2usize..200) {
        let lengths = log_spaced_lengths(from, to, count);
        let (low, high) = (from.min(to).max(1), from.max(to).max(1));
        prop_assert_eq!(lengths.first().copied(), Some(low));
        prop_assert_eq!(lengths.last().copied(), Some(high));
        prop_assert!(lengths.windows(2).all(|w| w[0] < w[1]));
        prop_assert!(lengths.len() <= count);
    }
}
