//! How each position family enters the attention layer (`enc`), against independent computations:
//! RoPE's layer scores against the rotary twin, ALiBi's against the causal ALiBi twin, T5's bias
//! against its bucket table, and permutation equivariance: kept without a position, broken by
//! every family that has one.

use ndarray::{s, Array2};
use pe_lab::math::alibi::causal_weights_f32;
use pe_lab::math::attention::score_scale;
use pe_lab::math::layer::{identity, layer_positioned, random};
use pe_lab::math::order::permute_rows;
use pe_lab::math::position::{Encoding, PositionScheme};
use pe_lab::math::rng::SplitMix64;
use pe_lab::math::rope::scores_f32;
use pe_lab::math::t5::{bucket, BucketLayout};

fn input(n: usize, d: usize, seed: u64) -> Array2<f32> {
    let mut stream = SplitMix64::new(seed);
    Array2::from_shape_simple_fn((n, d), || stream.approx_standard_normal() as f32)
}

fn max_difference(a: &Array2<f32>, b: &Array2<f32>) -> f32 {
    a.iter()
        .zip(b.iter())
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f32::max)
}

#[test]
fn rope_layer_scores_are_the_rotary_scores() {
    let (n, d) = (24, 16);
    let z = input(n, d, 3);
    let scheme = PositionScheme::new(Encoding::Rope, 10_000.0, 1);
    let stages = layer_positioned(z.view(), &identity(d), 1, None, &scheme).unwrap();
    // The twin scales by 1/√d itself.
    let twin = scores_f32(z.view(), z.view(), 10_000.0).unwrap();
    let worst = max_difference(&stages.scores[0], &twin);
    // Two float32 computations of d-term dot products of unit-size entries: a few ulps of ~√d.
    assert!(worst < 1e-5, "{worst}");
    // And they are not the scores without rotation.
    let plain = z.dot(&z.t()) * score_scale(d);
    assert!(max_difference(&stages.scores[0], &plain) > 0.1);
}

#[test]
fn alibi_layer_weights_are_the_causal_alibi_weights() {
    let (n, d) = (20, 8);
    let z = input(n, d, 5);
    let scheme = PositionScheme::new(Encoding::Alibi, 10_000.0, 1);
    let stages = layer_positioned(z.view(), &identity(d), 1, None, &scheme).unwrap();
    let twin = causal_weights_f32(z.view(), z.view(), scheme.alibi_slope(0) as f32);
    assert!(max_difference(&stages.weights[0], &twin) < 1e-6);
    for (i, row) in stages.weights[0].rows().into_iter().enumerate() {
        let sum: f32 = row.iter().sum();
        assert!((sum - 1.0).abs() < 1e-5);
        assert!(row.slice(s![i + 1..]).iter().all(|&w| w == 0.0), "row {i}");
    }
    // Two heads of a layer use the first two slopes of the `aheads` model: 1/2 and 1/4.
    assert_eq!((scheme.alibi_slope(0), scheme.alibi_slope(1)), (0.5, 0.25));
}

#[test]
fn t5_bias_is_the_bucket_table() {
    let scheme = PositionScheme::new(Encoding::T5, 10_000.0, 9);
    let n = 40;
    let q = Array2::<f32>::zeros((n, 4));
    for h in 0..3 {
        let bias = scheme.score_bias(h, q.view()).unwrap().unwrap();
        let table = scheme.t5_bias_table(h);
        for i in 0..n {
            for j in 0..n {
                let b = bucket(j as i64 - i as i64, &BucketLayout::default()).unwrap();
                assert_eq!(bias[[i, j]], table[b]);
            }
        }
    }
    assert_ne!(
        scheme.t5_bias_table(0),
        scheme.t5_bias_table(1),
        "one table per head"
    );
}

#[test]
fn only_the_layer_without_a_position_is_permutation_equivariant() {
    let (n, d) = (9, 16);
    let z = input(n, d, 11);
    let projections = random(d, 2);
    let permutation = [3, 0, 8, 1, 2, 7, 4, 6, 5];
    let moved = permute_rows(z.view(), &permutation).unwrap();
    for encoding in [
        Encoding::None,
        Encoding::Rope,
        Encoding::Alibi,
        Encoding::T5,
        Encoding::Shaw,
    ] {
        let scheme = PositionScheme::new(encoding, 10_000.0, 4);
        let y = layer_positioned(z.view(), &projections, 2, None, &scheme)
            .unwrap()
            .output;
        let y_of_moved = layer_positioned(moved.view(), &projections, 2, None, &scheme)
            .unwrap()
            .output;
        let gap = max_difference(&y_of_moved, &permute_rows(y.view(), &permutation).unwrap());
        if encoding == Encoding::None {
            assert!(gap < 1e-5, "{encoding:?}: {gap}");
        } else {
            assert!(gap > 1e-3, "{encoding:?}: {gap}");
        }
    }
}

#[test]
fn positions_past_a_short_learned_table_get_nothing_added() {
    // A table of 5 rows and a sentence of 6: rows 0…4 get E[0…4], row 5 has no row and gets
    // nothing (the page states this rule); a shifted sentence takes the table's rows from its
    // first position on.
    let mut scheme = PositionScheme::new(Encoding::Learned, 10_000.0, 1);
    scheme.learned_max = 5;
    let original = input(6, 4, 1);
    let mut z = original.clone();
    scheme.add_to_input(&mut z).unwrap();
    let table = pe_lab::math::learned::LearnedTable::new(5, 4, 1)
        .unwrap()
        .encode(5)
        .unwrap();
    for i in 0..5 {
        for c in 0..4 {
            assert_eq!(
                z[[i, c]],
                original[[i, c]] + table[[i, c]] as f32,
                "row {i}"
            );
        }
    }
    assert_eq!(z.row(5), original.row(5));
    let mut shifted = original.clone();
    scheme.first_position = 3;
    scheme.add_to_input(&mut shifted).unwrap();
    for c in 0..4 {
        assert_eq!(shifted[[0, c]], original[[0, c]] + table[[3, c]] as f32);
        assert_eq!(shifted[[1, c]], original[[1, c]] + table[[4, c]] as f32);
    }
    assert_eq!(shifted.row(2), original.row(2));
    scheme.first_position = 9;
    let mut beyond = original.clone();
    scheme.add_to_input(&mut beyond).unwrap();
    assert_eq!(beyond, original);
}
