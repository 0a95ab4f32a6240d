//! The pipeline panel ("What exactly are Q, K and V?"): one self-attention layer of the sentence,
//! stage by stage, for head 0: Z, Q = Z·W_q, K = Z·W_k, V = Z·W_v (head 0's d/h columns), the
//! scaled scores QKᵀ/√d_h, the mask (−10⁶ as d2l's `masked_softmax`), the softmax, weights·V, and
//! the output after concatenating the heads and multiplying by W_o. Also the figure's layout, the
//! cell under the pointer, what a hover outlines, and the cell images. Pure, so tested natively.

use std::ops::Range;

use ndarray::{s, Array2, ArrayView2};
use thiserror::Error;

use super::colormap::{diverging, diverging_rgba, sequential, MASKED_DARK, MASKED_LIGHT};
use super::plot::{cell_at, PixelRect};
use super::position::{PositionError, PositionScheme};
use super::projection::{
    layer_positioned, LayerStages, ProjectionError, ProjectionMode, Projections,
};
use super::tokens::attention_input;
use super::MathError;

/// The stages of the figure: Z, Q, K, V in the upper band, the rest in the lower one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    Z,
    Q,
    K,
    V,
    Scores,
    Masked,
    Weights,
    Mixed,
    Output,
}

/// Every stage, in drawing order (the index into [`layout`]'s rectangles).
pub const STAGES: [Stage; 9] = [
    Stage::Z,
    Stage::Q,
    Stage::K,
    Stage::V,
    Stage::Scores,
    Stage::Masked,
    Stage::Weights,
    Stage::Mixed,
    Stage::Output,
];

impl Stage {
    /// The n × n stages, whose columns are keys.
    pub fn columns_are_keys(self) -> bool {
        matches!(self, Stage::Scores | Stage::Masked | Stage::Weights)
    }

    /// K and V, whose row j belongs to key j.
    pub fn rows_are_keys(self) -> bool {
        matches!(self, Stage::K | Stage::V)
    }

    /// The index of the stage in [`STAGES`].
    pub fn index(self) -> usize {
        STAGES.iter().position(|&s| s == self).unwrap_or(0)
    }
}

/// What the layer is computed from.
#[derive(Debug, Clone, PartialEq)]
pub struct PipelineSettings {
    pub d: usize,
    pub base: f64,
    pub delta: i64,
    pub positional_encoding: bool,
    pub scale_embeddings: bool,
    pub mode: ProjectionMode,
    pub seed: u64,
    pub beta: f64,
    pub heads: usize,
    /// Keys at index ≥ it are masked; `None`: none is.
    pub valid_len: Option<usize>,
    /// How position enters the layer beyond the input sum (or in it, for a learned table).
    pub position: PositionScheme,
}

