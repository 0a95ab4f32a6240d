//! The pretrained panel's encoder on the GPU (pe_lab_gpu::minilm) against its CPU twin,
//! pe_lab_minilm::MiniLm::forward, on the real model: every attention weight and every value of
//! the last hidden state, with the trained position table and with its rows set to zero, on the
//! first 8 sentences of the model's test corpus, and its longest with the table (more tokens
//! than a workgroup has lanes); and against transformers' own weights (tests/fixtures/minilm/e2e-attention.json)
//! within the pretrained panel's 2e-3.
//!
//! Needs the model in target/minilm/ (`scripts/fetch-minilm.sh`, run by the test set-up);
//! without it the test says so and passes, unless PE_LAB_REQUIRE_MINILM is set.

mod common;

use std::io::Write;
use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};

use ndarray::{ArrayView, Dimension};
use pe_lab_gpu::{GpuContext, MiniLmKernel};
use pe_lab_minilm::{BertConfig, ForwardOutput, MiniLm, PositionTable};

/// The GPU's weights against the CPU's: the same float32 tensors, sums in another order.
const ATTENTION_TOLERANCE: f32 = 1e-4;
/// The last hidden state (values of a few units) against the CPU's.
const HIDDEN_TOLERANCE: f32 = 1e-3;
/// Against transformers' weights: the pretrained panel's promise.
const TRANSFORMERS_TOLERANCE: f32 = 2e-3;
// The first sentences of the corpus (lavapipe runs the encoder at about 70 ms a token).
const SENTENCES: usize = 8;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(path: PathBuf) -> Vec<u8> {
    std::fs::read(&path).unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()))
}

