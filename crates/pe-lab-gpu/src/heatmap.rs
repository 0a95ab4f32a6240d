//! Heatmaps drawn by a render pass straight from a storage buffer (colour map in the fragment
//! shader, `heatmap.wgsl`), so that on WebGPU a frame never reads P back to the CPU. The CPU twin is
//! `math::colormap::{diverging_rgba, resample_rgba}`; a test holds the two to the same pixels.

use std::fmt::Write as _;

use bytemuck::{Pod, Zeroable};
use pe_lab_math::colormap::{DIVERGING_STOPS, VIRIDIS_STOPS};
use wgpu::util::DeviceExt;

use crate::wgsl::{wgsl, WgslSource};

pub(crate) const SOURCE: WgslSource = WgslSource(&[wgsl!("heatmap.wgsl")]);

/// `Params` in heatmap.wgsl (its layout checked by tests/wgsl_layouts.rs).
#[repr(C)]
#[derive(Debug, Clone, Copy, Pod, Zeroable)]
pub(crate) struct HeatmapParams {
    pub(crate) rows: u32,
    pub(crate) columns: u32,
    pub(crate) out_width: u32,
    pub(crate) out_height: u32,
    pub(crate) low: f32,
    pub(crate) high: f32,
    pub(crate) colormap: u32,
    pub(crate) _pad: u32,
}

/// The colour map the fragment shader applies (`Params.colormap`; [`shader_source`] writes
/// `VIRIDIS_MAP` from it): the CPU twins are `math::colormap::{diverging_rgba, sequential_rgba}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Colormap {
    /// Blue–white–red over [low, high] (signed values: P, Gram matrices, scores).
    #[default]
    Diverging = 0,
    /// Viridis over [low, high] (attention weights in [0, 1]).
    Viridis = 1,
}

/// What to draw and how large.
#[derive(Debug, Clone, Copy)]
pub struct HeatmapView {
    pub rows: u32,
    pub columns: u32,
    pub out_width: u32,
    pub out_height: u32,
    pub low: f32,
    pub high: f32,
    pub colormap: Colormap,
}

/// heatmap.wgsl after the constants it reads: the colour maps' stops from the CPU twin's tables
/// (so that they are written once, in pe_lab_math::colormap) and the colour map's number.
pub fn shader_source() -> String {
    let mut out = String::new();
    for (name, stops) in [
        ("DIVERGING", &DIVERGING_STOPS[..]),
        ("VIRIDIS", &VIRIDIS_STOPS[..]),
    ] {
        let count = stops.len();
        let _ = writeln!(out, "const {name}_SEGMENTS: u32 = {}u;", count - 1);
        let _ = write!(
            out,
            "var<private> {name}: array<vec3<f32>, {count}> = array<vec3<f32>, {count}>("
        );
        for [r, g, b] in stops {
            let _ = write!(out, "vec3<f32>({r}.0, {g}.0, {b}.0), ");
        }
        out.push_str(");\n");
    }
    let _ = writeln!(
        out,
        "const VIRIDIS_MAP: u32 = {}u;",
        Colormap::Viridis as u32
    );
    out.push_str(&SOURCE.text());
    out
}

/// A render pipeline for one target format; the uniform buffer is rewritten for each draw.
pub struct HeatmapRenderer {
    pipeline: wgpu::RenderPipeline,
    layout: wgpu::BindGroupLayout,
    params: wgpu::Buffer,
}

impl HeatmapRenderer {
    pub fn new(device: &wgpu::Device, format: wgpu::TextureFormat) -> Self {
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("heatmap.wgsl"),
            source: wgpu::ShaderSource::Wgsl(shader_source().into()),
        });
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("heatmap bind group layout"),
            entries: &[
                wgpu::BindGroupLayoutEntry {
                    binding: 0,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Uniform,
                        has_dynamic_offset: false,
                        min_binding_size: None,
                    },
                    count: None,
                },
                wgpu::BindGroupLayoutEntry {
                    binding: 1,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Storage { read_only: true },
                        has_dynamic_offset: false,
                        min_binding_size: None,
                    },
                    count: None,
                },
            ],
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("heatmap pipeline layout"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("heatmap pipeline"),
            layout: Some(&pipeline_layout),
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("vs_main"),
                compilation_options: Default::default(),
                buffers: &[],
            },
            primitive: wgpu::PrimitiveState::default(),
            depth_stencil: None,
            multisample: wgpu::MultisampleState::default(),
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some("fs_main"),
                compilation_options: Default::default(),
                targets: &[Some(wgpu::ColorTargetState {
                    format,
                    blend: None,
                    write_mask: wgpu::ColorWrites::ALL,
                })],
            }),
            multiview_mask: None,
            cache: None,
        });
        let params = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("heatmap params"),
            contents: bytemuck::bytes_of(&HeatmapParams::zeroed()),
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        });
        HeatmapRenderer {
            pipeline,
            layout,
            params,
        }
    }

    /// Records the draw of `cells` (rows × columns, row-major f32) into `target` (out_width ×
    /// out_height) and submits it.
    pub fn draw(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        target: &wgpu::TextureView,
        cells: &wgpu::Buffer,
        view: HeatmapView,
    ) {
        let params = HeatmapParams {
            rows: view.rows.max(1),
            columns: view.columns.max(1),
            out_width: view.out_width.max(1),
            out_height: view.out_height.max(1),
            low: view.low,
            high: view.high,
            colormap: view.colormap as u32,
            _pad: 0,
        };
        queue.write_buffer(&self.params, 0, bytemuck::bytes_of(&params));
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("heatmap bind group"),
            layout: &self.layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: self.params.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: cells.as_entire_binding(),
                },
            ],
        });
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("heatmap draw"),
        });
        {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("heatmap pass"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: target,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color::WHITE),
                        store: wgpu::StoreOp::Store,
                    },
                })],
                depth_stencil_attachment: None,
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            pass.set_pipeline(&self.pipeline);
            pass.set_bind_group(0, &bind_group, &[]);
            pass.draw(0..3, 0..1);
        }
        queue.submit([encoder.finish()]);
    }
}
