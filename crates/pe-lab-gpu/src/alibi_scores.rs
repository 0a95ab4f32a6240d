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

use crate::kernel::{Dispatches, Kernel};
use crate::wgsl::{wgsl, WgslSource, REDUCE, SOFTMAX};
use bytemuck::{Pod, Zeroable};
use ndarray::ArrayView2;

use super::buffers::GrowableBuffer;
use super::rope_scores::check_same_shape;
use super::tile::{choose_tile_upper, TileShape, TiledPipelines, Variant};
use super::{
    check_input, check_limit, check_storage_size, check_workgroups, layouts, storage_entry,
    uniform_buffer, uniform_entry, Dispatch, GpuError,
};
use pe_lab_math::attention::score_scale;
use pe_lab_math::MathError;

/// The kernel's WGSL (composed with the tile core, see [`super::tile::compose`]).
pub(crate) const SOURCE: WgslSource = WgslSource(&[REDUCE, SOFTMAX, wgsl!("alibi_scores.wgsl")]);

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
    /// The scores and softmax pipelines, one pair per tile variant used.
    pipelines: TiledPipelines<2>,
    /// The variant the last `prepare` compiled and sized the scores pass for.
    variant: Option<Variant>,
    /// A shape that overrides [`choose_tile`] (tests run every shape).
    forced: Option<TileShape>,
    layout: wgpu::BindGroupLayout,
    params: wgpu::Buffer,
    queries: GrowableBuffer,
    keys: GrowableBuffer,
    output: GrowableBuffer,
    /// The bind group and the softmax pass's workgroups (one per row).
    dispatch: Option<Dispatch>,
    /// Workgroups of the scores pass (key tiles, query tiles, 1).
    score_groups: [u32; 3],
}

impl AlibiScoresKernel {
    pub fn new(device: &wgpu::Device) -> Self {
        let (layout, pipeline_layout) = layouts(
            device,
            "alibi scores",
            &[
                uniform_entry(0),
                storage_entry(1, true),
                storage_entry(2, true),
                storage_entry(3, false),
            ],
        );
        let input = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST;
        Self {
            pipelines: TiledPipelines::new(
                "alibi scores",
                SOURCE,
                ["scores", "softmax"],
                pipeline_layout,
            ),
            variant: None,
            forced: None,
            layout,
            params: uniform_buffer(
                device,
                "alibi params",
                std::mem::size_of::<AlibiParams>() as u64,
            ),
            queries: GrowableBuffer::new("alibi Q", input),
            keys: GrowableBuffer::new("alibi K", input),
            // STORAGE: written here (and drawable by the heatmap); COPY_SRC: read back.
            output: GrowableBuffer::new(
                "alibi weights",
                wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            ),
            dispatch: None,
            score_groups: [0; 3],
        }
    }

    /// Runs every later `prepare` with `shape` instead of the one [`choose_tile`] picks (`None`:
    /// back to choosing).
    pub fn force_tile(&mut self, shape: Option<TileShape>) {
        self.forced = shape;
    }

    /// The tile shape of the scores pass prepared last.
    pub fn tile(&self) -> Option<TileShape> {
        self.variant.map(|v| v.shape)
    }

    /// Checks the sizes (`q` and `k` must each hold n·d f32, 1 ≤ n ≤ [`ALIBI_MAX_POSITIONS`],
    /// d ≥ 1) and the slope (finite), grows the output, writes the uniforms and binds.
    #[allow(clippy::too_many_arguments)] // the shape is spelled out like the CPU twin's arrays
    pub fn prepare(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        q: &wgpu::Buffer,
        k: &wgpu::Buffer,
        n: usize,
        d: usize,
        slope: f32,
    ) -> Result<(), GpuError> {
        if n == 0 {
            return Err(MathError::ZeroPositions(n).into());
        }
        if d == 0 {
            return Err(MathError::ZeroDimension(d).into());
        }
        if !slope.is_finite() {
            return Err(GpuError::InvalidSlope(slope));
        }
        check_limit("n (ALiBi positions)", n, ALIBI_MAX_POSITIONS)?;
        let limits = device.limits();
        let (n64, d64) = (n as u64, d as u64);
        let input_bytes = n64.saturating_mul(d64).saturating_mul(4);
        check_input(&limits, "Q", q, input_bytes)?;
        check_input(&limits, "K", k, input_bytes)?;
        let bytes = n64 * n64 * 4;
        check_storage_size(&limits, "ALiBi weights (n·n·4 bytes)", bytes)?;
        let shape = self
            .forced
            .unwrap_or_else(|| choose_tile_upper(n, device.adapter_info().device_type, &limits));
        let tiles = check_workgroups(&limits, "ALiBi score tiles per dimension", shape.groups(n))?;
        let rows = check_workgroups(&limits, "ALiBi rows", n64)?;
        let output = self
            .output
            .ensure(device, bytes, limits.max_storage_buffer_binding_size);
        let params = AlibiParams {
            n: n as u32,
            d: d as u32,
            scale: score_scale(d),
            slope,
        };
        queue.write_buffer(&self.params, 0, bytemuck::bytes_of(&params));
        self.dispatch = Some(Dispatch::rebind(
            self.dispatch.take(),
            device,
            "alibi scores",
            &self.layout,
            &[&self.params, q, k, output],
            [rows, 1, 1],
        ));
        // vec4 loads need every row of Q and K to start on a vec4.
        let variant = Variant {
            shape,
            vec4: d % 4 == 0,
        };
        self.pipelines.ensure(device, variant);
        self.variant = Some(variant);
        self.score_groups = [tiles, tiles, 1];
        Ok(())
    }

    /// W (n × n f32, row-major, into [`AlibiScoresKernel::buffer`], which may be longer) of the
    /// first n rows (d columns) of `q` and `k`, already on the GPU.
    #[allow(clippy::too_many_arguments)] // the shape is spelled out like the CPU twin's arrays
    pub fn run(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        q: &wgpu::Buffer,
        k: &wgpu::Buffer,
        n: usize,
        d: usize,
        slope: f32,
    ) -> Result<&wgpu::Buffer, GpuError> {
        self.prepare(device, queue, q, k, n, d, slope)?;
        self.submit(device, queue)
    }

    /// Uploads Q and K (both n × d) into buffers this kernel owns, then
    /// [`AlibiScoresKernel::run`].
    pub fn run_host(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        q: ArrayView2<f32>,
        k: ArrayView2<f32>,
        slope: f32,
    ) -> Result<&wgpu::Buffer, GpuError> {
        let (n, d) = q.dim();
        check_same_shape(q, k)?;
        if n == 0 {
            return Err(MathError::ZeroPositions(n).into());
        }
        check_limit("n (ALiBi positions)", n, ALIBI_MAX_POSITIONS)?;
        let q_buffer = self.queries.upload(device, queue, "Q (bytes)", q)?;
        let k_buffer = self.keys.upload(device, queue, "K (bytes)", k)?;
        self.run(device, queue, &q_buffer, &k_buffer, n, d, slope)
    }
}

impl Kernel for AlibiScoresKernel {
    const LABEL: &'static str = "alibi scores";

    fn dispatches(&self) -> Option<Dispatches<'_>> {
        let dispatch = self.dispatch.as_ref()?;
        let [scores, softmax] = self.pipelines.get(self.variant?)?;
        let passes = vec![(scores, self.score_groups), (softmax, dispatch.workgroups)];
        Some((&dispatch.bind_group, passes))
    }

    fn buffer(&self) -> Option<&wgpu::Buffer> {
        self.output.get()
    }
}
