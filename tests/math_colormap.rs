//! The fused colour-and-resample path of the CPU heatmap against the two-step one it replaces:
//! the same pixels, bit for bit, for any matrix and any picture size.
#![cfg(not(target_arch = "wasm32"))]

use pe_lab::math::colormap::{
    diverging_resampled_rgba, diverging_rgba, resample_rgba, value_range,
};
use proptest::prelude::*;

fn two_step(
    values: &[f32],
    width: usize,
    height: usize,
    out_width: usize,
    out_height: usize,
) -> (Vec<u8>, usize, usize) {
    let cells = diverging_rgba(values, -1.0, 1.0);
    resample_rgba(&cells, (width, height), (out_width, out_height))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn fused_equals_colour_then_resample(
        width in 1usize..70,
        height in 1usize..70,
        out_width in 0usize..90,
        out_height in 0usize..90,
        seed in any::<u64>(),
    ) {
        // Values beyond ±1 (clamped) and NaN (grey) included.
        let mut state = seed | 1;
        let values: Vec<f32> = (0..width * height)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                match state % 50 {
                    0 => f32::NAN,
                    k => (k as f32 - 25.0) / 20.0,
                }
            })
            .collect();
        prop_assert_eq!(
            diverging_resampled_rgba(&values, (width, height), (-1.0, 1.0), (out_width, out_height)),
            two_step(&values, width, height, out_width, out_height)
        );
    }
}

#[test]
fn the_largest_view_and_a_thumbnail_of_it_match_the_two_step_pixels() {
    // n = 2048, d = 1024 on a laptop-sized heatmap, and on a 1 × 1 picture, where 2 million cells
    // fall in one pixel (past what the packed sums hold: the fused path takes the long way).
    let (width, height) = (1024, 2048);
    let values: Vec<f32> = (0..width * height)
        .map(|k| ((k as f32) * 0.001).sin())
        .collect();
    for (out_width, out_height) in [(611, 402), (1, 1), (1024, 2048), (3000, 5)] {
        assert_eq!(
            diverging_resampled_rgba(
                &values,
                (width, height),
                (-1.0, 1.0),
                (out_width, out_height)
            ),
            two_step(&values, width, height, out_width, out_height),
            "{out_width} × {out_height}"
        );
    }
}

#[test]
fn bad_shapes_give_a_blank_picture_of_the_asked_size() {
    let (pixels, w, h) = diverging_resampled_rgba(&[0.5, 0.5], (3, 2), (-1.0, 1.0), (4, 0));
    assert_eq!((w, h, pixels.len()), (4, 1, 16));
    assert!(pixels.iter().all(|&b| b == 255));
    // An empty range colours everything with the middle of the map, as `diverging_rgba` does.
    let values = [0.3f32; 12];
    assert_eq!(
        diverging_resampled_rgba(&values, (4, 3), (2.0, 2.0), (2, 2)),
        resample_rgba(&diverging_rgba(&values, 2.0, 2.0), (4, 3), (2, 2))
    );
}

proptest! {
    #[test]
    fn value_range_is_the_fold_of_min_and_max(values in prop::collection::vec(
        prop_oneof![9 => -1e6f32..1e6, 1 => Just(f32::NAN), 1 => Just(f32::INFINITY)], 0..70)) {
        let expected = values.iter().fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), &v| (lo.min(v), hi.max(v)));
        prop_assert_eq!(value_range(&values), expected);
    }
}
