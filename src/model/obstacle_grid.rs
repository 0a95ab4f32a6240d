//! A uniform grid over the obstacles a figure's labels keep off, so that a candidate box is only
//! tested against the discs and segments near it. The projection panel places two labels among
//! up to 2048 points and 6,000 arrow strokes, trying a few thousand candidate boxes each: testing
//! every obstacle for every candidate took about 300 ms a frame in the page at n = 2048.
//!
//! The grid is exact, not an approximation: an obstacle is filed under every cell its bounding
//! box (grown by its radius or half width, and a pixel) covers, and an obstacle can only touch a
//! box its bounding box overlaps, so [`ObstacleGrid::near`] yields every obstacle that may touch
//! the box (and some that do not, which the exact tests then reject).
//!
//! Written here rather than taken from a spatial-index crate (rstar, kiddo): the figure needs one
//! query shape (a box against discs and capsules), built once per frame from a few thousand
//! items, and a grid of `Vec<u32>` cells does that in some 60 lines without another dependency
//! in the page's first load.

use super::plot::PixelRect;

/// Something a label must not cover: a disc of `radius` pixels around `centre` (a point of the
/// figure, a ring, a sample of an arc).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Disc {
    pub centre: (f64, f64),
    pub radius: f64,
}

/// A line a label must not cover: the segment from `from` to `to`, drawn `half_width` pixels to
/// each side (an arrow's shaft or a stroke of its head, a radius).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Segment {
    pub from: (f64, f64),
    pub to: (f64, f64),
    pub half_width: f64,
}

/// Side of a cell in pixels: about a label's height, so a candidate box covers a handful of
/// cells and a cell holds a handful of the ring's points.
const CELL_PX: f64 = 16.0;

/// At most this many cells along a side: a plot far larger than any canvas still costs a bounded
/// allocation (its cells simply grow).
const MAX_CELLS_PER_SIDE: usize = 256;

/// An obstacle's index: a disc `i` is `i`, a segment `j` is `discs + j`.
pub struct ObstacleGrid {
    origin: (f64, f64),
    cell: (f64, f64),
    size: (usize, usize),
    cells: Vec<Vec<u32>>,
    discs: usize,
    total: usize,
    /// Obstacles outside the grid's extent (a point off the plot): tested for every query.
    everywhere: Vec<u32>,
}

/// A bounding box (x0, y0, x1, y1).
type Bounds = (f64, f64, f64, f64);

fn disc_bounds(d: &Disc) -> Bounds {
    let r = d.radius.abs() + 1.0;
    (
        d.centre.0 - r,
        d.centre.1 - r,
        d.centre.0 + r,
        d.centre.1 + r,
    )
}

fn segment_bounds(s: &Segment) -> Bounds {
    let w = s.half_width.abs() + 1.0;
    (
        s.from.0.min(s.to.0) - w,
        s.from.1.min(s.to.1) - w,
        s.from.0.max(s.to.0) + w,
        s.from.1.max(s.to.1) + w,
    )
}

impl ObstacleGrid {
    /// Files `discs` and `segments` under the cells of `extent` (the region the queries fall in;
    /// obstacles reaching outside it are still found).
    pub fn new(discs: &[Disc], segments: &[Segment], extent: &PixelRect) -> ObstacleGrid {
        let span = |a: f64, b: f64| {
            if (b - a).is_finite() {
                (b - a).max(1.0)
            } else {
                1.0
            }
        };
        let (w, h) = (span(extent.x0, extent.x1), span(extent.y0, extent.y1));
        let count = |length: f64| ((length / CELL_PX).ceil() as usize).clamp(1, MAX_CELLS_PER_SIDE);
        let size = (count(w), count(h));
        let origin = if extent.x0.is_finite() && extent.y0.is_finite() {
            (extent.x0, extent.y0)
        } else {
            (0.0, 0.0)
        };
        let mut grid = ObstacleGrid {
            origin,
            cell: (w / size.0 as f64, h / size.1 as f64),
            size,
            cells: vec![Vec::new(); size.0 * size.1],
            discs: discs.len(),
            total: discs.len() + segments.len(),
            everywhere: Vec::new(),
        };
        let bounds = discs
            .iter()
            .map(disc_bounds)
            .chain(segments.iter().map(segment_bounds));
        for (index, b) in bounds.enumerate() {
            grid.file(index as u32, b);
        }
        grid
    }

    /// The range of cells `b` covers along each axis, or `None` when it is not finite.
    fn cell_range(&self, b: Bounds) -> Option<((usize, usize), (usize, usize))> {
        if ![b.0, b.1, b.2, b.3].iter().all(|v| v.is_finite()) {
            return None;
        }
        let along = |lo: f64, hi: f64, origin: f64, cell: f64, count: usize| {
            let first = ((lo - origin) / cell).floor().max(0.0) as usize;
            let last = ((hi - origin) / cell).floor().max(0.0) as usize;
            (first.min(count - 1), last.min(count - 1))
        };
        Some((
            along(b.0, b.2, self.origin.0, self.cell.0, self.size.0),
            along(b.1, b.3, self.origin.1, self.cell.1, self.size.1),
        ))
    }

    fn file(&mut self, index: u32, b: Bounds) {
        let Some(((x0, x1), (y0, y1))) = self.cell_range(b) else {
            self.everywhere.push(index);
            return;
        };
        for y in y0..=y1 {
            for x in x0..=x1 {
                self.cells[y * self.size.0 + x].push(index);
            }
        }
    }

