//! The Gram matrix G = P·Pᵀ (n × n) of the encoding buffer (`gram.wgsl` on the tile core,
//! [`super::tile`]): each workgroup a tile of G, each invocation a block of it, the rows of P staged
//! through workgroup memory; the tile shape is chosen per size by [`choose_tile`]. CPU twin:
//! [`pe_lab_math::gram::gram`], a blocked GEMM that sums in another order: the two agree within
//! twice the f32 dot-product bound γ_d·Σ_k |p_ik·p_jk|, not bit for bit (see `math::gram`).

use crate::kernel::{Dispatches, Kernel};
use crate::tiled_kernel::{impl_tiled, TiledKernel, TiledKernelSpec};
use crate::wgsl::{wgsl, WgslSource};
use bytemuck::{Pod, Zeroable};

use super::tile::choose_tile_upper;
use super::{
    check_limit, check_matrix_input, check_nonzero, check_storage_size, check_workgroups, GpuError,
};

/// The kernel's WGSL (composed with the tile core, see [`super::tile::compose`]).
pub(crate) const SOURCE: WgslSource = WgslSource(&[wgsl!("gram.wgsl")]);

/// The largest n accepted, chosen from measurement: G at n = 4096 is 64 MiB (the largest power-of-
/// two n within WebGPU's default 128 MiB storage binding, lavapipe's limit too), and lavapipe
/// (2 cores) takes 5–7 s for it at d = 512 (n = 1024: 0.28 s, n = 2048: 1.1 s). n = 8192 would
/// need a 256 MiB binding and ~4× the time.
pub const GRAM_MAX_POSITIONS: usize = 4096;

/// Mirrors `Params` in gram.wgsl (its layout, 16 bytes, checked by shaders/layout_checks.rs).
#[repr(C)]
#[derive(Debug, Clone, Copy, Pod, Zeroable)]
pub(crate) struct GramParams {
    pub(crate) n: u32,
    pub(crate) d: u32,
    pub(crate) _pad: [u32; 2],
}

/// Owns the pipelines (one per tile variant used), the uniform buffer and the output G.
pub struct GramKernel {
    tiled: TiledKernel<1>,
}

impl GramKernel {
    pub fn new(device: &wgpu::Device) -> Self {
        let tiled = TiledKernel::new(
            device,
            TiledKernelSpec {
                label: "gram",
                source: SOURCE,
                entry_points: ["main"],
                read_only: 1,
                writable: 1,
                params_label: "gram params",
                params_bytes: std::mem::size_of::<GramParams>() as u64,
                output_label: "gram G",
            },
        );
        Self { tiled }
    }
}

impl_tiled!(GramKernel);

/// G = P·Pᵀ for the first n rows (d columns) of P, into [`Kernel::buffer`] (n·n f32, row-major).
impl Kernel for GramKernel {
    const LABEL: &'static str = "gram";

    /// (P, n, d).
    type Args<'a> = (&'a wgpu::Buffer, usize, usize);

    /// Checks sizes (p must hold n·d f32), grows G, writes the uniforms and binds.
    fn prepare(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        (p, n, d): Self::Args<'_>,
    ) -> Result<(), GpuError> {
        check_nonzero(n, d)?;
        check_limit("n (Gram positions)", n, GRAM_MAX_POSITIONS)?;
        let limits = device.limits();
        check_matrix_input(&limits, "P", p, (n, d))?;
        let bytes = (n as u64) * (n as u64) * 4;
        check_storage_size(&limits, "G (n·n·4 bytes)", bytes)?;
        let shape = self
            .tiled
            .shape(|| choose_tile_upper(n, device.adapter_info().device_type, &limits));
        let groups = check_workgroups(&limits, "Gram workgroups per dimension", shape.groups(n))?;
        // vec4 loads need every row of P to start on a vec4.
        self.tiled.compile(device, shape, d % 4 == 0);
        let params = GramParams {
            n: n as u32,
            d: d as u32,
            _pad: [0; 2],
        };
        self.tiled.write_params(queue, &params);
        let cap = limits.max_storage_buffer_binding_size;
        self.tiled
            .bind(device, &[p], bytes, cap, [[groups, groups, 1]]);
        Ok(())
    }

    fn dispatches(&self) -> Option<Dispatches<'_>> {
        self.tiled.dispatches()
    }

    fn buffer(&self) -> Option<&wgpu::Buffer> {
        self.tiled.output()
    }
}
