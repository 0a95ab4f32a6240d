//! The few dense kernels the model needs, on flat row-major slices. Every inner loop runs along
//! contiguous memory and is an `a += s·b` over a row, which the compiler vectorises without
//! reordering any sum (so the f32 results do not depend on the vector width).

use crate::real::Real;

/// `out[i] += s·x[i]`.
#[inline]
pub fn axpy<T: Real>(out: &mut [T], s: T, x: &[T]) {
    for (o, &v) in out.iter_mut().zip(x) {
        *o += s * v;
    }
}

/// `Σ a[i]·b[i]`, summed in order.
#[inline]
pub fn dot<T: Real>(a: &[T], b: &[T]) -> T {
    let mut sum = T::ZERO;
    for (&x, &y) in a.iter().zip(b) {
        sum += x * y;
    }
    sum
}

/// Rows of `out` computed together: each loaded row of `b` serves all of them.
const ROW_BLOCK: usize = 4;
/// The terms of the sum over p taken in one pass: a pass packs its 4 × 256 entries of `a` on
/// the stack, and its rows of `b` stay in the first-level cache for every block of rows.
const DEPTH_BLOCK: usize = 256;

/// How the left operand is stored.
#[derive(Clone, Copy, PartialEq)]
enum Left {
    /// a is m × k, row-major.
    Plain,
    /// a is k × m, row-major, and the product uses aᵀ.
    Transposed,
}

/// out (m × n) = a (m × k) · b (k × n), or `+=` when `accumulate`.
///
/// Hand-written rather than taken from a GEMM crate: those pick their kernel (AVX, FMA) at run
/// time, and a fused multiply-add rounds differently, so the same link would train differently
/// on two machines or in the page's wasm. Here every entry is summed over p = 0, 1, …, k − 1 in
/// order with a separate multiply and add, like the plain triple loop, so the f32 results do not
/// depend on the vector width; blocks of 4 rows × 8 columns are accumulated in registers.
pub fn matmul<T: Real>(
    a: &[T],
    b: &[T],
    out: &mut [T],
    m: usize,
    k: usize,
    n: usize,
    accumulate: bool,
) {
    gemm(a, Left::Plain, b, out, m, k, n, accumulate);
}

/// out (k × n) += aᵀ · b for a (m × k) and b (m × n): the gradient of a weight matrix, summed over
/// the m rows in order. The blocks of `a` are packed as they are read, so nothing is transposed
/// first.
pub fn matmul_transposed_left<T: Real>(
    a: &[T],
    b: &[T],
    out: &mut [T],
    m: usize,
    k: usize,
    n: usize,
) {
    gemm(a, Left::Transposed, b, out, k, m, n, true);
}

/// out (m × n) (+)= A · b with A = a or aᵀ (m × k either way).
///
/// Blocks of 4 rows × 8 columns: 8 of the 16 vector registers of SSE2 and of wasm's simd128
/// (as V8 maps it on x86-64), leaving room for the row of `b` and the broadcast entry of `a`, so
/// the sums stay in registers. Where the CPU has AVX, the same code runs on 4 × 16 blocks of
/// 8-wide registers: each entry still gets the same multiplies and adds in the same order (AVX
/// without FMA rounds exactly like SSE2), so the results are the same bits either way.
#[allow(clippy::too_many_arguments)]
fn gemm<T: Real>(
    a: &[T],
    left: Left,
    b: &[T],
    out: &mut [T],
    m: usize,
    k: usize,
    n: usize,
    accumulate: bool,
) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx") {
        // SAFETY: the CPU has AVX, the only feature `gemm_avx` is compiled for.
        unsafe { gemm_avx(a, left, b, out, m, k, n, accumulate) };
        return;
    }
    gemm_blocks::<T, 8, 4>(a, left, b, out, m, k, n, accumulate);
}

/// [`gemm`] compiled for AVX (not FMA: a fused multiply-add would round differently).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
#[allow(clippy::too_many_arguments)]
unsafe fn gemm_avx<T: Real>(
    a: &[T],
    left: Left,
    b: &[T],
    out: &mut [T],
    m: usize,
    k: usize,
    n: usize,
    accumulate: bool,
) {
    gemm_blocks::<T, 16, 8>(a, left, b, out, m, k, n, accumulate);
}