#[derive(Debug, Clone, PartialEq, Error)]
pub enum PipelineError {
    #[error(transparent)]
    Math(#[from] MathError),
    #[error(transparent)]
    Projection(#[from] ProjectionError),
    #[error(transparent)]
    Position(#[from] PositionError),
}

/// The layer's input and every stage.
#[derive(Debug, Clone, PartialEq)]
pub struct Pipeline {
    pub tokens: Vec<String>,
    pub settings: PipelineSettings,
    pub z: Array2<f32>,
    pub stages: LayerStages,
}

impl Pipeline {
    /// Z = X (·√d) (+ P) of the tokens, then [`layer`] with `projections` (of `settings.mode`).
    pub fn compute(
        tokens: Vec<String>,
        settings: PipelineSettings,
        projections: &Projections,
    ) -> Result<Pipeline, PipelineError> {
        let mut z = attention_input(
            &tokens,
            settings.d,
            settings.base,
            settings.positional_encoding,
            settings.scale_embeddings,
        )?;
        settings.position.add_to_input(&mut z)?;
        let stages = layer_positioned(
            z.view(),
            projections,
            settings.heads,
            settings.valid_len,
            &settings.position,
        )?;
        Ok(Pipeline {
            tokens,
            settings,
            z,
            stages,
        })
    }

    pub fn n(&self) -> usize {
        self.tokens.len()
    }

    pub fn d(&self) -> usize {
        self.z.ncols()
    }

    pub fn heads(&self) -> usize {
        self.settings.heads.max(1)
    }

    pub fn head_dim(&self) -> usize {
        self.d() / self.heads()
    }

    /// The number of valid keys (n without a mask).
    pub fn valid(&self) -> usize {
        self.settings.valid_len.unwrap_or(self.n()).min(self.n())
    }

    /// Whether key `j` is masked.
    pub fn is_masked(&self, j: usize) -> bool {
        j >= self.valid()
    }

    /// The matrix drawn for `stage`: head 0's columns for Q, K, V and weights·V.
    pub fn matrix<'a>(&'a self, stage: Stage) -> ArrayView2<'a, f32> {
        let head = s![.., 0..self.head_dim()];
        let first = |m: &'a [Array2<f32>]| m.first().map(Array2::view);
        let empty = || self.z.slice(s![0..0, 0..0]);
        match stage {
            Stage::Z => self.z.view(),
            Stage::Q => self.stages.q.slice(head),
            Stage::K => self.stages.k.slice(head),
            Stage::V => self.stages.v.slice(head),
            Stage::Scores => first(&self.stages.scores).unwrap_or_else(empty),
            Stage::Masked => first(&self.stages.masked_scores).unwrap_or_else(empty),
            Stage::Weights => first(&self.stages.weights).unwrap_or_else(empty),
            Stage::Mixed => self.stages.heads_output.slice(head),
            Stage::Output => self.stages.output.view(),
        }
    }

    /// (rows, columns) of `stage` as drawn.
    pub fn shape(&self, stage: Stage) -> (usize, usize) {
        self.matrix(stage).dim()
    }

    /// The largest |value| of `stage` (for the masked scores, over the unmasked keys; 0 if none).
    pub fn max_abs(&self, stage: Stage) -> f32 {
        let m = self.matrix(stage);
        let valid = if stage == Stage::Masked {
            self.valid()
        } else {
            m.ncols()
        };
        m.slice(s![.., 0..valid.min(m.ncols())])
            .iter()
            .fold(0.0f32, |a, &v| a.max(v.abs()))
    }

    /// max over every row of every head of |Σ_j w_ij − 1| (0 for no rows).
    pub fn row_sum_error(&self) -> f64 {
        self.stages
            .weights
            .iter()
            .flat_map(|w| w.rows().into_iter())
            .map(|row| (row.iter().map(|&v| f64::from(v)).sum::<f64>() - 1.0).abs())
            .fold(0.0, f64::max)
    }

    /// Head 0's strongest key of query `i` and its weight (the first of equal ones).
    pub fn strongest_key(&self, i: usize) -> Option<(usize, f32)> {
        let w = self.matrix(Stage::Weights);
        if i >= w.nrows() {
            return None;
        }
        w.row(i)
            .iter()
            .copied()
            .enumerate()
            .fold(None, |best, (j, v)| match best {
                Some((_, b)) if b >= v => best,
                _ => Some((j, v)),
            })
    }

    /// The cell image of `stage`: (RGBA pixels, width, height). Signed matrices: one pixel per
    /// cell, blue–white–red over ±[`Pipeline::max_abs`]. The masked scores and the weights:
    /// [`HATCH_PX`] pixels per cell, masked keys hatched grey (a weight only where it is exactly 0:
    /// with valid_len = 0 the weights are 1/n and coloured).
    pub fn image(&self, stage: Stage) -> (Vec<u8>, usize, usize) {
        let m = self.matrix(stage);
        let (rows, columns) = m.dim();
        let limit = self.max_abs(stage).max(f32::MIN_POSITIVE);
        match stage {
            Stage::Masked => hatched_image(rows, columns, |r, c| {
                (!self.is_masked(c)).then(|| diverging(m[[r, c]], -limit, limit))
            }),
            Stage::Weights => hatched_image(rows, columns, |r, c| {
                let v = m[[r, c]];
                (!(self.is_masked(c) && v == 0.0)).then(|| sequential(v, 0.0, 1.0))
            }),
            _ => {
                let values: Vec<f32> = m.iter().copied().collect();
                (diverging_rgba(&values, -limit, limit), columns, rows)
            }
        }
    }
}

/// Pixels per cell of the hatched images.
pub const HATCH_PX: usize = 8;

/// A `rows × columns` image at [`HATCH_PX`] per cell: `colour(r, c)`, or diagonal grey stripes
/// (continuous across cells) where it is `None`.
pub fn hatched_image(
    rows: usize,
    columns: usize,
    colour: impl Fn(usize, usize) -> Option<[u8; 3]>,
) -> (Vec<u8>, usize, usize) {
    let (width, height) = (columns * HATCH_PX, rows * HATCH_PX);
    let mut pixels = vec![0u8; width * height * 4];
    for (index, pixel) in pixels.chunks_exact_mut(4).enumerate() {
        let (x, y) = (index % width, index / width);
        let rgb = colour(y / HATCH_PX, x / HATCH_PX).unwrap_or(if (x + y) % 6 < 2 {
            MASKED_DARK
        } else {
            MASKED_LIGHT
        });
        pixel.copy_from_slice(&[rgb[0], rgb[1], rgb[2], 255]);
    }
    (pixels, width, height)
}

/// Margins of the figure, in canvas pixels.
pub const LEFT: f64 = 104.0;
pub const RIGHT: f64 = 14.0;
pub const GAP: f64 = 30.0;
pub const TOP: f64 = 4.0;
/// Room for the two label lines above each band.
pub const LABEL: f64 = 42.0;
pub const BAND_GAP: f64 = 18.0;
/// Room for the legend line at the bottom.
pub const LEGEND: f64 = 30.0;

/// Below this width (a phone) the nine stages go three to a band, in three bands, with a narrower
/// margin for the token names and the legend on up to four lines: nine side by side would leave each
/// stage a few pixels and squeeze its label.
pub const NARROW_WIDTH: f64 = 700.0;
const NARROW_LEFT: f64 = 58.0;
const NARROW_GAP: f64 = 22.0;
const NARROW_LEGEND: f64 = 80.0;

/// The margin left of the stages, where the token names go.
pub fn left_margin(width: f64) -> f64 {
    if width < NARROW_WIDTH {
        NARROW_LEFT
    } else {
        LEFT
    }
}

/// The gap between two stages of a band (an arrow sits in it).
pub fn stage_gap(width: f64) -> f64 {
    if width < NARROW_WIDTH {
        NARROW_GAP
    } else {
        GAP
    }
}

/// The room for the legend below the stages (four lines on a narrow canvas).
pub fn legend_height(width: f64) -> f64 {
    if width < NARROW_WIDTH {
        NARROW_LEGEND
    } else {
        LEGEND
    }
}

/// The stages (indices into [`STAGES`]) of each band, left to right.
pub fn bands(width: f64) -> &'static [std::ops::Range<usize>] {
    if width < NARROW_WIDTH {
        &[0..3, 3..6, 6..9]
    } else {
        &[0..4, 4..9]
    }
}

