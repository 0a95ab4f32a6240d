//! What the kernels of queries and keys (attention, ALiBi and RoPE scores) share on the host: Q and
//! K uploaded from host arrays into buffers a kernel owns ([`QkKernel::run_host`]), and the checks
//! of the square n × n score kernels (ALiBi and RoPE), which take one n and one d for both.

use ndarray::{ArrayView, ArrayView2, Dimension};

use crate::buffers::GrowableBuffer;
use crate::kernel::Kernel;
use crate::{check_matrix_input, check_storage_size, GpuError};
use pe_lab_math::MathError;

/// A kernel of queries and keys that can also take them from host arrays (`'e`: the lifetime of
/// what it takes besides them, such as the valid lengths).
pub trait QkKernel<'e>: Kernel {
    /// The arrays' dimension: (batch, rows, d) for attention, (n, d) for the square kernels.
    type Dim: Dimension;

    /// What `run_host` takes besides Q and K (the heads and valid lengths, the slope, the base).
    type Extra: Copy;

    /// What the kernel's [`Kernel::Args`] take besides the two buffers, checked from the arrays'
    /// shapes before anything is uploaded.
    type Shape;

    /// The kernel's upload buffers.
    fn host_qk(&mut self) -> &mut HostQk;

    /// Checks that `q` and `k` fit together and the kernel's limits; their shape.
    fn host_shape(
        q: &ArrayView<'_, f32, Self::Dim>,
        k: &ArrayView<'_, f32, Self::Dim>,
        extra: Self::Extra,
    ) -> Result<Self::Shape, GpuError>;

    /// The kernel's [`Kernel::Args`] of Q and K in `q` and `k` and their checked `shape`.
    fn args<'a>(q: &'a wgpu::Buffer, k: &'a wgpu::Buffer, shape: Self::Shape) -> Self::Args<'a>
    where
        'e: 'a;

    /// Uploads Q and K (row-major) into buffers this kernel owns, then [`Kernel::run`].
    fn run_host(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        q: ArrayView<'_, f32, Self::Dim>,
        k: ArrayView<'_, f32, Self::Dim>,
        extra: Self::Extra,
    ) -> Result<&wgpu::Buffer, GpuError> {
        let shape = Self::host_shape(&q, &k, extra)?;
        let (q_buffer, k_buffer) = self.host_qk().upload(device, queue, q, k)?;
        self.run(device, queue, Self::args(&q_buffer, &k_buffer, shape))
    }
}

/// The buffers a kernel's `run_host` uploads Q and K into, grown as needed and reused.
pub struct HostQk {
    queries: GrowableBuffer,
    keys: GrowableBuffer,
}

impl HostQk {
    pub(crate) fn new(queries_label: &'static str, keys_label: &'static str) -> Self {
        let usage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST;
        Self {
            queries: GrowableBuffer::new(queries_label, usage),
            keys: GrowableBuffer::new(keys_label, usage),
        }
    }

    /// Uploads `q`, then `k` (row-major); the two buffers, to bind as inputs.
    pub(crate) fn upload<D: Dimension>(
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
    check_matrix_input(limits, "Q", q, (n, d))?;
    check_matrix_input(limits, "K", k, (n, d))?;
    let n64 = n as u64;
    let bytes = n64 * n64 * 4;
    check_storage_size(limits, output, bytes)?;
    Ok(bytes)
}

/// Implements [`QkKernel`] for a square score kernel (Q and K both n × d, field `host`), whose
/// [`Kernel::Args`] are (Q, K, n, d, extra): `$check` checks (n, d) against its limits.
macro_rules! impl_square_qk {
    ($kernel:ty, $extra:ty, $check:expr) => {
        impl<'e> $crate::host_qk::QkKernel<'e> for $kernel {
            type Dim = ndarray::Ix2;
            type Extra = $extra;
            type Shape = (usize, usize, $extra);

            fn host_qk(&mut self) -> &mut $crate::host_qk::HostQk {
                &mut self.host
            }

            fn host_shape(
                q: &ndarray::ArrayView2<'_, f32>,
                k: &ndarray::ArrayView2<'_, f32>,
                extra: $extra,
            ) -> Result<Self::Shape, $crate::GpuError> {
                let (n, d) = $crate::host_qk::square_shape(q.view(), k.view())?;
                let check: fn(usize, usize) -> Result<(), $crate::GpuError> = $check;
                check(n, d)?;
                Ok((n, d, extra))
            }

            fn args<'a>(
                q: &'a wgpu::Buffer,
                k: &'a wgpu::Buffer,
                (n, d, extra): Self::Shape,
            ) -> Self::Args<'a>
            where
                'e: 'a,
            {
                (q, k, n, d, extra)
            }
        }
    };
}
pub(crate) use impl_square_qk;
