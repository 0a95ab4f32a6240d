//! The WebGPU backend of the page: one long-lived [`GpuContext`] (device, queue, kernels and their
//! buffers), a WebGPU canvas the heatmap render pass draws into, and the small read-backs a frame
//! needs (the gathered columns, the reductions, a hovered value). P itself never leaves the GPU.

mod adapter_label;
mod panel_surface;

use ndarray::{Array2, ArrayView2, Ix2};
use web_sys::HtmlCanvasElement;

use super::backend::{FrameData, FrameRequest, LocalFuture, TextbookFrame};
use super::dom::{self, now_ms};
use super::error::WebError;
use crate::gpu::attention::AttentionShape;
use crate::gpu::heatmap::{Colormap, HeatmapRenderer};
use crate::gpu::stats::read_totals;
use crate::gpu::{
    read_f32, AlibiScoresKernel, EncodingKernel, GpuContext, Kernel, QkKernel, RopeScoresKernel,
};
use crate::model::plot::PixelRect;
use crate::model::present::PSource;
use crate::model::status::is_software_adapter;
use adapter_label::browser_adapter_label;
use panel_surface::PanelSurface;

pub struct GpuBackend {
    context: GpuContext,
    /// The WebGPU instance: it keeps the surfaces valid and makes the panel surfaces.
    instance: wgpu::Instance,
    surface_format: wgpu::TextureFormat,
    /// What the browser says of its adapter (wgpu's own name is empty on WebGPU).
    adapter_label: String,
    /// The WebGPU canvas of P's heatmap.
    heatmap_surface: PanelSurface,
    renderer: HeatmapRenderer,
    /// The offscreen WebGPU canvas the panel heatmaps (the similarity panel's Gram matrix, the
    /// RoPE scores, the ALiBi weights) are rendered into, created on first use.
    gram_surface: Option<PanelSurface>,
    /// The RoPE scores and ALiBi weights kernels, built when their panels first need them (two
    /// shaders fewer to compile at start-up).
    rope_scores: Option<RopeScoresKernel>,
    alibi_scores: Option<AlibiScoresKernel>,
    /// A second encoding kernel for the complexity panel's timing, whose n and d are its own: the
    /// page's P (hovered, drawn) stays untouched.
    measure_encoding: Option<EncodingKernel>,
}

