//! Colour maps for heatmaps, as pure functions from values to RGBA pixels (the web layer only paints).
//!
//! The stops are written here only: the GPU's heatmap shader (pe-lab-gpu, heatmap.rs) is given
//! them from these tables.

/// A diverging blue–white–red map (ColorBrewer RdBu, reversed so that −1 is blue and +1 is red):
/// readable by students with red–green colour blindness, and symmetric around 0 so that the sign of
/// a sine or cosine is visible at a glance.
#[rustfmt::skip] // a table of stops, five to a line
pub const DIVERGING_STOPS: [[u8; 3]; 9] = [
    [33, 102, 172], [67, 147, 195], [146, 197, 222], [209, 229, 240], [247, 247, 247],
    [253, 219, 199], [244, 165, 130], [214, 96, 77], [178, 24, 43],
];

/// Colour of `value` on the diverging map over `[low, high]` (values outside are clamped; NaN is grey).
pub fn diverging(value: f32, low: f32, high: f32) -> [u8; 3] {
    on_stops(&DIVERGING_STOPS, value, low, high)
}

/// Colour of `value` on the map of `stops` over `[low, high]` (clamped; NaN is mid grey; a range
/// of no width puts every value at the middle of the map).
fn on_stops(stops: &[[u8; 3]], value: f32, low: f32, high: f32) -> [u8; 3] {
    if value.is_nan() {
        return [128, 128, 128];
    }
    let span = high - low;
    let t = if span > 0.0 {
        ((value - low) / span).clamp(0.0, 1.0)
    } else {
        0.5
    };
    interpolate(stops, t)
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

/// The diverging map as a lookup table over `[low, high]`, shared by the whole-image functions:
/// `LUT_LEVELS + 1` colours, then grey for NaN at [`DivergingTable::NAN_SLOT`].
struct DivergingTable {
    colours: Vec<[u8; 4]>,
    low: f32,
    scale: f32,
    middle: f32,
}

impl DivergingTable {
    const NAN_SLOT: u32 = LUT_LEVELS as u32 + 1;

    fn new(low: f32, high: f32) -> Self {
        let colours = (0..=LUT_LEVELS)
            .map(|k| {
                let [r, g, b] = interpolate(&DIVERGING_STOPS, k as f32 / LUT_LEVELS as f32);
                [r, g, b, 255]
            })
            .chain([[128, 128, 128, 255]])
            .collect();
        let span = high - low;
        let (scale, middle) = if span > 0.0 {
            (LUT_LEVELS as f32 / span, 0.0)
        } else {
            (0.0, (LUT_LEVELS / 2) as f32)
        };
        DivergingTable {
            colours,
            low,
            scale,
            middle,
        }
    }

    /// The slot of `v`: branch-free, so that a loop over a row vectorises (NaN selects its slot;
    /// `as u32` saturates below `low`, the `min` caps values above `high`).
    #[inline]
    fn index(&self, v: f32) -> u32 {
        let at = ((v - self.low) * self.scale + self.middle + 0.5) as u32;
        if v.is_nan() {
            Self::NAN_SLOT
        } else {
            at.min(LUT_LEVELS as u32)
        }
    }

    #[inline]
    fn colour(&self, v: f32) -> [u8; 4] {
        self.colours[self.index(v) as usize]
    }
}

/// RGBA pixels (row-major, one pixel per value, opaque) of `values` coloured on the diverging map
/// over `[low, high]`. Uses a lookup table of [`LUT_LEVELS`] steps: at 2 million cells this is the
/// difference between a live slider and a stuttering one.
pub fn diverging_rgba(values: &[f32], low: f32, high: f32) -> Vec<u8> {
    let table = DivergingTable::new(low, high);
    let mut pixels = vec![0u8; values.len() * 4];
    for (pixel, &v) in pixels.chunks_exact_mut(4).zip(values) {
        pixel.copy_from_slice(&table.colour(v));
    }
    pixels
}

/// Bits per channel when [`diverging_resampled_rgba`] sums R, G and B in one `u64`: 21 bits hold
/// the sum of up to 8,224 channel values of 255.
const PACKED_CHANNEL_BITS: u32 = 21;
const PACKED_MAX_CELLS: usize = ((1 << PACKED_CHANNEL_BITS) - 1) / 255;

/// Exactly `resample_rgba(&diverging_rgba(values, low, high), (width, height), (out_width,
/// out_height))`, without the full-size image between them: each cell's colour is looked up and
/// summed straight into its output pixel. At n = 2048, d = 1024 this skips writing and reading
/// 8 MB per frame, which is what kept a dragged slider above one 60 Hz frame on the CPU path.
pub fn diverging_resampled_rgba(
    values: &[f32],
    (width, height): (usize, usize),
    (low, high): (f32, f32),
    (out_width, out_height): (usize, usize),
) -> (Vec<u8>, usize, usize) {
    let (out_width, out_height) = (out_width.max(1), out_height.max(1));
    let (xs, ys) = (
        resample_spans(width, out_width),
        resample_spans(height, out_height),
    );
    let widest = |spans: &[std::ops::Range<usize>]| spans.iter().map(|r| r.len()).max();
    let cells_per_pixel = widest(&xs).unwrap_or(0) * widest(&ys).unwrap_or(0);
    if width == 0 || height == 0 || values.len() != width * height {
        return (vec![255; out_width * out_height * 4], out_width, out_height);
    }
    if cells_per_pixel > PACKED_MAX_CELLS {
        // A tiny picture of a huge matrix: the packed sums could overflow, so take the long way.
        let cells = diverging_rgba(values, low, high);
        return resample_rgba(&cells, (width, height), (out_width, out_height));
    }
    let table = DivergingTable::new(low, high);
    let pack = |[r, g, b, _]: [u8; 4]| {
        u64::from(r)
            | u64::from(g) << PACKED_CHANNEL_BITS
            | u64::from(b) << (2 * PACKED_CHANNEL_BITS)
    };
    let packed: Vec<u64> = table.colours.iter().map(|&c| pack(c)).collect();
    let mask = (1u64 << PACKED_CHANNEL_BITS) - 1;
    let mut out = vec![0u8; out_width * out_height * 4];
    // Per output row: each column's sum over the rows the pixel covers, then the columns' sums
    // over the columns it covers. The inner loops run straight along a row.
    let mut column_sums = vec![0u64; width];
    let mut indices = vec![0u16; width];
    for (oy, rows) in ys.iter().enumerate() {
        column_sums.fill(0);
        for y in rows.clone() {
            // The table indices first, in a loop the compiler vectorises, then the look-ups.
            for (index, &v) in indices.iter_mut().zip(&values[y * width..(y + 1) * width]) {
                *index = table.index(v) as u16;
            }
            for (sum, &k) in column_sums.iter_mut().zip(&indices) {
                *sum += packed[usize::from(k)];
            }
        }
        let line = &mut out[oy * out_width * 4..(oy + 1) * out_width * 4];
        for (pixel, columns) in line.chunks_exact_mut(4).zip(&xs) {
            let sum: u64 = column_sums[columns.clone()].iter().sum();
            let count = (rows.len() * columns.len()) as u64;
            for (c, channel) in pixel[..3].iter_mut().enumerate() {
                let total = (sum >> (c as u32 * PACKED_CHANNEL_BITS)) & mask;
                *channel = ((total + count / 2) / count) as u8;
            }
            pixel[3] = 255;
        }
    }
    (out, out_width, out_height)
}

/// The smallest and largest of `values`, NaN skipped (`(∞, −∞)` when there is no number):
/// `f32::min` in a fold, but in eight lanes of plain comparisons the compiler vectorises; at
/// 2 million values that is a millisecond of a 16 ms frame.
pub fn value_range(values: &[f32]) -> (f32, f32) {
    const LANES: usize = 8;
    let (mut low, mut high) = ([f32::INFINITY; LANES], [f32::NEG_INFINITY; LANES]);
    let chunks = values.chunks_exact(LANES);
    let rest = chunks.remainder();
    for chunk in chunks {
        for k in 0..LANES {
            // A comparison with NaN is false: NaN never replaces a bound.
            if chunk[k] < low[k] {
                low[k] = chunk[k];
            }
            if chunk[k] > high[k] {
                high[k] = chunk[k];
            }
        }
    }
    let fold = |init: f32, lanes: &[f32], pick: fn(f32, f32) -> f32| {
        lanes.iter().chain(rest).fold(init, |acc, &v| pick(acc, v))
    };
    (
        fold(f32::INFINITY, &low, f32::min),
        fold(f32::NEG_INFINITY, &high, f32::max),
    )
}

/// For each of `out` pixels along an axis of `size` cells, the cells it takes: area-averaged
/// spans when shrinking, the cell under the pixel's centre when growing (see [`resample_rgba`]).
fn resample_spans(size: usize, out: usize) -> Vec<std::ops::Range<usize>> {
    (0..out)
        .map(|k| {
            if size == 0 {
                0..0
            } else if out >= size {
                let cell = ((2 * k + 1) * size / (2 * out)).min(size - 1);
                cell..cell + 1
            } else {
                let start = k * size / out;
                start..((k + 1) * size / out).max(start + 1)
            }
        })
        .collect()
}

/// Resamples an RGBA image to exactly `out_width × out_height` (at least 1 × 1): an axis that
/// shrinks is area-averaged (the colours of the source pixels each output pixel covers: a
/// browser's bilinear downscale samples only a few, which turns the fast columns of a 2048-row
/// encoding into moiré rings that are not in the data); an axis that grows takes, for output pixel
/// p, the cell under its centre, ⌊(2p + 1)·size / (2·out)⌋, the rule of the WebGPU heatmap pass
/// (pe-lab-gpu's heatmap.wgsl, `cover`; its
/// tests/gpu_heatmap.rs holds the two to the same pixels). Drawing this image one pixel per device pixel
/// gives the CPU path the GPU's pixels exactly, where a browser's own nearest-neighbour scaling
/// breaks ties between two cells its own way.
pub fn resample_rgba(
    pixels: &[u8],
    (width, height): (usize, usize),
    (out_width, out_height): (usize, usize),
) -> (Vec<u8>, usize, usize) {
    let (out_width, out_height) = (out_width.max(1), out_height.max(1));
    if width == 0 || height == 0 || pixels.len() != width * height * 4 {
        return (vec![255; out_width * out_height * 4], out_width, out_height);
    }
    let (xs, ys) = (
        resample_spans(width, out_width),
        resample_spans(height, out_height),
    );
    let mut out = vec![0u8; out_width * out_height * 4];
    for (oy, rows) in ys.iter().enumerate() {
        let line = &mut out[oy * out_width * 4..(oy + 1) * out_width * 4];
        for (pixel, columns) in line.chunks_exact_mut(4).zip(&xs) {
            if rows.len() == 1 && columns.len() == 1 {
                let at = (rows.start * width + columns.start) * 4;
                pixel.copy_from_slice(&pixels[at..at + 4]);
                continue;
            }
            let mut sum = [0u32; 4];
            for y in rows.clone() {
                for x in columns.clone() {
                    let at = (y * width + x) * 4;
                    for c in 0..4 {
                        sum[c] += u32::from(pixels[at + c]);
                    }
                }
            }
            let count = (rows.len() * columns.len()) as u32;
            for c in 0..4 {
                pixel[c] = ((sum[c] + count / 2) / count) as u8;
            }
        }
    }
    (out, out_width, out_height)
}

/// The values a vertical colour bar `height` pixels tall shows, `high` at the top, `low` at the
/// bottom (the middle of the range for a bar one pixel tall).
fn bar_values(height: usize, low: f32, high: f32) -> Vec<f32> {
    (0..height)
        .map(|y| {
            let t = if height > 1 {
                y as f32 / (height - 1) as f32
            } else {
                0.5
            };
            high - t * (high - low)
        })
        .collect()
}

/// A vertical colour bar `height` pixels tall and one pixel wide, `high` at the top.
pub fn diverging_bar_rgba(height: usize, low: f32, high: f32) -> Vec<u8> {
    diverging_rgba(&bar_values(height, low, high), low, high)
}

/// The part `shown_low`…`high` of the diverging map from `low` to `high`, as a colour bar
/// (`high` at the top): white to red for 0…limit of the map −limit…limit.
pub fn diverging_part_bar_rgba(height: usize, shown_low: f32, low: f32, high: f32) -> Vec<u8> {
    diverging_rgba(&bar_values(height, shown_low, high), low, high)
}

/// viridis (van der Walt and Smith, matplotlib's default), ten stops at t = k/9: perceptually
/// uniform, luminance increasing from dark purple to yellow, readable in grey and with the common
/// colour-vision deficiencies. The sequential map of the attention weights, which lie in [0, 1].
#[rustfmt::skip] // a table of stops, five to a line
pub const VIRIDIS_STOPS: [[u8; 3]; 10] = [
    [68, 1, 84], [72, 40, 120], [62, 73, 137], [49, 104, 142], [38, 130, 142],
    [31, 158, 137], [53, 183, 121], [110, 206, 88], [181, 222, 43], [253, 231, 37],
];

/// Masked cells (attention weight exactly 0 because the key is beyond valid_len) are hatched in
/// these two greys: neither is on [`VIRIDIS_STOPS`], whose colours are all strongly saturated.
pub const MASKED_LIGHT: [u8; 3] = [226, 226, 226];
pub const MASKED_DARK: [u8; 3] = [150, 150, 150];

/// Colour of `value` on viridis over `[low, high]` (clamped; NaN is mid grey).
pub fn sequential(value: f32, low: f32, high: f32) -> [u8; 3] {
    on_stops(&VIRIDIS_STOPS, value, low, high)
}

/// RGBA pixels (one per value, opaque) on viridis over `[low, high]`.
pub fn sequential_rgba(values: &[f32], low: f32, high: f32) -> Vec<u8> {
    values
        .iter()
        .flat_map(|&v| {
            let [r, g, b] = sequential(v, low, high);
            [r, g, b, 255]
        })
        .collect()
}

/// A vertical viridis bar `height` pixels tall and one wide, `high` at the top.
pub fn sequential_bar_rgba(height: usize, low: f32, high: f32) -> Vec<u8> {
    sequential_rgba(&bar_values(height, low, high), low, high)
}

/// An image of a `rows × columns` matrix of weights in [0, 1] with `cell_px × cell_px` pixels per
/// cell: viridis, except the cells for which `masked(row, column)` holds, which are hatched with
/// [`MASKED_LIGHT`] and [`MASKED_DARK`] diagonal stripes (continuous across cells). Returns the
/// pixels and the image's width and height. `cell_px` is clamped to 1…32; `values` shorter than
/// rows·columns leave the remaining cells grey.
pub fn weights_image(
    values: &[f32],
    rows: usize,
    columns: usize,
    cell_px: usize,
    masked: impl Fn(usize, usize) -> bool,
) -> (Vec<u8>, usize, usize) {
    let cell_px = cell_px.clamp(1, 32);
    let (width, height) = (columns * cell_px, rows * cell_px);
    let mut pixels = vec![0u8; width * height * 4];
    for (index, pixel) in pixels.chunks_exact_mut(4).enumerate() {
        let (x, y) = (index % width, index / width);
        let (row, column) = (y / cell_px, x / cell_px);
        let colour = if masked(row, column) {
            if (x + y) % 6 < 2 {
                MASKED_DARK
            } else {
                MASKED_LIGHT
            }
        } else {
            values
                .get(row * columns + column)
                .map_or([128, 128, 128], |&v| sequential(v, 0.0, 1.0))
        };
        pixel.copy_from_slice(&[colour[0], colour[1], colour[2], 255]);
    }
    (pixels, width, height)
}

/// Relative luminance (WCAG, sRGB) of a colour: 0 for black, 1 for white.
pub fn relative_luminance([r, g, b]: [u8; 3]) -> f64 {
    let linear = |c: u8| {
        let c = f64::from(c) / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
}

/// Number of distinct colours in an RGBA buffer (used by tests to tell a drawn image from a blank one).
pub fn distinct_colours(rgba: &[u8]) -> usize {
    let mut seen: Vec<[u8; 3]> = rgba.chunks_exact(4).map(|p| [p[0], p[1], p[2]]).collect();
    seen.sort_unstable();
    seen.dedup();
    seen.len()
}

#[cfg(test)]
mod tests;
