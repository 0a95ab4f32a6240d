// Draws a row-major matrix of f32 cells (a storage buffer) as a heatmap image, straight from the
// buffer the compute kernels wrote: no read-back. One fragment per output pixel.
//
// Must look like the CPU path (crates/pe-lab-math/src/colormap.rs: `diverging_rgba` (colormap 0) or
// `sequential_rgba` (colormap 1, viridis) then `downsample_rgba`, then
// a nearest-neighbour enlargement by the canvas): each output pixel shows the average colour of
// the cells it covers when the image is shrunk, and the one cell under its centre when enlarged.

struct Params {
    rows: u32,
    columns: u32,
    out_width: u32,
    out_height: u32,
    low: f32,
    high: f32,
    colormap: u32,
    _pad: u32,
};

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> cells: array<f32>;

// DIVERGING and VIRIDIS (the stops, in 0..255 units), DIVERGING_SEGMENTS and VIRIDIS_SEGMENTS
// (stops − 1) and VIRIDIS_MAP (`Colormap::Viridis`) come before this file, written by heatmap.rs
// from the CPU twin's tables (pe_lab_math::colormap): the stops are written once.

// A full-screen triangle: no vertex buffer.
@vertex
fn vs_main(@builtin(vertex_index) index: u32) -> @builtin(position) vec4<f32> {
    let x = f32((index << 1u) & 2u) * 2.0 - 1.0;
    let y = f32(index & 2u) * 2.0 - 1.0;
    return vec4<f32>(x, y, 0.0, 1.0);
}

// Colour in 0..255 units, like the CPU's u8 stops: the diverging map (colormap 0) or viridis
// (colormap 1), interpolated between stops as `interpolate` in colormap.rs does.
fn colour(value: f32) -> vec3<f32> {
    // NaN by its bits: shader compilers may fold `value != value` to false.
    if ((bitcast<u32>(value) & 0x7fffffffu) > 0x7f800000u) {
        return vec3<f32>(128.0);
    }
    let span = params.high - params.low;
    var t = 0.5;
    if (span > 0.0) {
        t = clamp((value - params.low) / span, 0.0, 1.0);
    }
    if (params.colormap == VIRIDIS_MAP) {
        let x = t * f32(VIRIDIS_SEGMENTS);
        let k = min(u32(floor(x)), VIRIDIS_SEGMENTS - 1u);
        let f = x - f32(k);
        return round(mix(VIRIDIS[k], VIRIDIS[k + 1u], f));
    }
    let x = t * f32(DIVERGING_SEGMENTS);
    let k = min(u32(floor(x)), DIVERGING_SEGMENTS - 1u);
    let f = x - f32(k);
    return round(mix(DIVERGING[k], DIVERGING[k + 1u], f));
}

// The source cells [start, end) that output pixel `p` (of `out` pixels) covers along an axis of
// `size` cells. Shrinking: the same spans as `downsample_rgba`; enlarging: the cell under the centre.
fn cover(p: u32, size: u32, out: u32) -> vec2<u32> {
    if (out >= size) {
        let cell = min(u32((f32(p) + 0.5) * f32(size) / f32(out)), size - 1u);
        return vec2<u32>(cell, cell + 1u);
    }
    let start = p * size / out;
    let end = max((p + 1u) * size / out, start + 1u);
    return vec2<u32>(start, end);
}

@fragment
fn fs_main(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {
    let px = u32(position.x);
    let py = u32(position.y);
    let xs = cover(px, params.columns, params.out_width);
    let ys = cover(py, params.rows, params.out_height);
    var sum = vec3<f32>(0.0);
    for (var y = ys.x; y < ys.y; y = y + 1u) {
        for (var x = xs.x; x < xs.y; x = x + 1u) {
            sum = sum + colour(cells[y * params.columns + x]);
        }
    }
    let count = f32((ys.y - ys.x) * (xs.y - xs.x));
    return vec4<f32>(round(sum / count) / 255.0, 1.0);
}
