//! The Shaw panel without the DOM: a seeded layer with relative key vectors clipped to ±k, its
//! scores e_ij on the attention panel's sentence, the memory of the naive and the skewed form at
//! the page's n and d, the offset labels of the table and the read-out that states them. Tested
//! natively; its view (`view.rs`) draws and wires.

use serde::Serialize;
use thiserror::Error;

use crate::math::shaw::{
    naive_relative_memory, skewed_relative_memory, ShawError, ShawLayer, MAX_DIMENSION,
};
use crate::math::tokens::attention_input;
use crate::math::MathError;
use crate::model::present::format_number;

pub mod takeaway;
#[cfg(target_arch = "wasm32")]
mod view;
#[cfg(target_arch = "wasm32")]
pub use view::mount;

/// The two lines the scores canvas shows when there is nothing to score.
pub fn no_tokens_message() -> [String; 2] {
    [
        crate::message!("figure-shaw-no-tokens"),
        crate::message!("figure-shaw-type-a-few-words"),
    ]
}

/// The panel's numbers (`peLab.stats.panels.shaw`).
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ShawStats {
    /// The clipping distance k (`clip`).
    pub clip: usize,
    /// 2k + 1 rows of a^K (and of a^V).
    pub table_rows: usize,
    /// The layer's width (the global d, at most the panel's limit).
    pub d: usize,
    pub tokens: Vec<String>,
    /// e_ij of the sentence, row i = query.
    pub logits: Vec<Vec<f64>>,
    /// How many of the 2k + 1 rows the sentence's offsets use: min(2n − 1, 2k + 1).
    pub distinct_offsets_used: usize,
    /// Floats of the relative keys at the page's n and d: the naive L²·d tensor and the skewed
    /// L·d form, and their ratio (= L).
    pub memory_n: usize,
    pub memory_d: usize,
    pub naive_memory: usize,
    pub skewed_memory: usize,
    pub ms: f64,
}

