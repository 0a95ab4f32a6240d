// Statistics of the encoding P (n × d, row-major) in one dispatch, one invocation per
// (position i, frequency pair j):
// - the largest projection error |M_j·(p[i,2j], p[i,2j+1]) − (p[i+δ,2j], p[i+δ,2j+1])| over the
//   positions with a partner (start ≤ i < end) and the complete pairs, M_j = [[c, s], [−s, c]]
//   (twin: math::relative::projection_error_of, which does the same in f64);
// - the minimum and maximum of P.
// Each workgroup reduces in workgroup atomics, then one invocation updates the global ones. Errors
// are ≥ 0, so their f32 bits order like u32; min/max use the order-preserving key below.

// STATS_WORKGROUP_PAIRS in stats.rs (checked by shaders/layout_checks.rs).
const WORKGROUP_PAIRS: u32 = 64u;

// Mirrors StatsParams in stats.rs (its layout checked by shaders/layout_checks.rs).
struct Params {
    n: u32,
    d: u32,
    pairs: u32,
    delta: i32,
    start: u32,
    end: u32,
    _pad0: u32,
    _pad1: u32,
}

// Mirrors the three u32 read by StatsKernel::read (its layout checked by shaders/layout_checks.rs).
struct Totals {
    max_error_bits: atomic<u32>,
    min_key: atomic<u32>,
    max_key: atomic<u32>,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> p: array<f32>;
// (cos δω_j, sin δω_j) per complete pair, computed in f64 on the host and rounded to f32.
@group(0) @binding(2) var<storage, read> rotation: array<vec2<f32>>;
@group(0) @binding(3) var<storage, read_write> result: Totals;

var<workgroup> group_error: atomic<u32>;
var<workgroup> group_min: atomic<u32>;
var<workgroup> group_max: atomic<u32>;

// Maps f32 to u32 so that unsigned order is float order: negative values have all bits flipped,
// non-negative ones the sign bit set. The same function as order_key in stats.rs
// (tests/gpu_kernels.rs compares the GPU's min and max with the CPU's).
fn order_key(x: f32) -> u32 {
    let bits = bitcast<u32>(x);
    if ((bits & 0x80000000u) != 0u) {
        return ~bits;
    }
    return bits | 0x80000000u;
}

fn include_value(x: f32) {
    let key = order_key(x);
    atomicMin(&group_min, key);
    atomicMax(&group_max, key);
}

@compute @workgroup_size(WORKGROUP_PAIRS)
fn main(
    @builtin(global_invocation_id) id: vec3<u32>,
    @builtin(local_invocation_index) lane: u32,
) {
    if (lane == 0u) {
        atomicStore(&group_error, 0u);
        atomicStore(&group_min, 0xffffffffu);
        atomicStore(&group_max, 0u);
    }
    workgroupBarrier();
    let j = id.x;
    let i = id.y;
    let column = 2u * j;
    if (i < params.n && column < params.d) {
        let index = i * params.d + column;
        let x = p[index];
        include_value(x);
        if (column + 1u < params.d) {
            let y = p[index + 1u];
            include_value(y);
            if (i >= params.start && i < params.end && j < params.pairs) {
                let partner_row = u32(i32(i) + params.delta);
                let partner = partner_row * params.d + column;
                let m = rotation[j];
                let ex = abs(m.x * x + m.y * y - p[partner]);
                let ey = abs(-m.y * x + m.x * y - p[partner + 1u]);
                atomicMax(&group_error, bitcast<u32>(max(ex, ey)));
            }
        }
    }
    workgroupBarrier();
    if (lane == 0u) {
        atomicMax(&result.max_error_bits, atomicLoad(&group_error));
        atomicMin(&result.min_key, atomicLoad(&group_min));
        atomicMax(&result.max_key, atomicLoad(&group_max));
    }
}
