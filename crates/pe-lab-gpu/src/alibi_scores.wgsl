// Causal ALiBi attention weights of one head (n × n, row-major) from Q and K (n × d, row-major):
//   W[i, j] = softmax over j ≤ i of scale·(q_i · k_j) + slope·(j − i),  scale = f32(1/√d),
// and exactly 0 for j > i. CPU twin: math::alibi::causal_weights_f32 (error analysis in
// alibi_scores.rs).
//
// Two entry points, dispatched one after the other in one compute pass:
// - `scores` (shared/square_scores.wgsl): the biased scores into W, the tiled product of
//   tile_core.wgsl (composed by pe_lab_gpu::tile, which writes SIDE, TILE, LANES and Elem from the
//   TileShape that alibi_scores.rs dispatches with); tiles wholly above the diagonal are skipped
//   (the softmax pass writes their zeros);
// - `softmax`: one workgroup per query row i: the maximum and the sum of exponentials over
//   j ≤ i are tree-reduced, then the row is normalized and the keys j > i are set to 0.

// The scores pass (shared/square_scores.wgsl) skips the tiles wholly above the diagonal: the
// softmax pass writes their zeros.
const CAUSAL: bool = true;

// Mirrors AlibiParams in alibi_scores.rs (its layout, 16 bytes, checked by shaders/layout_checks.rs).
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

@compute @workgroup_size(REDUCE_LANES)
fn softmax(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(local_invocation_index) lane: u32,
) {
    let i = group.x;
    let n = params.n;
    // Keys 0..=i are visible (at least one: the query's own position).
    let valid = i + 1u;
    let row = i * n;

    // The keys after the query (never written by the scores pass) become exactly 0.
    softmax_row(row, valid, n, lane);
}
