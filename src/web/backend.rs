//! Where P is computed and drawn: the CPU path (Rust → WebAssembly, `math`) or WebGPU (`gpu`).
//! [`Backend`] gives both the same methods; nothing outside this file asks which one is in use.
//! Chosen once at start-up (`?compute=auto|gpu|cpu`); any GPU failure switches to the CPU for the
//! rest of the session.

use std::future::Future;
use std::pin::Pin;

use ndarray::{Array2, Axis};
use web_sys::HtmlCanvasElement;

use super::dom::now_ms;
use super::draw::heatmap::paint_diverging;
use super::error::WebError;
use super::gpu_backend::GpuBackend;
use crate::math::attention::weights;
use crate::math::colormap::value_range;
use crate::math::encoding::{
    textbook_angle_error, try_sinusoidal, try_sinusoidal_from, try_textbook_sinusoidal_from,
};
use crate::math::measures::{cpu_can_measure, CPU_MEASURE_BUDGET};
use crate::math::relative::projection_error_of;
use crate::model::params::{Limits, Params, CPU_LIMITS, GPU_LIMITS};
use crate::model::plot::PixelRect;
use crate::model::present::PSource;

pub type LocalFuture<T> = Pin<Box<dyn Future<Output = T>>>;

/// The numbers of P that the panels need: a few gathered columns and the reductions (on WebGPU
/// the only values read back per frame), and P itself on the CPU path.
pub struct FrameData {
    /// n × k: column k is P[:, gathered_columns[k]] (the curves' columns, then 2j and 2j+1).
    pub gathered: Array2<f32>,
    pub max_projection_error: f64,
    pub p_min: f32,
    pub p_max: f32,
    /// Time spent computing P and painting its cells.
    pub compute_ms: f64,
    /// P (n × d) on the CPU path; `None` on WebGPU, where P stays on the GPU.
    pub encoding: Option<Array2<f32>>,
    /// Which P the heatmap and the gathered columns (and the projection error) are of: with
    /// `?textbook=1` the textbook float32 P, on WebGPU beside the GPU's exact heatmap.
    pub source: PSource,
    /// With `?textbook=1`: the largest error of the textbook P's float32 angles (rad); else 0.
    pub textbook_angle_error: f64,
    /// On the CPU path, whether P's cells still wait to be painted on the heatmap: a frame
    /// leaves them while the heatmap is off screen, and the heatmap panel paints them when it
    /// is drawn (`Backend::paint_waiting_heatmap`).
    pub heatmap_waiting: std::cell::Cell<bool>,
}

impl FrameData {
    /// Before the first frame.
    pub fn empty() -> Self {
        FrameData {
            gathered: Array2::zeros((0, 0)),
            max_projection_error: 0.0,
            p_min: 0.0,
            p_max: 0.0,
            compute_ms: 0.0,
            encoding: None,
            source: PSource::Exact,
            textbook_angle_error: 0.0,
            heatmap_waiting: std::cell::Cell::new(false),
        }
    }
}

/// The textbook float32 P of `params` (`?textbook=1`), with its gathered columns, its projection
/// error and the largest error of its angles: what the CPU path shows, and what WebGPU computes on
/// the CPU beside its exact heatmap.
pub struct TextbookFrame {
    pub encoding: Array2<f32>,
    pub gathered: Array2<f32>,
    pub max_projection_error: f64,
    pub angle_error: f64,
}

impl TextbookFrame {
    pub fn new(params: &Params, gathered_columns: &[usize]) -> Result<Self, WebError> {
        let (first, n, d, base) = (params.first_position, params.n, params.d, params.base);
        let encoding = try_textbook_sinusoidal_from(first, n, d, base)?;
        Ok(TextbookFrame {
            gathered: encoding.select(Axis(1), gathered_columns),
            max_projection_error: projection_error_of(encoding.view(), base, params.delta),
            angle_error: textbook_angle_error(first, n, d, base),
            encoding,
        })
    }
}

