//! The backward pass's dispatches of one step (see `plan.rs`): from the logits' gradient back
//! through the readout and every layer to the embedding's input gradient, each weight's gradient
//! written once (no clearing is needed).

use pe_lab_train::encodings::{relative_rows, Encoding};
use pe_lab_train::params::LayerOffsets;

use super::kernels::{Kernel, ACCUMULATE, ADDEND, MASK};
use super::layout::LayerRegions;
use super::plan::{plain, transposed, Flags, Shape, Sink, NONE, SPLIT_LANES};
use crate::GpuError;

pub(super) fn backward(sh: &Shape<'_>, sink: &mut Sink<'_, '_>) -> Result<(), GpuError> {
    let (c, params, arena) = (sh.config, sh.params, sh.arena);
    let (d, classes) = (c.d, c.classes());
    let last = arena.state(c, c.layers);
    // Backward: the logits now hold their gradient.
    dense_backward(
        sh,
        sink,
        (last, d),
        (arena.logits, classes),
        (params.readout, params.readout_bias),
        arena.grad_x,
        NONE,
    )?;
    for l in (0..arena.layers.len()).rev() {
        layer_backward(sh, sink, l)?;
    }
    Ok(())
}

/// Layer `l`'s backward pass: `grad_x` holds the gradient of the layer's output before and of its
/// input after.
fn layer_backward(sh: &Shape<'_>, sink: &mut Sink<'_, '_>, l: usize) -> Result<(), GpuError> {
    let layer = LayerBackward {
        sh,
        l,
        o: &sh.params.layers[l],
        regions: &sh.arena.layers[l],
    };
    let grad_mid = if sh.config.mlp {
        layer.mlp(sink)?
    } else {
        // Without an MLP the layer's output is its middle.
        sh.arena.grad_x
    };
    layer.output_projection(sink, grad_mid)?;
    layer.values(sink)?;
    layer.softmax(sink)?;
    layer.query_key(sink)?;
    layer.qkv(sink, grad_mid)
}

/// The steps of one layer's backward pass, in the order [`layer_backward`] runs them: the step's
/// shape, the layer's index, and where its parameters (`o`) and its forward pass's tensors
/// (`regions`) are.
struct LayerBackward<'a> {
    sh: &'a Shape<'a>,
    l: usize,
    o: &'a LayerOffsets,
    regions: &'a LayerRegions,
}

