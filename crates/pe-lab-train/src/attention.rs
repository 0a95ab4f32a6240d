//! Multi-head attention of one layer, forward and backward, for every position scheme: the
//! scores of head h are q_i·k_j/√d_h (with Shaw's q_i·a^K_(clip(j−i))/√d_h), plus the scheme's
//! bias (T5's learned bucket bias, ALiBi's −m_h·|i − j|), masked above the diagonal when causal,
//! then a softmax over the keys; the output is Σ_j α_ij v_j (plus Shaw's Σ_j α_ij a^V_(clip(j−i))).

use crate::encodings::{relative_rows, Encoding, PositionTables};
use crate::gemm::{gemm, Left};
use crate::linalg::{axpy, dot, softmax_in_place};
use crate::real::Real;

/// The sizes of one attention call.
#[derive(Debug, Clone, Copy)]
pub struct Shape {
    pub sequences: usize,
    pub length: usize,
    pub d: usize,
    pub heads: usize,
    pub causal: bool,
    pub encoding: Encoding,
}

impl Shape {
    pub fn head_width(&self) -> usize {
        self.d / self.heads
    }

    fn scale<T: Real>(&self) -> T {
        T::from_f64(1.0 / (self.head_width() as f64).sqrt())
    }

    /// The keys query i looks at: all of them, or 0..=i when causal.
    #[inline]
    fn keys(&self, i: usize) -> usize {
        if self.causal {
            i + 1
        } else {
            self.length
        }
    }
}

/// Small buffers reused by every call.
#[derive(Debug, Clone, Default)]
pub struct Scratch<T> {
    /// head_width × length: one head's keys (forward) or values (backward), transposed.
    transposed: Vec<T>,
    /// length × length: one head's score gradients (scaled by 1/√d_h).
    square: Vec<T>,
    /// One entry per relative-table row.
    group: Vec<T>,
    group_weights: Vec<T>,
}

impl<T: Real> Scratch<T> {
    fn prepare(&mut self, shape: &Shape) {
        let rows = relative_rows(shape.encoding);
        grow(&mut self.transposed, shape.head_width() * shape.length);
        grow(&mut self.square, shape.length * shape.length);
        grow(&mut self.group, rows);
        grow(&mut self.group_weights, rows);
    }
}

/// Makes `v` at least `len` long (allocates only when it grows).
pub fn grow<T: Real>(v: &mut Vec<T>, len: usize) {
    if v.len() < len {
        v.resize(len, T::ZERO);
    }
}

/// Rotates every head of every row of `x` (rows × d) by its position (RoPE), or back by the
/// inverse rotation (the backward pass: the rotation is orthogonal).
pub fn rope_rotate<T: Real>(x: &mut [T], shape: &Shape, tables: &PositionTables<T>, inverse: bool) {
    let (d, n, dh) = (shape.d, shape.length, shape.head_width());
    let pairs = dh / 2;
    for (r, row) in x[..shape.sequences * n * d].chunks_exact_mut(d).enumerate() {
        let m = r % n;
        let cos = &tables.rope_cos[m * pairs..(m + 1) * pairs];
        let sin = &tables.rope_sin[m * pairs..(m + 1) * pairs];
        for head in row.chunks_exact_mut(dh) {
            for ((pair, &c), &s) in head.chunks_exact_mut(2).zip(cos).zip(sin) {
                let (a, b) = (pair[0], pair[1]);
                if inverse {
                    pair[0] = a * c + b * s;
                    pair[1] = b * c - a * s;
                } else {
                    pair[0] = a * c - b * s;
                    pair[1] = a * s + b * c;
                }
            }
        }
    }
}

/// What the attention reads, in both directions: the batch's shape, the position tables, the
/// layer's relative tables (T5's biases, Shaw's a^K and a^V; empty otherwise) and q, k (already
/// rotated for RoPE) and v.
pub struct Inputs<'a, T> {
    pub shape: &'a Shape,
    pub tables: &'a PositionTables<T>,
    pub relative_key: &'a [T],
    pub relative_value: &'a [T],
    pub q: &'a [T],
    pub k: &'a [T],
    pub v: &'a [T],
}

