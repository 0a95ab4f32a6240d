//! The matrix product every dense step of the model runs on: out (m × n) (+)= A · B on row-major
//! slices with row strides, so that one head's columns of q, k and v (stride d) are operands
//! as they lie, and A may be stored transposed (the weight gradients aᵀ·b, and the attention's
//! αᵀ·g) without a copy.
//!
//! Hand-written rather than taken from a GEMM crate: those pick their kernel (AVX, FMA) at run
//! time, and a fused multiply-add rounds differently, so the same link would train differently on
//! two machines or in the page's wasm. Here every entry is summed over p = 0, 1, …, k − 1 in
//! order with a separate multiply and add, like the plain triple loop, so the f32 results do not
//! depend on the vector width.

use crate::real::Real;

/// Rows of `out` computed together: each loaded row of B serves all of them.
const ROW_BLOCK: usize = 4;
/// The terms of the sum over p taken in one pass: a pass's rows of B (and of a transposed A)
/// stay in the first-level cache for every block of rows. Passes only split the sum: each one
/// starts from the sums the one before stored, so the order is the same.
const DEPTH_BLOCK: usize = 256;

/// The left operand A (m × k): `a` with rows `stride` apart, or, transposed, the k × m matrix
/// whose rows are `stride` apart (A(i, p) = a[p·stride + i]).
#[derive(Clone, Copy)]
pub struct Left<'a, T> {
    pub a: &'a [T],
    pub stride: usize,
    pub transposed: bool,
}

impl<'a, T> Left<'a, T> {
    pub fn plain(a: &'a [T], stride: usize) -> Self {
        Left {
            a,
            stride,
            transposed: false,
        }
    }

    pub fn transposed(a: &'a [T], stride: usize) -> Self {
        Left {
            a,
            stride,
            transposed: true,
        }
    }
}

/// out (m × n, rows `out_stride` apart) = A · B (B: k × n, rows `b_stride` apart), or `+=` when
/// `accumulate`.
///
/// Blocks of 4 rows × 8 columns: 8 of the 16 vector registers of SSE2 and of wasm's simd128 (as
/// V8 maps it on x86-64), leaving room for the row of B and the broadcast entry of A, so the
/// sums stay in registers. Where the CPU has AVX, the same code runs on 4 × 16 blocks of 8-wide
/// registers: each entry still gets the same multiplies and adds in the same order (AVX without
/// FMA rounds exactly like SSE2), so the results are the same bits either way.
#[allow(clippy::too_many_arguments)]
pub fn gemm<T: Real>(
    left: Left<T>,
    b: &[T],
    b_stride: usize,
    out: &mut [T],
    out_stride: usize,
    (m, k, n): (usize, usize, usize),
    accumulate: bool,
) {
    if m == 0 || n == 0 {
        return;
    }
    let product = Product {
        left,
        b: (b, b_stride),
        out: (out, out_stride),
        shape: (m, k, n),
        accumulate,
    };
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx") {
        // SAFETY: the CPU has AVX, the only feature `gemm_avx` is compiled for.
        unsafe { gemm_avx(product) };
        return;
    }
    gemm_blocks::<T, 8, DEPTH_BLOCK>(product);
}

