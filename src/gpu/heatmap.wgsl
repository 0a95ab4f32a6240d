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

// Keep in sync with crates/pe-lab-math/src/colormap.rs DIVERGING_STOPS (ColorBrewer RdBu, reversed).
var<private> DIVERGING: array<vec3<f32>, 9> = array<vec3<f32>, 9>(
    vec3<f32>(33.0, 102.0, 172.0),
    vec3<f32>(67.0, 147.0, 195.0),
    vec3<f32>(146.0, 197.0, 222.0),
    vec3<f32>(209.0, 229.0, 240.0),
    vec3<f32>(247.0, 247.0, 247.0),
    vec3<f32>(253.0, 219.0, 199.0),
    vec3<f32>(244.0, 165.0, 130.0),
    vec3<f32>(214.0, 96.0, 77.0),
    vec3<f32>(178.0, 24.0, 43.0),
);

// Keep in sync with crates/pe-lab-math/src/colormap.rs VIRIDIS_STOPS (the attention weights' map).
var<private> VIRIDIS: array<vec3<f32>, 10> = array<vec3<f32>, 10>(
    vec3<f32>(68.0, 1.0, 84.0),
    vec3<f32>(72.0, 40.0, 120.0),
    vec3<f32>(62.0, 73.0, 137.0),
    vec3<f32>(49.0, 104.0, 142.0),
    vec3<f32>(38.0, 130.0, 142.0),
    vec3<f32>(31.0, 158.0, 137.0),
    vec3<f32>(53.0, 183.0, 121.0),
    vec3<f32>(110.0, 206.0, 88.0),
    vec3<f32>(181.0, 222.0, 43.0),
    vec3<f32>(253.0, 231.0, 37.0),
);

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
    if (params.colormap == 1u) {
        let x = t * 9.0;
        let k = min(u32(floor(x)), 8u);
        let f = x - f32(k);
        return round(mix(VIRIDIS[k], VIRIDIS[k + 1u], f));
    }
    let x = t * 8.0;
    let k = min(u32(floor(x)), 7u);
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