impl LayerBackward<'_> {
    /// The second LayerNorm (in place on `grad_x`) and the MLP's two dense layers, the ReLU's mask
    /// between them; returns where the gradient of the layer's middle now is (`grad_mid`: the
    /// residual's plus the MLP's).
    fn mlp(&self, sink: &mut Sink<'_, '_>) -> Result<usize, GpuError> {
        let (sh, c, arena) = (self.sh, self.sh.config, self.sh.arena);
        let (o, layer) = (self.o, self.regions);
        let (d, hid) = (c.d, c.mlp_width());
        let grad_out = arena.grad_x;
        if c.layer_norm {
            let norm = (o.norm2_gain, o.norm2_bias);
            norm_backward(sh, sink, grad_out, (layer.hat2, layer.inverse_std2), norm)?;
        }
        dense_backward(
            sh,
            sink,
            (layer.hidden, hid),
            (grad_out, d),
            (o.mlp_out, o.mlp_out_bias),
            arena.grad_hidden,
            (MASK, 0, 0, layer.hidden),
        )?;
        dense_backward(
            sh,
            sink,
            (layer.mid, d),
            (arena.grad_hidden, hid),
            (o.mlp_in, o.mlp_in_bias),
            arena.grad_mid,
            (ADDEND, 0, grad_out, 0),
        )?;
        Ok(arena.grad_mid)
    }

    /// The first LayerNorm (in place on `grad_mid`) and the attention's output projection: W_o's
    /// gradient and the heads' outputs' gradient, into `grad_attended`.
    fn output_projection(&self, sink: &mut Sink<'_, '_>, grad_mid: usize) -> Result<(), GpuError> {
        let (sh, c, arena) = (self.sh, self.sh.config, self.sh.arena);
        let (o, layer) = (self.o, self.regions);
        let (d, rows, one) = (c.d, sh.rows, (1, 1));
        if c.layer_norm {
            let norm = (o.norm1_gain, o.norm1_bias);
            norm_backward(sh, sink, grad_mid, (layer.hat1, layer.inverse_std1), norm)?;
        }
        sink.matmul(
            transposed(layer.attended, d),
            plain(grad_mid, d),
            (sh.g(o.w_o), d, 0, 0),
            (d, d, rows),
            one,
            NONE,
        )?;
        sink.matmul(
            plain(grad_mid, d),
            transposed(sh.p(o.w_o), d),
            (arena.grad_attended, d, 0, 0),
            (rows, d, d),
            one,
            NONE,
        )
    }

    /// The weights' gradient of every head (g_i·v_j, into `grad_scores`) and v's (Σ_i α_ij g_i).
    fn values(&self, sink: &mut Sink<'_, '_>) -> Result<(), GpuError> {
        let (sh, c, arena, layer) = (self.sh, self.sh.config, self.sh.arena, self.regions);
        let (n, block, square) = (sh.n, sh.block, sh.n * sh.n);
        let (d, heads, dh) = (c.d, c.heads, c.head_width());
        let per_head = (c.batch * heads, heads);
        let v = layer.qkv + 2 * block;
        let grad_v = arena.grad_qkv + 2 * block;
        let grad_scores = (arena.grad_scores, n, heads * square, square);
        sink.matmul(
            sh.head_rows(arena.grad_attended),
            sh.head_rows_t(v),
            grad_scores,
            (n, n, dh),
            per_head,
            NONE,
        )?;
        sink.matmul(
            sh.squares_t(layer.weights),
            sh.head_rows(arena.grad_attended),
            (grad_v, d, n * d, dh),
            (n, dh, n),
            per_head,
            NONE,
        )
    }

    /// The softmax's backward pass over `grad_scores` (in place), then the gradients of the
    /// scheme's tables (T5's biases, Shaw's a^K and a^V) and Shaw's a^K term of q's gradient.
    fn softmax(&self, sink: &mut Sink<'_, '_>) -> Result<(), GpuError> {
        let (sh, c, arena, layer) = (self.sh, self.sh.config, self.sh.arena, self.regions);
        let (n, rows) = (sh.n, sh.rows);
        let (d, heads, dh) = (c.d, c.heads, c.head_width());
        let backward = sh.softmax(
            self.l,
            layer.weights,
            arena.grad_scores,
            arena.grad_attended,
        );
        sink.push(Kernel::SoftmaxBackward, backward, c.batch * heads * n, 1)?;
        if c.encoding == Encoding::T5 {
            let outputs = heads * relative_rows(c.encoding);
            sink.push(Kernel::BiasGrads, backward, outputs * SPLIT_LANES, 1)?;
        }
        if c.encoding == Encoding::Shaw {
            // q's gradient starts with Shaw's a^K term; the product below adds to it.
            sink.push(Kernel::ShawQueryGrads, backward, rows * d, 1)?;
            let outputs = 2 * heads * relative_rows(c.encoding) * dh;
            sink.push(Kernel::ShawTableGrads, backward, outputs * SPLIT_LANES, 1)?;
        }
        Ok(())
    }

    /// q's and k's gradients from the scores' (Σ_j ds_ij k_j and Σ_i ds_ij q_i), q's added to
    /// Shaw's term; for RoPE, both rotated back.
    fn query_key(&self, sink: &mut Sink<'_, '_>) -> Result<(), GpuError> {
        let (sh, c, arena, layer) = (self.sh, self.sh.config, self.sh.arena, self.regions);
        let (n, rows, block) = (sh.n, sh.rows, sh.block);
        let (d, heads, dh) = (c.d, c.heads, c.head_width());
        let per_head = (c.batch * heads, heads);
        let (q, k) = (layer.qkv, layer.qkv + block);
        let (grad_q, grad_k) = (arena.grad_qkv, arena.grad_qkv + block);
        let shaw = c.encoding == Encoding::Shaw;
        sink.matmul(
            sh.squares(arena.grad_scores),
            sh.head_rows(k),
            (grad_q, d, n * d, dh),
            (n, dh, n),
            per_head,
            if shaw { (ACCUMULATE, 0, 0, 0) } else { NONE },
        )?;
        sink.matmul(
            sh.squares_t(arena.grad_scores),
            sh.head_rows(q),
            (grad_k, d, n * d, dh),
            (n, dh, n),
            per_head,
            NONE,
        )?;
        if c.encoding == Encoding::Rope {
            sink.push(Kernel::Rope, sh.rope(grad_q, 1), rows * d, 1)?;
        }
        Ok(())
    }

    /// W_q's, W_k's and W_v's gradients (one batched product), then the layer input's gradient into
    /// `grad_x`: `grad_mid` plus the three projections'.
    fn qkv(&self, sink: &mut Sink<'_, '_>, grad_mid: usize) -> Result<(), GpuError> {
        let (sh, c, arena, o) = (self.sh, self.sh.config, self.sh.arena, self.o);
        let l = self.l;
        let (d, rows, block) = (c.d, sh.rows, sh.block);
        let x = arena.state(c, l);
        let (grad_q, grad_k, grad_v) = (
            arena.grad_qkv,
            arena.grad_qkv + block,
            arena.grad_qkv + 2 * block,
        );
        sink.matmul(
            (x, 1, d, 0, 0),
            (arena.grad_qkv, d, 1, block, 0),
            (sh.g(o.w_q), d, d * d, 0),
            (d, d, rows),
            (3, 1),
            NONE,
        )?;
        // grad_x = grad_mid + Σ_t grad_t·W_tᵀ (grad_mid may be grad_x itself: each entry is
        // read and written by the same invocation).
        for (t, (grad, weight)) in [(grad_q, o.w_q), (grad_k, o.w_k), (grad_v, o.w_v)]
            .into_iter()
            .enumerate()
        {
            let flags = if t == 0 {
                (ADDEND, 0, grad_mid, 0)
            } else {
                (ACCUMULATE, 0, 0, 0)
            };
            sink.matmul(
                plain(grad, d),
                transposed(sh.p(weight), d),
                (arena.grad_x, d, 0, 0),
                (rows, d, d),
                (1, 1),
                flags,
            )?;
        }
        Ok(())
    }
}

