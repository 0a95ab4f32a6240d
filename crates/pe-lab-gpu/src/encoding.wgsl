// The sinusoidal encoding P (n × d, row-major): p[i, 2j] = sin(i·ω_j), p[i, 2j+1] = cos(i·ω_j),
// row r holding position i = first + r. One invocation per (row, frequency pair j). The error
// analysis is in encoding.rs: the angle is formed in turns from exact f32 products, and sin/cos
// are our own polynomials (shared/sin_cos.wgsl) because WGSL's built-ins only promise 2^-11
// absolute error.

// WORKGROUP_PAIRS and MAX_EXACT_POSITIONS are encoding.rs's (checked by shaders/layout_checks.rs).
const WORKGROUP_PAIRS: u32 = 64u;
// For i below MAX_EXACT_POSITIONS, i·a and i·b are exact
// (13 + 11 significant bits). The host refuses larger n; rows past it are left unwritten here too.
const MAX_EXACT_POSITIONS: u32 = 8192u;

const TAU: f32 = 6.283185307179586;

// Mirrors EncodingParams in encoding.rs (its layout checked by shaders/layout_checks.rs).
struct Params {
    n: u32,
    d: u32,
    pairs: u32,
    // The position of row 0 (1: the Julia edition's 1-based rows); row i is position first + i.
    first: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
// Frequency of pair j in turns per position, split as (a, b, c, 0): f_j = a + b + c.
@group(0) @binding(1) var<storage, read> turns: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> p: array<f32>;

// x − round(x): exact in f32 (the result is made of bits of x below the units place).
fn centered(x: f32) -> f32 {
    return x - round(x);
}

@compute @workgroup_size(WORKGROUP_PAIRS)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let j = id.x;
    let i = id.y;
    // The bound is on the position (the host keeps first + n ≤ MAX_EXACT_POSITIONS).
    let position_index = i + params.first;
    if (j >= params.pairs || i >= params.n || position_index >= MAX_EXACT_POSITIONS) {
        return;
    }
    let f = turns[j];
    let position = f32(position_index);
    // Both products are exact, and so are their centred parts in [−½, ½] and, after taking out
    // whole quarter turns, the remainders in [−⅛, ⅛].
    let xa = centered(position * f.x);
    let xb = centered(position * f.y);
    let qa = round(4.0 * xa);
    let qb = round(4.0 * xb);
    // The one rounding of the turn: a sum of magnitude ≤ ¼, so ≤ 2^-27 turn ≈ 4.7e-8 rad. (Adding
    // xa + xb first would round at magnitude 1, four times worse; an error-free TwoSum instead is
    // simplified away by optimizing drivers such as Mesa's.)
    let ub = (xa - 0.25 * qa) + (xb - 0.25 * qb);
    // Back into [−⅛, ⅛] (exact), then the small third part: ≤ 2^-28 turn more.
    let qc = round(4.0 * ub);
    let u = (ub - 0.25 * qc) + position * f.z;
    let q = qa + qb + qc;
    let x = u * TAU;
    // sin(q·π/2 + x), cos(q·π/2 + x) (q ∈ {−5, …, 5}).
    let sine_cosine = quadrant_sin_cos(q, x);
    let column = 2u * j;
    let index = i * params.d + column;
    p[index] = sine_cosine.x;
    // For odd d the last pair has only its sine column.
    if (column + 1u < params.d) {
        p[index + 1u] = sine_cosine.y;
    }
}
