// The readout's softmax cross-entropy (one invocation per row: the row's loss term, and the
// logits made their gradient (softmax − onehot)/count in place), the mean loss of the batch
// (one workgroup, summing the rows as a tree, into the step's slot of the loss ring) and Adam
// (one invocation per parameter).
// CPU twins: pe_lab_train::model (Model::loss), pe_lab_train::backward (the logits' gradient) and
// pe_lab_train::adam::Adam::update (the same operations in the same order).

// Mirrors LossOp in kernels.rs (its layout, 48 bytes, checked by shaders/layout_checks.rs).
struct Op {
    rows: u32,
    classes: u32,
    logits: u32,
    row_loss: u32,
    // Where the targets start in `ints` (NO_TARGET: u32 max).
    targets: u32,
    losses: u32,
    params: u32,
    grads: u32,
    first: u32,
    second: u32,
    count: u32,
    _pad0: u32,
}

// Mirrors StepUniform in kernels.rs (its layout, 48 bytes, checked by shaders/layout_checks.rs): what changes every
// step, written before the step's commands are submitted.
struct Step {
    step_size: f32,
    inverse_correction: f32,
    beta1: f32,
    beta2: f32,
    one_minus_beta1: f32,
    one_minus_beta2: f32,
    epsilon: f32,
    inverse_count: f32,
    count: f32,
    loss_slot: u32,
    _pad0: u32,
    _pad1: u32,
}

const NO_TARGET: u32 = 0xffffffffu;

@group(0) @binding(1) var<uniform> step: Step;

@compute @workgroup_size(64)
fn cross_entropy(grid: Grid, @builtin(local_invocation_index) lane: u32) {
    let r = invocation(grid, lane);
    if r >= op.rows {
        return;
    }
    let at = op.logits + r * op.classes;
    let wanted = ints[op.targets + r];
    if wanted == NO_TARGET {
        for (var c = 0u; c < op.classes; c++) {
            arena[at + c] = 0.0;
        }
        arena[op.row_loss + r] = 0.0;
        return;
    }
    let logit = arena[at + wanted];
    let exponentials = softmax_exponentials(at, op.classes);
    let largest = exponentials.x;
    let sum = exponentials.y;
    let inverse = 1.0 / sum;
    for (var c = 0u; c < op.classes; c++) {
        var p = arena[at + c] * inverse;
        if c == wanted {
            p -= 1.0;
        }
        arena[at + c] = p * step.inverse_count;
    }
    arena[op.row_loss + r] = log(sum) - (logit - largest);
}

// One workgroup: the lanes share the rows, then their sums are added as a tree.
@compute @workgroup_size(REDUCE_LANES)
fn mean_loss(@builtin(local_invocation_index) lane: u32) {
    var total = 0.0;
    for (var r = lane; r < op.rows; r += REDUCE_LANES) {
        if ints[op.targets + r] != NO_TARGET {
            total += arena[op.row_loss + r];
        }
    }
    let sum = reduce_sum(lane, total);
    if lane == 0u {
        var loss = 0.0;
        if step.count > 0.0 {
            loss = sum / step.count;
        }
        arena[op.losses + step.loss_slot] = loss;
    }
}

@compute @workgroup_size(64)
fn adam(grid: Grid, @builtin(local_invocation_index) lane: u32) {
    let i = invocation(grid, lane);
    if i >= op.count {
        return;
    }
    let g = arena[op.grads + i];
    let m = step.beta1 * arena[op.first + i] + step.one_minus_beta1 * g;
    let v = step.beta2 * arena[op.second + i] + step.one_minus_beta2 * g * g;
    arena[op.first + i] = m;
    arena[op.second + i] = v;
    arena[op.params + i] -= step.step_size * m / (sqrt(v) * step.inverse_correction + step.epsilon);
}