/// A frame's data: at once (CPU) or after the GPU's read-backs.
pub enum FrameResult {
    Ready(FrameData),
    Pending(LocalFuture<Result<FrameData, WebError>>),
}

/// How long the CPU timing runs in all at least (ms), and at most how many runs it makes.
const CPU_TIMED_MS: f64 = 2.0;
const CPU_MAX_RUNS: usize = 10_000;

/// The outcome of a request to time the attention kernel.
pub enum Timing {
    /// Milliseconds per run (the mean of `runs` back-to-back runs), measured at once (CPU).
    Done { ms: f64, runs: usize },
    /// Why no time can be given at this size.
    Refused(String),
    /// The GPU's answer, later.
    Pending(LocalFuture<Result<f64, WebError>>),
}

/// What a frame of P is asked for: the parameters, the columns the curves gather, and the
/// rectangle of the heatmap canvas its cells go into.
#[derive(Clone, Copy)]
pub struct FrameRequest<'a> {
    pub params: &'a Params,
    pub gathered_columns: &'a [usize],
    pub rect: PixelRect,
    pub heatmap: &'a HtmlCanvasElement,
}

/// The compute backend in use.
pub struct Backend {
    kind: Kind,
    /// Why this backend was chosen, for the badge.
    reason: String,
}

enum Kind {
    Cpu,
    Gpu(Box<GpuBackend>),
}

impl Backend {
    pub fn cpu(reason: &str) -> Backend {
        Backend {
            kind: Kind::Cpu,
            reason: reason.to_string(),
        }
    }

    pub fn gpu(gpu: GpuBackend, reason: &str) -> Backend {
        Backend {
            kind: Kind::Gpu(Box::new(gpu)),
            reason: reason.to_string(),
        }
    }

