//! Relative positional information: for a fixed offset δ, the pair (p[i,2j], p[i,2j+1]) is carried to
//! (p[i+δ,2j], p[i+δ,2j+1]) by a 2×2 rotation that does not depend on i (d2l.ai, "Relative Positional
//! Information").

use ndarray::{ArrayView1, ArrayView2};

use super::encoding::{frequency, frequency_count, sinusoidal};
use super::{validate, MathError};

/// A 2×2 matrix, row-major: `m[row][column]`.
pub type Mat2 = [[f64; 2]; 2];

/// The projection matrix of frequency `j` for offset `delta`:
/// `[[cos δω_j, sin δω_j], [−sin δω_j, cos δω_j]]`.
pub fn rotation_for_pair(j: usize, d: usize, base: f64, delta: i64) -> Mat2 {
    let (s, c) = libm::sincos(delta as f64 * frequency(j, d, base));
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
    // M_j = [[c, s], [−s, c]], kept as two flat columns for the inner loop.
    let (sin, cos): (Vec<f64>, Vec<f64>) = (0..pairs)
        .map(|j| {
            let m = rotation_for_pair(j, d, base, delta);
            (m[0][1], m[0][0])
        })
        .unzip();
    let mut worst = 0.0f64;
    let (mut from_buf, mut to_buf) = (Vec::new(), Vec::new());
    for i in valid_positions(n, delta) {
        let target = (i as i64 + delta) as usize;
        let (from, to) = (p.row(i), p.row(target));
        let from = contiguous(&from, &mut from_buf);
        let to = contiguous(&to, &mut to_buf);
        worst = worst.max(row_projection_error(from, to, &cos, &sin));
    }
    worst
}

/// The row as a slice: itself when contiguous, else copied into `buf`.
fn contiguous<'a>(row: &'a ArrayView1<f32>, buf: &'a mut Vec<f32>) -> &'a [f32] {
    match row.as_slice() {
        Some(slice) => slice,
        None => {
            buf.clear();
            buf.extend(row.iter());
            buf
        }
    }
}

/// Largest error of one row pair, the same arithmetic as [`apply`], written so that it vectorizes:
/// two frequencies per step, with one running maximum per output lane.
fn row_projection_error(from: &[f32], to: &[f32], cos: &[f64], sin: &[f64]) -> f64 {
    fn pair_errors(f: &[f32], t: &[f32], c: f64, s: f64) -> [f64; 2] {
        let (x, y) = (f[0] as f64, f[1] as f64);
        [
            (c * x + s * y - t[0] as f64).abs(),
            (-s * x + c * y - t[1] as f64).abs(),
        ]
    }
    let mut lanes = [0.0f64; 4];
    let pairs = cos.len();
    let (from4, to4) = (
        from[..2 * pairs].chunks_exact(4),
        to[..2 * pairs].chunks_exact(4),
    );
    let (from_rest, to_rest) = (from4.remainder(), to4.remainder());
    for (((f, t), c), s) in from4
        .zip(to4)
        .zip(cos.chunks_exact(2))
        .zip(sin.chunks_exact(2))
    {
        let [e0, e1] = pair_errors(&f[..2], &t[..2], c[0], s[0]);
        let [e2, e3] = pair_errors(&f[2..], &t[2..], c[1], s[1]);
        for (lane, e) in lanes.iter_mut().zip([e0, e1, e2, e3]) {
            *lane = if e > *lane { e } else { *lane };
        }
    }
    let mut worst = lanes.into_iter().fold(0.0f64, f64::max);
    if !from_rest.is_empty() {
        let last = pairs - 1;
        for e in pair_errors(from_rest, to_rest, cos[last], sin[last]) {
            worst = worst.max(e);
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