/// The backward pass of a dense layer y = x·W + b over the step's rows, from y's gradient `grad`:
/// W's gradient xᵀ·grad, b's gradient the column sums of `grad`, then x's gradient grad·Wᵀ into
/// `grad_in` with `epilogue` (the ReLU's mask, a residual addend, or nothing).
fn dense_backward(
    sh: &Shape<'_>,
    sink: &mut Sink<'_, '_>,
    (x, width_in): (usize, usize),
    (grad, width_out): (usize, usize),
    (weight, bias): (usize, usize),
    grad_in: usize,
    epilogue: Flags,
) -> Result<(), GpuError> {
    sink.matmul(
        transposed(x, width_in),
        plain(grad, width_out),
        (sh.g(weight), width_out, 0, 0),
        (width_in, width_out, sh.rows),
        (1, 1),
        NONE,
    )?;
    let sums = sh.column_sums(grad, width_out, sh.g(bias));
    sink.push(Kernel::ColumnSums, sums, width_out * SPLIT_LANES, 1)?;
    sink.matmul(
        plain(grad, width_out),
        transposed(sh.p(weight), width_out),
        (grad_in, width_in, 0, 0),
        (sh.rows, width_in, width_out),
        (1, 1),
        epilogue,
    )
}

/// LayerNorm's backward pass over `grad` (rows × d) in place: the gain's and bias's gradients
/// (a workgroup of lanes per column), then every row's input gradient.
fn norm_backward(
    sh: &Shape<'_>,
    sink: &mut Sink<'_, '_>,
    grad: usize,
    (hat, inverse_std): (usize, usize),
    (gain, bias): (usize, usize),
) -> Result<(), GpuError> {
    let op = sh.norm(grad, hat, inverse_std, gain, bias);
    sink.push(
        Kernel::NormBackwardColumns,
        op,
        sh.config.d * SPLIT_LANES,
        1,
    )?;
    sink.push(Kernel::NormBackwardRows, op, sh.rows, 1)
}
