// The training model's input: the token embedding plus the position scheme, and the gradients of
// the token embedding and of the learned position table. One invocation per output entry.
// CPU twins: pe_lab_train::model (Model::embed) and pe_lab_train::backward
// (Model::embed_backward); the token embedding's sums run as trees over the rows, the position
// table's in the CPU's order.

// Mirrors EmbedOp in kernels.rs (its layout, 64 bytes, checked by shaders/layout_checks.rs).
struct Op {
    rows: u32,
    n: u32,
    d: u32,
    token_width: u32,
    // The token embedding (vocab × token_width) and its gradient.
    table: u32,
    table_grads: u32,
    // Sinusoidal: the fixed table (length × d); concat: length × (d − token_width); learned:
    // the parameters (position_rows × d).
    position: u32,
    position_grads: u32,
    position_rows: u32,
    // 0: nothing added, 1: a table added, 2: a table appended, 3: the convolution added.
    mode: u32,
    // The states' first row (forward: written; backward: the gradient read).
    x: u32,
    vocab: u32,
    // Where the tokens start in `ints`.
    tokens: u32,
    // `conv`: the CONV_KERNEL × d weights (the d biases follow them), the weights' gradient, and
    // the gradient of the token embeddings (conv_input_grads writes it).
    conv: u32,
    conv_grads: u32,
    embedded_grads: u32,
}

// CONV_KERNEL in pe_lab_train::encodings (offsets −1, 0, +1; checked by shaders/layout_checks.rs).
const CONV_KERNEL: u32 = 3u;


@compute @workgroup_size(64)
fn embed(grid: Grid, @builtin(local_invocation_index) lane: u32) {
    let index = invocation(grid, lane);
    if index >= op.rows * op.d {
        return;
    }
    let r = index / op.d;
    let c = index % op.d;
    let i = r % op.n;
    let token = ints[op.tokens + r];
    var value = 0.0;
    if c < op.token_width {
        value = arena[op.table + token * op.token_width + c];
        if op.mode == 1u && i < op.position_rows {
            value += arena[op.position + i * op.d + c];
        }
    } else if op.mode == 2u {
        let appended = op.d - op.token_width;
        value = arena[op.position + i * appended + c - op.token_width];
    }
    if op.mode == 3u {
        // x = e + bias + Σ_o w_o ⊙ e(i + o − 1), zero padded, in the CPU's order.
        value += arena[op.conv + CONV_KERNEL * op.d + c];
        let first = r - i;
        for (var o = 0u; o < CONV_KERNEL; o++) {
            let source = i + o;
            if source >= 1u && source - 1u < op.n {
                let neighbour = ints[op.tokens + first + source - 1u];
                let e = arena[op.table + neighbour * op.token_width + c];
                value += arena[op.conv + o * op.d + c] * e;
            }
        }
    }
    arena[op.x + index] = value;
}

// `conv`: the weights' gradient, one workgroup per (offset, channel) whose lanes share the rows:
// Σ_rows e(i + o − 1)[c] · g[i][c].
@compute @workgroup_size(REDUCE_LANES)
fn conv_weight_grads(grid: Grid, @builtin(local_invocation_index) lane: u32) {
    let index = workgroup_index(grid);
    if index >= CONV_KERNEL * op.d {
        return;
    }
    let o = index / op.d;
    let c = index % op.d;
    var sum = 0.0;
    for (var r = lane; r < op.rows; r += REDUCE_LANES) {
        let i = r % op.n;
        let source = i + o;
        if source >= 1u && source - 1u < op.n {
            let neighbour = ints[op.tokens + r - i + source - 1u];
            let e = arena[op.table + neighbour * op.token_width + c];
            sum += e * arena[op.x + r * op.d + c];
        }
    }
    let total = reduce_sum(lane, sum);
    if lane == 0u {
        arena[op.conv_grads + index] = total;
    }
}

// `conv`: the token embeddings' gradient, g[s] + Σ_o w_o ⊙ g[s + 1 − o] (zero padded), the
// terms in the CPU's order (queries ascending).
@compute @workgroup_size(64)
fn conv_input_grads(grid: Grid, @builtin(local_invocation_index) lane: u32) {
    let index = invocation(grid, lane);
    if index >= op.rows * op.d {
        return;
    }
    let r = index / op.d;
    let c = index % op.d;
    let s = r % op.n;
    var value = arena[op.x + index];
    for (var step = 0u; step < CONV_KERNEL; step++) {
        // o = CONV_KERNEL − 1 − step: query i = s + 1 − o ascending.
        let o = CONV_KERNEL - 1u - step;
        let i = s + 1u;
        if i >= o && i - o < op.n {
            let query = r - s + i - o;
            value += arena[op.conv + o * op.d + c] * arena[op.x + query * op.d + c];
        }
    }
    arena[op.embedded_grads + index] = value;
}

// One workgroup per (token, column): its lanes share the rows.
@compute @workgroup_size(REDUCE_LANES)
fn token_grads(grid: Grid, @builtin(local_invocation_index) lane: u32) {
    let index = workgroup_index(grid);
    if index >= op.vocab * op.token_width {
        return;
    }
    let token = index / op.token_width;
    let c = index % op.token_width;
    var sum = 0.0;
    for (var r = lane; r < op.rows; r += REDUCE_LANES) {
        if ints[op.tokens + r] == token {
            sum += arena[op.x + r * op.d + c];
        }
    }
    let total = reduce_sum(lane, sum);
    if lane == 0u {
        arena[op.table_grads + index] = total;
    }
}

@compute @workgroup_size(64)
fn position_grads(grid: Grid, @builtin(local_invocation_index) lane: u32) {
    let index = invocation(grid, lane);
    if index >= op.position_rows * op.d {
        return;
    }
    let i = index / op.d;
    let c = index % op.d;
    // Rows past this batch's length get a zero gradient, as the CPU's cleared gradient.
    var sum = 0.0;
    if i < op.n {
        for (var b = 0u; b < op.rows / op.n; b++) {
            sum += arena[op.x + (b * op.n + i) * op.d + c];
        }
    }
    arena[op.position_grads + index] = sum;
}
