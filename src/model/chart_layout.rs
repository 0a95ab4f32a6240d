//! Where a chart's parts go, from the size of its canvas and the measured widths of its texts:
//! the legend beside or below the plot (never over the data), the room the axis titles and tick
//! labels take, and texts cut to fit. Pure (the widths are measured by the caller), so that the
//! rules are tested natively.

use super::plot::PixelRect;

/// Which side of the plot the legend takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LegendSide {
    /// No entries: the plot takes the whole canvas.
    None,
    /// A column of entries to the right of the plot (a wide canvas).
    Right,
    /// Rows of entries below the plot (a narrow canvas: a phone).
    Below,
}

/// The sizes a legend is laid out with, in logical pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LegendMetrics {
    /// The line sample before each entry's text, with the gap after it.
    pub swatch: f64,
    /// The height of one entry.
    pub row_height: f64,
    /// The gap between the legend and the plot, and between columns of entries.
    pub gap: f64,
}

/// Where the legend and the chart (plot, axes and their labels) go on a canvas.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LegendLayout {
    pub side: LegendSide,
    /// The legend's box (empty for [`LegendSide::None`]).
    pub legend: PixelRect,
    /// What is left for the chart.
    pub chart: PixelRect,
    /// Entries per row (1 for a legend on the right).
    pub columns: usize,
    /// The width of one entry (swatch and text), text cut to fit where it must be.
    pub entry_width: f64,
    /// The room for one entry's text: the widest text whenever the canvas is wide enough for it.
    /// Kept as given rather than recomputed as `entry_width − swatch`, whose rounding (e.g.
    /// (42.9 + 217) − 42.9 = 216.99999999999997) cut the widest entry by a letter or more.
    pub text_width: f64,
}

/// The legend's sizes for type of `legend_px` logical pixels (every chart's, see `web::draw::chart`).
pub fn legend_metrics(legend_px: f64) -> LegendMetrics {
    LegendMetrics {
        swatch: 2.2 * legend_px,
        row_height: 1.35 * legend_px,
        gap: 0.7 * legend_px,
    }
}

/// The narrowest share of the canvas the chart keeps when the legend goes to its right; a
/// legend that would leave less goes below.
pub const MIN_CHART_SHARE_BESIDE_LEGEND: f64 = 0.6;
/// The narrowest chart (logical pixels) beside a legend.
pub const MIN_CHART_WIDTH_BESIDE_LEGEND: f64 = 300.0;

/// Places a legend of entries whose texts are `text_widths` wide on a `width × height` canvas.
pub fn place_legend(
    (width, height): (f64, f64),
    text_widths: &[f64],
    metrics: LegendMetrics,
) -> LegendLayout {
    let whole = PixelRect {
        x0: 0.0,
        y0: 0.0,
        x1: width,
        y1: height,
    };
    if text_widths.is_empty() {
        return LegendLayout {
            side: LegendSide::None,
            legend: PixelRect {
                x0: width,
                y0: 0.0,
                x1: width,
                y1: 0.0,
            },
            chart: whole,
            columns: 0,
            entry_width: 0.0,
            text_width: 0.0,
        };
    }
    let widest = text_widths.iter().copied().fold(0.0f64, f64::max);
    let entry = metrics.swatch + widest;
    let beside = entry + metrics.gap;
    let chart_width = width - beside;
    let rows_beside = text_widths.len() as f64 * metrics.row_height;
    if chart_width >= MIN_CHART_WIDTH_BESIDE_LEGEND
        && chart_width >= width * MIN_CHART_SHARE_BESIDE_LEGEND
        && rows_beside <= height
    {
        // Level with the top of the plot, where a reader's eye starts.
        return LegendLayout {
            side: LegendSide::Right,
            legend: PixelRect {
                x0: chart_width + metrics.gap,
                y0: metrics.gap,
                x1: width,
                y1: metrics.gap + rows_beside,
            },
            chart: PixelRect {
                x0: 0.0,
                y0: 0.0,
                x1: chart_width,
                y1: height,
            },
            columns: 1,
            entry_width: entry,
            text_width: widest,
        };
    }
    let room = (width - 2.0 * metrics.gap).max(1.0);
    let entry_width = entry.min(room);
    // Only an entry wider than the whole canvas is cut.
    let text_width = if entry <= room {
        widest
    } else {
        (room - metrics.swatch).max(0.0)
    };
    let columns = (((room + metrics.gap) / (entry_width + metrics.gap)).floor() as usize)
        .clamp(1, text_widths.len());
    let rows = text_widths.len().div_ceil(columns);
    let legend_height = rows as f64 * metrics.row_height + metrics.gap;
    let top = (height - legend_height).max(0.0);
    LegendLayout {
        side: LegendSide::Below,
        legend: PixelRect {
            x0: metrics.gap,
            y0: top,
            x1: width - metrics.gap,
            y1: height,
        },
        chart: PixelRect {
            x0: 0.0,
            y0: 0.0,
            x1: width,
            y1: top,
        },
        columns,
        entry_width,
        text_width,
    }
}

