//! RoPE attention scores S = (R Q)·(R K)ᵀ/√d of one head: a rotation pass (`rope_rotate.wgsl`:
//! every row m of Q and K rotated by R_m into scratch buffers, interleaved pairs (2t, 2t + 1) by
//! the angle f32(m)·θ_t) and a tiled scores pass (`rope_scores.wgsl` on the tile core,
//! [`super::tile`]), recorded in one compute pass. CPU twin: [`pe_lab_math::rope::scores_f32`].
//!
//! # Precision
//!
//! - θ_t = base^(−2t/d) is computed on the CPU in f64 and rounded once to f32
//!   ([`theta_table_f32`]); the kernel receives that table, so both twins use the same θ_t bits.
//! - The angle is f32(m)·θ_t, one f32 multiply, exactly as a float32 model (and the CPU twin)
//!   forms it: off from the exact m·θ_t by up to 2⁻²⁴·m·θ_t rad from the product's rounding (plus
//!   as much from θ_t's own), an absolute error that grows with the position m (≈ 2.4e-4 rad at
//!   m = 4095 for θ_0 = 1). On the GPU a compiler may fuse the product into the range reduction
//!   (then the angle is not rounded at all), so the twins' angles may differ by that much too;
//!   the parity tests allow for it.
//! - sin and cos of the angle are not WGSL's built-ins (which only promise 2⁻¹¹ absolute error on
//!   [−π, π]): a Cody–Waite reduction by π/2 in three parts (exact for angles below ~12800 rad)
//!   and the Taylor polynomials of `encoding.wgsl`, within ~2e-7 of the exact sine and cosine of
//!   the f32 angle.
//! - Each score is a d-term f32 dot product summed c = 0, 1, …, d−1 (the CPU's SGEMM sums in
//!   another order): within γ_d·Σ_c |rq_c·rk_c| of the exact value of the rotated rows.

use crate::host_qk::{check_square_inputs, impl_square_qk, HostQk};
use crate::kernel::{Dispatches, Kernel};
use crate::tiled_kernel::{impl_tiled, TiledKernel, TiledKernelSpec};
use crate::wgsl::{wgsl, WgslFile, WgslSource, SIN_COS, SQUARE_SCORES};
use bytemuck::{Pod, Zeroable};

use super::buffers::GrowableBuffer;
use super::pipelines::pipelines_from_source;
use super::tile::choose_tile;
use super::{check_limit, check_nonzero, check_workgroups, GpuError};
use pe_lab_math::attention::score_scale;
use pe_lab_math::rope::{theta_table_f32, RopeError};

/// The scores pass's WGSL (composed with the tile core, see [`super::tile::compose`]).
pub(crate) const SOURCE: WgslSource =
    WgslSource(&[PARAMS, SQUARE_SCORES, wgsl!("rope_scores.wgsl")]);
/// The rotation pass's WGSL.
pub(crate) const ROTATE_SOURCE: WgslSource =
    WgslSource(&[PARAMS, SIN_COS, wgsl!("rope_rotate.wgsl")]);
/// The uniforms both passes read (one bind group).
const PARAMS: WgslFile = wgsl!("shared/rope_params.wgsl");

/// Pairs per workgroup of the rotation pass (rows along y, Q and K along z). `ROTATE_WORKGROUP`
/// in rope_rotate.wgsl (checked by shaders/layout_checks.rs).
pub const ROPE_ROTATE_WORKGROUP: u32 = 64;

/// The largest n accepted: S at n = 4096 is 64 MiB, within WebGPU's default 128 MiB storage
/// binding (as for the Gram and attention kernels). The angles then stay below 4096 rad, well
/// inside the range where the shader's reduction by π/2 is exact (about 12800 rad).
pub const ROPE_MAX_POSITIONS: usize = 4096;

/// The largest d accepted (Q and K at n = 4096, d = 1024 are 16 MiB each).
pub const ROPE_MAX_DIMENSION: usize = 1024;

/// Mirrors `Params` in shared/rope_params.wgsl (its layout, 16 bytes, checked by
/// shaders/layout_checks.rs).
#[repr(C)]
#[derive(Debug, Clone, Copy, Pod, Zeroable)]
pub(crate) struct RopeParams {
    pub(crate) n: u32,
    pub(crate) d: u32,
    /// ⌈d/2⌉: for odd d the last "pair" is the lone unrotated column.
    pub(crate) pairs: u32,
    pub(crate) scale: f32,
}

/// Owns the pipelines, the uniforms, the θ table, host-uploaded Q and K, the rotated scratch
/// copies and the scores.
pub struct RopeScoresKernel {
    rotate: wgpu::ComputePipeline,
    /// The scores pipeline (one per tile variant used), the uniforms, the scores and the bind
    /// group with the scores pass's workgroups (key tiles, query tiles, 1).
    tiled: TiledKernel<1>,
    thetas: GrowableBuffer,
    host: HostQk,
    rotated_q: GrowableBuffer,
    rotated_k: GrowableBuffer,
    /// Workgroups of the rotation pass (pair groups, rows, 2: Q then K).
    rotate_groups: [u32; 3],
}

