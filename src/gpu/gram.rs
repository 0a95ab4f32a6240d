//! The Gram matrix G = P·Pᵀ (n × n) of the encoding buffer (`gram.wgsl`): workgroups of 16 × 16
//! invocations, each invocation an 8 × 8 block of a 128 × 128 tile of G, the rows of P staged
//! through workgroup memory 8 columns at a time. CPU twin: [`crate::math::gram::gram`], a blocked
//! GEMM that sums in another order: the two agree within twice the f32 dot-product bound
//! γ_d·Σ_k |p_ik·p_jk|, not bit for bit (see `math::gram`).

use bytemuck::{Pod, Zeroable};

use super::buffers::GrowableBuffer;
use super::{
    check_input, check_limit, check_storage_size, check_workgroups, compute_pipeline,
    storage_entry, submit_one, uniform_buffer, uniform_entry, Dispatch, GpuError,
};
use crate::math::MathError;

/// Invocations per side of a workgroup. Keep in sync with `SIDE` in gram.wgsl.
pub const GRAM_WORKGROUP_SIDE: u32 = 16;

/// Edge of the square tile of G per workgroup (each invocation computes an 8 × 8 block). Keep in
/// sync with `TILE` in gram.wgsl.
pub const GRAM_TILE: u32 = 128;

/// Columns of P staged per barrier pair. Keep in sync with `TILE_K` in gram.wgsl.
pub const GRAM_TILE_K: u32 = 8;

/// The largest n accepted, chosen from measurement: G at n = 4096 is 64 MiB (the largest power-of-
/// two n within WebGPU's default 128 MiB storage binding, lavapipe's limit too), and lavapipe
/// (2 cores) takes 5–7 s for it at d = 512 (n = 1024: 0.28 s, n = 2048: 1.1 s). n = 8192 would
/// need a 256 MiB binding and ~4× the time.
pub const GRAM_MAX_POSITIONS: usize = 4096;

/// Mirrors `Params` in gram.wgsl (keep in sync: field order, 16 bytes).
#[repr(C)]
#[derive(Debug, Clone, Copy, Pod, Zeroable)]
struct GramParams {
    n: u32,
    d: u32,
    _pad: [u32; 2],
}

/// Owns the pipeline, the uniform buffer and the output G.
pub struct GramKernel {
    pipeline: wgpu::ComputePipeline,
    layout: wgpu::BindGroupLayout,
    params: wgpu::Buffer,
    output: GrowableBuffer,
    dispatch: Option<Dispatch>,
}

impl GramKernel {
    pub fn new(device: &wgpu::Device) -> Self {
        let (pipeline, layout) = compute_pipeline(
            device,
            "gram",
            wgpu::include_wgsl!("gram.wgsl"),
            &[
                uniform_entry(0),
                storage_entry(1, true),
                storage_entry(2, false),
            ],
        );
        Self {
            pipeline,
            layout,
            params: uniform_buffer(
                device,
                "gram params",
                std::mem::size_of::<GramParams>() as u64,
            ),
            // STORAGE: written here and drawn by the heatmap; COPY_SRC: read back.
            output: GrowableBuffer::new(
                "gram G",
                wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            ),
            dispatch: None,
        }
    }

    /// Checks sizes (p must hold n·d f32), grows G, writes the uniforms and binds.
    pub fn prepare(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        p: &wgpu::Buffer,
        n: usize,
        d: usize,
    ) -> Result<(), GpuError> {
        if n == 0 {
            return Err(MathError::ZeroPositions(n).into());
        }
        if d == 0 {
            return Err(MathError::ZeroDimension(d).into());
        }
        check_limit("n (Gram positions)", n, GRAM_MAX_POSITIONS)?;
        let limits = device.limits();
        check_input(
            &limits,
            "P",
            p,
            (n as u64).saturating_mul(d as u64).saturating_mul(4),
        )?;
        let bytes = (n as u64) * (n as u64) * 4;
        check_storage_size(&limits, "G (n·n·4 bytes)", bytes)?;
        let groups = check_workgroups(
            &limits,
            "Gram workgroups per dimension",
            (n as u64).div_ceil(u64::from(GRAM_TILE)),
        )?;
        let output = self
            .output
            .ensure(device, bytes, limits.max_storage_buffer_binding_size);
        let params = GramParams {
            n: n as u32,
            d: d as u32,
            _pad: [0; 2],
        };
        queue.write_buffer(&self.params, 0, bytemuck::bytes_of(&params));
        self.dispatch = Some(Dispatch::rebind(
            self.dispatch.take(),
            device,
            "gram",
            &self.layout,
            &[&self.params, p, output],
            [groups, groups, 1],
        ));
        Ok(())
    }

    /// Records the dispatch prepared last (nothing before a successful `prepare`).
    pub fn encode(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        timestamp_writes: Option<wgpu::ComputePassTimestampWrites<'_>>,
    ) {
        if let Some(dispatch) = &self.dispatch {
            dispatch.encode(encoder, "gram", &self.pipeline, timestamp_writes);
        }
    }

    /// G = P·Pᵀ for the first n rows (d columns) of `p`, into [`GramKernel::buffer`] (n·n f32,
    /// row-major; the buffer may be longer).
    pub fn run(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        p: &wgpu::Buffer,
        n: usize,
        d: usize,
    ) -> Result<&wgpu::Buffer, GpuError> {
        self.prepare(device, queue, p, n, d)?;
        submit_one(device, queue, "gram", |encoder| self.encode(encoder, None));
        self.output
            .get()
            .ok_or_else(|| GpuError::Map("the Gram buffer is missing".into()))
    }

    /// The output buffer (`STORAGE | COPY_SRC`), once a run has allocated it.
    pub fn buffer(&self) -> Option<&wgpu::Buffer> {
        self.output.get()
    }
}