    /// Every obstacle that may touch `rect`, each once, as (discs, segments) indices; `seen` is
    /// the caller's scratch (one flag per obstacle, all false between calls).
    pub fn near(&self, rect: &PixelRect, seen: &mut Vec<bool>) -> (Vec<usize>, Vec<usize>) {
        let reach = (rect.x0 - 1.0, rect.y0 - 1.0, rect.x1 + 1.0, rect.y1 + 1.0);
        let found: Vec<u32> = match self.cell_range(reach) {
            Some(((x0, x1), (y0, y1))) => {
                let mut found = self.everywhere.clone();
                for y in y0..=y1 {
                    for x in x0..=x1 {
                        found.extend_from_slice(&self.cells[y * self.size.0 + x]);
                    }
                }
                found
            }
            // A box with an edge that is not finite: every obstacle.
            None => (0..self.total as u32).collect(),
        };
        if seen.len() < self.total {
            seen.resize(self.total, false);
        }
        let (mut discs, mut segments) = (Vec::new(), Vec::new());
        for &index in &found {
            let i = index as usize;
            if i >= self.total || seen[i] {
                continue;
            }
            seen[i] = true;
            if i < self.discs {
                discs.push(i);
            } else {
                segments.push(i - self.discs);
            }
        }
        for &index in &found {
            if let Some(flag) = seen.get_mut(index as usize) {
                *flag = false;
            }
        }
        (discs, segments)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::rng::SplitMix64;
    use crate::model::projection_figure::{disc_touches, segment_touches};

    fn uniform(rng: &mut SplitMix64, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Every obstacle that touches a box is among those the grid returns for it, each once:
    /// boxes and obstacles inside, across and outside the grid's extent, of every size.
    #[test]
    fn near_returns_every_obstacle_that_touches_the_box() {
        let mut rng = SplitMix64::new(7);
        let extent = PixelRect {
            x0: 40.0,
            y0: 30.0,
            x1: 440.0,
            y1: 330.0,
        };
        for round in 0..40 {
            let spread = if round % 2 == 0 { 1.0 } else { 1.6 };
            let point = |rng: &mut SplitMix64| {
                (
                    uniform(rng, -100.0 * spread, 600.0 * spread),
                    uniform(rng, -100.0 * spread, 450.0 * spread),
                )
            };
            let discs: Vec<Disc> = (0..300)
                .map(|_| Disc {
                    centre: point(&mut rng),
                    radius: uniform(&mut rng, 0.0, 12.0),
                })
                .collect();
            let segments: Vec<Segment> = (0..300)
                .map(|_| {
                    let from = point(&mut rng);
                    let length = uniform(&mut rng, 0.0, if round % 3 == 0 { 400.0 } else { 40.0 });
                    let angle = uniform(&mut rng, 0.0, std::f64::consts::TAU);
                    Segment {
                        from,
                        to: (from.0 + length * angle.cos(), from.1 + length * angle.sin()),
                        half_width: uniform(&mut rng, 0.0, 4.0),
                    }
                })
                .collect();
            let grid = ObstacleGrid::new(&discs, &segments, &extent);
            let mut seen = Vec::new();
            for _ in 0..200 {
                let (x, y) = point(&mut rng);
                let (w, h) = (uniform(&mut rng, 0.0, 120.0), uniform(&mut rng, 0.0, 40.0));
                let rect = PixelRect {
                    x0: x,
                    y0: y,
                    x1: x + w,
                    y1: y + h,
                };
                let (near_discs, near_segments) = grid.near(&rect, &mut seen);
                let mut sorted = near_discs.clone();
                sorted.sort_unstable();
                sorted.dedup();
                assert_eq!(sorted.len(), near_discs.len(), "a disc returned twice");
                let mut sorted = near_segments.clone();
                sorted.sort_unstable();
                sorted.dedup();
                assert_eq!(
                    sorted.len(),
                    near_segments.len(),
                    "a segment returned twice"
                );
                for (i, disc) in discs.iter().enumerate() {
                    if disc_touches(&rect, disc) {
                        assert!(near_discs.contains(&i), "disc {i} touches {rect:?}");
                    }
                }
                for (i, segment) in segments.iter().enumerate() {
                    if segment_touches(&rect, segment) {
                        assert!(near_segments.contains(&i), "segment {i} touches {rect:?}");
                    }
                }
                assert!(seen.iter().all(|&flag| !flag), "the scratch is left clean");
            }
        }
    }

    /// A box with an edge that is not finite is tested against every obstacle, and an empty
    /// extent still gives a working grid of one cell.
    #[test]
    fn degenerate_boxes_and_extents_still_find_everything() {
        let discs = [Disc {
            centre: (5.0, 5.0),
            radius: 2.0,
        }];
        let segments = [Segment {
            from: (0.0, 0.0),
            to: (f64::NAN, 1.0),
            half_width: 1.0,
        }];
        let empty = PixelRect {
            x0: 10.0,
            y0: 10.0,
            x1: 10.0,
            y1: 10.0,
        };
        let grid = ObstacleGrid::new(&discs, &segments, &empty);
        let mut seen = Vec::new();
        let everything = PixelRect {
            x0: f64::NEG_INFINITY,
            y0: 0.0,
            x1: 1.0,
            y1: 1.0,
        };
        assert_eq!(grid.near(&everything, &mut seen), (vec![0], vec![0]));
        let around = PixelRect {
            x0: 4.0,
            y0: 4.0,
            x1: 6.0,
            y1: 6.0,
        };
        let (near_discs, near_segments) = grid.near(&around, &mut seen);
        assert_eq!(near_discs, vec![0]);
        // The segment with a NaN end is filed everywhere.
        assert_eq!(near_segments, vec![0]);
    }
}
