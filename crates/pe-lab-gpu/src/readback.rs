//! Copying results back from the GPU: a range of a buffer through a `MAP_READ` staging buffer,
//! as raw bytes or as 4-byte elements.

use super::GpuError;

/// Copies `len_elems` values of type `T` (4-byte elements: f32, u32) starting at element
/// `offset_elems` of `buffer` (which needs `COPY_SRC`) into a fresh `MAP_READ` staging buffer and
/// returns them.
///
/// On native the device is polled until the copy is done; in the browser the future resolves from
/// the event loop, so this must be awaited (never blocked on).
pub async fn read_elements<T: bytemuck::Pod>(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    buffer: &wgpu::Buffer,
    offset_elems: u64,
    len_elems: u64,
) -> Result<Vec<T>, GpuError> {
    let size = std::mem::size_of::<T>() as u64;
    let bytes = read_bytes(
        device,
        queue,
        buffer,
        offset_elems.saturating_mul(size),
        len_elems.saturating_mul(size),
    )
    .await?;
    Ok(bytemuck::pod_collect_to_vec(&bytes))
}

/// [`read_elements`] of f32 values (P, weights, gathered columns).
pub async fn read_f32(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    buffer: &wgpu::Buffer,
    offset_elems: u64,
    len_elems: u64,
) -> Result<Vec<f32>, GpuError> {
    read_elements(device, queue, buffer, offset_elems, len_elems).await
}

/// [`read_elements`] of u32 values (bit patterns, counters).
pub async fn read_u32(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    buffer: &wgpu::Buffer,
    offset_elems: u64,
    len_elems: u64,
) -> Result<Vec<u32>, GpuError> {
    read_elements(device, queue, buffer, offset_elems, len_elems).await
}

/// The raw bytes `offset .. offset + len` of `buffer` (both multiples of 4; the buffer needs
/// `COPY_SRC`). The basis of [`read_f32`]; the benchmark reads timestamps with it.
pub async fn read_bytes(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    buffer: &wgpu::Buffer,
    offset: u64,
    len: u64,
) -> Result<Vec<u8>, GpuError> {
    let available = buffer.size();
    let in_range = matches!(offset.checked_add(len), Some(end) if end <= available);
    if !in_range {
        return Err(GpuError::BufferTooSmall {
            what: "the buffer read back",
            needed: offset.saturating_add(len),
            available,
        });
    }
    if offset % wgpu::COPY_BUFFER_ALIGNMENT != 0 || len % wgpu::COPY_BUFFER_ALIGNMENT != 0 {
        return Err(GpuError::Map(format!(
            "offset {offset} and length {len} must be multiples of {}",
            wgpu::COPY_BUFFER_ALIGNMENT
        )));
    }
    if !buffer.usage().contains(wgpu::BufferUsages::COPY_SRC) {
        return Err(GpuError::Map("the buffer lacks COPY_SRC usage".into()));
    }
    if len == 0 {
        return Ok(Vec::new());
    }
    let staging = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("readback staging"),
        size: len,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
        label: Some("readback copy"),
    });
    encoder.copy_buffer_to_buffer(buffer, offset, &staging, 0, len);
    queue.submit([encoder.finish()]);
    let (sender, receiver) = futures_channel::oneshot::channel();
    staging.map_async(wgpu::MapMode::Read, .., move |result| {
        // The receiver only disappears if the caller dropped the future; nothing to report then.
        let _ = sender.send(result);
    });
    #[cfg(not(target_arch = "wasm32"))]
    device
        .poll(wgpu::PollType::wait_indefinitely())
        .map_err(|e| GpuError::Map(e.to_string()))?;
    receiver
        .await
        .map_err(|_| GpuError::Map("the map callback was dropped".into()))?
        .map_err(|e| GpuError::Map(e.to_string()))?;
    let bytes = {
        let view = staging
            .get_mapped_range(..)
            .map_err(|e| GpuError::Map(e.to_string()))?;
        view.to_vec()
    };
    staging.unmap();
    Ok(bytes)
}
