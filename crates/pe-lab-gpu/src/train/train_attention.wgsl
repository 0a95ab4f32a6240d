// The training model's attention softmax, forward and backward, one invocation per (sequence,
// head, query) row of n keys. The scores q·kᵀ come from train_matmul.wgsl; here they are scaled
// by 1/√d_head, biased (ALiBi, T5), masked (causal: keys after the query get weight exactly 0)
// and normalised. Backward: ds_j = α_j (g_j − Σ_l α_l g_l)/√d_head, 0 on masked keys; T5's bias
// gradients, one workgroup per (head, bucket).
// CPU twin: pe_lab_train::attention::{forward, backward} (the same sums in the same order, but
// T5's bias gradients, summed as trees).

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

@compute @workgroup_size(64)
fn forward(grid: Grid, @builtin(local_invocation_index) lane: u32) {
    let row = invocation(grid, lane);
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
    let inverse = 1.0 / softmax_exponentials(at, valid).y;
    for (var j = 0u; j < valid; j++) {
        arena[at + j] *= inverse;
    }
    for (var j = valid; j < op.n; j++) {
        arena[at + j] = 0.0;
    }
}

@compute @workgroup_size(64)
fn backward(grid: Grid, @builtin(local_invocation_index) lane: u32) {
    let row = invocation(grid, lane);
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
@compute @workgroup_size(REDUCE_LANES)
fn bias_grads(grid: Grid, @builtin(local_invocation_index) lane: u32) {
    let index = workgroup_index(grid);
    if index >= op.heads * op.buckets {
        return;
    }
    let h = index / op.buckets;
    let wanted = index % op.buckets;
    let square = op.n * op.n;
    let sequences = op.rows / (op.heads * op.n);
    var sum = 0.0;
    for (var e = lane; e < sequences * square; e += REDUCE_LANES) {
        let b = e / square;
        let i = (e % square) / op.n;
        let j = e % op.n;
        if bucket(i, j) == wanted {
            sum += arena[op.grads + (b * op.heads + h) * square + i * op.n + j];
        }
    }
    let total = reduce_sum(lane, sum);
    if lane == 0u {
        arena[op.bias_grads + index] = total / op.scale;
    }
}