/// What the backward pass of the attention writes (see [`backward`]).
pub struct Grads<'a, T> {
    pub q: &'a mut [T],
    pub k: &'a mut [T],
    pub v: &'a mut [T],
    pub relative_key: &'a mut [T],
    pub relative_value: &'a mut [T],
}

/// The attention weights (sequences × heads × length × length) and the heads' outputs,
/// concatenated (rows × d), from `input`.
pub fn forward<T: Real>(
    input: &Inputs<T>,
    weights: &mut [T],
    attended: &mut [T],
    scratch: &mut Scratch<T>,
) {
    let Inputs {
        shape,
        tables,
        relative_key,
        relative_value,
        q,
        k,
        v,
    } = *input;
    scratch.prepare(shape);
    let (d, n, dh, heads) = (shape.d, shape.length, shape.head_width(), shape.heads);
    let rows = relative_rows(shape.encoding);
    let scale: T = shape.scale();
    for b in 0..shape.sequences {
        for h in 0..heads {
            let column = h * dh;
            // This head's columns of q, k, v and the output: rows d apart from `head`.
            let head = b * n * d + column;
            let key_t = &mut scratch.transposed[..dh * n];
            transpose_head(k, (b, column), (n, d, dh), key_t);
            let scores = &mut weights[(b * heads + h) * n * n..][..n * n];
            // Every q_i·k_j of the head as one product (summed over the head's columns in
            // order); a causal row's masked keys are computed too and then set to 0.
            gemm(
                Left::plain(&q[head..], d),
                key_t,
                n,
                scores,
                n,
                (n, dh, n),
                false,
            );
            for (i, row) in scores.chunks_exact_mut(n).enumerate() {
                let keys = shape.keys(i);
                let query = &q[head + i * d..][..dh];
                match shape.encoding {
                    Encoding::Shaw => {
                        let table = &relative_key[h * rows * dh..(h + 1) * rows * dh];
                        for (g, a_key) in scratch.group.iter_mut().zip(table.chunks_exact(dh)) {
                            *g = dot(query, a_key);
                        }
                        for (j, s) in row[..keys].iter_mut().enumerate() {
                            *s = (*s + scratch.group[tables.row_of(i, j)]) * scale;
                        }
                    }
                    Encoding::T5 => {
                        let biases = &relative_key[h * rows..(h + 1) * rows];
                        for (j, s) in row[..keys].iter_mut().enumerate() {
                            *s = *s * scale + biases[tables.row_of(i, j)];
                        }
                    }
                    Encoding::Alibi => {
                        for (j, s) in row[..keys].iter_mut().enumerate() {
                            *s = *s * scale + tables.alibi_bias(h, i, j);
                        }
                    }
                    _ => {
                        for s in row[..keys].iter_mut() {
                            *s *= scale;
                        }
                    }
                }
                softmax_in_place(&mut row[..keys]);
                // Masked keys get a weight of exactly 0.
                row[keys..].fill(T::ZERO);
            }
            let scores = &weights[(b * heads + h) * n * n..][..n * n];
            gemm(
                Left::plain(scores, n),
                &v[head..],
                d,
                &mut attended[head..],
                d,
                (n, n, dh),
                false,
            );
            if shape.encoding == Encoding::Shaw {
                let table = &relative_value[h * rows * dh..(h + 1) * rows * dh];
                for (i, row) in scores.chunks_exact(n).enumerate() {
                    let group = &mut scratch.group[..rows];
                    group.fill(T::ZERO);
                    for (j, &w) in row[..shape.keys(i)].iter().enumerate() {
                        group[tables.row_of(i, j)] += w;
                    }
                    let out = &mut attended[head + i * d..][..dh];
                    for (&g, a_value) in group.iter().zip(table.chunks_exact(dh)) {
                        axpy(out, g, a_value);
                    }
                }
            }
        }
    }
}

/// Gradients of q, k, v (with respect to the rotated q and k for RoPE) and of the relative tables
/// from the gradient of the heads' outputs. `grads.q`, `grads.k`, `grads.v` are overwritten; the
/// table gradients are accumulated.
pub fn backward<T: Real>(
    forward: &Inputs<T>,
    weights: &[T],
    grad_attended: &[T],
    mut grads: Grads<T>,
    scratch: &mut Scratch<T>,
) {
    let shape = forward.shape;
    scratch.prepare(shape);
    let input = BackwardInput {
        forward,
        weights,
        grad_attended,
    };
    if shape.encoding == Encoding::Shaw {
        // Shaw's terms go into grad_q before the keys' (the products below add to them).
        grads.q[..shape.sequences * shape.length * shape.d].fill(T::ZERO);
    }
    for b in 0..shape.sequences {
        for h in 0..shape.heads {
            head_backward(&input, &mut grads, scratch, b, h);
        }
    }
}