/// Where entry `k` of a legend starts (the left end of its swatch, the middle of its row).
pub fn entry_origin(layout: &LegendLayout, k: usize, metrics: LegendMetrics) -> (f64, f64) {
    let columns = layout.columns.max(1);
    let (row, column) = (k / columns, k % columns);
    let x = layout.legend.x0 + column as f64 * (layout.entry_width + metrics.gap);
    let y = layout.legend.y0 + (row as f64 + 0.5) * metrics.row_height;
    (x, y)
}

/// `text` as it fits `room` pixels by `width_of`: whole; without a trailing bracketed remark
/// ("RMS of the entries (log)" → "RMS of the entries", a Chinese title's "（对数）" likewise); or
/// cut, ending in "…".
pub fn fit_text(text: &str, room: f64, width_of: impl Fn(&str) -> f64) -> String {
    if width_of(text) <= room {
        return text.to_string();
    }
    let remark = match (text.rfind(" ("), text.ends_with(')')) {
        (Some(at), true) => Some(at),
        _ if text.ends_with('）') => text.rfind('（'),
        _ => None,
    };
    let shorter = match remark {
        Some(at) if at > 0 => text[..at].to_string(),
        _ => text.to_string(),
    };
    if width_of(&shorter) <= room {
        return shorter;
    }
    let chars: Vec<char> = shorter.chars().collect();
    let mut keep = chars.len();
    while keep > 0 {
        let candidate = chars[..keep]
            .iter()
            .collect::<String>()
            .trim_end()
            .to_string()
            + "…";
        if width_of(&candidate) <= room {
            return candidate;
        }
        keep -= 1;
    }
    String::new()
}

/// Whether two rectangles share any area (touching edges do not count).
pub fn overlaps(a: PixelRect, b: PixelRect) -> bool {
    a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1
}

/// Where a bar's value label goes: above a bar that grows up (at or above zero), below one that
/// grows down, `gap` pixels from its end; `bar` is in pixels (y down), `label` the text's size.
/// Returns the label's box, which never overlaps the bar.
pub fn value_label_box(
    bar: PixelRect,
    (label_w, label_h): (f64, f64),
    up: bool,
    gap: f64,
) -> PixelRect {
    let centre = (bar.x0 + bar.x1) / 2.0;
    let (y0, y1) = if up {
        (bar.y0 - gap - label_h, bar.y0 - gap)
    } else {
        (bar.y1 + gap, bar.y1 + gap + label_h)
    };
    PixelRect {
        x0: centre - label_w / 2.0,
        y0,
        x1: centre + label_w / 2.0,
        y1,
    }
}

