// RoPE attention scores S (n × n, row-major) of Q and K (n × d, row-major):
//   S[i, j] = (R_i q_i) · (R_j k_j) · scale,  scale = f32(1/√d),
// the second of the kernel's two passes (rope_scores.rs records both in one compute pass):
// `scores`, rq·rkᵀ·scale of the rows that rope_rotate.wgsl rotated into rq and rk, the tiled
// product of tile_core.wgsl (composed by pe_lab_gpu::tile, which writes SIDE, TILE, LANES and Elem
// from the TileShape that rope_scores.rs dispatches with).

// Mirrors RopeParams in rope_scores.rs and Params in rope_rotate.wgsl (its layout,
// 16 bytes, checked by shaders/layout_checks.rs).
struct Params {
    n: u32,
    d: u32,
    // ⌈d/2⌉: the pairs, the last one a lone unrotated column when d is odd.
    pairs: u32,
    scale: f32,
}

@group(0) @binding(0) var<uniform> params: Params;
// Bindings 1–3 (Q, K, θ) are read by the rotation pass only. rq and rk keep the layout's
// read_write access; this pass only reads them, as f32 or, when d % 4 = 0, as vec4<f32>.
@group(0) @binding(4) var<storage, read_write> rq: array<Elem>;
@group(0) @binding(5) var<storage, read_write> rk: array<Elem>;
@group(0) @binding(6) var<storage, read_write> s: array<f32>;

fn load_a(slice: u32, row: u32, column: u32) -> Elem {
    return rq[(row * params.d + column) / LANES];
}

fn load_b(slice: u32, row: u32, column: u32) -> Elem {
    return rk[(row * params.d + column) / LANES];
}

fn store(slice: u32, i: u32, j: u32, value: f32) {
    s[i * params.n + j] = value * params.scale;
}

@compute @workgroup_size(SIDE, SIDE)
fn scores(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(local_invocation_id) local: vec3<u32>,
    @builtin(local_invocation_index) lane: u32,
) {
    let n = params.n;
    tile_product(0u, group.y * TILE, group.x * TILE, n, n, params.d, local, lane);
}
