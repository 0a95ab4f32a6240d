// What the training model's softmax passes share (train_attention.wgsl and train_shaw.wgsl):
// their op, SoftmaxOp in kernels.rs (its layout checked by tests/wgsl_layouts.rs), the bucket (T5)
// or table row (Shaw) of an offset, and the keys a query sees.
struct Op {
    // sequences · heads · n rows of n entries each.
    rows: u32,
    n: u32,
    heads: u32,
    causal: u32,
    // The scores, made the weights in place (forward); read (backward).
    weights: u32,
    // The weights' gradient, made the scores' in place (backward).
    grads: u32,
    // 0: no bias; 1: ALiBi's fixed heads × table_length × table_length biases at `bias`; 2: T5's
    // learned heads × buckets biases at `bias` (their gradient at `bias_grads`); 3: Shaw's
    // heads × buckets × head_width a^K at `bias` (gradient at `bias_grads`) and a^V at `values`
    // (gradient at `value_grads`). The bucket (T5) or row (Shaw) of offset j − i is
    // ints[offset_rows + j + table_length − 1 − i].
    bias_mode: u32,
    bias: u32,
    table_length: u32,
    scale: f32,
    bias_grads: u32,
    buckets: u32,
    offset_rows: u32,
    // Shaw: q (rows × d), the heads' outputs (forward) or their gradient (backward), q's
    // gradient, a^V and its gradient.
    q: u32,
    attended: u32,
    q_grads: u32,
    values: u32,
    value_grads: u32,
    d: u32,
    head_width: u32,
}

// The bucket (T5) or table row (Shaw) of query i and key j.
fn bucket(i: u32, j: u32) -> u32 {
    return ints[op.offset_rows + j + op.table_length - 1u - i];
}

// The keys query i sees: all n, or 0..=i when causal.
fn keys(i: u32) -> u32 {
    if op.causal != 0u {
        return i + 1u;
    }
    return op.n;
}