/// Where each stage's cells go (in [`STAGES`] order) on a `width × height` canvas. Wide: Z, Q, K, V
/// in the upper band (widths in proportion to their columns, Z being h times as wide as Q, up to 5
/// times so that Q, K and V stay wide enough for their labels), the scores, the mask, the softmax,
/// ·V and the output in the lower band (the output up to 3 times as wide as the others). Narrow
/// ([`NARROW_WIDTH`]): three bands of three, Z and the output up to twice as wide. Every stage of a
/// band has the same height, so row i lies at the same height across a band.
pub fn layout(width: f64, height: f64, heads: usize) -> [PixelRect; 9] {
    let bands = bands(width);
    let count = bands.len() as f64;
    let (left, gap) = (left_margin(width), stage_gap(width));
    let band = ((height - TOP - count * LABEL - (count - 1.0) * BAND_GAP - legend_height(width))
        / count)
        .max(1.0);
    let h = heads.max(1) as f64;
    let weight = |stage: usize| match (stage, bands.len()) {
        (0, 2) => h.min(5.0),
        (8, 2) => h.min(3.0),
        (0 | 8, _) => h.min(2.0),
        _ => 1.0,
    };
    let mut rects = [PixelRect {
        x0: 0.0,
        y0: 0.0,
        x1: 0.0,
        y1: 0.0,
    }; 9];
    for (b, stages) in bands.iter().enumerate() {
        let y0 = TOP + LABEL + b as f64 * (band + LABEL + BAND_GAP);
        let gaps = gap * (stages.len() - 1) as f64;
        let total: f64 = stages.clone().map(weight).sum();
        let unit = ((width - left - RIGHT - gaps) / total).max(1.0);
        let mut x = left;
        for k in stages.clone() {
            let x1 = (x + weight(k) * unit).round();
            rects[k] = PixelRect {
                x0: x.round(),
                y0: y0.round(),
                x1,
                y1: (y0 + band).round(),
            };
            x = x1 + gap;
        }
    }
    rects
}

