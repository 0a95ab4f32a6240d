//! The training kernels' pipelines and the uniforms they read. Every pipeline shares one bind
//! group layout: binding 0 the op's parameters (a 256-byte slot of one uniform buffer, chosen by
//! a dynamic offset, so that every dispatch of a step is recorded with one bind group), binding 1
//! the step's uniform, binding 2 the arena (every f32 tensor of the run: parameters, gradients,
//! Adam's moments, fixed tables, activations), binding 3 the batch's tokens and targets.

use bytemuck::{Pod, Zeroable};

use crate::wgsl::{wgsl, WgslFile, WgslSource, REDUCE, TRAIN_BINDINGS, TRAIN_ROW_SOFTMAX};
use crate::{storage_entry, uniform_entry};

/// The bytes of one op's slot: the largest dynamic-offset alignment WebGPU allows a device to
/// ask for, so that every device accepts the offsets.
pub const OP_SLOT: u64 = 256;

/// What train_attention.wgsl and train_shaw.wgsl share.
const SOFTMAX_OP: WgslFile = wgsl!("softmax_op.wgsl");

pub(crate) const MATMUL: WgslSource =
    WgslSource(&[TRAIN_BINDINGS, REDUCE, wgsl!("train_matmul.wgsl")]);
pub(crate) const EMBED: WgslSource =
    WgslSource(&[TRAIN_BINDINGS, REDUCE, wgsl!("train_embed.wgsl")]);
pub(crate) const ROPE: WgslSource = WgslSource(&[TRAIN_BINDINGS, wgsl!("train_rope.wgsl")]);
pub(crate) const NORM: WgslSource = WgslSource(&[TRAIN_BINDINGS, REDUCE, wgsl!("train_norm.wgsl")]);
pub(crate) const ATTENTION: WgslSource = WgslSource(&[
    TRAIN_BINDINGS,
    REDUCE,
    TRAIN_ROW_SOFTMAX,
    SOFTMAX_OP,
    wgsl!("train_attention.wgsl"),
]);
pub(crate) const LOSS: WgslSource = WgslSource(&[
    TRAIN_BINDINGS,
    REDUCE,
    TRAIN_ROW_SOFTMAX,
    wgsl!("train_loss.wgsl"),
]);
pub(crate) const SHAW: WgslSource =
    WgslSource(&[TRAIN_BINDINGS, REDUCE, SOFTMAX_OP, wgsl!("train_shaw.wgsl")]);

/// The training kernels' modules, by label.
pub(crate) const MODULES: [(&str, WgslSource); 7] = [
    ("train matmul", MATMUL),
    ("train embed", EMBED),
    ("train rope", ROPE),
    ("train norm", NORM),
    ("train attention", ATTENTION),
    ("train loss", LOSS),
    ("train shaw", SHAW),
];

/// Every entry point, in the order of [`Kernels::pipelines`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kernel {
    Matmul,
    MatmulSplit,
    Embed,
    TokenGrads,
    PositionGrads,
    ConvWeightGrads,
    ConvInputGrads,
    Rope,
    NormForward,
    NormBackwardColumns,
    NormBackwardRows,
    ColumnSums,
    SoftmaxForward,
    SoftmaxBackward,
    BiasGrads,
    ShawValues,
    ShawQueryGrads,
    ShawTableGrads,
    CrossEntropy,
    MeanLoss,
    Adam,
}

/// The (label, module, entry point) of every kernel, in [`Kernel`] order.
const ENTRIES: [(&str, WgslSource, &str); 21] = [
    ("train matmul", MATMUL, "main"),
    ("train matmul", MATMUL, "split"),
    ("train embed", EMBED, "embed"),
    ("train embed", EMBED, "token_grads"),
    ("train embed", EMBED, "position_grads"),
    ("train embed", EMBED, "conv_weight_grads"),
    ("train embed", EMBED, "conv_input_grads"),
    ("train rope", ROPE, "main"),
    ("train norm", NORM, "forward"),
    ("train norm", NORM, "backward_columns"),
    ("train norm", NORM, "backward_rows"),
    ("train norm", NORM, "column_sums"),
    ("train attention", ATTENTION, "forward"),
    ("train attention", ATTENTION, "backward"),
    ("train attention", ATTENTION, "bias_grads"),
    ("train shaw", SHAW, "values_forward"),
    ("train shaw", SHAW, "query_grads"),
    ("train shaw", SHAW, "table_grads"),
    ("train loss", LOSS, "cross_entropy"),
    ("train loss", LOSS, "mean_loss"),
    ("train loss", LOSS, "adam"),
];

/// Mirrors `Op` in train_matmul.wgsl (its layout, 96 bytes, checked by shaders/layout_checks.rs). Offsets and strides
/// are in f32 entries of the arena; `outer`/`inner` are the strides of z / inner and z % inner.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, Pod, Zeroable)]
pub struct MatmulOp {
    pub a: u32,
    pub a_row: u32,
    pub a_col: u32,
    pub a_outer: u32,
    pub a_inner: u32,
    pub b: u32,
    pub b_row: u32,
    pub b_col: u32,
    pub b_outer: u32,
    pub b_inner: u32,
    pub o: u32,
    pub o_row: u32,
    pub o_outer: u32,
    pub o_inner: u32,
    pub m: u32,
    pub n: u32,
    pub k: u32,
    pub inner: u32,
    pub flags: u32,
    pub bias: u32,
    pub addend: u32,
    pub mask: u32,
    pub _pad: [u32; 2],
}

/// The target word of a row without a target (`NO_TARGET` in train_loss.wgsl; the training
/// crate's `NO_TARGET` is a usize).
pub const NO_TARGET_WORD: u32 = u32::MAX;

