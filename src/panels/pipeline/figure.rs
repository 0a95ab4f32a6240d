//! The pipeline figure's layout: where each stage's matrix is drawn, which cell is under the
//! pointer, and what a hover outlines. Pixels only: the numbers are `math::pipeline`.

use std::ops::Range;

use crate::math::pipeline::{Stage, STAGES};
use crate::model::plot::{PixelRect, MIN_CELL_MATRIX_SIDE, MIN_CELL_PX, MIN_FEATURE_COLUMN_PX};

/// Margins of the figure, in canvas pixels at 15 px type (projector type scales them).
pub const LEFT: f64 = 104.0;
pub const RIGHT: f64 = 14.0;
pub const GAP: f64 = 30.0;
pub const TOP: f64 = 4.0;
/// Room for the two label lines above each band.
pub const LABEL: f64 = 42.0;
pub const BAND_GAP: f64 = 18.0;
/// Height of one line of the legend below the stages, and the room under its last line.
pub const LEGEND_LINE: f64 = 18.0;
const LEGEND_PAD: f64 = 12.0;

/// Below this width (a phone) the token names get a narrower margin and the arrows a narrower gap.
pub const NARROW_WIDTH: f64 = 700.0;
const NARROW_LEFT: f64 = 58.0;
const NARROW_GAP: f64 = 22.0;

/// A stage is never narrower than this (its title and shape must fit above it).
const STAGE_MIN_WIDTH: f64 = 64.0;
/// A stage is drawn at most this many times its minimum width: a stage alone in a band is not
/// stretched into a few huge cells.
const MAX_STRETCH: f64 = 2.5;
/// Cells are at most this tall: taller ones would make the figure taller, not easier to read.
const MAX_CELL_HEIGHT: f64 = 24.0;
/// A band is at most this tall (a long sentence): with up to 32 tokens rows keep 12 px.
const MAX_BAND_HEIGHT: f64 = 400.0;