/// [`gemm`] with blocks of 4 × `NR` columns, then one of 4 × `HALF`, then single columns.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn gemm_blocks<T: Real, const NR: usize, const HALF: usize>(
    a: &[T],
    left: Left,
    b: &[T],
    out: &mut [T],
    m: usize,
    k: usize,
    n: usize,
    accumulate: bool,
) {
    let (a, b, out) = (&a[..m * k], &b[..k * n], &mut out[..m * n]);
    let mut packed = [T::ZERO; ROW_BLOCK * DEPTH_BLOCK];
    let mut column = [T::ZERO; DEPTH_BLOCK];
    let mut i0 = 0;
    while i0 < m {
        let rows = ROW_BLOCK.min(m - i0);
        let mut p0 = 0;
        while p0 < k {
            let depth = DEPTH_BLOCK.min(k - p0);
            let b_rows = &b[p0 * n..(p0 + depth) * n];
            let out_rows = &mut out[i0 * n..(i0 + rows) * n];
            let add = accumulate || p0 > 0;
            if rows == ROW_BLOCK {
                // A's rows i0.., terms p0..: panel[4p + r] = A(i0 + r, p0 + p). Every copy has
                // a length fixed at compile time (a copy of `rows` entries was a call to memcpy).
                let panel = &mut packed[..ROW_BLOCK * depth];
                match left {
                    Left::Plain => {
                        let row = |r: usize| &a[(i0 + r) * k + p0..][..depth];
                        for ((((to, &x0), &x1), &x2), &x3) in panel
                            .chunks_exact_mut(ROW_BLOCK)
                            .zip(row(0))
                            .zip(row(1))
                            .zip(row(2))
                            .zip(row(3))
                        {
                            to.copy_from_slice(&[x0, x1, x2, x3]);
                        }
                    }
                    Left::Transposed => {
                        for (to, from) in panel
                            .chunks_exact_mut(ROW_BLOCK)
                            .zip(a[p0 * m..(p0 + depth) * m].chunks_exact(m))
                        {
                            to.copy_from_slice(&from[i0..][..ROW_BLOCK]);
                        }
                    }
                }
                row_block::<T, ROW_BLOCK, NR, HALF>(panel, b_rows, out_rows, n, add);
            } else {
                for r in 0..rows {
                    let single = match left {
                        Left::Plain => &a[(i0 + r) * k + p0..][..depth],
                        Left::Transposed => {
                            let from = a[p0 * m..(p0 + depth) * m].chunks_exact(m);
                            for (to, from) in column.iter_mut().zip(from) {
                                *to = from[i0 + r];
                            }
                            &column[..depth]
                        }
                    };
                    let out_row = &mut out_rows[r * n..(r + 1) * n];
                    row_block::<T, 1, NR, HALF>(single, b_rows, out_row, n, add);
                }
            }
            p0 += depth;
        }
        i0 += rows;
    }
}

/// `MR` rows of out (+)= the packed panel (depth × MR) · b_rows (depth × n), by column blocks.
#[inline(always)]
fn row_block<T: Real, const MR: usize, const NR: usize, const HALF: usize>(
    panel: &[T],
    b_rows: &[T],
    out_rows: &mut [T],
    n: usize,
    accumulate: bool,
) {
    let mut j0 = 0;
    while j0 + NR <= n {
        block::<T, MR, NR>(panel, b_rows, out_rows, n, j0, accumulate);
        j0 += NR;
    }
    if j0 + HALF <= n {
        block::<T, MR, HALF>(panel, b_rows, out_rows, n, j0, accumulate);
        j0 += HALF;
    }
    while j0 < n {
        block::<T, MR, 1>(panel, b_rows, out_rows, n, j0, accumulate);
        j0 += 1;
    }
}

