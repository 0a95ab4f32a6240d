//! The offscreen WebGPU canvases the heatmap render pass draws into: P's heatmap and the panels'
//! heatmaps are rendered there, then painted inside their axes on a 2D canvas.

use wasm_bindgen::JsCast;
use web_sys::HtmlCanvasElement;

use crate::gpu::heatmap::{Colormap, HeatmapRenderer, HeatmapView};
use crate::gpu::GpuContext;
use crate::model::plot::PixelRect;
use crate::web::dom;
use crate::web::draw::heatmap::paint_canvas;
use crate::web::error::WebError;
use crate::web::surface;
/// An offscreen WebGPU canvas a panel heatmap is rendered into before being drawn inside its axes.
pub(super) struct PanelSurface {
    canvas: HtmlCanvasElement,
    pub(super) surface: wgpu::Surface<'static>,
    size: (u32, u32),
}

impl PanelSurface {
    /// A canvas (not in the document) with a WebGPU surface.
    pub(super) fn new(instance: &wgpu::Instance) -> Result<Self, WebError> {
        let canvas: HtmlCanvasElement = dom::document()?
            .create_element("canvas")?
            .dyn_into()
            .map_err(|_| WebError::Js("could not create a canvas".into()))?;
        canvas.set_width(1);
        canvas.set_height(1);
        let surface = instance
            .create_surface(wgpu::SurfaceTarget::Canvas(canvas.clone()))
            .map_err(|e| WebError::Gpu(format!("no WebGPU canvas context: {e}")))?;
        Ok(PanelSurface {
            canvas,
            surface,
            size: (0, 0),
        })
    }

    /// Renders `cells` with the heatmap render pass into this canvas (resized to `rect`), then
    /// draws the canvas into `rect` of the 2D canvas `target`, inside its axes.
    #[allow(clippy::too_many_arguments)] // what to draw, with what, and where
    pub(super) fn draw(
        &mut self,
        ctx: &GpuContext,
        renderer: &HeatmapRenderer,
        format: wgpu::TextureFormat,
        cells: &wgpu::Buffer,
        (rows, columns): (usize, usize),
        (low, high, colormap): (f32, f32, Colormap),
        rect: PixelRect,
        target: &HtmlCanvasElement,
    ) -> Result<(), WebError> {
        // Rendered at the target's device pixels (it is drawn into `rect`, in logical pixels,
        // through the target's transform), so that cell edges stay sharp at any pixel ratio.
        let device = surface::device_rect(target, rect);
        let (width, height) = (
            device.width().max(1.0) as u32,
            device.height().max(1.0) as u32,
        );
        if self.size != (width, height) {
            self.canvas.set_width(width);
            self.canvas.set_height(height);
            self.surface.configure(
                &ctx.device,
                &wgpu::SurfaceConfiguration {
                    usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
                    format,
                    width,
                    height,
                    present_mode: wgpu::PresentMode::Fifo,
                    desired_maximum_frame_latency: 2,
                    alpha_mode: wgpu::CompositeAlphaMode::Auto,
                    view_formats: vec![],
                    color_space: Default::default(),
                },
            );
            self.size = (width, height);
        }
        let frame = match self.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(frame)
            | wgpu::CurrentSurfaceTexture::Suboptimal(frame) => frame,
            other => return Err(WebError::Gpu(format!("no canvas texture: {other:?}"))),
        };
        let view = frame
            .texture
            .create_view(&wgpu::TextureViewDescriptor::default());
        renderer.draw(
            &ctx.device,
            &ctx.queue,
            &view,
            cells,
            HeatmapView {
                rows: rows as u32,
                columns: columns as u32,
                out_width: width,
                out_height: height,
                low,
                high,
                colormap,
            },
        );
        ctx.queue.present(frame);
        paint_canvas(target, &self.canvas, rect)
    }
}
