//! The multi-head panel without the DOM: the batch example's two sequences split into heads with
//! every head of a sequence using that sequence's valid length (`repeat`) against what `np.tile`
//! gives, the maps as drawn for reading their cells, and every sentence and caption the panel
//! shows (messages of `locales/computed`). Tested natively; the view (`view.rs`) draws and wires.

use ndarray::{s, Array2, Array4};
use serde::Serialize;
use thiserror::Error;

use crate::math::heads::{
    compare_valid_len_orders_qk, head_valid_lens, multi_head_weights_positioned, repeat_valid_lens,
    tiled_head_valid_lens, HeadsError,
};
use crate::math::layer::{mean_self_weight, Projections};
use crate::math::measures::masked_weights_are_zero;
use crate::math::sentence::{projected_batch, LayerChoice, SentenceError};
use crate::model::plot::PixelRect;
use crate::model::present::format_number;
use crate::model::query::values::UrlName;
use crate::model::settings::{divisors, PAD_TOKEN};

pub mod takeaway;
#[cfg(target_arch = "wasm32")]
mod view;
#[cfg(target_arch = "wasm32")]
pub use view::mount;

/// At most this many heads are drawn per sequence (the readout covers all of them).
pub const SHOWN_HEADS: usize = 8;

/// The panel's numbers (`peLab.stats.panels.heads`).
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HeadsStats {
    pub heads: usize,
    /// The choices offered: the divisors of d.
    pub divisors: Vec<usize>,
    pub head_dim: usize,
    pub sequences: Vec<Vec<String>>,
    pub valid_lens: Vec<usize>,
    /// [sequence][head]: the valid length each head actually used (`repeat`).
    pub per_head_valid_lens: Vec<Vec<usize>>,
    /// [sequence][head]: what `np.tile` would have given.
    pub tiled_valid_lens: Vec<Vec<usize>>,
    /// (sequence, head) maps that `tile` gives another sequence's length.
    pub wrong_heads_with_tile: usize,
    /// max |weight(tile) − weight(repeat)|.
    pub tile_max_weight_difference: f64,
    /// Every masked weight of every map is exactly 0.
    pub masked_weights_zero: bool,
    /// Mean weight of a query on its own key over every map of both sequences.
    pub mean_self_weight: f64,
    /// The projections in use (as the attention panel's).
    pub projection: &'static str,
    /// Whether np.tile's maps are drawn beside the right ones.
    pub show_tile: bool,
    pub shown_heads: usize,
    /// weights[sequence][head][query][key].
    pub weights: Vec<Vec<Vec<Vec<f32>>>>,
    pub ms: f64,
}

