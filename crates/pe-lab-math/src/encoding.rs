//! The sinusoidal positional encoding of "Attention Is All You Need" (d2l.ai, eq. positional-encoding-def):
//! `p[i, 2j] = sin(i·ω_j)`, `p[i, 2j+1] = cos(i·ω_j)`, `ω_j = base^(−2j/d)`, rows are positions from 0
//! (or from `first`, see [`sinusoidal_from`]).

use ndarray::{Array2, ArrayView2};

use super::{validate, MathError};

/// Rows between exact re-anchors of the angle-addition recurrence. Between anchors the f64 rotation
/// accumulates about one ulp of f64 per step, so 64 steps stay ~1e-14 away from the exact value,
/// far below the f32 rounding (6e-8) that the result is stored with.
const ANCHOR_EVERY: usize = 64;

/// The angular frequency ω_j = base^(−2j/d) of frequency pair `j` (columns 2j and 2j+1).
pub fn frequency(j: usize, d: usize, base: f64) -> f64 {
    // libm rather than std: the same bits natively and in wasm.
    libm::pow(base, -((2 * j) as f64) / d as f64)
}

/// The period in positions of frequency pair `j`: 2π / ω_j = 2π·base^(2j/d).
pub fn period(j: usize, d: usize, base: f64) -> f64 {
    std::f64::consts::TAU / frequency(j, d, base)
}

/// Number of frequencies (column pairs, the last one incomplete when `d` is odd).
pub fn frequency_count(d: usize) -> usize {
    d.div_ceil(2)
}

/// The encoding matrix P, shape (n, d), accurate to float32 rounding: rows are positions 0…n−1.
///
/// The angle i·ω_j is never formed in f32 (the textbook float32 formula,
/// [`textbook_sinusoidal`], is off by 5e-4 at i ≈ 8000): each row is obtained from the
/// previous one by the exact angle-addition rotation in f64, re-anchored with an f64 `sin_cos`
/// every [`ANCHOR_EVERY`] rows. Odd `d` is fine: the last column is then a sine column.
/// Degenerate sizes (n = 0 or d = 0) give an empty matrix; see [`try_sinusoidal`] for the checked
/// version the page calls.
pub fn sinusoidal(n: usize, d: usize, base: f64) -> Array2<f32> {
    sinusoidal_from(0, n, d, base)
}

/// [`sinusoidal`] with rows for the positions `first … first + n − 1` (`first = 1`: the Julia
/// edition's `collect(1:max_len)`, whose row r is position r).
pub fn sinusoidal_from(first: usize, n: usize, d: usize, base: f64) -> Array2<f32> {
    if n == 0 || d == 0 {
        return Array2::zeros((n, d));
    }
    let pairs = frequency_count(d);
    let omega: Vec<f64> = (0..pairs).map(|j| frequency(j, d, base)).collect();
    // One rotation step per frequency, and the current (sin, cos) of every frequency, interleaved
    // like the columns of P so that writing a row is a straight f64 → f32 conversion.
    let (step_sin, step_cos): (Vec<f64>, Vec<f64>) = omega.iter().map(|&w| libm::sincos(w)).unzip();
    let mut state = vec![0.0f64; 2 * pairs];
    // Filled row by row without zeroing it first (that would cost a second pass over the memory).
    let len = n.checked_mul(d).expect("n·d overflows usize");
    let mut values: Vec<f32> = Vec::with_capacity(len);
    for i in 0..n {
        if i % ANCHOR_EVERY == 0 {
            let position = (first + i) as f64;
            for (sc, w) in state.chunks_exact_mut(2).zip(&omega) {
                let (s, c) = libm::sincos(position * w);
                sc[0] = s;
                sc[1] = c;
            }
        } else {
            // sin(a+ω) = sin a cos ω + cos a sin ω ; cos(a+ω) = cos a cos ω − sin a sin ω
            for ((sc, &ss), &cs) in state.chunks_exact_mut(2).zip(&step_sin).zip(&step_cos) {
                let (s, c) = (sc[0], sc[1]);
                sc[0] = s * cs + c * ss;
                sc[1] = c * cs - s * ss;
            }
        }
        // For odd d the row is one shorter than the state: its last column is a sine column.
        values.extend(state[..d].iter().map(|&v| v as f32));
    }
    Array2::from_shape_vec((n, d), values).expect("n·d values were written")
}

