//! Integration tests of `pe_lab::math::heads`: the forum's `valid_lens` bug. The (batch·heads)
//! layout of d2l's `transpose_qkv` is rebuilt here from its reshape/transpose steps, so that the
//! correct order ([1, 2] → [1, 1, 2, 2]) is derived rather than assumed; `multi_head_weights` is
//! compared with a per-head computation using `attention::weights`, and the tiled order is shown
//! to change the chapter's example (batch 2, valid_lens [3, 2], 5 heads).
#![cfg(not(target_arch = "wasm32"))] // native only: proptest

use ndarray::{s, Array3};
use pe_lab::math::attention::{multi_head_weights, weights, AttentionError};
use pe_lab::math::heads::{
    compare_valid_len_orders, head_valid_lens, multi_head_weights_with_flat_lens, per_sequence,
    repeat_valid_lens, tile_valid_lens, tiled_head_valid_lens, HeadsError, MAX_HEAD_MAPS,
};
use proptest::prelude::*;

/// The sequence each slice of `transpose_qkv`'s output comes from. transpose_qkv reshapes
/// (batch, n, d) → (batch, n, heads, d/heads), permutes to (batch, heads, n, d/heads) and merges
/// the first two axes: flat slice f holds (b, h) = (f / heads, f % heads) in row-major order.
/// Computed here by tracking element indices through the steps on the forum's arange(24) example.
fn sequence_of_each_slice(batch: usize, n: usize, d: usize, heads: usize) -> Vec<usize> {
    let head_dim = d / heads;
    // element value = its flat index in the (batch, n, d) input, as np.arange.
    let input = Array3::from_shape_fn((batch, n, d), |(b, i, c)| b * n * d + i * d + c);
    let split = input
        .into_shape_with_order((batch, n, heads, head_dim))
        .unwrap();
    let permuted = split.permuted_axes([0, 2, 1, 3]);
    let owned = permuted.as_standard_layout().to_owned();
    let merged = owned
        .into_shape_with_order((batch * heads, n, head_dim))
        .unwrap();
    (0..batch * heads)
        .map(|f| merged[[f, 0, 0]] / (n * d))
        .collect()
}

#[test]
fn the_forum_example_layout_is_1_1_2_2() {
    // batch 2, seq_len 3, num_hiddens 4, heads 2: slices come from sequences [0, 0, 1, 1].
    let owners = sequence_of_each_slice(2, 3, 4, 2);
    assert_eq!(owners, [0, 0, 1, 1]);
    let valid_lens = [1, 2];
    let aligned: Vec<usize> = owners.iter().map(|&b| valid_lens[b]).collect();
    assert_eq!(repeat_valid_lens(&valid_lens, 2).unwrap(), aligned);
    assert_eq!(repeat_valid_lens(&valid_lens, 2).unwrap(), [1, 1, 2, 2]);
    assert_eq!(tile_valid_lens(&valid_lens, 2).unwrap(), [1, 2, 1, 2]);
    assert_ne!(tile_valid_lens(&valid_lens, 2).unwrap(), aligned);
}

#[test]
fn per_sequence_tables_for_the_chapter_example() {
    assert_eq!(
        head_valid_lens(&[3, 2], 5).unwrap(),
        [[3, 3, 3, 3, 3], [2, 2, 2, 2, 2]]
    );
    assert_eq!(
        tiled_head_valid_lens(&[3, 2], 5).unwrap(),
        [[3, 2, 3, 2, 3], [2, 3, 2, 3, 2]]
    );
    assert_eq!(per_sequence(&[1, 2, 3, 4], 2).unwrap(), [[1, 2], [3, 4]]);
    assert_eq!(
        per_sequence(&[1, 2, 3], 2),
        Err(HeadsError::FlatLength {
            expected: 4,
            got: 3
        })
    );
}

#[test]
fn multi_head_weights_use_the_repeated_order() {
    // A non-constant input so that every head has different weights.
    let (batch, n, d, heads) = (3, 5, 12, 3);
    let x = Array3::from_shape_fn((batch, n, d), |(b, i, c)| {
        ((b * 31 + i * 7 + c * 3) as f32 * 0.41).sin()
    });
    let valid_lens = [5, 2, 4];
    let library = multi_head_weights(x.view(), heads, &valid_lens).unwrap();
    let repeated = repeat_valid_lens(&valid_lens, heads).unwrap();
    let flat = multi_head_weights_with_flat_lens(x.view(), heads, &repeated).unwrap();
    assert_eq!(library, flat);
    let head_dim = d / heads;
    for b in 0..batch {
        for h in 0..heads {
            let q = x.slice(s![b, .., h * head_dim..(h + 1) * head_dim]);
            let expected = weights(q, q, Some(valid_lens[b]));
            assert_eq!(library.slice(s![b, h, .., ..]), expected, "b={b} h={h}");
            // Masked keys get exactly 0.
            for i in 0..n {
                for j in valid_lens[b]..n {
                    assert_eq!(library[[b, h, i, j]], 0.0);
                }
            }
        }
    }
    let tiled = tile_valid_lens(&valid_lens, heads).unwrap();
    let buggy = multi_head_weights_with_flat_lens(x.view(), heads, &tiled).unwrap();
    assert_ne!(library, buggy);
}

