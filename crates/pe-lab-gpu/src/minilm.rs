//! all-MiniLM-L6-v2's encoder on the GPU (minilm.wgsl): the same forward pass as
//! [`pe_lab_minilm::MiniLm::forward`], its CPU twin, from the same float32 tensors. The
//! embeddings' sum (a gather of word, token-type and position rows, whose word table the page
//! fetches in chunks) is the CPU's [`MiniLm::embedding_sum`]; everything after it (the
//! embeddings' LayerNorm and the six layers) runs in one compute pass of 61 dispatches, and one
//! read-back returns every layer's and head's attention weights and the last hidden state.
//!
//! The tensors are uploaded once ([`MiniLmKernel::new`], about 43 MB for MiniLM); a sentence
//! brings only its embeddings. Each dispatch reads its offsets from a 256-byte slot of one
//! uniform buffer, chosen by a dynamic offset, as the GPU trainer's ops do.

use bytemuck::{Pod, Zeroable};
use ndarray::{Array2, Array4, ArrayView1, ArrayView2};
use pe_lab_minilm::{ForwardOutput, MiniLm, MiniLmError, NormTensors, PositionTable};
use wgpu::util::DeviceExt;

use crate::wgsl::{wgsl, WgslSource, REDUCE, SOFTMAX};
use crate::{check_storage_size, read_f32, storage_entry, GpuError};

/// The encoder's module: the tree reductions and the row softmax it shares with the forward
/// kernels, then its own entry points.
pub(crate) const SOURCE: WgslSource = WgslSource(&[REDUCE, SOFTMAX, wgsl!("minilm.wgsl")]);

/// The bytes of one op's slot in the uniform buffer (the largest dynamic-offset alignment
/// WebGPU lets a device ask for).
const OP_SLOT: u64 = 256;

/// `linear`'s flag: the exact GELU after the bias.
pub const GELU: u32 = 1;
/// `norm`'s flag: add `other`'s rows before normalizing.
pub const RESIDUAL: u32 = 1;

/// The invocations of a workgroup of `linear` and `context` along x (`@workgroup_size(64)`).
const WORKGROUP: u32 = 64;

/// The tokens one invocation of `linear` computes (`LINEAR_ROWS` in minilm.wgsl), four outputs
/// each.
pub const LINEAR_ROWS: u32 = 4;

/// One dispatch's offsets and sizes (mirrors `Op` in minilm.wgsl, whose comments say what each
/// field means to each entry point).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, Pod, Zeroable)]
pub struct EncoderOp {
    pub input: u32,
    pub weight: u32,
    pub bias: u32,
    pub output: u32,
    pub other: u32,
    pub weights: u32,
    pub rows: u32,
    pub inputs: u32,
    pub outputs: u32,
    pub heads: u32,
    pub head_size: u32,
    pub flags: u32,
    pub scale: f32,
    pub _pad0: u32,
    pub _pad1: u32,
    pub _pad2: u32,
}

/// The entry points of minilm.wgsl, in the order of [`MiniLmKernel::pipelines`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Entry {
    Linear,
    Scores,
    Context,
    Norm,
}

const ENTRY_POINTS: [&str; 4] = ["linear", "scores", "context", "norm"];

/// Where a dense layer's tensors are in the model buffer (in floats).
#[derive(Debug, Clone, Copy)]
struct LinearAt {
    weight: u32,
    bias: u32,
    outputs: u32,
    inputs: u32,
}

/// Where a LayerNorm's tensors are, and its ε.
#[derive(Debug, Clone, Copy)]
struct NormAt {
    weight: u32,
    bias: u32,
    eps: f32,
}

#[derive(Debug, Clone, Copy)]
struct LayerAt {
    query: LinearAt,
    key: LinearAt,
    value: LinearAt,
    attention_output: LinearAt,
    attention_norm: NormAt,
    intermediate: LinearAt,
    output: LinearAt,
    output_norm: NormAt,
}

/// The model's tensors laid end to end, as uploaded.
struct Packed {
    values: Vec<f32>,
}

impl Packed {
    /// Appends a tensor at the next multiple of four floats (the shader reads vec4s).
    fn push(&mut self, values: impl IntoIterator<Item = f32>) -> Result<u32, GpuError> {
        self.values
            .resize(self.values.len().next_multiple_of(4), 0.0);
        let at = offset(self.values.len())?;
        self.values.extend(values);
        Ok(at)
    }

