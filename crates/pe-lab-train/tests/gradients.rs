//! The hand-written backward pass against central finite differences, on the f64 build of the
//! same code: every parameter tensor of every encoding, with LayerNorm and MLP on and off, causal
//! and bidirectional.

use pe_lab_math::rng::SplitMix64;
use pe_lab_train::tasks::Batch;
use pe_lab_train::{Encoding, Model, Task, TrainConfig, Workspace};

/// Entries checked per tensor besides its largest gradient (all of them when it is smaller).
const SAMPLES_PER_TENSOR: usize = 10;
/// The finite-difference step of the five-point stencil
/// (8·(L(p+h) − L(p−h)) − (L(p+2h) − L(p−2h)))/(12h), whose truncation error is O(h⁴): at
/// h = 1e-4 it is far below the rounding error of the loss divided by h (about 1e-12).
const STEP: f64 = 1e-4;
/// Relative errors are |analytic − numeric| / max(|analytic|, |numeric|, FLOOR): gradients
/// smaller than FLOOR are compared absolutely.
const FLOOR: f64 = 1e-7;
const TOLERANCE: f64 = 1e-5;

fn config(encoding: Encoding, norm_and_mlp: bool, causal: bool) -> TrainConfig {
    TrainConfig {
        task: Task::Shift,
        shift_k: 1,
        vocab: 5,
        // Shorter than the batch's sequences, so that `learned` has positions past its table.
        train_length: 5,
        d: 8,
        heads: 2,
        layers: 2,
        batch: 2,
        causal,
        layer_norm: norm_and_mlp,
        mlp: norm_and_mlp,
        seed: 7,
        encoding,
        ..TrainConfig::default()
    }
}

/// Which MLP units are active (the ReLU's side), every layer.
fn relu_pattern(ws: &Workspace<f64>) -> Vec<bool> {
    ws.layers
        .iter()
        .flat_map(|cache| cache.hidden.iter().map(|&h| h > 0.0))
        .collect()
}

/// The largest relative error of each tensor, by name.
fn check(config: &TrainConfig) -> Vec<(String, f64)> {
    let mut model = Model::<f64>::new(config);
    let mut params: Vec<f64> = model.layout.initial_values(config.seed);
    // A generic point: biases away from 0, gains away from 1, tables away from their small start.
    let mut stream = SplitMix64::new(99);
    for p in params.iter_mut() {
        *p += 0.3 * stream.approx_standard_normal();
    }
    let mut batch = Batch::default();
    batch.sample(
        config.task,
        config.shift_k,
        config.vocab,
        config.batch,
        6,
        &mut SplitMix64::new(3),
    );
    let mut ws = Workspace::default();
    model.forward(&params, &batch, &mut ws);
    let base_pattern = relu_pattern(&ws);
    let mut grads = vec![0.0; params.len()];
    model.backward(&params, &batch, &mut ws, &mut grads);
    let mut errors = Vec::new();
    for tensor in model.layout.tensors.clone() {
        let range = tensor.range();
        let analytic = &grads[range.clone()];
        assert!(
            analytic.iter().any(|g| g.abs() > 1e-9),
            "{} of {:?}: the gradient is zero everywhere",
            tensor.name,
            config.encoding
        );
        let largest = (0..analytic.len())
            .max_by(|&a, &b| analytic[a].abs().total_cmp(&analytic[b].abs()))
            .unwrap_or(0);
        let mut entries: Vec<usize> = if analytic.len() <= SAMPLES_PER_TENSOR {
            (0..analytic.len()).collect()
        } else {
            (0..SAMPLES_PER_TENSOR)
                .map(|s| (s * analytic.len() + 3) / SAMPLES_PER_TENSOR)
                .collect()
        };
        entries.push(largest);
        let mut worst: f64 = 0.0;
        for entry in entries {
            let index = range.start + entry;
            let saved = params[index];
            // The loss is smooth only while no ReLU changes side: shrink the step until none of
            // the four evaluations does.
            let mut step = STEP;
            let numeric = loop {
                let mut kinked = false;
                let mut loss_at = |offset: f64| {
                    params[index] = saved + offset;
                    let loss = model.forward(&params, &batch, &mut ws);
                    kinked |= relu_pattern(&ws) != base_pattern;
                    loss
                };
                let near = loss_at(step) - loss_at(-step);
                let far = loss_at(2.0 * step) - loss_at(-2.0 * step);
                params[index] = saved;
                if !kinked || step < 1e-9 {
                    break (8.0 * near - far) / (12.0 * step);
                }
                step /= 10.0;
            };
            let a = grads[index];
            let error = (a - numeric).abs() / a.abs().max(numeric.abs()).max(FLOOR);
            worst = worst.max(error);
        }
        errors.push((tensor.name.clone(), worst));
    }
    errors
}

#[test]
fn every_tensor_of_every_scheme_matches_finite_differences() {
    let mut failures = Vec::new();
    for encoding in Encoding::ALL {
        let mut scheme_worst: f64 = 0.0;
        let mut worst_tensor = String::new();
        for (norm_and_mlp, causal) in [(false, false), (true, false), (false, true), (true, true)] {
            let config = config(encoding, norm_and_mlp, causal);
            for (name, error) in check(&config) {
                if error > scheme_worst {
                    scheme_worst = error;
                    worst_tensor = format!("{name}, norm+mlp {norm_and_mlp}, causal {causal}");
                }
                if error > TOLERANCE {
                    failures.push(format!(
                        "{} (norm+mlp {norm_and_mlp}, causal {causal}) {name}: {error:.2e}",
                        encoding.link_name()
                    ));
                }
            }
        }
        println!(
            "{:>10}: max relative error {scheme_worst:.2e} ({worst_tensor})",
            encoding.link_name()
        );
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
