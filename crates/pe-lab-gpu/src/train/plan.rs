//! The dispatches of one training step at one batch length: forward, loss, backward and Adam, as
//! a list of (kernel, op slot, workgroups). Each length of the run's range gets its list once, at
//! the start, with its ops' uniforms written into one buffer; a step then only records its
//! length's list. The backward pass's dispatches are in `backward.rs`.

use bytemuck::Pod;
use pe_lab_train::encodings::{relative_rows, Encoding, CONV_KERNEL};
use pe_lab_train::linalg::NORM_EPSILON;
use pe_lab_train::params::ParamLayout;
use pe_lab_train::TrainConfig;

use super::backward::backward;
use super::kernels::{
    EmbedOp, Kernel, LossOp, MatmulOp, NormOp, RopeOp, SoftmaxOp, ADDEND, ALIBI_BIAS, BIAS,
    NO_BIAS, OP_SLOT, RELU, SHAW_BIAS, T5_BIAS,
};
use super::layout::ArenaLayout;
use crate::{check_workgroups, GpuError};

/// Invocations per workgroup of the kernels with one invocation per output (the training
/// kernels' `@workgroup_size`s and `invocation()`, checked by shaders/layout_checks.rs).
pub(crate) const WORKGROUP: usize = 64;
/// Lanes of the kernels that give each output a workgroup, whose lanes share a long sum (the tree
/// reductions of shared/reduce.wgsl).
pub(crate) const SPLIT_LANES: usize = crate::shaders::REDUCE_LANES as usize;
/// Products summing at least this many terms get a workgroup per entry (`split`) under
/// [`LongSums::Split`]: the weights' gradients sum over every row of the batch, which one
/// invocation would add up alone.
const SPLIT_MIN_TERMS: usize = 128;

/// How the products' long sums (at least [`SPLIT_MIN_TERMS`] terms) are computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LongSums {
    /// A workgroup per entry, its lanes sharing the sum (`split`): on a GPU, thousands of short
    /// sums in parallel rather than a few long ones in series.
    Split,
    /// An invocation per entry, the sum in order (`main`). A CPU adapter (lavapipe, SwiftShader)
    /// runs a workgroup's lanes in SIMD registers and each barrier of `split`'s tree as a switch
    /// between them: on lavapipe the W_q/W_k/W_v gradients took 67 ms a step split, and the
    /// native GPU-trainer tests 134 s instead of 89 s in order.
    InOrder,
}

impl LongSums {
    /// The faster form on `adapter` (a software one: [`crate::adapter::is_software_adapter`]).
    pub fn for_adapter(adapter: &wgpu::AdapterInfo) -> Self {
        let cpu_device = adapter.device_type == wgpu::DeviceType::Cpu;
        if crate::adapter::is_software_adapter(&adapter.name, cpu_device) {
            LongSums::InOrder
        } else {
            LongSums::Split
        }
    }
}
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

/// The ops' uniform bytes of every length, one [`OP_SLOT`] each.
pub struct Recorder<'a> {
    pub bytes: Vec<u8>,
    limits: &'a wgpu::Limits,
    long_sums: LongSums,
}

impl<'a> Recorder<'a> {
    pub fn new(limits: &'a wgpu::Limits, long_sums: LongSums) -> Self {
        Recorder {
            bytes: Vec::new(),
            limits,
            long_sums,
        }
    }
}

/// A strided view: (offset, row stride, column stride, outer stride, inner stride).
pub(super) type View = (usize, usize, usize, usize, usize);
/// The matmul's flags and their operands: (flags, bias, addend, mask).
pub(super) type Flags = (u32, usize, usize, usize);
pub(super) const NONE: Flags = (0, 0, 0, 0);

/// Collects one length's dispatches.
pub(super) struct Sink<'r, 'a> {
    rec: &'r mut Recorder<'a>,
    list: Vec<Recorded>,
}

