// RoPE's rotation of q and k by their positions (forward), or of their gradients by the inverse
// rotation (backward: the rotation is orthogonal), in place: one invocation per pair (2t, 2t + 1)
// of a head of a row. CPU twin: pe_lab_train::attention::rope_rotate (the same products).

// Mirrors RopeOp in kernels.rs (its layout, 48 bytes, checked by shaders/layout_checks.rs).
struct Op {
    rows: u32,
    n: u32,
    d: u32,
    head_width: u32,
    // position × head_width/2 tables.
    cos: u32,
    sin: u32,
    // The first block rotated (q or its gradient), then `blocks` blocks `stride` apart.
    data: u32,
    blocks: u32,
    stride: u32,
    inverse: u32,
    _pad0: u32,
    _pad1: u32,
}


@compute @workgroup_size(64)
fn main(grid: Grid, @builtin(local_invocation_index) lane: u32) {
    let index = invocation(grid, lane);
    let pairs_per_row = op.d / 2u;
    let per_block = op.rows * pairs_per_row;
    if index >= op.blocks * per_block {
        return;
    }
    let block = index / per_block;
    let r = (index % per_block) / pairs_per_row;
    let pair = index % pairs_per_row;
    let half = op.head_width / 2u;
    let t = pair % half;
    let m = r % op.n;
    let c = arena[op.cos + m * half + t];
    let s = arena[op.sin + m * half + t];
    let at = op.data + block * op.stride + r * op.d + 2u * pair;
    let a = arena[at];
    let b = arena[at + 1u];
    if op.inverse != 0u {
        arena[at] = a * c + b * s;
        arena[at + 1u] = b * c - a * s;
    } else {
        arena[at] = a * c - b * s;
        arena[at + 1u] = a * s + b * c;
    }
}
