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
    let scale = if span > 0.0 { LUT_LEVELS as f32 / span } else { 0.0 };
    let middle = if span > 0.0 { 0.0 } else { (LUT_LEVELS / 2) as f32 };
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
                assert!((fast[c] as i32 - exact[c] as i32).abs() <= 1, "{v}: {fast:?} vs {exact:?}");
            }
        }
        assert!(px.chunks_exact(4).all(|p| p[3] == 255));
        assert_eq!(distinct_colours(&px), 3);
        let bar = diverging_bar_rgba(5, -1.0, 1.0);
        assert_eq!(&bar[0..3], &DIVERGING_STOPS[8]);
        assert_eq!(&bar[16..19], &DIVERGING_STOPS[0]);
    }
}
