//! The runs of the model behind one sentence, as the pretrained module keeps them: on the CPU
//! the shown run at once and the other three in a later task; on WebGPU all four from one job
//! (`gpu.rs`); then the stats the takeaway is written from.

use ndarray::Array4;
use pe_lab_minilm::{MiniLm, PositionTable};

use super::gpu::{GpuJob, GpuRuns};
use super::loading::model_error;
use super::takeaway::{takeaway, TakeawayInputs};
use super::*;
use crate::web::dom::now_ms;
use crate::web::error::WebError;

/// The runs of one sentence: first the one shown (with the table or without, as the switch
/// says), drawn at once so that the maps follow the reader's typing; then, in a later task, the
/// other three (the other table, and the reversed words both ways) that the takeaway compares.
pub(super) struct Runs {
    pub(super) ids: Vec<u32>,
    /// The table of the first run, and its weights.
    pub(super) first_table: bool,
    pub(super) first: Array4<f32>,
    pub(super) first_ms: f64,
    pub(super) rest: Option<RestRuns>,
    /// Where the runs were computed: `cpu` or `webgpu`.
    pub(super) compute: &'static str,
}

/// The runs after the first.
pub(super) struct RestRuns {
    pub(super) other: Array4<f32>,
    pub(super) gap_without_table: f64,
    pub(super) gap_with_table: f64,
    pub(super) reversal_moves: bool,
    pub(super) ms: f64,
}

impl Runs {
    /// The weights of the run with (`true`) or without the table, once computed.
    pub(super) fn of(&self, position_table: bool) -> Option<&Array4<f32>> {
        if position_table == self.first_table {
            Some(&self.first)
        } else {
            self.rest.as_ref().map(|rest| &rest.other)
        }
    }
}

/// The sentence's ids, cut to [`MAX_TOKENS`] with its `[SEP]` kept.
pub(super) fn cut(mut tokens: Vec<String>, mut ids: Vec<u32>) -> (Vec<String>, Vec<u32>, bool) {
    let truncated = ids.len() > MAX_TOKENS;
    if truncated {
        let (last_token, last_id) = (tokens.pop(), ids.pop());
        tokens.truncate(MAX_TOKENS - 1);
        ids.truncate(MAX_TOKENS - 1);
        tokens.extend(last_token);
        ids.extend(last_id);
    }
    (tokens, ids, truncated)
}

/// The model's table for the switch: the trained rows (`true`) or zeros.
fn table(position_table: bool) -> PositionTable {
    if position_table {
        PositionTable::Learned
    } else {
        PositionTable::Zeroed
    }
}

pub(super) fn run(
    model: &MiniLm,
    ids: &[u32],
    position_table: bool,
) -> Result<Array4<f32>, WebError> {
    model
        .forward(ids, table(position_table))
        .map(|output| output.attention)
        .map_err(model_error)
}

/// The shown run of a new sentence.
pub(super) fn first_run(
    model: &MiniLm,
    ids: &[u32],
    position_table: bool,
) -> Result<Runs, WebError> {
    let start = now_ms();
    let first = run(model, ids, position_table)?;
    Ok(Runs {
        ids: ids.to_vec(),
        first_table: position_table,
        first,
        first_ms: now_ms() - start,
        rest: None,
        compute: "cpu",
    })
}

/// The other three runs of `runs`' sentence.
pub(super) fn rest_runs(
    model: &MiniLm,
    runs: &Runs,
    tokens: &[String],
) -> Result<RestRuns, WebError> {
    let start = now_ms();
    let ids = &runs.ids;
    let other = run(model, ids, !runs.first_table)?;
    let permutation = reversal(tokens);
    let reversed = match reordered(ids, &permutation) {
        Some(reversed) => Some((run(model, &reversed, false)?, run(model, &reversed, true)?)),
        None => None,
    };
    Ok(rest_of(
        (runs.first_table, &runs.first),
        other,
        &permutation,
        reversed,
        now_ms() - start,
    ))
}

/// `ids` in the order of `permutation`, or `None` when it moves no token.
pub(super) fn reordered(ids: &[u32], permutation: &[usize]) -> Option<Vec<u32>> {
    let moves = permutation.iter().enumerate().any(|(i, &p)| i != p);
    moves.then(|| permutation.iter().map(|&i| ids[i]).collect())
}

/// The runs after the first, from their weights: the other table's run, and the reversed words'
/// runs (without the table, with it) when reversing moves a token.
pub(super) fn rest_of(
    (first_table, first): (bool, &Array4<f32>),
    other: Array4<f32>,
    permutation: &[usize],
    reversed: Option<(Array4<f32>, Array4<f32>)>,
    ms: f64,
) -> RestRuns {
    let (with_table, without_table) = if first_table {
        (first, &other)
    } else {
        (&other, first)
    };
    let (gap_without_table, gap_with_table) = match &reversed {
        Some((without, with)) => (
            permutation_gap(without_table, without, permutation),
            permutation_gap(with_table, with, permutation),
        ),
        None => (0.0, 0.0),
    };
    RestRuns {
        other,
        gap_without_table,
        gap_with_table,
        reversal_moves: reversed.is_some(),
        ms,
    }
}

/// A sentence's four runs from the GPU, as the CPU path keeps them.
pub(super) fn gpu_runs(runs: GpuRuns, tokens: &[String]) -> Runs {
    let rest = rest_of(
        (runs.first_table, &runs.first),
        runs.other,
        &reversal(tokens),
        runs.reversed,
        runs.ms - runs.first_ms,
    );
    Runs {
        ids: runs.ids,
        first_table: runs.first_table,
        first: runs.first,
        first_ms: runs.first_ms,
        rest: Some(rest),
        compute: "webgpu",
    }
}

/// The embeddings' sums of the four runs of `ids`, for the GPU.
pub(super) fn gpu_job(
    model: &MiniLm,
    (ids, tokens): (&[u32], &[String]),
    first_table: bool,
) -> Result<GpuJob, WebError> {
    let sum = |ids: &[u32], position_table: bool| {
        model
            .embedding_sum(ids, table(position_table))
            .map_err(model_error)
    };
    let reversed = match reordered(ids, &reversal(tokens)) {
        Some(reversed) => Some((sum(&reversed, false)?, sum(&reversed, true)?)),
        None => None,
    };
    Ok(GpuJob {
        ids: ids.to_vec(),
        first_table,
        first: sum(ids, first_table)?,
        other: sum(ids, !first_table)?,
        reversed,
    })
}

/// The stats of a sentence whose four runs are in: `partial`'s (the shown run's) with the
/// position heads, the reversal's gaps and the takeaway.
pub(super) fn complete_stats(
    partial: PretrainedStats,
    (with_table, without_table): (&Array4<f32>, &Array4<f32>),
    rest: &RestRuns,
    first_ms: f64,
) -> PretrainedStats {
    let heads = position_heads(with_table, without_table);
    PretrainedStats {
        lost_patterns: heads.iter().filter(|h| h.lost()).count(),
        takeaway: takeaway(&TakeawayInputs {
            position_table: partial.position_table,
            total_heads: partial.layers * partial.heads,
            tokens: partial.ids.len(),
            position_heads: &heads,
            gap_without_table: rest.gap_without_table,
            gap_with_table: rest.gap_with_table,
            reversal_moves: rest.reversal_moves,
        }),
        position_heads: heads,
        permutation_gap_without_table: rest.gap_without_table,
        permutation_gap_with_table: rest.gap_with_table,
        status: "ready".into(),
        run_ms: first_ms + rest.ms,
        ..partial
    }
}
