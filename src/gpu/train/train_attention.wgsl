// The training model's attention softmax, forward and backward, one invocation per (sequence,
// head, query) row of n keys. The scores q·kᵀ come from train_matmul.wgsl; here they are scaled
// by 1/√d_head, biased (ALiBi, T5), masked (causal: keys after the query get weight exactly 0)
// and normalised. Backward: ds_j = α_j (g_j − Σ_l α_l g_l)/√d_head, 0 on masked keys; T5's bias
// gradients, one workgroup per (head, bucket).
// CPU twin: pe_lab_train::attention::{forward, backward} (the same sums in the same order, but
// T5's bias gradients, summed as trees).

// Mirrors SoftmaxOp in kernels.rs (keep in sync: field order, 80 bytes).
struct Op {
    // sequences · heads · n rows of n entries each.
    rows: u32,
    n: u32,
    heads: u32,
    causal: u32,
    // The scores, made the weights in place (forward); read (backward).
    weights: u32,
    // The weights' gradient, made the scores' in place (backward).
    grads: u32,
    // 0: no bias; 1: ALiBi's fixed heads × table_length × table_length biases at `bias`; 2: T5's
    // learned heads × buckets biases at `bias` (their gradient at `bias_grads`); 3: Shaw's
    // heads × buckets × head_width a^K at `bias` (gradient at `bias_grads`) and a^V at `values`
    // (gradient at `value_grads`). The bucket (T5) or row (Shaw) of offset j − i is
    // ints[offset_rows + j + table_length − 1 − i].
    bias_mode: u32,
    bias: u32,
    table_length: u32,
    scale: f32,
    bias_grads: u32,
    buckets: u32,
    offset_rows: u32,
    // Shaw: q (rows × d), the heads' outputs (forward) or their gradient (backward), q's
    // gradient, a^V and its gradient.
    q: u32,
    attended: u32,
    q_grads: u32,
    values: u32,
    value_grads: u32,
    d: u32,
    head_width: u32,
}

@group(0) @binding(0) var<uniform> op: Op;
@group(0) @binding(2) var<storage, read_write> arena: array<f32>;
@group(0) @binding(3) var<storage, read> ints: array<u32>;

// Keep in sync with SPLIT_LANES in plan.rs (a power of two).
const LANES: u32 = 64u;

var<workgroup> partial: array<f32, LANES>;

fn invocation(group: vec3<u32>, groups: vec3<u32>, lane: u32) -> u32 {
    return (group.y * groups.x + group.x) * 64u + lane;
}

// T5's bucket of query i and key j.
fn bucket(i: u32, j: u32) -> u32 {
    return ints[op.offset_rows + j + op.table_length - 1u - i];
}

// Shaw: the row of a rows × d tensor at `x` of softmax row `row` (its sequence, query and head)
// dotted with row `r` of its head's table at `table`, summed in the CPU's order.
fn head_dot(x: u32, row: u32, table: u32, r: u32) -> f32 {
    let i = row % op.n;
    let h = (row / op.n) % op.heads;
    let b = row / (op.n * op.heads);
    let start = x + (b * op.n + i) * op.d + h * op.head_width;
    let entry = table + (h * op.buckets + r) * op.head_width;
    var sum = 0.0;
    for (var c = 0u; c < op.head_width; c++) {
        sum += arena[start + c] * arena[entry + c];
    }
    return sum;
}

fn keys(i: u32) -> u32 {
    if op.causal != 0u {
        return i + 1u;
    }
    return op.n;
}

@compute @workgroup_size(64)
fn forward(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lane: u32,
) {
    let row = invocation(group, groups, lane);
    if row >= op.rows {
        return;
    }
    let i = row % op.n;
    let h = (row / op.n) % op.heads;
    let at = op.weights + row * op.n;
    let valid = keys(i);
    for (var j = 0u; j < valid; j++) {
        var s = arena[at + j] * op.scale;
        if op.bias_mode == 3u {
            s = (arena[at + j] + head_dot(op.q, row, op.bias, bucket(i, j))) * op.scale;
        }
        if op.bias_mode == 1u {
            s += arena[op.bias + (h * op.table_length + i) * op.table_length + j];
        } else if op.bias_mode == 2u {
            s += arena[op.bias + h * op.buckets + bucket(i, j)];
        }
        arena[at + j] = s;
    }
    var largest = arena[at];
    for (var j = 1u; j < valid; j++) {
        largest = max(largest, arena[at + j]);
    }
    var sum = 0.0;
    for (var j = 0u; j < valid; j++) {
        let e = exp(arena[at + j] - largest);
        arena[at + j] = e;
        sum += e;
    }
    let inverse = 1.0 / sum;
    for (var j = 0u; j < valid; j++) {
        arena[at + j] *= inverse;
    }
    for (var j = valid; j < op.n; j++) {
        arena[at + j] = 0.0;
    }
}

@compute @workgroup_size(64)
fn backward(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lane: u32,
) {
    let row = invocation(group, groups, lane);
    if row >= op.rows {
        return;
    }
    let i = row % op.n;
    let alpha = op.weights + row * op.n;
    let g = op.grads + row * op.n;
    let valid = keys(i);
    if op.bias_mode == 3u {
        // Shaw: ∂/∂α_ij gains g_i·a^V_(row(i, j)).
        for (var j = 0u; j < valid; j++) {
            arena[g + j] += head_dot(op.attended, row, op.values, bucket(i, j));
        }
    }
    var mean = 0.0;
    for (var j = 0u; j < valid; j++) {
        mean += arena[alpha + j] * arena[g + j];
    }
    for (var j = 0u; j < valid; j++) {
        arena[g + j] = arena[alpha + j] * (arena[g + j] - mean) * op.scale;
    }
    for (var j = valid; j < op.n; j++) {
        arena[g + j] = 0.0;
    }
}

// T5's bias gradients: one workgroup per (head, bucket), its lanes sharing the scores'
// gradients of that head (masked keys' are 0). The CPU adds the gradients before their 1/√d_head
// scaling; here the scaled ones are divided by it (agreement within f32 rounding).
@compute @workgroup_size(LANES)
fn bias_grads(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lane: u32,
) {
    // Uniform over the workgroup: the early return keeps the barriers in uniform control.
    let index = group.y * groups.x + group.x;
    if index >= op.heads * op.buckets {
        return;
    }
    let h = index / op.buckets;
    let wanted = index % op.buckets;
    let square = op.n * op.n;
    let sequences = op.rows / (op.heads * op.n);
    var sum = 0.0;
    for (var e = lane; e < sequences * square; e += LANES) {
        let b = e / square;
        let i = (e % square) / op.n;
        let j = e % op.n;
        if bucket(i, j) == wanted {
            sum += arena[op.grads + (b * op.heads + h) * square + i * op.n + j];
        }
    }
    partial[lane] = sum;
    workgroupBarrier();
    for (var stride = LANES / 2u; stride > 0u; stride = stride / 2u) {
        if lane < stride {
            partial[lane] += partial[lane + stride];
        }
        workgroupBarrier();
    }
    if lane == 0u {
        arena[op.bias_grads + index] = partial[0] / op.scale;
    }
}
