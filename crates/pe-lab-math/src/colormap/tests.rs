//! Tests of the colour maps: the stops and ends of the diverging and viridis maps, the lookup
//! table against the exact map, resampling (shrinking averages, growing takes the centre cell), and the hatching of masked cells.

use super::*;

#[test]
fn resampling_averages_when_shrinking_and_takes_the_centre_cell_when_growing() {
    // 3 × 2 cells of distinct colours.
    let px: Vec<u8> = (0..6u8)
        .flat_map(|k| [k * 40, 255 - k * 40, k, 255])
        .collect();
    // Growing 3 → 7 across: cells 0,0,1,1,1,2,2 (centres (2p+1)·3/14).
    let (wide, w, h) = resample_rgba(&px, (3, 2), (7, 2));
    assert_eq!((w, h), (7, 2));
    let cells: Vec<u8> = wide.chunks_exact(4).take(7).map(|p| p[2]).collect();
    assert_eq!(cells, [0, 0, 1, 1, 1, 2, 2]);
    // A centre exactly on a boundary goes to the later cell, as on the GPU: 60 rows on 530
    // pixels, pixel 26's centre 26.5·60/530 = 3.
    let column: Vec<u8> = (0..60u8).flat_map(|k| [k, k, k, 255]).collect();
    let (tall, _, _) = resample_rgba(&column, (1, 60), (1, 530));
    assert_eq!(tall[26 * 4], 3);
    assert_eq!(tall[25 * 4], 2);
    // Bad input: a blank image of the asked size, never a panic.
    assert_eq!(resample_rgba(&[1, 2], (3, 2), (4, 0)).0.len(), 16);
}

#[test]
fn ends_and_middle_of_the_diverging_map() {
    assert_eq!(diverging(-1.0, -1.0, 1.0), DIVERGING_STOPS[0]);
    assert_eq!(diverging(1.0, -1.0, 1.0), DIVERGING_STOPS[8]);
    assert_eq!(diverging(0.0, -1.0, 1.0), DIVERGING_STOPS[4]);
    // Clamped outside the range, grey for NaN, middle for an empty range.
    assert_eq!(diverging(-7.0, -1.0, 1.0), DIVERGING_STOPS[0]);
    assert_eq!(diverging(f32::NAN, -1.0, 1.0), [128, 128, 128]);
    assert_eq!(diverging(3.0, 3.0, 3.0), DIVERGING_STOPS[4]);
}

#[test]
fn interpolation_is_between_neighbouring_stops() {
    let c = diverging(-0.875, -1.0, 1.0); // halfway between stop 0 and stop 1
    assert_eq!(c, [50, 125, 184]);
}

#[test]
fn shrinking_averages_the_covered_pixels() {
    // 4×2 image: columns alternate black and white; halve the width, keep the height.
    let px: Vec<u8> = (0..8)
        .flat_map(|k| {
            if k % 2 == 0 {
                [0, 0, 0, 255]
            } else {
                [255, 255, 255, 255]
            }
        })
        .collect();
    let (out, w, h) = resample_rgba(&px, (4, 2), (2, 2));
    assert_eq!((w, h), (2, 2));
    assert!(out.chunks_exact(4).all(|p| p == [128, 128, 128, 255]));
    // Uneven ratio: 3 rows into 2 covers rows {0} and {1, 2}.
    let col: Vec<u8> = [0u8, 90, 210]
        .iter()
        .flat_map(|&v| [v, v, v, 255])
        .collect();
    let (out, _, _) = resample_rgba(&col, (1, 3), (1, 2));
    assert_eq!(&out, &[0, 0, 0, 255, 150, 150, 150, 255]);
}

#[test]
fn rgba_buffers_have_one_opaque_pixel_per_value() {
    let px = diverging_rgba(&[-1.0, 0.0, 1.0], -1.0, 1.0);
    assert_eq!(px.len(), 12);
    assert_eq!(&px[0..3], &DIVERGING_STOPS[0]);
    assert_eq!(&px[4..7], &DIVERGING_STOPS[4]);
    assert_eq!(&px[8..11], &DIVERGING_STOPS[8]);
    // Clamped, NaN grey, and within one table step of the exact map everywhere.
    let edge = diverging_rgba(&[-5.0, 5.0, f32::NAN], -1.0, 1.0);
    assert_eq!(&edge[0..3], &DIVERGING_STOPS[0]);
    assert_eq!(&edge[4..7], &DIVERGING_STOPS[8]);
    assert_eq!(&edge[8..11], &[128, 128, 128]);
    for k in 0..=200 {
        let v = -1.0 + k as f32 / 100.0;
        let fast = diverging_rgba(&[v], -1.0, 1.0);
        let exact = diverging(v, -1.0, 1.0);
        for c in 0..3 {
            assert!(
                (fast[c] as i32 - exact[c] as i32).abs() <= 1,
                "{v}: {fast:?} vs {exact:?}"
            );
        }
    }
    assert!(px.chunks_exact(4).all(|p| p[3] == 255));
    assert_eq!(distinct_colours(&px), 3);
    let bar = diverging_bar_rgba(5, -1.0, 1.0);
    assert_eq!(&bar[0..3], &DIVERGING_STOPS[8]);
    assert_eq!(&bar[16..19], &DIVERGING_STOPS[0]);
}

