// RoPE attention scores S (n × n, row-major) of Q and K (n × d, row-major):
//   S[i, j] = (R_i q_i) · (R_j k_j) · scale,  scale = f32(1/√d),
// the second of the kernel's two passes (rope_scores.rs records both in one compute pass):
// `scores` (shared/square_scores.wgsl), rq·rkᵀ·scale of the rows that rope_rotate.wgsl rotated
// into rq and rk, the tiled product of tile_core.wgsl (composed by pe_lab_gpu::tile, which writes
// SIDE, TILE, LANES and Elem from the TileShape that rope_scores.rs dispatches with).

// Every tile of the scores pass (shared/square_scores.wgsl) is computed: RoPE's scores are not
// causal.
const CAUSAL: bool = false;

// Params and binding 0: shared/rope_params.wgsl.
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
