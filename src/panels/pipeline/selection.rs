//! What a pointer picks on the pipeline figure and what it outlines: the cell under it, the
//! query row traced through every stage, a key, and their pixels. The figure's layout is
//! [`super::figure`].

use std::ops::Range;

use crate::math::pipeline::{Stage, STAGES};
use crate::model::plot::{cell_at, PixelRect};

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
    /// The default sentence's shapes: 8 tokens, d = 32, 4 heads (Z and the output 8 × 32, every
    /// other stage 8 × 8).
    fn shape(stage: Stage) -> (usize, usize) {
        match stage {
            Stage::Z | Stage::Output => (8, 32),
            _ => (8, 8),
        }
    }

    #[test]
    fn selections_and_outlines() {
        let s = Selection::at(Stage::Weights, 2, 5, None);
        assert_eq!((s.row, s.key, s.cell), (2, Some(5), None));
        let k = Selection::at(Stage::K, 6, 1, Some(s));
        assert_eq!((k.row, k.key), (2, Some(6)));
        let all = outlines(&s, shape);
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