impl Sink<'_, '_> {
    /// Records `op` for `kernel` over `threads` invocations (× `z`).
    pub fn push<T: Pod>(
        &mut self,
        kernel: Kernel,
        op: T,
        threads: usize,
        z: usize,
    ) -> Result<(), GpuError> {
        let rec = &mut *self.rec;
        let offset = rec.bytes.len();
        rec.bytes.extend_from_slice(bytemuck::bytes_of(&op));
        rec.bytes.resize(offset + OP_SLOT as usize, 0);
        let needed = threads.div_ceil(WORKGROUP).max(1);
        let x = needed.min(ROW_GROUPS);
        let y = needed.div_ceil(x);
        let what = "training dispatch workgroups";
        let groups = [
            check_workgroups(rec.limits, what, x as u64)?,
            check_workgroups(rec.limits, what, y as u64)?,
            check_workgroups(rec.limits, what, z as u64)?,
        ];
        let offset = u32::try_from(offset).map_err(|_| GpuError::TooLarge {
            what: "training op uniforms (bytes)",
            requested: offset as u64,
            limit: u64::from(u32::MAX),
        })?;
        self.list.push(Recorded {
            kernel,
            offset,
            groups,
        });
        Ok(())
    }

    /// out (m × n, rows `o.1` apart, `o.2`/`o.3` the outer/inner strides) = A · B for `z`
    /// batches (`inner` per outer index), then `flags`.
    pub fn matmul(
        &mut self,
        a: View,
        b: View,
        o: (usize, usize, usize, usize),
        (m, n, k): (usize, usize, usize),
        (z, inner): (usize, usize),
        (flags, bias, addend, mask): Flags,
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
        if k >= SPLIT_MIN_TERMS && self.rec.long_sums == LongSums::Split {
            self.push(Kernel::MatmulSplit, op, m * n * SPLIT_LANES, z)
        } else {
            self.push(Kernel::Matmul, op, m * n, z)
        }
    }
}

/// Plain row-major (rows `width` apart) and transposed views of a matrix.
pub(super) fn plain(at: usize, width: usize) -> View {
    (at, width, 1, 0, 0)
}
pub(super) fn transposed(at: usize, width: usize) -> View {
    (at, 1, width, 0, 0)
}

/// What one length's ops are built from, and the ops' uniforms. Every offset fits in u32: the
/// trainer has checked the arena's length.
pub(super) struct Shape<'a> {
    pub config: &'a TrainConfig,
    pub params: &'a ParamLayout,
    pub arena: &'a ArenaLayout,
    pub n: usize,
    pub rows: usize,
    /// The distance between q, k and v (and their gradients).
    pub block: usize,
}