/// How many rows the names of `widths.len()` categories need under an axis that gives each a
/// slot `slot` pixels wide: one when every name fits its slot (with `gap` around it), else two or
/// more, staggered, so that the names of neighbouring categories never meet (a name in row r of
/// r rows has r slots, its neighbours being in the other rows). Never more rows than names.
pub fn category_label_rows(slot: f64, widths: &[f64], gap: f64) -> usize {
    let widest = widths.iter().copied().fold(0.0f64, f64::max);
    if slot <= 0.0 {
        return widths.len().max(1);
    }
    let rows = ((widest + gap) / slot).ceil().max(1.0) as usize;
    rows.min(widths.len().max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    const METRICS: LegendMetrics = LegendMetrics {
        swatch: 30.0,
        row_height: 20.0,
        gap: 10.0,
    };

    fn chars(text: &str) -> f64 {
        text.chars().count() as f64 * 7.0
    }

    #[test]
    fn a_wide_canvas_puts_the_legend_to_the_right_of_the_chart() {
        let layout = place_legend((680.0, 440.0), &[150.0, 170.0, 120.0, 160.0], METRICS);
        assert_eq!(layout.side, LegendSide::Right);
        assert_eq!(layout.columns, 1);
        assert!(!overlaps(layout.legend, layout.chart));
        assert!(layout.chart.width() >= 680.0 * MIN_CHART_SHARE_BESIDE_LEGEND);
        assert!(layout.legend.x1 <= 680.0 && layout.legend.width() >= 200.0);
        assert_eq!(layout.legend.height(), 80.0);
    }

    #[test]
    fn a_phone_puts_the_legend_below_in_rows_that_fit_its_width() {
        let layout = place_legend((358.0, 232.0), &[150.0, 170.0, 120.0, 160.0], METRICS);
        assert_eq!(layout.side, LegendSide::Below);
        assert!(!overlaps(layout.legend, layout.chart));
        assert_eq!(layout.chart.y1, layout.legend.y0);
        assert_eq!(layout.columns, 1);
        assert_eq!(layout.legend.height(), 4.0 * 20.0 + 10.0);
        for k in 0..4 {
            let (x, y) = entry_origin(&layout, k, METRICS);
            assert!(x + layout.entry_width <= 358.0, "entry {k} fits across");
            assert!(
                y > layout.legend.y0 && y < layout.legend.y1,
                "entry {k} in the box"
            );
        }
    }

    #[test]
    fn short_entries_below_share_rows() {
        let layout = place_legend((358.0, 232.0), &[40.0, 40.0, 40.0, 300.0], METRICS);
        // The long entry forces a single column; short ones alone share a row.
        assert_eq!(layout.columns, 1);
        let short = place_legend((358.0, 232.0), &[40.0, 40.0, 40.0], METRICS);
        assert_eq!(short.side, LegendSide::Below);
        assert_eq!(short.columns, 3);
        assert_eq!(short.legend.height(), 20.0 + 10.0);
        let many = place_legend((358.0, 232.0), &[60.0; 8], METRICS);
        assert_eq!(many.side, LegendSide::Below);
        assert_eq!(many.columns, 3);
        assert_eq!(many.legend.height(), 3.0 * 20.0 + 10.0);
    }

    #[test]
    fn an_entry_wider_than_the_canvas_is_cut_to_it() {
        let layout = place_legend((300.0, 200.0), &[500.0], METRICS);
        assert_eq!(layout.side, LegendSide::Below);
        assert!(layout.entry_width <= 280.0);
        assert!(layout.text_width <= 280.0 - METRICS.swatch);
    }

    /// Every entry's whole text fits its room wherever the canvas is wide enough for the widest
    /// entry, at every type size the page uses (laptop 13 px, projector 19.5 px) and at the
    /// logical canvas sizes of a phone, a laptop and both projectors (1024 × 768: 614 × 553;
    /// 1920 × 1080: 680 × 612), for text widths as the canvas measures them (whole pixels). The
    /// room was once recomputed as (swatch + widest) − swatch, a hair under the widest text, and
    /// the curves' legend read "col 7: cos, period 3…" on a projector.
    #[test]
    fn no_legend_entry_is_cut_where_the_canvas_has_room_for_it() {
        let canvases = [
            (358.0, 322.0),
            (614.0, 553.0),
            (680.0, 440.0),
            (680.0, 612.0),
        ];
        let mut checked = 0;
        for legend_px in [13.0, 19.5, 13.0 * 1.5] {
            let metrics = legend_metrics(legend_px);
            for canvas in canvases {
                for widest in 60..400 {
                    // Texts measured in whole pixels; four entries, the widest last.
                    let texts = [widest - 7, widest - 3, widest - 5, widest].map(f64::from);
                    let layout = place_legend(canvas, &texts, metrics);
                    if metrics.swatch + f64::from(widest) > canvas.0 - 2.0 * metrics.gap {
                        continue;
                    }
                    for (k, &w) in texts.iter().enumerate() {
                        let text = "x".repeat(w as usize);
                        let width_of = |t: &str| t.chars().count() as f64;
                        assert_eq!(
                            fit_text(&text, layout.text_width, width_of),
                            text,
                            "entry {k} of width {w} at {legend_px} px on {canvas:?}"
                        );
                        let (x, _) = entry_origin(&layout, k, metrics);
                        assert!(
                            x + metrics.swatch + w <= canvas.0 + 1e-9,
                            "entry {k} runs off the canvas"
                        );
                    }
                    checked += 1;
                }
            }
        }
        assert!(checked > 2000, "{checked}");
    }

    #[test]
    fn no_entries_leave_the_whole_canvas_to_the_chart() {
        let layout = place_legend((400.0, 300.0), &[], METRICS);
        assert_eq!(layout.side, LegendSide::None);
        assert_eq!(layout.chart.width(), 400.0);
        assert_eq!(layout.chart.height(), 300.0);
    }

    #[test]
    fn a_title_drops_its_remark_then_is_cut() {
        let title = "RMS of the entries (log)";
        assert_eq!(fit_text(title, 500.0, chars), title);
        assert_eq!(fit_text(title, 130.0, chars), "RMS of the entries");
        let cut = fit_text(title, 60.0, chars);
        assert!(cut.ends_with('…') && chars(&cut) <= 60.0, "{cut}");
        assert_eq!(fit_text(title, 1.0, chars), "");
    }

    #[test]
    fn a_value_label_sits_beyond_the_end_of_its_bar() {
        let up = PixelRect {
            x0: 100.0,
            y0: 50.0,
            x1: 140.0,
            y1: 200.0,
        };
        let label = value_label_box(up, (36.0, 14.0), true, 4.0);
        assert!(!overlaps(label, up));
        assert!(label.y1 <= up.y0);
        let down = PixelRect {
            x0: 100.0,
            y0: 200.0,
            x1: 140.0,
            y1: 260.0,
        };
        let label = value_label_box(down, (36.0, 14.0), false, 4.0);
        assert!(!overlaps(label, down));
        assert!(label.y0 >= down.y1);
    }

    #[test]
    fn category_names_that_fit_their_slots_take_one_row_else_they_stagger() {
        // Six names of at most 80 px: one row at slots of 100 px.
        assert_eq!(category_label_rows(100.0, &[40.0, 80.0, 60.0], 10.0), 1);
        // At 63 px slots (six bars on a projector's chart), an 88 px name needs two rows: each
        // name then has two slots, 126 px.
        assert_eq!(category_label_rows(63.0, &[40.0, 88.0, 60.0], 10.0), 2);
        // Never more rows than names, and a slot of nothing stacks them all.
        assert_eq!(category_label_rows(10.0, &[40.0, 88.0], 10.0), 2);
        assert_eq!(category_label_rows(0.0, &[40.0, 88.0, 1.0], 10.0), 3);
        assert_eq!(category_label_rows(50.0, &[], 10.0), 1);
    }
}