/// Why the panel's numbers cannot be computed: the projected batch or the heads' layout.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum HeadsPanelError {
    #[error(transparent)]
    Sentence(#[from] SentenceError),
    #[error(transparent)]
    Heads(#[from] HeadsError),
}

/// The panel's numbers and every map's weights, (sequence, head, query, key), with `repeat`'s
/// lengths and with `np.tile`'s (drawn beside them).
#[derive(Debug, Clone)]
pub struct Heads {
    pub stats: HeadsStats,
    pub weights: Array4<f32>,
    pub tiled_weights: Array4<f32>,
}

/// The two `sequences` with valid lengths `lens` through the layer `choice` (its d, projections
/// and position family) split into `heads` heads; `show_tile` is recorded for the figure.
pub fn compute(
    sequences: &[Vec<String>; 2],
    lens: [usize; 2],
    heads: usize,
    show_tile: bool,
    choice: &LayerChoice,
    projections: &Projections,
) -> Result<Heads, HeadsPanelError> {
    let d = choice.d;
    let (q, k) = projected_batch(sequences, choice, projections)?;
    let position = &choice.position;
    let w = multi_head_weights_positioned(
        q.view(),
        k.view(),
        heads,
        &repeat_valid_lens(&lens, heads)?,
        position,
    )?;
    let (comparison, tiled_w) =
        compare_valid_len_orders_qk(q.view(), k.view(), heads, &lens, position)?;
    let masked_zero = (0..2).all(|b| {
        (0..heads).all(|h| masked_weights_are_zero(w.slice(s![b, h, .., ..]), Some(lens[b])))
    });
    let maps: Vec<_> = (0..2)
        .flat_map(|b| (0..heads).map(move |h| (b, h)))
        .map(|(b, h)| w.slice(s![b, h, .., ..]).to_owned())
        .collect();
    let shown = heads.min(SHOWN_HEADS);
    let stats = HeadsStats {
        heads,
        divisors: divisors(d),
        head_dim: d / heads,
        sequences: sequences.to_vec(),
        valid_lens: lens.to_vec(),
        per_head_valid_lens: head_valid_lens(&lens, heads)?,
        tiled_valid_lens: tiled_head_valid_lens(&lens, heads)?,
        wrong_heads_with_tile: comparison.wrong_heads.len(),
        tile_max_weight_difference: comparison.max_weight_difference,
        masked_weights_zero: masked_zero,
        mean_self_weight: mean_self_weight(&maps),
        projection: choice.mode.to_query(),
        show_tile,
        shown_heads: shown,
        weights: (0..2)
            .map(|b| {
                (0..shown)
                    .map(|h| {
                        w.slice(s![b, h, .., ..])
                            .rows()
                            .into_iter()
                            .map(|r| r.to_vec())
                            .collect()
                    })
                    .collect()
            })
            .collect(),
        ms: 0.0,
    };
    Ok(Heads {
        stats,
        weights: w,
        tiled_weights: tiled_w,
    })
}

/// "head 0" or "heads 0–(count − 1)".
fn head_range(count: usize) -> String {
    if count == 1 {
        crate::message!("readout-heads-head-zero")
    } else {
        crate::message!("readout-heads-head-range", last = count - 1)
    }
}

/// The read-out: each sequence's length, what `tile` would have given, and the masked weights.
pub fn readout(stats: &HeadsStats) -> String {
    let heads = stats.heads;
    let lines: Vec<String> = stats
        .valid_lens
        .iter()
        .zip(&stats.tiled_valid_lens)
        .enumerate()
        .map(|(b, (len, tiled))| {
            let tiled: Vec<String> = tiled.iter().map(|v| v.to_string()).collect();
            crate::message!(
                "readout-heads-sequence",
                sequence = b,
                heads = head_range(heads),
                valid_len = *len,
                tiled = tiled.join(", ")
            )
        })
        .collect();
    crate::message!(
        "readout-heads",
        sequences = lines.join(&crate::message!("readout-heads-sequence-separator")),
        wrong = stats.wrong_heads_with_tile,
        maps = 2 * heads,
        change = format_number(stats.tile_max_weight_difference),
        zero = if stats.masked_weights_zero {
            "exactly"
        } else {
            "not"
        }
    )
}

/// The note under the figure: how d = `d` is split, which heads are drawn, and the padding.
pub fn note(d: usize, stats: &HeadsStats) -> String {
    let (heads, shown) = (stats.heads, stats.shown_heads);
    let padded = stats.sequences.iter().flatten().any(|t| t == PAD_TOKEN);
    crate::message!(
        "readout-heads-note",
        d = d,
        heads = heads,
        head_dim = stats.head_dim,
        drawn = if heads > shown {
            crate::message!(
                "readout-heads-note-drawn",
                last = shown.saturating_sub(1),
                heads = heads
            )
        } else {
            String::new()
        },
        padded = if padded {
            crate::message!("readout-heads-note-padded", pad = PAD_TOKEN)
        } else {
            String::new()
        }
    )
}

/// The title over a row of maps: sequence `b` with its tokens, or (`buggy`) how many of its
/// drawn maps `np.tile` gives the wrong length.
pub fn row_title(stats: &HeadsStats, b: usize, buggy: bool) -> String {
    if buggy {
        let rows = stats.per_head_valid_lens.get(b);
        let wrong = rows
            .zip(stats.tiled_valid_lens.get(b))
            .map_or(0, |(right, tiled)| {
                let pairs = right.iter().zip(tiled).take(stats.shown_heads);
                pairs.filter(|(r, t)| r != t).count()
            });
        crate::message!(
            "figure-heads-row-title-tile",
            sequence = b,
            wrong = wrong,
            shown = stats.shown_heads
        )
    } else {
        let tokens: Vec<String> = stats
            .sequences
            .get(b)
            .map(|sequence| sequence.iter().map(|t| format!("“{t}”")).collect())
            .unwrap_or_default();
        crate::message!(
            "figure-heads-row-title",
            sequence = b,
            valid_len = stats.valid_lens.get(b).copied().unwrap_or(0),
            tokens = tokens.join(" ")
        )
    }
}

/// The caption over one map: its head and the valid length it used (`short` for narrow maps).
pub fn map_caption(head: usize, valid_len: usize, short: bool) -> String {
    if short {
        crate::message!(
            "figure-heads-map-caption-short",
            head = head,
            valid_len = valid_len
        )
    } else {
        crate::message!(
            "figure-heads-map-caption",
            head = head,
            valid_len = valid_len
        )
    }
}

/// One map as drawn, for reading its cells.
#[derive(Debug, Clone)]
pub struct HeadMap {
    pub rect: PixelRect,
    pub sequence: usize,
    pub head: usize,
    /// A map of `np.tile`'s row.
    pub buggy: bool,
    /// The valid length this map used, and the one its sequence has.
    pub used_len: usize,
    pub right_len: usize,
    pub tokens: Vec<String>,
    pub weights: Array2<f32>,
}

impl HeadMap {
    /// The read-out of cell (query, key): which map, which tokens, the weight or the mask.
    pub fn describe(&self, query: usize, key: usize) -> String {
        let (b, h, used) = (self.sequence, self.head, self.used_len);
        let map = if self.buggy && used != self.right_len {
            crate::message!(
                "readout-heads-cell-map-tile-wrong",
                sequence = b,
                head = h,
                used = used,
                right = self.right_len
            )
        } else if self.buggy {
            crate::message!(
                "readout-heads-cell-map-tile",
                sequence = b,
                head = h,
                used = used
            )
        } else {
            crate::message!(
                "readout-heads-cell-map",
                sequence = b,
                head = h,
                used = used
            )
        };
        let token = |i: usize| self.tokens.get(i).map_or("", String::as_str);
        let names = crate::message!(
            "readout-heads-cell",
            map = map,
            query_token = token(query),
            query = query,
            key_token = token(key),
            key = key
        );
        let weight = self.weights.get((query, key)).copied().unwrap_or(f32::NAN);
        match used {
            0 => crate::message!(
                "readout-heads-cell-all-masked",
                names = names,
                weight = format!("{weight:.4}")
            ),
            v if key >= v => crate::message!(
                "readout-attention-cell-masked",
                names = names,
                key = key,
                valid_len = v
            ),
            _ => crate::message!(
                "readout-attention-cell",
                names = names,
                weight = format!("{weight:.4}")
            ),
        }
    }

    /// (rows, columns) of the map: (queries, keys).
    pub fn size(&self) -> (usize, usize) {
        self.weights.dim()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::layer::ProjectionMode;
    use crate::math::position::PositionScheme;
    use crate::model::settings::batch_sequences;

    fn choice(d: usize, mode: ProjectionMode) -> LayerChoice {
        LayerChoice {
            d,
            base: 10_000.0,
            positional_encoding: true,
            scale_embeddings: false,
            mode,
            seed: 3,
            delta: 1,
            beta: 1.0,
            position: PositionScheme::absolute(),
        }
    }

    /// Two sequences of "a b c d e f": the first full, the second padded.
    fn run(d: usize, heads: usize, lens: [usize; 2]) -> (Heads, [Vec<String>; 2], LayerChoice) {
        let tokens: Vec<String> = "a b c d e f".split(' ').map(str::to_string).collect();
        let sequences = batch_sequences(&tokens);
        let choice = choice(d, ProjectionMode::Random);
        let heads = compute(
            &sequences,
            lens,
            heads,
            true,
            &choice,
            &choice.projections(),
        )
        .unwrap();
        (heads, sequences, choice)
    }

    #[test]
    fn every_head_of_a_sequence_uses_its_length_and_tile_mixes_them() {
        let (result, _, _) = run(8, 2, [3, 2]);
        let stats = &result.stats;
        assert_eq!((stats.head_dim, stats.shown_heads), (4, 2));
        assert_eq!(stats.divisors, [1, 2, 4, 8]);
        assert_eq!(stats.per_head_valid_lens, [[3, 3], [2, 2]]);
        // np.tile lays the lengths out as [3, 2, 3, 2]: head 1 of sequence 0 and head 0 of
        // sequence 1 get the other sequence's length.
        assert_eq!(stats.tiled_valid_lens, [[3, 2], [3, 2]]);
        assert_eq!(stats.wrong_heads_with_tile, 2);
        assert!(stats.tile_max_weight_difference > 0.0);
        assert!(stats.masked_weights_zero);
        assert_eq!(stats.projection, "random");
        assert!(stats.show_tile);
    }

    #[test]
    fn weights_equal_a_masked_softmax_of_each_heads_columns() {
        let (result, sequences, choice) = run(8, 2, [3, 2]);
        let (q, k) = projected_batch(&sequences, &choice, &choice.projections()).unwrap();
        let head_dim = 4;
        let mut self_weights = Vec::new();
        for (b, len) in [3usize, 2].into_iter().enumerate() {
            for h in 0..2 {
                let map = &result.stats.weights[b][h];
                for i in 0..4 {
                    let scores: Vec<f64> = (0..len)
                        .map(|j| {
                            (0..head_dim)
                                .map(|c| {
                                    let column = h * head_dim + c;
                                    f64::from(q[[b, i, column]]) * f64::from(k[[b, j, column]])
                                })
                                .sum::<f64>()
                                / (head_dim as f64).sqrt()
                        })
                        .collect();
                    let top = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                    let total: f64 = scores.iter().map(|s| (s - top).exp()).sum();
                    for j in 0..4 {
                        let expected = if j < len {
                            (scores[j] - top).exp() / total
                        } else {
                            0.0
                        };
                        let got = f64::from(map[i][j]);
                        assert!((got - expected).abs() < 1e-5, "({b}, {h}) [{i}, {j}]");
                    }
                    self_weights.push(f64::from(map[i][i]));
                }
            }
        }
        let mean = self_weights.iter().sum::<f64>() / self_weights.len() as f64;
        assert!((result.stats.mean_self_weight - mean).abs() < 1e-9);
        assert_eq!(result.weights.dim(), (2, 2, 4, 4));
        assert_eq!(result.tiled_weights.dim(), (2, 2, 4, 4));
    }

    #[test]
    fn at_most_eight_heads_are_drawn_and_their_title_counts_only_those() {
        let (result, _, _) = run(16, 16, [4, 1]);
        assert_eq!((result.stats.shown_heads, result.stats.head_dim), (8, 1));
        assert!(result.stats.weights.iter().all(|maps| maps.len() == 8));
        assert_eq!(result.weights.dim(), (2, 16, 4, 4));
        // Tile gives sequence 0 the lengths 4, 1, 4, 1, …: four of the eight drawn maps are wrong.
        let title = row_title(&result.stats, 0, true);
        assert_eq!(title, "np.tile (buggy), sequence 0: 4 of 8 maps wrong");
    }

    #[test]
    fn the_readout_states_each_sequences_lengths_and_the_tile_comparison() {
        let (result, _, _) = run(8, 2, [3, 2]);
        let stats = &result.stats;
        assert_eq!(
            readout(stats),
            format!(
                "sequence 0: heads 0–1 use valid_len 3 (np.tile would have given 3, 2); sequence 1: heads 0–1 use valid_len 2 (np.tile would have given 3, 2). With tile, 2 of 4 maps would get the other sequence's length (largest weight change {}); every masked weight here is exactly 0.",
                format_number(stats.tile_max_weight_difference)
            )
        );
        // Where some masked weight is not 0, the sentence says not all are (never that none is).
        let mut leaky = stats.clone();
        leaky.masked_weights_zero = false;
        assert!(readout(&leaky).ends_with("; the masked weights here are NOT all 0."));
        let one = run(8, 1, [3, 2]).0.stats;
        let text = readout(&one);
        assert!(
            text.starts_with("sequence 0: head 0 use valid_len 3 (np.tile would have given 3)"),
            "{text}"
        );
        assert!(text.contains("With tile, 0 of 2 maps"), "{text}");
    }

    #[test]
    fn the_note_states_the_split_the_drawn_heads_and_the_padding() {
        let (result, _, _) = run(8, 2, [3, 2]);
        assert_eq!(
            note(8, &result.stats),
            "d = 8 split into 2 heads of 4 columns each. The sentence is short, so “<pad>” fills the sequences: mask it with valid_lens."
        );
        let many = run(16, 16, [4, 1]).0.stats;
        assert!(note(16, &many)
            .starts_with("d = 16 split into 16 heads of 1 columns each (drawn: heads 0–7 of 16)."));
        let full = HeadsStats {
            heads: 1,
            head_dim: 8,
            shown_heads: 1,
            sequences: vec![vec!["a".into()], vec!["b".into()]],
            ..HeadsStats::default()
        };
        assert_eq!(note(8, &full), "d = 8 split into 1 head of 8 columns each.");
    }

    #[test]
    fn titles_name_the_tokens_and_count_the_wrong_tiled_maps() {
        let (result, _, _) = run(8, 2, [3, 2]);
        assert_eq!(
            row_title(&result.stats, 1, false),
            "Sequence 1 (valid_len = 2): “e” “f” “<pad>” “<pad>”"
        );
        assert_eq!(
            row_title(&result.stats, 0, true),
            "np.tile (buggy), sequence 0: 1 of 2 maps wrong"
        );
        assert_eq!(map_caption(3, 2, false), "head 3 · 2");
        assert_eq!(map_caption(3, 2, true), "h3 · 2");
    }

    #[test]
    fn a_cell_reads_its_map_tokens_and_weight_or_mask() {
        let map = HeadMap {
            rect: PixelRect {
                x0: 0.0,
                y0: 0.0,
                x1: 10.0,
                y1: 10.0,
            },
            sequence: 0,
            head: 1,
            buggy: true,
            used_len: 1,
            right_len: 2,
            tokens: vec!["a".into(), "b".into()],
            weights: Array2::from_shape_vec((2, 2), vec![1.0, 0.0, 0.25, 0.75]).unwrap(),
        };
        assert_eq!(map.size(), (2, 2));
        assert_eq!(
            map.describe(0, 1),
            "np.tile (buggy), sequence 0, head 1 (valid_len 1, should be 2): query “a” (row 0) → key “b” (column 1): masked (key 1 ≥ valid_len 1), weight exactly 0"
        );
        let right = HeadMap {
            buggy: false,
            used_len: 2,
            ..map.clone()
        };
        assert_eq!(
            right.describe(1, 0),
            "sequence 0, head 1 (valid_len 2): query “b” (row 1) → key “a” (column 0): weight 0.2500"
        );
        let empty = HeadMap {
            used_len: 0,
            right_len: 0,
            ..map
        };
        assert!(empty
            .describe(1, 1)
            .ends_with("(valid_len 0): query “b” (row 1) → key “b” (column 1): every key masked, uniform weight 0.7500"));
    }
}