/// The stage and (row, column) under canvas point (x, y), if any.
pub fn stage_at(
    rects: &[PixelRect; 9],
    shape: impl Fn(Stage) -> (usize, usize),
    x: f64,
    y: f64,
) -> Option<(Stage, usize, usize)> {
    STAGES.iter().zip(rects).find_map(|(&stage, &rect)| {
        let (rows, columns) = shape(stage);
        cell_at(rect, rows, columns, x, y).map(|(r, c)| (stage, r, c))
    })
}

/// What the pointer selects: a query row traced through every stage, maybe a key, maybe a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Selection {
    /// The query row i.
    pub row: usize,
    /// Key j: a column of the n × n stages, a row of K and V.
    pub key: Option<usize>,
    /// The hovered cell of a stage whose columns are features: (stage, its row, column c).
    pub cell: Option<(Stage, usize, usize)>,
}

impl Selection {
    /// The selection for cell (row, column) of `stage`. On K and V (whose rows are keys) the row
    /// is key j and the query row of `previous` is kept (0 without one).
    pub fn at(stage: Stage, row: usize, column: usize, previous: Option<Selection>) -> Selection {
        if stage.columns_are_keys() {
            Selection {
                row,
                key: Some(column),
                cell: None,
            }
        } else if stage.rows_are_keys() {
            Selection {
                row: previous.map_or(0, |p| p.row),
                key: Some(row),
                cell: Some((stage, row, column)),
            }
        } else {
            Selection {
                row,
                key: None,
                cell: Some((stage, row, column)),
            }
        }
    }
}

/// How an outline is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    Query,
    Key,
    Cell,
}

/// Cells of one stage to outline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outline {
    pub stage: Stage,
    pub rows: Range<usize>,
    pub columns: Range<usize>,
    pub mark: Mark,
}

/// What a selection outlines: query row i in every stage but K and V; key j as row j of K and V
/// and column j of the n × n stages; the hovered cell. Out-of-range indices are left out.
pub fn outlines(selection: &Selection, shape: impl Fn(Stage) -> (usize, usize)) -> Vec<Outline> {
    let mut out = Vec::new();
    for stage in STAGES {
        let (rows, columns) = shape(stage);
        if !stage.rows_are_keys() && selection.row < rows {
            let i = selection.row;
            out.push(Outline {
                stage,
                rows: i..i + 1,
                columns: 0..columns,
                mark: Mark::Query,
            });
        }
        if let Some(j) = selection.key {
            if stage.rows_are_keys() && j < rows {
                out.push(Outline {
                    stage,
                    rows: j..j + 1,
                    columns: 0..columns,
                    mark: Mark::Key,
                });
            } else if stage.columns_are_keys() && j < columns {
                out.push(Outline {
                    stage,
                    rows: 0..rows,
                    columns: j..j + 1,
                    mark: Mark::Key,
                });
            }
        }
    }
    if let Some((stage, r, c)) = selection.cell {
        let (rows, columns) = shape(stage);
        if r < rows && c < columns {
            out.push(Outline {
                stage,
                rows: r..r + 1,
                columns: c..c + 1,
                mark: Mark::Cell,
            });
        }
    }
    out
}