    fn linear(
        &mut self,
        weight: ArrayView2<'_, f32>,
        bias: ArrayView1<'_, f32>,
    ) -> Result<LinearAt, GpuError> {
        let (outputs, inputs) = weight.dim();
        if outputs % 4 != 0 {
            return Err(GpuError::Model(format!(
                "a dense layer has {outputs} outputs; the encoder's kernel computes them in fours"
            )));
        }
        Ok(LinearAt {
            // Transposed, [in, out]: the invocations of a workgroup (neighbouring outputs) then
            // read neighbouring floats.
            weight: self.push(weight.t().iter().copied())?,
            bias: self.push(bias.iter().copied())?,
            outputs: offset(outputs)?,
            inputs: offset(inputs)?,
        })
    }

    fn norm(&mut self, norm: NormTensors<'_>) -> Result<NormAt, GpuError> {
        Ok(NormAt {
            weight: self.push(norm.weight.iter().copied())?,
            bias: self.push(norm.bias.iter().copied())?,
            eps: norm.eps,
        })
    }
}

/// A count or an offset in floats as the shader's u32.
fn offset(value: usize) -> Result<u32, GpuError> {
    u32::try_from(value).map_err(|_| GpuError::TooLarge {
        what: "an offset into the encoder's buffers",
        requested: value as u64,
        limit: u64::from(u32::MAX),
    })
}

/// The encoder's pipelines and its tensors on the GPU.
pub struct MiniLmKernel {
    pipelines: [wgpu::ComputePipeline; 4],
    layout: wgpu::BindGroupLayout,
    model: wgpu::Buffer,
    embedding_norm: NormAt,
    layers: Vec<LayerAt>,
    hidden: u32,
    heads: u32,
    head_size: u32,
    intermediate: u32,
    /// transformers' head_size ** -0.5, a float64 rounded once to float32.
    scale: f32,
    max_tokens: usize,
}

/// Where one sentence's activations are in `w` (in floats): the scratch rows, then the hidden
/// rows and the attention weights side by side, which the read-back copies in one piece.
struct Arena {
    query: u32,
    key: u32,
    value: u32,
    context: u32,
    attended: u32,
    intermediate: u32,
    dense: u32,
    hidden: u32,
    attention: u32,
    len: u32,
}