fn json(path: PathBuf) -> serde_json::Value {
    serde_json::from_slice(&read(path.clone()))
        .unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

fn report(line: &str) {
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// The model from target/minilm/, or `None` after saying how to fetch it.
fn model() -> Option<MiniLm> {
    let dir = root().join("target/minilm");
    let (config, weights) = (dir.join("config.json"), dir.join("model.safetensors"));
    if !(config.is_file() && weights.is_file()) {
        let message = format!(
            "the GPU encoder: no model in {} (fetch it with scripts/fetch-minilm.sh)",
            dir.display()
        );
        if std::env::var_os("PE_LAB_REQUIRE_MINILM").is_some() {
            panic!("{message}; PE_LAB_REQUIRE_MINILM is set, so this is a failure");
        }
        report(&format!("SKIPPED {message}"));
        return None;
    }
    let config = BertConfig::from_config_json(&read(config)).unwrap_or_else(|e| panic!("{e}"));
    Some(MiniLm::from_safetensors(config, &read(weights)).unwrap_or_else(|e| panic!("{e}")))
}

fn ids_of(value: &serde_json::Value) -> Vec<u32> {
    value["ids"]
        .as_array()
        .unwrap_or_else(|| panic!("no ids in {value}"))
        .iter()
        .map(|id| id.as_u64().unwrap_or_else(|| panic!("id {id}")) as u32)
        .collect()
}

fn largest_difference<D: Dimension>(ours: ArrayView<f32, D>, theirs: ArrayView<f32, D>) -> f32 {
    assert_eq!(ours.shape(), theirs.shape());
    ours.iter()
        .zip(theirs.iter())
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f32::max)
}

struct Encoder {
    context: GpuContext,
    kernel: MiniLmKernel,
    model: MiniLm,
}

impl Encoder {
    fn forward(&self, ids: &[u32], table: PositionTable) -> ForwardOutput {
        pollster::block_on(self.kernel.forward(
            &self.context.device,
            &self.context.queue,
            &self.model,
            ids,
            table,
        ))
        .unwrap_or_else(|error| panic!("{ids:?}: {error}"))
    }
}

/// Runs `check` with the encoder on the binary's GPU, once the model is loaded.
fn with_encoder(test: &str, check: impl FnOnce(&Encoder)) {
    static MODEL: OnceLock<Option<MiniLm>> = OnceLock::new();
    let Some(model) = MODEL.get_or_init(model) else {
        return;
    };
    static ENCODER: OnceLock<Option<Mutex<Encoder>>> = OnceLock::new();
    // with_shared_gpu builds it once per binary and hands it out under its own lock.
    common::with_shared_gpu(
        &ENCODER,
        |context| {
            let kernel = MiniLmKernel::new(&context.device, model)
                .unwrap_or_else(|error| panic!("the encoder's tensors: {error}"));
            Encoder {
                context,
                kernel,
                model: model.clone(),
            }
        },
        test,
        |encoder| check(encoder),
    );
}

#[test]
fn the_gpu_encoder_gives_the_cpu_weights_with_and_without_the_table() {
    with_encoder("the GPU encoder against the CPU's", |encoder| {
        let fixture = json(root().join("tests/fixtures/minilm/reference.json"));
        let sentences = fixture["sentences"].as_array().expect("sentences");
        let longest = sentences
            .iter()
            .max_by_key(|s| ids_of(s).len())
            .expect("a sentence");
        assert!(
            ids_of(longest).len() > 64,
            "the corpus has a sentence longer than 64 tokens"
        );
        let (mut attention_gap, mut hidden_gap, mut runs) = (0f32, 0f32, 0);
        let (mut gpu_seconds, mut cpu_seconds) = (0f64, 0f64);
        let tables = [PositionTable::Learned, PositionTable::Zeroed];
        let cases = sentences
            .iter()
            .take(SENTENCES)
            .flat_map(|sentence| tables.map(|table| (sentence, table)))
            .chain([(longest, PositionTable::Learned)]);
        for (sentence, table) in cases {
            let ids = ids_of(sentence);
            {
                let start = std::time::Instant::now();
                let gpu = encoder.forward(&ids, table);
                gpu_seconds += start.elapsed().as_secs_f64();
                let start = std::time::Instant::now();
                let cpu = encoder.model.forward(&ids, table).expect("the CPU forward");
                cpu_seconds += start.elapsed().as_secs_f64();
                let attention = largest_difference(gpu.attention.view(), cpu.attention.view());
                let hidden =
                    largest_difference(gpu.last_hidden_state.view(), cpu.last_hidden_state.view());
                assert!(
                    attention <= ATTENTION_TOLERANCE && hidden <= HIDDEN_TOLERANCE,
                    "{:?} ({table:?}, {} tokens): weights differ by {attention:e}, the last \
                     hidden state by {hidden:e}",
                    sentence["text"],
                    ids.len()
                );
                attention_gap = attention_gap.max(attention);
                hidden_gap = hidden_gap.max(hidden);
                runs += 1;
            }
        }
        report(&format!(
            "GPU encoder ({}) against the CPU's, {runs} runs: weights within {attention_gap:.1e}, \
             last hidden state within {hidden_gap:.1e} ({gpu_seconds:.1} s on the GPU, \
             {cpu_seconds:.1} s on the CPU)",
            encoder.context.describe()
        ));
    });
}

#[test]
fn the_gpu_encoder_gives_transformers_weights() {
    with_encoder("the GPU encoder against transformers'", |encoder| {
        let fixture = json(root().join("tests/fixtures/minilm/e2e-attention.json"));
        for case in fixture["cases"].as_array().expect("cases") {
            let ids = ids_of(case);
            for (table, key) in [
                (PositionTable::Learned, "withTable"),
                (PositionTable::Zeroed, "withoutTable"),
            ] {
                let gpu = encoder.forward(&ids, table);
                let theirs: Vec<f32> = case[key]
                    .as_array()
                    .expect("weights")
                    .iter()
                    .flat_map(|l| l.as_array().expect("layer"))
                    .flat_map(|h| h.as_array().expect("head"))
                    .flat_map(|q| q.as_array().expect("query"))
                    .map(|w| w.as_f64().expect("weight") as f32)
                    .collect();
                let theirs = ndarray::Array4::from_shape_vec(gpu.attention.dim(), theirs)
                    .unwrap_or_else(|error| panic!("{key} of {:?}: {error}", case["text"]));
                let gap = largest_difference(gpu.attention.view(), theirs.view());
                report(&format!(
                    "GPU encoder against transformers, {} tokens, {key}: within {gap:.1e}",
                    ids.len()
                ));
                assert!(
                    gap <= TRANSFORMERS_TOLERANCE,
                    "{gap} > {TRANSFORMERS_TOLERANCE}"
                );
            }
        }
    });
}

#[test]
fn bad_inputs_are_errors_not_panics() {
    with_encoder("the GPU encoder's bad inputs", |encoder| {
        let run = |ids: &[u32]| {
            pollster::block_on(encoder.kernel.forward(
                &encoder.context.device,
                &encoder.context.queue,
                &encoder.model,
                ids,
                PositionTable::Learned,
            ))
        };
        assert!(run(&[]).is_err());
        assert!(run(&[101, 40_000, 102]).is_err());
        assert!(run(&vec![1000; 513]).is_err());
    });
}
