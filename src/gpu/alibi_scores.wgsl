// Causal ALiBi attention weights of one head (n × n, row-major) from Q and K (n × d, row-major):
//   W[i, j] = softmax over j ≤ i of scale·(q_i · k_j) + slope·(j − i),  scale = f32(1/√d),
// and exactly 0 for j > i. CPU twin: math::alibi::causal_weights_f32 (error analysis in
// alibi_scores.rs).
//
// Two entry points, dispatched one after the other in one compute pass:
// - `scores`: the biased scores into W, tiled exactly like the Gram kernel (gram.wgsl: 16 × 16
//   invocations, each an 8 × 8 block of a 128 × 128 tile, strips of Q and K staged TILE_K columns
//   at a time); tiles wholly above the diagonal are skipped (the softmax pass writes their zeros);
// - `softmax`: one workgroup per query row i: the maximum and the sum of exponentials over
//   j ≤ i are tree-reduced, then the row is normalized and the keys j > i are set to 0.

// Keep in sync with ALIBI_WORKGROUP_SIDE in alibi_scores.rs.
const SIDE: u32 = 16u;
// Scores per invocation along each side.
const BLOCK: u32 = 8u;
// SIDE·BLOCK. Keep in sync with ALIBI_TILE in alibi_scores.rs.
const TILE: u32 = 128u;
// Columns of Q and K per stage. Keep in sync with ALIBI_TILE_K in alibi_scores.rs.
const TILE_K: u32 = 8u;
// Keep in sync with ALIBI_SOFTMAX_WORKGROUP in alibi_scores.rs (a power of two).
const SOFTMAX_WORKGROUP: u32 = 64u;

// Mirrors AlibiParams in alibi_scores.rs (keep in sync: field order, 16 bytes).
struct Params {
    n: u32,
    d: u32,
    scale: f32,
    slope: f32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> q: array<f32>;
@group(0) @binding(2) var<storage, read> k: array<f32>;
@group(0) @binding(3) var<storage, read_write> w: array<f32>;

// strip_q[c][r] = Q[i0 + r, c0 + c], strip_k[c][r] = K[j0 + r, c0 + c] (zero outside).
var<workgroup> strip_q: array<array<f32, TILE>, TILE_K>;
var<workgroup> strip_k: array<array<f32, TILE>, TILE_K>;
var<workgroup> partial: array<f32, SOFTMAX_WORKGROUP>;

@compute @workgroup_size(SIDE, SIDE)
fn scores(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(local_invocation_id) local: vec3<u32>,
    @builtin(local_invocation_index) lane: u32,
) {
    let n = params.n;
    let d = params.d;
    let i0 = group.y * TILE;
    let j0 = group.x * TILE;
    // Every key of this tile is after every query: nothing to compute. The condition depends on
    // the workgroup only, so the barriers below stay in uniform control flow.
    if (j0 > i0 + TILE - 1u) {
        return;
    }
    // acc[2a + t/4][t % 4] is the score of query i0 + local.y + SIDE·a and key j0 + local.x +
    // SIDE·t.
    var acc: array<vec4<f32>, 16>;
    for (var c0 = 0u; c0 < d; c0 += TILE_K) {
        for (var slot = lane; slot < TILE * TILE_K; slot += SIDE * SIDE) {
            let r = slot / TILE_K;
            let c = slot % TILE_K;
            let column = c0 + c;
            var vq = 0.0;
            var vk = 0.0;
            if (column < d && i0 + r < n) {
                vq = q[(i0 + r) * d + column];
            }
            if (column < d && j0 + r < n) {
                vk = k[(j0 + r) * d + column];
            }
            strip_q[c][r] = vq;
            strip_k[c][r] = vk;
        }
        workgroupBarrier();
        let width = min(TILE_K, d - c0);
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
            if (i < n && j <= i) {
                // j − i is exact in f32 (|j − i| < 2^24); the bias is one f32 multiply, as
                // math::alibi::causal_weights rounds it.
                let bias = params.slope * f32(i32(j) - i32(i));
                w[i * n + j] = acc[2u * a + t / 4u][t % 4u] * params.scale + bias;
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
    let n = params.n;
    // Keys 0..=i are visible (at least one: the query's own position).
    let valid = i + 1u;
    let row = i * n;

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

    // Each invocation normalizes the keys it wrote itself, so no barrier is needed on w; the
    // keys after the query (never written by the scores pass) become exactly 0.
    for (var key = lane; key < n; key += SOFTMAX_WORKGROUP) {
        if (key < valid) {
            w[row + key] = w[row + key] / total;
        } else {
            w[row + key] = 0.0;
        }
    }
}