impl MiniLmKernel {
    /// Builds the pipelines and uploads `model`'s encoder tensors (its embeddings' LayerNorm and
    /// every layer's).
    pub fn new(device: &wgpu::Device, model: &MiniLm) -> Result<Self, GpuError> {
        let config = model.config();
        let tensors = model.encoder_tensors();
        let mut packed = Packed { values: Vec::new() };
        let embedding_norm = packed.norm(tensors.embedding_norm)?;
        let mut layers = Vec::with_capacity(tensors.layers.len());
        for layer in &tensors.layers {
            let linear = |packed: &mut Packed, t: pe_lab_minilm::LinearTensors<'_>| {
                packed.linear(t.weight, t.bias)
            };
            layers.push(LayerAt {
                query: linear(&mut packed, layer.query)?,
                key: linear(&mut packed, layer.key)?,
                value: linear(&mut packed, layer.value)?,
                attention_output: linear(&mut packed, layer.attention_output)?,
                attention_norm: packed.norm(layer.attention_norm)?,
                intermediate: linear(&mut packed, layer.intermediate)?,
                output: linear(&mut packed, layer.output)?,
                output_norm: packed.norm(layer.output_norm)?,
            });
        }
        packed
            .values
            .resize(packed.values.len().next_multiple_of(4), 0.0);
        let model_bytes = (packed.values.len() * 4) as u64;
        check_storage_size(
            &device.limits(),
            "the encoder's tensors (bytes)",
            model_bytes,
        )?;
        let model_buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("minilm tensors"),
            contents: bytemuck::cast_slice(&packed.values),
            usage: wgpu::BufferUsages::STORAGE,
        });
        let entries = [
            wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::COMPUTE,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: true,
                    min_binding_size: wgpu::BufferSize::new(size_of::<EncoderOp>() as u64),
                },
                count: None,
            },
            storage_entry(1, true),
            storage_entry(2, false),
        ];
        let (layout, pipeline_layout) = crate::layouts(device, "minilm", &entries);
        let pipelines = crate::pipelines::pipelines_from_source(
            device,
            "minilm",
            &pipeline_layout,
            SOURCE.text().into(),
            ENTRY_POINTS,
        );
        let head_size = config.head_size();
        Ok(Self {
            pipelines,
            layout,
            model: model_buffer,
            embedding_norm,
            layers,
            hidden: offset(config.hidden_size)?,
            heads: offset(config.num_attention_heads)?,
            head_size: offset(head_size)?,
            intermediate: offset(config.intermediate_size)?,
            scale: (head_size as f64).powf(-0.5) as f32,
            max_tokens: config.max_position_embeddings,
        })
    }

    /// The forward pass of `ids`, as [`MiniLm::forward`] gives it (`model` is the one the kernel
    /// was built from: its word, token-type and position rows make the embeddings' sum).
    pub async fn forward(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        model: &MiniLm,
        ids: &[u32],
        position_table: PositionTable,
    ) -> Result<ForwardOutput, GpuError> {
        let embeddings = model
            .embedding_sum(ids, position_table)
            .map_err(|error| GpuError::Model(error.to_string()))?;
        self.forward_embedded(device, queue, embeddings).await
    }

    /// The forward pass from the embeddings' sum (`[token, hidden]`, before their LayerNorm):
    /// what [`MiniLmKernel::forward`] computes, for a caller that cannot hold the model across
    /// the read-back (the page's, whose model lives in a `RefCell`).
    pub async fn forward_embedded(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        embeddings: Array2<f32>,
    ) -> Result<ForwardOutput, GpuError> {
        let (tokens, width) = embeddings.dim();
        if tokens == 0 {
            return Err(GpuError::Model(MiniLmError::NoTokens.to_string()));
        }
        if tokens > self.max_tokens || width != self.hidden as usize {
            return Err(GpuError::Model(format!(
                "the embeddings are {tokens} × {width}; the encoder takes at most {} rows of {}",
                self.max_tokens, self.hidden
            )));
        }
        let arena = self.arena(tokens)?;
        let ops = self.ops(&arena, tokens as u32);
        let arena_bytes = u64::from(arena.len) * 4;
        check_storage_size(
            &device.limits(),
            "the encoder's activations (bytes)",
            arena_bytes,
        )?;
        let activations = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("minilm activations"),
            size: arena_bytes,
            usage: wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::COPY_DST
                | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let embeddings: Vec<f32> = embeddings.iter().copied().collect();
        queue.write_buffer(
            &activations,
            u64::from(arena.hidden) * 4,
            bytemuck::cast_slice(&embeddings),
        );
        self.dispatch(device, queue, &ops, &activations);

        let layers = self.layers.len();
        let heads = self.heads as usize;
        let hidden_len = tokens * self.hidden as usize;
        let attention_len = layers * heads * tokens * tokens;
        let values = read_f32(
            device,
            queue,
            &activations,
            u64::from(arena.hidden),
            (hidden_len + attention_len) as u64,
        )
        .await?;
        let (hidden, attention) = values.split_at(hidden_len);
        let shape_error = |error: ndarray::ShapeError| GpuError::Map(error.to_string());
        Ok(ForwardOutput {
            attention: Array4::from_shape_vec((layers, heads, tokens, tokens), attention.to_vec())
                .map_err(shape_error)?,
            last_hidden_state: Array2::from_shape_vec(
                (tokens, self.hidden as usize),
                hidden.to_vec(),
            )
            .map_err(shape_error)?,
        })
    }

    /// Records `ops` into one compute pass over `activations` and submits it: each op's offsets
    /// in its slot of one uniform buffer, chosen by a dynamic offset.
    fn dispatch(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        ops: &[(Entry, EncoderOp, [u32; 3])],
        activations: &wgpu::Buffer,
    ) {
        let mut slots = vec![0u8; ops.len() * OP_SLOT as usize];
        for (slot, (_, op, _)) in slots.chunks_mut(OP_SLOT as usize).zip(ops) {
            slot[..size_of::<EncoderOp>()].copy_from_slice(bytemuck::bytes_of(op));
        }
        let uniforms = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("minilm ops"),
            contents: &slots,
            usage: wgpu::BufferUsages::UNIFORM,
        });
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("minilm"),
            layout: &self.layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                        buffer: &uniforms,
                        offset: 0,
                        size: wgpu::BufferSize::new(size_of::<EncoderOp>() as u64),
                    }),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: self.model.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: activations.as_entire_binding(),
                },
            ],
        });
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("minilm forward"),
        });
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("minilm forward"),
                timestamp_writes: None,
            });
            for (index, (entry, _, workgroups)) in ops.iter().enumerate() {
                pass.set_pipeline(&self.pipelines[*entry as usize]);
                pass.set_bind_group(0, &bind_group, &[(index as u64 * OP_SLOT) as u32]);
                pass.dispatch_workgroups(workgroups[0], workgroups[1], workgroups[2]);
            }
        }
        queue.submit([encoder.finish()]);
    }

    /// The activations' places for a sentence of `tokens`.
    fn arena(&self, tokens: usize) -> Result<Arena, GpuError> {
        let rows = tokens as u64 * u64::from(self.hidden);
        let wide = tokens as u64 * u64::from(self.intermediate);
        let weights = (self.layers.len() * self.heads as usize * tokens * tokens) as u64;
        let mut next = 0u64;
        let mut place = |len: u64| -> Result<u32, GpuError> {
            let at = offset(next as usize)?;
            next += len;
            Ok(at)
        };
        let arena = Arena {
            query: place(rows)?,
            key: place(rows)?,
            value: place(rows)?,
            context: place(rows)?,
            attended: place(rows)?,
            intermediate: place(wide)?,
            dense: place(rows)?,
            hidden: place(rows)?,
            attention: place(weights)?,
            len: 0,
        };
        Ok(Arena {
            len: offset(next as usize)?,
            ..arena
        })
    }

    /// Every dispatch of a forward pass, in order: (entry point, op, workgroups).
    fn ops(&self, arena: &Arena, tokens: u32) -> Vec<(Entry, EncoderOp, [u32; 3])> {
        let common = EncoderOp {
            rows: tokens,
            heads: self.heads,
            head_size: self.head_size,
            ..EncoderOp::default()
        };
        let linear = |input: u32, at: &LinearAt, output: u32, flags: u32| {
            let op = EncoderOp {
                input,
                weight: at.weight,
                bias: at.bias,
                output,
                inputs: at.inputs,
                outputs: at.outputs,
                flags,
                ..common
            };
            (
                Entry::Linear,
                op,
                [at.outputs.div_ceil(WORKGROUP), tokens, 1],
            )
        };
        let norm = |input: u32, residual: Option<u32>, at: &NormAt, output: u32| {
            let op = EncoderOp {
                input,
                weight: at.weight,
                bias: at.bias,
                output,
                other: residual.unwrap_or(0),
                inputs: self.hidden,
                flags: if residual.is_some() { RESIDUAL } else { 0 },
                scale: at.eps,
                ..common
            };
            (Entry::Norm, op, [tokens, 1, 1])
        };
        let layer_weights = self.heads * tokens * tokens;
        let mut ops = vec![norm(arena.hidden, None, &self.embedding_norm, arena.hidden)];
        for (index, layer) in self.layers.iter().enumerate() {
            let weights = arena.attention + index as u32 * layer_weights;
            ops.push(linear(arena.hidden, &layer.query, arena.query, 0));
            ops.push(linear(arena.hidden, &layer.key, arena.key, 0));
            ops.push(linear(arena.hidden, &layer.value, arena.value, 0));
            let scores = EncoderOp {
                input: arena.query,
                other: arena.key,
                weights,
                scale: self.scale,
                ..common
            };
            ops.push((Entry::Scores, scores, [tokens, self.heads, 1]));
            let context = EncoderOp {
                input: arena.value,
                output: arena.context,
                weights,
                ..common
            };
            let columns = self.heads * self.head_size;
            ops.push((
                Entry::Context,
                context,
                [columns.div_ceil(WORKGROUP), tokens, 1],
            ));
            ops.push(linear(
                arena.context,
                &layer.attention_output,
                arena.dense,
                0,
            ));
            ops.push(norm(
                arena.dense,
                Some(arena.hidden),
                &layer.attention_norm,
                arena.attended,
            ));
            ops.push(linear(
                arena.attended,
                &layer.intermediate,
                arena.intermediate,
                GELU,
            ));
            ops.push(linear(arena.intermediate, &layer.output, arena.dense, 0));
            ops.push(norm(
                arena.dense,
                Some(arena.attended),
                &layer.output_norm,
                arena.hidden,
            ));
        }
        ops
    }
}
