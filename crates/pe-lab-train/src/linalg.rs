//! The few dense kernels the model needs, on flat row-major slices. Every inner loop runs along
//! contiguous memory and is an `a += s·b` over a row, which the compiler vectorises without
//! reordering any sum (so the f32 results do not depend on the vector width).

use crate::gemm::{gemm, Left};
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

/// out (m × n) = a (m × k) · b (k × n), or `+=` when `accumulate`; see [`gemm`] for how.
pub fn matmul<T: Real>(
    a: &[T],
    b: &[T],
    out: &mut [T],
    m: usize,
    k: usize,
    n: usize,
    accumulate: bool,
) {
    gemm(Left::plain(a, k), b, n, out, n, (m, k, n), accumulate);
}

/// out (k × n) += aᵀ · b for a (m × k) and b (m × n): the gradient of a weight matrix, summed over
/// the m rows in order. `a` is read in place, term by term, so nothing is transposed
/// first.
pub fn matmul_transposed_left<T: Real>(
    a: &[T],
    b: &[T],
    out: &mut [T],
    (m, k, n): (usize, usize, usize),
) {
    gemm(Left::transposed(a, k), b, n, out, n, (k, m, n), true);
}

/// The gradients [`linear_backward`] adds to: the weight's, and the bias's when the map has one.
pub struct LinearGrads<'a, T> {
    pub weight: &'a mut [T],
    pub bias: Option<&'a mut [T]>,
}

