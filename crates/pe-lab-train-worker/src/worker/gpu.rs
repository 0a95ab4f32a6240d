//! The worker's GPU side: a device of its own on WebGPU, the GPU trainer's loop for a run, and
//! the trial that times both trainers.

use pe_lab_gpu::train::{GpuTrainer, LongSums};
use pe_lab_gpu::wgpu;
use pe_lab_gpu::DeviceFailure;
use pe_lab_train::protocol::Report;
use pe_lab_train::session::{seeds_or_config, Session};
use pe_lab_train::{Encoding, TrainConfig, Trainer};
use wasm_bindgen::prelude::*;

use super::super::{GPU_READBACK_EVERY, SLICE_SECONDS};
use super::{evaluate, gpu_run_is, paused, post, scope, seconds, start_on_cpu};
use pe_lab_train::device::{choose_from_trial, TrialRates};
use pe_lab_train::protocol::{TRIAL_GPU_LIMIT_SECONDS, TRIAL_SECONDS};

/// The worker's WebGPU device, and the first error the GPU reported outside an error scope (a
/// lost device, a validation error): the loop checks it after every step.
struct Device {
    device: wgpu::Device,
    queue: wgpu::Queue,
    /// The adapter's faster form of the trainer's long sums.
    long_sums: LongSums,
    failure: DeviceFailure,
}

impl Device {
    async fn open() -> Result<Device, String> {
        let navigator = js_sys::Reflect::get(&js_sys::global(), &"navigator".into())
            .map_err(|_| "the worker has no navigator".to_string())?;
        let gpu = js_sys::Reflect::get(&navigator, &"gpu".into()).unwrap_or(JsValue::UNDEFINED);
        if gpu.is_undefined() || gpu.is_null() {
            return Err("this browser has no WebGPU in workers (navigator.gpu is missing)".into());
        }
        let adapter = pe_lab_gpu::browser_adapter()
            .await
            .map_err(|e| format!("no WebGPU adapter in the worker: {e}"))?;
        let long_sums = LongSums::for_adapter(&adapter.get_info());
        let (device, queue) = pe_lab_gpu::request_device(&adapter, wgpu::Features::empty())
            .await
            .map_err(|e| e.to_string())?;
        let failure = DeviceFailure::watch(&device);
        Ok(Device {
            device,
            queue,
            long_sums,
            failure,
        })
    }

    /// The first failure the GPU reported, if any.
    fn failure(&self) -> Result<(), String> {
        self.failure.check()
    }

    async fn trainer(&self, config: TrainConfig) -> Result<GpuTrainer, String> {
        GpuTrainer::new(
            &self.device,
            &self.queue,
            config,
            GPU_READBACK_EVERY,
            self.long_sums,
        )
        .await
        .map_err(|e| e.to_string())
    }

    async fn step(&self, trainer: &mut GpuTrainer) -> Result<(), String> {
        trainer
            .step_paced(&self.device, &self.queue)
            .await
            .map_err(|e| e.to_string())?;
        self.failure()
    }

    async fn finish(&self, trainer: &mut GpuTrainer) -> Result<(), String> {
        trainer
            .finish(&self.device, &self.queue)
            .await
            .map_err(|e| e.to_string())?;
        self.failure()
    }
}