    /// `"cpu"` or `"webgpu"` (`peLab.backend`).
    pub fn name(&self) -> &'static str {
        match self.kind {
            Kind::Cpu => "cpu",
            Kind::Gpu(_) => "webgpu",
        }
    }

    pub fn is_gpu(&self) -> bool {
        matches!(self.kind, Kind::Gpu(_))
    }

    /// The WebGPU adapter's name, or why the CPU path is in use.
    pub fn adapter(&self) -> String {
        match &self.kind {
            Kind::Gpu(gpu) => gpu.adapter_name(),
            Kind::Cpu => self.reason.clone(),
        }
    }

    /// The compute badge's text.
    pub fn badge(&self) -> String {
        match &self.kind {
            Kind::Gpu(gpu) => crate::model::status::backend_badge(Some(&gpu.adapter_name()), ""),
            Kind::Cpu => crate::model::status::backend_badge(None, &self.reason),
        }
    }

    /// The largest n and d this backend draws live.
    pub fn limits(&self) -> Limits {
        match self.kind {
            Kind::Cpu => CPU_LIMITS,
            Kind::Gpu(_) => GPU_LIMITS,
        }
    }

    /// Computes P, paints its cells into `rect` of `heatmap`, and gathers `gathered_columns` and
    /// the reductions.
    /// `scratch` is the canvas the CPU path paints through; it paints only when `paint` (WebGPU
    /// always draws).
    pub fn start_frame(
        &mut self,
        request: FrameRequest<'_>,
        scratch: &HtmlCanvasElement,
        paint: bool,
    ) -> Result<FrameResult, WebError> {
        match &mut self.kind {
            Kind::Cpu => cpu_frame(request, paint.then_some(scratch)).map(FrameResult::Ready),
            Kind::Gpu(gpu) => gpu.start_frame(request).map(FrameResult::Pending),
        }
    }

    /// One value of P (row-major index): from `frame` on the CPU, read back on WebGPU.
    pub fn read_value(
        &self,
        frame: &FrameData,
        index: usize,
    ) -> LocalFuture<Result<f32, WebError>> {
        match &self.kind {
            Kind::Cpu => {
                let value = frame
                    .encoding
                    .as_ref()
                    .and_then(|p| p.as_slice()?.get(index).copied())
                    .ok_or_else(|| WebError::Js(format!("no element {index} of P")));
                Box::pin(async move { value })
            }
            Kind::Gpu(gpu) => gpu.read_value(index),
        }
    }

    /// All of P (n × d), for the CSV export: a user's request, never per frame.
    pub fn read_encoding(
        &self,
        frame: &FrameData,
        n: usize,
        d: usize,
    ) -> LocalFuture<Result<Array2<f32>, WebError>> {
        match &self.kind {
            Kind::Cpu => {
                let p = frame
                    .encoding
                    .clone()
                    .ok_or_else(|| WebError::NotReady("P has not been computed yet".into()));
                Box::pin(async move { p })
            }
            Kind::Gpu(gpu) => {
                let read = gpu.read_range(0, n * d);
                Box::pin(async move {
                    Array2::from_shape_vec((n, d), read.await?)
                        .map_err(|e| WebError::Gpu(format!("read-back of the wrong size: {e}")))
                })
            }
        }
    }

    /// `draw` on WebGPU (`Ok(true)` once drawn); `Ok(false)` on the CPU, where the panel draws
    /// with the CPU twin. The panels' kernels drawn straight into their canvas (the Gram matrix,
    /// the RoPE scores, ALiBi's weights) go through here.
    pub fn draw_on_gpu(
        &mut self,
        draw: impl FnOnce(&mut GpuBackend) -> Result<(), WebError>,
    ) -> Result<bool, WebError> {
        match &mut self.kind {
            Kind::Cpu => Ok(false),
            Kind::Gpu(gpu) => draw(gpu).map(|()| true),
        }
    }

    /// Starts timing the attention weights softmax(P·Pᵀ/√d) at n × d. On the CPU the time comes
    /// at once (refused above [`CPU_MEASURE_BUDGET`]); on WebGPU this puts P on the GPU, and the
    /// pending future resolves (to infinity, no time yet) when it is there, so that the timed
    /// runs ([`Backend::time_run`]) exclude it.
    pub fn begin_timing(&mut self, n: usize, d: usize, base: f64) -> Timing {
        match &mut self.kind {
            Kind::Cpu => {
                if !cpu_can_measure(n, d) {
                    return Timing::Refused(format!(
                        "too large for the CPU path at this size (n²·d > {:.1e}); the WebGPU path measures it",
                        CPU_MEASURE_BUDGET as f64
                    ));
                }
                match try_sinusoidal(n, d, base) {
                    Ok(p) => {
                        // The browser's clock ticks in 0.1 ms steps (coarser without cross-origin
                        // isolation), and a small size takes less than one tick: repeat the runs
                        // until they last long enough to read, and give the mean of one.
                        let started = now_ms();
                        let mut runs = 0;
                        let elapsed = loop {
                            let w = weights(p.view(), p.view(), None);
                            std::hint::black_box(w[[0, 0]]);
                            runs += 1;
                            let elapsed = now_ms() - started;
                            if elapsed >= CPU_TIMED_MS || runs >= CPU_MAX_RUNS {
                                break elapsed;
                            }
                        };
                        Timing::Done {
                            ms: elapsed / runs as f64,
                            runs,
                        }
                    }
                    Err(error) => Timing::Refused(error.to_string()),
                }
            }
            Kind::Gpu(gpu) => match gpu.prepare_measurement(n, d, base) {
                Ok(prepared) => Timing::Pending(Box::pin(async move {
                    prepared.await?;
                    Ok(f64::INFINITY)
                })),
                Err(error) => Timing::Refused(error.to_string()),
            },
        }
    }

    /// One timed run of the attention kernel on the P that [`Backend::begin_timing`] prepared:
    /// wall clock from just before the submit to the arrival of one weight.
    pub fn time_run(&mut self, n: usize, d: usize) -> Timing {
        match &mut self.kind {
            Kind::Cpu => Timing::Refused("the CPU path times in one step".into()),
            Kind::Gpu(gpu) => match gpu.time_attention(n, d) {
                Ok(run) => Timing::Pending(run),
                Err(error) => Timing::Refused(error.to_string()),
            },
        }
    }

    /// On WebGPU: sends [`Action::GpuQueueDone`]`(check)` once the work submitted so far has run,
    /// and returns `true`. On the CPU there is nothing to wait for: `false`.
    pub fn when_queue_done(&self, check: u32, send: fn(super::action::Action)) -> bool {
        match &self.kind {
            Kind::Gpu(gpu) => {
                gpu.when_queue_done(move || send(super::action::Action::GpuQueueDone(check)));
                true
            }
            Kind::Cpu => false,
        }
    }

    /// For the tests of the fallback: loses the WebGPU device the way a driver reset would.
    /// Returns whether there was a device to lose.
    pub fn simulate_device_loss(&self) -> bool {
        match &self.kind {
            Kind::Gpu(gpu) => {
                gpu.destroy_device();
                true
            }
            Kind::Cpu => false,
        }
    }
}

