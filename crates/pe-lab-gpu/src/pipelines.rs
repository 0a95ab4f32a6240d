//! What the kernels share to build and run a compute pass: bind group layout entries, pipelines,
//! uniform buffers, bind groups, and the [`Dispatch`] that `encode` records.

use crate::wgsl::WgslSource;

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

/// The bind group layout of a compute kernel: its uniforms at binding 0, then `read_only` storage
/// buffers (its inputs), then `writable` ones (its scratch buffers and its output), the order in
/// which every kernel declares its WGSL bindings and binds its buffers.
pub(crate) fn compute_entries(read_only: u32, writable: u32) -> Vec<wgpu::BindGroupLayoutEntry> {
    let inputs = (1..=read_only).map(|binding| storage_entry(binding, true));
    let outputs =
        (read_only + 1..=read_only + writable).map(|binding| storage_entry(binding, false));
    std::iter::once(uniform_entry(0))
        .chain(inputs)
        .chain(outputs)
        .collect()
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

/// A compute pipeline with entry point `main` of `source` (the module labelled `module_label`)
/// and one bind group (group 0) of `entries`.
pub(crate) fn compute_pipeline(
    device: &wgpu::Device,
    label: &'static str,
    module_label: &'static str,
    source: WgslSource,
    entries: &[wgpu::BindGroupLayoutEntry],
) -> (wgpu::ComputePipeline, wgpu::BindGroupLayout) {
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some(module_label),
        source: wgpu::ShaderSource::Wgsl(source.text().into()),
    });
    let (layout, pipeline_layout) = layouts(device, label, entries);
    let [pipeline] = pipelines_of(device, &pipeline_layout, &module, ["main"]);
    (pipeline, layout)
}

/// The bind group layout (group 0) of `entries` and a pipeline layout of it alone.
pub(crate) fn layouts(
    device: &wgpu::Device,
    label: &'static str,
    entries: &[wgpu::BindGroupLayoutEntry],
) -> (wgpu::BindGroupLayout, wgpu::PipelineLayout) {
    let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some(label),
        entries,
    });
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some(label),
        bind_group_layouts: &[Some(&layout)],
        immediate_size: 0,
    });
    (layout, pipeline_layout)
}

/// One compute pipeline per entry point of the WGSL `source` (composed at run time), on `layout`.
pub(crate) fn pipelines_from_source<const N: usize>(
    device: &wgpu::Device,
    label: &'static str,
    layout: &wgpu::PipelineLayout,
    source: std::borrow::Cow<'_, str>,
    entry_points: [&'static str; N],
) -> [wgpu::ComputePipeline; N] {
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some(label),
        source: wgpu::ShaderSource::Wgsl(source),
    });
    pipelines_of(device, layout, &module, entry_points)
}

fn pipelines_of<const N: usize>(
    device: &wgpu::Device,
    layout: &wgpu::PipelineLayout,
    module: &wgpu::ShaderModule,
    entry_points: [&'static str; N],
) -> [wgpu::ComputePipeline; N] {
    entry_points.map(|entry_point| {
        device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(entry_point),
            layout: Some(layout),
            module,
            entry_point: Some(entry_point),
            compilation_options: Default::default(),
            cache: None,
        })
    })
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

/// The bind group of a `prepare` and its dispatches, in order: (pipeline, workgroups).
pub type Dispatches<'a> = (
    &'a wgpu::BindGroup,
    Vec<(&'a wgpu::ComputePipeline, [u32; 3])>,
);

/// What `encode` records: the bind group of the last `prepare` and its workgroup counts (`G`: one
/// `[x, y, z]`, or one per entry point of a kernel of several passes).
#[derive(Debug)]
pub(crate) struct Dispatch<G = [u32; 3]> {
    /// The buffers the bind group holds, to tell when it is stale (wgpu buffers compare by
    /// identity).
    pub bound: Vec<wgpu::Buffer>,
    pub bind_group: wgpu::BindGroup,
    pub workgroups: G,
}

impl<G> Dispatch<G> {
    /// Reuses `previous` when it binds exactly `buffers`, else builds a new bind group.
    pub fn rebind(
        previous: Option<Dispatch<G>>,
        device: &wgpu::Device,
        label: &'static str,
        layout: &wgpu::BindGroupLayout,
        buffers: &[&wgpu::Buffer],
        workgroups: G,
    ) -> Dispatch<G> {
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
}

impl Dispatch {
    /// What [`crate::Kernel::dispatches`] returns for a kernel of one pipeline.
    pub fn single<'a>(&'a self, pipeline: &'a wgpu::ComputePipeline) -> Dispatches<'a> {
        (&self.bind_group, vec![(pipeline, self.workgroups)])
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