impl Shape<'_> {
    pub fn u(&self, v: usize) -> u32 {
        v as u32
    }

    /// The arena offsets of parameter `offset` and of its gradient.
    pub fn p(&self, offset: usize) -> usize {
        self.arena.params + offset
    }
    pub fn g(&self, offset: usize) -> usize {
        self.arena.grads + offset
    }

    /// Per-head views of a rows × d tensor (z = sequence · heads + head), plain and transposed.
    pub fn head_rows(&self, at: usize) -> View {
        let (d, dh) = (self.config.d, self.config.head_width());
        (at, d, 1, self.n * d, dh)
    }
    pub fn head_rows_t(&self, at: usize) -> View {
        let (d, dh) = (self.config.d, self.config.head_width());
        (at, 1, d, self.n * d, dh)
    }

    /// Per-head views of the n × n squares, plain and transposed.
    pub fn squares(&self, at: usize) -> View {
        let (n, heads) = (self.n, self.config.heads);
        (at, n, 1, heads * n * n, n * n)
    }
    pub fn squares_t(&self, at: usize) -> View {
        let (n, heads) = (self.n, self.config.heads);
        (at, 1, n, heads * n * n, n * n)
    }

    pub fn rope(&self, data: usize, inverse: u32) -> RopeOp {
        let c = self.config;
        RopeOp {
            rows: self.u(self.rows),
            n: self.u(self.n),
            d: self.u(c.d),
            head_width: self.u(c.head_width()),
            cos: self.u(self.arena.rope_cos),
            sin: self.u(self.arena.rope_sin),
            data: self.u(data),
            blocks: 2,
            stride: self.u(self.block),
            inverse,
            _pad: [0; 2],
        }
    }

    /// Layer `l`'s softmax over the scores at `weights` (and their gradient at `grads`);
    /// `attended` is the heads' outputs (forward) or their gradient (backward), for Shaw.
    pub fn softmax(&self, l: usize, weights: usize, grads: usize, attended: usize) -> SoftmaxOp {
        let c = self.config;
        let o = &self.params.layers[l];
        let (key, value) = (o.relative_key, o.relative_value);
        let (bias_mode, bias, bias_grads) = match c.encoding {
            Encoding::Alibi => (ALIBI_BIAS, self.arena.alibi, 0),
            Encoding::T5 => (T5_BIAS, self.p(key), self.g(key)),
            Encoding::Shaw => (SHAW_BIAS, self.p(key), self.g(key)),
            _ => (NO_BIAS, 0, 0),
        };
        SoftmaxOp {
            rows: self.u(c.batch * c.heads * self.n),
            n: self.u(self.n),
            heads: self.u(c.heads),
            causal: u32::from(c.causal),
            weights: self.u(weights),
            grads: self.u(grads),
            bias_mode,
            bias: self.u(bias),
            table_length: self.u(self.arena.length_max),
            scale: (1.0 / (c.head_width() as f64).sqrt()) as f32,
            bias_grads: self.u(bias_grads),
            buckets: self.u(relative_rows(c.encoding)),
            offset_rows: self.u(self.arena.offset_rows_at),
            q: self.u(self.arena.layers[l].qkv),
            attended: self.u(attended),
            q_grads: self.u(self.arena.grad_qkv),
            values: self.u(self.p(value)),
            value_grads: self.u(self.g(value)),
            d: self.u(c.d),
            head_width: self.u(c.head_width()),
        }
    }

    pub fn norm(
        &self,
        x: usize,
        hat: usize,
        inverse_std: usize,
        gain: usize,
        bias: usize,
    ) -> NormOp {
        NormOp {
            rows: self.u(self.rows),
            d: self.u(self.config.d),
            x: self.u(x),
            hat: self.u(hat),
            inverse_std: self.u(inverse_std),
            gain: self.u(self.p(gain)),
            bias: self.u(self.p(bias)),
            gain_grads: self.u(self.g(gain)),
            bias_grads: self.u(self.g(bias)),
            epsilon: NORM_EPSILON as f32,
            _pad: [0; 2],
        }
    }

    /// `out[c] = Σ_r x[r, c]` over rows of `width`.
    pub fn column_sums(&self, x: usize, width: usize, out: usize) -> NormOp {
        NormOp {
            rows: self.u(self.rows),
            d: self.u(width),
            x: self.u(x),
            bias_grads: self.u(out),
            ..NormOp::default()
        }
    }
}

/// The dispatches of one step on batches of length `n`.
pub fn record_step(
    rec: &mut Recorder<'_>,
    config: &TrainConfig,
    params: &ParamLayout,
    arena: &ArenaLayout,
    n: usize,
) -> Result<Vec<Recorded>, GpuError> {
    let sh = &Shape {
        config,
        params,
        arena,
        n,
        rows: config.batch * n,
        block: arena.rows_max * config.d,
    };
    let sink = &mut Sink {
        rec,
        list: Vec::new(),
    };
    let embed = forward(sh, sink)?;
    let loss = loss(sh, sink)?;
    backward(sh, sink)?;
    let (c, d) = (config, config.d);
    let token_width = d - c.encoding.appended_width(d);
    let mut grads = embed;
    grads.x = sh.u(arena.grad_x);
    if c.encoding == Encoding::Conv {
        let sums = sh.column_sums(arena.grad_x, d, sh.g(params.conv_bias));
        sink.push(Kernel::ColumnSums, sums, d * SPLIT_LANES, 1)?;
        let outputs = CONV_KERNEL * d;
        sink.push(Kernel::ConvWeightGrads, grads, outputs * SPLIT_LANES, 1)?;
        sink.push(Kernel::ConvInputGrads, grads, sh.rows * d, 1)?;
        // The token embeddings' gradient is the convolution's input's.
        grads.x = sh.u(arena.grad_mid);
    }
    let outputs = c.vocab * token_width;
    sink.push(Kernel::TokenGrads, grads, outputs * SPLIT_LANES, 1)?;
    if c.encoding == Encoding::Learned {
        sink.push(Kernel::PositionGrads, grads, c.train_length * d, 1)?;
    }
    sink.push(Kernel::Adam, loss, arena.parameter_count, 1)?;
    Ok(std::mem::take(&mut sink.list))
}

