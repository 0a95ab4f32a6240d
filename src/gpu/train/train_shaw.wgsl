// Shaw's relative positions in the training model's attention (Shaw et al. 2018, clipped at
// ±SHAW_CLIP): the a^V term of the heads' outputs, and the gradients of a^K, a^V and of q through
// a^K. (The a^K term of the scores and the a^V term of the weights' gradient are in
// train_attention.wgsl's softmax passes.) One invocation per entry of a head's row (outputs, q's
// gradient: the terms in the CPU's order), or one workgroup per table entry (its gradient, summed
// over the batch's rows as a tree).
// CPU twin: pe_lab_train::attention::{forward, backward}, `Encoding::Shaw`.

// Mirrors SoftmaxOp in kernels.rs (keep in sync: field order, 80 bytes); see train_attention.wgsl.
struct Op {
    rows: u32,
    n: u32,
    heads: u32,
    causal: u32,
    weights: u32,
    grads: u32,
    bias_mode: u32,
    bias: u32,
    table_length: u32,
    scale: f32,
    bias_grads: u32,
    buckets: u32,
    offset_rows: u32,
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

fn row_of(i: u32, j: u32) -> u32 {
    return ints[op.offset_rows + j + op.table_length - 1u - i];
}

fn keys(i: u32) -> u32 {
    if op.causal != 0u {
        return i + 1u;
    }
    return op.n;
}

// Σ_j of the n × n square at `square` (row i) over the keys j whose table row is r.
fn grouped(square: u32, i: u32, r: u32) -> f32 {
    var sum = 0.0;
    for (var j = 0u; j < keys(i); j++) {
        if row_of(i, j) == r {
            sum += arena[square + i * op.n + j];
        }
    }
    return sum;
}

// (sequence b, query i, head h, column c) of an entry of a rows × d tensor, and the offset of
// softmax row (b, h, i).
struct Entry {
    b: u32,
    i: u32,
    h: u32,
    c: u32,
    square: u32,
}

fn entry(index: u32) -> Entry {
    let r = index / op.d;
    let column = index % op.d;
    let b = r / op.n;
    let i = r % op.n;
    let h = column / op.head_width;
    let square = (b * op.heads + h) * op.n * op.n;
    return Entry(b, i, h, column % op.head_width, square);
}

// attended[b, i, h·dh + c] += Σ_r (Σ_j α_ij [row(i, j) = r]) a^V[h, r, c], r ascending.
@compute @workgroup_size(64)
fn values_forward(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lane: u32,
) {
    let index = invocation(group, groups, lane);
    if index >= (op.rows / op.heads) * op.d {
        return;
    }
    let e = entry(index);
    var value = arena[op.attended + index];
    for (var r = 0u; r < op.buckets; r++) {
        let weight = grouped(op.weights + e.square, e.i, r);
        value += weight * arena[op.values + (e.h * op.buckets + r) * op.head_width + e.c];
    }
    arena[op.attended + index] = value;
}

// q's gradient through a^K (written: the scores' product adds to it afterwards):
// Σ_r (Σ_j ds_ij [row(i, j) = r]) a^K[h, r, c], from the scaled score gradients.
@compute @workgroup_size(64)
fn query_grads(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lane: u32,
) {
    let index = invocation(group, groups, lane);
    if index >= (op.rows / op.heads) * op.d {
        return;
    }
    let e = entry(index);
    var value = 0.0;
    for (var r = 0u; r < op.buckets; r++) {
        let weight = grouped(op.grads + e.square, e.i, r);
        value += weight * arena[op.bias + (e.h * op.buckets + r) * op.head_width + e.c];
    }
    arena[op.q_grads + index] = value;
}

// The gradients of a^K (from the scaled score gradients and q) and of a^V (from the weights and
// the outputs' gradient): one workgroup per (table, head, row, column), its lanes sharing the
// batch's rows.
@compute @workgroup_size(LANES)
fn table_grads(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lane: u32,
) {
    // Uniform over the workgroup: the early return keeps the barriers in uniform control.
    let index = group.y * groups.x + group.x;
    let per_table = op.heads * op.buckets * op.head_width;
    if index >= 2u * per_table {
        return;
    }
    let value_table = index >= per_table;
    let within = index % per_table;
    let h = within / (op.buckets * op.head_width);
    let r = (within / op.head_width) % op.buckets;
    let c = within % op.head_width;
    let positions = op.rows / op.heads;
    var sum = 0.0;
    for (var p = lane; p < positions; p += LANES) {
        let b = p / op.n;
        let i = p % op.n;
        let square = (b * op.heads + h) * op.n * op.n;
        let at = p * op.d + h * op.head_width + c;
        if value_table {
            sum += grouped(op.weights + square, i, r) * arena[op.attended + at];
        } else {
            sum += grouped(op.grads + square, i, r) * arena[op.q + at];
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
        if value_table {
            arena[op.value_grads + within] = partial[0];
        } else {
            arena[op.bias_grads + within] = partial[0];
        }
    }
}