/// The pixels of `outline`'s cells in `rect`, a `shape` matrix.
pub fn outline_rect(rect: PixelRect, shape: (usize, usize), outline: &Outline) -> PixelRect {
    let (rows, columns) = (shape.0.max(1) as f64, shape.1.max(1) as f64);
    let (cw, ch) = (rect.width() / columns, rect.height() / rows);
    PixelRect {
        x0: rect.x0 + outline.columns.start as f64 * cw,
        y0: rect.y0 + outline.rows.start as f64 * ch,
        x1: rect.x0 + outline.columns.end as f64 * cw,
        y1: rect.y0 + outline.rows.end as f64 * ch,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::projection::MASKED_SCORE;

    fn pipeline(n: usize, d: usize, heads: usize, valid_len: Option<usize>) -> Pipeline {
        let tokens: Vec<String> = (0..n).map(|k| format!("w{k}")).collect();
        let settings = PipelineSettings {
            d,
            base: 10000.0,
            delta: 1,
            positional_encoding: true,
            scale_embeddings: true,
            mode: ProjectionMode::Random,
            seed: 1,
            beta: 1.0,
            heads,
            valid_len,
            position: crate::position::PositionScheme::absolute(),
        };
        let projections = Projections::of_mode(settings.mode, d, 1, 10000.0, 1, 1.0);
        Pipeline::compute(tokens, settings, &projections).expect("a layer")
    }

    #[test]
    fn shapes_follow_the_heads() {
        let p = pipeline(8, 32, 4, None);
        assert_eq!(p.shape(Stage::Z), (8, 32));
        for stage in [Stage::Q, Stage::K, Stage::V, Stage::Mixed] {
            assert_eq!(p.shape(stage), (8, 8), "{stage:?}");
        }
        for stage in [Stage::Scores, Stage::Masked, Stage::Weights] {
            assert_eq!(p.shape(stage), (8, 8), "{stage:?}");
        }
        assert_eq!(p.shape(Stage::Output), (8, 32));
        assert!(p.row_sum_error() < 1e-5);
    }

    #[test]
    fn masking_as_d2l() {
        let p = pipeline(8, 32, 4, Some(3));
        let masked = p.matrix(Stage::Masked);
        let w = p.matrix(Stage::Weights);
        for i in 0..8 {
            for j in 3..8 {
                assert_eq!(masked[[i, j]], MASKED_SCORE);
                assert_eq!(w[[i, j]], 0.0);
            }
        }
        assert!(p.max_abs(Stage::Masked) < 1e3);
        assert!(p.row_sum_error() < 1e-5);
        // valid_len = 0: every row uniform.
        let p = pipeline(5, 12, 3, Some(0));
        assert!(p
            .matrix(Stage::Weights)
            .iter()
            .all(|&v| (v - 0.2).abs() < 1e-6));
        assert!(p.row_sum_error() < 1e-5);
        assert_eq!(p.max_abs(Stage::Masked), 0.0);
    }

    #[test]
    fn images_have_their_sizes_and_hatch_only_zero_weights() {
        let p = pipeline(4, 8, 2, Some(2));
        assert_eq!(p.image(Stage::Z).1, 8);
        let (pixels, w, h) = p.image(Stage::Weights);
        assert_eq!((w, h), (4 * HATCH_PX, 4 * HATCH_PX));
        let at = |x: usize, y: usize| [pixels[(y * w + x) * 4], pixels[(y * w + x) * 4 + 1]];
        let grey = [MASKED_LIGHT[0], MASKED_LIGHT[1]];
        let dark = [MASKED_DARK[0], MASKED_DARK[1]];
        assert!([grey, dark].contains(&at(3 * HATCH_PX + 3, 3)));
        assert!(![grey, dark].contains(&at(3, 3)));
        let uniform = pipeline(4, 8, 2, Some(0));
        let (pixels, w, _) = uniform.image(Stage::Weights);
        let at = |x: usize, y: usize| [pixels[(y * w + x) * 4], pixels[(y * w + x) * 4 + 1]];
        assert!(![grey, dark].contains(&at(3 * HATCH_PX + 3, 3)));
    }

    #[test]
    fn layout_fits_and_hits() {
        for heads in [1, 4, 32] {
            let narrow = layout(344.0, 516.0, heads);
            for (k, r) in narrow.iter().enumerate() {
                assert!(r.x0 >= 57.0 && r.x1 <= 344.0 - RIGHT + 1.0, "{k} {r:?}");
                assert!(r.width() > 50.0 && r.height() > 60.0, "{k} {r:?}");
                assert!(r.y1 <= 516.0 - legend_height(344.0) + 1.0);
            }
            for band in bands(344.0) {
                for k in band.start..band.end - 1 {
                    assert!(narrow[k].x1 < narrow[k + 1].x0);
                    assert_eq!(narrow[k].y0, narrow[k + 1].y0);
                }
            }
            assert!(narrow[2].y1 < narrow[3].y0 && narrow[5].y1 < narrow[6].y0);
            let rects = layout(1200.0, 520.0, heads);
            for (k, r) in rects.iter().enumerate() {
                assert!(
                    r.x0 >= LEFT - 1.0 && r.x1 <= 1200.0 - RIGHT + 1.0,
                    "{k} {r:?}"
                );
                assert!(r.width() > 100.0 && r.height() > 150.0, "{k} {r:?}");
                assert!(r.y1 <= 520.0 - LEGEND + 1.0);
            }
            for pair in rects[..4].windows(2).chain(rects[4..].windows(2)) {
                assert!(pair[0].x1 < pair[1].x0);
            }
        }
        let p = pipeline(8, 32, 4, None);
        let rects = layout(1200.0, 520.0, 4);
        let r = rects[Stage::Weights.index()];
        let hit = stage_at(&rects, |s| p.shape(s), r.x0 + 1.0, r.y1 - 1.0);
        assert_eq!(hit, Some((Stage::Weights, 7, 0)));
        assert_eq!(stage_at(&rects, |s| p.shape(s), 2.0, 2.0), None);
    }

    #[test]
    fn selections_and_outlines() {
        let s = Selection::at(Stage::Weights, 2, 5, None);
        assert_eq!((s.row, s.key, s.cell), (2, Some(5), None));
        let k = Selection::at(Stage::K, 6, 1, Some(s));
        assert_eq!((k.row, k.key), (2, Some(6)));
        let p = pipeline(8, 32, 4, None);
        let all = outlines(&s, |st| p.shape(st));
        // Row 2 in the seven stages that are not K or V; key 5 in K, V and the three n × n.
        assert_eq!(all.iter().filter(|o| o.mark == Mark::Query).count(), 7);
        assert_eq!(all.iter().filter(|o| o.mark == Mark::Key).count(), 5);
        let o = Outline {
            stage: Stage::Z,
            rows: 1..2,
            columns: 0..32,
            mark: Mark::Query,
        };
        let rect = PixelRect {
            x0: 0.0,
            y0: 0.0,
            x1: 320.0,
            y1: 80.0,
        };
        let r = outline_rect(rect, (8, 32), &o);
        assert_eq!((r.y0, r.y1, r.x1), (10.0, 20.0, 320.0));
    }
}