/// The embedding and every layer; returns the embedding's op (its gradients' ops reuse it).
fn forward(sh: &Shape<'_>, sink: &mut Sink<'_, '_>) -> Result<EmbedOp, GpuError> {
    let embed = embed_op(sh);
    sink.push(Kernel::Embed, embed, sh.rows * sh.config.d, 1)?;
    for l in 0..sh.arena.layers.len() {
        attention_forward(sh, sink, l)?;
        if sh.config.mlp {
            mlp_forward(sh, sink, l)?;
        }
    }

    Ok(embed)
}

/// The embedding's op: the token table, the encoding's added or concatenated positions (or its
/// convolution), and where their gradients go.
fn embed_op(sh: &Shape<'_>) -> EmbedOp {
    let (c, params, arena) = (sh.config, sh.params, sh.arena);
    let d = c.d;
    let token_width = d - c.encoding.appended_width(d);
    let (mode, position, position_rows) = match c.encoding {
        Encoding::Sinusoidal => (1, arena.sinusoid, arena.length_max),
        Encoding::Concat => (2, arena.sinusoid, arena.length_max),
        Encoding::Learned => (1, sh.p(params.position_table), c.train_length),
        Encoding::Conv => (3, 0, 0),
        _ => (0, 0, 0),
    };
    EmbedOp {
        rows: sh.u(sh.rows),
        n: sh.u(sh.n),
        d: sh.u(d),
        token_width: sh.u(token_width),
        table: sh.u(sh.p(params.token_embedding)),
        table_grads: sh.u(sh.g(params.token_embedding)),
        position: sh.u(position),
        position_grads: sh.u(sh.g(params.position_table)),
        position_rows: sh.u(position_rows),
        mode,
        x: sh.u(arena.embedded),
        vocab: sh.u(c.vocab),
        tokens: 0,
        conv: sh.u(sh.p(params.conv_weight)),
        conv_grads: sh.u(sh.g(params.conv_weight)),
        embedded_grads: sh.u(arena.grad_mid),
    }
}

/// Layer `l`'s attention block: q, k and v (rotated for RoPE), the softmax of the scores, the
/// heads' outputs (plus Shaw's value term), the output projection with its residual, then the
/// first LayerNorm.
fn attention_forward(sh: &Shape<'_>, sink: &mut Sink<'_, '_>, l: usize) -> Result<(), GpuError> {
    let (c, arena) = (sh.config, sh.arena);
    let (o, layer) = (&sh.params.layers[l], &arena.layers[l]);
    let (n, rows, block, square) = (sh.n, sh.rows, sh.block, sh.n * sh.n);
    let (d, heads, dh) = (c.d, c.heads, c.head_width());
    let (per_head, one) = ((c.batch * heads, heads), (1, 1));
    let x = arena.state(c, l);
    let (q, k, v) = (layer.qkv, layer.qkv + block, layer.qkv + 2 * block);
    sink.matmul(
        (x, d, 1, 0, 0),
        (sh.p(o.w_q), d, 1, d * d, 0),
        (layer.qkv, d, block, 0),
        (rows, d, d),
        (3, 1),
        NONE,
    )?;
    if c.encoding == Encoding::Rope {
        sink.push(Kernel::Rope, sh.rope(q, 0), rows * d, 1)?;
    }
    let scores = (layer.weights, n, heads * square, square);
    sink.matmul(
        sh.head_rows(q),
        sh.head_rows_t(k),
        scores,
        (n, n, dh),
        per_head,
        NONE,
    )?;
    let forward = sh.softmax(l, layer.weights, 0, layer.attended);
    sink.push(Kernel::SoftmaxForward, forward, c.batch * heads * n, 1)?;
    let attended = (layer.attended, d, n * d, dh);
    let weights = sh.squares(layer.weights);
    sink.matmul(
        weights,
        sh.head_rows(v),
        attended,
        (n, dh, n),
        per_head,
        NONE,
    )?;
    if c.encoding == Encoding::Shaw {
        sink.push(Kernel::ShawValues, forward, rows * d, 1)?;
    }
    sink.matmul(
        plain(layer.attended, d),
        plain(sh.p(o.w_o), d),
        (layer.mid, d, 0, 0),
        (rows, d, d),
        one,
        (ADDEND, 0, x, 0),
    )?;
    if c.layer_norm {
        let op = sh.norm(
            layer.mid,
            layer.hat1,
            layer.inverse_std1,
            o.norm1_gain,
            o.norm1_bias,
        );
        sink.push(Kernel::NormForward, op, rows, 1)?;
    }
    Ok(())
}

