//! Integration tests of `pe_lab::math::complexity`: the chapter's table (CNN O(knd²), O(1),
//! O(n/k); RNN O(nd²), O(n), O(n); self-attention O(n²d), O(1), O(1)), the crossovers, the
//! figure's "x1 and x5 meet after two layers of kernel 3" checked by simulating receptive fields,
//! and the log-spaced lengths of the plot.
#![cfg(not(target_arch = "wasm32"))] // native only: proptest

use pe_lab::math::complexity::{
    cnn_layers_to_connect, cost_curve, crossover_n, crossover_n_cnn, layer_costs,
    log_spaced_lengths, ComplexityError, MAX_CURVE_POINTS,
};
use proptest::prelude::*;

#[test]
fn default_costs_follow_the_chapter_table() {
    let costs = layer_costs(60, 32, 3).unwrap();
    assert_eq!(costs.cnn.operations, 3.0 * 60.0 * 32.0 * 32.0);
    assert_eq!(costs.cnn.sequential_operations, 1.0);
    assert_eq!(costs.cnn.max_path_length, 20.0);
    assert_eq!(costs.rnn.operations, 60.0 * 32.0 * 32.0);
    assert_eq!(costs.rnn.sequential_operations, 60.0);
    assert_eq!(costs.rnn.max_path_length, 60.0);
    assert_eq!(costs.self_attention.operations, 60.0 * 60.0 * 32.0);
    assert_eq!(costs.self_attention.sequential_operations, 1.0);
    assert_eq!(costs.self_attention.max_path_length, 1.0);
    // ⌈n/k⌉ rounds up.
    assert_eq!(layer_costs(61, 32, 3).unwrap().cnn.max_path_length, 21.0);
    // n = 1, d = 1, k = 1 is a valid (tiny) layer.
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

/// Layers of kernel k until position n−1 is in the receptive field of position 0, by growing the
/// field one layer at a time: a unit at layer l sees the inputs its k inputs at layer l−1 see.
fn simulated_layers(n: usize, k: usize) -> Option<usize> {
    let mut reach = 0usize; // the farthest input one unit sees, counted from itself
    for layers in 0..=n {
        if reach >= n - 1 {
            return Some(layers);
        }
        reach += k - 1;
    }
    None
}

#[test]
fn the_figure_needs_two_layers_of_kernel_three() {
    assert_eq!(cnn_layers_to_connect(5, 3), Some(2));
    for n in 1..40 {
        for k in 2..7 {
            assert_eq!(
                cnn_layers_to_connect(n, k),
                simulated_layers(n, k),
                "n={n} k={k}"
            );
        }
    }
    assert_eq!(cnn_layers_to_connect(5, 1), None);
    assert_eq!(cnn_layers_to_connect(1, 1), Some(0));
    assert_eq!(cnn_layers_to_connect(0, 0), Some(0));
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