#[test]
fn viridis_ends_and_rises_in_luminance() {
    assert_eq!(sequential(0.0, 0.0, 1.0), [68, 1, 84]);
    assert_eq!(sequential(1.0, 0.0, 1.0), [253, 231, 37]);
    assert_eq!(sequential(-3.0, 0.0, 1.0), VIRIDIS_STOPS[0]);
    assert_eq!(sequential(f32::NAN, 0.0, 1.0), [128, 128, 128]);
    // Monotone luminance along the whole map (perceptually ordered): strictly at every stop and
    // at every 1/90; sampled finely it may dip by one 8-bit rounding step, never more.
    for pair in VIRIDIS_STOPS.windows(2) {
        assert!(relative_luminance(pair[1]) > relative_luminance(pair[0]));
    }
    let mut previous = -1.0;
    for k in 0..=90 {
        let l = relative_luminance(sequential(k as f32 / 90.0, 0.0, 1.0));
        assert!(l > previous, "luminance falls at t = {}", k as f32 / 90.0);
        previous = l;
    }
    let mut previous = -1.0;
    for k in 0..=900 {
        let l = relative_luminance(sequential(k as f32 / 900.0, 0.0, 1.0));
        assert!(
            l > previous - 1e-3,
            "luminance falls at t = {}",
            k as f32 / 900.0
        );
        previous = l;
    }
    assert!(relative_luminance(VIRIDIS_STOPS[9]) > 30.0 * relative_luminance(VIRIDIS_STOPS[0]));
    let bar = sequential_bar_rgba(4, 0.0, 1.0);
    assert_eq!(&bar[0..3], &VIRIDIS_STOPS[9]);
    assert_eq!(&bar[12..15], &VIRIDIS_STOPS[0]);
    assert_eq!(sequential_rgba(&[0.5], 0.0, 1.0).len(), 4);
}

#[test]
fn masked_cells_are_hatched_in_colours_not_on_the_map() {
    // Every colour of the map (sampled finely) is far from both masking greys.
    for k in 0..=1000 {
        let c = sequential(k as f32 / 1000.0, 0.0, 1.0);
        for grey in [MASKED_LIGHT, MASKED_DARK] {
            let distance: i32 = (0..3).map(|i| (c[i] as i32 - grey[i] as i32).abs()).sum();
            assert!(distance > 60, "{c:?} is too close to {grey:?}");
        }
    }
    // 2 × 3 weights, the last column masked, 6 px per cell.
    let values = [0.0, 0.5, 0.0, 1.0, 0.25, 0.0];
    let (px, w, h) = weights_image(&values, 2, 3, 6, |_, c| c == 2);
    assert_eq!((w, h, px.len()), (18, 12, 18 * 12 * 4));
    let at = |x: usize, y: usize| {
        [
            px[(y * w + x) * 4],
            px[(y * w + x) * 4 + 1],
            px[(y * w + x) * 4 + 2],
        ]
    };
    assert_eq!(at(0, 0), sequential(0.0, 0.0, 1.0));
    assert_eq!(at(7, 0), sequential(0.5, 0.0, 1.0));
    assert_eq!(at(5, 11), sequential(1.0, 0.0, 1.0));
    // The masked column holds both greys and nothing else.
    let mut seen = Vec::new();
    for y in 0..h {
        for x in 12..18 {
            let c = at(x, y);
            assert!(c == MASKED_LIGHT || c == MASKED_DARK, "{c:?}");
            if !seen.contains(&c) {
                seen.push(c);
            }
        }
    }
    assert_eq!(seen.len(), 2);
    assert!(px.chunks_exact(4).all(|p| p[3] == 255));
    // Out-of-range cell sizes are clamped; missing values are grey.
    let (_, w, _) = weights_image(&[], 1, 1, 0, |_, _| false);
    assert_eq!(w, 1);
    let (px, _, _) = weights_image(&[], 1, 1, 1, |_, _| false);
    assert_eq!(&px[0..3], &[128, 128, 128]);
}