/// Columns j0..j0 + NR of `MR` rows of out: the sums run in the `acc` registers over every term
/// of the panel, in order.
#[inline(always)]
fn block<T: Real, const MR: usize, const NR: usize>(
    panel: &[T],
    b_rows: &[T],
    out_rows: &mut [T],
    n: usize,
    j0: usize,
    accumulate: bool,
) {
    let mut acc = [[T::ZERO; NR]; MR];
    if accumulate {
        for (r, acc_row) in acc.iter_mut().enumerate() {
            acc_row.copy_from_slice(&out_rows[r * n + j0..][..NR]);
        }
    }
    for (a_p, b_row) in panel.chunks_exact(MR).zip(b_rows.chunks_exact(n)) {
        let b_p: &[T; NR] = b_row[j0..j0 + NR].try_into().expect("NR columns");
        for r in 0..MR {
            let a_rp = a_p[r];
            for c in 0..NR {
                acc[r][c] += a_rp * b_p[c];
            }
        }
    }
    for (r, acc_row) in acc.iter().enumerate() {
        out_rows[r * n + j0..][..NR].copy_from_slice(acc_row);
    }
}

/// out (cols × rows) = aᵀ for a (rows × cols).
pub fn transpose<T: Real>(a: &[T], out: &mut [T], rows: usize, cols: usize) {
    for (r, row) in a[..rows * cols].chunks_exact(cols).enumerate() {
        for (c, &v) in row.iter().enumerate() {
            out[c * rows + r] = v;
        }
    }
}

/// `out[row] += bias` for every row.
pub fn add_bias<T: Real>(out: &mut [T], bias: &[T]) {
    for row in out.chunks_exact_mut(bias.len()) {
        for (o, &b) in row.iter_mut().zip(bias) {
            *o += b;
        }
    }
}

/// `bias_grad += Σ_rows grad[row]`.
pub fn sum_rows<T: Real>(grad: &[T], bias_grad: &mut [T]) {
    for row in grad.chunks_exact(bias_grad.len()) {
        for (o, &g) in bias_grad.iter_mut().zip(row) {
            *o += g;
        }
    }
}

/// Softmax of one row in place (the maximum subtracted first); entries equal to −∞ become 0.
#[inline]
pub fn softmax_in_place<T: Real>(row: &mut [T]) {
    let max = row.iter().fold(T::NEG_INFINITY, |m, &v| m.max(v));
    let mut sum = T::ZERO;
    for v in row.iter_mut() {
        *v = (*v - max).exp();
        sum += *v;
    }
    let inverse = T::ONE / sum;
    for v in row.iter_mut() {
        *v *= inverse;
    }
}

/// The LayerNorm's ε (PyTorch's default).
pub const NORM_EPSILON: f64 = 1e-5;

/// LayerNorm of every row of `x` (in place): x̂ = (x − mean)/√(var + ε), stored in `hat`, with
/// 1/√(var + ε) in `inverse_std`, then x = gain ⊙ x̂ + bias.
pub fn layer_norm<T: Real>(
    x: &mut [T],
    hat: &mut [T],
    inverse_std: &mut [T],
    gain: &[T],
    bias: &[T],
) {
    let d = gain.len();
    let width = T::from_usize(d);
    let epsilon = T::from_f64(NORM_EPSILON);
    for ((row, hat_row), rstd) in x
        .chunks_exact_mut(d)
        .zip(hat.chunks_exact_mut(d))
        .zip(inverse_std.iter_mut())
    {
        let mean = row.iter().fold(T::ZERO, |s, &v| s + v) / width;
        let var = row
            .iter()
            .fold(T::ZERO, |s, &v| s + (v - mean) * (v - mean))
            / width;
        *rstd = T::ONE / (var + epsilon).sqrt();
        for (((v, h), &g), &b) in row.iter_mut().zip(hat_row.iter_mut()).zip(gain).zip(bias) {
            *h = (*v - mean) * *rstd;
            *v = g * *h + b;
        }
    }
}

