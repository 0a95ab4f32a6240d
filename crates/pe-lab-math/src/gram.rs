//! The Gram matrix G = P·Pᵀ of an encoding: G[i, j] = p_i · p_j, the dot product of positions i and
//! j (d2l.ai, "Relative Positional Information": for even d, G[i, i+k] = Σ_j cos(k·ω_j) depends
//! only on the offset k). CPU twin of the GPU kernel `gpu::gram`; [`dot_products`] (A·Bᵀ) also
//! gives the attention scores.
//!
//! The products are ndarray's `general_mat_mul`, i.e. the `matrixmultiply` crate's packed, blocked
//! SGEMM: pure Rust, single-threaded, AVX-512/AVX2+FMA/AVX picked at run time natively, a simd128
//! kernel for wasm32 (the page is built with `+simd128`). Chosen by measurement (native, one
//! thread, A·Bᵀ at d = 512): 6.2 ms at n = 1024 and 26–34 ms at n = 2048 with its AVX-512 kernel,
//! NumPy/OpenBLAS 10–12 and 42 ms; the `gemm` crate 9.3 and 40–44 ms (its AVX-512 needs nightly)
//! with some twenty more crates and threads by default; the old column-order loops 205 and 744 ms.
//!
//! Accuracy: every entry is a d-term f32 dot product, summed in the GEMM's order (in blocks of
//! columns, with fused multiply-adds where the CPU has them), so it is within the classic bound
//! |fl(a·b) − a·b| ≤ γ_d·Σ_k |a_k·b_k|, γ_d = d·u/(1 − d·u), u = 2⁻²⁴, of the exact value; the GPU
//! kernel, which sums k = 0, 1, …, d−1, is within the same bound, so the twins agree within twice
//! it (no longer bit for bit).

use ndarray::linalg::general_mat_mul;
use ndarray::{s, Array2, ArrayView2, ArrayViewMut2};

/// Rows per block of the symmetric product: block r computes rows r·B .. (r+1)·B of G from the
/// diagonal rightwards, so only the entries on and above the diagonal (plus the lower halves of the
/// diagonal blocks) are computed, about (1 + B/n)/2 of the work. Measured at d = 512, n = 1024 and
/// 2048: 128 and 256 alike and 15–25 % faster than one full product; 64 slower (small GEMM calls
/// pack more and run less efficiently), 512 saves less. n ≤ B is one full product.
const GRAM_BLOCK: usize = 256;

/// Side of the square tiles in which the lower triangle is copied from the upper one. The tile's
/// column is read with a stride of a whole row; at n = 2048 a row is 8 KiB, so the lines of a tall
/// tile all fall into the same L1 set: 8 × 8 tiles copied 2048² entries in 1.6 ms, 32 × 32 tiles
/// in 3.4 ms.
const MIRROR_TILE: usize = 8;

/// G = P·Pᵀ (n × n) for P of shape (n, d).
///
/// Every entry is a d-term dot product accumulated in f32 in the GEMM's order (see the module
/// documentation for the rounding bound against the exact value and the GPU kernel). G is exactly
/// symmetric: only the blocks on and above the diagonal are computed and the lower triangle is a
/// copy of the upper one. n = 0 gives a 0 × 0 matrix; d = 0 a zero matrix.
pub fn gram(p: ArrayView2<f32>) -> Array2<f32> {
    products(p, p)
}

/// A·Bᵀ (n_a × n_b): entry (i, j) is Σ_k A[i, k]·B[j, k] over the common columns
/// k < min(A.ncols(), B.ncols()), accumulated in f32 like [`gram`]. When A and B are the same view
/// (the same data, shape and strides, as in self-attention with Q = K) the result is [`gram`]'s,
/// computed with its symmetric shortcut.
pub fn dot_products(a: ArrayView2<f32>, b: ArrayView2<f32>) -> Array2<f32> {
    products(a, b)
}

fn products(a: ArrayView2<f32>, b: ArrayView2<f32>) -> Array2<f32> {
    let mut out = Array2::<f32>::zeros((a.nrows(), b.nrows()));
    // A fresh array is in standard layout, so the slice is always there.
    if let Some(slice) = out.as_slice_mut() {
        products_into(a, b, slice);
    }
    out
}

/// Writes A·Bᵀ (the common columns, like [`dot_products`]) into `out`, the row-major
/// A.nrows() × B.nrows() result; a slice of any other length is left untouched.
pub(crate) fn products_into(a: ArrayView2<f32>, b: ArrayView2<f32>, out: &mut [f32]) {
    let (na, nb) = (a.nrows(), b.nrows());
    if out.len() != na * nb || out.is_empty() {
        return;
    }
    let d = a.ncols().min(b.ncols());
    if d == 0 {
        out.fill(0.0);
        return;
    }
    let (a, b) = (a.slice(s![.., ..d]), b.slice(s![.., ..d]));
    if same_view(a, b) {
        symmetric_into(a, out);
    } else if let Ok(mut c) = ArrayViewMut2::from_shape((na, nb), out) {
        general_mat_mul(1.0, &a, &b.t(), 0.0, &mut c);
    }
}

/// Whether two views show the same elements in the same places (then A·Bᵀ = A·Aᵀ is symmetric).
fn same_view(a: ArrayView2<f32>, b: ArrayView2<f32>) -> bool {
    a.as_ptr() == b.as_ptr() && a.dim() == b.dim() && a.strides() == b.strides()
}

/// P·Pᵀ into `out`, the row-major n × n result: the blocks of rows [r0, r1) × columns [r0, n) by
/// GEMM, then the lower triangle copied from the upper one.
fn symmetric_into(p: ArrayView2<f32>, out: &mut [f32]) {
    let n = p.nrows();
    let Ok(mut g) = ArrayViewMut2::from_shape((n, n), &mut *out) else {
        return;
    };
    for r0 in (0..n).step_by(GRAM_BLOCK) {
        let r1 = (r0 + GRAM_BLOCK).min(n);
        general_mat_mul(
            1.0,
            &p.slice(s![r0..r1, ..]),
            &p.slice(s![r0.., ..]).t(),
            0.0,
            &mut g.slice_mut(s![r0..r1, r0..]),
        );
    }
    mirror_upper_to_lower(out, n);
}

/// g[i·n + j] = g[j·n + i] for j < i: the row-major n × n matrix `g` made symmetric from its upper
/// triangle, in [`MIRROR_TILE`]² tiles.
fn mirror_upper_to_lower(g: &mut [f32], n: usize) {
    for i0 in (0..n).step_by(MIRROR_TILE) {
        for j0 in (0..=i0).step_by(MIRROR_TILE) {
            for i in i0..(i0 + MIRROR_TILE).min(n) {
                for j in j0..(j0 + MIRROR_TILE).min(i) {
                    g[i * n + j] = g[j * n + i];
                }
            }
        }
    }
}
