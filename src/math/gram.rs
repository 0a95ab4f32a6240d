//! The Gram matrix G = P·Pᵀ of an encoding: G[i, j] = p_i · p_j, the dot product of positions i and
//! j (d2l.ai, "Relative Positional Information": for even d, G[i, i+k] = Σ_j cos(k·ω_j) depends
//! only on the offset k). CPU twin of the GPU kernel `gpu::gram`; [`dot_products`] (A·Bᵀ) also
//! gives the attention scores.

use ndarray::{Array2, ArrayView2};

/// Columns of the result computed together: one f32 accumulator per lane, each summed in the same
/// order as the GPU (so the lanes vectorize without changing any result). 32 lanes are eight SSE
/// registers.
const LANES: usize = 32;

/// G = P·Pᵀ (n × n) for P of shape (n, d).
///
/// Every entry is accumulated in **f32, in column order k = 0, 1, …, d−1**, exactly like each
/// invocation of the GPU kernel, so the two differ only where the GPU contracts a multiply-add into
/// an FMA (within the f32 dot-product bound d·(ε/2)·Σ|p_ik·p_jk|). G is symmetric by construction:
/// G[i, j] is computed once and mirrored (the products commute exactly, so the GPU's G[j, i] is
/// bit-identical to its G[i, j]). n = 0 gives a 0 × 0 matrix; d = 0 a zero matrix.
pub fn gram(p: ArrayView2<f32>) -> Array2<f32> {
    products(p, p, true)
}

/// A·Bᵀ (n_a × n_b): entry (i, j) is Σ_k A[i, k]·B[j, k] over the common columns
/// k < min(A.ncols(), B.ncols()), accumulated in f32 in column order like [`gram`].
pub fn dot_products(a: ArrayView2<f32>, b: ArrayView2<f32>) -> Array2<f32> {
    products(a, b, false)
}

/// A·Bᵀ; with `symmetric` (A = B) only the entries with i ≤ j are computed and then mirrored.
fn products(a: ArrayView2<f32>, b: ArrayView2<f32>, symmetric: bool) -> Array2<f32> {
    let (na, nb) = (a.nrows(), b.nrows());
    let d = a.ncols().min(b.ncols());
    let mut out = Array2::<f32>::zeros((na, nb));
    if na == 0 || nb == 0 || d == 0 {
        return out;
    }
    // Bᵀ cut into panels of LANES rows of B: panels[(block·d + k)·LANES + lane] = B[block·LANES +
    // lane, k], zero past the last row. One panel (d·LANES floats, 64 KiB at d = 512) stays in
    // cache while every row of A is dotted with its LANES rows at once.
    let blocks = nb.div_ceil(LANES);
    let mut panels = vec![0.0f32; blocks * d * LANES];
    for (r, row) in b.rows().into_iter().enumerate() {
        let (block, lane) = (r / LANES, r % LANES);
        for (k, &v) in row.iter().take(d).enumerate() {
            panels[(block * d + k) * LANES + lane] = v;
        }
    }
    let mut row_buf: Vec<f32> = Vec::with_capacity(d);
    for block in 0..blocks {
        let panel = &panels[block * d * LANES..(block + 1) * d * LANES];
        let (j0, j_end) = (block * LANES, ((block + 1) * LANES).min(nb));
        // Symmetric: rows i < j_end cover every entry with i ≤ j in this block; the rest is
        // mirrored.
        let rows = if symmetric { j_end.min(na) } else { na };
        for i in 0..rows {
            row_buf.clear();
            row_buf.extend(a.row(i).iter().take(d));
            let mut acc = [0.0f32; LANES];
            for (&x, lanes) in row_buf.iter().zip(panel.chunks_exact(LANES)) {
                for (sum, &y) in acc.iter_mut().zip(lanes) {
                    *sum += x * y;
                }
            }
            if symmetric {
                for j in j0.max(i)..j_end {
                    out[[i, j]] = acc[j - j0];
                    out[[j, i]] = acc[j - j0];
                }
            } else {
                for j in j0..j_end {
                    out[[i, j]] = acc[j - j0];
                }
            }
        }
    }
    out
}