/// One frame on the CPU: P, its cells painted into the heatmap, the gathered columns and
/// reductions.
fn cpu_frame(
    request: FrameRequest<'_>,
    paint_through: Option<&HtmlCanvasElement>,
) -> Result<FrameData, WebError> {
    let started = now_ms();
    let (params, gathered_columns) = (request.params, request.gathered_columns);
    let (d, n, base) = (params.d, params.n, params.base);
    // `?textbook=1`: the textbook float32 P everywhere (heatmap, curves, projection error).
    let (encoding, gathered, max_projection_error, textbook_angle_error) = if params.textbook {
        let textbook = TextbookFrame::new(params, gathered_columns)?;
        (
            textbook.encoding,
            textbook.gathered,
            textbook.max_projection_error,
            textbook.angle_error,
        )
    } else {
        let encoding = try_sinusoidal_from(params.first_position, n, d, base)?;
        let gathered = encoding.select(Axis(1), gathered_columns);
        let error = projection_error_of(encoding.view(), base, params.delta);
        (encoding, gathered, error, 0.0)
    };
    let values = encoding
        .as_slice()
        .ok_or_else(|| WebError::Js("the encoding matrix is not contiguous".into()))?;
    if let Some(scratch) = paint_through {
        let (heatmap, rect) = (request.heatmap, request.rect);
        paint_diverging(heatmap, scratch, values, (n, d), (-1.0, 1.0), rect)?;
    }
    let (p_min, p_max) = value_range(values);
    Ok(FrameData {
        gathered,
        max_projection_error,
        p_min,
        p_max,
        compute_ms: now_ms() - started,
        encoding: Some(encoding),
        source: PSource::new(params.textbook, false),
        textbook_angle_error,
        heatmap_waiting: std::cell::Cell::new(paint_through.is_none()),
    })
}

/// Paints the CPU frame's P on the heatmap if a frame left it for later (the heatmap was off
/// screen); nothing otherwise, or on WebGPU, where the GPU paints every frame.
pub fn paint_waiting_heatmap(
    frame: &FrameData,
    rect: PixelRect,
    heatmap: &HtmlCanvasElement,
    scratch: &HtmlCanvasElement,
) -> Result<(), WebError> {
    if !frame.heatmap_waiting.get() {
        return Ok(());
    }
    let Some(p) = frame.encoding.as_ref() else {
        return Ok(());
    };
    let values = p
        .as_slice()
        .ok_or_else(|| WebError::Js("the encoding matrix is not contiguous".into()))?;
    paint_diverging(heatmap, scratch, values, p.dim(), (-1.0, 1.0), rect)?;
    frame.heatmap_waiting.set(false);
    Ok(())
}
