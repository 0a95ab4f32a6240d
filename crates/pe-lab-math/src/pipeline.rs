//! The pipeline panel ("What exactly are Q, K and V?"): one self-attention layer of the sentence,
//! stage by stage, for head 0: Z, Q = Z·W_q, K = Z·W_k, V = Z·W_v (head 0's d/h columns), the
//! scaled scores QKᵀ/√d_h, the mask (−10⁶ as d2l's `masked_softmax`), the softmax, weights·V, and
//! the output after concatenating the heads and multiplying by W_o. Also the cell images (the
//! figure's layout is `panels::pipeline::figure` in the page crate). Pure, so tested natively.

use ndarray::{s, Array2, ArrayView2};

use super::colormap::{diverging, diverging_rgba, sequential, MASKED_DARK, MASKED_LIGHT};
use super::layer::{layer_positioned, LayerError, LayerStages, ProjectionMode, Projections};
use super::position::PositionScheme;
use super::tokens::attention_input;

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

/// Why the pipeline cannot be computed: its layer's errors.
pub type PipelineError = LayerError;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layer::MASKED_SCORE;

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
}
