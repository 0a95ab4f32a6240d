//! The backward pass's dispatches of one step (see `plan.rs`): from the logits' gradient back
//! through the readout and every layer to the embedding's input gradient, each weight's gradient
//! written once (no clearing is needed).

use pe_lab_train::encodings::{relative_rows, Encoding};

use super::kernels::{Kernel, ACCUMULATE, ADDEND, MASK};
use super::plan::{plain, transposed, Shape, Sink, NONE, SPLIT_LANES};
use crate::gpu::GpuError;

pub(super) fn backward(sh: &Shape<'_>, sink: &mut Sink<'_, '_>) -> Result<(), GpuError> {
    let (c, params, arena) = (sh.config, sh.params, sh.arena);
    let (n, rows, block, square) = (sh.n, sh.rows, sh.block, sh.n * sh.n);
    let (d, heads, dh, hid, classes) = (c.d, c.heads, c.head_width(), c.mlp_width(), c.classes());
    let (per_head, one) = ((c.batch * heads, heads), (1, 1));
    let last = arena.state(c, c.layers);
    // Backward: the logits now hold their gradient.
    sink.matmul(
        transposed(last, d),
        plain(arena.logits, classes),
        (sh.g(params.readout), classes, 0, 0),
        (d, classes, rows),
        one,
        NONE,
    )?;
    let sums = sh.column_sums(arena.logits, classes, sh.g(params.readout_bias));
    sink.push(Kernel::ColumnSums, sums, classes * SPLIT_LANES, 1)?;
    sink.matmul(
        plain(arena.logits, classes),
        transposed(sh.p(params.readout), classes),
        (arena.grad_x, d, 0, 0),
        (rows, d, classes),
        one,
        NONE,
    )?;
    let (grad_q, grad_k, grad_v) = (
        arena.grad_qkv,
        arena.grad_qkv + block,
        arena.grad_qkv + 2 * block,
    );
    for (l, layer) in arena.layers.iter().enumerate().rev() {
        let o = &params.layers[l];
        let x = arena.state(c, l);
        let (q, k, v) = (layer.qkv, layer.qkv + block, layer.qkv + 2 * block);
        let grad_out = arena.grad_x;
        let grad_mid = if c.mlp {
            if c.layer_norm {
                let op = sh.norm(
                    grad_out,
                    layer.hat2,
                    layer.inverse_std2,
                    o.norm2_gain,
                    o.norm2_bias,
                );
                sink.push(Kernel::NormBackwardColumns, op, d * SPLIT_LANES, 1)?;
                sink.push(Kernel::NormBackwardRows, op, rows, 1)?;
            }
            sink.matmul(
                transposed(layer.hidden, hid),
                plain(grad_out, d),
                (sh.g(o.mlp_out), d, 0, 0),
                (hid, d, rows),
                one,
                NONE,
            )?;
            let sums = sh.column_sums(grad_out, d, sh.g(o.mlp_out_bias));
            sink.push(Kernel::ColumnSums, sums, d * SPLIT_LANES, 1)?;
            sink.matmul(
                plain(grad_out, d),
                transposed(sh.p(o.mlp_out), d),
                (arena.grad_hidden, hid, 0, 0),
                (rows, hid, d),
                one,
                (MASK, 0, 0, layer.hidden),
            )?;
            sink.matmul(
                transposed(layer.mid, d),
                plain(arena.grad_hidden, hid),
                (sh.g(o.mlp_in), hid, 0, 0),
                (d, hid, rows),
                one,
                NONE,
            )?;
            let sums = sh.column_sums(arena.grad_hidden, hid, sh.g(o.mlp_in_bias));
            sink.push(Kernel::ColumnSums, sums, hid * SPLIT_LANES, 1)?;
            sink.matmul(
                plain(arena.grad_hidden, hid),
                transposed(sh.p(o.mlp_in), hid),
                (arena.grad_mid, d, 0, 0),
                (rows, d, hid),
                one,
                (ADDEND, 0, grad_out, 0),
            )?;
            arena.grad_mid
        } else {
            grad_out
        };
        if c.layer_norm {
            let op = sh.norm(
                grad_mid,
                layer.hat1,
                layer.inverse_std1,
                o.norm1_gain,
                o.norm1_bias,
            );
            sink.push(Kernel::NormBackwardColumns, op, d * SPLIT_LANES, 1)?;
            sink.push(Kernel::NormBackwardRows, op, rows, 1)?;
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
        )?;
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
        )?;
        let backward = sh.softmax(l, layer.weights, arena.grad_scores, arena.grad_attended);
        sink.push(Kernel::SoftmaxBackward, backward, c.batch * heads * n, 1)?;
        let shaw = c.encoding == Encoding::Shaw;
        if c.encoding == Encoding::T5 {
            let outputs = heads * relative_rows(c.encoding);
            sink.push(Kernel::BiasGrads, backward, outputs * SPLIT_LANES, 1)?;
        }
        if shaw {
            // q's gradient starts with Shaw's a^K term; the product below adds to it.
            sink.push(Kernel::ShawQueryGrads, backward, rows * d, 1)?;
            let outputs = 2 * heads * relative_rows(c.encoding) * dh;
            sink.push(Kernel::ShawTableGrads, backward, outputs * SPLIT_LANES, 1)?;
        }
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
                one,
                flags,
            )?;
        }
    }
    Ok(())
}
