//! The GPU trainer (`pe_lab::gpu::train`) against the CPU trainer it mirrors
//! (`pe_lab_train::Trainer`, f32): one step's gradients, and the loss curve of 100 steps, for
//! every encoding the GPU trainer implements; and the typed errors of what it does not.
//!
//! Runs on whatever adapter wgpu finds (lavapipe's software Vulkan on CI); without one every test
//! fails unless `PE_LAB_ALLOW_NO_GPU=1` (see tests/common).
#![cfg(not(target_arch = "wasm32"))]

mod common;
use common::with_shared_gpu;
use std::sync::{Mutex, OnceLock};

use pe_lab::gpu::train::{supports, GpuTrainError, GpuTrainer};
use pe_lab::gpu::{GpuContext, GpuError};
use pe_lab_train::{
    Batch, BatchStream, Encoding, Model, TrainConfig, TrainError, Trainer, Workspace,
};

static CONTEXT: OnceLock<Option<Mutex<GpuContext>>> = OnceLock::new();

fn with_gpu(test: &str, f: impl FnOnce(&mut GpuContext)) {
    with_shared_gpu(&CONTEXT, |context| context, test, f);
}

/// The encodings the GPU trainer implements.
fn implemented() -> Vec<Encoding> {
    Encoding::ALL.into_iter().filter(|&e| supports(e)).collect()
}

/// Small runs (lavapipe computes every dispatch on two cores): the default model at a smaller
/// batch, which keeps every kernel and the length sampling as they are.
fn config(encoding: Encoding) -> TrainConfig {
    TrainConfig {
        encoding,
        batch: 16,
        ..TrainConfig::default()
    }
}

/// Steps of the loss-curve comparison.
const STEPS: usize = 100;
/// Loss readback period of the comparison (the last readback is partial: 100 = 9·11 + 1).
const READBACK_EVERY: usize = 11;
/// Largest relative difference of a loss allowed between the two trainers.
const LOSS_TOLERANCE: f64 = 1e-3;
/// Largest difference of a gradient entry allowed, relative to its tensor's largest entry.
const GRADIENT_TOLERANCE: f64 = 1e-4;

/// max over tensors and entries of |gpu − cpu| / max_j |cpu_j| (per tensor), and the tensor.
fn gradient_error(model: &Model<f32>, cpu: &[f32], gpu: &[f32]) -> (f64, String) {
    let mut worst = (0.0f64, String::new());
    for tensor in &model.layout.tensors {
        let range = tensor.range();
        let scale = cpu[range.clone()]
            .iter()
            .fold(0.0f64, |m, &v| m.max(f64::from(v).abs()));
        let error = cpu[range.clone()]
            .iter()
            .zip(&gpu[range])
            .fold(0.0f64, |m, (&c, &g)| m.max(f64::from(c - g).abs()));
        let relative = if scale > 0.0 { error / scale } else { error };
        if relative > worst.0 {
            worst = (relative, tensor.name.clone());
        }
    }
    worst
}

fn check_gradients(context: &GpuContext, config: TrainConfig) -> f64 {
    let (device, queue) = (&context.device, &context.queue);
    let mut gpu = GpuTrainer::new(device, queue, config.clone(), 1).unwrap();
    gpu.step(device, queue).unwrap();
    let gpu_grads = gpu.gradients(device, queue).unwrap();
    let mut model = Model::<f32>::new(&config);
    let params = model.layout.initial_values::<f32>(config.seed);
    let mut batch = Batch::default();
    BatchStream::new(config.seed).next_batch(&config, &mut batch);
    assert_eq!(batch.tokens, gpu.last_batch().tokens);
    let mut workspace = Workspace::default();
    let loss = model.forward(&params, &batch, &mut workspace);
    let mut cpu_grads = vec![0.0; params.len()];
    model.backward(&params, &batch, &mut workspace, &mut cpu_grads);
    let gpu_loss = gpu.losses()[0];
    let loss_error = (f64::from(gpu_loss) - f64::from(loss)).abs() / f64::from(loss).abs();
    let (error, tensor) = gradient_error(&model, &cpu_grads, &gpu_grads);
    eprintln!(
        "{:>10} causal={} mlp={} norm={}: loss {loss} vs {gpu_loss} (rel {loss_error:.2e}), \
         gradient error {error:.2e} ({tensor})",
        config.encoding.link_name(),
        config.causal,
        config.mlp,
        config.layer_norm
    );
    assert!(
        loss_error < 1e-5,
        "{:?}: loss {loss} vs {gpu_loss}",
        config.encoding
    );
    assert!(
        error <= GRADIENT_TOLERANCE,
        "{:?}: gradient error {error:.2e} in {tensor}",
        config.encoding
    );
    error
}

#[test]
fn one_step_gradients_match_the_cpu_backward() {
    with_gpu("one_step_gradients_match_the_cpu_backward", |context| {
        for encoding in implemented() {
            check_gradients(context, config(encoding));
        }
        // The MLP, the causal mask and no LayerNorm, on the schemes that treat them differently.
        for encoding in [Encoding::Learned, Encoding::Rope, Encoding::Alibi] {
            let variant = TrainConfig {
                mlp: true,
                causal: true,
                ..config(encoding)
            };
            check_gradients(context, variant);
            let variant = TrainConfig {
                layer_norm: false,
                layers: 1,
                ..config(encoding)
            };
            check_gradients(context, variant);
        }
    });
}
