// Masked scaled dot-product attention weights, split into heads:
//   W[b, h, i, key] = softmax over key < valid_lens[b] of scale·(Q[b, i, cols] · K[b, key, cols]),
//   cols = h·head_dim .. (h+1)·head_dim, and exactly 0 for key ≥ valid_lens[b].
// Sequence b's length masks all of its heads. Q (batch, nq, d), K (batch, nk, d) and
// W (batch, heads, nq, nk) are row-major. CPU twin: math::attention (f32 dots from a GEMM, summed
// in another order, so the scores agree within the f32 dot-product bound; max-subtracted exp,
// divide by the sum).
//
// Two entry points, dispatched one after the other in one compute pass:
// - `scores`: the scaled scores into W, tiled exactly like the Gram kernel (gram.wgsl: 16 × 16
//   invocations, each an 8 × 8 block of a 128 × 128 tile, strips of Q and K staged TILE_K columns
//   at a time), per sequence and head: workgroup_id.z = b·heads + h;
// - `softmax`: one workgroup per (query row, head, sequence): the row maximum and the sum of
//   exponentials over the valid keys are tree-reduced, then the row is normalized and masked.

// Keep in sync with ATTENTION_WORKGROUP_SIDE in attention.rs.
const SIDE: u32 = 16u;
// Scores per invocation along each side.
const BLOCK: u32 = 8u;
// SIDE·BLOCK. Keep in sync with ATTENTION_TILE in attention.rs.
const TILE: u32 = 128u;
// Columns of Q and K per stage. Keep in sync with ATTENTION_TILE_K in attention.rs.
const TILE_K: u32 = 8u;
// Keep in sync with ATTENTION_SOFTMAX_WORKGROUP in attention.rs (a power of two).
const SOFTMAX_WORKGROUP: u32 = 64u;

// Mirrors AttentionParams in attention.rs (keep in sync: field order, 32 bytes).
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
@group(0) @binding(1) var<storage, read> q: array<f32>;
@group(0) @binding(2) var<storage, read> k: array<f32>;
@group(0) @binding(3) var<storage, read> valid_lens: array<u32>;
@group(0) @binding(4) var<storage, read_write> w: array<f32>;

// strip_q[c][r] = Q[b, i0 + r, column0 + c0 + c], strip_k[c][r] = K[b, j0 + r, column0 + c0 + c].
var<workgroup> strip_q: array<array<f32, TILE>, TILE_K>;
var<workgroup> strip_k: array<array<f32, TILE>, TILE_K>;
var<workgroup> partial: array<f32, SOFTMAX_WORKGROUP>;

@compute @workgroup_size(SIDE, SIDE)
fn scores(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(local_invocation_id) local: vec3<u32>,
    @builtin(local_invocation_index) lane: u32,
) {
    let nq = params.nq;
    let nk = params.nk;
    let d = params.d;
    let head_dim = params.head_dim;
    let b = group.z / params.heads;
    let h = group.z % params.heads;
    let column0 = h * head_dim;
    let i0 = group.y * TILE;
    let j0 = group.x * TILE;
    // acc[2a + t/4][t % 4] is the score of query i0 + local.y + SIDE·a and key j0 + local.x +
    // SIDE·t.
    var acc: array<vec4<f32>, 16>;
    for (var c0 = 0u; c0 < head_dim; c0 += TILE_K) {
        for (var slot = lane; slot < TILE * TILE_K; slot += SIDE * SIDE) {
            let r = slot / TILE_K;
            let c = slot % TILE_K;
            let column = c0 + c;
            var vq = 0.0;
            var vk = 0.0;
            if (column < head_dim && i0 + r < nq) {
                vq = q[(b * nq + i0 + r) * d + column0 + column];
            }
            if (column < head_dim && j0 + r < nk) {
                vk = k[(b * nk + j0 + r) * d + column0 + column];
            }
            strip_q[c][r] = vq;
            strip_k[c][r] = vk;
        }
        workgroupBarrier();
        let width = min(TILE_K, head_dim - c0);
        for (var c = 0u; c < width; c += 1u) {
            let k0 = vec4<f32>(
                strip_k[c][local.x],
                strip_k[c][local.x + SIDE],
                strip_k[c][local.x + 2u * SIDE],
                strip_k[c][local.x + 3u * SIDE],
            );
            let k1 = vec4<f32>(
                strip_k[c][local.x + 4u * SIDE],
                strip_k[c][local.x + 5u * SIDE],
                strip_k[c][local.x + 6u * SIDE],
                strip_k[c][local.x + 7u * SIDE],
            );
            for (var a = 0u; a < BLOCK; a += 1u) {
                let x = strip_q[c][local.y + a * SIDE];
                acc[2u * a] = acc[2u * a] + x * k0;
                acc[2u * a + 1u] = acc[2u * a + 1u] + x * k1;
            }
        }
        workgroupBarrier();
    }
    for (var a = 0u; a < BLOCK; a += 1u) {
        let i = i0 + local.y + a * SIDE;
        for (var t = 0u; t < BLOCK; t += 1u) {
            let j = j0 + local.x + t * SIDE;
            if (i < nq && j < nk) {
                w[(group.z * nq + i) * nk + j] = acc[2u * a + t / 4u][t % 4u] * params.scale;
            }
        }
    }
}

@compute @workgroup_size(SOFTMAX_WORKGROUP)
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

    // The lowest finite f32, by its bits: Tint rejects the decimal literal as not representable.
    var local_max = bitcast<f32>(0xff7fffffu);
    for (var key = lane; key < valid; key += SOFTMAX_WORKGROUP) {
        local_max = max(local_max, w[row + key]);
    }
    partial[lane] = local_max;
    workgroupBarrier();
    for (var stride = SOFTMAX_WORKGROUP / 2u; stride > 0u; stride = stride / 2u) {
        if (lane < stride) {
            partial[lane] = max(partial[lane], partial[lane + stride]);
        }
        workgroupBarrier();
    }
    let row_max = partial[0];
    // Everyone has read the maximum before the sums overwrite it.
    workgroupBarrier();

    var local_sum = 0.0;
    for (var key = lane; key < valid; key += SOFTMAX_WORKGROUP) {
        let e = exp(w[row + key] - row_max);
        w[row + key] = e;
        local_sum = local_sum + e;
    }
    partial[lane] = local_sum;
    workgroupBarrier();
    for (var stride = SOFTMAX_WORKGROUP / 2u; stride > 0u; stride = stride / 2u) {
        if (lane < stride) {
            partial[lane] = partial[lane] + partial[lane + stride];
        }
        workgroupBarrier();
    }
    let total = partial[0];

    // Each invocation normalizes the keys it wrote itself, so no barrier is needed on w.
    // valid = 0: d2l's masked_softmax gives every key the same score −1e6, hence 1/nk each (the
    // CPU twin, attention::masked_softmax_row, does the same f32 division).
    for (var key = lane; key < nk; key += SOFTMAX_WORKGROUP) {
        if (valid == 0u) {
            w[row + key] = 1.0 / f32(nk);
        } else if (key < valid) {
            w[row + key] = w[row + key] / total;
        } else {
            w[row + key] = 0.0;
        }
    }
}
