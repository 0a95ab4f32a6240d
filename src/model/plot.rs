//! Geometry shared by the panels' drawing code: which cell is under the pointer, the arc that shows
//! a rotation, axis tick spacing. Pure, so it is tested natively.

use std::f64::consts::{PI, TAU};

/// A rectangle in canvas pixels: `x0..x1` × `y0..y1` (half-open).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PixelRect {
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
}

impl PixelRect {
    pub fn width(&self) -> f64 {
        self.x1 - self.x0
    }
    pub fn height(&self) -> f64 {
        self.y1 - self.y0
    }
}

/// The (row, column) of a `rows × columns` image drawn into `rect` that lies under canvas point
/// (x, y), or `None` outside the image.
pub fn cell_at(
    rect: PixelRect,
    rows: usize,
    columns: usize,
    x: f64,
    y: f64,
) -> Option<(usize, usize)> {
    if rows == 0 || columns == 0 || rect.width() <= 0.0 || rect.height() <= 0.0 {
        return None;
    }
    if !(x >= rect.x0 && x < rect.x1 && y >= rect.y0 && y < rect.y1) {
        return None;
    }
    let column = ((x - rect.x0) / rect.width() * columns as f64).floor() as usize;
    let row = ((y - rect.y0) / rect.height() * rows as f64).floor() as usize;
    Some((row.min(rows - 1), column.min(columns - 1)))
}

/// Cell (row, column) moved by (rows, columns) and kept inside a `row_count × column_count` grid
/// (the keyboard cursor of a heatmap; huge steps go to the first or last row or column).
pub fn step_cell(
    (row, column): (usize, usize),
    (rows, columns): (i64, i64),
    (row_count, column_count): (usize, usize),
) -> (usize, usize) {
    let step = |at: usize, by: i64, count: usize| {
        (at as i64)
            .saturating_add(by)
            .clamp(0, count.max(1) as i64 - 1) as usize
    };
    (
        step(row, rows, row_count),
        step(column, columns, column_count),
    )
}

/// The rotation angle δω reduced to (−π, π]: the short way round the circle, which is what the
/// 2×2 matrix does (a rotation by δω and by δω − 2πk are the same matrix).
pub fn reduced_angle(angle: f64) -> f64 {
    let mut a = angle.rem_euclid(TAU);
    if a > PI {
        a -= TAU;
    }
    a
}

/// Points (sin a, cos a) along the unit-circle arc from angle `from` through `from + sweep`
/// (the panel's axes are x = p[i,2j] = sin, y = p[i,2j+1] = cos).
pub fn arc_points(from: f64, sweep: f64, radius: f64, segments: usize) -> Vec<(f64, f64)> {
    let segments = segments.max(1);
    (0..=segments)
        .map(|k| {
            let a = from + sweep * k as f64 / segments as f64;
            (radius * a.sin(), radius * a.cos())
        })
        .collect()
}

/// Tick positions for cell indices 0..count: multiples of a step of 1, 2 or 5 × 10^k, at most
/// `max_ticks` of them, always including 0 (so n = 1 still gets its "0").
pub fn integer_ticks(count: usize, max_ticks: usize) -> Vec<f64> {
    if count == 0 {
        return Vec::new();
    }
    let max_ticks = max_ticks.max(2);
    let mut step = 1usize;
    'search: for magnitude in [1usize, 10, 100, 1_000, 10_000, 100_000, 1_000_000] {
        for factor in [1, 2, 5] {
            step = factor * magnitude;
            if (count - 1) / step < max_ticks {
                break 'search;
            }
        }
    }
    (0..count).step_by(step).map(|k| k as f64).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_under_the_pointer() {
        let rect = PixelRect {
            x0: 10.0,
            y0: 20.0,
            x1: 110.0,
            y1: 220.0,
        };
        assert_eq!(cell_at(rect, 60, 32, 10.0, 20.0), Some((0, 0)));
        assert_eq!(cell_at(rect, 60, 32, 109.99, 219.99), Some((59, 31)));
        assert_eq!(cell_at(rect, 2, 4, 60.0, 120.0), Some((1, 2)));
        assert_eq!(cell_at(rect, 60, 32, 9.0, 50.0), None);
        assert_eq!(cell_at(rect, 60, 32, 50.0, 220.0), None);
        assert_eq!(cell_at(rect, 0, 32, 50.0, 50.0), None);
        assert_eq!(cell_at(rect, 60, 32, f64::NAN, 50.0), None);
    }

    #[test]
    fn step_cell_stays_inside_the_grid() {
        assert_eq!(step_cell((0, 0), (1, 1), (4, 4)), (1, 1));
        assert_eq!(step_cell((0, 0), (-1, -1), (4, 4)), (0, 0));
        assert_eq!(step_cell((2, 1), (0, i64::MAX / 2), (4, 6)), (2, 5));
        assert_eq!(step_cell((2, 5), (0, i64::MIN / 2), (4, 6)), (2, 0));
        assert_eq!(step_cell((3, 3), (10, 0), (8, 8)), (7, 3));
        // A grid that shrank: the cursor comes back inside it.
        assert_eq!(step_cell((30, 30), (0, 0), (4, 5)), (3, 4));
        assert_eq!(step_cell((0, 0), (0, 0), (0, 0)), (0, 0));
    }

    #[test]
    fn integer_ticks_are_round_and_few() {
        assert_eq!(integer_ticks(1, 10), vec![0.0]);
        assert_eq!(integer_ticks(3, 10), vec![0.0, 1.0, 2.0]);
        assert_eq!(
            integer_ticks(60, 10),
            (0..6).map(|k| k as f64 * 10.0).collect::<Vec<_>>()
        );
        assert_eq!(
            integer_ticks(32, 12),
            vec![0.0, 5.0, 10.0, 15.0, 20.0, 25.0, 30.0]
        );
        let big = integer_ticks(4096, 10);
        assert_eq!(big[1], 500.0);
        assert!(big.len() <= 10);
        assert!(integer_ticks(0, 10).is_empty());
    }

    #[test]
    fn angles_take_the_short_way_round() {
        assert!((reduced_angle(0.5) - 0.5).abs() < 1e-12);
        assert!((reduced_angle(TAU + 0.25) - 0.25).abs() < 1e-12);
        assert!((reduced_angle(PI + 0.5) - (0.5 - PI)).abs() < 1e-12);
        assert!((reduced_angle(-0.5) + 0.5).abs() < 1e-12);
    }

    #[test]
    fn arcs_start_and_end_on_the_circle() {
        let pts = arc_points(0.0, PI / 2.0, 1.0, 8);
        assert_eq!(pts.len(), 9);
        assert!((pts[0].0).abs() < 1e-12 && (pts[0].1 - 1.0).abs() < 1e-12);
        assert!((pts[8].0 - 1.0).abs() < 1e-12 && pts[8].1.abs() < 1e-12);
    }
}