impl RopeScoresKernel {
    pub fn new(device: &wgpu::Device) -> Self {
        let tiled = TiledKernel::new(
            device,
            TiledKernelSpec {
                label: "rope scores",
                source: SOURCE,
                entry_points: ["scores"],
                read_only: 3,
                writable: 3,
                params_label: "rope params",
                params_bytes: std::mem::size_of::<RopeParams>() as u64,
                output_label: "rope scores",
            },
        );
        let [rotate] = pipelines_from_source(
            device,
            "rope rotate",
            tiled.pipeline_layout(),
            ROTATE_SOURCE.text().into(),
            ["rotate"],
        );
        Self {
            rotate,
            tiled,
            thetas: GrowableBuffer::new(
                "rope θ table",
                wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
            ),
            host: HostQk::new("rope Q", "rope K"),
            rotated_q: GrowableBuffer::new("rope rotated Q", wgpu::BufferUsages::STORAGE),
            rotated_k: GrowableBuffer::new("rope rotated K", wgpu::BufferUsages::STORAGE),
            rotate_groups: [0; 3],
        }
    }
}

impl_tiled!(RopeScoresKernel);

// Q and K both n × d from the host.
impl_square_qk!(RopeScoresKernel, f64, |n, d| {
    check_limit("n (RoPE positions)", n, ROPE_MAX_POSITIONS)?;
    check_limit("d (RoPE dimension)", d, ROPE_MAX_DIMENSION)
});

/// S (n × n f32, row-major, into [`Kernel::buffer`]) of the first n rows (d columns) of Q and K,
/// already on the GPU; positions are row indices.
impl Kernel for RopeScoresKernel {
    const LABEL: &'static str = "rope scores";

    /// (Q, K, n, d, base).
    type Args<'a> = (&'a wgpu::Buffer, &'a wgpu::Buffer, usize, usize, f64);

    /// Checks the sizes (`q` and `k` must each hold n·d f32, 1 ≤ n ≤ [`ROPE_MAX_POSITIONS`],
    /// 1 ≤ d ≤ [`ROPE_MAX_DIMENSION`]) and the base (finite, > 1), grows the buffers, uploads the
    /// θ table, writes the uniforms and binds.
    fn prepare(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        (q, k, n, d, base): Self::Args<'_>,
    ) -> Result<(), GpuError> {
        check_nonzero(n, d)?;
        if !base.is_finite() || base <= 1.0 {
            return Err(RopeError::InvalidBase(base).into());
        }
        check_limit("n (RoPE positions)", n, ROPE_MAX_POSITIONS)?;
        check_limit("d (RoPE dimension)", d, ROPE_MAX_DIMENSION)?;
        let limits = device.limits();
        let bytes = check_square_inputs(&limits, q, k, (n, d), "RoPE scores (n·n·4 bytes)")?;
        let (n64, d64) = (n as u64, d as u64);
        let pairs = d.div_ceil(2);
        let rotate_groups = [
            check_workgroups(
                &limits,
                "RoPE pair groups",
                (pairs as u64).div_ceil(u64::from(ROPE_ROTATE_WORKGROUP)),
            )?,
            check_workgroups(&limits, "RoPE rows", n64)?,
            2,
        ];
        let shape = self
            .tiled
            .shape(|| choose_tile(n, n, 1, device.adapter_info().device_type, &limits));
        let tiles = check_workgroups(&limits, "RoPE score tiles per dimension", shape.groups(n))?;
        let cap = limits.max_storage_buffer_binding_size;
        let thetas = theta_table_f32(d, base);
        let theta_buffer = self
            .thetas
            .ensure(device, thetas.len() as u64 * 4, cap)
            .clone();
        queue.write_buffer(&theta_buffer, 0, bytemuck::cast_slice(&thetas));
        let rotated_q = self.rotated_q.ensure(device, n64 * d64 * 4, cap).clone();
        let rotated_k = self.rotated_k.ensure(device, n64 * d64 * 4, cap).clone();
        let params = RopeParams {
            n: n as u32,
            d: d as u32,
            pairs: pairs as u32,
            scale: score_scale(d),
        };
        self.tiled.write_params(queue, &params);
        self.tiled.bind(
            device,
            &[q, k, &theta_buffer, &rotated_q, &rotated_k],
            bytes,
            cap,
            [[tiles, tiles, 1]],
        );
        // vec4 loads need every row of rq and rk to start on a vec4.
        self.tiled.compile(device, shape, d % 4 == 0);
        self.rotate_groups = rotate_groups;
        Ok(())
    }

    fn dispatches(&self) -> Option<Dispatches<'_>> {
        let (bind_group, scores) = self.tiled.dispatches()?;
        let rotate = (&self.rotate, self.rotate_groups);
        Some((bind_group, std::iter::once(rotate).chain(scores).collect()))
    }

    fn buffer(&self) -> Option<&wgpu::Buffer> {
        self.tiled.output()
    }
}