/// What the backward pass of the attention reads: the forward pass's inputs and weights, and the
/// gradient of the heads' outputs.
struct BackwardInput<'a, T> {
    forward: &'a Inputs<'a, T>,
    weights: &'a [T],
    grad_attended: &'a [T],
}

/// One query row of one head: the head's index, the query's, and where the query's columns of
/// the head start in q and the output (rows of width d).
#[derive(Clone, Copy)]
struct QueryRow {
    h: usize,
    i: usize,
    at: usize,
}

/// The backward pass of head `h` of sequence `b`.
fn head_backward<T: Real>(
    input: &BackwardInput<T>,
    grads: &mut Grads<T>,
    scratch: &mut Scratch<T>,
    b: usize,
    h: usize,
) {
    let shape = input.forward.shape;
    let (d, n, dh, heads) = (shape.d, shape.length, shape.head_width(), shape.heads);
    let shaw = shape.encoding == Encoding::Shaw;
    let column = h * dh;
    let head = b * n * d + column;
    let value_t = &mut scratch.transposed[..dh * n];
    transpose_head(input.forward.v, (b, column), (n, d, dh), value_t);
    let alphas = &input.weights[(b * heads + h) * n * n..][..n * n];
    let g_out = &input.grad_attended[head..];
    // ∂/∂α_ij = g_i·v_j for every query and key of the head, then ∂/∂v_j = Σ_i α_ij g_i.
    let ds = &mut scratch.square[..n * n];
    gemm(Left::plain(g_out, d), value_t, n, ds, n, (n, dh, n), false);
    let dv = &mut grads.v[head..];
    gemm(
        Left::transposed(alphas, n),
        g_out,
        d,
        dv,
        d,
        (n, n, dh),
        false,
    );
    for (i, (g_alpha, alpha)) in ds
        .chunks_exact_mut(n)
        .zip(alphas.chunks_exact(n))
        .enumerate()
    {
        let keys = shape.keys(i);
        let row = QueryRow {
            h,
            i,
            at: head + i * d,
        };
        score_row_backward(
            input,
            grads,
            (&mut scratch.group, &mut scratch.group_weights),
            row,
            &mut g_alpha[..keys],
            &alpha[..keys],
        );
    }
    // Masked keys have no gradient.
    for (i, row) in ds.chunks_exact_mut(n).enumerate() {
        row[shape.keys(i)..].fill(T::ZERO);
    }
    // ∂/∂q_i = Σ_j ds_ij k_j/√d_h and ∂/∂k_j = Σ_i ds_ij q_i/√d_h.
    let ds = &scratch.square[..n * n];
    let dq = &mut grads.q[head..];
    gemm(
        Left::plain(ds, n),
        &input.forward.k[head..],
        d,
        dq,
        d,
        (n, n, dh),
        shaw,
    );
    let dk = &mut grads.k[head..];
    gemm(
        Left::transposed(ds, n),
        &input.forward.q[head..],
        d,
        dk,
        d,
        (n, n, dh),
        false,
    );
}

/// Turns one query's row of weight gradients (its unmasked keys, `g_alpha`) into score
/// gradients scaled by 1/√d_h, adding on the way the scheme's table gradients (and Shaw's terms
/// of grad_q). The two scratch slices hold one entry per relative-table row.
fn score_row_backward<T: Real>(
    input: &BackwardInput<T>,
    grads: &mut Grads<T>,
    (group, group_weights): (&mut [T], &mut [T]),
    row: QueryRow,
    g_alpha: &mut [T],
    alpha: &[T],
) {
    let shape = input.forward.shape;
    let rows = relative_rows(shape.encoding);
    let scale: T = shape.scale();
    if shape.encoding == Encoding::Shaw {
        shaw_value_backward(
            input,
            grads,
            &mut group[..rows],
            &mut group_weights[..rows],
            row,
            g_alpha,
            alpha,
        );
    }
    softmax_backward(g_alpha, alpha);
    match shape.encoding {
        Encoding::T5 => {
            let grad_biases = &mut grads.relative_key[row.h * rows..(row.h + 1) * rows];
            for (j, &ds) in g_alpha.iter().enumerate() {
                grad_biases[input.forward.tables.row_of(row.i, j)] += ds;
            }
        }
        Encoding::Shaw => shaw_key_backward(input, grads, &mut group[..rows], row, g_alpha),
        _ => {}
    }
    for ds in g_alpha.iter_mut() {
        *ds *= scale;
    }
}

