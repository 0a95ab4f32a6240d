// The RoPE scores kernel's uniforms, read by both of its passes (rope_rotate.wgsl, then
// rope_scores.wgsl on the tile core), which share one bind group. Mirrors RopeParams in
// rope_scores.rs (its layout, 16 bytes, checked by shaders/layout_checks.rs).
struct Params {
    n: u32,
    d: u32,
    // ⌈d/2⌉: the pairs, the last one a lone unrotated column when d is odd.
    pairs: u32,
    scale: f32,
}

@group(0) @binding(0) var<uniform> params: Params;
