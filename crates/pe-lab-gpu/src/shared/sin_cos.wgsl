// sin and cos of quadrant·π/2 + x for |x| ≤ π/4, shared by the sinusoidal encoding
// (encoding.wgsl) and the RoPE rotation (rope_rotate.wgsl). Each kernel reduces its angle to a
// quadrant and a remainder its own way; both need more than WGSL's built-ins, which only promise
// 2^-11 absolute error on [−π, π] and nothing outside it.

// Taylor polynomials on [−π/4, π/4], Horner form; truncation ≤ 1.8e-9 (sin) and 1.1e-10 (cos).
fn sin_poly(x: f32) -> f32 {
    let x2 = x * x;
    let tail = -1.0 / 5040.0 + x2 * (1.0 / 362880.0);
    return x * (1.0 + x2 * (-1.0 / 6.0 + x2 * (1.0 / 120.0 + x2 * tail)));
}

fn cos_poly(x: f32) -> f32 {
    let x2 = x * x;
    let tail = -1.0 / 720.0 + x2 * (1.0 / 40320.0 + x2 * (-1.0 / 3628800.0));
    return 1.0 + x2 * (-0.5 + x2 * (1.0 / 24.0 + x2 * tail));
}

// (sin, cos) of quadrant·π/2 + x: the polynomials' values swapped and negated by quadrant (an
// integer; & 3 maps it, negative too, to 0..3), which is exact.
fn quadrant_sin_cos(quadrant: f32, x: f32) -> vec2<f32> {
    let sn = sin_poly(x);
    let cs = cos_poly(x);
    var result = vec2<f32>(sn, cs);
    switch (i32(quadrant) & 3) {
        case 1: {
            result = vec2<f32>(cs, -sn);
        }
        case 2: {
            result = vec2<f32>(-sn, -cs);
        }
        case 3: {
            result = vec2<f32>(-cs, sn);
        }
        default: {}
    }
    return result;
}
