//! The host state the untiled kernels (the encoding, its gathered columns and its statistics)
//! share: one pipeline, its bind group layout, the uniform buffer and the bind group of the last
//! `prepare` with its workgroups. Each kernel keeps its own checks, uniforms and buffers; every
//! binding it makes is the uniforms first, then its other buffers in order, which is what
//! [`PlainKernel::bind`] builds. The tiled kernels' twin of this is `tiled_kernel.rs`.

use bytemuck::Pod;

use crate::kernel::Dispatches;
use crate::pipelines::{compute_entries, compute_pipeline, uniform_buffer, Dispatch};
use crate::wgsl::WgslSource;

/// What [`PlainKernel::new`] builds a kernel's state from.
pub(crate) struct PlainKernelSpec {
    /// The label of the layout, pipeline, bind group and uniform buffer.
    pub label: &'static str,
    /// The WGSL file's name (for validation errors).
    pub file: &'static str,
    pub source: WgslSource,
    /// The storage buffers after the uniforms (see [`compute_entries`]): inputs, then the
    /// others.
    pub read_only: u32,
    pub writable: u32,
    /// The size of the kernel's `Params` (the uniform buffer's size).
    pub params_bytes: u64,
}

/// An untiled kernel's pipeline, uniforms and bind group (see the module docs).
pub(crate) struct PlainKernel {
    label: &'static str,
    pipeline: wgpu::ComputePipeline,
    layout: wgpu::BindGroupLayout,
    params: wgpu::Buffer,
    dispatch: Option<Dispatch>,
}

impl PlainKernel {
    pub fn new(device: &wgpu::Device, spec: PlainKernelSpec) -> Self {
        let (pipeline, layout) = compute_pipeline(
            device,
            spec.label,
            spec.file,
            spec.source,
            &compute_entries(spec.read_only, spec.writable),
        );
        Self {
            label: spec.label,
            pipeline,
            layout,
            params: uniform_buffer(device, spec.label, spec.params_bytes),
            dispatch: None,
        }
    }

    /// Writes `params` into the uniform buffer.
    pub fn write_params<P: Pod>(&self, queue: &wgpu::Queue, params: &P) {
        queue.write_buffer(&self.params, 0, bytemuck::bytes_of(params));
    }

    /// Binds the uniforms and `buffers`, in that order, to bindings 0, 1, …; `workgroups` are
    /// handed back by [`PlainKernel::dispatches`].
    pub fn bind(&mut self, device: &wgpu::Device, buffers: &[&wgpu::Buffer], workgroups: [u32; 3]) {
        let mut bound = Vec::with_capacity(buffers.len() + 1);
        bound.push(&self.params);
        bound.extend_from_slice(buffers);
        self.dispatch = Some(Dispatch::rebind(
            self.dispatch.take(),
            device,
            self.label,
            &self.layout,
            &bound,
            workgroups,
        ));
    }

    /// The bind group and the one dispatch of the last `prepare`; `None` before one.
    pub fn dispatches(&self) -> Option<Dispatches<'_>> {
        Some(self.dispatch.as_ref()?.single(&self.pipeline))
    }
}
