//! The forward pass against transformers' (float32, eager attention) on the first 50 sentences
//! of tests/fixtures/minilm/sentences.txt, with the learned position table and with its rows
//! set to zero.
//!
//! Needs the model in target/minilm/ (`scripts/fetch-minilm.sh`); the comparison of every
//! weight also needs the reference that `scripts/minilm_reference.py` writes there
//! (target/minilm/reference.safetensors, tens of MB, not committed), while the comparison with
//! the committed summaries (tests/fixtures/minilm/reference.json) needs only the model. Without
//! them these tests say so and pass, unless PE_LAB_REQUIRE_MINILM is set.
//!
//! Unoptimized, the 100 forward passes take a minute or two; `--release` takes seconds:
//!   cargo test --release -p pe-lab-minilm --test attention_reference -- --nocapture

mod common;

use std::sync::OnceLock;

use common::{max_abs_difference, reference_ids, reference_tensor};
use ndarray::{Array2, Array4};
use pe_lab_minilm::{ForwardOutput, PositionTable};
use safetensors::SafeTensors;

const SENTENCES: usize = common::REFERENCE_SENTENCES;

/// This crate's forward passes of the first sentences: (with the table, without it).
struct Forwards {
    ids: Vec<Vec<u32>>,
    outputs: Vec<(ForwardOutput, ForwardOutput)>,
}

/// The forward passes, computed once for both tests (they run side by side in one process), or
/// `None` when the model is not fetched.
fn forwards() -> Option<&'static Forwards> {
    static FORWARDS: OnceLock<Option<Forwards>> = OnceLock::new();
    FORWARDS
        .get_or_init(|| {
            let paths = common::required_files(
                "attention against transformers",
                &["tokenizer.json", "config.json", "model.safetensors"],
                common::HOW_TO_FETCH,
            )?;
            let tokenizer = common::load_tokenizer(&paths[0]);
            let model = common::load_model(&paths[1], &paths[2]);
            let fixture = common::load_fixture();
            let mut ids = Vec::with_capacity(SENTENCES);
            let mut outputs = Vec::with_capacity(SENTENCES);
            for sentence in fixture.sentences.iter().take(SENTENCES) {
                let encoding = tokenizer.encode(&sentence.text);
                assert_eq!(encoding.ids, sentence.ids, "tokens of {:?}", sentence.text);
                let run = |table| {
                    model
                        .forward(&encoding.ids, table)
                        .unwrap_or_else(|error| panic!("{:?}: {error}", sentence.text))
                };
                outputs.push((run(PositionTable::Learned), run(PositionTable::Zeroed)));
                ids.push(encoding.ids);
            }
            Some(Forwards { ids, outputs })
        })
        .as_ref()
}

