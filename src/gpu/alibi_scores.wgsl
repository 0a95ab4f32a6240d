// Causal ALiBi attention weights of one head (n × n, row-major) from Q and K (n × d, row-major):
//   W[i, j] = softmax over j ≤ i of scale·(q_i · k_j) + slope·(j − i),  scale = f32(1/√d),
// and exactly 0 for j > i. CPU twin: math::alibi::causal_weights_f32 (error analysis in
// alibi_scores.rs).
//
// Two entry points, dispatched one after the other in one compute pass:
// - `scores`: the biased scores into W, the tiled product of tile_core.wgsl (composed by
//   pe_lab::gpu::tile, which writes SIDE, TILE, LANES and Elem from the TileShape that
//   alibi_scores.rs dispatches with); tiles wholly above the diagonal are skipped (the softmax pass
//   writes their zeros);
// - `softmax`: one workgroup per query row i: the maximum and the sum of exponentials over
//   j ≤ i are tree-reduced, then the row is normalized and the keys j > i are set to 0.

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
// f32, or vec4<f32> when d % 4 = 0 (then every row starts on a vec4).
@group(0) @binding(1) var<storage, read> q: array<Elem>;
@group(0) @binding(2) var<storage, read> k: array<Elem>;
@group(0) @binding(3) var<storage, read_write> w: array<f32>;

var<workgroup> partial: array<f32, SOFTMAX_WORKGROUP>;

fn load_a(slice: u32, row: u32, column: u32) -> Elem {
    return q[(row * params.d + column) / LANES];
}

fn load_b(slice: u32, row: u32, column: u32) -> Elem {
    return k[(row * params.d + column) / LANES];
}

fn store(slice: u32, i: u32, j: u32, value: f32) {
    if (j <= i) {
        // j − i is exact in f32 (|j − i| < 2^24); the bias is one f32 multiply, as
        // math::alibi::causal_weights rounds it.
        let bias = params.slope * f32(i32(j) - i32(i));
        w[i * params.n + j] = value * params.scale + bias;
    }
}

@compute @workgroup_size(SIDE, SIDE)
fn scores(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(local_invocation_id) local: vec3<u32>,
    @builtin(local_invocation_index) lane: u32,
) {
    let n = params.n;
    let i0 = group.y * TILE;
    let j0 = group.x * TILE;
    // Every key of this tile is after every query: nothing to compute. The condition depends on
    // the workgroup only, so the barriers of tile_product stay in uniform control flow.
    if (j0 > i0 + TILE - 1u) {
        return;
    }
    tile_product(0u, i0, j0, n, n, params.d, local, lane);
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