/// Softmax backward in place: ds_j = α_j (g_j − Σ_l α_l g_l).
fn softmax_backward<T: Real>(g_alpha: &mut [T], alpha: &[T]) {
    let mean = dot(alpha, g_alpha);
    for (ga, &w) in g_alpha.iter_mut().zip(alpha) {
        *ga = w * (*ga - mean);
    }
}

/// Shaw's value table of one query row: adds g_out·a^V_r to the weight gradient of every key in
/// row r of the table, and the row's summed weight times g_out to the gradient of a^V_r.
fn shaw_value_backward<T: Real>(
    input: &BackwardInput<T>,
    grads: &mut Grads<T>,
    group: &mut [T],
    group_weights: &mut [T],
    row: QueryRow,
    g_alpha: &mut [T],
    alpha: &[T],
) {
    let dh = input.forward.shape.head_width();
    let rows = relative_rows(input.forward.shape.encoding);
    let (h, i) = (row.h, row.i);
    let g_out = &input.grad_attended[row.at..row.at + dh];
    let table = &input.forward.relative_value[h * rows * dh..(h + 1) * rows * dh];
    let grad_table = &mut grads.relative_value[h * rows * dh..(h + 1) * rows * dh];
    group_weights.fill(T::ZERO);
    for (r, a_value) in table.chunks_exact(dh).enumerate() {
        group[r] = dot(g_out, a_value);
    }
    for (j, (ga, &w)) in g_alpha.iter_mut().zip(alpha).enumerate() {
        let r = input.forward.tables.row_of(i, j);
        *ga += group[r];
        group_weights[r] += w;
    }
    for (&w, grad_row) in group_weights.iter().zip(grad_table.chunks_exact_mut(dh)) {
        axpy(grad_row, w, g_out);
    }
}

/// Shaw's key table of one query row, from its score gradients (`ds`, not yet scaled): the
/// query's gradient through a^K and the gradient of a^K.
fn shaw_key_backward<T: Real>(
    input: &BackwardInput<T>,
    grads: &mut Grads<T>,
    group: &mut [T],
    row: QueryRow,
    ds: &[T],
) {
    let dh = input.forward.shape.head_width();
    let rows = relative_rows(input.forward.shape.encoding);
    let scale: T = input.forward.shape.scale();
    let h = row.h;
    let query = &input.forward.q[row.at..row.at + dh];
    group.fill(T::ZERO);
    for (j, &ds) in ds.iter().enumerate() {
        group[input.forward.tables.row_of(row.i, j)] += ds * scale;
    }
    let table = &input.forward.relative_key[h * rows * dh..(h + 1) * rows * dh];
    let grad_table = &mut grads.relative_key[h * rows * dh..(h + 1) * rows * dh];
    let g_query = &mut grads.q[row.at..row.at + dh];
    for ((&g, a_key), grad_row) in group
        .iter()
        .zip(table.chunks_exact(dh))
        .zip(grad_table.chunks_exact_mut(dh))
    {
        axpy(g_query, g, a_key);
        axpy(grad_row, g, query);
    }
}

/// Head columns `column..column + dh` of sequence `b` of `x` (rows of width `d`, `n` per
/// sequence), transposed into `out` (dh × n), so that the per-query loops read it contiguously.
fn transpose_head<T: Copy>(
    x: &[T],
    (b, column): (usize, usize),
    (n, d, dh): (usize, usize, usize),
    out: &mut [T],
) {
    for j in 0..n {
        let row = &x[(b * n + j) * d + column..][..dh];
        for (c, &value) in row.iter().enumerate() {
            out[c * n + j] = value;
        }
    }
}
