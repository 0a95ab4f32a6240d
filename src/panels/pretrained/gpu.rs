//! The pretrained module's WebGPU path, taken when the page computes on WebGPU (`compute=gpu`,
//! or `auto` on a device that has it): a device of the module's own (the page's is in another
//! wasm module), the encoder's tensors uploaded once (`pe_lab_gpu::minilm`, whose CPU twin the
//! CPU path runs), then one job per sentence that runs its four forward passes and wakes the
//! page. Any failure (no adapter, a lost device, a shader the browser rejects) is said once and
//! the CPU path runs instead, with the same numbers to within float32 rounding.

use std::cell::RefCell;
use std::rc::Rc;

use ndarray::{Array2, Array4};
use pe_lab_gpu::{browser_adapter, plain_message, request_device, DeviceFailure, MiniLmKernel};

use super::loading::{wake, Host, Shared, Stage};
use crate::web::dom::now_ms;

/// The module's device and the encoder on it.
pub(super) struct GpuEncoder {
    device: wgpu::Device,
    queue: wgpu::Queue,
    kernel: MiniLmKernel,
    /// What wgpu's callbacks report when the device is lost or raises an error.
    failure: DeviceFailure,
}

/// Where the WebGPU path stands.
pub(super) enum GpuStage {
    /// Not asked for yet (the page computes on the CPU).
    Off,
    Starting,
    Ready(Rc<GpuEncoder>),
    /// Why WebGPU could not run the model: the CPU path runs it instead.
    Failed(String),
}

/// The embeddings' sums of one sentence's four runs, made on the CPU (the word rows are there),
/// in the order [`GpuRuns`] returns them.
pub(super) struct GpuJob {
    pub(super) ids: Vec<u32>,
    pub(super) first_table: bool,
    /// The shown table's run, then the other table's.
    pub(super) first: Array2<f32>,
    pub(super) other: Array2<f32>,
    /// The reversed words without the table and with it, when reversing moves a token.
    pub(super) reversed: Option<(Array2<f32>, Array2<f32>)>,
}

/// A sentence's four runs on the GPU.
pub(super) struct GpuRuns {
    pub(super) ids: Vec<u32>,
    pub(super) first_table: bool,
    pub(super) first: Array4<f32>,
    pub(super) other: Array4<f32>,
    pub(super) reversed: Option<(Array4<f32>, Array4<f32>)>,
    /// The shown run's time, and all four's.
    pub(super) first_ms: f64,
    pub(super) ms: f64,
}

/// Requests the device and uploads the model's tensors; the page is woken when the encoder is
/// ready or failed.
pub(super) fn start_gpu(host: Rc<Host>, shared: Rc<RefCell<Shared>>) {
    shared.borrow_mut().gpu = GpuStage::Starting;
    wasm_bindgen_futures::spawn_local(async move {
        let started = start(&shared).await;
        shared.borrow_mut().gpu = match started {
            Ok(encoder) => GpuStage::Ready(Rc::new(encoder)),
            Err(error) => GpuStage::Failed(plain_message(&error)),
        };
        wake(&host, &shared, true);
    });
}

async fn start(shared: &RefCell<Shared>) -> Result<GpuEncoder, String> {
    let adapter = browser_adapter().await.map_err(|error| error.to_string())?;
    let (device, queue) = request_device(&adapter, wgpu::Features::empty())
        .await
        .map_err(|error| error.to_string())?;
    let failure = DeviceFailure::watch(&device);
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let kernel = {
        // The model is borrowed for the upload alone, which is synchronous: never across an await.
        let shared = shared.borrow();
        let Stage::Ready(model) = &shared.stage else {
            return Err("the model is not loaded".into());
        };
        MiniLmKernel::new(&device, &model.model).map_err(|error| error.to_string())?
    };
    if let Some(error) = scope.pop().await {
        return Err(error.to_string());
    }
    Ok(GpuEncoder {
        device,
        queue,
        kernel,
        failure,
    })
}

/// Runs `job` on `encoder`; the page is woken when its runs are in (`shared.gpu_runs`) or the
/// GPU failed (`shared.gpu`, and the CPU path takes over).
pub(super) fn start_runs(
    host: Rc<Host>,
    shared: Rc<RefCell<Shared>>,
    encoder: Rc<GpuEncoder>,
    job: GpuJob,
) {
    shared.borrow_mut().gpu_running = true;
    wasm_bindgen_futures::spawn_local(async move {
        let runs = run(&encoder, job).await;
        {
            let mut shared = shared.borrow_mut();
            shared.gpu_running = false;
            match runs {
                Ok(runs) => shared.gpu_runs = Some(runs),
                Err(error) => shared.gpu = GpuStage::Failed(plain_message(&error)),
            }
        }
        wake(&host, &shared, true);
    });
}

async fn run(encoder: &GpuEncoder, job: GpuJob) -> Result<GpuRuns, String> {
    let start = now_ms();
    let scope = encoder
        .device
        .push_error_scope(wgpu::ErrorFilter::Validation);
    let forward = |embeddings: Array2<f32>| async {
        encoder
            .kernel
            .forward_embedded(&encoder.device, &encoder.queue, embeddings)
            .await
            .map(|output| output.attention)
            .map_err(|error| error.to_string())
    };
    let first = forward(job.first).await?;
    let first_ms = now_ms() - start;
    let other = forward(job.other).await?;
    let reversed = match job.reversed {
        Some((without, with)) => Some((forward(without).await?, forward(with).await?)),
        None => None,
    };
    if let Some(error) = scope.pop().await {
        return Err(error.to_string());
    }
    encoder.failure.check()?;
    Ok(GpuRuns {
        ids: job.ids,
        first_table: job.first_table,
        first,
        other,
        reversed,
        first_ms,
        ms: now_ms() - start,
    })
}
