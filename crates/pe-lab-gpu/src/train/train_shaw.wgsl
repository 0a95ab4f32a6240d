// Shaw's relative positions in the training model's attention (Shaw et al. 2018, clipped at
// ±SHAW_CLIP): the a^V term of the heads' outputs, and the gradients of a^K, a^V and of q through
// a^K. (The a^K term of the scores and the a^V term of the weights' gradient are in
// train_attention.wgsl's softmax passes.) One invocation per entry of a head's row (outputs, q's
// gradient: the terms in the CPU's order), or one workgroup per table entry (its gradient, summed
// over the batch's rows as a tree).
// CPU twin: pe_lab_train::attention::{forward, backward}, `Encoding::Shaw`.

// Σ_j of the n × n square at `square` (row i) over the keys j whose table row is r.
fn grouped(square: u32, i: u32, r: u32) -> f32 {
    var sum = 0.0;
    for (var j = 0u; j < keys(i); j++) {
        if bucket(i, j) == r {
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
fn values_forward(grid: Grid, @builtin(local_invocation_index) lane: u32) {
    let index = invocation(grid, lane);
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
fn query_grads(grid: Grid, @builtin(local_invocation_index) lane: u32) {
    let index = invocation(grid, lane);
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
@compute @workgroup_size(REDUCE_LANES)
fn table_grads(grid: Grid, @builtin(local_invocation_index) lane: u32) {
    let index = workgroup_index(grid);
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
    for (var p = lane; p < positions; p += REDUCE_LANES) {
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
    let total = reduce_sum(lane, sum);
    if lane == 0u {
        if value_table {
            arena[op.value_grads + within] = total;
        } else {
            arena[op.bias_grads + within] = total;
        }
    }
}