#[test]
fn every_attention_weight_matches_transformers() {
    let Some(forwards) = forwards() else {
        return;
    };
    let Some(paths) = common::required_files(
        "every attention weight against transformers",
        &["reference.safetensors"],
        common::HOW_TO_MAKE_THE_REFERENCE,
    ) else {
        return;
    };
    let bytes = common::read_bytes(&paths[0]);
    let reference = SafeTensors::deserialize(&bytes)
        .unwrap_or_else(|error| panic!("{}: {error}", paths[0].display()));

    let mut worst_attention = [0.0f32; 2];
    let mut worst_hidden = [0.0f32; 2];
    let mut longest = 0;
    for (index, (ids, outputs)) in forwards.ids.iter().zip(&forwards.outputs).enumerate() {
        assert_eq!(
            &reference_ids(&reference, index),
            ids,
            "sentence {index}'s ids"
        );
        let count = ids.len();
        longest = longest.max(count);
        let (with_table, without_table) = outputs;
        for (variant, (table, output)) in
            [("with_table", with_table), ("without_table", without_table)]
                .into_iter()
                .enumerate()
        {
            let shape = output.attention.shape().to_vec();
            let attention = reference_tensor(
                &reference,
                &format!("sentence.{index}.attention.{table}"),
                &shape,
            );
            let attention = Array4::from_shape_vec(output.attention.raw_dim(), attention)
                .unwrap_or_else(|error| panic!("{error}"));
            let difference = max_abs_difference(output.attention.view(), attention.view());
            assert!(
                difference <= common::ATTENTION_TOLERANCE,
                "sentence {index} ({count} tokens), {table}: an attention weight is {difference} \
                 from transformers'"
            );
            worst_attention[variant] = worst_attention[variant].max(difference);

            let hidden_shape = output.last_hidden_state.shape().to_vec();
            let hidden = reference_tensor(
                &reference,
                &format!("sentence.{index}.last_hidden_state.{table}"),
                &hidden_shape,
            );
            let hidden = Array2::from_shape_vec(output.last_hidden_state.raw_dim(), hidden)
                .unwrap_or_else(|error| panic!("{error}"));
            let difference = max_abs_difference(output.last_hidden_state.view(), hidden.view());
            assert!(
                difference <= common::HIDDEN_TOLERANCE,
                "sentence {index} ({count} tokens), {table}: a last hidden value is {difference} \
                 from transformers'"
            );
            worst_hidden[variant] = worst_hidden[variant].max(difference);
        }
    }
    common::report(&format!(
        "{SENTENCES} sentences (up to {longest} tokens): largest attention difference from \
         transformers {:.3e} with the position table, {:.3e} without it (tolerance {:.0e}); \
         largest last-hidden-state difference {:.3e} with, {:.3e} without",
        worst_attention[0],
        worst_attention[1],
        common::ATTENTION_TOLERANCE,
        worst_hidden[0],
        worst_hidden[1],
    ));
}

#[test]
fn forward_matches_the_committed_summaries() {
    let Some(forwards) = forwards() else {
        return;
    };
    let fixture = common::load_fixture();
    assert_eq!(fixture.forward_summaries.len(), SENTENCES);
    let mut worst = 0.0f32;
    for summaries in &fixture.forward_summaries {
        let index = summaries.index;
        let (with_table, without_table) = &forwards.outputs[index];
        for (table, summary, output) in [
            ("with the table", &summaries.with_table, with_table),
            ("without the table", &summaries.without_table, without_table),
        ] {
            let mut differences = Vec::new();
            for (layer, (maxima, diagonals)) in summary
                .attention_max
                .iter()
                .zip(&summary.attention_diagonal_sum)
                .enumerate()
            {
                for (head, (&expected_max, &expected_diagonal)) in
                    maxima.iter().zip(diagonals).enumerate()
                {
                    let weights = output.attention.slice(ndarray::s![layer, head, .., ..]);
                    let largest = weights.iter().copied().fold(f32::MIN, f32::max);
                    let diagonal: f32 = weights.diag().sum();
                    differences.push((largest - expected_max).abs());
                    // A sum of n weights: its tolerance grows with n.
                    let count = weights.nrows() as f32;
                    differences.push((diagonal - expected_diagonal).abs() / count);
                }
            }
            let hidden = &output.last_hidden_state;
            let largest_hidden = hidden.iter().fold(0.0f32, |m, &x| m.max(x.abs()));
            differences.push((largest_hidden - summary.last_hidden_state_max_abs).abs());
            for (ours, &theirs) in hidden.row(0).iter().zip(&summary.cls_first_values) {
                differences.push((ours - theirs).abs());
            }
            let difference = differences.into_iter().fold(0.0f32, f32::max);
            assert!(
                difference <= common::ATTENTION_TOLERANCE,
                "sentence {index}, {table}: a summary is {difference} from transformers'"
            );
            worst = worst.max(difference);
        }
    }
    common::report(&format!(
        "{SENTENCES} sentences: largest difference from transformers' committed summaries \
         {worst:.3e} (transformers {})",
        fixture.versions
    ));
}
