//! The host state the four tiled product kernels (Gram, attention, ALiBi and RoPE scores) share:
//! their pipelines (one set per tile [`Variant`]), the variant prepared last, a forced tile shape,
//! the bind group layout, the uniform buffer, the output and the bind group. Each kernel keeps its
//! own checks, uniforms, extra buffers and passes; every binding it makes is the uniforms first,
//! then its inputs, then the output, which is what [`TiledKernel::bind`] builds.

use bytemuck::Pod;

use crate::buffers::GrowableBuffer;
use crate::kernel::Dispatches;
use crate::pipelines::{compute_entries, layouts, uniform_buffer, Dispatch};
use crate::tile::{TileShape, TiledPipelines, Variant};
use crate::wgsl::WgslSource;

/// What [`TiledKernel::new`] builds a kernel's state from.
pub(crate) struct TiledKernelSpec<const N: usize> {
    /// The label of the layouts, pipelines and bind group.
    pub label: &'static str,
    /// The kernel's WGSL, composed with the tile core per variant.
    pub source: WgslSource,
    pub entry_points: [&'static str; N],
    /// The storage buffers after the uniforms (see [`compute_entries`]): inputs, then scratch
    /// buffers and the output (last).
    pub read_only: u32,
    pub writable: u32,
    pub params_label: &'static str,
    /// The size of the kernel's `Params` (the uniform buffer's size).
    pub params_bytes: u64,
    pub output_label: &'static str,
}

/// A tiled kernel's pipelines, uniforms, output and bind group (see the module docs).
pub(crate) struct TiledKernel<const N: usize> {
    label: &'static str,
    pipelines: TiledPipelines<N>,
    choice: TileChoice,
    layout: wgpu::BindGroupLayout,
    params: wgpu::Buffer,
    output: GrowableBuffer,
    /// The bind group and the workgroups of each entry point given to [`TiledKernel::bind`].
    dispatch: Option<Dispatch<[[u32; 3]; N]>>,
}

impl<const N: usize> TiledKernel<N> {
    pub fn new(device: &wgpu::Device, spec: TiledKernelSpec<N>) -> Self {
        let (layout, pipeline_layout) = layouts(
            device,
            spec.label,
            &compute_entries(spec.read_only, spec.writable),
        );
        Self {
            label: spec.label,
            pipelines: TiledPipelines::new(
                spec.label,
                spec.source,
                spec.entry_points,
                pipeline_layout,
            ),
            choice: TileChoice::default(),
            layout,
            params: uniform_buffer(device, spec.params_label, spec.params_bytes),
            // STORAGE: written here (and drawable by the heatmap); COPY_SRC: read back.
            output: GrowableBuffer::new(
                spec.output_label,
                wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            ),
            dispatch: None,
        }
    }

    /// The pipeline layout of the tiled pipelines, for a kernel's untiled passes that share the
    /// bind group.
    pub fn pipeline_layout(&self) -> &wgpu::PipelineLayout {
        self.pipelines.layout()
    }

    /// The tile shapes forced and prepared (what [`Tiled`] reads and sets).
    pub fn choice(&self) -> &TileChoice {
        &self.choice
    }

    pub fn choice_mut(&mut self) -> &mut TileChoice {
        &mut self.choice
    }

    /// The forced shape, else the one `choose` picks.
    pub fn shape(&self, choose: impl FnOnce() -> TileShape) -> TileShape {
        self.choice.forced.unwrap_or_else(choose)
    }

    /// Writes `params` into the uniform buffer.
    pub fn write_params<P: Pod>(&self, queue: &wgpu::Queue, params: &P) {
        queue.write_buffer(&self.params, 0, bytemuck::bytes_of(params));
    }

    /// Grows the output to `output_bytes` (≤ `cap`, checked by the caller) and binds the uniforms,
    /// `inputs` and the output, in that order, to bindings 0, 1, …; `workgroups` (one per entry
    /// point, in their order) are what [`TiledKernel::dispatches`] dispatches them with.
    pub fn bind(
        &mut self,
        device: &wgpu::Device,
        inputs: &[&wgpu::Buffer],
        output_bytes: u64,
        cap: u64,
        workgroups: [[u32; 3]; N],
    ) {
        let output = self.output.ensure(device, output_bytes, cap);
        let mut buffers = Vec::with_capacity(inputs.len() + 2);
        buffers.push(&self.params);
        buffers.extend_from_slice(inputs);
        buffers.push(output);
        self.dispatch = Some(Dispatch::rebind(
            self.dispatch.take(),
            device,
            self.label,
            &self.layout,
            &buffers,
            workgroups,
        ));
    }

    /// Compiles the variant of `shape` and `vec4` loads unless it already is, and makes it the one
    /// prepared.
    pub fn compile(&mut self, device: &wgpu::Device, shape: TileShape, vec4: bool) {
        let variant = Variant { shape, vec4 };
        self.pipelines.ensure(device, variant);
        self.choice.variant = Some(variant);
    }

    /// The bind group of the last successful `prepare` and its passes: every entry point's
    /// pipeline of the variant prepared, with its workgroups, in order; `None` before one.
    pub fn dispatches(&self) -> Option<Dispatches<'_>> {
        let dispatch = self.dispatch.as_ref()?;
        let pipelines = self.pipelines.get(self.choice.variant?)?;
        let passes = pipelines.iter().zip(dispatch.workgroups).collect();
        Some((&dispatch.bind_group, passes))
    }

    /// The output buffer (`STORAGE | COPY_SRC`), once a `prepare` has allocated it.
    pub fn output(&self) -> Option<&wgpu::Buffer> {
        self.output.get()
    }
}

/// A tiled kernel's tile shapes: the one forced instead of the kernel's chooser's, and the one of
/// the variant prepared last.
#[derive(Debug, Default)]
pub struct TileChoice {
    /// The variant the last `prepare` compiled and sized its dispatches for.
    variant: Option<Variant>,
    /// A shape that overrides the kernel's chooser (tests run every shape).
    forced: Option<TileShape>,
}

/// A kernel on the tile core (Gram, attention, ALiBi and RoPE scores): its tile shape can be
/// forced and read back.
pub trait Tiled {
    fn tile_choice(&self) -> &TileChoice;

    fn tile_choice_mut(&mut self) -> &mut TileChoice;

    /// Runs every later `prepare` with `shape` instead of the one the kernel's chooser picks
    /// (`None`: back to choosing).
    fn force_tile(&mut self, shape: Option<TileShape>) {
        self.tile_choice_mut().forced = shape;
    }

    /// The tile shape of the dispatch prepared last.
    fn tile(&self) -> Option<TileShape> {
        self.tile_choice().variant.map(|v| v.shape)
    }
}

/// Implements [`Tiled`] for a kernel whose `tiled` field is its [`TiledKernel`].
macro_rules! impl_tiled {
    ($kernel:ty) => {
        impl $crate::tiled_kernel::Tiled for $kernel {
            fn tile_choice(&self) -> &$crate::tiled_kernel::TileChoice {
                self.tiled.choice()
            }

            fn tile_choice_mut(&mut self) -> &mut $crate::tiled_kernel::TileChoice {
                self.tiled.choice_mut()
            }
        }
    };
}
pub(crate) use impl_tiled;
