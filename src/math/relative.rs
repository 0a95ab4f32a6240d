//! Relative positional information: for a fixed offset δ, the pair (p[i,2j], p[i,2j+1]) is carried to
//! (p[i+δ,2j], p[i+δ,2j+1]) by a 2×2 rotation that does not depend on i (d2l.ai, "Relative Positional
//! Information").

use ndarray::ArrayView2;

use super::encoding::{frequency, frequency_count, sinusoidal};
use super::{validate, MathError};

/// A 2×2 matrix, row-major: `m[row][column]`.
pub type Mat2 = [[f64; 2]; 2];

/// The projection matrix of frequency `j` for offset `delta`:
/// `[[cos δω_j, sin δω_j], [−sin δω_j, cos δω_j]]`.
pub fn rotation_for_pair(j: usize, d: usize, base: f64, delta: i64) -> Mat2 {
    let (s, c) = (delta as f64 * frequency(j, d, base)).sin_cos();
    [[c, s], [-s, c]]
}

/// One projection matrix per frequency j = 0 .. ⌈d/2⌉ (for odd d the last frequency has only its
/// sine column in P; its matrix is still the rotation of that frequency).
pub fn rotation(d: usize, base: f64, delta: i64) -> Vec<Mat2> {
    (0..frequency_count(d))
        .map(|j| rotation_for_pair(j, d, base, delta))
        .collect()
}

/// Applies a 2×2 matrix to the column vector (x, y).
pub fn apply(m: &Mat2, x: f64, y: f64) -> (f64, f64) {
    (m[0][0] * x + m[0][1] * y, m[1][0] * x + m[1][1] * y)
}

/// The positions i for which both i and i+δ are rows of an n-row encoding.
pub fn valid_positions(n: usize, delta: i64) -> std::ops::Range<usize> {
    let n_i = n as i64;
    if delta.unsigned_abs() >= n as u64 {
        return 0..0;
    }
    let start = (-delta).max(0);
    let end = (n_i - delta).min(n_i);
    start as usize..end as usize
}

/// Largest |M_j·(p[i,2j], p[i,2j+1]) − (p[i+δ,2j], p[i+δ,2j+1])| over all valid i and all complete
/// pairs, for a given encoding matrix `p` (rows = positions). The matrices are applied in f64 to the
/// stored float32 values, so the result measures the float32 rounding of P (about 1e-7), not the
/// identity's exactness. Returns 0 when no row has a partner δ rows away, or d < 2.
pub fn projection_error_of(p: ArrayView2<f32>, base: f64, delta: i64) -> f64 {
    let (n, d) = p.dim();
    let pairs = d / 2;
    let matrices: Vec<Mat2> = (0..pairs)
        .map(|j| rotation_for_pair(j, d, base, delta))
        .collect();
    let mut worst = 0.0f64;
    for i in valid_positions(n, delta) {
        let target = (i as i64 + delta) as usize;
        let from = p.row(i);
        let to = p.row(target);
        for (j, m) in matrices.iter().enumerate() {
            let (x, y) = apply(m, from[2 * j] as f64, from[2 * j + 1] as f64);
            let err = (x - to[2 * j] as f64)
                .abs()
                .max((y - to[2 * j + 1] as f64).abs());
            worst = worst.max(err);
        }
    }
    worst
}

/// [`projection_error_of`] on the encoding `sinusoidal(n, d, base)`.
pub fn max_projection_error(n: usize, d: usize, base: f64, delta: i64) -> f64 {
    projection_error_of(sinusoidal(n, d, base).view(), base, delta)
}

/// [`max_projection_error`] with its arguments checked.
pub fn try_max_projection_error(
    n: usize,
    d: usize,
    base: f64,
    delta: i64,
) -> Result<f64, MathError> {
    validate(n, d, base)?;
    Ok(max_projection_error(n, d, base, delta))
}
