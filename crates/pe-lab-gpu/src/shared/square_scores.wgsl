// The scores pass of the square score kernels (alibi_scores.wgsl, rope_scores.wgsl): the n × n
// scores of n × d queries and keys (params.n, params.d) as the tiled product of tile_core.wgsl,
// query tiles along y and key tiles along x, one matrix (slice 0). The kernel provides load_a,
// load_b and store (see tile_core.wgsl) and CAUSAL: whether the tiles wholly above the diagonal
// (every key after every query) are skipped, their entries left to the kernel's other passes.
@compute @workgroup_size(SIDE, SIDE)
fn scores(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(local_invocation_id) local: vec3<u32>,
    @builtin(local_invocation_index) lane: u32,
) {
    let n = params.n;
    let i0 = group.y * TILE;
    let j0 = group.x * TILE;
    // The condition depends on the workgroup only, so the barriers of tile_product stay in
    // uniform control flow.
    if (CAUSAL && j0 > i0 + TILE - 1u) {
        return;
    }
    tile_product(0u, i0, j0, n, n, params.d, local, lane);
}
