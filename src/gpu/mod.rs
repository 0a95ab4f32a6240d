//! GPU layer (wgpu compute, native Vulkan/GL and browser WebGPU): every kernel has a CPU twin in
//! [`crate::math`] and a WGSL file beside its Rust module.
//!
//! One long-lived [`GpuContext`] owns the device and the kernels; each kernel owns its pipeline,
//! its uniform buffer and its output buffer. A parameter change only rewrites uniforms
//! (`queue.write_buffer`) and re-dispatches; buffers are reallocated only when a size grows. Every
//! kernel function takes `&wgpu::Device, &wgpu::Queue`, so tests can pass their own.
//!
//! Each kernel has three entry points: `prepare` (checks sizes, grows buffers, writes uniforms,
//! binds), `encode` (records the dispatch into a caller's encoder, optionally with timestamp
//! writes) and `run` (both, then submit). Results stay on the GPU; [`read_f32`] copies a range back
//! (async: `map_async`; on native it polls the device itself).
//!
//! The positional-score kernels [`RopeScoresKernel`] and [`AlibiScoresKernel`] are not part of
//! [`GpuContext`]: the page does not draw them, so it does not pay for compiling them; build them
//! on the context's device (`RopeScoresKernel::new(&context.device)`) where they are needed.

pub mod alibi_scores;
pub mod attention;
pub mod buffers;
pub mod columns;
pub mod encoding;
pub mod gram;
pub mod heatmap;
pub mod rope_scores;
pub mod stats;

use thiserror::Error;

use crate::math::attention::AttentionError;
use crate::math::rope::RopeError;
use crate::math::MathError;

pub use alibi_scores::AlibiScoresKernel;
pub use attention::AttentionKernel;
pub use columns::ColumnsKernel;
pub use encoding::EncodingKernel;
pub use gram::GramKernel;
pub use rope_scores::RopeScoresKernel;
pub use stats::{EncodingStats, StatsKernel};

