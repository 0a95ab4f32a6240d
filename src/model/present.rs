//! What the page says: number formats and the read-out sentences of the encoding panels, the
//! compute badge and the frame time. Pure text, tested natively; the browser layer only puts it
//! into elements.

use crate::math::encoding::{is_sine_column, pair_of_column};
use crate::model::plot::reduced_angle;

/// A number for a read-out: 3 significant digits, exponent form when very small or large.
pub fn format_number(x: f64) -> String {
    if x == 0.0 {
        "0".into()
    } else if !x.is_finite() {
        format!("{x}")
    } else if x.abs() < 1e-3 || x.abs() >= 1e6 {
        format!("{x:.2e}")
    } else if x.abs() < 1.0 {
        format!("{x:.4}")
    } else {
        format!("{x:.3}")
    }
}

/// An index as subscript digits: p₁₀₅.
pub fn subscript(i: usize) -> String {
    i.to_string()
        .chars()
        .map(|c| match c.to_digit(10) {
            Some(digit) => char::from_u32(0x2080 + digit).unwrap_or(c),
            None => c,
        })
        .collect()
}

/// A period in positions, readable: 6.28, 46.4, 2154, 1.0e6.
pub fn format_period(period: f64) -> String {
    if period < 10.0 {
        format!("{period:.2}")
    } else if period < 100.0 {
        format!("{period:.1}")
    } else if period < 1e5 {
        format!("{period:.0}")
    } else {
        format!("{period:.1e}")
    }
}

/// "1 column", "3 columns".
pub fn plural(count: usize, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

/// The numbers of P that its read-out states.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EncodingSummary {
    pub n: usize,
    pub d: usize,
    pub p_min: f32,
    pub p_max: f32,
    pub frequencies: usize,
    pub shortest_period: f64,
    pub longest_period: f64,
    /// The position of row 0 (1: the Julia edition's numbering, labels from 1).
    pub first_position: usize,
    /// Which P the heatmap (and its range above) and the curves and projection error are of.
    pub source: PSource,
}

/// Which P the encoding panels show (`?textbook=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PSource {
    /// The exact P everywhere.
    #[default]
    Exact,
    /// The textbook float32 P everywhere (the CPU path).
    Textbook,
    /// WebGPU: the heatmap is the GPU's exact P; the curves, the projection pair and its error are
    /// of the textbook float32 P, computed on the CPU.
    TextbookBesideExactHeatmap,
}

impl PSource {
    /// From `?textbook=` and the backend.
    pub fn new(textbook: bool, gpu_heatmap: bool) -> Self {
        match (textbook, gpu_heatmap) {
            (false, _) => PSource::Exact,
            (true, false) => PSource::Textbook,
            (true, true) => PSource::TextbookBesideExactHeatmap,
        }
    }

    /// Whether the heatmap's cells (and hovered values, and the CSV of P) are the textbook P.
    pub fn heatmap_is_textbook(self) -> bool {
        self == PSource::Textbook
    }

    /// Whether the curves, the projection pair and its error are of the textbook P.
    pub fn columns_are_textbook(self) -> bool {
        self != PSource::Exact
    }
}

/// The numbering of P's rows and columns: "from 0" (the formulas, the Python editions) or "from
/// 1" (the Julia code), for the panels' sentences.
fn one_based(first_position: usize) -> bool {
    first_position != 0
}

/// The sentence under the heatmap of P.
pub fn encoding_summary(s: &EncodingSummary) -> String {
    let mut text = crate::message!(
        "summary-p",
        n = s.n,
        d = s.d,
        values = s.n * s.d,
        min = format!("{:.4}", s.p_min),
        max = format!("{:.4}", s.p_max),
        frequencies = s.frequencies,
        shortest = format_period(s.shortest_period),
        longest = format_period(s.longest_period)
    );
    if s.d % 2 == 1 {
        text += &if one_based(s.first_position) {
            crate::message!("summary-p-odd-counted-from-one", d = s.d)
        } else {
            crate::message!("summary-p-odd", d = s.d, last = s.d - 1)
        };
    }
    if one_based(s.first_position) {
        text += &crate::message!(
            "summary-p-julia",
            first = s.first_position,
            last = s.first_position + s.n - 1,
            d = s.d
        );
    }
    match s.source {
        PSource::Exact => {}
        PSource::Textbook => text += &crate::message!("summary-p-textbook"),
        PSource::TextbookBesideExactHeatmap => {
            text += &crate::message!("summary-p-textbook-beside-exact")
        }
    }
    text
}

