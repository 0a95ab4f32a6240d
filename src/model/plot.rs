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

/// The smallest cell, in CSS pixels, that a matrix figure of the page draws while it has at most
/// [`MIN_CELL_MATRIX_SIDE`] rows and columns: 12 px is the height of the figures' tick type
/// (13 px) less its descender, so a cell is about as tall as a label beside it and a tap on a phone
/// (a finger covers 7–10 mm, about 40 px) lands on the cell or its neighbour, never three cells
/// away. Where a panel is narrower than that needs, the figure stacks or scrolls sideways in its
/// panel instead of squashing its cells.
pub const MIN_CELL_PX: f64 = 12.0;

/// The narrowest column of a matrix whose columns are the features of a vector (Z's, Q's, K's,
/// V's, Shaw's table's dimensions: named by no label, read as a row's pattern): on a phone, where
/// [`MIN_CELL_PX`] columns would scroll the figure sideways, they narrow down to this to fit the
/// screen. Rows keep [`MIN_CELL_PX`], the height of the names beside them.
pub const MIN_FEATURE_COLUMN_PX: f64 = 4.0;

/// Matrices with more rows or columns than this (P at n = 60, a Gram matrix of 60 positions) are
/// pictures of a pattern rather than tables read cell by cell: they take the room they have, and
/// their cells may be smaller. The sentence's matrices (8 tokens, head widths of 8, Z's 32
/// columns) are tables.
pub const MIN_CELL_MATRIX_SIDE: usize = 32;

/// The smallest (width, height) a `rows × columns` matrix needs for [`MIN_CELL_PX`] cells; none
/// (0, 0) for a picture of a pattern (a side longer than [`MIN_CELL_MATRIX_SIDE`]).
pub fn min_matrix_px((rows, columns): (usize, usize)) -> (f64, f64) {
    if rows > MIN_CELL_MATRIX_SIDE || columns > MIN_CELL_MATRIX_SIDE {
        (0.0, 0.0)
    } else {
        (columns as f64 * MIN_CELL_PX, rows as f64 * MIN_CELL_PX)
    }
}

/// The cells whose names are drawn: every named cell (an empty name leaves its cell unnamed on
/// purpose, as the ALiBi blocks' 0, 4, 8), kept when it is at least `step` cells past the last
/// one kept; and whether a named cell was left out, which the caption must then say. With every
/// cell named these are every `step`-th cell (0, step, 2·step, …), each name still beside its
/// own cell.
pub fn named_ticks(names: &[String], step: usize) -> (Vec<f64>, bool) {
    let step = step.max(1);
    let mut kept = Vec::new();
    let mut last: Option<usize> = None;
    let mut dropped = false;
    for (k, name) in names.iter().enumerate() {
        if name.is_empty() {
            continue;
        }
        match last {
            Some(previous) if k - previous < step => dropped = true,
            _ => {
                kept.push(k as f64);
                last = Some(k);
            }
        }
    }
    (kept, dropped)
}

/// The smallest step that leaves at most `room / label_px` labels of `count` cells (1: every cell
/// is labelled).
pub fn label_step(count: usize, room: f64, label_px: f64) -> usize {
    if count == 0 || label_px <= 0.0 {
        return 1;
    }
    let fit = (room / label_px).floor().max(1.0) as usize;
    count.div_ceil(fit).max(1)
}

/// The English ordinal ending of `k`: "nd" for 2, "rd" for 3, "th" for 4 and 11, "st" for 21.
fn ordinal_suffix(k: usize) -> &'static str {
    match (k % 10, k % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    }
}

/// "2nd", "3rd", "4th", "11th", "21st".
pub fn ordinal(k: usize) -> String {
    format!("{k}{}", ordinal_suffix(k))
}

/// What a figure says when its names are thinned: "every 2nd key labelled"; `None` when every
/// cell has its label. `noun` names one cell of the axis ("key", "query", "token").
pub fn thinned_caption(step: usize, noun: &str) -> Option<String> {
    thinned_captions(&[(step, noun)])
}

/// The captions of a figure's two axes, joined ("every 2nd key, every 2nd query labelled").
pub fn thinned_captions(parts: &[(usize, &str)]) -> Option<String> {
    let thinned: Vec<String> = parts
        .iter()
        .filter(|(step, _)| *step > 1)
        .map(|&(step, noun)| {
            crate::message!(
                "label-thinned-part",
                step = step,
                suffix = ordinal_suffix(step),
                noun = noun,
            )
        })
        .collect();
    (!thinned.is_empty()).then(|| {
        crate::message!(
            "label-thinned",
            parts = thinned.join(&crate::message!("label-thinned-separator")),
        )
    })
}

