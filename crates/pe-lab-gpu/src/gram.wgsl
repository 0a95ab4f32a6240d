// The Gram matrix G = P·Pᵀ (n × n) of P (n × d, row-major): G[i, j] = Σ_k P[i, k]·P[j, k].
//
// The tiled product of tile_core.wgsl with A = B = P (composed by pe_lab_gpu::tile, which writes
// SIDE, TILE, LANES and Elem from the TileShape that gram.rs dispatches with). Each entry is summed
// k = 0, 1, …, d−1 in order. The CPU twin math::gram::gram is a blocked GEMM that sums in another
// order, so the two agree within the f32 dot-product bound, not bit for bit.
//
// G is symmetric, so only the tiles on and above the diagonal are computed (half the work of a
// general product), each entry stored at (i, j) and (j, i). The two sums are the same products in
// the same order (a·b = b·a exactly in IEEE arithmetic), so G comes out exactly symmetric.

// Mirrors GramParams in gram.rs (its layout checked by shaders/layout_checks.rs).
struct Params {
    n: u32,
    d: u32,
    _pad0: u32,
    _pad1: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
// f32, or vec4<f32> when d % 4 = 0 (then every row starts on a vec4).
@group(0) @binding(1) var<storage, read> p: array<Elem>;
@group(0) @binding(2) var<storage, read_write> g: array<f32>;

fn load_a(slice: u32, row: u32, column: u32) -> Elem {
    return p[(row * params.d + column) / LANES];
}

fn load_b(slice: u32, row: u32, column: u32) -> Elem {
    return p[(row * params.d + column) / LANES];
}

fn store(slice: u32, i: u32, j: u32, value: f32) {
    g[i * params.n + j] = value;
    g[j * params.n + i] = value;
}

@compute @workgroup_size(SIDE, SIDE)
fn main(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(local_invocation_id) local: vec3<u32>,
    @builtin(local_invocation_index) lane: u32,
) {
    // Tiles below the diagonal are the mirror of tiles above it. The whole workgroup returns
    // together, so the barriers of tile_product stay in uniform control flow.
    if (group.y > group.x) {
        return;
    }
    let n = params.n;
    tile_product(0u, group.y * TILE, group.x * TILE, n, n, params.d, local, lane);
}
