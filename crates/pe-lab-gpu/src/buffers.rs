//! Buffers that kernels own and reuse across calls: reallocated only when a request outgrows them.

use std::borrow::Cow;

use ndarray::{ArrayView, Dimension};

use crate::{check_storage_size, GpuError};

/// Grows geometrically (×2, capped at `cap`) so that a slider dragged upwards reallocates a handful
/// of times, not on every frame; never shrinks. The buffer is bound whole (`as_entire_binding`),
/// which is why growth is capped at the device's storage binding size: a larger buffer could not be
/// bound.
#[derive(Debug)]
pub struct GrowableBuffer {
    label: &'static str,
    usage: wgpu::BufferUsages,
    buffer: Option<wgpu::Buffer>,
}

impl GrowableBuffer {
    pub fn new(label: &'static str, usage: wgpu::BufferUsages) -> Self {
        Self {
            label,
            usage,
            buffer: None,
        }
    }

    /// Makes the buffer hold at least `bytes` (the caller has checked `bytes ≤ cap`) and returns
    /// it. A reallocated buffer compares unequal to the old one, which is how bind groups notice.
    pub fn ensure(&mut self, device: &wgpu::Device, bytes: u64, cap: u64) -> &wgpu::Buffer {
        let current = self.buffer.as_ref().map_or(0, wgpu::Buffer::size);
        if current < bytes {
            self.buffer = None;
        }
        let (label, usage) = (self.label, self.usage);
        self.buffer.get_or_insert_with(|| {
            // 16-byte multiples keep every size a valid copy size and vec4-friendly.
            let wanted = bytes.max(16).next_multiple_of(16);
            let size = current.saturating_mul(2).min(cap / 16 * 16).max(wanted);
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size,
                usage,
                mapped_at_creation: false,
            })
        })
    }

    pub fn get(&self) -> Option<&wgpu::Buffer> {
        self.buffer.as_ref()
    }

    /// Uploads `values` (row-major, `what` in errors) into this buffer, grown to hold them within
    /// the device's storage binding size, and returns it.
    pub fn upload<D: Dimension>(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        what: &'static str,
        values: ArrayView<'_, f32, D>,
    ) -> Result<wgpu::Buffer, GpuError> {
        let limits = device.limits();
        let bytes = (values.len() as u64) * 4;
        check_storage_size(&limits, what, bytes)?;
        let buffer = self
            .ensure(device, bytes, limits.max_storage_buffer_binding_size)
            .clone();
        queue.write_buffer(&buffer, 0, bytemuck::cast_slice(&standard(values)));
        Ok(buffer)
    }
}

/// The values in row-major order (a copy only when the view is not already contiguous).
fn standard<D: Dimension>(a: ArrayView<'_, f32, D>) -> Cow<'_, [f32]> {
    match a.to_slice() {
        Some(slice) => Cow::Borrowed(slice),
        None => Cow::Owned(a.iter().copied().collect()),
    }
}
