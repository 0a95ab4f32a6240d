//! Statistics of the encoding buffer in one dispatch (`stats.wgsl`): the largest offset-δ
//! projection error and the range of P. CPU twins: [`pe_lab_math::relative::projection_error_of`]
//! and a min/max over P.
//!
//! The rotations M_j of δ are computed on the host in f64 ([`rotation_for_pair`]) and uploaded as
//! f32; the shader applies them in f32. The CPU twin applies the f64 matrices to the same f32
//! values in f64. Both figures measure the float32 rounding of P ("near 1e-7"); they differ by the
//! f32 rounding of the matrix entries and of the shader's products and sums, ≲ 2e-7.

use crate::kernel::{Dispatches, Kernel};
use crate::wgsl::{wgsl, WgslSource};
use bytemuck::{Pod, Zeroable};

use crate::plain_kernel::{PlainKernel, PlainKernelSpec};

use super::{
    buffers::GrowableBuffer, check_matrix_input, check_storage_size, check_workgroups, read_u32,
    GpuError,
};
use pe_lab_math::encoding::frequency_count;
use pe_lab_math::relative::{rotation_for_pair, valid_positions};
use pe_lab_math::validate;

pub(crate) const SOURCE: WgslSource = WgslSource(&[wgsl!("stats.wgsl")]);

/// Frequency pairs per workgroup along x (rows along y). `WORKGROUP_PAIRS` in stats.wgsl
/// (checked by shaders/layout_checks.rs).
pub const STATS_WORKGROUP_PAIRS: u32 = 64;

/// Mirrors `Params` in stats.wgsl (its layout, 32 bytes, checked by shaders/layout_checks.rs).
#[repr(C)]
#[derive(Debug, Clone, Copy, Pod, Zeroable)]
pub(crate) struct StatsParams {
    pub(crate) n: u32,
    pub(crate) d: u32,
    pub(crate) pairs: u32,
    pub(crate) delta: i32,
    pub(crate) start: u32,
    pub(crate) end: u32,
    pub(crate) _pad: [u32; 2],
}

/// The reduction's starting values: error 0, min key above every key, max key below every key
/// (and a padding word). Mirrors `Totals` in stats.wgsl (its layout checked by shaders/layout_checks.rs).
pub(crate) const INITIAL_TOTALS: [u32; 4] = [0, u32::MAX, 0, 0];

/// What [`StatsKernel::read`] returns.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EncodingStats {
    /// Largest |M·p_i − p_{i+δ}| over valid positions and complete pairs (0 when none).
    pub max_projection_error: f32,
    pub min: f32,
    pub max: f32,
}

/// The order-preserving u32 key of an f32 (unsigned order = float order). `order_key` in stats.wgsl
/// is the same function (tests/gpu_kernels.rs compares the GPU's min and max with the CPU's).
pub fn order_key(x: f32) -> u32 {
    let bits = x.to_bits();
    if bits & 0x8000_0000 != 0 {
        !bits
    } else {
        bits | 0x8000_0000
    }
}

/// The f32 of an [`order_key`].
pub fn from_order_key(key: u32) -> f32 {
    if key & 0x8000_0000 != 0 {
        f32::from_bits(key & 0x7fff_ffff)
    } else {
        f32::from_bits(!key)
    }
}

/// Owns the pipeline, the uniforms, the rotation table and the three-word result.
pub struct StatsKernel {
    plain: PlainKernel,
    rotations: GrowableBuffer,
    totals: wgpu::Buffer,
}

