// all-MiniLM-L6-v2's encoder (a BERT encoder) on the GPU: the embeddings' LayerNorm and each
// layer's dense maps, scores with their softmax, weighted values and LayerNorms, as transformers'
// BertModel with eager attention computes them. CPU twin: pe_lab_minilm::MiniLm::forward (its
// sums run in another order, its LayerNorm moments in float64: agreement within f32 rounding).
//
// `model` holds every tensor the encoder applies, in float32, at the offsets the host writes into
// each op; `w` holds the activations of one sentence (the hidden rows, q, k, v, the weighted
// values, the MLP's rows) and, last, every layer's and head's attention weights, which the host
// reads back. Every op is one dispatch; each reads only what earlier dispatches wrote.

// Mirrors EncoderOp in minilm.rs (64 bytes, checked by shaders/layout_checks.rs).
struct Op {
    // linear, norm: the rows read (offset in w). context: the values.
    input: u32,
    // linear: Wᵀ ([inputs, outputs]: PyTorch's W transposed at upload, so that neighbouring
    // invocations read neighbouring floats). norm: the scale. (Offsets in model.)
    weight: u32,
    // linear: b. norm: the shift.
    bias: u32,
    // Where the op writes (offset in w).
    output: u32,
    // norm: the rows added to the input first (with RESIDUAL). scores: the keys.
    other: u32,
    // scores, context: the attention weights of this layer, [head, query, key].
    weights: u32,
    // The tokens.
    rows: u32,
    // linear: the width of a row read. norm: the width of a row.
    inputs: u32,
    // linear: the width of a row written.
    outputs: u32,
    heads: u32,
    head_size: u32,
    // linear: GELU. norm: RESIDUAL.
    flags: u32,
    // scores: head_size ** -0.5 (as transformers rounds it). norm: ε.
    scale: f32,
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
}

const GELU: u32 = 1u;
const RESIDUAL: u32 = 1u;

@group(0) @binding(0) var<uniform> op: Op;
// Read as vec4s: the host lays every tensor at a multiple of four floats, and the dense layers'
// widths are multiples of four.
@group(0) @binding(1) var<storage, read> model: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> w: array<f32>;

// The error function, Abramowitz and Stegun 7.1.26 (absolute error below 1.5e-7): WGSL has no
// erf, and the model's GELU is the exact one, x · Φ(x), not the tanh approximation.
fn erf(x: f32) -> f32 {
    let a = abs(x);
    let t = 1.0 / (1.0 + 0.3275911 * a);
    let poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741
        + t * (-1.453152027 + t * 1.061405429))));
    let value = 1.0 - poly * exp(-a * a);
    return select(-value, value, x >= 0.0);
}

// out[i, j] = Σ_p x[i, p] · Wᵀ[p, j] + b[j], then GELU where asked. One invocation computes four
// neighbouring outputs (one vec4 of Wᵀ's row) for LINEAR_ROWS tokens, so that each float of the
// weights is read once per LINEAR_ROWS tokens: x by the group of four outputs, y by the group of
// tokens. Each sum runs over p in order, as a plain loop would.
const LINEAR_ROWS: u32 = 4u; // the s0 … s3 of `linear`

@compute @workgroup_size(64)
fn linear(@builtin(global_invocation_id) id: vec3<u32>) {
    let quad = id.x;
    let first = id.y * LINEAR_ROWS;
    let quads = op.outputs / 4u;
    if quad >= quads || first >= op.rows {
        return;
    }
    // The four tokens' rows; past the last token, the last one again (computed, not written), so
    // that the loop has no branch.
    let last = op.rows - 1u;
    let x0 = op.input + first * op.inputs;
    let x1 = op.input + min(first + 1u, last) * op.inputs;
    let x2 = op.input + min(first + 2u, last) * op.inputs;
    let x3 = op.input + min(first + 3u, last) * op.inputs;
    var s0 = vec4<f32>(0.0);
    var s1 = vec4<f32>(0.0);
    var s2 = vec4<f32>(0.0);
    var s3 = vec4<f32>(0.0);
    let weights = op.weight / 4u + quad;
    for (var p = 0u; p < op.inputs; p += 1u) {
        let weight = model[weights + p * quads];
        s0 += w[x0 + p] * weight;
        s1 += w[x1 + p] * weight;
        s2 += w[x2 + p] * weight;
        s3 += w[x3 + p] * weight;
    }
    let bias = model[op.bias / 4u + quad];
    store_linear(first, quad, s0 + bias);
    store_linear(first + 1u, quad, s1 + bias);
    store_linear(first + 2u, quad, s2 + bias);
    store_linear(first + 3u, quad, s3 + bias);
}