/// Why the panel's numbers cannot be computed: the layer or the sentence's input.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum ShawPanelError {
    #[error(transparent)]
    Shaw(#[from] ShawError),
    #[error(transparent)]
    Math(#[from] MathError),
}

/// The panel's numbers and the layer they come from (its a^K table is drawn).
#[derive(Debug, Clone)]
pub struct Shaw {
    pub stats: ShawStats,
    pub layer: ShawLayer,
}

/// The layer of width min(d, [`MAX_DIMENSION`]) with clipping distance `clip` drawn from `seed`,
/// its scores on `tokens` (X of `base`, × √d when `scale_embeddings`, no P: position enters
/// through the relative keys), and the memory at the page's `n` and `d`.
pub fn compute(
    tokens: &[String],
    n: usize,
    d: usize,
    base: f64,
    clip: usize,
    seed: u64,
    scale_embeddings: bool,
) -> Result<Shaw, ShawPanelError> {
    let width = d.min(MAX_DIMENSION);
    let mut stats = ShawStats {
        clip,
        table_rows: 2 * clip + 1,
        d: width,
        tokens: tokens.to_vec(),
        memory_n: n,
        memory_d: d,
        naive_memory: naive_relative_memory(n, d),
        skewed_memory: skewed_relative_memory(n, d),
        ..ShawStats::default()
    };
    let layer = ShawLayer::new(width, clip, seed)?;
    if tokens.is_empty() {
        return Ok(Shaw { stats, layer });
    }
    let x = attention_input(tokens, width, base, false, scale_embeddings)?.mapv(f64::from);
    let logits = layer.logits(x.view())?;
    stats.logits = logits.rows().into_iter().map(|r| r.to_vec()).collect();
    stats.distinct_offsets_used = (2 * tokens.len() - 1).min(2 * clip + 1);
    Ok(Shaw { stats, layer })
}

/// The table's row labels, offsets −k … k: every row when few, else the ends and the middle.
pub fn offset_labels(clip: usize) -> Vec<String> {
    (0..2 * clip + 1)
        .map(|r| {
            let offset = r as i64 - clip as i64;
            if clip <= 8 || r == 0 || r == clip || r == 2 * clip {
                format!("{offset:+}")
            } else {
                String::new()
            }
        })
        .collect()
}

/// A float32 count as bytes, in words.
pub fn bytes(floats: usize) -> String {
    let b = floats as f64 * 4.0;
    if b >= 1e9 {
        format!("{} GB", format_number(b / 1e9))
    } else if b >= 1e6 {
        format!("{} MB", format_number(b / 1e6))
    } else if b >= 1e3 {
        format!("{} kB", format_number(b / 1e3))
    } else {
        format!("{} B", format_number(b))
    }
}

/// The memory of the relative keys at the page's n and d, naive against skewed.
pub fn memory_sentence(stats: &ShawStats) -> String {
    crate::message!(
        "readout-shaw-memory",
        n = stats.memory_n,
        d = stats.memory_d,
        naive = stats.naive_memory,
        naive_bytes = bytes(stats.naive_memory),
        skewed = stats.skewed_memory,
        skewed_bytes = bytes(stats.skewed_memory),
    )
}

/// The read-out under the figures: the table and the sentence's offsets, then the memory (only
/// the memory when the sentence has no tokens).
pub fn readout(stats: &ShawStats) -> String {
    let memory = memory_sentence(stats);
    let n = stats.tokens.len();
    if n == 0 {
        return memory;
    }
    let (clip, d) = (stats.clip, stats.d);
    crate::message!(
        "readout-shaw",
        clip = clip,
        rows = stats.table_rows,
        d = d,
        offsets = 2 * n - 1,
        tokens = n,
        used = stats.distinct_offsets_used,
        memory = memory,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn scores_equal_the_naive_sum_over_clipped_relative_keys() {
        let tokens = words("the cat sat on");
        let shaw = compute(&tokens, 64, 6, 10_000.0, 1, 5, true).unwrap();
        let (stats, layer) = (&shaw.stats, &shaw.layer);
        assert_eq!((stats.d, stats.table_rows), (6, 3));
        assert_eq!(layer.key_table.dim(), (3, 6));
        // Four tokens have offsets −3 … 3, seven of them, but k = 1 keeps only three rows.
        assert_eq!(stats.distinct_offsets_used, 3);
        let x = attention_input(&tokens, 6, 10_000.0, false, true)
            .unwrap()
            .mapv(f64::from);
        let (q, k) = (x.dot(&layer.wq), x.dot(&layer.wk));
        for i in 0..4 {
            for j in 0..4 {
                let row = (j as i64 - i as i64).clamp(-1, 1) + 1;
                let expected: f64 = (0..6)
                    .map(|c| q[[i, c]] * (k[[j, c]] + layer.key_table[[row as usize, c]]))
                    .sum::<f64>()
                    / 6f64.sqrt();
                assert!((stats.logits[i][j] - expected).abs() < 1e-12, "e_{i}{j}");
            }
        }
    }

    #[test]
    fn memory_is_n_squared_d_naive_and_n_d_skewed_at_the_page_size() {
        let stats = compute(&[], 512, 2048, 10_000.0, 4, 1, false)
            .unwrap()
            .stats;
        // The layer is capped, the memory is not: it is stated at the page's n and d.
        assert_eq!((stats.d, stats.memory_n, stats.memory_d), (1024, 512, 2048));
        assert_eq!(stats.naive_memory, 512 * 512 * 2048);
        assert_eq!(stats.skewed_memory, 512 * 2048);
        assert!(stats.logits.is_empty());
        assert_eq!(stats.distinct_offsets_used, 0);
    }

    #[test]
    fn bytes_are_four_per_float_in_the_largest_unit_below() {
        assert_eq!(bytes(100), "400.000 B");
        assert_eq!(bytes(1000), "4.000 kB");
        assert_eq!(bytes(512 * 512 * 2048), "2.147 GB");
        assert_eq!(bytes(512 * 2048), "4.194 MB");
    }

    #[test]
    fn offsets_are_all_labelled_up_to_eight_and_only_the_ends_and_middle_beyond() {
        assert_eq!(offset_labels(1), ["-1", "+0", "+1"]);
        let wide = offset_labels(10);
        assert_eq!(wide.len(), 21);
        let labelled: Vec<(usize, &str)> = wide
            .iter()
            .enumerate()
            .filter(|(_, l)| !l.is_empty())
            .map(|(r, l)| (r, l.as_str()))
            .collect();
        assert_eq!(labelled, [(0, "-10"), (10, "+0"), (20, "+10")]);
    }

    #[test]
    fn the_readout_states_rows_offsets_and_memory() {
        let stats = compute(&words("a b c"), 512, 2048, 10_000.0, 1, 1, false)
            .unwrap()
            .stats;
        let text = readout(&stats);
        assert!(
            text.starts_with("k = 1: a^K and a^V have 2k + 1 = 3 rows of d = 1024; the 5 offsets of 3 tokens use 3 of them (every offset beyond ±1 shares the end row)."),
            "{text}"
        );
        assert!(
            text.ends_with(&memory_sentence(&stats)),
            "the memory closes the read-out: {text}"
        );
        let memory = memory_sentence(&stats);
        assert!(
            memory.contains("n = 512 and d = 2048: the naive form gathers an n × n × d tensor of them, 536870912 floats (2.147 GB)"),
            "{memory}"
        );
        assert!(
            memory.contains("1048576 floats (4.194 MB), n = 512 times less"),
            "{memory}"
        );
        let one = compute(&words("a"), 8, 8, 10_000.0, 2, 1, false)
            .unwrap()
            .stats;
        assert!(readout(&one).contains("the 1 offsets of 1 token use 1 of them"));
        let empty = compute(&[], 8, 8, 10_000.0, 2, 1, false).unwrap().stats;
        assert_eq!(readout(&empty), memory_sentence(&empty));
    }
}
