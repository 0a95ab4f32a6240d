//! Causal ALiBi attention weights of one head (`alibi_scores.wgsl`): a tiled scores pass (the tile
//! core, [`super::tile`]; tiles wholly above the diagonal skipped) that adds the bias slope·(j − i), and a
//! causal softmax pass per row, recorded in one compute pass. CPU twin:
//! [`pe_lab_math::alibi::causal_weights_f32`].
//!
//! # Precision
//!
//! Each score scale·(q_i·k_j) is a d-term f32 dot product summed c = 0, 1, …, d−1 (the CPU's
//! SGEMM sums in another order), within γ_d·Σ_c |q_ic·k_jc| of the exact value; the bias
//! f32(slope·(j − i)) is one rounding on both sides, unless a compiler fuses it into the addition
//! (a difference of at most 2⁻²⁴·|bias|). The softmax is well conditioned: scores moved by δ_j move
//! a weight w_j by about (δ_j + Σ_k w_k·δ_k)·w_j, so keys far in the past, whose biases are large,
//! carry tiny weights and tiny errors. WGSL's `exp` promises 3 + 2|x| ulp; the CPU's is within one.

use crate::host_qk::{check_square_inputs, impl_square_qk, HostQk};
use crate::kernel::{Dispatches, Kernel};
use crate::tiled_kernel::{impl_tiled, TiledKernel, TiledKernelSpec};
use crate::wgsl::{wgsl, WgslSource, REDUCE, SOFTMAX, SQUARE_SCORES};
use bytemuck::{Pod, Zeroable};

use super::tile::choose_tile_upper;
use super::{check_limit, check_nonzero, check_workgroups, GpuError};
use pe_lab_math::attention::score_scale;

/// The kernel's WGSL (composed with the tile core, see [`super::tile::compose`]).
pub(crate) const SOURCE: WgslSource =
    WgslSource(&[REDUCE, SOFTMAX, SQUARE_SCORES, wgsl!("alibi_scores.wgsl")]);

/// The largest n accepted: W at n = 4096 is 64 MiB, within WebGPU's default 128 MiB storage
/// binding (as for the Gram and attention kernels).
pub const ALIBI_MAX_POSITIONS: usize = 4096;

/// Mirrors `Params` in alibi_scores.wgsl (its layout, 16 bytes, checked by shaders/layout_checks.rs).
#[repr(C)]
#[derive(Debug, Clone, Copy, Pod, Zeroable)]
pub(crate) struct AlibiParams {
    pub(crate) n: u32,
    pub(crate) d: u32,
    pub(crate) scale: f32,
    pub(crate) slope: f32,
}

/// Owns the pipelines, the uniforms, host-uploaded Q and K, and the weights.
pub struct AlibiScoresKernel {
    /// The scores and softmax pipelines (one pair per tile variant used), the uniforms, the
    /// weights and the bind group with the passes' workgroups (key tiles, query tiles, 1; then one
    /// per row).
    tiled: TiledKernel<2>,
    host: HostQk,
}

impl AlibiScoresKernel {
    pub fn new(device: &wgpu::Device) -> Self {
        let tiled = TiledKernel::new(
            device,
            TiledKernelSpec {
                label: "alibi scores",
                source: SOURCE,
                entry_points: ["scores", "softmax"],
                read_only: 2,
                writable: 1,
                params_label: "alibi params",
                params_bytes: std::mem::size_of::<AlibiParams>() as u64,
                output_label: "alibi weights",
            },
        );
        Self {
            tiled,
            host: HostQk::new("alibi Q", "alibi K"),
        }
    }
}

impl_tiled!(AlibiScoresKernel);

// Q and K both n × d from the host.
impl_square_qk!(AlibiScoresKernel, f32, |n, _| check_limit(
    "n (ALiBi positions)",
    n,
    ALIBI_MAX_POSITIONS
));

/// W (n × n f32, row-major, into [`Kernel::buffer`]) of the first n rows (d columns) of Q and K,
/// already on the GPU.
impl Kernel for AlibiScoresKernel {
    const LABEL: &'static str = "alibi scores";

    /// (Q, K, n, d, slope).
    type Args<'a> = (&'a wgpu::Buffer, &'a wgpu::Buffer, usize, usize, f32);

    /// Checks the sizes (`q` and `k` must each hold n·d f32, 1 ≤ n ≤ [`ALIBI_MAX_POSITIONS`],
    /// d ≥ 1) and the slope (finite), grows the output, writes the uniforms and binds.
    fn prepare(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        (q, k, n, d, slope): Self::Args<'_>,
    ) -> Result<(), GpuError> {
        check_nonzero(n, d)?;
        if !slope.is_finite() {
            return Err(GpuError::InvalidSlope(slope));
        }
        check_limit("n (ALiBi positions)", n, ALIBI_MAX_POSITIONS)?;
        let limits = device.limits();
        let bytes = check_square_inputs(&limits, q, k, (n, d), "ALiBi weights (n·n·4 bytes)")?;
        let shape = self
            .tiled
            .shape(|| choose_tile_upper(n, device.adapter_info().device_type, &limits));
        let tiles = check_workgroups(&limits, "ALiBi score tiles per dimension", shape.groups(n))?;
        let rows = check_workgroups(&limits, "ALiBi rows", n as u64)?;
        let params = AlibiParams {
            n: n as u32,
            d: d as u32,
            scale: score_scale(d),
            slope,
        };
        self.tiled.write_params(queue, &params);
        let cap = limits.max_storage_buffer_binding_size;
        let workgroups = [[tiles, tiles, 1], [rows, 1, 1]];
        self.tiled.bind(device, &[q, k], bytes, cap, workgroups);
        // vec4 loads need every row of Q and K to start on a vec4.
        self.tiled.compile(device, shape, d % 4 == 0);
        Ok(())
    }

    fn dispatches(&self) -> Option<Dispatches<'_>> {
        self.tiled.dispatches()
    }

    fn buffer(&self) -> Option<&wgpu::Buffer> {
        self.tiled.output()
    }
}