/// [`sinusoidal`] with its arguments checked: d ≥ 1, n ≥ 1, base finite and > 1.
pub fn try_sinusoidal(n: usize, d: usize, base: f64) -> Result<Array2<f32>, MathError> {
    try_sinusoidal_from(0, n, d, base)
}

/// [`sinusoidal_from`] with its arguments checked like [`try_sinusoidal`].
pub fn try_sinusoidal_from(
    first: usize,
    n: usize,
    d: usize,
    base: f64,
) -> Result<Array2<f32>, MathError> {
    checked(sinusoidal_from, first, n, d, base)
}

/// `encode(first, n, d, base)` once [`validate`] accepts n, d and base.
fn checked(
    encode: fn(usize, usize, usize, f64) -> Array2<f32>,
    first: usize,
    n: usize,
    d: usize,
    base: f64,
) -> Result<Array2<f32>, MathError> {
    validate(n, d, base)?;
    Ok(encode(first, n, d, base))
}

/// P as the d2l PyTorch and MXNet editions compute it, everything in float32:
///
/// ```text
/// X = arange(max_len, dtype=float32).reshape(-1, 1)
///     / pow(10000, arange(0, num_hiddens, 2, dtype=float32) / num_hiddens)
/// P[:, :, 0::2] = sin(X);  P[:, :, 1::2] = cos(X)
/// ```
///
/// Computed op for op as float32 NumPy and PyTorch compute it, so each intermediate is the f32
/// they get: the exponent e_j = (2j as f32) / (d as f32) is an f32 division; the divisor base^e_j
/// is taken in f64 (`libm::pow`) and rounded once to f32, which is the C library's `powf`
/// (correctly rounded, or nearly); the angle is the f32 division (i as f32) / divisor; its sin and
/// cos are taken in f64 (`libm::sincos`) and rounded once, the correctly rounded f32 of the exact
/// sin and cos of that f32 angle (bar a rare double rounding). NumPy's float32 sin and cos are
/// within about 1 ulp of that, so against d2l's PyTorch lines replayed in NumPy float32
/// (tests/textbook_d2l.rs: d = 32…1024, positions up to 2047) every value is within 6e-8, one ulp
/// near 1, where one ulp off in a divisor alone moves the value at position 1000 by 1e-4. `libm`
/// rather than std gives the same bits natively and in wasm: std's f32 `powf` in wasm (libm's
/// `powf`) is one ulp off for some divisors, which put an earlier version 2.3e-4 from NumPy.
///
/// The angle carries the float32 rounding of i/base^(2j/d) and of the power, both relative errors
/// of order 2⁻²⁴, so its absolute error against the exact i·ω_j grows with i (about 1e-4 rad near
/// i = 2000), and sin and cos inherit it ([`textbook_angle_error`]). (The Julia edition computes P
/// in Float64 and is as accurate as [`sinusoidal`].) Rows are positions 0…n−1; odd d (where d2l's
/// PyTorch code fails on the shape of `1::2`) keeps the last sine column, like [`sinusoidal`].
pub fn textbook_sinusoidal(n: usize, d: usize, base: f64) -> Array2<f32> {
    textbook_sinusoidal_from(0, n, d, base)
}

/// The float32 divisors base^(2j/d) of the textbook formula, one per frequency pair: the exponent
/// an f32 division, the power taken in f64 and rounded once to f32 (what `powf` gives).
fn textbook_divisors(d: usize, base: f64) -> Vec<f32> {
    let base = base as f32 as f64;
    (0..frequency_count(d))
        .map(|j| {
            let exponent = (2 * j) as f32 / d as f32;
            libm::pow(base, exponent as f64) as f32
        })
        .collect()
}

