// RoPE attention scores S (n × n, row-major) of Q and K (n × d, row-major):
//   S[i, j] = (R_i q_i) · (R_j k_j) · scale,  scale = f32(1/√d),
// where R_m rotates each interleaved pair (2t, 2t + 1) by the angle f32(m)·θ_t (θ_t = base^(−2t/d),
// rounded to f32 on the host). For odd d the last column has no partner and is not rotated. CPU
// twin: math::rope::scores_f32 (error analysis in rope_scores.rs).
//
// The first of the two passes of the RoPE scores kernel (rope_scores.rs records both in one compute
// pass): `rotate`, one invocation per (pair t, row m, matrix): R_m applied to row m of Q (z = 0) or
// of K (z = 1), written to the scratch buffers rq and rk, which the scores pass (rope_scores.wgsl on
// the tile core) then multiplies. A module of its own: the scores pass reads rq and rk as vec4s
// where it can, so it declares them with another element type.

// ROPE_ROTATE_WORKGROUP in rope_scores.rs (checked by shaders/layout_checks.rs).
const ROTATE_WORKGROUP: u32 = 64u;

// π/2 = PIO2_1 + PIO2_2 + PIO2_3 (Cody–Waite; Cephes' sinf split of π/4, doubled). PIO2_1 has 8
// significant bits and PIO2_2 11, so k·PIO2_1 and k·PIO2_2 are exact for quadrant counts
// k < 2^13, i.e. angles below ~12800 rad; the host keeps positions below 4096 and θ_t ≤ 1, so
// angles stay below 4096 rad.
const PIO2_1: f32 = 1.5703125;
const PIO2_2: f32 = 4.837512969970703125e-4;
const PIO2_3: f32 = 7.54978995489188216e-8;
const TWO_OVER_PI: f32 = 0.6366197723675814;

// Params and binding 0: shared/rope_params.wgsl.
@group(0) @binding(1) var<storage, read> q: array<f32>;
@group(0) @binding(2) var<storage, read> k: array<f32>;
// θ_t for t < ⌊d/2⌋, from math::rope::theta_table_f32.
@group(0) @binding(3) var<storage, read> theta: array<f32>;
@group(0) @binding(4) var<storage, read_write> rq: array<f32>;
@group(0) @binding(5) var<storage, read_write> rk: array<f32>;

// (sin a, cos a) for 0 ≤ a < 4096, to a few 1e-8 of the exact values of the f32 angle: WGSL's
// built-ins only promise 2^-11 absolute error on [−π, π] and nothing outside it.
fn sin_cos(a: f32) -> vec2<f32> {
    let quadrant = round(a * TWO_OVER_PI);
    // a − quadrant·PIO2_1 is exact (both products exact, Sterbenz), the next step rounds once at
    // magnitude ≤ π/4.
    let x = ((a - quadrant * PIO2_1) - quadrant * PIO2_2) - quadrant * PIO2_3;
    return quadrant_sin_cos(quadrant, x);
}

@compute @workgroup_size(ROTATE_WORKGROUP)
fn rotate(@builtin(global_invocation_id) id: vec3<u32>) {
    let t = id.x;
    let m = id.y;
    if (t >= params.pairs || m >= params.n) {
        return;
    }
    let d = params.d;
    let column = 2u * t;
    let index = m * d + column;
    let is_q = id.z == 0u;
    // Odd d: the last column has no partner and is copied unrotated.
    if (column + 1u >= d) {
        if (is_q) {
            rq[index] = q[index];
        } else {
            rk[index] = k[index];
        }
        return;
    }
    var xa: f32;
    var xb: f32;
    if (is_q) {
        xa = q[index];
        xb = q[index + 1u];
    } else {
        xa = k[index];
        xb = k[index + 1u];
    }
    // The float32 model's angle, one f32 multiply as math::rope::rotate_rows_f32
    // rounds it (tests/gpu_positional_scores.rs compares the two).
    let angle = f32(m) * theta[t];
    let sc = sin_cos(angle);
    let ra = xa * sc.y - xb * sc.x;
    let rb = xa * sc.x + xb * sc.y;
    if (is_q) {
        rq[index] = ra;
        rq[index + 1u] = rb;
    } else {
        rk[index] = ra;
        rk[index + 1u] = rb;
    }
}

