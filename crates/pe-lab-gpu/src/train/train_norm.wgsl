// Post-norm LayerNorm of the training model, forward and backward, and the column sums that give
// the biases' gradients. One invocation per row (forward, backward rows: the sums in the CPU's
// order, columns ascending) or one workgroup per column (the sums over rows, as trees).
// CPU twins: pe_lab_train::linalg::{layer_norm, layer_norm_backward, sum_rows}.

// Mirrors NormOp in kernels.rs (its layout, 48 bytes, checked by shaders/layout_checks.rs).
struct Op {
    rows: u32,
    // Row width (for `column_sums`: the number of columns).
    d: u32,
    // Normalised in place (forward); the output's gradient, made the input's (backward rows);
    // the rows summed (column_sums).
    x: u32,
    hat: u32,
    inverse_std: u32,
    gain: u32,
    bias: u32,
    gain_grads: u32,
    // The gain's and bias's gradients; `column_sums` writes its sums here.
    bias_grads: u32,
    epsilon: f32,
    _pad0: u32,
    _pad1: u32,
}

@compute @workgroup_size(64)
fn forward(grid: Grid, @builtin(local_invocation_index) lane: u32) {
    let r = invocation(grid, lane);
    if r >= op.rows {
        return;
    }
    let x = op.x + r * op.d;
    let width = f32(op.d);
    var mean = 0.0;
    for (var c = 0u; c < op.d; c++) {
        mean += arena[x + c];
    }
    mean = mean / width;
    var variance = 0.0;
    for (var c = 0u; c < op.d; c++) {
        let centred = arena[x + c] - mean;
        variance += centred * centred;
    }
    let inverse_std = 1.0 / sqrt(variance / width + op.epsilon);
    arena[op.inverse_std + r] = inverse_std;
    for (var c = 0u; c < op.d; c++) {
        let hat = (arena[x + c] - mean) * inverse_std;
        arena[op.hat + r * op.d + c] = hat;
        arena[x + c] = arena[op.gain + c] * hat + arena[op.bias + c];
    }
}

// The gain's and bias's gradients, one workgroup per column (its lanes share the rows); must run
// before `backward_rows` rewrites the gradient.
@compute @workgroup_size(REDUCE_LANES)
fn backward_columns(grid: Grid, @builtin(local_invocation_index) lane: u32) {
    let c = workgroup_index(grid);
    if c >= op.d {
        return;
    }
    var gain = 0.0;
    var bias = 0.0;
    for (var r = lane; r < op.rows; r += REDUCE_LANES) {
        let g = arena[op.x + r * op.d + c];
        gain += g * arena[op.hat + r * op.d + c];
        bias += g;
    }
    let sums = reduce2(lane, vec2<f32>(gain, bias), false);
    if lane == 0u {
        arena[op.gain_grads + c] = sums.x;
        arena[op.bias_grads + c] = sums.y;
    }
}

@compute @workgroup_size(64)
fn backward_rows(grid: Grid, @builtin(local_invocation_index) lane: u32) {
    let r = invocation(grid, lane);
    if r >= op.rows {
        return;
    }
    let g = op.x + r * op.d;
    let hat = op.hat + r * op.d;
    let width = f32(op.d);
    var mean_g = 0.0;
    var mean_gh = 0.0;
    for (var c = 0u; c < op.d; c++) {
        let g_hat = arena[g + c] * arena[op.gain + c];
        mean_g += g_hat;
        mean_gh += g_hat * arena[hat + c];
    }
    mean_g = mean_g / width;
    mean_gh = mean_gh / width;
    let inverse_std = arena[op.inverse_std + r];
    for (var c = 0u; c < op.d; c++) {
        let g_hat = arena[g + c] * arena[op.gain + c];
        arena[g + c] = inverse_std * (g_hat - mean_g - arena[hat + c] * mean_gh);
    }
}

// bias_grads[c] = Σ_r x[r, c] (a bias's gradient: the rows of the output's gradient summed),
// one workgroup per column.
@compute @workgroup_size(REDUCE_LANES)
fn column_sums(grid: Grid, @builtin(local_invocation_index) lane: u32) {
    let c = workgroup_index(grid);
    if c >= op.d {
        return;
    }
    var sum = 0.0;
    for (var r = lane; r < op.rows; r += REDUCE_LANES) {
        sum += arena[op.x + r * op.d + c];
    }
    let sums = reduce2(lane, vec2<f32>(sum, 0.0), false);
    if lane == 0u {
        arena[op.bias_grads + c] = sums.x;
    }
}
