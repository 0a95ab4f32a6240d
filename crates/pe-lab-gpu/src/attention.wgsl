// Masked scaled dot-product attention weights, split into heads:
//   W[b, h, i, key] = softmax over key < valid_lens[b] of scale·(Q[b, i, cols] · K[b, key, cols]),
//   cols = h·head_dim .. (h+1)·head_dim, and exactly 0 for key ≥ valid_lens[b].
// Sequence b's length masks all of its heads. Q (batch, nq, d), K (batch, nk, d) and
// W (batch, heads, nq, nk) are row-major. CPU twin: math::attention (f32 dots from a GEMM, summed
// in another order, so the scores agree within the f32 dot-product bound; max-subtracted exp,
// divide by the sum).
//
// Two entry points, dispatched one after the other in one compute pass:
// - `scores`: the scaled scores into W, the tiled product of tile_core.wgsl (composed by
//   pe_lab_gpu::tile, which writes SIDE, TILE, LANES and Elem from the TileShape that attention.rs
//   dispatches with) per sequence and head: workgroup_id.z = b·heads + h;
// - `softmax`: one workgroup per (query row, head, sequence): the row maximum and the sum of
//   exponentials over the valid keys are tree-reduced, then the row is normalized and masked.

// Mirrors AttentionParams in attention.rs (its layout, 32 bytes, checked by shaders/layout_checks.rs).
struct Params {
    nq: u32,
    nk: u32,
    d: u32,
    heads: u32,
    head_dim: u32,
    scale: f32,
    _pad0: u32,
    _pad1: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
// f32, or vec4<f32> when head_dim % 4 = 0 (then every head's columns start on a vec4).
@group(0) @binding(1) var<storage, read> q: array<Elem>;
@group(0) @binding(2) var<storage, read> k: array<Elem>;
@group(0) @binding(3) var<storage, read> valid_lens: array<u32>;
@group(0) @binding(4) var<storage, read_write> w: array<f32>;

// Q[b, row, h·head_dim + column], slice = b·heads + h.
fn load_a(slice: u32, row: u32, column: u32) -> Elem {
    let b = slice / params.heads;
    let h = slice % params.heads;
    return q[((b * params.nq + row) * params.d + h * params.head_dim + column) / LANES];
}

fn load_b(slice: u32, row: u32, column: u32) -> Elem {
    let b = slice / params.heads;
    let h = slice % params.heads;
    return k[((b * params.nk + row) * params.d + h * params.head_dim + column) / LANES];
}

fn store(slice: u32, i: u32, j: u32, value: f32) {
    w[(slice * params.nq + i) * params.nk + j] = value * params.scale;
}

@compute @workgroup_size(SIDE, SIDE)
fn scores(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(local_invocation_id) local: vec3<u32>,
    @builtin(local_invocation_index) lane: u32,
) {
    let i0 = group.y * TILE;
    let j0 = group.x * TILE;
    tile_product(group.z, i0, j0, params.nq, params.nk, params.head_dim, local, lane);
}

@compute @workgroup_size(REDUCE_LANES)
fn softmax(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(local_invocation_index) lane: u32,
) {
    let i = group.x;
    let h = group.y;
    let b = group.z;
    let nk = params.nk;
    let valid = min(valid_lens[b], nk);
    let row = ((b * params.heads + h) * params.nq + i) * nk;

    softmax_row(row, valid, nk, lane);
}
