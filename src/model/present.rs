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
    let odd_note = if s.d % 2 == 1 {
        format!(
            " d = {} is odd: the last column ({}) is a sine with no cosine partner.",
            s.d,
            s.d - 1
        )
    } else {
        String::new()
    };
    let frequencies = plural(s.frequencies, "frequency", "frequencies");
    let periods = if s.frequencies == 1 {
        format!("period {} positions", format_period(s.shortest_period))
    } else {
        format!(
            "periods from {} to {} positions",
            format_period(s.shortest_period),
            format_period(s.longest_period)
        )
    };
    let odd_note = if s.d % 2 == 1 && one_based(s.first_position) {
        format!(
            " d = {} is odd: the last column ({} counted from 1) is a sine with no cosine partner.",
            s.d, s.d
        )
    } else {
        odd_note
    };
    let numbering = if one_based(s.first_position) {
        format!(
            " Rows are positions {}…{} and columns are numbered 1…{}, as in the Julia code, whose \
             P[c, i, 1] is column c at position i (the formulas' 0-based column c − 1).",
            s.first_position,
            s.first_position + s.n - 1,
            s.d
        )
    } else {
        String::new()
    };
    let source = match s.source {
        PSource::Exact => "",
        PSource::Textbook => {
            " This is the textbook float32 P: every angle i·ω_j formed in float32, as d2l's \
             PyTorch/MXNet code does."
        }
        PSource::TextbookBesideExactHeatmap => {
            " The heatmap is the exact P computed on the GPU; the curves and the projection use \
             the textbook float32 P, computed on the CPU."
        }
    };
    format!(
        "P is {} × {} ({} values) in [{:.4}, {:.4}]; {frequencies}, {periods}.{odd_note}{numbering}{source}",
        s.n,
        s.d,
        s.n * s.d,
        s.p_min,
        s.p_max,
    )
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
    let noun = if columns.len() == 1 {
        "Column"
    } else {
        "Columns"
    };
    let numbering = if one_based(first_position) {
        let zero_based: Vec<String> = columns.iter().map(|c| c.to_string()).collect();
        let julia_figure = if columns == [5, 6, 7, 8, 9] {
            " The Julia figure plots P[6:10, :]: column 6 is the cosine of pair 2 (its sine twin, \
             column 5, is not drawn), 7 and 8 are pair 3, 9 and 10 pair 4."
        } else {
            ""
        };
        format!(
            " Columns and positions are counted from 1 here, as in the Julia code and its \
             figure's legend (the link's cols counts from 0: {}). The chapter's sentence and the \
             formula p[i, 2j] = sin(i·ω_j), p[i, 2j+1] = cos(i·ω_j) count columns from 0: its columns 6 \
             and 7 (a sine and its cosine twin) and 8 and 9 are columns 7, 8 and 9, 10 here.{julia_figure}",
            zero_based.join(", ")
        )
    } else {
        String::new()
    };
    let source = if source.columns_are_textbook() {
        " Values of the textbook float32 P."
    } else {
        ""
    };
    format!(
        "{noun} {} against position {}…{}.{numbering}{source}",
        described.join(", "),
        first_position,
        (first_position + n).saturating_sub(1)
    )
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
    let named = if one_based(first_position) {
        format!(
            "position {position}, column {} ({kind}, pair j = {pair}; Julia's P[{}, {position}, 1])",
            column + 1,
            column + 1
        )
    } else {
        format!("position {position}, column {column} ({kind}, pair j = {pair})")
    };
    let source = if textbook { " (textbook float32)" } else { "" };
    format!("{named}: p = {value:.4}{source}")
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
    let columns = if one_based(first_position) {
        format!(
            "columns {} and {} counted from 1; 0-based {} and {}",
            2 * pair + 1,
            2 * pair + 2,
            2 * pair,
            2 * pair + 1
        )
    } else {
        format!("columns {} and {}", 2 * pair, 2 * pair + 1)
    };
    let of = match source {
        PSource::Exact => "",
        PSource::Textbook => " The points and the error below are of the textbook float32 P.",
        PSource::TextbookBesideExactHeatmap => {
            " The points and the error below are of the textbook float32 P, computed on the CPU \
             (the heatmap above is the GPU's exact P)."
        }
    };
    format!(
        "Pair j = {pair} ({columns}), offset δ = {delta}: the same matrix M carries every p_i to p_(i+δ).{of}"
    )
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
    format!(
        "Textbook float32: d2l's PyTorch/MXNet code forms the angle i·ω_j = i / base^(2j/d) in \
         float32, which keeps 24 significant bits, so a number near i = {last_position} is stored \
         only to within about i·2⁻²⁴ ≈ {}, and the angle goes through such roundings (the power, \
         then the division). Here the angles are off by up to {} rad, and sin and cos inherit \
         that error: M·p_i misses p_(i+δ) by up to {}. The exact P never forms the angle in \
         float32. (The Julia edition computes P in Float64.)",
        format_number(spacing),
        format_number(angle_error),
        format_number(projection_error)
    )
}

/// The projection panel's angle: ω_j and δ·ω_j, reduced to one turn when it is more than half.
pub fn projection_angle(pair: usize, omega: f64, angle: f64) -> String {
    let turn = if angle.abs() > std::f64::consts::PI {
        format!(
            ", the same turn as {:.4} rad ({:.2}°)",
            reduced_angle(angle),
            reduced_angle(angle).to_degrees()
        )
    } else {
        format!(" ({:.2}°)", angle.to_degrees())
    };
    format!("ω_{pair} = {omega:.6} rad per position; δ·ω_{pair} = {angle:.4} rad{turn}")
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

/// The projection panel's sentences when d = 1 leaves no (sin, cos) pair.
pub const NO_PAIR_NOTE: &str =
    "With d = 1 the encoding has a single sine column, so there is no pair to project.";
pub const NO_PAIR_CANVAS: [&str; 2] = [
    "d = 1: the only column is a sine.",
    "There is no (sin, cos) pair to rotate: raise d.",
];

/// A measured duration in milliseconds, to three significant figures ("0.0423 ms", "1.25 ms",
/// "312 ms"): a small size's time is not rounded to "0.00 ms".
pub fn duration_ms(ms: f64) -> String {
    if !ms.is_finite() || ms <= 0.0 {
        return format!("{} ms", if ms.is_finite() { 0.0 } else { ms });
    }
    let digits = (2 - ms.log10().floor() as i32).max(0) as usize;
    format!("{ms:.digits$} ms")
}

#[cfg(test)]
mod tests;
