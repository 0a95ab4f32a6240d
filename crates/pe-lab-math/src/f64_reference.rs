//! The float64 reference of P that the encoding's tests and the benchmark measure against,
//! written once from the definition (d2l.ai, positional-encoding-def): `p[i, 2j] = sin(i·ω_j)`,
//! `p[i, 2j+1] = cos(i·ω_j)`, `ω_j = base^(−2j/d)`. It calls nothing of [`crate::encoding`], so
//! that it stays independent of the code it checks. Only with the `f64-reference` feature: the
//! page never needs it.

use ndarray::ArrayView2;

/// ω of every column c of a d-column P, `base^(−2⌊c/2⌋/d)`, in float64.
pub fn column_frequencies(d: usize, base: f64) -> Vec<f64> {
    (0..d)
        .map(|column| base.powf(-((2 * (column / 2)) as f64) / d as f64))
        .collect()
}

/// P[position, column] in float64, straight from the definition.
pub fn entry(position: usize, column: usize, d: usize, base: f64) -> f64 {
    let omega = base.powf(-((2 * (column / 2)) as f64) / d as f64);
    let angle = position as f64 * omega;
    if column % 2 == 0 {
        angle.sin()
    } else {
        angle.cos()
    }
}

/// The largest |P[r, c] − reference| over the given rows `r` of `p` and all its columns, as
/// (error, row, column); row r holds position `first_position + r`. A NaN entry is reported (it
/// is never "smaller" than the worst so far).
pub fn max_error_on_rows(
    p: ArrayView2<f32>,
    first_position: usize,
    base: f64,
    rows: impl IntoIterator<Item = usize>,
) -> (f64, usize, usize) {
    let omegas = column_frequencies(p.ncols(), base);
    let mut worst = (0.0f64, 0usize, 0usize);
    for row in rows {
        let position = (first_position + row) as f64;
        for (column, (&value, &omega)) in p.row(row).iter().zip(&omegas).enumerate() {
            let angle = position * omega;
            let exact = if column % 2 == 0 {
                angle.sin()
            } else {
                angle.cos()
            };
            let error = (value as f64 - exact).abs();
            if error > worst.0 || error.is_nan() {
                worst = (error, row, column);
            }
        }
    }
    worst
}

/// [`max_error_on_rows`] over every row of `p`, whose first row is position `first_position`.
pub fn max_error(p: ArrayView2<f32>, first_position: usize, base: f64) -> (f64, usize, usize) {
    max_error_on_rows(p, first_position, base, 0..p.nrows())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn entries_follow_the_definition() {
        // d = 4, base 10000: ω = 1, 0.01.
        assert_eq!(entry(2, 0, 4, 10000.0), 2f64.sin());
        assert_eq!(entry(2, 1, 4, 10000.0), 2f64.cos());
        assert!((entry(3, 2, 4, 10000.0) - 0.03f64.sin()).abs() < 1e-17);
    }

    #[test]
    fn reports_the_worst_entry_and_nan() {
        let p = array![[0.0f32, 1.0], [1f64.sin() as f32, 0.5]];
        let (error, row, column) = max_error(p.view(), 0, 10000.0);
        assert_eq!((row, column), (1, 1));
        assert!((error - (0.5 - 1f64.cos()).abs()).abs() < 1e-7);
        // Rows as positions 1 and 2: the worst is now cos 2 against 0.5.
        let shifted = max_error(p.view(), 1, 10000.0);
        assert_eq!((shifted.1, shifted.2), (1, 1));
        assert!((shifted.0 - (0.5 - 2f64.cos())).abs() < 1e-15);
        let first_row = max_error_on_rows(p.view(), 1, 10000.0, 0..1);
        assert_eq!((first_row.1, first_row.2), (0, 0));
        let with_nan = array![[0.0f32, f32::NAN]];
        assert!(max_error(with_nan.view(), 0, 2.0).0.is_nan());
    }
}
