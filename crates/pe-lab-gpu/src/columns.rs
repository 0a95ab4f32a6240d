//! Gathers chosen columns of the encoding buffer into a small (k × n) buffer (`columns.wgsl`), so
//! the page reads back only the curves and the projection pair, never P. CPU twin:
//! [`pe_lab_math::encoding::gather_columns`].

use crate::kernel::{Dispatches, Kernel};
use crate::wgsl::{wgsl, WgslSource};
use bytemuck::{Pod, Zeroable};

use crate::plain_kernel::{PlainKernel, PlainKernelSpec};

use super::buffers::GrowableBuffer;
use super::{check_matrix_input, check_nonzero, check_storage_size, check_workgroups, GpuError};

pub(crate) const SOURCE: WgslSource = WgslSource(&[wgsl!("columns.wgsl")]);

/// The most columns one gather takes (the curves panel shows at most 8, the projection panel 2).
/// `MAX_COLUMNS` in columns.wgsl (checked by shaders/layout_checks.rs).
pub const MAX_GATHER_COLUMNS: usize = 16;

/// Positions per workgroup along x (columns along y). `WORKGROUP` in columns.wgsl
/// (checked by shaders/layout_checks.rs).
pub const COLUMNS_WORKGROUP: u32 = 64;

/// Mirrors `Params` in columns.wgsl (16 bytes, then 16 indices as 4 vec4; its layout checked by shaders/layout_checks.rs).
#[repr(C)]
#[derive(Debug, Clone, Copy, Pod, Zeroable)]
pub(crate) struct ColumnsParams {
    pub(crate) n: u32,
    pub(crate) d: u32,
    pub(crate) count: u32,
    pub(crate) _pad: u32,
    pub(crate) columns: [u32; MAX_GATHER_COLUMNS],
}

/// Owns the pipeline, the uniforms and the (k × n) output.
pub struct ColumnsKernel {
    plain: PlainKernel,
    output: GrowableBuffer,
}

impl ColumnsKernel {
    pub fn new(device: &wgpu::Device) -> Self {
        Self {
            plain: PlainKernel::new(
                device,
                PlainKernelSpec {
                    label: "columns",
                    file: "columns.wgsl",
                    source: SOURCE,
                    read_only: 1,
                    writable: 1,
                    params_bytes: std::mem::size_of::<ColumnsParams>() as u64,
                },
            ),
            output: GrowableBuffer::new(
                "gathered columns",
                wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            ),
        }
    }
}

/// Gathers columns `cols` of the first n rows (d columns) of `p` into [`Kernel::buffer`]:
/// cols.len() × n f32, row c = column cols[c].
impl Kernel for ColumnsKernel {
    const LABEL: &'static str = "columns";

    /// (P, n, d, the columns).
    type Args<'a> = (&'a wgpu::Buffer, usize, usize, &'a [usize]);

    /// Checks the column indices (1 to [`MAX_GATHER_COLUMNS`], each < d) and sizes, grows the
    /// output, writes the uniforms and binds.
    fn prepare(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        (p, n, d, cols): Self::Args<'_>,
    ) -> Result<(), GpuError> {
        check_nonzero(n, d)?;
        if cols.is_empty() {
            return Err(GpuError::NoColumns);
        }
        super::check_limit("number of columns gathered", cols.len(), MAX_GATHER_COLUMNS)?;
        if let Some(&column) = cols.iter().find(|&&c| c >= d) {
            return Err(GpuError::ColumnOutOfRange { column, d });
        }
        let limits = device.limits();
        check_matrix_input(&limits, "P", p, (n, d))?;
        let bytes = (cols.len() as u64) * (n as u64) * 4;
        check_storage_size(&limits, "gathered columns (bytes)", bytes)?;
        let groups_x = check_workgroups(
            &limits,
            "columns workgroups along positions",
            (n as u64).div_ceil(u64::from(COLUMNS_WORKGROUP)),
        )?;
        let output = self
            .output
            .ensure(device, bytes, limits.max_storage_buffer_binding_size);
        let mut columns = [0u32; MAX_GATHER_COLUMNS];
        for (slot, &c) in columns.iter_mut().zip(cols) {
            *slot = c as u32;
        }
        let params = ColumnsParams {
            n: n as u32,
            d: d as u32,
            count: cols.len() as u32,
            _pad: 0,
            columns,
        };
        self.plain.write_params(queue, &params);
        self.plain
            .bind(device, &[p, output], [groups_x, cols.len() as u32, 1]);
        Ok(())
    }

    fn dispatches(&self) -> Option<Dispatches<'_>> {
        self.plain.dispatches()
    }

    fn buffer(&self) -> Option<&wgpu::Buffer> {
        self.output.get()
    }
}
