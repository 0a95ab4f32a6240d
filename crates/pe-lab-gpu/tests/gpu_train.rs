//! The GPU trainer (`pe_lab_gpu::train`) against the CPU trainer it mirrors
//! (`pe_lab_train::Trainer`, f32): one step's gradients for every encoding the GPU trainer
//! implements, in both forms of its long sums; the loss curve of 100 steps for three; and the
//! typed errors of what it does not.
//!
//! Runs on whatever adapter wgpu finds (lavapipe's software Vulkan on CI); without one every test
//! fails unless `PE_LAB_ALLOW_NO_GPU=1` (see tests/common).
#![cfg(not(target_arch = "wasm32"))]

mod common;
use common::with_shared_gpu;
use std::sync::{Mutex, OnceLock};

use pe_lab_gpu::train::{supports, GpuTrainError, GpuTrainer, LongSums, READBACKS_IN_FLIGHT};
use pe_lab_gpu::{GpuContext, GpuError};
use pe_lab_train::config::MAX_STEPS;
use pe_lab_train::{
    Batch, BatchStream, Encoding, Model, Task, TrainConfig, TrainError, Trainer, Workspace,
};
use pollster::block_on;

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

/// The long sums' form the adapter's trainer uses (in order on lavapipe).
fn adapters_long_sums(context: &GpuContext) -> LongSums {
    LongSums::for_adapter(&context.adapter_info)
}

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

fn check_gradients(context: &GpuContext, config: TrainConfig, long_sums: LongSums) -> f64 {
    let (device, queue) = (&context.device, &context.queue);
    let mut gpu = block_on(GpuTrainer::new(device, queue, config.clone(), 1, long_sums)).unwrap();
    gpu.step(device, queue).unwrap();
    block_on(gpu.finish(device, queue)).unwrap();
    let gpu_grads = block_on(gpu.gradients(device, queue)).unwrap();
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
        "{:>10} causal={} mlp={} norm={} {long_sums:?}: loss {loss} vs {gpu_loss} (rel \
         {loss_error:.2e}), gradient error {error:.2e} ({tensor})",
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
        // Both forms of the long sums on every encoding: a real GPU splits them, lavapipe sums
        // them in order, and CI has only lavapipe.
        for encoding in implemented() {
            for long_sums in [LongSums::Split, LongSums::InOrder] {
                check_gradients(context, config(encoding), long_sums);
            }
        }
        let long_sums = adapters_long_sums(context);
        // The MLP, the causal mask and no LayerNorm, on the schemes that treat them differently:
        // all but the three whose positions are a fixed input (none, sinusoidal, concatenated).
        let fixed = [Encoding::None, Encoding::Sinusoidal, Encoding::Concat];
        for encoding in Encoding::ALL.into_iter().filter(|e| !fixed.contains(e)) {
            let variant = TrainConfig {
                mlp: true,
                causal: true,
                ..config(encoding)
            };
            check_gradients(context, variant, long_sums);
            let variant = TrainConfig {
                layer_norm: false,
                layers: 1,
                ..config(encoding)
            };
            check_gradients(context, variant, long_sums);
        }
        // Another task (8 classes, a target at every position) through the MLP without LayerNorm.
        let histogram = TrainConfig {
            task: Task::Histogram,
            mlp: true,
            layer_norm: false,
            ..config(Encoding::Sinusoidal)
        };
        check_gradients(context, histogram, long_sums);
    });
}

/// Trains `config` for [`STEPS`] steps on both trainers; returns the largest relative difference
/// of the losses read back.
fn loss_curve_difference(context: &GpuContext, config: TrainConfig) -> f64 {
    let (device, queue) = (&context.device, &context.queue);
    let mut gpu = block_on(GpuTrainer::new(
        device,
        queue,
        config.clone(),
        READBACK_EVERY,
        adapters_long_sums(context),
    ))
    .unwrap();
    let mut cpu = Trainer::new(config.clone()).unwrap();
    let mut cpu_losses = Vec::new();
    for step in 0..STEPS {
        cpu_losses.push(cpu.step());
        block_on(gpu.step_paced(device, queue)).unwrap();
        // The ring is copied out exactly when it is full, and at most two copies are out.
        let full_rings = (step + 1) / READBACK_EVERY;
        assert!(gpu.readbacks_in_flight() < READBACKS_IN_FLIGHT);
        assert_eq!(
            gpu.losses().len(),
            (full_rings - gpu.readbacks_in_flight()) * READBACK_EVERY
        );
    }
    block_on(gpu.finish(device, queue)).unwrap();
    assert_eq!(gpu.readbacks_in_flight(), 0);
    assert_eq!(gpu.losses().len(), STEPS);
    assert_eq!(gpu.steps_done(), STEPS);
    let mut worst = (0.0f64, 0usize);
    for (step, (&c, &g)) in cpu_losses.iter().zip(gpu.losses()).enumerate() {
        let relative = (f64::from(c) - f64::from(g)).abs() / f64::from(c).abs();
        if relative > worst.0 {
            worst = (relative, step);
        }
    }
    let (first, last) = (cpu_losses[0], cpu_losses[STEPS - 1]);
    eprintln!(
        "{:>10}: loss {first:.4} → {last:.4} (CPU) vs {:.4} (GPU); largest relative difference \
         {:.2e} at step {}",
        config.encoding.link_name(),
        gpu.losses()[STEPS - 1],
        worst.0,
        worst.1
    );
    assert!(
        worst.0 <= LOSS_TOLERANCE,
        "{:?}: losses differ by {:.2e} at step {}",
        config.encoding,
        worst.0,
        worst.1
    );
    // The parameters after training agree too (Adam's steps are ±lr at most per step).
    let cpu_params = cpu.parameters();
    let gpu_params = block_on(gpu.parameters(device, queue)).unwrap();
    let largest = cpu_params
        .iter()
        .zip(&gpu_params)
        .fold(0.0f32, |m, (&c, &g)| m.max((c - g).abs()));
    assert!(
        largest < 0.05,
        "{:?}: parameters differ by {largest}",
        config.encoding
    );
    worst.0
}

