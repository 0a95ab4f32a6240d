// The training kernels' softmax of one row of the arena by one invocation, in the CPU twin's
// order (the maximum, then the exponentials and their sum, entry by entry): the `count` entries
// at `at` become exp(x − max); returns (max, sum), with which the caller finishes (attention's
// weights: × 1/sum; the loss: log(sum) − (logit − max), and the probabilities' gradient).
fn softmax_exponentials(at: u32, count: u32) -> vec2<f32> {
    var largest = arena[at];
    for (var c = 1u; c < count; c++) {
        largest = max(largest, arena[at + c]);
    }
    var sum = 0.0;
    for (var c = 0u; c < count; c++) {
        let e = exp(arena[at + c] - largest);
        arena[at + c] = e;
        sum += e;
    }
    return vec2<f32>(largest, sum);
}