// One token's four outputs of `linear`, with the GELU where asked; nothing past the last token.
fn store_linear(row: u32, quad: u32, value: vec4<f32>) {
    if row >= op.rows {
        return;
    }
    var sum = value;
    if (op.flags & GELU) != 0u {
        sum = sum * 0.5 * (vec4<f32>(1.0) + vec4<f32>(erf(sum.x * SQRT_HALF),
            erf(sum.y * SQRT_HALF), erf(sum.z * SQRT_HALF), erf(sum.w * SQRT_HALF)));
    }
    let at = op.output + row * op.outputs + quad * 4u;
    w[at] = sum.x;
    w[at + 1u] = sum.y;
    w[at + 2u] = sum.z;
    w[at + 3u] = sum.w;
}

const SQRT_HALF: f32 = 0.70710678118654752;

// One head's scores of one query, scaled, then their softmax (softmax.wgsl): one workgroup of
// REDUCE_LANES per (query, head). q is at `input`, k at `other`, both [token, heads · head_size].
@compute @workgroup_size(REDUCE_LANES)
fn scores(@builtin(workgroup_id) group: vec3<u32>, @builtin(local_invocation_id) local: vec3<u32>) {
    let query = group.x;
    let head = group.y;
    let lane = local.x;
    let n = op.rows;
    let width = op.heads * op.head_size;
    let row = op.weights + (head * n + query) * n;
    let q = op.input + query * width + head * op.head_size;
    for (var key = lane; key < n; key += REDUCE_LANES) {
        let k = op.other + key * width + head * op.head_size;
        var dot = 0.0;
        for (var c = 0u; c < op.head_size; c += 1u) {
            dot += w[q + c] * w[k + c];
        }
        w[row + key] = dot * op.scale;
    }
    softmax_row(row, n, n, lane);
}

// The heads' weighted values side by side: out[i, h · head_size + c] = Σ_j A[h, i, j] · v[j, ·];
// one invocation per entry, i by y.
@compute @workgroup_size(64)
fn context(@builtin(global_invocation_id) id: vec3<u32>) {
    let column = id.x;
    let i = id.y;
    let width = op.heads * op.head_size;
    if column >= width || i >= op.rows {
        return;
    }
    let n = op.rows;
    let row = op.weights + ((column / op.head_size) * n + i) * n;
    var sum = 0.0;
    for (var j = 0u; j < n; j += 1u) {
        sum += w[row + j] * w[op.input + j * width + column];
    }
    w[op.output + i * width + column] = sum;
}

// LayerNorm of (input + other where RESIDUAL) into output, one workgroup per row: the mean, then
// the (biased) variance of the deviations, each tree-reduced; every lane writes and rereads only
// its own columns, so output may be the input.
@compute @workgroup_size(REDUCE_LANES)
fn norm(@builtin(workgroup_id) group: vec3<u32>, @builtin(local_invocation_id) local: vec3<u32>) {
    let lane = local.x;
    let width = op.inputs;
    let start = group.x * width;
    var local_sum = 0.0;
    for (var c = lane; c < width; c += REDUCE_LANES) {
        var value = w[op.input + start + c];
        if (op.flags & RESIDUAL) != 0u {
            value += w[op.other + start + c];
        }
        w[op.output + start + c] = value;
        local_sum += value;
    }
    let mean = reduce_sum(lane, local_sum) / f32(width);
    var local_squares = 0.0;
    for (var c = lane; c < width; c += REDUCE_LANES) {
        let deviation = w[op.output + start + c] - mean;
        local_squares += deviation * deviation;
    }
    let variance = reduce_sum(lane, local_squares) / f32(width);
    let inverse_deviation = 1.0 / sqrt(variance + op.scale);
    for (var c = lane; c < width; c += REDUCE_LANES) {
        let normalized = (w[op.output + start + c] - mean) * inverse_deviation;
        let scale = model[(op.weight + c) / 4u][c % 4u];
        let shift = model[(op.bias + c) / 4u][c % 4u];
        w[op.output + start + c] = normalized * scale + shift;
    }
}