/// Waits `ms` milliseconds on the worker's event loop (messages are handled meanwhile).
async fn sleep(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let _ = scope().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// One encoding's GPU run at one seed and what of it the page has heard.
struct Job {
    encoding: Encoding,
    seed: u64,
    trainer: GpuTrainer,
    reported: usize,
    seconds: f64,
}

/// Trains `encodings` on `config` with the GPU trainer, reporting the losses as they come back,
/// then hands the trained parameters to a session for evaluation. On any GPU failure it starts
/// the encodings again on the CPU and says why.
pub async fn train(run: u32, config: TrainConfig, encodings: Vec<Encoding>, seeds: Vec<u64>) {
    let config = config.clamp().0;
    let seeds = seeds_or_config(&seeds, &config);
    match train_steps(run, &config, &encodings, &seeds).await {
        Ok(Some(session)) => evaluate(session),
        // Stopped or replaced: nothing more to do.
        Ok(None) => {}
        Err(message) => {
            if gpu_run_is(run) {
                post(&Report::Fallback { run, message });
                start_on_cpu(run, &config, &encodings, &seeds);
            }
        }
    }
}

/// The GPU loop: every (seed, encoding) one step in turn, the new losses posted about every
/// [`SLICE_SECONDS`]. `Ok(None)` when the run was stopped.
async fn train_steps(
    run: u32,
    config: &TrainConfig,
    encodings: &[Encoding],
    seeds: &[u64],
) -> Result<Option<Session>, String> {
    let device = Device::open().await?;
    let mut jobs = Vec::with_capacity(encodings.len() * seeds.len());
    for &seed in seeds {
        for &encoding in encodings {
            let started = seconds();
            let trainer = device
                .trainer(TrainConfig {
                    encoding,
                    seed,
                    ..config.clone()
                })
                .await?;
            jobs.push(Job {
                encoding,
                seed,
                trainer,
                reported: 0,
                seconds: seconds() - started,
            });
        }
    }
    let mut last_post = seconds();
    loop {
        if !gpu_run_is(run) {
            return Ok(None);
        }
        if paused() {
            sleep(50).await;
            continue;
        }
        let mut stepped = false;
        for job in jobs.iter_mut().filter(|job| !job.trainer.is_done()) {
            let started = seconds();
            device.step(&mut job.trainer).await?;
            if job.trainer.is_done() {
                device.finish(&mut job.trainer).await?;
            }
            job.seconds += seconds() - started;
            stepped = true;
        }
        let now = seconds();
        if !stepped || now - last_post >= SLICE_SECONDS {
            last_post = now;
            for job in &mut jobs {
                let losses = job.trainer.losses();
                let at = (job.encoding, job.seed);
                if let Some(report) =
                    Report::progress_since(run, at, losses, &mut job.reported, job.seconds)
                {
                    post(&report);
                }
            }
        }
        if !stepped {
            break;
        }
    }
    let mut session = Session::start(run, config, encodings, seeds).map_err(|e| e.to_string())?;
    for job in jobs {
        let params = job
            .trainer
            .parameters(&device.device, &device.queue)
            .await
            .map_err(|e| e.to_string())?;
        device.failure()?;
        session
            .adopt(
                job.encoding,
                job.seed,
                params,
                job.trainer.losses().to_vec(),
                job.seconds,
            )
            .map_err(|e| e.to_string())?;
    }
    Ok(Some(session))
}

/// Times `encoding` on `config` with both trainers, the GPU's first: a warm-up step (the first
/// compiles pipelines and fills caches), then steps until [`TRIAL_SECONDS`] have passed,
/// readbacks included. A GPU past [`TRIAL_GPU_LIMIT_SECONDS`] after its warm-up is not timed
/// further. Nothing trained here is kept.
pub async fn trial(run: u32, config: TrainConfig, encoding: Encoding) -> Report {
    let config = TrainConfig {
        encoding,
        ..config.clamp().0
    };
    let gpu = gpu_rate(&config).await;
    let cpu_steps_per_second = cpu_rate(&config);
    let rates = match gpu {
        Ok(gpu) => TrialRates {
            encoding,
            cpu_steps_per_second,
            gpu_steps_per_second: Some(gpu.steps_per_second),
            gpu_setup_seconds: Some(gpu.setup_seconds),
            gpu_first_step_only: gpu.first_step_only,
            gpu_error: None,
        },
        Err(message) => TrialRates {
            encoding,
            cpu_steps_per_second,
            gpu_steps_per_second: None,
            gpu_setup_seconds: None,
            gpu_first_step_only: false,
            gpu_error: Some(message),
        },
    };
    let choice = choose_from_trial(&rates);
    Report::Trial {
        run,
        device: choice.device,
        reason: choice.reason,
        rates,
    }
}

struct GpuRate {
    steps_per_second: f64,
    setup_seconds: f64,
    first_step_only: bool,
}

async fn gpu_rate(config: &TrainConfig) -> Result<GpuRate, String> {
    let started = seconds();
    let device = Device::open().await?;
    let mut trainer = device.trainer(config.clone()).await?;
    let setup_seconds = seconds() - started;
    let warm_from = seconds();
    device.step(&mut trainer).await?;
    device.finish(&mut trainer).await?;
    let warm_up = seconds() - warm_from;
    if seconds() - started > TRIAL_GPU_LIMIT_SECONDS {
        return Ok(GpuRate {
            steps_per_second: 1.0 / warm_up.max(1e-9),
            setup_seconds,
            first_step_only: true,
        });
    }
    let timed_from = seconds();
    let mut steps = 0usize;
    while seconds() - timed_from < TRIAL_SECONDS {
        device.step(&mut trainer).await?;
        steps += 1;
    }
    device.finish(&mut trainer).await?;
    let elapsed = seconds() - timed_from;
    Ok(GpuRate {
        steps_per_second: steps as f64 / elapsed.max(1e-9),
        setup_seconds,
        first_step_only: false,
    })
}

fn cpu_rate(config: &TrainConfig) -> f64 {
    let Ok(mut trainer) = Trainer::new(config.clone()) else {
        return 0.0;
    };
    trainer.step();
    let timed_from = seconds();
    let mut steps = 0usize;
    while seconds() - timed_from < TRIAL_SECONDS {
        trainer.step();
        steps += 1;
    }
    steps as f64 / (seconds() - timed_from).max(1e-9)
}
