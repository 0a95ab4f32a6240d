//! Colour maps for heatmaps, as pure functions from values to RGBA pixels (the web layer only paints).
//!
//! Keep in sync: when a GPU fragment shader draws the same heatmaps, its colour stops must equal
//! [`DIVERGING_STOPS`].

/// A diverging blue–white–red map (ColorBrewer RdBu, reversed so that −1 is blue and +1 is red):
/// readable by students with red–green colour blindness, and symmetric around 0 so that the sign of
/// a sine or cosine is visible at a glance.
pub const DIVERGING_STOPS: [[u8; 3]; 9] = [
    [33, 102, 172],
    [67, 147, 195],
    [146, 197, 222],
    [209, 229, 240],
    [247, 247, 247],
    [253, 219, 199],
    [244, 165, 130],
    [214, 96, 77],
    [178, 24, 43],
];

/// Colour of `value` on the diverging map over `[low, high]` (values outside are clamped; NaN is grey).
pub fn diverging(value: f32, low: f32, high: f32) -> [u8; 3] {
    if value.is_nan() {
        return [128, 128, 128];
    }
    let span = high - low;
    let t = if span > 0.0 {
        ((value - low) / span).clamp(0.0, 1.0)
    } else {
        0.5
    };
    interpolate(&DIVERGING_STOPS, t)
}

fn interpolate(stops: &[[u8; 3]], t: f32) -> [u8; 3] {
    let last = stops.len() - 1;
    let x = t * last as f32;
    let k = (x.floor() as usize).min(last - 1);
    let f = x - k as f32;
    let (a, b) = (stops[k], stops[k + 1]);
    let mix = |i: usize| (a[i] as f32 + (b[i] as f32 - a[i] as f32) * f).round() as u8;
    [mix(0), mix(1), mix(2)]
}

/// Steps of the lookup table used for whole images: 1/1024 of the range is below what an eye
/// (or an 8-bit colour channel, given the map's ~150-level ramps) can tell apart.
const LUT_LEVELS: usize = 1024;

/// RGBA pixels (row-major, one pixel per value, opaque) of `values` coloured on the diverging map
/// over `[low, high]`. Uses a lookup table of [`LUT_LEVELS`] steps: at 2 million cells this is the
/// difference between a live slider and a stuttering one.
pub fn diverging_rgba(values: &[f32], low: f32, high: f32) -> Vec<u8> {
    let table: Vec<[u8; 4]> = (0..=LUT_LEVELS)
        .map(|k| {
            let [r, g, b] = interpolate(&DIVERGING_STOPS, k as f32 / LUT_LEVELS as f32);
            [r, g, b, 255]
        })
        .collect();
    let span = high - low;
    let scale = if span > 0.0 {
        LUT_LEVELS as f32 / span
    } else {
        0.0
    };
    let middle = if span > 0.0 {
        0.0
    } else {
        (LUT_LEVELS / 2) as f32
    };
    let mut pixels = vec![0u8; values.len() * 4];
    for (pixel, &v) in pixels.chunks_exact_mut(4).zip(values) {
        let colour = if v.is_nan() {
            [128, 128, 128, 255]
        } else {
            // `as usize` saturates: below `low` gives 0; the `min` caps values above `high`.
            let index = ((v - low) * scale + middle + 0.5) as usize;
            table[index.min(LUT_LEVELS)]
        };
        pixel.copy_from_slice(&colour);
    }
    pixels
}

/// Shrinks an RGBA image to `out_width × out_height` by averaging the colours of the source pixels
/// each output pixel covers (area averaging). A browser's bilinear downscale samples only a few
/// source pixels per output pixel, which turns the fast columns of a 2048-row encoding into moiré
/// rings that are not in the data; the average shows them as the mixed colour they are.
/// Images that already fit are returned unchanged.
pub fn downsample_rgba(
    pixels: &[u8],
    width: usize,
    height: usize,
    out_width: usize,
    out_height: usize,
) -> (Vec<u8>, usize, usize) {
    let out_width = out_width.clamp(1, width.max(1));
    let out_height = out_height.clamp(1, height.max(1));
    if (out_width == width && out_height == height) || pixels.len() != width * height * 4 {
        return (pixels.to_vec(), width, height);
    }
    // Source ranges per output row/column: [k·size/out, (k+1)·size/out), never empty.
    let span = |k: usize, size: usize, out: usize| {
        let start = k * size / out;
        let end = ((k + 1) * size / out).max(start + 1);
        start..end
    };
    let mut out = vec![0u8; out_width * out_height * 4];
    let mut sums = vec![[0u32; 4]; out_width];
    for oy in 0..out_height {
        sums.iter_mut().for_each(|s| *s = [0; 4]);
        let rows = span(oy, height, out_height);
        let row_count = rows.len() as u32;
        for y in rows {
            let row = &pixels[y * width * 4..(y + 1) * width * 4];
            for (ox, sum) in sums.iter_mut().enumerate() {
                for x in span(ox, width, out_width) {
                    for c in 0..4 {
                        sum[c] += row[x * 4 + c] as u32;
                    }
                }
            }
        }
        for (ox, sum) in sums.iter().enumerate() {
            let count = row_count * span(ox, width, out_width).len() as u32;
            for c in 0..4 {
                out[(oy * out_width + ox) * 4 + c] = ((sum[c] + count / 2) / count) as u8;
            }
        }
    }
    (out, out_width, out_height)
}

/// A vertical colour bar `height` pixels tall and one pixel wide, `high` at the top.
pub fn diverging_bar_rgba(height: usize, low: f32, high: f32) -> Vec<u8> {
    let values: Vec<f32> = (0..height)
        .map(|y| {
            let t = if height > 1 {
                y as f32 / (height - 1) as f32
            } else {
                0.5
            };
            high - t * (high - low)
        })
        .collect();
    diverging_rgba(&values, low, high)
}

/// Number of distinct colours in an RGBA buffer (used by tests to tell a drawn image from a blank one).
pub fn distinct_colours(rgba: &[u8]) -> usize {
    let mut seen: Vec<[u8; 3]> = rgba.chunks_exact(4).map(|p| [p[0], p[1], p[2]]).collect();
    seen.sort_unstable();
    seen.dedup();
    seen.len()
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn downsampling_averages_the_covered_pixels() {
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
        let (out, w, h) = downsample_rgba(&px, 4, 2, 2, 2);
        assert_eq!((w, h), (2, 2));
        assert!(out.chunks_exact(4).all(|p| p == [128, 128, 128, 255]));
        // Already small enough: unchanged (never enlarged).
        let (same, w, h) = downsample_rgba(&px, 4, 2, 10, 10);
        assert_eq!((same, w, h), (px.clone(), 4, 2));
        // Uneven ratio: 3 rows into 2 covers rows {0} and {1, 2}.
        let col: Vec<u8> = [0u8, 90, 210]
            .iter()
            .flat_map(|&v| [v, v, v, 255])
            .collect();
        let (out, _, _) = downsample_rgba(&col, 1, 3, 1, 2);
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
}
