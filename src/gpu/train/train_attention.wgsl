// The training model's attention softmax, forward and backward, one invocation per (sequence,
// head, query) row of n keys. The scores q·kᵀ come from train_matmul.wgsl; here they are scaled
// by 1/√d_head, biased (ALiBi), masked (causal: keys after the query get weight exactly 0) and
// normalised. Backward: ds_j = α_j (g_j − Σ_l α_l g_l)/√d_head, 0 on masked keys.
// CPU twin: pe_lab_train::attention::{forward, backward} (the same sums in the same order).

// Mirrors SoftmaxOp in kernels.rs (keep in sync: field order, 48 bytes).
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
    // ALiBi's heads × table_length × table_length biases, when `alibi` ≠ 0.
    alibi: u32,
    bias: u32,
    table_length: u32,
    scale: f32,
    _pad0: u32,
    _pad1: u32,
}

@group(0) @binding(0) var<uniform> op: Op;
@group(0) @binding(2) var<storage, read_write> arena: array<f32>;

fn invocation(group: vec3<u32>, groups: vec3<u32>, lane: u32) -> u32 {
    return (group.y * groups.x + group.x) * 64u + lane;
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
        if op.alibi != 0u {
            s += arena[op.bias + (h * op.table_length + i) * op.table_length + j];
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