/// Why a GPU computation could not be done.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum GpuError {
    #[error("no GPU adapter is available: {0}")]
    NoAdapter(String),
    #[error("the GPU device could not be created: {0}")]
    RequestDevice(String),
    #[error("{what} = {requested} is larger than the limit {limit}")]
    TooLarge {
        what: &'static str,
        requested: u64,
        limit: u64,
    },
    #[error("{what} holds {available} bytes but {needed} are needed")]
    BufferTooSmall {
        what: &'static str,
        needed: u64,
        available: u64,
    },
    #[error("column {column} does not exist (d = {d})")]
    ColumnOutOfRange { column: usize, d: usize },
    #[error("no columns were requested")]
    NoColumns,
    #[error("queries have {queries} {what} but keys have {keys}")]
    ShapeMismatch {
        what: &'static str,
        queries: usize,
        keys: usize,
    },
    #[error("the ALiBi slope must be a finite number (got {0})")]
    InvalidSlope(f32),
    #[error("reading back failed: {0}")]
    Map(String),
    #[error("GPU validation failed: {0}")]
    Validation(String),
    #[error(transparent)]
    Math(#[from] MathError),
    #[error(transparent)]
    Attention(#[from] AttentionError),
    #[error(transparent)]
    Rope(#[from] RopeError),
}

/// The device, its queue, what it is, and one instance of every kernel.
pub struct GpuContext {
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
    pub adapter_info: wgpu::AdapterInfo,
    /// The limits the device was created with (sizes are checked against these).
    pub limits: wgpu::Limits,
    pub encoding: EncodingKernel,
    pub gram: GramKernel,
    pub attention: AttentionKernel,
    pub stats: StatsKernel,
    pub columns: ColumnsKernel,
}

impl GpuContext {
    /// Requests a high-performance adapter and a device with no optional features.
    pub async fn new(instance: &wgpu::Instance) -> Result<Self, GpuError> {
        Self::new_with_features(instance, wgpu::Features::empty()).await
    }

    /// Like [`GpuContext::new`], also enabling those of `optional_features` that the adapter has
    /// (the benchmark asks for `TIMESTAMP_QUERY`; the page asks for none).
    ///
    /// Limits: the WebGPU defaults (clamped to the adapter), except the storage-binding and buffer
    /// sizes, which are raised to everything the adapter allows: P at n = 8192, d = 2048 is 64 MiB.
    pub async fn new_with_features(
        instance: &wgpu::Instance,
        optional_features: wgpu::Features,
    ) -> Result<Self, GpuError> {
        let adapter = instance
            .request_adapter(&wgpu::RequestAdapterOptions {
                power_preference: wgpu::PowerPreference::HighPerformance,
                ..Default::default()
            })
            .await
            .map_err(|e| GpuError::NoAdapter(e.to_string()))?;
        Self::from_adapter(&adapter, optional_features).await
    }

    /// Requests the device from an adapter the caller chose (the page asks for one compatible
    /// with its canvas surface), with the limits and features of [`GpuContext::new_with_features`].
    pub async fn from_adapter(
        adapter: &wgpu::Adapter,
        optional_features: wgpu::Features,
    ) -> Result<Self, GpuError> {
        let adapter_limits = adapter.limits();
        let limits = wgpu::Limits {
            max_storage_buffer_binding_size: adapter_limits.max_storage_buffer_binding_size,
            max_buffer_size: adapter_limits.max_buffer_size,
            ..wgpu::Limits::default()
        }
        .or_worse_values_from(&adapter_limits);
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("pe-lab device"),
                required_features: adapter.features() & optional_features,
                required_limits: limits,
                ..Default::default()
            })
            .await
            .map_err(|e| GpuError::RequestDevice(e.to_string()))?;
        // Shader compilation errors surface here as a typed error instead of the uncaptured-error
        // handler's panic (the WGSL is also validated by naga in the tests).
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let context = Self::from_device(device, queue, adapter.get_info());
        if let Some(error) = scope.pop().await {
            return Err(GpuError::Validation(error.to_string()));
        }
        Ok(context)
    }

    /// Builds every kernel on an existing device (tests bring their own).
    pub fn from_device(
        device: wgpu::Device,
        queue: wgpu::Queue,
        adapter_info: wgpu::AdapterInfo,
    ) -> Self {
        Self {
            limits: device.limits(),
            encoding: EncodingKernel::new(&device),
            gram: GramKernel::new(&device),
            attention: AttentionKernel::new(&device),
            stats: StatsKernel::new(&device),
            columns: ColumnsKernel::new(&device),
            device,
            queue,
            adapter_info,
        }
    }

    /// "name (device type, backend)", for logs and the benchmark.
    pub fn describe(&self) -> String {
        format!(
            "{} ({:?}, {:?})",
            self.adapter_info.name, self.adapter_info.device_type, self.adapter_info.backend
        )
    }
}

/// Creates a context on the first adapter of the backends in `WGPU_BACKEND` (all compiled-in
/// backends when unset), blocking on the async requests: for native tests and benchmarks.
#[cfg(not(target_arch = "wasm32"))]
pub fn native_context_blocking() -> Result<GpuContext, GpuError> {
    let instance =
        wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    pollster::block_on(GpuContext::new(&instance))
}

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

/// A storage-buffer entry of a compute bind group layout.
pub(crate) fn storage_entry(binding: u32, read_only: bool) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only },
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    }
}

/// A uniform-buffer entry of a compute bind group layout.
pub(crate) fn uniform_entry(binding: u32) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Uniform,
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    }
}

/// A compute pipeline with entry point `main` and one bind group (group 0) of `entries`.
pub(crate) fn compute_pipeline(
    device: &wgpu::Device,
    label: &'static str,
    module: wgpu::ShaderModuleDescriptor<'_>,
    entries: &[wgpu::BindGroupLayoutEntry],
) -> (wgpu::ComputePipeline, wgpu::BindGroupLayout) {
    let ([pipeline], layout) = compute_pipelines(device, label, module, entries, ["main"]);
    (pipeline, layout)
}

