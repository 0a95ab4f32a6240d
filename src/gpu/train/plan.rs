//! The dispatches of one training step at one batch length: forward, loss, backward and Adam, as
//! a list of (kernel, op slot, workgroups). Each length of the run's range gets its list once, at
//! the start, with its ops' uniforms written into one buffer; a step then only records its
//! length's list.

use bytemuck::Pod;
use pe_lab_train::encodings::Encoding;
use pe_lab_train::linalg::NORM_EPSILON;
use pe_lab_train::params::ParamLayout;
use pe_lab_train::TrainConfig;

use super::kernels::{
    EmbedOp, Kernel, LossOp, MatmulOp, NormOp, RopeOp, SoftmaxOp, ACCUMULATE, ADDEND, BIAS, MASK,
    OP_SLOT, RELU,
};
use super::layout::ArenaLayout;
use crate::gpu::{check_workgroups, GpuError};

/// Invocations per workgroup of every kernel but `mean_loss` (keep in sync with the WGSL files).
const WORKGROUP: usize = 64;
/// Lanes of the kernels that give each output a workgroup, whose lanes share a long sum (keep in
/// sync with LANES in the WGSL files).
const SPLIT_LANES: usize = 64;
/// Products summing at least this many terms get a workgroup per entry (`split`): the weights'
/// gradients sum over every row of the batch, which one invocation would add up alone.
const SPLIT_MIN_TERMS: usize = 128;
/// Workgroups along x before a dispatch wraps into y (the WebGPU default limit is 65535).
const ROW_GROUPS: usize = 32_768;

/// One recorded dispatch.
#[derive(Debug, Clone, Copy)]
pub struct Recorded {
    pub kernel: Kernel,
    /// Byte offset of the op's uniform slot.
    pub offset: u32,
    pub groups: [u32; 3],
}

/// Collects the ops' uniform bytes and the dispatches.
pub struct Recorder<'a> {
    pub bytes: Vec<u8>,
    limits: &'a wgpu::Limits,
}

impl<'a> Recorder<'a> {
    pub fn new(limits: &'a wgpu::Limits) -> Self {
        Recorder {
            bytes: Vec::new(),
            limits,
        }
    }

    fn push<T: Pod>(
        &mut self,
        list: &mut Vec<Recorded>,
        kernel: Kernel,
        op: T,
        threads: usize,
        z: usize,
    ) -> Result<(), GpuError> {
        let offset = self.bytes.len();
        self.bytes.extend_from_slice(bytemuck::bytes_of(&op));
        self.bytes.resize(offset + OP_SLOT as usize, 0);
        let needed = threads.div_ceil(WORKGROUP).max(1);
        let x = needed.min(ROW_GROUPS);
        let y = needed.div_ceil(x);
        let what = "training dispatch workgroups";
        let groups = [
            check_workgroups(self.limits, what, x as u64)?,
            check_workgroups(self.limits, what, y as u64)?,
            check_workgroups(self.limits, what, z as u64)?,
        ];
        let offset = u32::try_from(offset).map_err(|_| GpuError::TooLarge {
            what: "training op uniforms (bytes)",
            requested: offset as u64,
            limit: u64::from(u32::MAX),
        })?;
        list.push(Recorded {
            kernel,
            offset,
            groups,
        });
        Ok(())
    }
}

/// A strided view: (offset, row stride, column stride, outer stride, inner stride).
type View = (usize, usize, usize, usize, usize);

/// out (m × n, rows `o.1` apart) = A · B for `z` batches, with `flags` and their operands.
#[allow(clippy::too_many_arguments)]
fn matmul(
    rec: &mut Recorder<'_>,
    list: &mut Vec<Recorded>,
    a: View,
    b: View,
    o: (usize, usize, usize, usize),
    (m, n, k): (usize, usize, usize),
    (z, inner): (usize, usize),
    (flags, bias, addend, mask): (u32, usize, usize, usize),
) -> Result<(), GpuError> {
    let u = |v: usize| v as u32;
    let op = MatmulOp {
        a: u(a.0),
        a_row: u(a.1),
        a_col: u(a.2),
        a_outer: u(a.3),
        a_inner: u(a.4),
        b: u(b.0),
        b_row: u(b.1),
        b_col: u(b.2),
        b_outer: u(b.3),
        b_inner: u(b.4),
        o: u(o.0),
        o_row: u(o.1),
        o_outer: u(o.2),
        o_inner: u(o.3),
        m: u(m),
        n: u(n),
        k: u(k),
        inner: u(inner),
        flags,
        bias: u(bias),
        addend: u(addend),
        mask: u(mask),
        _pad: [0; 2],
    };
    if k >= SPLIT_MIN_TERMS {
        rec.push(list, Kernel::MatmulSplit, op, m * n * SPLIT_LANES, z)
    } else {
        rec.push(list, Kernel::Matmul, op, m * n, z)
    }
}

