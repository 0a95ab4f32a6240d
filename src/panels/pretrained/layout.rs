//! Where the pretrained panel's figures put things: the grid of 6 × 12 small maps (one per layer
//! and head) and the enlarged map with its tokens on both axes. Computed here, below the DOM, and
//! tested natively; `figure.rs` paints into these rectangles.

use crate::model::plot::PixelRect;

/// The grid of small maps: one row per layer, one column per head.
#[derive(Debug, Clone, PartialEq)]
pub struct GridLayout {
    pub layers: usize,
    pub heads: usize,
    /// The side of one map, and the gap between two.
    pub tile: f64,
    pub gap: f64,
    /// The top-left corner of the first map (room for the labels left and above).
    pub origin: (f64, f64),
    /// The legend's lines under the grid: its two entries side by side, or one under the other
    /// where they do not fit side by side (a phone's figure, a projector's large type).
    pub legend_lines: usize,
}

impl GridLayout {
    /// Fits `layers × heads` square maps into `width × height` logical pixels, leaving `label_px`
    /// of type room for the layer names on the left, the head numbers above and the legend's
    /// lines below: one where its two entries, `legend_width` wide side by side (as measured in
    /// the figure's type and language), fit right of the layer names; two otherwise.
    pub fn fit(
        width: f64,
        height: f64,
        (layers, heads): (usize, usize),
        label_px: f64,
        legend_width: f64,
    ) -> Self {
        let left = (label_px * 4.2).ceil();
        let top = (label_px * 1.8).ceil();
        let gap = (width / 160.0).clamp(2.0, 6.0).round();
        let (layers_f, heads_f) = (layers.max(1) as f64, heads.max(1) as f64);
        let across = (width - left - gap * (heads_f - 1.0)) / heads_f;
        let legend_lines = if left + legend_width > width { 2 } else { 1 };
        let legend_room = (label_px * (0.8 + 1.3 * legend_lines as f64)).ceil();
        let down = (height - top - legend_room - gap * (layers_f - 1.0)) / layers_f;
        GridLayout {
            layers,
            heads,
            tile: across.min(down).floor().max(4.0),
            gap,
            origin: (left, top),
            legend_lines,
        }
    }

    /// The baseline of the legend's `line` (0 or 1), under the last row.
    pub fn legend_y(&self, label_px: f64, line: usize) -> f64 {
        self.tile_rect(self.layers.saturating_sub(1), 0).y1 + label_px * (1.5 + 1.3 * line as f64)
    }

    /// The map of one layer and head.
    pub fn tile_rect(&self, layer: usize, head: usize) -> PixelRect {
        let x0 = self.origin.0 + head as f64 * (self.tile + self.gap);
        let y0 = self.origin.1 + layer as f64 * (self.tile + self.gap);
        PixelRect {
            x0,
            y0,
            x1: x0 + self.tile,
            y1: y0 + self.tile,
        }
    }

    /// The layer and head under a point, if the point is on a map (or in the gap after it).
    pub fn hit(&self, x: f64, y: f64) -> Option<(usize, usize)> {
        let step = self.tile + self.gap;
        let (dx, dy) = (x - self.origin.0, y - self.origin.1);
        if dx < 0.0 || dy < 0.0 {
            return None;
        }
        let (head, layer) = ((dx / step) as usize, (dy / step) as usize);
        (layer < self.layers && head < self.heads).then_some((layer, head))
    }
}

/// The enlarged map: a square with the query tokens on its left and the key tokens below it.
#[derive(Debug, Clone, PartialEq)]
pub struct HeadLayout {
    pub map: PixelRect,
    /// The height of one token's cell.
    pub cell: f64,
    /// Every how many tokens a label is written (1 when each has room for its type).
    pub label_step: usize,
}

impl HeadLayout {
    /// Fits the map of `tokens` tokens into `width × height`, leaving `label_room` for the labels
    /// on the left and below and `title_room` above for the title.
    pub fn fit(
        width: f64,
        height: f64,
        tokens: usize,
        label_px: f64,
        label_room: f64,
        title_room: f64,
    ) -> Self {
        let side = (width - label_room - 8.0)
            .min(height - label_room - title_room)
            .max(16.0);
        let n = tokens.max(1);
        let cell = (side / n as f64).floor().max(1.0);
        let side = cell * n as f64;
        let x0 = label_room + ((width - label_room - side) / 2.0).max(0.0).floor();
        let map = PixelRect {
            x0,
            y0: title_room,
            x1: x0 + side,
            y1: title_room + side,
        };
        // A label needs about its type's height of room.
        let label_step = ((label_px * 1.1) / cell).ceil().max(1.0) as usize;
        HeadLayout {
            map,
            cell,
            label_step,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// About what the English legend measures side by side in 12 px type.
    const LEGEND_AT_12_PX: f64 = 470.0;

    #[test]
    fn the_grid_fits_and_every_map_is_found_where_it_is_drawn() {
        let grid = GridLayout::fit(680.0, 340.0, (6, 12), 12.0, LEGEND_AT_12_PX);
        let last = grid.tile_rect(5, 11);
        assert!(last.x1 <= 680.0 && last.y1 <= 340.0, "{grid:?} {last:?}");
        assert!(grid.tile >= 40.0, "{grid:?}");
        for layer in 0..6 {
            for head in 0..12 {
                let r = grid.tile_rect(layer, head);
                let centre = ((r.x0 + r.x1) / 2.0, (r.y0 + r.y1) / 2.0);
                assert_eq!(grid.hit(centre.0, centre.1), Some((layer, head)));
            }
        }
        assert_eq!(grid.hit(1.0, 1.0), None);
        assert_eq!(grid.hit(679.0, 339.5), None);
    }

    #[test]
    fn the_legend_lines_sit_under_the_last_row_and_inside() {
        // A laptop's figure, a phone's, and a projector's wide figure in its large type.
        for (width, height, label_px, lines) in [
            (680.0, 340.0, 12.0, 1),
            (340.0, 200.0, 11.0, 2),
            (1290.0, 640.0, 36.0, 2),
        ] {
            let legend_width = LEGEND_AT_12_PX * label_px / 12.0;
            let grid = GridLayout::fit(width, height, (6, 12), label_px, legend_width);
            assert_eq!(grid.legend_lines, lines, "{grid:?}");
            let last_row = grid.tile_rect(5, 0).y1;
            let first = grid.legend_y(label_px, 0);
            let last = grid.legend_y(label_px, lines - 1);
            assert!(first - label_px > last_row, "{grid:?}");
            assert!(last + label_px * 0.3 <= height, "{grid:?}: {last}");
        }
    }

    #[test]
    fn a_phone_grid_stays_square_and_inside() {
        let grid = GridLayout::fit(340.0, 200.0, (6, 12), 11.0, LEGEND_AT_12_PX * 11.0 / 12.0);
        let last = grid.tile_rect(5, 11);
        assert!(last.x1 <= 340.0 && last.y1 <= 200.0, "{grid:?}");
    }

    #[test]
    fn the_enlarged_map_labels_every_token_when_there_is_room() {
        let few = HeadLayout::fit(680.0, 560.0, 16, 13.0, 90.0, 30.0);
        assert_eq!(few.label_step, 1);
        assert!(few.map.x1 <= 680.0 && few.map.y1 + 90.0 <= 560.0, "{few:?}");
        let many = HeadLayout::fit(680.0, 560.0, 128, 13.0, 90.0, 30.0);
        assert!(many.label_step > 1, "{many:?}");
        assert!(many.cell >= 1.0);
    }
}
