//! What the kernels of queries and keys (attention, ALiBi and RoPE scores) share on the host: Q and
//! K uploaded into buffers a kernel owns (their `run_host`), and the checks of the square n × n
//! score kernels (ALiBi and RoPE), which take one n and one d for both.

use ndarray::{ArrayView, ArrayView2, Dimension};

use crate::buffers::GrowableBuffer;
use crate::{check_input, check_storage_size, GpuError};
use pe_lab_math::MathError;

/// The buffers a kernel's `run_host` uploads Q and K into, grown as needed and reused.
pub(crate) struct HostQk {
    queries: GrowableBuffer,
    keys: GrowableBuffer,
}

impl HostQk {
    pub fn new(queries_label: &'static str, keys_label: &'static str) -> Self {
        let usage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST;
        Self {
            queries: GrowableBuffer::new(queries_label, usage),
            keys: GrowableBuffer::new(keys_label, usage),
        }
    }

    /// Uploads `q`, then `k` (row-major); the two buffers, to bind as inputs.
    pub fn upload<D: Dimension>(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        q: ArrayView<'_, f32, D>,
        k: ArrayView<'_, f32, D>,
    ) -> Result<(wgpu::Buffer, wgpu::Buffer), GpuError> {
        let q_buffer = self.queries.upload(device, queue, "Q (bytes)", q)?;
        let k_buffer = self.keys.upload(device, queue, "K (bytes)", k)?;
        Ok((q_buffer, k_buffer))
    }
}

/// (n, d) of host Q and K for a square score kernel: fails with [`GpuError::ShapeMismatch`] unless
/// they have the same numbers of rows and columns, then with [`MathError::ZeroPositions`] when n is
/// 0 (before the upload; the kernel's `prepare` checks the rest).
pub(crate) fn square_shape(
    q: ArrayView2<f32>,
    k: ArrayView2<f32>,
) -> Result<(usize, usize), GpuError> {
    for (what, queries, keys) in [
        ("rows", q.nrows(), k.nrows()),
        ("columns", q.ncols(), k.ncols()),
    ] {
        if queries != keys {
            return Err(GpuError::ShapeMismatch {
                what,
                queries,
                keys,
            });
        }
    }
    let (n, d) = q.dim();
    if n == 0 {
        return Err(MathError::ZeroPositions(n).into());
    }
    Ok((n, d))
}

/// Checks that `q` and `k` each hold n·d f32 and that an n × n f32 output (`output`, in errors)
/// can be bound; its size in bytes.
pub(crate) fn check_square_inputs(
    limits: &wgpu::Limits,
    q: &wgpu::Buffer,
    k: &wgpu::Buffer,
    (n, d): (usize, usize),
    output: &'static str,
) -> Result<u64, GpuError> {
    let (n64, d64) = (n as u64, d as u64);
    let input_bytes = n64.saturating_mul(d64).saturating_mul(4);
    check_input(limits, "Q", q, input_bytes)?;
    check_input(limits, "K", k, input_bytes)?;
    let bytes = n64 * n64 * 4;
    check_storage_size(limits, output, bytes)?;
    Ok(bytes)
}
