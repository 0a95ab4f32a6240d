// Tree reductions over a workgroup of REDUCE_LANES invocations, shared by the forward kernels'
// softmax (softmax.wgsl) and the training kernels' long sums: each lane gives a value, every lane
// gets the total, the values combined pairwise at strides REDUCE_LANES/2, /4, …, 1 (another order
// than a sequential sum: agreement with a CPU twin within f32 rounding). Called in uniform control
// flow by every lane of the workgroup; every lane has read the total before the function returns,
// so reductions may follow each other. The Rust constants that size these workgroups are checked
// against REDUCE_LANES by tests/wgsl_layouts.rs.

const REDUCE_LANES: u32 = 64u;

var<workgroup> partial: array<vec2<f32>, REDUCE_LANES>;

// The lanes' values combined component-wise: summed, or their maximum (`maximum`); two
// reductions for one set of barriers where a kernel needs two sums.
fn reduce2(lane: u32, value: vec2<f32>, maximum: bool) -> vec2<f32> {
    partial[lane] = value;
    workgroupBarrier();
    for (var stride = REDUCE_LANES / 2u; stride > 0u; stride = stride / 2u) {
        if lane < stride {
            let other = partial[lane + stride];
            if maximum {
                partial[lane] = max(partial[lane], other);
            } else {
                partial[lane] += other;
            }
        }
        workgroupBarrier();
    }
    let total = partial[0];
    workgroupBarrier();
    return total;
}

fn reduce_sum(lane: u32, value: f32) -> f32 {
    return reduce2(lane, vec2<f32>(value, 0.0), false).x;
}

fn reduce_max(lane: u32, value: f32) -> f32 {
    return reduce2(lane, vec2<f32>(value, 0.0), true).x;
}
