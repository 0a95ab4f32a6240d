//! One training step's forward and backward pass, written as one JSON object on stdout, for the
//! PyTorch reference (`python3 benches/train_reference.py --check`) to recompute and compare:
//!
//! `cargo run --release -q -p pe-lab-train --example dump_step -- <encoding> [length=N] [seed=S]
//! [task=shift|reverse|histogram] [mlp] [causal] [nonorm]`
//!
//! The configuration is [`TrainConfig::default`] (the size `benches/steps.rs` measures) with the
//! encoding and the options given. The model starts from the seed as a [`pe_lab_train::Trainer`]
//! would; one batch of `length` (default: the training length) is drawn from a stream of its own.
//! The JSON holds the configuration, every parameter tensor by name with its shape, the batch
//! (targets −1 where there is none), and the loss and every gradient tensor twice: from the f32
//! build the page trains with, and from the f64 build of the same code at the same (f32) weights,
//! so that the reference can tell float32 rounding from a difference in the model.

use pe_lab_math::rng::SplitMix64;
use pe_lab_train::tasks::NO_TARGET;
use pe_lab_train::{Batch, Encoding, Model, Real, Task, TrainConfig, Workspace};

/// Mixed into the seed for the dumped batch (any constant: the reference reads the batch from
/// the JSON, it does not draw it).
const BATCH_STREAM: u64 = 0x6475_6d70;

fn parse_args() -> Result<(TrainConfig, usize), String> {
    let mut config = TrainConfig::default();
    let mut length = None;
    let mut encoding = None;
    for arg in std::env::args().skip(1) {
        let (key, value) = arg.split_once('=').unwrap_or((arg.as_str(), ""));
        match key {
            "length" => length = Some(value.parse().map_err(|_| format!("bad length: {arg}"))?),
            "seed" => config.seed = value.parse().map_err(|_| format!("bad seed: {arg}"))?,
            "task" => {
                config.task = Task::from_link(value).ok_or(format!("unknown task: {value}"))?;
            }
            "mlp" => config.mlp = true,
            "causal" => config.causal = true,
            "nonorm" => config.layer_norm = false,
            _ => encoding = Some(Encoding::from_link(key).ok_or(format!("unknown: {arg}"))?),
        }
    }
    config.encoding = encoding.ok_or("usage: dump_step <encoding> [length=N] [seed=S] …")?;
    let (shortest, longest) = config.length_range();
    let length = length.unwrap_or(longest);
    // Shorter than the task's shortest, a shift batch could have no target at all.
    if !(shortest..=longest).contains(&length) {
        return Err(format!("length must be in {shortest}..={longest}"));
    }
    if !config.is_valid() {
        return Err("the configuration is out of range".into());
    }
    Ok((config, length))
}

/// `values` as a JSON array; `{:e}` prints the shortest digits that read back to the same float.
fn array<T: std::fmt::LowerExp>(values: &[T]) -> String {
    let items: Vec<String> = values.iter().map(|v| format!("{v:e}")).collect();
    format!("[{}]", items.join(","))
}

/// The loss and the gradient of every tensor, by name, of one forward and backward pass.
fn step<T: Real + std::fmt::LowerExp>(config: &TrainConfig, params: &[T], batch: &Batch) -> String {
    let mut model = Model::<T>::new(config);
    let mut workspace = Workspace::default();
    let mut grads = vec![T::ZERO; params.len()];
    let loss = model.forward(params, batch, &mut workspace);
    model.backward(params, batch, &mut workspace, &mut grads);
    let tensors: Vec<String> = model
        .layout
        .tensors
        .iter()
        .map(|t| format!("\"{}\":{}", t.name, array(&grads[t.range()])))
        .collect();
    format!("{{\"loss\":{loss:e},\"grads\":{{{}}}}}", tensors.join(","))
}

fn main() {
    let (config, length) = match parse_args() {
        Ok(parsed) => parsed,
        Err(why) => {
            eprintln!("{why}");
            std::process::exit(2);
        }
    };
    let layout = Model::<f32>::new(&config).layout;
    let params: Vec<f32> = layout.initial_values(config.seed);
    let mut batch = Batch::default();
    let mut stream = SplitMix64::new(config.seed ^ BATCH_STREAM);
    let c = &config;
    batch.sample(c.task, c.shift_k, c.vocab, c.batch, length, &mut stream);
    let targets: Vec<i64> = batch
        .targets
        .iter()
        .map(|&t| if t == NO_TARGET { -1 } else { t as i64 })
        .collect();
    let tensors: Vec<String> = layout
        .tensors
        .iter()
        .map(|t| {
            format!(
                "{{\"name\":\"{}\",\"rows\":{},\"cols\":{},\"values\":{}}}",
                t.name,
                t.rows,
                t.cols,
                array(&params[t.range()])
            )
        })
        .collect();
    let wide: Vec<f64> = params.iter().map(|&v| f64::from(v)).collect();
    let tokens: Vec<String> = batch.tokens.iter().map(usize::to_string).collect();
    let targets: Vec<String> = targets.iter().map(i64::to_string).collect();
    println!(
        "{{\"config\":{{\"encoding\":\"{}\",\"task\":\"{}\",\"shift_k\":{},\"vocab\":{},\
         \"classes\":{},\"train_length\":{},\"d\":{},\"heads\":{},\"layers\":{},\"causal\":{},\
         \"layer_norm\":{},\"mlp\":{},\"batch\":{},\"seed\":{},\"learning_rate\":{}}},\
         \"batch\":{{\"sequences\":{},\"length\":{},\"tokens\":[{}],\"targets\":[{}]}},\
         \"params\":[{}],\"f32\":{},\"f64\":{}}}",
        c.encoding.link_name(),
        c.task.link_name(),
        c.shift_k,
        c.vocab,
        c.classes(),
        c.train_length,
        c.d,
        c.heads,
        c.layers,
        c.causal,
        c.layer_norm,
        c.mlp,
        c.batch,
        c.seed,
        c.learning_rate,
        batch.sequences,
        batch.length,
        tokens.join(","),
        targets.join(","),
        tensors.join(","),
        step(&config, &params, &batch),
        step(&config, &wide, &batch),
    );
}
