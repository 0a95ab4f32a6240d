//! Size checks every kernel's `prepare` runs before it allocates or dispatches: each fails with a
//! [`GpuError`] instead of a wgpu validation error.

use super::GpuError;
use pe_lab_math::MathError;

/// Fails with [`GpuError::TooLarge`] when a buffer of `bytes` cannot be bound as one storage
/// binding (or allocated) on this device.
pub(crate) fn check_storage_size(
    limits: &wgpu::Limits,
    what: &'static str,
    bytes: u64,
) -> Result<(), GpuError> {
    let limit = limits
        .max_storage_buffer_binding_size
        .min(limits.max_buffer_size);
    if bytes > limit {
        return Err(GpuError::TooLarge {
            what,
            requested: bytes,
            limit,
        });
    }
    Ok(())
}

/// Fails with [`GpuError::TooLarge`] when a dispatch needs more workgroups along one dimension than
/// the device allows (65535 by default).
pub(crate) fn check_workgroups(
    limits: &wgpu::Limits,
    what: &'static str,
    groups: u64,
) -> Result<u32, GpuError> {
    let limit = u64::from(limits.max_compute_workgroups_per_dimension);
    if groups > limit {
        return Err(GpuError::TooLarge {
            what,
            requested: groups,
            limit,
        });
    }
    // groups ≤ limit ≤ u32::MAX.
    Ok(groups as u32)
}

/// Fails with [`GpuError::TooLarge`] when `value > limit` (a kernel's own size limit).
pub(crate) fn check_limit(what: &'static str, value: usize, limit: usize) -> Result<(), GpuError> {
    if value > limit {
        return Err(GpuError::TooLarge {
            what,
            requested: value as u64,
            limit: limit as u64,
        });
    }
    Ok(())
}

/// Fails with [`GpuError::BufferTooSmall`] when a caller's input buffer is shorter than its shape,
/// and with [`GpuError::TooLarge`] when it is too large to be bound whole on this device.
pub(crate) fn check_input(
    limits: &wgpu::Limits,
    what: &'static str,
    buffer: &wgpu::Buffer,
    needed: u64,
) -> Result<(), GpuError> {
    check_storage_size(limits, what, buffer.size())?;
    if buffer.size() < needed {
        return Err(GpuError::BufferTooSmall {
            what,
            needed,
            available: buffer.size(),
        });
    }
    Ok(())
}

/// [`check_input`] for a row-major `rows × columns` f32 matrix.
pub(crate) fn check_matrix_input(
    limits: &wgpu::Limits,
    what: &'static str,
    buffer: &wgpu::Buffer,
    (rows, columns): (usize, usize),
) -> Result<(), GpuError> {
    let needed = (rows as u64)
        .saturating_mul(columns as u64)
        .saturating_mul(4);
    check_input(limits, what, buffer, needed)
}

/// Fails with [`MathError::ZeroPositions`] or [`MathError::ZeroDimension`] when n or d is 0.
pub(crate) fn check_nonzero(n: usize, d: usize) -> Result<(), GpuError> {
    if n == 0 {
        return Err(MathError::ZeroPositions(n).into());
    }
    if d == 0 {
        return Err(MathError::ZeroDimension(d).into());
    }
    Ok(())
}