/// The backward pass of a linear map y (rows × outputs) = x (rows × inputs) · w (+ b), in one
/// order for every layer: w's gradient (`+= xᵀ·g`), b's (`+=` g's rows) when the map has a bias,
/// then x's (g·wᵀ, through `transposed`; `+=` when `accumulate`, for a residual's gradient
/// already in `grad_input`). `shape` is (rows, inputs, outputs).
#[allow(clippy::too_many_arguments)] // the map's two inputs, its gradients, scratch and shape
pub fn linear_backward<T: Real>(
    x: &[T],
    grad_output: &[T],
    weight: &[T],
    grads: LinearGrads<'_, T>,
    transposed: &mut [T],
    grad_input: &mut [T],
    (rows, inputs, outputs): (usize, usize, usize),
    accumulate: bool,
) {
    matmul_transposed_left(x, grad_output, grads.weight, (rows, inputs, outputs));
    if let Some(bias) = grads.bias {
        sum_rows(grad_output, bias);
    }
    transpose(weight, transposed, inputs, outputs);
    matmul(
        grad_output,
        transposed,
        grad_input,
        rows,
        outputs,
        inputs,
        accumulate,
    );
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
/// Returns the maximum and the sum of the exponentials (the loss's log-sum-exp).
#[inline]
pub fn softmax_in_place<T: Real>(row: &mut [T]) -> (T, T) {
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
    (max, sum)
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
    let rows = x.len() / d;
    let full = rows / NORM_ROWS * NORM_ROWS;
    let (x, x_rest) = x[..rows * d].split_at_mut(full * d);
    let (hat, hat_rest) = hat[..rows * d].split_at_mut(full * d);
    let (rstd, rstd_rest) = inverse_std[..rows].split_at_mut(full);
    for ((x, hat), rstd) in x
        .chunks_exact_mut(NORM_ROWS * d)
        .zip(hat.chunks_exact_mut(NORM_ROWS * d))
        .zip(rstd.chunks_exact_mut(NORM_ROWS))
    {
        norm_rows::<T, NORM_ROWS>(x, hat, rstd, (gain, bias));
    }
    for ((x, hat), rstd) in x_rest
        .chunks_exact_mut(d)
        .zip(hat_rest.chunks_exact_mut(d))
        .zip(rstd_rest.chunks_exact_mut(1))
    {
        norm_rows::<T, 1>(x, hat, rstd, (gain, bias));
    }
}

/// Rows normalised together: each row's mean and variance are sums in order over its columns,
/// a chain of dependent adds, and 8 rows' chains interleaved keep the adders busy.
const NORM_ROWS: usize = 8;

/// [`layer_norm`] of `R` rows.
#[inline(always)]
fn norm_rows<T: Real, const R: usize>(
    x: &mut [T],
    hat: &mut [T],
    inverse_std: &mut [T],
    (gain, bias): (&[T], &[T]),
) {
    let d = gain.len();
    let width = T::from_usize(d);
    let epsilon = T::from_f64(NORM_EPSILON);
    let mut mean = [T::ZERO; R];
    for c in 0..d {
        for (r, m) in mean.iter_mut().enumerate() {
            *m += x[r * d + c];
        }
    }
    let mut var = [T::ZERO; R];
    for m in &mut mean {
        *m = *m / width;
    }
    for c in 0..d {
        for (r, (v, &m)) in var.iter_mut().zip(&mean).enumerate() {
            let centred = x[r * d + c] - m;
            *v += centred * centred;
        }
    }
    for (r, ((row, hat_row), rstd)) in x
        .chunks_exact_mut(d)
        .zip(hat.chunks_exact_mut(d))
        .zip(inverse_std.iter_mut())
        .enumerate()
    {
        *rstd = T::ONE / (var[r] / width + epsilon).sqrt();
        for (((v, h), &g), &b) in row.iter_mut().zip(hat_row.iter_mut()).zip(gain).zip(bias) {
            *h = (*v - mean[r]) * *rstd;
            *v = g * *h + b;
        }
    }
}

/// The backward pass of [`layer_norm`]: `grad` (the gradient of the output) becomes the gradient
/// of the input, and the gain's and bias's gradients are accumulated (over the rows in order).
pub fn layer_norm_backward<T: Real>(
    grad: &mut [T],
    hat: &[T],
    inverse_std: &[T],
    gain: &[T],
    gain_grad: &mut [T],
    bias_grad: &mut [T],
) {
    let d = gain.len();
    let rows = grad.len() / d;
    let full = rows / NORM_ROWS * NORM_ROWS;
    let (grad, grad_rest) = grad[..rows * d].split_at_mut(full * d);
    let (hat, hat_rest) = hat[..rows * d].split_at(full * d);
    let (rstd, rstd_rest) = inverse_std[..rows].split_at(full);
    let sums = (gain_grad, bias_grad);
    for ((grad, hat), rstd) in grad
        .chunks_exact_mut(NORM_ROWS * d)
        .zip(hat.chunks_exact(NORM_ROWS * d))
        .zip(rstd.chunks_exact(NORM_ROWS))
    {
        norm_rows_backward::<T, NORM_ROWS>(grad, hat, rstd, gain, (&mut *sums.0, &mut *sums.1));
    }
    for ((grad, hat), rstd) in grad_rest
        .chunks_exact_mut(d)
        .zip(hat_rest.chunks_exact(d))
        .zip(rstd_rest.chunks_exact(1))
    {
        norm_rows_backward::<T, 1>(grad, hat, rstd, gain, (&mut *sums.0, &mut *sums.1));
    }
}

/// [`layer_norm_backward`] of `R` rows, their sums interleaved like [`norm_rows`]'s.
#[inline(always)]
fn norm_rows_backward<T: Real, const R: usize>(
    grad: &mut [T],
    hat: &[T],
    inverse_std: &[T],
    gain: &[T],
    (gain_grad, bias_grad): (&mut [T], &mut [T]),
) {
    let d = gain.len();
    let width = T::from_usize(d);
    for (g_row, hat_row) in grad.chunks_exact(d).zip(hat.chunks_exact(d)) {
        for (((gg, bg), &g), &h) in gain_grad
            .iter_mut()
            .zip(bias_grad.iter_mut())
            .zip(g_row)
            .zip(hat_row)
        {
            *gg += g * h;
            *bg += g;
        }
    }
    let mut mean_g = [T::ZERO; R];
    let mut mean_gh = [T::ZERO; R];
    for c in 0..d {
        for r in 0..R {
            let g_hat = grad[r * d + c] * gain[c];
            mean_g[r] += g_hat;
            mean_gh[r] += g_hat * hat[r * d + c];
        }
    }
    for (r, (g_row, hat_row)) in grad
        .chunks_exact_mut(d)
        .zip(hat.chunks_exact(d))
        .enumerate()
    {
        let (mean_g, mean_gh) = (mean_g[r] / width, mean_gh[r] / width);
        for ((g, &h), &gain) in g_row.iter_mut().zip(hat_row).zip(gain) {
            let g_hat = *g * gain;
            *g = inverse_std[r] * (g_hat - mean_g - h * mean_gh);
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
        matmul_transposed_left(&a, &out, &mut grad, (2, 3, 4));
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
}