/// The margin left of the stages, where the token names go.
pub fn left_margin(width: f64, type_scale: f64) -> f64 {
    if width < NARROW_WIDTH {
        NARROW_LEFT * type_scale
    } else {
        LEFT * type_scale
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

/// The narrowest a stage of `columns` columns is drawn: [`MIN_CELL_PX`] a column, up to
/// [`MIN_CELL_MATRIX_SIDE`] columns (a wider Z or output is a picture of its pattern).
pub fn stage_min_width(columns: usize) -> f64 {
    (columns.min(MIN_CELL_MATRIX_SIDE) as f64 * MIN_CELL_PX).max(STAGE_MIN_WIDTH)
}

/// The stages whose columns are features (Z, Q, K, V, weights·V and the output), not keys: on a
/// narrow canvas they narrow to [`MIN_FEATURE_COLUMN_PX`] a column.
const FEATURE_STAGES: [Stage; 6] = [
    Stage::Z,
    Stage::Q,
    Stage::K,
    Stage::V,
    Stage::Mixed,
    Stage::Output,
];

/// The narrowest stage `k` of `columns` columns may be drawn on a canvas `width` wide: a feature
/// stage on a phone (below [`NARROW_WIDTH`]) at [`MIN_FEATURE_COLUMN_PX`] a column, so that the
/// figure fits the screen instead of scrolling sideways; otherwise [`stage_min_width`].
pub fn stage_min_width_at(width: f64, k: usize, columns: usize) -> f64 {
    if width < NARROW_WIDTH && FEATURE_STAGES.contains(&STAGES[k]) {
        (columns.min(MIN_CELL_MATRIX_SIDE) as f64 * MIN_FEATURE_COLUMN_PX).max(STAGE_MIN_WIDTH)
    } else {
        stage_min_width(columns)
    }
}

/// Where the figure draws its stages, and how tall it must be for that.
#[derive(Debug, Clone, PartialEq)]
pub struct FigureLayout {
    /// Where each stage's cells go, in [`STAGES`] order.
    pub rects: [PixelRect; 9],
    /// The stages (indices into [`STAGES`]) of each band, left to right.
    pub bands: Vec<Range<usize>>,
    /// The canvas height the figure needs.
    pub height: f64,
    /// The narrowest canvas on which every stage keeps cells of [`MIN_CELL_PX`]: a narrower panel
    /// scrolls the figure sideways.
    pub min_width: f64,
    pub left: f64,
    pub gap: f64,
    /// Room for the two label lines above each band.
    pub label: f64,
}

/// The layout of the nine stages, of shapes `shapes` (rows, columns) in [`STAGES`] order, on a
/// canvas `width` wide, with type `type_scale` times 15 px and a legend of `legend_lines` lines.
///
/// Z, Q, K and V go in the upper bands and the attention stages in the lower ones, each group
/// wrapped onto as many bands as its stages need at [`MIN_CELL_PX`] a column: two bands on a wide
/// canvas, more on a laptop in projector mode or on a phone, never squashed. In a band the stages
/// are widened alike (at most [`MAX_STRETCH`] times) to fill the width, and share one height, so
/// that row i lies at the same height across a band; rows are as tall as the band's narrowest
/// cells, between [`MIN_CELL_PX`] and [`MAX_CELL_HEIGHT`].
pub fn layout(
    width: f64,
    shapes: &[(usize, usize); 9],
    type_scale: f64,
    legend_lines: usize,
) -> FigureLayout {
    layout_with_cells(
        width,
        shapes,
        type_scale,
        legend_lines,
        Cells {
            max_height: MAX_CELL_HEIGHT,
            min_row: MIN_CELL_PX,
            feature_column: MIN_CELL_PX,
        },
    )
}

/// How tall a row must be for its token's name at the figure's type (`type_scale` times the
/// ticks' 13 px, and a little air): shorter rows have every second or third name.
pub fn token_name_row_px(type_scale: f64) -> f64 {
    13.0 * type_scale + 2.0
}

/// The cells' sizes a layout is made with, in canvas pixels.
#[derive(Debug, Clone, Copy)]
struct Cells {
    /// Rows are no taller than this where their cells are wider.
    max_height: f64,
    /// Rows are at least this tall (at most `max_height`), whatever their cells' width.
    min_row: f64,
    /// The narrowest column of a stage whose columns are features.
    feature_column: f64,
}

/// Rows of a figure fitted to a height ([`layout_within`]) are at least this tall: still a row
/// each for the eye, their token names thinned to every second or third.
pub const MIN_FITTED_ROW_PX: f64 = 12.0;

/// The column widths [`layout_within`] tries for the stages whose columns are features, widest
/// first: narrower columns pack more stages into a band, and fewer bands make a shorter figure.
const FITTED_FEATURE_COLUMN_PX: [f64; 3] = [MIN_CELL_PX, 8.0, MIN_FEATURE_COLUMN_PX];

/// [`layout`] for a projector's lesson step, which shows the whole figure below the panel's title
/// (`max_height`) in a room's type (kept here). Rows first take the height of their token's name
/// (every name is written), as far as `max_height` allows, while the feature stages' columns
/// narrow (Z and the output are pictures of a pattern, not cells to read one by one) so that the
/// stages wrap onto fewer bands; only then do rows shorten, down to [`MIN_FITTED_ROW_PX`].
pub fn layout_within(
    width: f64,
    shapes: &[(usize, usize); 9],
    type_scale: f64,
    legend_lines: usize,
    max_height: f64,
) -> FigureLayout {
    let name_row = token_name_row_px(type_scale);
    let mut last = None;
    for min_row in [name_row, MIN_FITTED_ROW_PX] {
        for feature_column in FITTED_FEATURE_COLUMN_PX {
            let mut max_height_of_cells = MAX_CELL_HEIGHT.max(min_row);
            loop {
                let cells = Cells {
                    max_height: max_height_of_cells,
                    min_row,
                    feature_column,
                };
                let lay = layout_with_cells(width, shapes, type_scale, legend_lines, cells);
                if lay.height <= max_height {
                    return lay;
                }
                last = Some(lay);
                if max_height_of_cells <= min_row {
                    break;
                }
                max_height_of_cells = (max_height_of_cells - 2.0).max(min_row);
            }
        }
    }
    // Nothing fits: the shortest layout tried (the loops always try one).
    last.unwrap_or_else(|| layout(width, shapes, type_scale, legend_lines))
}

fn layout_with_cells(
    width: f64,
    shapes: &[(usize, usize); 9],
    type_scale: f64,
    legend_lines: usize,
    cells: Cells,
) -> FigureLayout {
    let type_scale = type_scale.max(0.5);
    let (left, gap) = (left_margin(width, type_scale), stage_gap(width));
    let label = LABEL * type_scale;
    let room = (width - left - RIGHT).max(STAGE_MIN_WIDTH);
    // The canvas scrolls sideways below this; the bands are packed as for 12 px columns (a phone's
    // Z has a band to itself and narrows its columns to the room there).
    let widest = (0..9)
        .map(|k| stage_min_width_at(width, k, shapes[k].1))
        .fold(0.0, f64::max);
    let min_width = (left + widest + RIGHT).ceil();
    // A stage is at least as wide as its labels need at the figure's type.
    let narrowest_stage = STAGE_MIN_WIDTH * type_scale;
    let min_width_of = |k: usize| {
        let columns = shapes[k].1.min(MIN_CELL_MATRIX_SIDE) as f64;
        let column_px = if FEATURE_STAGES.contains(&STAGES[k]) {
            cells.feature_column
        } else {
            MIN_CELL_PX
        };
        (columns * column_px).max(narrowest_stage).min(room)
    };
    let mut bands: Vec<Range<usize>> = Vec::new();
    for group in [0..4, 4..9] {
        let mut start = group.start;
        let mut used = 0.0;
        for k in group.clone() {
            let needed = if k == start {
                min_width_of(k)
            } else {
                used + gap + min_width_of(k)
            };
            if k > start && needed > room {
                bands.push(start..k);
                start = k;
                used = min_width_of(k);
            } else {
                used = needed;
            }
        }
        bands.push(start..group.end);
    }
    let mut rects = [PixelRect {
        x0: 0.0,
        y0: 0.0,
        x1: 0.0,
        y1: 0.0,
    }; 9];
    let mut y = TOP;
    for (b, band) in bands.iter().enumerate() {
        if b > 0 {
            y += BAND_GAP;
        }
        y += label;
        let gaps = gap * (band.len() - 1) as f64;
        let total: f64 = band.clone().map(min_width_of).sum();
        let stretch = ((room - gaps) / total).clamp(0.1, MAX_STRETCH);
        let cell_width = band
            .clone()
            .map(|k| min_width_of(k) * stretch / shapes[k].1.clamp(1, MIN_CELL_MATRIX_SIDE) as f64)
            .fold(f64::INFINITY, f64::min);
        let rows = band.clone().map(|k| shapes[k].0).max().unwrap_or(1).max(1) as f64;
        let band_height = (rows
            * cell_width
                .min(cells.max_height)
                .max(cells.max_height.min(cells.min_row)))
        .min(MAX_BAND_HEIGHT.max(rows.min(MIN_CELL_MATRIX_SIDE as f64) * MIN_CELL_PX))
        .round();
        let mut x = left;
        for k in band.clone() {
            let x1 = x + min_width_of(k) * stretch;
            rects[k] = PixelRect {
                x0: x.round(),
                y0: y.round(),
                x1: x1.floor(),
                y1: (y + band_height).round(),
            };
            x = x1 + gap;
        }
        y += band_height;
    }
    let height = (y + legend_lines.max(1) as f64 * LEGEND_LINE * type_scale + LEGEND_PAD).ceil();
    FigureLayout {
        rects,
        bands,
        height,
        min_width,
        left,
        gap,
        label,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::layer::{ProjectionMode, Projections};
    use crate::math::pipeline::{Pipeline, PipelineSettings};
    use crate::math::position::PositionScheme;
    use crate::panels::pipeline::selection::stage_at;

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

    fn shapes(p: &Pipeline) -> [(usize, usize); 9] {
        STAGES.map(|s| p.shape(s))
    }

    /// Every stage inside the canvas, no two overlapping, a band's stages side by side at one
    /// height, and (where the canvas is at least `min_width` wide) cells of at least 12 px (feature
    /// columns on a phone at least 6 px wide).
    fn check(width: f64, p: &Pipeline, scale: f64) -> FigureLayout {
        let lay = layout(width, &shapes(p), scale, 2);
        for (k, r) in lay.rects.iter().enumerate() {
            assert!(
                r.x0 >= lay.left - 1.0 && r.x1 <= width - RIGHT + 1.0,
                "{width} {k} {r:?}"
            );
            assert!(
                r.y1 <= lay.height - 2.0 * LEGEND_LINE * scale,
                "{width} {k} {r:?}"
            );
            let (rows, columns) = p.shape(STAGES[k]);
            if width >= lay.min_width {
                let column_px = stage_min_width_at(width, k, columns) / columns as f64;
                assert!(
                    r.width() / columns as f64 >= column_px.min(MIN_CELL_PX) - 0.5,
                    "{width} {k} {r:?}"
                );
                assert!(
                    r.height() / rows as f64 >= MIN_CELL_PX - 0.5,
                    "{width} {k} {r:?}"
                );
            }
        }
        for band in &lay.bands {
            for k in band.start..band.end - 1 {
                assert!(lay.rects[k].x1 < lay.rects[k + 1].x0);
                assert_eq!(lay.rects[k].y0, lay.rects[k + 1].y0);
            }
        }
        for pair in lay.bands.windows(2) {
            assert_eq!(pair[0].end, pair[1].start);
            assert!(lay.rects[pair[0].start].y1 < lay.rects[pair[1].start].y0);
        }
        assert_eq!(lay.bands.first().map(|b| b.start), Some(0));
        assert_eq!(lay.bands.last().map(|b| b.end), Some(9));
        // Z, Q, K, V never share a band with the attention stages.
        assert!(lay.bands.iter().any(|b| b.end == 4));
        lay
    }

    #[test]
    fn layout_keeps_cells_readable_and_stacks() {
        let p = pipeline(8, 32, 4, None);
        // The design width: two bands, as the chapter's figure.
        let wide = check(1200.0, &p, 1.0);
        assert_eq!(wide.bands, vec![0..4, 4..9]);
        // 1024 × 768 in projector mode: the figure's column is about 600 px and type is 1.5×.
        let projector = check(600.0, &p, 1.5);
        assert!(projector.bands.len() > 2, "{:?}", projector.bands);
        assert!(projector.min_width <= 600.0);
        // A phone (the figure's 314 to 384 px on a 360 to 430 px screen): Z's 32 feature columns
        // narrow to fit instead of scrolling sideways; the keys' columns keep 12 px.
        for width in [314.0, 344.0, 384.0] {
            let phone = check(width, &p, 1.0);
            assert!(phone.min_width <= width, "{width}: {}", phone.min_width);
            let weights = phone.rects[Stage::Weights.index()];
            assert!(weights.width() / 8.0 >= MIN_CELL_PX - 0.5, "{weights:?}");
        }
        // Wider than a phone, Z keeps 12 px columns: a narrower canvas scrolls it.
        let laptop = check(720.0, &p, 1.0);
        assert!(laptop.min_width > 384.0);
        // Many heads, long sentences, a wide model: still inside, cells as large as they can be.
        for (n, d, h) in [(1, 2, 1), (20, 64, 32), (32, 16, 2), (60, 128, 8)] {
            let p = pipeline(n, d, h, None);
            for width in [358.0, 600.0, 1200.0] {
                let lay = layout(width, &shapes(&p), 1.0, 2);
                for r in lay.rects {
                    assert!(r.width() >= 1.0 && r.height() >= 1.0, "{n} {d} {h} {width}");
                    assert!(
                        r.x1 <= width - RIGHT + 1.0,
                        "{n} {d} {h} {width} {r:?} {:?}",
                        lay.bands
                    );
                }
            }
        }
        let rects = wide.rects;
        let r = rects[Stage::Weights.index()];
        let hit = stage_at(&rects, |s| p.shape(s), r.x0 + 1.0, r.y1 - 1.0);
        assert_eq!(hit, Some((Stage::Weights, 7, 0)));
        assert_eq!(stage_at(&rects, |s| p.shape(s), 2.0, 2.0), None);
    }

    /// The default sentence's nine stages: 8 tokens, d = 32, 4 heads.
    const DEFAULT_SHAPES: [(usize, usize); 9] = [
        (8, 32),
        (8, 8),
        (8, 8),
        (8, 8),
        (8, 8),
        (8, 8),
        (8, 8),
        (8, 8),
        (8, 32),
    ];

    fn assert_rows_at_least(lay: &FigureLayout, row: f64) {
        for (k, r) in lay.rects.iter().enumerate() {
            assert!(r.height() >= 8.0 * row - 1.0, "stage {k}: {r:?}");
        }
    }

    #[test]
    fn a_projector_figure_with_room_names_every_row_at_the_free_layout_widths() {
        let free = layout(940.0, &DEFAULT_SHAPES, 1.5, 2);
        let within = layout_within(940.0, &DEFAULT_SHAPES, 1.5, 2, 5000.0);
        assert_rows_at_least(&within, token_name_row_px(1.5));
        assert_eq!(within.bands, free.bands);
        for (a, b) in within.rects.iter().zip(&free.rects) {
            assert_eq!((a.x0, a.x1), (b.x0, b.x1), "the stages keep their widths");
        }
    }

    #[test]
    fn a_projector_figure_narrows_its_feature_columns_to_keep_every_name_on_a_short_screen() {
        // 1024 × 768 in projector mode: 18 px type, 531 px below the takeaway.
        let scale = 18.0 / 13.0;
        let free = layout(940.0, &DEFAULT_SHAPES, scale, 2);
        assert!(free.height > 531.0, "{}", free.height);
        assert_eq!(free.bands.len(), 3);
        let within = layout_within(940.0, &DEFAULT_SHAPES, scale, 2, 531.0);
        assert!(within.height <= 531.0, "{}", within.height);
        assert_eq!(
            within.bands.len(),
            2,
            "Z and the output narrower, two bands"
        );
        assert_rows_at_least(&within, token_name_row_px(scale));
        for (k, r) in within.rects.iter().enumerate() {
            assert!(
                r.width() >= STAGE_MIN_WIDTH * scale - 1.0,
                "stage {k}: {r:?}"
            );
        }
    }

    #[test]
    fn a_projector_figure_shortens_its_rows_only_where_names_cannot_fit() {
        // At 1.5 × type on the same screen no layout keeps every name: rows shorten instead.
        let within = layout_within(940.0, &DEFAULT_SHAPES, 1.5, 2, 531.0);
        assert!(within.height <= 531.0, "{}", within.height);
        assert_rows_at_least(&within, MIN_FITTED_ROW_PX);
        let row = within.rects[0].height() / 8.0;
        assert!(row < token_name_row_px(1.5), "{row}");
    }
}
