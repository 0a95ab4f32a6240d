//! GPU layer (wgpu compute, native Vulkan/GL and browser WebGPU): every kernel has a CPU twin in
//! [`pe_lab_math`] and a WGSL file beside its Rust module.
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

pub mod adapter;
pub mod alibi_scores;
pub mod attention;
pub mod buffers;
pub mod columns;
pub mod device_failure;
pub mod encoding;
pub mod gram;
pub mod heatmap;
#[cfg(feature = "minilm")]
pub mod minilm;
pub mod rope_scores;
pub mod shaders;
pub mod stats;
pub mod tile;
// Training on the GPU: natively (tests and the benchmark) and in the page's training worker.
pub mod train;

mod checks;
mod host_qk;
mod kernel;
mod pipelines;
mod plain_kernel;
mod readback;
mod tiled_kernel;
pub mod wgsl;

use thiserror::Error;

use pe_lab_math::attention::AttentionError;
use pe_lab_math::rope::RopeError;
use pe_lab_math::MathError;

pub use alibi_scores::AlibiScoresKernel;
pub use host_qk::QkKernel;
pub use kernel::Kernel;
pub use tiled_kernel::{TileChoice, Tiled};
// The wgpu these kernels are built on (WebGPU only in wasm32), for the training worker's device.
pub use attention::AttentionKernel;
pub use columns::ColumnsKernel;
#[cfg(target_arch = "wasm32")]
pub use device_failure::browser_adapter;
pub use device_failure::{plain_message, DeviceFailure};
pub use encoding::EncodingKernel;
pub use gram::GramKernel;
#[cfg(feature = "minilm")]
pub use minilm::MiniLmKernel;
pub use rope_scores::RopeScoresKernel;
pub use stats::{EncodingStats, StatsKernel};
pub use wgpu;

pub use readback::{read_bytes, read_elements, read_f32, read_u32};

pub(crate) use checks::{
    check_input, check_limit, check_matrix_input, check_nonzero, check_storage_size,
    check_workgroups,
};
pub(crate) use pipelines::{layouts, storage_entry, uniform_buffer, uniform_entry};

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
    /// The pretrained model refused its input (pe_lab_minilm's error, as text).
    #[error("{0}")]
    Model(String),
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
        let (device, queue) = request_device(adapter, optional_features).await?;
        // Shader compilation errors surface here as a typed error instead of the uncaptured-error
        // handler's panic (the WGSL is also validated by naga in the tests, every composed tiled
        // shader included: the tiled kernels compile their variants at their first `prepare`).
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

/// A device on `adapter` with the WebGPU default limits (clamped to the adapter), except the
/// storage-binding and buffer sizes, which are raised to everything the adapter allows (P at
/// n = 8192, d = 2048 is 64 MiB), and those of `optional_features` the adapter has. The page's
/// context and the training worker's device are both made here.
pub async fn request_device(
    adapter: &wgpu::Adapter,
    optional_features: wgpu::Features,
) -> Result<(wgpu::Device, wgpu::Queue), GpuError> {
    let adapter_limits = adapter.limits();
    let limits = wgpu::Limits {
        max_storage_buffer_binding_size: adapter_limits.max_storage_buffer_binding_size,
        max_buffer_size: adapter_limits.max_buffer_size,
        ..wgpu::Limits::default()
    }
    .or_worse_values_from(&adapter_limits);
    adapter
        .request_device(&wgpu::DeviceDescriptor {
            label: Some("pe-lab device"),
            required_features: adapter.features() & optional_features,
            required_limits: limits,
            ..Default::default()
        })
        .await
        .map_err(|e| GpuError::RequestDevice(e.to_string()))
}

/// Creates a context on the first adapter of the backends in `WGPU_BACKEND` (all compiled-in
/// backends when unset), blocking on the async requests: for native tests and benchmarks.
#[cfg(not(target_arch = "wasm32"))]
pub fn native_context_blocking() -> Result<GpuContext, GpuError> {
    let instance =
        wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    pollster::block_on(GpuContext::new(&instance))
}