#[test]
fn tiling_changes_the_chapter_example() {
    // X = ones(batch 2, 4 queries, 100 hiddens), 5 heads, valid_lens [3, 2]: every score is equal,
    // so a head sees uniform weights 1/valid over its valid keys.
    let x = Array3::<f32>::ones((2, 4, 100));
    let comparison = compare_valid_len_orders(x.view(), 5, &[3, 2]).unwrap();
    assert_eq!(comparison.wrong_heads, [(0, 1), (0, 3), (1, 1), (1, 3)]);
    // Key 2 of sequence 0, head 1: 1/3 with the right length, 0 with the tiled length 2.
    assert!((comparison.max_weight_difference - 1.0 / 3.0).abs() < 1e-6);
    let correct = multi_head_weights(x.view(), 5, &[3, 2]).unwrap();
    assert!((correct[[0, 1, 0, 2]] - 1.0 / 3.0).abs() < 1e-6);
    assert!((correct[[1, 1, 0, 1]] - 0.5).abs() < 1e-6);
}

#[test]
fn equal_lengths_or_one_sequence_hide_the_bug() {
    let x = Array3::from_shape_fn((2, 4, 8), |(b, i, c)| (b + i * c) as f32 * 0.1);
    let same = compare_valid_len_orders(x.view(), 4, &[3, 3]).unwrap();
    assert!(same.wrong_heads.is_empty());
    assert_eq!(same.max_weight_difference, 0.0);
    let single = compare_valid_len_orders(x.slice(s![0..1, .., ..]), 4, &[2]).unwrap();
    assert!(single.wrong_heads.is_empty());
    assert_eq!(single.max_weight_difference, 0.0);
}

#[test]
fn bad_layouts_are_errors() {
    assert_eq!(repeat_valid_lens(&[1, 2], 0), Err(HeadsError::ZeroHeads));
    assert_eq!(tile_valid_lens(&[1, 2], 0), Err(HeadsError::ZeroHeads));
    assert_eq!(per_sequence(&[1], 0), Err(HeadsError::ZeroHeads));
    assert!(matches!(
        repeat_valid_lens(&[1, 2], MAX_HEAD_MAPS),
        Err(HeadsError::TooLarge { .. })
    ));
    assert_eq!(repeat_valid_lens(&[], 3), Ok(Vec::new()));
    let x = Array3::<f32>::ones((2, 4, 10));
    assert_eq!(
        multi_head_weights_with_flat_lens(x.view(), 3, &[1; 6]),
        Err(HeadsError::Attention(AttentionError::HeadsDoNotDivide {
            d: 10,
            heads: 3
        }))
    );
    assert_eq!(
        multi_head_weights_with_flat_lens(x.view(), 2, &[1; 3]),
        Err(HeadsError::FlatLength {
            expected: 4,
            got: 3
        })
    );
    assert!(matches!(
        compare_valid_len_orders(x.view(), 2, &[1]),
        Err(HeadsError::Attention(
            AttentionError::ValidLensLength { .. }
        ))
    ));
}

proptest! {
    #[test]
    fn repeat_matches_the_transpose_layout_and_tile_cycles(
        valid_lens in proptest::collection::vec(0usize..10, 1..6),
        heads in 1usize..6,
        n in 1usize..4,
        head_dim in 1usize..3,
    ) {
        let batch = valid_lens.len();
        let owners = sequence_of_each_slice(batch, n, heads * head_dim, heads);
        let repeated = repeat_valid_lens(&valid_lens, heads).unwrap();
        let aligned: Vec<usize> = owners.iter().map(|&b| valid_lens[b]).collect();
        prop_assert_eq!(&repeated, &aligned);
        let tiled = tile_valid_lens(&valid_lens, heads).unwrap();
        prop_assert_eq!(tiled.len(), batch * heads);
        for (f, &length) in tiled.iter().enumerate() {
            prop_assert_eq!(length, valid_lens[f % batch]);
        }
        for row in head_valid_lens(&valid_lens, heads).unwrap().iter().zip(&valid_lens) {
            prop_assert!(row.0.iter().all(|l| l == row.1));
        }
    }
}
