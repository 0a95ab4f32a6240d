// The forward kernels' softmax of one row of `w` (the kernel's read_write array<f32>), one
// workgroup of REDUCE_LANES per row (reduce.wgsl): the maximum and the sum of exponentials over
// the first `valid` of the row's `count` entries are tree-reduced, then each entry is
// max-subtracted exp divided by the sum, and the entries from `valid` on become exactly 0.
// valid = 0: every entry 1/count (d2l's masked_softmax gives every key the same score −1e6; the
// CPU twin, math::attention::masked_softmax_row, does the same f32 division).
fn softmax_row(row: u32, valid: u32, count: u32, lane: u32) {
    // The lowest finite f32, by its bits: Tint rejects the decimal literal as not representable.
    var local_max = bitcast<f32>(0xff7fffffu);
    for (var key = lane; key < valid; key += REDUCE_LANES) {
        local_max = max(local_max, w[row + key]);
    }
    let row_max = reduce_max(lane, local_max);

    var local_sum = 0.0;
    for (var key = lane; key < valid; key += REDUCE_LANES) {
        let e = exp(w[row + key] - row_max);
        w[row + key] = e;
        local_sum = local_sum + e;
    }
    let total = reduce_sum(lane, local_sum);

    // Each invocation normalizes the keys it wrote itself, so no barrier is needed on w.
    for (var key = lane; key < count; key += REDUCE_LANES) {
        if (valid == 0u) {
            w[row + key] = 1.0 / f32(count);
        } else if (key < valid) {
            w[row + key] = w[row + key] / total;
        } else {
            w[row + key] = 0.0;
        }
    }
}