impl StatsKernel {
    pub fn new(device: &wgpu::Device) -> Self {
        Self {
            plain: PlainKernel::new(
                device,
                PlainKernelSpec {
                    label: "stats",
                    file: "stats.wgsl",
                    source: SOURCE,
                    read_only: 2,
                    writable: 1,
                    params_bytes: std::mem::size_of::<StatsParams>() as u64,
                },
            ),
            rotations: GrowableBuffer::new(
                "stats rotations",
                wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
            ),
            totals: device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("stats totals"),
                size: std::mem::size_of_val(&INITIAL_TOTALS) as u64,
                usage: wgpu::BufferUsages::STORAGE
                    | wgpu::BufferUsages::COPY_DST
                    | wgpu::BufferUsages::COPY_SRC,
                mapped_at_creation: false,
            }),
        }
    }

    /// Reads back the totals of the last run (12 bytes).
    pub async fn read(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
    ) -> Result<EncodingStats, GpuError> {
        read_totals(device, queue, &self.totals).await
    }

    /// The buffer holding the totals (`STORAGE | COPY_DST | COPY_SRC`), for [`read_totals`] in a
    /// future that must not borrow the kernel.
    pub fn totals(&self) -> &wgpu::Buffer {
        &self.totals
    }
}

/// Reads the three words of a [`StatsKernel::totals`] buffer into [`EncodingStats`].
pub async fn read_totals(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    totals: &wgpu::Buffer,
) -> Result<EncodingStats, GpuError> {
    let words = read_u32(device, queue, totals, 0, 3).await?;
    let [error_bits, min_key, max_key] = words[..] else {
        return Err(GpuError::Map("the stats totals are not three words".into()));
    };
    Ok(EncodingStats {
        max_projection_error: f32::from_bits(error_bits),
        min: from_order_key(min_key),
        max: from_order_key(max_key),
    })
}

// Dispatching it again on the same P gives the same totals (max and min are idempotent); read
// them with [`StatsKernel::read`].
impl Kernel for StatsKernel {
    const LABEL: &'static str = "stats";

    /// (P, n, d, base, δ): the statistics of the first n rows (d columns) of P, the encoding for
    /// `base`, for offset δ.
    type Args<'a> = (&'a wgpu::Buffer, usize, usize, f64, i64);

    /// Checks sizes (P must hold n·d f32), uploads the rotations of δ, resets the totals and binds.
    fn prepare(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        (p, n, d, base, delta): Self::Args<'_>,
    ) -> Result<(), GpuError> {
        validate(n, d, base)?;
        let limits = device.limits();
        check_matrix_input(&limits, "P", p, (n, d))?;
        let pairs = d / 2;
        let table: Vec<[f32; 2]> = (0..pairs)
            .map(|j| {
                let m = rotation_for_pair(j, d, base, delta);
                [m[0][0] as f32, m[0][1] as f32]
            })
            .collect();
        let table_bytes = (table.len().max(1) as u64) * 8;
        check_storage_size(&limits, "rotation table (bytes)", table_bytes)?;
        let groups_x = check_workgroups(
            &limits,
            "stats workgroups along pairs",
            (frequency_count(d) as u64).div_ceil(u64::from(STATS_WORKGROUP_PAIRS)),
        )?;
        let groups_y = check_workgroups(&limits, "stats workgroups along rows", n as u64)?;
        let rotations =
            self.rotations
                .ensure(device, table_bytes, limits.max_storage_buffer_binding_size);
        if !table.is_empty() {
            queue.write_buffer(rotations, 0, bytemuck::cast_slice(&table));
        }
        let valid = valid_positions(n, delta);
        // The row dispatch check bounds n by the per-dimension workgroup limit (65535 by default),
        // and a non-empty range means |δ| < n, so both fit the shader's u32/i32 fields.
        let delta32 = if valid.is_empty() { 0 } else { delta as i32 };
        let params = StatsParams {
            n: n as u32,
            d: d as u32,
            pairs: pairs as u32,
            delta: delta32,
            start: valid.start as u32,
            end: valid.end as u32,
            _pad: [0; 2],
        };
        self.plain.write_params(queue, &params);
        queue.write_buffer(&self.totals, 0, bytemuck::cast_slice(&INITIAL_TOTALS));
        self.plain.bind(
            device,
            &[p, rotations, &self.totals],
            [groups_x, groups_y, 1],
        );
        Ok(())
    }

    fn dispatches(&self) -> Option<Dispatches<'_>> {
        self.plain.dispatches()
    }

    fn buffer(&self) -> Option<&wgpu::Buffer> {
        Some(&self.totals)
    }
}