/// One product as [`gemm`] was asked for it, handed whole to the kernel it picks: B and out
/// with their row strides.
struct Product<'a, T> {
    left: Left<'a, T>,
    b: (&'a [T], usize),
    out: (&'a mut [T], usize),
    shape: (usize, usize, usize),
    accumulate: bool,
}

/// [`gemm`] compiled for AVX (not FMA: a fused multiply-add would round differently).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
unsafe fn gemm_avx<T: Real>(product: Product<T>) {
    gemm_blocks::<T, 16, DEPTH_BLOCK>(product);
}

/// [`gemm`] with blocks of 4 × `NR` columns, then narrower ones at the right edge, in passes of
/// `KC` terms.
#[inline(always)]
fn gemm_blocks<T: Real, const NR: usize, const KC: usize>(product: Product<T>) {
    let Product {
        left,
        b: (b, b_stride),
        out: (out, out_stride),
        shape: (m, k, n),
        accumulate,
    } = product;
    let (a, lda) = (left.a, left.stride);
    let mut i0 = 0;
    while i0 < m {
        let rows = ROW_BLOCK.min(m - i0);
        let mut p0 = 0;
        // k = 0: the product is 0 (one empty pass clears `out` unless accumulating).
        loop {
            let depth = KC.min(k - p0);
            let b_rows = (&b[p0 * b_stride..], b_stride);
            let out_rows = &mut out[i0 * out_stride..];
            let add = accumulate || p0 > 0;
            // The transposed A's rows p0.. (each holds one term for every row of out).
            let a_rows = || a[p0 * lda..].chunks(lda).take(depth);
            // A's rows i0.. read in place, term by term (A(i0 + r, p0 + p) for r < 4).
            let row = |r: usize| &a[(i0 + r) * lda + p0..][..depth];
            if rows == ROW_BLOCK && left.transposed {
                let terms = a_rows().map(|from| {
                    <[T; ROW_BLOCK]>::try_from(&from[i0..i0 + ROW_BLOCK]).expect("4 terms")
                });
                row_block::<T, ROW_BLOCK, NR>(terms, b_rows, out_rows, out_stride, n, add);
            } else if rows == ROW_BLOCK {
                let terms = row(0)
                    .iter()
                    .zip(row(1))
                    .zip(row(2))
                    .zip(row(3))
                    .map(|(((&x0, &x1), &x2), &x3)| [x0, x1, x2, x3]);
                row_block::<T, ROW_BLOCK, NR>(terms, b_rows, out_rows, out_stride, n, add);
            } else {
                for r in 0..rows {
                    let out_row = &mut out_rows[r * out_stride..];
                    if left.transposed {
                        let terms = a_rows().map(|from| [from[i0 + r]]);
                        row_block::<T, 1, NR>(terms, b_rows, out_row, out_stride, n, add);
                    } else {
                        let terms = row(r).iter().map(|&x| [x]);
                        row_block::<T, 1, NR>(terms, b_rows, out_row, out_stride, n, add);
                    }
                }
            }
            p0 += depth;
            if p0 >= k {
                break;
            }
        }
        i0 += rows;
    }
}

/// `MR` rows of out (+)= A's terms (one array of `MR` entries per term) · B's rows, by column
/// blocks.
#[inline(always)]
fn row_block<T: Real, const MR: usize, const NR: usize>(
    terms: impl Iterator<Item = [T; MR]> + Clone,
    b: (&[T], usize),
    out: &mut [T],
    out_stride: usize,
    n: usize,
    accumulate: bool,
) {
    let mut j0 = 0;
    while j0 + NR <= n {
        block::<T, MR, NR>(terms.clone(), b, out, out_stride, j0, accumulate);
        j0 += NR;
    }
    if NR > 8 && j0 + 8 <= n {
        block::<T, MR, 8>(terms.clone(), b, out, out_stride, j0, accumulate);
        j0 += 8;
    }
    if NR > 4 && j0 + 4 <= n {
        block::<T, MR, 4>(terms.clone(), b, out, out_stride, j0, accumulate);
        j0 += 4;
    }
    while j0 < n {
        block::<T, MR, 1>(terms.clone(), b, out, out_stride, j0, accumulate);
        j0 += 1;
    }
}

/// Columns j0..j0 + NR of `MR` rows of out: the sums run in the `acc` registers over every term,
/// in order.
#[inline(always)]
fn block<T: Real, const MR: usize, const NR: usize>(
    terms: impl Iterator<Item = [T; MR]>,
    (b, b_stride): (&[T], usize),
    out: &mut [T],
    out_stride: usize,
    j0: usize,
    accumulate: bool,
) {
    let mut acc = [[T::ZERO; NR]; MR];
    if accumulate {
        for (r, acc_row) in acc.iter_mut().enumerate() {
            acc_row.copy_from_slice(&out[r * out_stride + j0..][..NR]);
        }
    }
    for (a_p, b_row) in terms.zip(b.chunks(b_stride)) {
        let b_p: &[T; NR] = b_row[j0..j0 + NR].try_into().expect("NR columns");
        for r in 0..MR {
            let a_rp = a_p[r];
            for c in 0..NR {
                acc[r][c] += a_rp * b_p[c];
            }
        }
    }
    for (r, acc_row) in acc.iter().enumerate() {
        out[r * out_stride + j0..][..NR].copy_from_slice(acc_row);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The AVX build of the kernel and the portable one give the same bits (in f32, where the
    /// rounding of every partial sum shows), on blocks, edges, strides and both layouts of A.
    #[test]
    fn every_block_width_gives_the_same_bits() {
        let value = |v: usize| ((v * 2_654_435_761) % 1_000) as f32 / 137.0 - 3.5;
        for (m, k, n) in [
            (9, 5, 37),
            (64, 300, 32),
            (7, 33, 13),
            (12, 260, 128),
            (3, 16, 12),
        ] {
            let a: Vec<f32> = (0..(m + 3) * (k + 3)).map(value).collect();
            let b: Vec<f32> = (0..(k + 3) * (m + 3) * (n + 2))
                .map(|v| value(v + 7))
                .collect();
            for (left, stride) in [(false, k), (false, k + 3), (true, m), (true, m + 3)] {
                let left = Left {
                    a: &a,
                    stride,
                    transposed: left,
                };
                let start: Vec<f32> = (0..m * (n + 1)).map(|v| value(v + 3)).collect();
                let mut portable = start.clone();
                let mut dispatched = start;
                let shape = (m, k, n);
                // Short passes here: splitting the sum does not change it.
                gemm_blocks::<f32, 8, 32>(Product {
                    left,
                    b: (&b, n + 2),
                    out: (&mut portable, n + 1),
                    shape,
                    accumulate: true,
                });
                gemm(left, &b, n + 2, &mut dispatched, n + 1, shape, true);
                let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&portable), bits(&dispatched), "{m} × {k} × {n}");
                // And both are the definition, summed in order.
                for i in 0..m {
                    for j in 0..n {
                        let mut want = start_value(i * (n + 1) + j);
                        for p in 0..k {
                            let a_ip = if left.transposed {
                                a[p * stride + i]
                            } else {
                                a[i * stride + p]
                            };
                            want += a_ip * b[p * (n + 2) + j];
                        }
                        assert_eq!(portable[i * (n + 1) + j].to_bits(), want.to_bits());
                    }
                }
            }
        }
        fn start_value(v: usize) -> f32 {
            ((v + 3) * 2_654_435_761 % 1_000) as f32 / 137.0 - 3.5
        }
    }
}
