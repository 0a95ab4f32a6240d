//! Masked scaled dot-product attention weights of a batch split into heads (`attention.wgsl`):
//! a tiled scores pass (the tile core, [`super::tile`], per sequence and head) and a masked-softmax
//! pass per row, recorded in one compute pass. CPU twin:
//! [`pe_lab_math::attention::multi_head_weights_qk`] (agreement within 1e-5 plus what the
//! rounding of the scores allows, see `math::attention`: their dot products are summed in another
//! order).

use crate::host_qk::{HostQk, QkKernel};
use crate::kernel::{Dispatches, Kernel};
use crate::tiled_kernel::{impl_tiled, TiledKernel, TiledKernelSpec};
use crate::wgsl::{wgsl, WgslSource, REDUCE, SOFTMAX};
use bytemuck::{Pod, Zeroable};
use ndarray::{ArrayView3, Ix3};

use super::buffers::GrowableBuffer;
use super::tile::choose_tile;
use super::{check_input, check_limit, check_storage_size, check_workgroups, GpuError};
use pe_lab_math::attention::{check_multi_head, score_scale, AttentionError};

/// The kernel's WGSL (composed with the tile core, see [`super::tile::compose`]).
pub(crate) const SOURCE: WgslSource = WgslSource(&[REDUCE, SOFTMAX, wgsl!("attention.wgsl")]);

/// The largest number of query rows and of keys accepted, chosen from measurement: one head's
/// weights at n = 4096 are 64 MiB, within WebGPU's default 128 MiB storage binding (lavapipe's
/// limit too), and lavapipe (2 cores) takes ~5 s for them at d = 512 (n = 1024: 0.3 s, n = 2048:
/// 1.2 s). Larger batches or more heads are bounded by the device's binding size, checked
/// separately.
pub const ATTENTION_MAX_POSITIONS: usize = 4096;

/// Mirrors `Params` in attention.wgsl (its layout, 32 bytes, checked by shaders/layout_checks.rs).
#[repr(C)]
#[derive(Debug, Clone, Copy, Pod, Zeroable)]
pub(crate) struct AttentionParams {
    pub(crate) nq: u32,
    pub(crate) nk: u32,
    pub(crate) d: u32,
    pub(crate) heads: u32,
    pub(crate) head_dim: u32,
    pub(crate) scale: f32,
    pub(crate) _pad: [u32; 2],
}

/// The shape of one attention computation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttentionShape {
    pub batch: usize,
    /// Query rows per sequence.
    pub nq: usize,
    /// Keys per sequence.
    pub nk: usize,
    /// Columns of Q and K (split evenly into `heads`).
    pub d: usize,
    pub heads: usize,
}

impl AttentionShape {
    /// One sequence of n rows (d columns) attending to itself with one head: attention of P with
    /// itself.
    pub fn one_head(n: usize, d: usize) -> Self {
        Self {
            batch: 1,
            nq: n,
            nk: n,
            d,
            heads: 1,
        }
    }
}

/// Owns the pipelines, the uniforms, the valid lengths, host-uploaded Q and K, and the weights.
pub struct AttentionKernel {
    /// The scores and softmax pipelines (one pair per tile variant used), the uniforms, the
    /// weights and the bind group with the passes' workgroups (tiles along keys, tiles along
    /// queries, sequences·heads; then one per row, head and sequence).
    tiled: TiledKernel<2>,
    valid_lens: GrowableBuffer,
    host: HostQk,
}

impl AttentionKernel {
    pub fn new(device: &wgpu::Device) -> Self {
        let tiled = TiledKernel::new(
            device,
            TiledKernelSpec {
                label: "attention",
                source: SOURCE,
                entry_points: ["scores", "softmax"],
                read_only: 3,
                writable: 1,
                params_label: "attention params",
                params_bytes: std::mem::size_of::<AttentionParams>() as u64,
                output_label: "attention weights",
            },
        );
        Self {
            tiled,
            valid_lens: GrowableBuffer::new(
                "attention valid lengths",
                wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
            ),
            host: HostQk::new("attention Q", "attention K"),
        }
    }
}

impl_tiled!(AttentionKernel);

