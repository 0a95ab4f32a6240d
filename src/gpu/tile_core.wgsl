// The tile core of the four product kernels (gram, attention, alibi_scores, rope_scores): one
// workgroup of SIDE × SIDE invocations computes a TILE × TILE tile of A·Bᵀ (A: rows_a × depth,
// B: rows_b × depth, both read through the kernel's load_a/load_b), each invocation a
// BLOCK × BLOCK block of it (rows local.y + SIDE·a, columns local.x + SIDE·t: interleaved, so that
// neighbouring invocations read neighbouring words), and hands every entry of its block to the
// kernel's `store`. The two TILE-row strips are staged through workgroup memory TILE_K columns at a
// time, stored k-major. Register blocking is what makes it fast: every value read from workgroup
// memory feeds BLOCK multiply-adds instead of one (the Gram kernel before this core, measured on
// lavapipe at n = 1024, d = 512: one entry per invocation 1980 ms, 4 × 4 blocks 551 ms, 8 × 8
// blocks 278 ms).
//
// Not a shader on its own: pe_lab::gpu::tile composes it. It writes the constants SIDE, BLOCK,
// TILE, TILE_K, LANES and the element type Elem (f32, or vec4<f32> where LANES = 4) from one
// TileShape, keeps the staging section of the chosen element type, replaces the `@accumulators`,
// `@accumulate` and `@store` lines with the unrolled text for the block, and appends the kernel.
// The accumulators are named vec4 locals, never an array indexed in a loop: a dynamically indexed
// private array is what a compiler spills to memory.
//
// The kernel provides:
//   fn load_a(slice: u32, row: u32, column: u32) -> Elem   (LANES columns from `column` on)
//   fn load_b(slice: u32, row: u32, column: u32) -> Elem
//   fn store(slice: u32, i: u32, j: u32, value: f32)       (i < rows_a, j < rows_b)
// where `slice` is the kernel's own index (e.g. sequence·heads + head) passed through untouched.
//
// Each entry is summed k = 0, 1, …, depth−1 in order. Columns past depth are staged as zeros in
// both strips, so the inner loop always runs TILE_K steps (a constant trip count) and the padding
// adds exact zeros.

// strip_a[k][r] = A[i0 + r, k0 + k], strip_b[k][r] = B[j0 + r, k0 + k] (zero outside A and B).
var<workgroup> strip_a: array<array<f32, TILE>, TILE_K>;
var<workgroup> strip_b: array<array<f32, TILE>, TILE_K>;

// Must be called in uniform control flow (it has barriers), by every invocation of the workgroup.
fn tile_product(
    slice: u32,
    i0: u32,
    j0: u32,
    rows_a: u32,
    rows_b: u32,
    depth: u32,
    local: vec3<u32>,
    lane: u32,
) {
    // @accumulators
    for (var k0 = 0u; k0 < depth; k0 += TILE_K) {
        // @if scalar
        // TILE·TILE_K values per strip; consecutive lanes along k.
        for (var slot = lane; slot < TILE * TILE_K; slot += SIDE * SIDE) {
            let r = slot / TILE_K;
            let c = slot % TILE_K;
            let column = k0 + c;
            var va = 0.0;
            var vb = 0.0;
            if (column < depth && i0 + r < rows_a) {
                va = load_a(slice, i0 + r, column);
            }
            if (column < depth && j0 + r < rows_b) {
                vb = load_b(slice, j0 + r, column);
            }
            strip_a[c][r] = va;
            strip_b[c][r] = vb;
        }
        // @end
        // @if vec4
        // One vec4 (4 consecutive columns) per slot; depth % 4 = 0, so a vec4 is either wholly
        // inside A's columns or wholly past them.
        for (var slot = lane; slot < TILE * TILE_K / 4u; slot += SIDE * SIDE) {
            let r = slot / (TILE_K / 4u);
            let c = (slot % (TILE_K / 4u)) * 4u;
            let column = k0 + c;
            var va = vec4<f32>();
            var vb = vec4<f32>();
            if (column < depth && i0 + r < rows_a) {
                va = load_a(slice, i0 + r, column);
            }
            if (column < depth && j0 + r < rows_b) {
                vb = load_b(slice, j0 + r, column);
            }
            strip_a[c][r] = va.x;
            strip_a[c + 1u][r] = va.y;
            strip_a[c + 2u][r] = va.z;
            strip_a[c + 3u][r] = va.w;
            strip_b[c][r] = vb.x;
            strip_b[c + 1u][r] = vb.y;
            strip_b[c + 2u][r] = vb.z;
            strip_b[c + 3u][r] = vb.w;
        }
        // @end
        workgroupBarrier();
        for (var k = 0u; k < TILE_K; k += 1u) {
            // @accumulate
        }
        workgroupBarrier();
    }
    // @store
}