/// Layer `l`'s MLP: two dense layers (the first with a ReLU, the second with the residual),
/// then the second LayerNorm.
fn mlp_forward(sh: &Shape<'_>, sink: &mut Sink<'_, '_>, l: usize) -> Result<(), GpuError> {
    let c = sh.config;
    let (o, layer) = (&sh.params.layers[l], &sh.arena.layers[l]);
    let (rows, d, hid, one) = (sh.rows, c.d, c.mlp_width(), (1, 1));
    sink.matmul(
        plain(layer.mid, d),
        plain(sh.p(o.mlp_in), hid),
        (layer.hidden, hid, 0, 0),
        (rows, hid, d),
        one,
        (BIAS | RELU, sh.p(o.mlp_in_bias), 0, 0),
    )?;
    sink.matmul(
        plain(layer.hidden, hid),
        plain(sh.p(o.mlp_out), d),
        (layer.out, d, 0, 0),
        (rows, d, hid),
        one,
        (BIAS | ADDEND, sh.p(o.mlp_out_bias), layer.mid, 0),
    )?;
    if c.layer_norm {
        let op = sh.norm(
            layer.out,
            layer.hat2,
            layer.inverse_std2,
            o.norm2_gain,
            o.norm2_bias,
        );
        sink.push(Kernel::NormForward, op, rows, 1)?;
    }
    Ok(())
}

/// The readout, the cross-entropy (the logits become their gradient) and the mean loss; returns
/// the loss's op (Adam's reuses it).
fn loss(sh: &Shape<'_>, sink: &mut Sink<'_, '_>) -> Result<LossOp, GpuError> {
    let (c, params, arena) = (sh.config, sh.params, sh.arena);
    let (rows, d, classes, one) = (sh.rows, c.d, c.classes(), (1, 1));
    let last = arena.state(c, c.layers);
    sink.matmul(
        plain(last, d),
        plain(sh.p(params.readout), classes),
        (arena.logits, classes, 0, 0),
        (rows, classes, d),
        one,
        (BIAS, sh.p(params.readout_bias), 0, 0),
    )?;
    let loss = LossOp {
        rows: sh.u(rows),
        classes: sh.u(classes),
        logits: sh.u(arena.logits),
        row_loss: sh.u(arena.row_loss),
        targets: sh.u(arena.rows_max),
        losses: sh.u(arena.losses),
        params: sh.u(arena.params),
        grads: sh.u(arena.grads),
        first: sh.u(arena.first),
        second: sh.u(arena.second),
        count: sh.u(arena.parameter_count),
        _pad: 0,
    };
    sink.push(Kernel::CrossEntropy, loss, rows, 1)?;
    sink.push(Kernel::MeanLoss, loss, SPLIT_LANES, 1)?;

    Ok(loss)
}