/// The backward pass of [`layer_norm`]: `grad` (the gradient of the output) becomes the gradient
/// of the input, and the gain's and bias's gradients are accumulated.
pub fn layer_norm_backward<T: Real>(
    grad: &mut [T],
    hat: &[T],
    inverse_std: &[T],
    gain: &[T],
    gain_grad: &mut [T],
    bias_grad: &mut [T],
) {
    let d = gain.len();
    let width = T::from_usize(d);
    for ((g_row, hat_row), &rstd) in grad
        .chunks_exact_mut(d)
        .zip(hat.chunks_exact(d))
        .zip(inverse_std)
    {
        let mut mean_g = T::ZERO;
        let mut mean_gh = T::ZERO;
        for c in 0..d {
            gain_grad[c] += g_row[c] * hat_row[c];
            bias_grad[c] += g_row[c];
            let g_hat = g_row[c] * gain[c];
            mean_g += g_hat;
            mean_gh += g_hat * hat_row[c];
        }
        mean_g = mean_g / width;
        mean_gh = mean_gh / width;
        for c in 0..d {
            let g_hat = g_row[c] * gain[c];
            g_row[c] = rstd * (g_hat - mean_g - hat_row[c] * mean_gh);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matmul_kernels_agree_with_the_definition() {
        let a: Vec<f64> = (0..6).map(f64::from).collect(); // 2 × 3
        let b: Vec<f64> = (0..12).map(|v| f64::from(v) * 0.5).collect(); // 3 × 4
        let mut out = vec![0.0; 8];
        matmul(&a, &b, &mut out, 2, 3, 4, false);
        for i in 0..2 {
            for j in 0..4 {
                let want: f64 = (0..3).map(|p| a[i * 3 + p] * b[p * 4 + j]).sum();
                assert_eq!(out[i * 4 + j], want);
            }
        }
        // aᵀ·c for c (2 × 4): 3 × 4.
        let mut grad = vec![0.0; 12];
        matmul_transposed_left(&a, &out, &mut grad, 2, 3, 4);
        for p in 0..3 {
            for j in 0..4 {
                let want: f64 = (0..2).map(|i| a[i * 3 + p] * out[i * 4 + j]).sum();
                assert_eq!(grad[p * 4 + j], want);
            }
        }
        // Blocks and edges: 9 × 5 times 5 × 37.
        let (m, k, n) = (9, 5, 37);
        let a: Vec<f64> = (0..m * k).map(|v| f64::from(v as u32 % 7) - 3.0).collect();
        let b: Vec<f64> = (0..k * n).map(|v| f64::from(v as u32 % 5) * 0.25).collect();
        let mut out = vec![1.0; m * n];
        matmul(&a, &b, &mut out, m, k, n, true);
        for i in 0..m {
            for j in 0..n {
                let want: f64 = 1.0 + (0..k).map(|p| a[i * k + p] * b[p * n + j]).sum::<f64>();
                assert_eq!(out[i * n + j], want);
            }
        }
        let a: Vec<f64> = (0..6).map(f64::from).collect();
        let mut t = vec![0.0; 6];
        transpose(&a, &mut t, 2, 3);
        assert_eq!(t, [0.0, 3.0, 1.0, 4.0, 2.0, 5.0]);
    }

    /// The AVX build of the kernel and the portable one give the same bits (in f32, where the
    /// rounding of every partial sum shows), on blocks, edges and both layouts of `a`.
    #[test]
    fn every_block_width_gives_the_same_bits() {
        let value = |v: usize| ((v * 2_654_435_761) % 1_000) as f32 / 137.0 - 3.5;
        for (m, k, n) in [(9, 5, 37), (64, 300, 32), (7, 33, 13), (12, 260, 128)] {
            let a: Vec<f32> = (0..m * k).map(value).collect();
            let b: Vec<f32> = (0..k * n).map(|v| value(v + 7)).collect();
            // A = a (m × k) or A = aᵀ (k × m, with b taken as m × n).
            for (left, rows, depth) in [(Left::Plain, m, k), (Left::Transposed, k, m)] {
                if depth * n > b.len() {
                    continue;
                }
                let start: Vec<f32> = (0..rows * n).map(|v| value(v + 3)).collect();
                let mut portable = start.clone();
                let mut dispatched = start;
                gemm_blocks::<f32, 8, 4>(&a, left, &b, &mut portable, rows, depth, n, true);
                gemm(&a, left, &b, &mut dispatched, rows, depth, n, true);
                let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&portable), bits(&dispatched), "{m} × {k} × {n}");
            }
        }
    }
}