impl GpuBackend {
    /// Requests an adapter and a device and builds every pipeline. `on_failure` is called from
    /// wgpu's callbacks when the device is lost or reports an uncaptured error (a plain `fn`: the
    /// callbacks must be `Send`, so it may only defer the work, e.g. with `spawn_local`).
    pub async fn new(on_failure: fn(String)) -> Result<GpuBackend, WebError> {
        let has_webgpu = dom::window()
            .ok()
            .and_then(|w| js_sys::Reflect::get(&w.navigator(), &"gpu".into()).ok())
            .is_some_and(|gpu| !gpu.is_undefined() && !gpu.is_null());
        if !has_webgpu {
            return Err(WebError::Gpu(crate::message!("status-gpu-no-webgpu")));
        }
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
            backends: wgpu::Backends::BROWSER_WEBGPU,
            ..wgpu::InstanceDescriptor::new_without_display_handle()
        });
        let heatmap_surface = PanelSurface::new(&instance)?;
        let adapter = instance
            .request_adapter(&wgpu::RequestAdapterOptions {
                power_preference: wgpu::PowerPreference::HighPerformance,
                compatible_surface: Some(&heatmap_surface.surface),
                ..Default::default()
            })
            .await
            .map_err(|e| {
                WebError::Gpu(crate::message!(
                    "status-gpu-no-adapter",
                    error = e.to_string()
                ))
            })?;
        let context = GpuContext::from_adapter(&adapter, wgpu::Features::empty()).await?;
        let capabilities = heatmap_surface.surface.get_capabilities(&adapter);
        // A non-sRGB format: the shader writes the colour map's bytes as they are, like the CPU.
        let surface_format = capabilities
            .formats
            .iter()
            .copied()
            .find(|f| !f.is_srgb())
            .or_else(|| capabilities.formats.first().copied())
            .ok_or_else(|| WebError::Gpu(crate::message!("status-gpu-no-canvas-format")))?;
        let renderer = HeatmapRenderer::new(&context.device, surface_format);

        context
            .device
            .set_device_lost_callback(move |reason, message| {
                on_failure(crate::message!(
                    "status-gpu-device-lost",
                    reason = format!("{reason:?}"),
                    message = message,
                ));
            });
        context
            .device
            .on_uncaptured_error(std::sync::Arc::new(move |error: wgpu::Error| {
                on_failure(crate::message!(
                    "status-gpu-error",
                    error = error.to_string()
                ));
            }));
        let adapter_label = browser_adapter_label().await.unwrap_or_default();
        Ok(GpuBackend {
            adapter_label,
            context,
            instance,
            surface_format,
            heatmap_surface,
            renderer,
            gram_surface: None,
            rope_scores: None,
            alibi_scores: None,
            measure_encoding: None,
        })
    }

    /// Whether the adapter is a software rasteriser (see `model::status::is_software_adapter`).
    pub fn is_software(&self) -> bool {
        is_software_adapter(
            &self.adapter_name(),
            self.context.adapter_info.device_type == wgpu::DeviceType::Cpu,
        )
    }

    pub fn adapter_name(&self) -> String {
        let info = &self.context.adapter_info;
        if !self.adapter_label.is_empty() {
            self.adapter_label.clone()
        } else if info.name.is_empty() {
            format!("{:?} adapter", info.device_type)
        } else {
            info.name.clone()
        }
    }

    /// Computes P, draws its heatmap into the request's `rect` of its `heatmap`, and starts the
    /// read-backs that [`FrameData`] needs; the returned future resolves when they arrive.
    pub fn start_frame(
        &mut self,
        request: FrameRequest<'_>,
    ) -> Result<LocalFuture<Result<FrameData, WebError>>, WebError> {
        let started = now_ms();
        let (params, gathered_columns) = (request.params, request.gathered_columns);
        let (rect, heatmap) = (request.rect, request.heatmap);
        let (n, d, base, delta) = (params.n, params.d, params.base, params.delta);
        let ctx = &mut self.context;
        let p = ctx
            .encoding
            .run(&ctx.device, &ctx.queue, (params.first_position, n, d, base))?
            .clone();

        self.heatmap_surface.draw(
            ctx,
            &self.renderer,
            self.surface_format,
            &p,
            (n, d),
            (-1.0, 1.0, Colormap::Diverging),
            rect,
            heatmap,
        )?;

        ctx.stats
            .run(&ctx.device, &ctx.queue, (&p, n, d, base, delta))?;
        // `?textbook=1`: the heatmap stays the GPU's exact P; the curves, the projection pair and
        // its error come from the textbook float32 P, computed here on the CPU (the GPU's gather
        // is then not needed).
        let textbook = if params.textbook {
            Some(TextbookFrame::new(params, gathered_columns)?)
        } else {
            None
        };
        let gathered = if textbook.is_none() {
            Some(
                ctx.columns
                    .run(&ctx.device, &ctx.queue, (&p, n, d, gathered_columns))?
                    .clone(),
            )
        } else {
            None
        };
        let totals = ctx.stats.totals().clone();
        let (device, queue) = (ctx.device.clone(), ctx.queue.clone());
        let k = gathered_columns.len();
        let compute_ms = now_ms() - started;
        Ok(Box::pin(async move {
            let stats = read_totals(&device, &queue, &totals).await?;
            if let Some(textbook) = textbook {
                return Ok(FrameData {
                    gathered: textbook.gathered,
                    max_projection_error: textbook.max_projection_error,
                    p_min: stats.min,
                    p_max: stats.max,
                    compute_ms,
                    encoding: None,
                    source: PSource::new(true, true),
                    textbook_angle_error: textbook.angle_error,
                    heatmap_waiting: Default::default(),
                });
            }
            let values = match gathered {
                Some(gathered) if k > 0 => {
                    read_f32(&device, &queue, &gathered, 0, (k * n) as u64).await?
                }
                _ => Vec::new(),
            };
            // The gather kernel writes column after column (k × n): transpose to n × k.
            let by_column = Array2::from_shape_vec((k, n), values)
                .map_err(|e| WebError::Gpu(format!("read-back of the wrong size: {e}")))?;
            Ok(FrameData {
                gathered: by_column.reversed_axes().as_standard_layout().into_owned(),
                max_projection_error: stats.max_projection_error as f64,
                p_min: stats.min,
                p_max: stats.max,
                compute_ms,
                encoding: None,
                source: PSource::Exact,
                textbook_angle_error: 0.0,
                heatmap_waiting: Default::default(),
            })
        }))
    }

    /// Reads one element of P (row-major index) back from the GPU.
    pub fn read_value(&self, index: usize) -> LocalFuture<Result<f32, WebError>> {
        let read = self.read_range(index, 1);
        Box::pin(async move {
            read.await?
                .first()
                .copied()
                .ok_or_else(|| WebError::Gpu("empty read-back".into()))
        })
    }

    /// Reads `len` elements of P (row-major) from `offset` back from the GPU: one value for
    /// hovering, all of P for a CSV export (a user's request, never per frame).
    pub fn read_range(&self, offset: usize, len: usize) -> LocalFuture<Result<Vec<f32>, WebError>> {
        let ctx = &self.context;
        let (device, queue) = (ctx.device.clone(), ctx.queue.clone());
        let buffer = ctx.encoding.buffer().cloned();
        Box::pin(async move {
            let buffer =
                buffer.ok_or_else(|| WebError::Gpu("P has not been computed yet".into()))?;
            Ok(read_f32(&device, &queue, &buffer, offset as u64, len as u64).await?)
        })
    }

    /// The similarity panel's heatmap: G = P·Pᵀ of the first `rows` rows of the page's P (computed
    /// by the last frame) by the Gram kernel, drawn by the heatmap render pass on the diverging map
    /// over [−range, range] into `rect` of `target`. Nothing is read back.
    pub fn draw_gram(
        &mut self,
        rows: usize,
        range: f32,
        rect: PixelRect,
        target: &HtmlCanvasElement,
    ) -> Result<(), WebError> {
        let ctx = &mut self.context;
        let (p, (n, d)) = match (ctx.encoding.buffer(), ctx.encoding.shape()) {
            (Some(p), Some(shape)) => (p.clone(), shape),
            _ => return Err(WebError::Gpu("P has not been computed yet".into())),
        };
        if rows == 0 || rows > n {
            return Err(WebError::Gpu(format!(
                "the Gram matrix of {rows} rows needs P with at least that many (it has {n})"
            )));
        }
        let gram = ctx
            .gram
            .run(&ctx.device, &ctx.queue, (&p, rows, d))?
            .clone();
        self.render_panel(
            &gram,
            (rows, rows),
            (-range, range, Colormap::Diverging),
            rect,
            target,
        )
    }

    /// The RoPE panel's score heatmap: S = (R_i q_i)·(R_j k_j)/√d of `q`, `k` (n × d) by the RoPE
    /// kernel, drawn by the heatmap render pass on the diverging map over [−range, range] into
    /// `rect` of `target`. Nothing is read back.
    pub fn draw_rope_scores(
        &mut self,
        (q, k): (ArrayView2<f32>, ArrayView2<f32>),
        base: f64,
        range: f32,
        rect: PixelRect,
        target: &HtmlCanvasElement,
    ) -> Result<(), WebError> {
        let n = q.nrows();
        let scores = run_square(
            &self.context,
            &mut self.rope_scores,
            RopeScoresKernel::new,
            (q, k),
            base,
        )?;
        self.render_panel(
            &scores,
            (n, n),
            (-range, range, Colormap::Diverging),
            rect,
            target,
        )
    }

    /// The ALiBi panel's weight heatmap: the causal softmax of q_i·k_j/√d + slope·(j − i) by the
    /// ALiBi kernel, drawn on viridis over [0, 1] (the attention panels' map of weights) into
    /// `rect`.
    pub fn draw_alibi_weights(
        &mut self,
        (q, k): (ArrayView2<f32>, ArrayView2<f32>),
        slope: f32,
        rect: PixelRect,
        target: &HtmlCanvasElement,
    ) -> Result<(), WebError> {
        let n = q.nrows();
        let weights = run_square(
            &self.context,
            &mut self.alibi_scores,
            AlibiScoresKernel::new,
            (q, k),
            slope,
        )?;
        self.render_panel(
            &weights,
            (n, n),
            (0.0, 1.0, Colormap::Viridis),
            rect,
            target,
        )
    }

    /// Renders `cells` (rows × columns f32) with the heatmap render pass into the panel's own
    /// offscreen canvas, then draws that canvas into `rect` of `target`.
    fn render_panel(
        &mut self,
        cells: &wgpu::Buffer,
        (rows, columns): (usize, usize),
        range: (f32, f32, Colormap),
        rect: PixelRect,
        target: &HtmlCanvasElement,
    ) -> Result<(), WebError> {
        if self.gram_surface.is_none() {
            self.gram_surface = Some(PanelSurface::new(&self.instance)?);
        }
        let Some(panel) = self.gram_surface.as_mut() else {
            return Err(WebError::Gpu("no panel surface".into()));
        };
        panel.draw(
            &self.context,
            &self.renderer,
            self.surface_format,
            cells,
            (rows, columns),
            range,
            rect,
            target,
        )
    }

    /// First step of the complexity panel's timing: P (n × d) into the measuring kernel's own
    /// buffer; the future resolves once it is on the GPU, so that the timed step excludes it.
    pub fn prepare_measurement(
        &mut self,
        n: usize,
        d: usize,
        base: f64,
    ) -> Result<LocalFuture<Result<(), WebError>>, WebError> {
        let ctx = &self.context;
        let kernel = self
            .measure_encoding
            .get_or_insert_with(|| EncodingKernel::new(&ctx.device));
        let p = kernel
            .run(&ctx.device, &ctx.queue, (0, n, d, base))?
            .clone();
        let (device, queue) = (ctx.device.clone(), ctx.queue.clone());
        Ok(Box::pin(async move {
            read_f32(&device, &queue, &p, 0, 1).await?;
            Ok(())
        }))
    }

    /// Second step: submits the attention kernel on that P (Q = K = P, one head, no mask) and
    /// reads one weight back; the future resolves with the wall-clock milliseconds from just before
    /// the submit to the arrival of that value.
    pub fn time_attention(
        &mut self,
        n: usize,
        d: usize,
    ) -> Result<LocalFuture<Result<f64, WebError>>, WebError> {
        let ctx = &mut self.context;
        let p = self
            .measure_encoding
            .as_ref()
            .filter(|kernel| kernel.shape() == Some((n, d)))
            .and_then(|kernel| kernel.buffer())
            .cloned()
            .ok_or_else(|| WebError::Gpu("P for the measurement is missing".into()))?;
        let started = now_ms();
        let weights = ctx
            .attention
            .run(
                &ctx.device,
                &ctx.queue,
                (&p, &p, AttentionShape::one_head(n, d), &[n]),
            )?
            .clone();
        let (device, queue) = (ctx.device.clone(), ctx.queue.clone());
        Ok(Box::pin(async move {
            read_f32(&device, &queue, &weights, 0, 1).await?;
            Ok(now_ms() - started)
        }))
    }

    /// Runs `done` once the GPU has run everything submitted so far (also when the device is
    /// lost: wgpu calls it on a failed promise too).
    pub fn when_queue_done(&self, done: impl FnOnce() + Send + 'static) {
        self.context.queue.on_submitted_work_done(done);
    }

    /// For the tests of the fallback: destroys the device as a driver reset would.
    pub fn destroy_device(&self) {
        self.context.device.destroy();
    }
}

/// The n × n output of a square score kernel (`kernel`, made by `new` on first use: the RoPE
/// scores or the ALiBi weights) of Q and K (n × d) from the host.
fn run_square<K: QkKernel<'static, Dim = Ix2>>(
    context: &GpuContext,
    kernel: &mut Option<K>,
    new: fn(&wgpu::Device) -> K,
    (q, k): (ArrayView2<f32>, ArrayView2<f32>),
    extra: K::Extra,
) -> Result<wgpu::Buffer, WebError> {
    let kernel = kernel.get_or_insert_with(|| new(&context.device));
    Ok(kernel
        .run_host(&context.device, &context.queue, q, k, extra)?
        .clone())
}