/// Plain row-major (rows `width` apart) and transposed views of a matrix.
fn plain(at: usize, width: usize) -> View {
    (at, width, 1, 0, 0)
}
fn transposed(at: usize, width: usize) -> View {
    (at, 1, width, 0, 0)
}
const NONE: (u32, usize, usize, usize) = (0, 0, 0, 0);

/// The dispatches of one step on batches of length `n`. Every offset fits in u32: the caller has
/// checked the arena's length.
pub fn record_step(
    rec: &mut Recorder<'_>,
    config: &TrainConfig,
    params: &ParamLayout,
    arena: &ArenaLayout,
    n: usize,
) -> Result<Vec<Recorded>, GpuError> {
    let mut list = Vec::new();
    let list = &mut list;
    let c = config;
    let (d, heads, dh, hid, classes) = (c.d, c.heads, c.head_width(), c.mlp_width(), c.classes());
    let rows = c.batch * n;
    let block = arena.rows_max * d;
    let square = n * n;
    let p = |offset: usize| arena.params + offset;
    let g = |offset: usize| arena.grads + offset;
    let u = |v: usize| v as u32;
    let token_width = d - c.encoding.appended_width(d);
    let (mode, position, position_rows) = match c.encoding {
        Encoding::Sinusoidal => (1, arena.sinusoid, arena.length_max),
        Encoding::Concat => (2, arena.sinusoid, arena.length_max),
        Encoding::Learned => (1, p(params.position_table), c.train_length),
        _ => (0, 0, 0),
    };
    let embed = EmbedOp {
        rows: u(rows),
        n: u(n),
        d: u(d),
        token_width: u(token_width),
        table: u(p(params.token_embedding)),
        table_grads: u(g(params.token_embedding)),
        position: u(position),
        position_grads: u(g(params.position_table)),
        position_rows: u(position_rows),
        mode,
        x: u(arena.embedded),
        vocab: u(c.vocab),
        tokens: 0,
        _pad: [0; 3],
    };
    rec.push(list, Kernel::Embed, embed, rows * d, 1)?;
    let rope = |data: usize, inverse: u32| RopeOp {
        rows: u(rows),
        n: u(n),
        d: u(d),
        head_width: u(dh),
        cos: u(arena.rope_cos),
        sin: u(arena.rope_sin),
        data: u(data),
        blocks: 2,
        stride: u(block),
        inverse,
        _pad: [0; 2],
    };
    let softmax = |weights: usize, grads: usize| SoftmaxOp {
        rows: u(c.batch * heads * n),
        n: u(n),
        heads: u(heads),
        causal: u32::from(c.causal),
        weights: u(weights),
        grads: u(grads),
        alibi: u32::from(c.encoding == Encoding::Alibi),
        bias: u(arena.alibi),
        table_length: u(arena.length_max),
        scale: (1.0 / (dh as f64).sqrt()) as f32,
        _pad: [0; 2],
    };
    let norm = |x: usize, hat: usize, inverse_std: usize, gain: usize, bias: usize| NormOp {
        rows: u(rows),
        d: u(d),
        x: u(x),
        hat: u(hat),
        inverse_std: u(inverse_std),
        gain: u(p(gain)),
        bias: u(p(bias)),
        gain_grads: u(g(gain)),
        bias_grads: u(g(bias)),
        epsilon: NORM_EPSILON as f32,
        _pad: [0; 2],
    };
    let column_sums = |x: usize, width: usize, out: usize| NormOp {
        rows: u(rows),
        d: u(width),
        x: u(x),
        bias_grads: u(out),
        ..NormOp::default()
    };
    // Per-head views of a rows × d tensor (z = sequence · heads + head) and of the n × n squares.
    let head_rows = |at: usize| (at, d, 1, n * d, dh);
    let head_rows_t = |at: usize| (at, 1, d, n * d, dh);
    let squares = |at: usize| (at, n, 1, heads * square, square);
    let squares_t = |at: usize| (at, 1, n, heads * square, square);
    let per_head = (c.batch * heads, heads);
    let one = (1, 1);

    for (l, layer) in arena.layers.iter().enumerate() {
        let o = &params.layers[l];
        let x = arena.state(c, l);
        let (q, k, v) = (layer.qkv, layer.qkv + block, layer.qkv + 2 * block);
        matmul(
            rec,
            list,
            (x, d, 1, 0, 0),
            (p(o.w_q), d, 1, d * d, 0),
            (layer.qkv, d, block, 0),
            (rows, d, d),
            (3, 1),
            NONE,
        )?;
        if c.encoding == Encoding::Rope {
            rec.push(list, Kernel::Rope, rope(q, 0), rows * d, 1)?;
        }
        let scores = (layer.weights, n, heads * square, square);
        matmul(
            rec,
            list,
            head_rows(q),
            head_rows_t(k),
            scores,
            (n, n, dh),
            per_head,
            NONE,
        )?;
        let forward = softmax(layer.weights, 0);
        rec.push(
            list,
            Kernel::SoftmaxForward,
            forward,
            c.batch * heads * n,
            1,
        )?;
        let attended = (layer.attended, d, n * d, dh);
        let weights = squares(layer.weights);
        matmul(
            rec,
            list,
            weights,
            head_rows(v),
            attended,
            (n, dh, n),
            per_head,
            NONE,
        )?;
        matmul(
            rec,
            list,
            plain(layer.attended, d),
            plain(p(o.w_o), d),
            (layer.mid, d, 0, 0),
            (rows, d, d),
            one,
            (ADDEND, 0, x, 0),
        )?;
        if c.layer_norm {
            let op = norm(
                layer.mid,
                layer.hat1,
                layer.inverse_std1,
                o.norm1_gain,
                o.norm1_bias,
            );
            rec.push(list, Kernel::NormForward, op, rows, 1)?;
        }
        if c.mlp {
            matmul(
                rec,
                list,
                plain(layer.mid, d),
                plain(p(o.mlp_in), hid),
                (layer.hidden, hid, 0, 0),
                (rows, hid, d),
                one,
                (BIAS | RELU, p(o.mlp_in_bias), 0, 0),
            )?;
            matmul(
                rec,
                list,
                plain(layer.hidden, hid),
                plain(p(o.mlp_out), d),
                (layer.out, d, 0, 0),
                (rows, d, hid),
                one,
                (BIAS | ADDEND, p(o.mlp_out_bias), layer.mid, 0),
            )?;
            if c.layer_norm {
                let op = norm(
                    layer.out,
                    layer.hat2,
                    layer.inverse_std2,
                    o.norm2_gain,
                    o.norm2_bias,
                );
                rec.push(list, Kernel::NormForward, op, rows, 1)?;
            }
        }
    }

    let last = arena.state(c, c.layers);
    matmul(
        rec,
        list,
        plain(last, d),
        plain(p(params.readout), classes),
        (arena.logits, classes, 0, 0),
        (rows, classes, d),
        one,
        (BIAS, p(params.readout_bias), 0, 0),
    )?;
    let loss = LossOp {
        rows: u(rows),
        classes: u(classes),
        logits: u(arena.logits),
        row_loss: u(arena.row_loss),
        targets: u(arena.rows_max),
        losses: u(arena.losses),
        params: u(arena.params),
        grads: u(arena.grads),
        first: u(arena.first),
        second: u(arena.second),
        count: u(arena.parameter_count),
        _pad: 0,
    };
    rec.push(list, Kernel::CrossEntropy, loss, rows, 1)?;
    rec.push(list, Kernel::MeanLoss, loss, SPLIT_LANES, 1)?;

    // Backward: the logits now hold their gradient.
    matmul(
        rec,
        list,
        transposed(last, d),
        plain(arena.logits, classes),
        (g(params.readout), classes, 0, 0),
        (d, classes, rows),
        one,
        NONE,
    )?;
    let sums = column_sums(arena.logits, classes, g(params.readout_bias));
    rec.push(list, Kernel::ColumnSums, sums, classes * SPLIT_LANES, 1)?;
    matmul(
        rec,
        list,
        plain(arena.logits, classes),
        transposed(p(params.readout), classes),
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
                let op = norm(
                    grad_out,
                    layer.hat2,
                    layer.inverse_std2,
                    o.norm2_gain,
                    o.norm2_bias,
                );
                rec.push(list, Kernel::NormBackwardColumns, op, d * SPLIT_LANES, 1)?;
                rec.push(list, Kernel::NormBackwardRows, op, rows, 1)?;
            }
            matmul(
                rec,
                list,
                transposed(layer.hidden, hid),
                plain(grad_out, d),
                (g(o.mlp_out), d, 0, 0),
                (hid, d, rows),
                one,
                NONE,
            )?;
            let sums = column_sums(grad_out, d, g(o.mlp_out_bias));
            rec.push(list, Kernel::ColumnSums, sums, d * SPLIT_LANES, 1)?;
            matmul(
                rec,
                list,
                plain(grad_out, d),
                transposed(p(o.mlp_out), d),
                (arena.grad_hidden, hid, 0, 0),
                (rows, hid, d),
                one,
                (MASK, 0, 0, layer.hidden),
            )?;
            matmul(
                rec,
                list,
                transposed(layer.mid, d),
                plain(arena.grad_hidden, hid),
                (g(o.mlp_in), hid, 0, 0),
                (d, hid, rows),
                one,
                NONE,
            )?;
            let sums = column_sums(arena.grad_hidden, hid, g(o.mlp_in_bias));
            rec.push(list, Kernel::ColumnSums, sums, hid * SPLIT_LANES, 1)?;
            matmul(
                rec,
                list,
                plain(arena.grad_hidden, hid),
                transposed(p(o.mlp_in), hid),
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
            let op = norm(
                grad_mid,
                layer.hat1,
                layer.inverse_std1,
                o.norm1_gain,
                o.norm1_bias,
            );
            rec.push(list, Kernel::NormBackwardColumns, op, d * SPLIT_LANES, 1)?;
            rec.push(list, Kernel::NormBackwardRows, op, rows, 1)?;
        }
        matmul(
            rec,
            list,
            transposed(layer.attended, d),
            plain(grad_mid, d),
            (g(o.w_o), d, 0, 0),
            (d, d, rows),
            one,
            NONE,
        )?;
        matmul(
            rec,
            list,
            plain(grad_mid, d),
            transposed(p(o.w_o), d),
            (arena.grad_attended, d, 0, 0),
            (rows, d, d),
            one,
            NONE,
        )?;
        let grad_scores = (arena.grad_scores, n, heads * square, square);
        matmul(
            rec,
            list,
            head_rows(arena.grad_attended),
            head_rows_t(v),
            grad_scores,
            (n, n, dh),
            per_head,
            NONE,
        )?;
        matmul(
            rec,
            list,
            squares_t(layer.weights),
            head_rows(arena.grad_attended),
            (grad_v, d, n * d, dh),
            (n, dh, n),
            per_head,
            NONE,
        )?;
        let backward = softmax(layer.weights, arena.grad_scores);
        rec.push(
            list,
            Kernel::SoftmaxBackward,
            backward,
            c.batch * heads * n,
            1,
        )?;
        matmul(
            rec,
            list,
            squares(arena.grad_scores),
            head_rows(k),
            (grad_q, d, n * d, dh),
            (n, dh, n),
            per_head,
            NONE,
        )?;
        matmul(
            rec,
            list,
            squares_t(arena.grad_scores),
            head_rows(q),
            (grad_k, d, n * d, dh),
            (n, dh, n),
            per_head,
            NONE,
        )?;
        if c.encoding == Encoding::Rope {
            rec.push(list, Kernel::Rope, rope(grad_q, 1), rows * d, 1)?;
        }
        matmul(
            rec,
            list,
            (x, 1, d, 0, 0),
            (arena.grad_qkv, d, 1, block, 0),
            (g(o.w_q), d, d * d, 0),
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
            matmul(
                rec,
                list,
                plain(grad, d),
                transposed(p(weight), d),
                (arena.grad_x, d, 0, 0),
                (rows, d, d),
                one,
                flags,
            )?;
        }
    }
    let mut grads = embed;
    grads.x = u(arena.grad_x);
    let outputs = c.vocab * token_width;
    rec.push(list, Kernel::TokenGrads, grads, outputs * SPLIT_LANES, 1)?;
    if c.encoding == Encoding::Learned {
        rec.push(list, Kernel::PositionGrads, grads, c.train_length * d, 1)?;
    }
    rec.push(list, Kernel::Adam, loss, arena.parameter_count, 1)?;
    Ok(list.clone())
}