/// The noun of one cell of an axis from its description: "Key" → "key", "Query position (P
/// alone)" → "query position" (a Chinese description's remark is in "（…）").
pub fn axis_noun(description: &str) -> String {
    let end = [" (", "（"]
        .iter()
        .filter_map(|remark| description.find(remark))
        .min()
        .unwrap_or(description.len());
    let short = &description[..end];
    // ASCII only: the English descriptions are the page's own labels (a Chinese one has no case),
    // and the full Unicode case tables would add 7 KB to the page for nothing.
    short.to_ascii_lowercase()
}

/// Token names longer than this are shortened with "…" on the axes.
pub const NAME_CHARS: usize = 12;

/// `name` shortened to [`NAME_CHARS`] characters.
pub fn short_name(name: &str) -> String {
    if name.chars().count() <= NAME_CHARS {
        name.to_string()
    } else {
        let prefix: String = name.chars().take(NAME_CHARS - 1).collect();
        format!("{prefix}…")
    }
}

/// The name of cell `v` (an integer tick), empty between cells.
pub fn name_label(names: &[String], v: f64) -> String {
    if (v - v.round()).abs() > 1e-9 || v < 0.0 {
        return String::new();
    }
    names
        .get(v.round() as usize)
        .map(|n| short_name(n))
        .unwrap_or_default()
}

