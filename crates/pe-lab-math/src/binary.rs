//! Panel "binary analogy" (d2l.ai, "Absolute Positional Information"): in the binary digits of
//! 0, 1, …, 7 the lowest bit alternates every number, the next every two numbers, the third every
//! four; bit k repeats with period 2^(k+1). The encoding's columns likewise slow down along the row,
//! pair j repeating with period 2π·base^(2j/d). The table pairs each bit with the encoding pair of
//! the closest period — and shows where the analogy stops: the fastest pair's period is 2π ≈ 6.28,
//! so no column alternates like the lowest bit, and the periods grow by base^(2/d) per pair (1.78
//! at d = 32), not by 2.

use ndarray::Array2;

use super::encoding::{frequency_count, period};
use super::limits::WIDEST_LIMITS;
use super::{validate, MathError};

/// The most rows [`bits`] produces (the widest backend limit on n).
pub const MAX_ROWS: usize = WIDEST_LIMITS.n_max;

/// Bits needed for the numbers 0 … n−1: max(1, ⌈log₂ n⌉) (n = 8 → 3, n = 9 → 4, n ≤ 2 → 1).
pub fn bit_count(n: usize) -> usize {
    // ⌈log₂ n⌉ for n ≥ 2 is the bit length of n − 1.
    let bits = usize::BITS - n.saturating_sub(1).leading_zeros();
    (bits as usize).max(1)
}

/// The binary digits of 0 … n−1, shape (n, [`bit_count`]\(n)): row i holds the digits of i, column
/// 0 the **lowest** bit, as the chapter prints `digits(i, base=2, pad=3)`: 0 → 000, 1 → 100,
/// 2 → 010, 3 → 110. n is clamped to [`MAX_ROWS`]; n = 0 gives a 0 × 1 matrix.
pub fn bits(n: usize) -> Array2<u8> {
    let n = n.min(MAX_ROWS);
    let width = bit_count(n);
    Array2::from_shape_fn((n, width), |(i, k)| ((i >> k) & 1) as u8)
}

/// Row i of [`bits`] as the chapter prints it: `width` digits, lowest bit first ("100" for 1). Bits
/// beyond the 64 of a u64 are 0.
pub fn digits_lowest_first(i: u64, width: usize) -> String {
    (0..width)
        .map(|k| {
            let bit = if k < 64 { (i >> k) & 1 } else { 0 };
            if bit == 1 {
                '1'
            } else {
                '0'
            }
        })
        .collect()
}

/// The period of bit k in the sequence 0, 1, 2, …: 2^(k+1) (bit 0 repeats 0, 1 every 2 numbers).
/// Exact (a power of two); k ≥ 1023 gives +∞.
pub fn bit_period(k: usize) -> f64 {
    let exponent = i32::try_from(k.saturating_add(1)).unwrap_or(i32::MAX);
    2f64.powi(exponent.min(1024))
}

/// The period of encoding pair j (columns 2j, 2j+1): 2π·base^(2j/d).
pub fn pair_period(j: usize, d: usize, base: f64) -> f64 {
    period(j, d, base)
}

/// One row of the side-by-side table: a bit column and the encoding pair whose period is closest.
#[derive(Debug, Clone, PartialEq)]
pub struct BitPairing {
    pub bit: usize,
    pub bit_period: f64,
    /// The frequency pair j.
    pub pair: usize,
    /// Its sine column 2j.
    pub sine_column: usize,
    /// Its cosine column 2j+1, absent for the last pair of an odd d.
    pub cosine_column: Option<usize>,
    pub pair_period: f64,
    /// pair_period / bit_period (1 would be a perfect match).
    pub period_ratio: f64,
}

/// Pairs every bit of the numbers 0 … n−1 with the encoding pair (of d columns) whose period is
/// closest **on a log scale** (periods are compared as ratios: 6.3 is as far from 4 as 2.5 is from
/// 1.6). Ties go to the faster pair.
///
/// Errors: n = 0, d = 0, base not finite and > 1.
pub fn pair_bits_with_frequencies(
    n: usize,
    d: usize,
    base: f64,
) -> Result<Vec<BitPairing>, MathError> {
    validate(n, d, base)?;
    let periods: Vec<f64> = (0..frequency_count(d))
        .map(|j| pair_period(j, d, base))
        .collect();
    let n = n.min(MAX_ROWS);
    Ok((0..bit_count(n))
        .map(|bit| {
            let target = bit_period(bit);
            let log_distance = |p: f64| (p / target).ln().abs();
            let (pair, &closest) = periods
                .iter()
                .enumerate()
                .fold(None::<(usize, &f64)>, |best, (j, p)| match best {
                    Some((_, q)) if log_distance(*q) <= log_distance(*p) => best,
                    _ => Some((j, p)),
                })
                // d ≥ 1 gives at least one frequency, so the fold always has a result.
                .unwrap_or((0, &f64::NAN));
            BitPairing {
                bit,
                bit_period: target,
                pair,
                sine_column: 2 * pair,
                cosine_column: (2 * pair + 1 < d).then_some(2 * pair + 1),
                pair_period: closest,
                period_ratio: closest / target,
            }
        })
        .collect())
}
