//! Exact exports: a matrix as CSV with full float32 precision and a header naming what it is.
//! Pure text, so the format is tested natively (and parsed back in the end-to-end tests).

use ndarray::ArrayView2;

use crate::model::params::{format_base, Params};

/// The CSV of `values` (rows × columns):
///
/// ```text
/// # pe-lab P: d=32, n=60, base=10000
/// position,col_0,col_1,…
/// 0,0,1,…
/// ```
///
/// The first line names the matrix and its parameters; the second names the row label and each
/// column; then one line per row, the row index first. Every value is written with Rust's shortest
/// round-trip representation of the f32, so parsing it as f32 gives back exactly the same bits.
pub fn matrix_csv(
    title: &str,
    parameters: &[(&str, String)],
    row_label: &str,
    column_labels: &[String],
    values: ArrayView2<f32>,
) -> String {
    let described: Vec<String> = parameters
        .iter()
        .map(|(name, value)| format!("{name}={value}"))
        .collect();
    let mut out = format!("# pe-lab {}: {}\n", clean(title), described.join(", "));
    out.push_str(&clean(row_label));
    for label in column_labels {
        out.push(',');
        out.push_str(&clean(label));
    }
    out.push('\n');
    for (i, row) in values.rows().into_iter().enumerate() {
        out.push_str(&i.to_string());
        for v in row {
            out.push(',');
            out.push_str(&format_f32(*v));
        }
        out.push('\n');
    }
    out
}

/// The CSV of the encoding matrix P (what the heatmap panel exports).
pub fn encoding_csv(p: ArrayView2<f32>, base: f64) -> String {
    let (n, d) = p.dim();
    matrix_csv(
        "P",
        &[
            ("d", d.to_string()),
            ("n", n.to_string()),
            ("base", crate::model::params::format_base(base)),
        ],
        "position",
        &numbered_columns("col_", d),
        p,
    )
}

/// Shortest text that parses back to the same f32 (NaN and infinities spelled as Rust parses them).
pub fn format_f32(v: f32) -> String {
    format!("{v}")
}

/// Column labels `col_0 … col_{n-1}`.
pub fn numbered_columns(prefix: &str, count: usize) -> Vec<String> {
    (0..count).map(|c| format!("{prefix}{c}")).collect()
}

/// Labels must not break the CSV: commas, quotes and line breaks are replaced.
fn clean(label: &str) -> String {
    label
        .chars()
        .map(|c| match c {
            ',' | '"' | '\n' | '\r' => ' ',
            other => other,
        })
        .collect()
}

/// A figure's name in its panel's Save menu ("operations against n"), where the panel has
/// several: a variant of one message chosen by the canvas's id (the id itself where none names
/// it; a test checks that every such figure has one).
pub fn figure_name(canvas_id: &str) -> String {
    crate::message!("figure-save-name", canvas = canvas_id)
}

/// The parameters a CSV export states in its first lines.
pub fn csv_parameters(p: &Params) -> Vec<(&'static str, String)> {
    vec![
        ("d", p.d.to_string()),
        ("n", p.n.to_string()),
        ("base", format_base(p.base)),
    ]
}

/// The parameters and the row label of an export of P or of its columns: the link's `d`, `n`,
/// `base`, then `index` and `textbook` when they are on. With `index=1` the CSV's row r (counted
/// from 0, like its `col_c` labels) is position r + 1.
pub fn encoding_csv_head(
    p: &Params,
    textbook: bool,
) -> (Vec<(&'static str, String)>, &'static str) {
    let mut parameters = csv_parameters(p);
    let mut row_label = "position";
    if p.first_position != 0 {
        parameters.push((
            "index",
            crate::message!("label-csv-index", first = p.first_position),
        ));
        row_label = "row";
    }
    if textbook {
        parameters.push(("textbook", crate::message!("label-csv-textbook")));
    }
    (parameters, row_label)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::encoding::sinusoidal;

    #[test]
    fn values_round_trip_bit_for_bit() {
        let p = sinusoidal(50, 33, 10000.0);
        let csv = matrix_csv(
            "P",
            &[
                ("d", "33".into()),
                ("n", "50".into()),
                ("base", "10000".into()),
            ],
            "position",
            &numbered_columns("col_", 33),
            p.view(),
        );
        let mut lines = csv.lines();
        assert_eq!(lines.next(), Some("# pe-lab P: d=33, n=50, base=10000"));
        let header: Vec<&str> = lines.next().unwrap().split(',').collect();
        assert_eq!(header.len(), 34);
        assert_eq!((header[0], header[33]), ("position", "col_32"));
        let mut rows = 0;
        for (i, line) in lines.enumerate() {
            let fields: Vec<&str> = line.split(',').collect();
            assert_eq!(fields[0], i.to_string());
            for (c, field) in fields[1..].iter().enumerate() {
                let parsed: f32 = field.parse().unwrap();
                assert_eq!(parsed.to_bits(), p[[i, c]].to_bits(), "row {i} col {c}");
            }
            rows += 1;
        }
        assert_eq!(rows, 50);
    }

    #[test]
    fn labels_cannot_break_the_format() {
        let m = ndarray::arr2(&[[1.5f32, -0.0], [f32::NAN, 1e-30]]);
        let csv = matrix_csv(
            "A, \"b\"",
            &[],
            "query",
            &["x,y".into(), "z\n".into()],
            m.view(),
        );
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 4);
        assert_eq!(lines[1], "query,x y,z ");
        assert_eq!(lines[2], "0,1.5,-0");
        assert_eq!(lines[3], "1,NaN,0.000000000000000000000000000001");
        assert!("NaN".parse::<f32>().unwrap().is_nan());
    }
}