/// [`textbook_sinusoidal`] with rows for the positions `first … first + n − 1`.
pub fn textbook_sinusoidal_from(first: usize, n: usize, d: usize, base: f64) -> Array2<f32> {
    if n == 0 || d == 0 {
        return Array2::zeros((n, d));
    }
    let divisors = textbook_divisors(d, base);
    let len = n.checked_mul(d).expect("n·d overflows usize");
    let mut values: Vec<f32> = Vec::with_capacity(len);
    let mut row = vec![0.0f32; 2 * divisors.len()];
    for i in 0..n {
        let position = (first + i) as f32;
        for (sc, &divisor) in row.chunks_exact_mut(2).zip(&divisors) {
            // The f32 angle, then its sin and cos in f64 rounded once: the correctly rounded f32.
            let (sin, cos) = libm::sincos((position / divisor) as f64);
            sc[0] = sin as f32;
            sc[1] = cos as f32;
        }
        values.extend_from_slice(&row[..d]);
    }
    Array2::from_shape_vec((n, d), values).expect("n·d values were written")
}

/// [`textbook_sinusoidal_from`] with its arguments checked like [`try_sinusoidal`].
pub fn try_textbook_sinusoidal_from(
    first: usize,
    n: usize,
    d: usize,
    base: f64,
) -> Result<Array2<f32>, MathError> {
    checked(textbook_sinusoidal_from, first, n, d, base)
}

/// The largest error, in radians, of the float32 angle of [`textbook_sinusoidal_from`] against
/// the angle i·ω_j in f64, over the positions `first … first + n − 1` and every frequency: the
/// error that sin and cos of the textbook P inherit. 0 for an empty P.
pub fn textbook_angle_error(first: usize, n: usize, d: usize, base: f64) -> f64 {
    let divisors = textbook_divisors(d, base);
    let omegas: Vec<f64> = (0..divisors.len()).map(|j| frequency(j, d, base)).collect();
    let mut worst = 0.0f64;
    for i in first..first + n {
        let position = i as f64;
        for (&divisor, &omega) in divisors.iter().zip(&omegas) {
            let angle = (i as f32 / divisor) as f64;
            worst = worst.max((angle - position * omega).abs());
        }
    }
    worst
}

/// Whether column `c` holds a sine (even columns) or a cosine (odd columns).
pub fn is_sine_column(column: usize) -> bool {
    column % 2 == 0
}

/// The frequency pair a column belongs to.
pub fn pair_of_column(column: usize) -> usize {
    column / 2
}

/// The chosen columns of P as rows: shape (cols.len(), n), row c = column `cols[c]` of P. CPU twin
/// of the GPU kernel `gpu::columns` (the page reads back only these curves, never P).
///
/// Never panics: a column index ≥ d gives a row of NaN (no such column); see
/// [`try_gather_columns`] for the checked version.
pub fn gather_columns(p: ArrayView2<f32>, cols: &[usize]) -> Array2<f32> {
    let n = p.nrows();
    let mut out = Array2::from_elem((cols.len(), n), f32::NAN);
    for (mut row, &c) in out.rows_mut().into_iter().zip(cols) {
        if c < p.ncols() {
            row.assign(&p.column(c));
        }
    }
    out
}

/// [`gather_columns`] with every column index checked against d.
pub fn try_gather_columns(p: ArrayView2<f32>, cols: &[usize]) -> Result<Array2<f32>, MathError> {
    let d = p.ncols();
    if let Some(&bad) = cols.iter().find(|&&c| c >= d) {
        return Err(MathError::TooLarge {
            what: "column index",
            requested: bad,
            limit: d.saturating_sub(1),
        });
    }
    Ok(gather_columns(p, cols))
}
