// The training model's dense products (at this model's size, d = 32 and a thousand rows, a step
// is bound by its dispatches and by its long sums, not by the arithmetic):
//   out[z][i, j] = Σ_p A[z](i, p) · B[z](p, j)   (p in order in `main`, across lanes in `split`)
// then, by `flags`: + out[z][i, j] (ACCUMULATE), + bias[j] (BIAS), + addend[z][i, j] (ADDEND),
// max(·, 0) (RELU), 0 where mask[z][i, j] ≤ 0 (MASK: the ReLU's backward).
// Every operand is a strided view into the one arena buffer, which is how one kernel serves the
// projections (z = 3: W_q, W_k, W_v at once), their transposes (swapped strides) and the
// attention's per-head products (z = sequence · heads + head).
// CPU twin: pe_lab_train::linalg::matmul and matmul_transposed_left, and the GEMMs of
// pe_lab_train::attention (whose sums run in another order: agreement within f32 rounding).

// Mirrors MatmulOp in kernels.rs (its layout, 96 bytes, checked by shaders/layout_checks.rs).
struct Op {
    a: u32,
    a_row: u32,
    a_col: u32,
    a_outer: u32,
    a_inner: u32,
    b: u32,
    b_row: u32,
    b_col: u32,
    b_outer: u32,
    b_inner: u32,
    o: u32,
    o_row: u32,
    o_outer: u32,
    o_inner: u32,
    m: u32,
    n: u32,
    k: u32,
    inner: u32,
    flags: u32,
    bias: u32,
    addend: u32,
    mask: u32,
    _pad0: u32,
    _pad1: u32,
}

const ACCUMULATE: u32 = 1u;
const BIAS: u32 = 2u;
const ADDEND: u32 = 4u;
const RELU: u32 = 8u;
const MASK: u32 = 16u;


// Where entry (i, j) of batch z and the first terms of its sum live.
struct Site {
    a: u32,
    b: u32,
    at: u32,
}

fn site(z: u32, i: u32, j: u32) -> Site {
    let outer = z / op.inner;
    let inner = z % op.inner;
    return Site(
        op.a + outer * op.a_outer + inner * op.a_inner + i * op.a_row,
        op.b + outer * op.b_outer + inner * op.b_inner + j * op.b_col,
        op.o + outer * op.o_outer + inner * op.o_inner + i * op.o_row + j,
    );
}

// The flags' epilogue on the product, and the store.
fn finish(at: u32, j: u32, product: f32) {
    var sum = 0.0;
    if (op.flags & ACCUMULATE) != 0u {
        sum = arena[at];
    }
    sum += product;
    if (op.flags & BIAS) != 0u {
        sum += arena[op.bias + j];
    }
    let relative = at - op.o;
    if (op.flags & ADDEND) != 0u {
        sum += arena[op.addend + relative];
    }
    if (op.flags & RELU) != 0u {
        sum = max(sum, 0.0);
    }
    if (op.flags & MASK) != 0u && arena[op.mask + relative] <= 0.0 {
        sum = 0.0;
    }
    arena[at] = sum;
}

// One invocation per entry: the sum in order, p = 0, 1, …, k − 1 (short sums: the products'
// k = d or a head's width or n).
@compute @workgroup_size(64)
fn main(grid: Grid, @builtin(local_invocation_index) lane: u32) {
    let index = invocation(grid, lane);
    if index >= op.m * op.n {
        return;
    }
    let j = index % op.n;
    let s = site(grid.group.z, index / op.n, j);
    var product = 0.0;
    for (var p = 0u; p < op.k; p++) {
        product += arena[s.a + p * op.a_col] * arena[s.b + p * op.b_row];
    }
    finish(s.at, j, product);
}

// One workgroup per entry, for long sums (the weights' gradients sum over every row of the
// batch): lane l sums p = l, l + REDUCE_LANES, …, then the lanes' sums are added as a tree. Another
// order than the CPU's: agreement within f32 rounding.
@compute @workgroup_size(REDUCE_LANES)
fn split(grid: Grid, @builtin(local_invocation_index) lane: u32) {
    let index = workgroup_index(grid);
    if index >= op.m * op.n {
        return;
    }
    let j = index % op.n;
    let s = site(grid.group.z, index / op.n, j);
    var product = 0.0;
    for (var p = lane; p < op.k; p += REDUCE_LANES) {
        product += arena[s.a + p * op.a_col] * arena[s.b + p * op.b_row];
    }
    let total = reduce_sum(lane, product);
    if lane == 0u {
        finish(s.at, j, total);
    }
}
