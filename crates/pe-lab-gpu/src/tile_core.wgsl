// The tile core of the four product kernels (gram, attention, alibi_scores, rope_scores): one
// workgroup of SIDE × SIDE invocations computes a TILE × TILE tile of A·Bᵀ (A: rows_a × depth,
// B: rows_b × depth, both read through the kernel's load_a/load_b), each invocation a
// BLOCK × BLOCK block of it, and hands every entry of its block to the kernel's `store`.
//
// Why it is shaped this way (each point a measured cause of lost speed):
// - Register blocking: every value read from workgroup memory feeds BLOCK multiply-adds instead of
//   one (the Gram kernel before this core, on lavapipe at n = 1024, d = 512: one entry per
//   invocation 1980 ms, 4 × 4 blocks 551 ms, 8 × 8 blocks 278 ms).
// - The accumulators are named vec4 locals, never an array indexed in a loop: a dynamically
//   indexed private array is what a GPU compiler spills to memory (on an H100 the same tiling ran
//   5–13× faster with named accumulators).
// - The strips are stored k-major as vec4s of four consecutive rows, so an invocation reads its
//   rows and columns with BLOCK/2 vec4 loads per step instead of 2·BLOCK scalar ones. An
//   invocation's rows are 4·(local.y + SIDE·q) + u (q < BLOCK/4, u < 4) and its columns
//   4·(local.x + SIDE·c) + t: neighbouring invocations read neighbouring vec4s.
// - Staging is double-buffered through registers: the next strips' global loads are issued
//   before the multiply-adds on the current ones, so their latency hides behind arithmetic.
// - The k steps are unrolled in the composed text (a constant trip count a compiler need not
//   discover).
//
// Not a shader on its own: pe_lab_gpu::tile composes it. It writes the constants SIDE, BLOCK,
// TILE, TILE4 (= TILE/4), TILE_K, INVOCATIONS, STAGE_BLOCKS (4 × 4 blocks of both strips),
// LANES and the element type Elem (f32, or vec4<f32> where LANES = 4) from one TileShape, keeps
// the load section of the chosen element type, replaces the `@…` lines with unrolled text for the
// shape, and appends the kernel.
//
// The kernel provides:
//   fn load_a(slice: u32, row: u32, column: u32) -> Elem   (LANES columns from `column` on)
//   fn load_b(slice: u32, row: u32, column: u32) -> Elem
//   fn store(slice: u32, i: u32, j: u32, value: f32)       (i < rows_a, j < rows_b)
// where `slice` is the kernel's own index (e.g. sequence·heads + head) passed through untouched.
//
// Each entry is summed k = 0, 1, …, depth−1 in order. Columns past depth are staged as zeros in
// both strips, so every step runs all TILE_K columns and the padding adds exact zeros.

// strip_a[k][r] = A[i0 + 4r + (0, 1, 2, 3), k0 + k], strip_b likewise for B at j0 (zero outside
// A and B).
var<workgroup> strip_a: array<array<vec4<f32>, TILE4>, TILE_K>;
var<workgroup> strip_b: array<array<vec4<f32>, TILE4>, TILE_K>;

// Four rows × four columns of A or B, as staged by one invocation: row u is rows[u].
struct StageBlock {
    r0: vec4<f32>,
    r1: vec4<f32>,
    r2: vec4<f32>,
    r3: vec4<f32>,
}

// Columns column .. column + 3 of row `row` of A (which = 0) or B (which = 1), zero past
// `rows` and `depth`.
fn load_four(which: u32, slice: u32, row: u32, column: u32, rows: u32, depth: u32) -> vec4<f32> {
    var v = vec4<f32>();
    if (row >= rows) {
        return v;
    }
    // @if vec4
    // depth % 4 = 0, so the four columns are wholly inside or wholly past depth.
    if (column < depth) {
        if (which == 0u) {
            v = load_a(slice, row, column);
        } else {
            v = load_b(slice, row, column);
        }
    }
    // @end
    // @if scalar
    for (var t = 0u; t < 4u; t += 1u) {
        if (column + t < depth) {
            if (which == 0u) {
                v[t] = load_a(slice, row, column + t);
            } else {
                v[t] = load_b(slice, row, column + t);
            }
        }
    }
    // @end
    return v;
}

// Block `slot` of the strips starting at column k0: slot = (which·(TILE_K/4) + k4)·TILE4 + r4
// covers rows 4·r4 .. 4·r4 + 3 and columns k0 + 4·k4 .. + 3 of A (which = 0) or B. Row groups
// vary fastest, so that the stores of neighbouring invocations hit different banks.
fn stage_load(
    slot: u32,
    slice: u32,
    i0: u32,
    j0: u32,
    rows_a: u32,
    rows_b: u32,
    k0: u32,
    depth: u32,
) -> StageBlock {
    var staged: StageBlock;
    if (slot >= STAGE_BLOCKS) {
        return staged;
    }
    let r4 = slot % TILE4;
    let k4 = (slot / TILE4) % (TILE_K / 4u);
    let which = slot / (TILE4 * (TILE_K / 4u));
    let row = select(j0, i0, which == 0u) + 4u * r4;
    let rows = select(rows_b, rows_a, which == 0u);
    let column = k0 + 4u * k4;
    staged.r0 = load_four(which, slice, row, column, rows, depth);
    staged.r1 = load_four(which, slice, row + 1u, column, rows, depth);
    staged.r2 = load_four(which, slice, row + 2u, column, rows, depth);
    staged.r3 = load_four(which, slice, row + 3u, column, rows, depth);
    return staged;
}

// Writes block `slot` (loaded by stage_load) into the strips, transposed to k-major.
fn stage_store(slot: u32, staged: StageBlock) {
    if (slot >= STAGE_BLOCKS) {
        return;
    }
    let r4 = slot % TILE4;
    let k = 4u * ((slot / TILE4) % (TILE_K / 4u));
    let c0 = vec4<f32>(staged.r0.x, staged.r1.x, staged.r2.x, staged.r3.x);
    let c1 = vec4<f32>(staged.r0.y, staged.r1.y, staged.r2.y, staged.r3.y);
    let c2 = vec4<f32>(staged.r0.z, staged.r1.z, staged.r2.z, staged.r3.z);
    let c3 = vec4<f32>(staged.r0.w, staged.r1.w, staged.r2.w, staged.r3.w);
    if (slot < TILE4 * (TILE_K / 4u)) {
        strip_a[k][r4] = c0;
        strip_a[k + 1u][r4] = c1;
        strip_a[k + 2u][r4] = c2;
        strip_a[k + 3u][r4] = c3;
    } else {
        strip_b[k][r4] = c0;
        strip_b[k + 1u][r4] = c1;
        strip_b[k + 2u][r4] = c2;
        strip_b[k + 3u][r4] = c3;
    }
}

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
    // @stage_first
    for (var k0 = 0u; k0 < depth; k0 += TILE_K) {
        // @stage_store
        workgroupBarrier();
        if (k0 + TILE_K < depth) {
            // @stage_next
        }
        // @accumulate
        workgroupBarrier();
    }
    // @store
}
