//! The pipeline figure's layout: where each stage's matrix is drawn, which cell is under the
//! pointer, and what a hover outlines. Pixels only: the numbers are `math::pipeline`.

use std::ops::Range;

use super::plot::{cell_at, PixelRect};
use crate::math::pipeline::{Stage, STAGES};

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
    use crate::math::layer::{ProjectionMode, Projections};
    use crate::math::pipeline::{Pipeline, PipelineSettings};
    use crate::math::position::PositionScheme;

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
            position: PositionScheme::absolute(),
        };
        let projections = Projections::of_mode(settings.mode, d, 1, 10000.0, 1, 1.0);
        Pipeline::compute(tokens, settings, &projections).expect("a layer")
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