/// "sin" or "cos": which function column `c` holds.
pub fn column_kind(column: usize) -> &'static str {
    if is_sine_column(column) {
        "sin"
    } else {
        "cos"
    }
}

/// A column's label: its 0-based index, or with `first_position` = 1 the index counted from 1
/// (the Julia code's encoding dimension).
pub fn column_label(column: usize, first_position: usize) -> usize {
    column + usize::from(one_based(first_position))
}

/// Columns' labels in a line, "6, 7, 8, 9" ([`column_label`] each): the columns field, the
/// curves' takeaway.
pub fn column_labels(columns: &[usize], first_position: usize) -> String {
    columns
        .iter()
        .map(|&c| column_label(c, first_position).to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The sentence under the curves. `columns` are 0-based (as in the link's
/// `cols`); with `first_position` = 1 they are named counted from 1, positions run 1…n, and the
/// sentence says so.
pub fn curves_summary(
    columns: &[usize],
    n: usize,
    first_position: usize,
    source: PSource,
) -> String {
    let described: Vec<String> = columns
        .iter()
        .map(|&c| format!("{} ({})", column_label(c, first_position), column_kind(c)))
        .collect();
    let mut text = crate::message!(
        "summary-curves",
        count = columns.len(),
        columns = described.join(", "),
        first = first_position,
        last = (first_position + n).saturating_sub(1)
    );
    if one_based(first_position) {
        let zero_based: Vec<String> = columns.iter().map(|c| c.to_string()).collect();
        text += &crate::message!("summary-curves-julia", zero_based = zero_based.join(", "));
        if columns == [5, 6, 7, 8, 9] {
            text += &crate::message!("summary-curves-julia-figure");
        }
    }
    if source.columns_are_textbook() {
        text += &crate::message!("summary-curves-textbook");
    }
    text
}

/// What the heatmap's read-out says of one cell of P: `row` and `column` are 0-based indices
/// into P, whose row 0 is position `first_position`; `textbook`: the value is of the textbook
/// float32 P.
pub fn encoding_cell(
    row: usize,
    column: usize,
    value: f32,
    first_position: usize,
    textbook: bool,
) -> String {
    let pair = pair_of_column(column);
    let position = first_position + row;
    let kind = column_kind(column);
    // Short, to be read at a glance while the pointer moves: ω and the periods are in the
    // takeaway and the More text; 1-based, the Julia index names the cell instead.
    let value = format!("{value:.4}");
    let textbook = if textbook { "yes" } else { "no" };
    if one_based(first_position) {
        crate::message!(
            "readout-cell-julia",
            position = position,
            column = column + 1,
            kind = kind,
            pair = pair,
            value = value,
            textbook = textbook
        )
    } else {
        crate::message!(
            "readout-cell",
            position = position,
            column = column,
            kind = kind,
            pair = pair,
            value = value,
            textbook = textbook
        )
    }
}

/// A matrix entry of the projection panel: 4 decimals, never "-0.0000".
pub fn matrix_entry(value: f64) -> String {
    let text = format!("{:.4}", value + 0.0);
    if text == "-0.0000" {
        "0.0000".into()
    } else {
        text
    }
}

/// The projection panel's sentence on which pair and offset are shown, and which P its error is
/// of.
pub fn projection_note(pair: usize, delta: i64, first_position: usize, source: PSource) -> String {
    let delta = delta.to_string();
    let mut text = if one_based(first_position) {
        crate::message!(
            "note-projection-counted-from-one",
            pair = pair,
            first = 2 * pair + 1,
            second = 2 * pair + 2,
            first_zero_based = 2 * pair,
            second_zero_based = 2 * pair + 1,
            delta = delta
        )
    } else {
        crate::message!(
            "note-projection",
            pair = pair,
            first = 2 * pair,
            second = 2 * pair + 1,
            delta = delta
        )
    };
    match source {
        PSource::Exact => {}
        PSource::Textbook => text += &crate::message!("note-projection-textbook"),
        PSource::TextbookBesideExactHeatmap => {
            text += &crate::message!("note-projection-textbook-beside-exact")
        }
    }
    text
}

/// Why the textbook float32 P misses the projection: `last_position` is P's largest position,
/// `angle_error` the largest error of its float32 angles (rad), `projection_error` the panel's
/// max |M·p_i − p_(i+δ)|. Empty when textbook is off.
pub fn textbook_note(
    textbook: bool,
    last_position: usize,
    angle_error: f64,
    projection_error: f64,
) -> String {
    if !textbook {
        return String::new();
    }
    // Rounding to nearest keeps a relative error of at most 2⁻²⁴ (24 significant bits).
    let spacing = last_position as f64 * 2f64.powi(-24);
    crate::message!(
        "note-textbook",
        last = last_position,
        spacing = format_number(spacing),
        angle_error = format_number(angle_error),
        projection_error = format_number(projection_error)
    )
}

/// The projection panel's angle: ω_j and δ·ω_j, reduced to one turn when it is more than half.
pub fn projection_angle(pair: usize, omega: f64, angle: f64) -> String {
    let (omega, degrees) = (format!("{omega:.6}"), format!("{:.2}", angle.to_degrees()));
    if angle.abs() > std::f64::consts::PI {
        crate::message!(
            "readout-projection-angle-turned",
            pair = pair,
            omega = omega,
            angle = format!("{angle:.4}"),
            reduced = format!("{:.4}", reduced_angle(angle)),
            reduced_degrees = format!("{:.2}", reduced_angle(angle).to_degrees())
        )
    } else {
        crate::message!(
            "readout-projection-angle",
            pair = pair,
            omega = omega,
            angle = format!("{angle:.4}"),
            degrees = degrees
        )
    }
}

/// The projection panel's highlighted point: p_i, M·p_i and p_(i+δ).
pub fn projection_point(
    position: usize,
    target: i64,
    from: (f64, f64),
    projected: (f64, f64),
    to: (f64, f64),
) -> String {
    format!(
        "p_{position} = ({:.4}, {:.4}) → M·p_{position} = ({:.4}, {:.4}); p_{target} = ({:.4}, {:.4})",
        from.0, from.1, projected.0, projected.1, to.0, to.1
    )
}

/// The projection panel's sentence when d = 1 leaves no (sin, cos) pair.
pub fn no_pair_note() -> String {
    crate::message!("note-projection-no-pair")
}

/// The two lines its canvas shows then.
pub fn no_pair_canvas() -> [String; 2] {
    [
        crate::message!("figure-projection-no-pair-title"),
        crate::message!("figure-projection-no-pair-hint"),
    ]
}

/// A measured duration in milliseconds, to three significant figures ("0.0423 ms", "1.25 ms",
/// "312 ms"): a small size's time is not rounded to "0.00 ms".
pub fn duration_ms(ms: f64) -> String {
    if !ms.is_finite() || ms <= 0.0 {
        return format!("{} ms", if ms.is_finite() { 0.0 } else { ms });
    }
    let digits = (2 - ms.log10().floor() as i32).max(0) as usize;
    format!("{ms:.digits$} ms")
}

/// The pieces a line of `text` may break between, each with what joins it to the one before: its
/// words, joined by a space, and within a word of Chinese, each character, joined by nothing (a
/// full-width mark that closes a phrase stays with the character before it).
pub fn break_pieces(text: &str) -> Vec<(&'static str, &str)> {
    let wide = |c: char| c >= '\u{2E80}';
    let closing = |c: char| "，。：；、）》”’！？".contains(c);
    let mut pieces = Vec::new();
    for word in text.split(' ') {
        let mut start = 0;
        let mut previous_wide = false;
        for (at, c) in word.char_indices() {
            if at > start && (wide(c) || previous_wide) && !closing(c) {
                pieces.push((if start == 0 { " " } else { "" }, &word[start..at]));
                start = at;
            }
            previous_wide = wide(c);
        }
        pieces.push((if start == 0 { " " } else { "" }, &word[start..]));
    }
    pieces
}

#[cfg(test)]
mod tests;