/// Three encodings, one of each way a position enters the model: added to the input
/// (sinusoidal, the default), a rotation inside attention (RoPE), learned relative tables (Shaw,
/// the most kernels of its own). Over 100 steps the curve checks what one step cannot: Adam's
/// moments and bias correction and the loss ring, which every encoding shares; every encoding's
/// own kernels are checked exactly at one step above (8 s an encoding on lavapipe here).
#[test]
fn loss_curves_match_the_cpu_trainer() {
    with_gpu("loss_curves_match_the_cpu_trainer", |context| {
        for encoding in [Encoding::Sinusoidal, Encoding::Rope, Encoding::Shaw] {
            loss_curve_difference(context, config(encoding));
        }
    });
}

/// The page says that a link trained on the GPU gives the same losses again on the same GPU: the
/// kernels sum in a fixed order (no atomics), so two runs of one configuration agree bit for bit.
/// Two encodings: one through every plain kernel, one through Shaw's relative-key kernels.
#[test]
fn the_same_configuration_trains_to_the_same_bits_again() {
    with_gpu(
        "the_same_configuration_trains_to_the_same_bits_again",
        |context| {
            let (device, queue) = (&context.device, &context.queue);
            for encoding in [Encoding::Sinusoidal, Encoding::Shaw] {
                let run = || {
                    let mut gpu = block_on(GpuTrainer::new(
                        device,
                        queue,
                        config(encoding),
                        7,
                        adapters_long_sums(context),
                    ))
                    .unwrap();
                    for _ in 0..30 {
                        block_on(gpu.step_paced(device, queue)).unwrap();
                    }
                    block_on(gpu.finish(device, queue)).unwrap();
                    let params = block_on(gpu.parameters(device, queue)).unwrap();
                    (gpu.losses().to_vec(), params)
                };
                let (first, second) = (run(), run());
                assert_eq!(first.0.len(), 30);
                let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&first.0), bits(&second.0), "{encoding:?}: losses");
                assert_eq!(bits(&first.1), bits(&second.1), "{encoding:?}: parameters");
            }
        },
    );
}

#[test]
fn unsupported_encodings_and_bad_sizes_are_typed_errors() {
    with_gpu(
        "unsupported_encodings_and_bad_sizes_are_typed_errors",
        |context| {
            let (device, queue) = (&context.device, &context.queue);
            let build = |config: TrainConfig, every: usize| {
                block_on(GpuTrainer::new(
                    device,
                    queue,
                    config,
                    every,
                    adapters_long_sums(context),
                ))
                .map(|_| ())
            };
            let unsupported: Vec<Encoding> = Encoding::ALL
                .into_iter()
                .filter(|&e| !supports(e))
                .collect();
            // Every scheme is implemented now; one that is not fails with this error.
            assert_eq!(unsupported, []);
            for encoding in unsupported {
                let error = build(config(encoding), 10).unwrap_err();
                assert_eq!(error, GpuTrainError::Unsupported(encoding));
            }
            let error = GpuTrainError::Unsupported(Encoding::Shaw);
            assert!(error.to_string().contains("shaw"), "{error}");
            // Out of range: the CPU trainer's error, with its notices.
            let bad = TrainConfig {
                d: 30,
                heads: 4,
                ..config(Encoding::Sinusoidal)
            };
            let expected = Trainer::new(bad.clone()).unwrap_err();
            assert!(matches!(expected, TrainError::OutOfRange(_)));
            assert_eq!(build(bad, 10).unwrap_err(), GpuTrainError::Config(expected));
            for every in [0, usize::MAX] {
                assert_eq!(
                    build(config(Encoding::None), every).unwrap_err(),
                    GpuTrainError::ReadbackEvery {
                        requested: every,
                        limit: MAX_STEPS
                    }
                );
            }
            // The largest model in range needs an arena larger than one storage binding of the
            // WebGPU defaults (128 MiB): a typed error where the device's limit is that small.
            let largest = TrainConfig {
                batch: 256,
                train_length: 64,
                d: 128,
                heads: 8,
                layers: 3,
                mlp: true,
                ..config(Encoding::Sinusoidal)
            };
            let limit = context
                .device
                .limits()
                .max_storage_buffer_binding_size
                .min(context.device.limits().max_buffer_size);
            match build(largest, 10) {
                Err(GpuTrainError::Gpu(
                    error @ GpuError::TooLarge {
                        requested,
                        limit: l,
                        ..
                    },
                )) => {
                    eprintln!("largest model: {error}");
                    assert!(requested > l);
                    assert_eq!(l, limit);
                }
                Ok(()) => assert!(limit > 128 << 20, "built within a {limit}-byte binding"),
                Err(other) => panic!("unexpected error {other}"),
            }
        },
    );
}