/// `MatmulOp::flags`, as in train_matmul.wgsl.
pub const ACCUMULATE: u32 = 1;
pub const BIAS: u32 = 2;
pub const ADDEND: u32 = 4;
pub const RELU: u32 = 8;
pub const MASK: u32 = 16;

/// Mirrors `Op` in train_embed.wgsl (its layout, 64 bytes, checked by shaders/layout_checks.rs).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, Pod, Zeroable)]
pub struct EmbedOp {
    pub rows: u32,
    pub n: u32,
    pub d: u32,
    pub token_width: u32,
    pub table: u32,
    pub table_grads: u32,
    pub position: u32,
    pub position_grads: u32,
    pub position_rows: u32,
    pub mode: u32,
    pub x: u32,
    pub vocab: u32,
    pub tokens: u32,
    pub conv: u32,
    pub conv_grads: u32,
    pub embedded_grads: u32,
}

/// Mirrors `Op` in train_rope.wgsl (its layout, 48 bytes, checked by shaders/layout_checks.rs).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, Pod, Zeroable)]
pub struct RopeOp {
    pub rows: u32,
    pub n: u32,
    pub d: u32,
    pub head_width: u32,
    pub cos: u32,
    pub sin: u32,
    pub data: u32,
    pub blocks: u32,
    pub stride: u32,
    pub inverse: u32,
    pub _pad: [u32; 2],
}

/// Mirrors `Op` in train_norm.wgsl (its layout, 48 bytes, checked by shaders/layout_checks.rs).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, Pod, Zeroable)]
pub struct NormOp {
    pub rows: u32,
    pub d: u32,
    pub x: u32,
    pub hat: u32,
    pub inverse_std: u32,
    pub gain: u32,
    pub bias: u32,
    pub gain_grads: u32,
    pub bias_grads: u32,
    pub epsilon: f32,
    pub _pad: [u32; 2],
}

/// Mirrors `Op` in train_attention.wgsl and train_shaw.wgsl (its layout, 80
/// bytes, checked by shaders/layout_checks.rs).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, Pod, Zeroable)]
pub struct SoftmaxOp {
    pub rows: u32,
    pub n: u32,
    pub heads: u32,
    pub causal: u32,
    pub weights: u32,
    pub grads: u32,
    pub bias_mode: u32,
    pub bias: u32,
    pub table_length: u32,
    pub scale: f32,
    pub bias_grads: u32,
    pub buckets: u32,
    pub offset_rows: u32,
    pub q: u32,
    pub attended: u32,
    pub q_grads: u32,
    pub values: u32,
    pub value_grads: u32,
    pub d: u32,
    pub head_width: u32,
}

/// `SoftmaxOp::bias_mode`, as in train_attention.wgsl.
pub const NO_BIAS: u32 = 0;
pub const ALIBI_BIAS: u32 = 1;
pub const T5_BIAS: u32 = 2;
pub const SHAW_BIAS: u32 = 3;

/// Mirrors `Op` in train_loss.wgsl (its layout, 48 bytes, checked by shaders/layout_checks.rs).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, Pod, Zeroable)]
pub struct LossOp {
    pub rows: u32,
    pub classes: u32,
    pub logits: u32,
    pub row_loss: u32,
    pub targets: u32,
    pub losses: u32,
    pub params: u32,
    pub grads: u32,
    pub first: u32,
    pub second: u32,
    pub count: u32,
    pub _pad: u32,
}

/// Mirrors `Step` in train_loss.wgsl (its layout, 48 bytes, checked by shaders/layout_checks.rs).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, Pod, Zeroable)]
pub struct StepUniform {
    pub step_size: f32,
    pub inverse_correction: f32,
    pub beta1: f32,
    pub beta2: f32,
    pub one_minus_beta1: f32,
    pub one_minus_beta2: f32,
    pub epsilon: f32,
    pub inverse_count: f32,
    pub count: f32,
    pub loss_slot: u32,
    pub _pad: [u32; 2],
}

/// The pipelines of every entry point and their shared bind group layout.
pub struct Kernels {
    pub layout: wgpu::BindGroupLayout,
    pipelines: Vec<wgpu::ComputePipeline>,
}

impl Kernels {
    pub fn new(device: &wgpu::Device) -> Self {
        let mut ops = uniform_entry(0);
        if let wgpu::BindingType::Buffer {
            has_dynamic_offset, ..
        } = &mut ops.ty
        {
            *has_dynamic_offset = true;
        }
        let (layout, pipeline_layout) = crate::layouts(
            device,
            "train",
            &[
                ops,
                uniform_entry(1),
                storage_entry(2, false),
                storage_entry(3, true),
            ],
        );
        let mut modules: Vec<(&str, wgpu::ShaderModule)> = Vec::new();
        let pipelines = ENTRIES
            .iter()
            .map(|&(label, source, entry_point)| {
                let index = match modules.iter().position(|(l, _)| *l == label) {
                    Some(index) => index,
                    None => {
                        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
                            label: Some(label),
                            source: wgpu::ShaderSource::Wgsl(source.text().into()),
                        });
                        modules.push((label, module));
                        modules.len() - 1
                    }
                };
                device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                    label: Some(entry_point),
                    layout: Some(&pipeline_layout),
                    module: &modules[index].1,
                    entry_point: Some(entry_point),
                    compilation_options: Default::default(),
                    cache: None,
                })
            })
            .collect();
        Kernels { layout, pipelines }
    }

    pub fn pipeline(&self, kernel: Kernel) -> &wgpu::ComputePipeline {
        &self.pipelines[kernel as usize]
    }
}