/// One compute pipeline per entry point of `module`, all sharing one bind group layout (group 0)
/// of `entries`, so that one bind group serves every dispatch of a kernel.
pub(crate) fn compute_pipelines<const N: usize>(
    device: &wgpu::Device,
    label: &'static str,
    module: wgpu::ShaderModuleDescriptor<'_>,
    entries: &[wgpu::BindGroupLayoutEntry],
    entry_points: [&'static str; N],
) -> ([wgpu::ComputePipeline; N], wgpu::BindGroupLayout) {
    let module = device.create_shader_module(module);
    let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some(label),
        entries,
    });
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some(label),
        bind_group_layouts: &[Some(&layout)],
        immediate_size: 0,
    });
    let pipelines = entry_points.map(|entry_point| {
        device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(entry_point),
            layout: Some(&pipeline_layout),
            module: &module,
            entry_point: Some(entry_point),
            compilation_options: Default::default(),
            cache: None,
        })
    });
    (pipelines, layout)
}

/// A uniform buffer of `size` bytes, rewritten with `queue.write_buffer` on every parameter change.
pub(crate) fn uniform_buffer(
    device: &wgpu::Device,
    label: &'static str,
    size: u64,
) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size,
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

/// A bind group of whole buffers, bound in order to bindings 0, 1, 2, …
pub(crate) fn bind_buffers(
    device: &wgpu::Device,
    label: &'static str,
    layout: &wgpu::BindGroupLayout,
    buffers: &[&wgpu::Buffer],
) -> wgpu::BindGroup {
    let entries: Vec<wgpu::BindGroupEntry> = buffers
        .iter()
        .zip(0u32..)
        .map(|(buffer, binding)| wgpu::BindGroupEntry {
            binding,
            resource: buffer.as_entire_binding(),
        })
        .collect();
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some(label),
        layout,
        entries: &entries,
    })
}

/// What `encode` records: the bind group of the last `prepare` and its workgroup counts.
#[derive(Debug)]
pub(crate) struct Dispatch {
    /// The buffers the bind group holds, to tell when it is stale (wgpu buffers compare by
    /// identity).
    pub bound: Vec<wgpu::Buffer>,
    pub bind_group: wgpu::BindGroup,
    pub workgroups: [u32; 3],
}

impl Dispatch {
    /// Reuses `previous` when it binds exactly `buffers`, else builds a new bind group.
    pub fn rebind(
        previous: Option<Dispatch>,
        device: &wgpu::Device,
        label: &'static str,
        layout: &wgpu::BindGroupLayout,
        buffers: &[&wgpu::Buffer],
        workgroups: [u32; 3],
    ) -> Dispatch {
        match previous {
            Some(d)
                if d.bound.len() == buffers.len()
                    && d.bound.iter().zip(buffers).all(|(a, b)| a == *b) =>
            {
                Dispatch { workgroups, ..d }
            }
            _ => Dispatch {
                bound: buffers.iter().map(|b| (*b).clone()).collect(),
                bind_group: bind_buffers(device, label, layout, buffers),
                workgroups,
            },
        }
    }

    /// Records one compute pass with this dispatch.
    pub fn encode(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        label: &'static str,
        pipeline: &wgpu::ComputePipeline,
        timestamp_writes: Option<wgpu::ComputePassTimestampWrites<'_>>,
    ) {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some(label),
            timestamp_writes,
        });
        pass.set_pipeline(pipeline);
        pass.set_bind_group(0, &self.bind_group, &[]);
        let [x, y, z] = self.workgroups;
        pass.dispatch_workgroups(x, y, z);
    }
}

/// Records `encode` into a fresh encoder and submits it.
pub(crate) fn submit_one(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    label: &'static str,
    encode: impl FnOnce(&mut wgpu::CommandEncoder),
) {
    let mut encoder =
        device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some(label) });
    encode(&mut encoder);
    queue.submit([encoder.finish()]);
}
