//! Buffers that kernels own and reuse across calls: reallocated only when a request outgrows them.

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
}