/// Uploads Q (batch, nq, d) and K (batch, nk, d), then runs.
impl<'e> QkKernel<'e> for AttentionKernel {
    type Dim = Ix3;
    /// (heads, the valid lengths).
    type Extra = (usize, &'e [usize]);
    type Shape = (AttentionShape, &'e [usize]);

    fn host_qk(&mut self) -> &mut HostQk {
        &mut self.host
    }

    fn host_shape(
        q: &ArrayView3<'_, f32>,
        k: &ArrayView3<'_, f32>,
        (heads, valid_lens): (usize, &'e [usize]),
    ) -> Result<(AttentionShape, &'e [usize]), GpuError> {
        let (batch, nq, d) = q.dim();
        let (k_batch, nk, k_d) = k.dim();
        if k_batch != batch {
            return Err(AttentionError::BatchMismatch {
                queries: batch,
                keys: k_batch,
            }
            .into());
        }
        if k_d != d {
            return Err(AttentionError::DimensionMismatch {
                queries: d,
                keys: k_d,
            }
            .into());
        }
        check_multi_head(batch, nq, nk, d, heads, valid_lens)?;
        check_limit("n_q (attention queries)", nq, ATTENTION_MAX_POSITIONS)?;
        check_limit("n_k (attention keys)", nk, ATTENTION_MAX_POSITIONS)?;
        let shape = AttentionShape {
            batch,
            nq,
            nk,
            d,
            heads,
        };
        Ok((shape, valid_lens))
    }

    fn args<'a>(
        q: &'a wgpu::Buffer,
        k: &'a wgpu::Buffer,
        (shape, valid_lens): (AttentionShape, &'e [usize]),
    ) -> Self::Args<'a>
    where
        'e: 'a,
    {
        (q, k, shape, valid_lens)
    }
}

/// Weights (batch, heads, nq, nk) of queries and keys already on the GPU (e.g. the encoding buffer
/// as both, batch 1: attention of P with itself, no upload), into [`Kernel::buffer`].
impl Kernel for AttentionKernel {
    const LABEL: &'static str = "attention";

    /// (Q, K, the shape, the valid lengths).
    type Args<'a> = (
        &'a wgpu::Buffer,
        &'a wgpu::Buffer,
        AttentionShape,
        &'a [usize],
    );

    /// Checks the shape (see [`check_multi_head`] and the size limits), checks that `q` and `k`
    /// hold (batch, nq, d) and (batch, nk, d) f32, grows the buffers, writes the uniforms and the
    /// valid lengths (one per sequence, clamped to nk on the GPU) and binds.
    fn prepare(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        (q, k, shape, valid_lens): Self::Args<'_>,
    ) -> Result<(), GpuError> {
        let AttentionShape {
            batch,
            nq,
            nk,
            d,
            heads,
        } = shape;
        check_multi_head(batch, nq, nk, d, heads, valid_lens)?;
        let head_dim = d / heads;
        check_limit("n_q (attention queries)", nq, ATTENTION_MAX_POSITIONS)?;
        check_limit("n_k (attention keys)", nk, ATTENTION_MAX_POSITIONS)?;
        let limits = device.limits();
        let groups_x = check_workgroups(&limits, "attention query rows", nq as u64)?;
        let groups_y = check_workgroups(&limits, "attention heads", heads as u64)?;
        let groups_z = check_workgroups(&limits, "attention batch", batch as u64)?;
        let device_type = device.adapter_info().device_type;
        let shape = self
            .tiled
            .shape(|| choose_tile(nq, nk, batch.saturating_mul(heads), device_type, &limits));
        let score_groups = [
            check_workgroups(&limits, "attention key tiles", shape.groups(nk))?,
            check_workgroups(&limits, "attention query tiles", shape.groups(nq))?,
            check_workgroups(
                &limits,
                "attention batch·heads",
                (batch as u64).saturating_mul(heads as u64),
            )?,
        ];
        let (batch64, d64) = (batch as u64, d as u64);
        check_input(&limits, "Q", q, batch64 * nq as u64 * d64 * 4)?;
        check_input(&limits, "K", k, batch64 * nk as u64 * d64 * 4)?;
        let bytes = batch64
            .saturating_mul(heads as u64)
            .saturating_mul(nq as u64)
            .saturating_mul(nk as u64)
            .saturating_mul(4);
        check_storage_size(&limits, "attention weights (bytes)", bytes)?;
        let cap = limits.max_storage_buffer_binding_size;
        // u32 on the GPU; anything ≥ nk means "no mask", so clamping loses nothing.
        let lens: Vec<u32> = valid_lens.iter().map(|&v| v.min(nk) as u32).collect();
        let lens_buffer = self.valid_lens.ensure(device, batch64 * 4, cap);
        queue.write_buffer(lens_buffer, 0, bytemuck::cast_slice(&lens));
        let params = AttentionParams {
            nq: nq as u32,
            nk: nk as u32,
            d: d as u32,
            heads: heads as u32,
            head_dim: head_dim as u32,
            scale: score_scale(head_dim),
            _pad: [0; 2],
        };
        self.tiled.write_params(queue, &params);
        self.tiled.bind(
            device,
            &[q, k, lens_buffer],
            bytes,
            cap,
            [score_groups, [groups_x, groups_y, groups_z]],
        );
        // vec4 loads need every head's columns of every row to start on a vec4 (d = heads·head_dim).
        self.tiled.compile(device, shape, head_dim % 4 == 0);
        Ok(())
    }

    fn dispatches(&self) -> Option<Dispatches<'_>> {
        self.tiled.dispatches()
    }

    fn buffer(&self) -> Option<&wgpu::Buffer> {
        self.tiled.output()
    }
}