/// Colour-bar labels with as many decimals as the range needs (0…1: 0.25; ±16: 8.0; ±1024: 512).
pub fn bar_label(v: f64, span: f64) -> String {
    if span >= 100.0 {
        format!("{v:.0}")
    } else if span >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

/// Ticks for `count` cells labelled `first, first + 1, …`: the cells whose labels are round
/// numbers (multiples of 1, 2 or 5 × 10^k), as cell indices. `first` = 0: [`integer_ticks`].
pub fn numbered_ticks(count: usize, first: usize, max_ticks: usize) -> Vec<f64> {
    if first == 0 {
        return integer_ticks(count, max_ticks);
    }
    let first_label = first as f64;
    let mut ticks: Vec<f64> = integer_ticks(count + first, max_ticks)
        .into_iter()
        .filter(|&label| label >= first_label)
        .map(|label| label - first_label)
        .collect();
    // The first cell is labelled too (n = 1 still gets its "1") unless a round label sits less
    // than half a step after it.
    let gap = match ticks.as_slice() {
        [a, b, ..] => b - a,
        _ => 0.0,
    };
    if ticks.first().map_or(true, |&t| t > gap / 2.0) {
        ticks.insert(0, 0.0);
    }
    ticks
}

/// A cell index as its label `index + first`; nothing between cells.
pub fn numbered_label(v: f64, first: usize) -> String {
    if (v - v.round()).abs() < 1e-9 && v >= 0.0 {
        format!("{}", v.round() as i64 + first as i64)
    } else {
        String::new()
    }
}

/// Cell indices only: a tick between two cells gets no label.
pub fn index_label(v: &f64) -> String {
    numbered_label(*v, 0)
}

/// An axis description that fits `room` pixels at `font_px`: whole, or without its bracketed part
/// ("Row (position)" → "Row") on a small canvas (a phone), rather than cut off at the edge.
pub fn fit_description(description: &str, room: f64, font_px: f64) -> &str {
    // About 0.55 em per character of a sans-serif font, 1 em per Chinese character.
    let fits = |text: &str| {
        let wide = text.chars().filter(|&c| c >= '\u{2E80}').count();
        let narrow = text.chars().count() - wide;
        narrow as f64 * font_px * 0.55 + wide as f64 * font_px <= room
    };
    let remark = [" (", "（"]
        .iter()
        .filter_map(|remark| description.find(remark))
        .min();
    match remark {
        Some(at) if !fits(description) => &description[..at],
        _ => description,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_ticks_keep_sparse_names_and_thin_dense_ones() {
        let named = |list: &[&str]| list.iter().map(|n| n.to_string()).collect::<Vec<_>>();
        // Every cell named: every k-th, as before, and the caption says so.
        let all = named(&["a", "b", "c", "d", "e"]);
        assert_eq!(named_ticks(&all, 2), (vec![0.0, 2.0, 4.0], true));
        assert_eq!(named_ticks(&all, 1), (vec![0.0, 1.0, 2.0, 3.0, 4.0], false));
        // Blocks named 0, 4 with gaps: every name kept at a step that fits them.
        let blocks = named(&["0", "", "", "", "4", "", "0", "", "", "", "4"]);
        assert_eq!(named_ticks(&blocks, 2), (vec![0.0, 4.0, 6.0, 10.0], false));
        assert_eq!(named_ticks(&blocks, 3), (vec![0.0, 4.0, 10.0], true));
        // A step wider than a gap drops the name that comes too soon, and says so.
        assert_eq!(named_ticks(&blocks, 5), (vec![0.0, 6.0], true));
        assert_eq!(named_ticks(&named(&["", ""]), 1), (vec![], false));
    }

    #[test]
    fn thinned_labels_say_so() {
        assert_eq!(ordinal(1), "1st");
        assert_eq!(ordinal(2), "2nd");
        assert_eq!(ordinal(3), "3rd");
        assert_eq!(ordinal(12), "12th");
        assert_eq!(ordinal(22), "22nd");
        assert_eq!(thinned_caption(1, "key"), None);
        assert_eq!(
            thinned_caption(2, "key").as_deref(),
            Some("every 2nd key labelled")
        );
        assert_eq!(
            thinned_captions(&[(2, "key"), (1, "query")]).as_deref(),
            Some("every 2nd key labelled")
        );
        assert_eq!(thinned_captions(&[(1, "key"), (1, "query")]), None);
        assert_eq!(axis_noun("Query position (P alone)"), "query position");
        // 8 names in 60 px of 17 px labels: three fit, so every 3rd.
        assert_eq!(label_step(8, 60.0, 17.0), 3);
        assert_eq!(label_step(8, 200.0, 17.0), 1);
        let eight: Vec<String> = (0..8).map(|k| k.to_string()).collect();
        assert_eq!(named_ticks(&eight, 3), (vec![0.0, 3.0, 6.0], true));
        assert_eq!(min_matrix_px((8, 32)), (384.0, 96.0));
        assert_eq!(min_matrix_px((60, 32)), (0.0, 0.0));
    }

    #[test]
    fn numbered_ticks_label_the_first_cell() {
        assert_eq!(numbered_ticks(3, 1, 10), vec![0.0, 1.0, 2.0]);
        assert_eq!(numbered_label(0.0, 1), "1");
        assert_eq!(index_label(&0.5), "");
        assert_eq!(fit_description("Row (position)", 40.0, 17.0), "Row");
        assert_eq!(
            fit_description("Row (position)", 400.0, 17.0),
            "Row (position)"
        );
        assert_eq!(short_name("abcdefghijklmnop"), "abcdefghijk…");
        assert_eq!(bar_label(0.25, 1.0), "0.25");
    }

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

    #[test]
    fn the_chinese_captions_and_axis_titles_keep_the_english_numbers() {
        use crate::model::messages::{install_source, use_english, Computed};
        let english = thinned_captions(&[(2, "key"), (13, "query")]).unwrap();
        assert_eq!(english, "every 2nd key, every 13th query labelled");
        install_source::<Computed>("zh", include_str!("../../locales/computed/zh.ftl")).unwrap();
        let key = crate::message!("label-axis-key-position-p-alone");
        let query = crate::message!("label-axis-query");
        let chinese = thinned_captions(&[(2, &axis_noun(&key)), (13, &axis_noun(&query))]);
        let slider = crate::message!("label-slider-valid-len", valid = 3usize, tokens = 8usize);
        use_english::<Computed>();
        let chinese = chinese.unwrap();
        assert_eq!(chinese, "键位置：每 2 个标注一个；查询：每 13 个标注一个");
        let digits = |text: &str| -> Vec<String> {
            text.split(|c: char| !c.is_ascii_digit())
                .filter(|d| !d.is_empty())
                .map(str::to_string)
                .collect()
        };
        assert_eq!(digits(&chinese), digits(&english));
        assert!(
            slider.contains('键') && digits(&slider) == ["3", "8"],
            "{slider}"
        );
        // A Chinese title too long for its room drops its "（…）" remark, as an English one does.
        assert_eq!(fit_description(&key, 60.0, 17.0), "键位置");
        assert_eq!(fit_description(&key, 400.0, 17.0), key);
    }
}
