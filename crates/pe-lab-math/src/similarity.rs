//! Panel "similarity and translation invariance": the dot product of two encoding rows depends only
//! on their offset, not on where they are or how long the sequence is.
//!
//! For even d, p_i·p_{i+k} = Σ_j [sin(iω_j)sin((i+k)ω_j) + cos(iω_j)cos((i+k)ω_j)] = Σ_j cos(k·ω_j):
//! every diagonal of the Gram matrix G = P·Pᵀ is constant (the Stack Exchange answer's numbers,
//! d = 16: p_5·p_6 = p_105·p_106 = 7.4852). For odd d the unpaired last sine column adds
//! sin(iω)·sin((i+k)ω), which does depend on i, so the diagonals are no longer constant; its ω is
//! the slowest frequency, so the effect is small for short sequences at base 10000 (4e-5 at n = 60,
//! d = 33) and of order 1 for small bases or long sequences (0.61 at d = 3, base 10, n = 60).
//!
//! A normalised position i/n has no such property: the same two tokens get a different similarity
//! when the sentence grows, and neighbours in a short sentence look like distant tokens in a long
//! one.

use ndarray::{Array2, ArrayView1, ArrayView2};
use thiserror::Error;

use super::encoding::{frequency_count, sinusoidal};
use super::limits::WIDEST_LIMITS;
use super::{validate, MathError};

/// Why a similarity computation cannot be done.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum SimilarityError {
    #[error(transparent)]
    Math(#[from] MathError),
    #[error("row {row} does not exist: the encoding has {rows} rows")]
    RowOutOfRange { row: usize, rows: usize },
    #[error(
        "the longer sequence ({long_n}) must be at least as long as the shorter one ({short_n})"
    )]
    LengthsOutOfOrder { short_n: usize, long_n: usize },
    #[error("the stretch factor must be at least 1")]
    ZeroFactor,
}

/// The largest number of positions a panel computes with (the widest backend limit on n).
pub const MAX_POSITIONS: usize = WIDEST_LIMITS.n_max;

/// p_i·p_{i+k} for k = 0, 1, …, `max_offset`, stopping at the last row (accumulated in f64 from
/// the f32 entries). i ≥ n gives an empty vector; entry 0 is ‖p_i‖² (= d/2 for even d).
pub fn dot_by_offset(p: ArrayView2<f32>, i: usize, max_offset: usize) -> Vec<f64> {
    let n = p.nrows();
    if i >= n {
        return Vec::new();
    }
    let last = (n - 1).min(i.saturating_add(max_offset));
    (i..=last).map(|j| dot(p.row(i), p.row(j))).collect()
}

fn dot(a: ArrayView1<f32>, b: ArrayView1<f32>) -> f64 {
    a.iter()
        .zip(b)
        .map(|(&x, &y)| f64::from(x) * f64::from(y))
        .sum()
}

/// For each offset k = 0, 1, …, m−1 (m = min(rows, columns) of `gram`), the largest deviation of
/// an entry on diagonal k (G[i, i+k], and G[i+k, i] below it) from that diagonal's mean.
pub fn diagonal_spread_by_offset(gram: ArrayView2<f32>) -> Vec<f64> {
    let m = gram.nrows().min(gram.ncols());
    (0..m)
        .map(|k| {
            let entries =
                || (0..m - k).flat_map(move |i| [gram[[i, i + k]], gram[[i + k, i]]].into_iter());
            let count = 2 * (m - k);
            let mean = entries().map(f64::from).sum::<f64>() / count as f64;
            entries()
                .map(|g| (f64::from(g) - mean).abs())
                .fold(0.0, f64::max)
        })
        .collect()
}

/// The largest deviation of any entry of a Gram matrix from the mean of its diagonal: ≈ 1e-6 (f32
/// rounding of entries up to d/2) for even d, which shows G[i, i+k] depends on k only; larger for
/// odd d (see the module docs). A matrix with fewer than two rows gives 0.
pub fn diagonal_spread(gram: ArrayView2<f32>) -> f64 {
    diagonal_spread_by_offset(gram)
        .into_iter()
        .fold(0.0, f64::max)
}

/// The "normalised positions" of the Stack Exchange question, with the convention i/n for
/// i = 0 … n−1: they lie in [0, 1), the first token is 0 whatever n is, and the step between
/// neighbours is 1/n, so it shrinks as the sentence grows. n is clamped to [`MAX_POSITIONS`]; n = 0
/// gives an empty vector.
pub fn normalized_positions(n: usize) -> Vec<f64> {
    let n = n.min(MAX_POSITIONS);
    (0..n).map(|i| i as f64 / n as f64).collect()
}

/// The dot product of two one-dimensional normalised-position encodings, (i/n)·(j/n): the
/// similarity a model would get from "normalised positions". It changes with n for the same pair
/// of tokens, and is unchanged when i, j and n are all stretched by the same factor. n = 0 (no
/// positions) gives 0.
pub fn normalized_similarity(i: usize, j: usize, n: usize) -> f64 {
    if n == 0 {
        return 0.0;
    }
    let n = n as f64;
    (i as f64 / n) * (j as f64 / n)
}

/// The same two tokens (positions i and i+offset) in a short and in a long sequence.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LengthComparison {
    pub position: usize,
    pub offset: usize,
    pub short_n: usize,
    pub long_n: usize,
    /// (i/short_n)·((i+k)/short_n).
    pub normalized_short: f64,
    /// (i/long_n)·((i+k)/long_n): different, although nothing about the two tokens changed.
    pub normalized_long: f64,
    /// p_i·p_{i+k} of the encoding of `short_n` rows.
    pub sinusoidal_short: f64,
    /// p_i·p_{i+k} of the encoding of `long_n` rows: the same bits (a row of P does not depend on n).
    pub sinusoidal_long: f64,
}

/// Compares the similarity of positions i and i+offset under normalised positions and under the
/// sinusoidal encoding, at two sequence lengths.
///
/// Errors: i + offset ≥ short_n, short_n > long_n, long_n > [`MAX_POSITIONS`], and the checks of
/// the encoding (d ≥ 1, d ≤ the widest d limit, base finite and > 1).
pub fn compare_lengths(
    i: usize,
    offset: usize,
    short_n: usize,
    long_n: usize,
    d: usize,
    base: f64,
) -> Result<LengthComparison, SimilarityError> {
    check_encoding(long_n, d, base)?;
    if short_n > long_n {
        return Err(SimilarityError::LengthsOutOfOrder { short_n, long_n });
    }
    let j = i.saturating_add(offset);
    if j >= short_n {
        return Err(SimilarityError::RowOutOfRange {
            row: j,
            rows: short_n,
        });
    }
    let p_short = sinusoidal(short_n, d, base);
    let p_long = sinusoidal(long_n, d, base);
    Ok(LengthComparison {
        position: i,
        offset,
        short_n,
        long_n,
        normalized_short: normalized_similarity(i, j, short_n),
        normalized_long: normalized_similarity(i, j, long_n),
        sinusoidal_short: dot(p_short.row(i), p_short.row(j)),
        sinusoidal_long: dot(p_long.row(i), p_long.row(j)),
    })
}

/// Neighbours in a short sequence against the "same" pair stretched by a factor in a longer one:
/// positions (i, i+k) of n versus (f·i, f·(i+k)) of f·n (the answer's "river bank" argument).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StretchComparison {
    pub near: (usize, usize),
    pub far: (usize, usize),
    pub n: usize,
    pub stretched_n: usize,
    /// (i/n)·((i+k)/n).
    pub normalized_near: f64,
    /// (fi/fn)·(f(i+k)/fn): equal to `normalized_near` up to rounding, so normalised positions
    /// cannot tell neighbours from distant tokens.
    pub normalized_far: f64,
    /// p_i·p_{i+k}.
    pub sinusoidal_near: f64,
    /// p_{fi}·p_{f(i+k)}: a different offset, hence a different similarity.
    pub sinusoidal_far: f64,
}

/// See [`StretchComparison`]. Errors: factor = 0, i + offset ≥ n, factor·n > [`MAX_POSITIONS`],
/// and the encoding checks.
pub fn compare_stretched(
    i: usize,
    offset: usize,
    n: usize,
    factor: usize,
    d: usize,
    base: f64,
) -> Result<StretchComparison, SimilarityError> {
    if factor == 0 {
        return Err(SimilarityError::ZeroFactor);
    }
    let stretched_n = n.saturating_mul(factor);
    check_encoding(stretched_n, d, base)?;
    let j = i.saturating_add(offset);
    if j >= n {
        return Err(SimilarityError::RowOutOfRange { row: j, rows: n });
    }
    let (far_i, far_j) = (i * factor, j * factor);
    let p = sinusoidal(stretched_n, d, base);
    Ok(StretchComparison {
        near: (i, j),
        far: (far_i, far_j),
        n,
        stretched_n,
        normalized_near: normalized_similarity(i, j, n),
        normalized_far: normalized_similarity(far_i, far_j, stretched_n),
        sinusoidal_near: dot(p.row(i), p.row(j)),
        sinusoidal_far: dot(p.row(far_i), p.row(far_j)),
    })
}

fn check_encoding(n: usize, d: usize, base: f64) -> Result<(), SimilarityError> {
    validate(n, d, base)?;
    if n > MAX_POSITIONS {
        return Err(MathError::TooLarge {
            what: "number of positions n",
            requested: n,
            limit: MAX_POSITIONS,
        }
        .into());
    }
    if d > WIDEST_LIMITS.d_max {
        return Err(MathError::TooLarge {
            what: "encoding dimension d",
            requested: d,
            limit: WIDEST_LIMITS.d_max,
        }
        .into());
    }
    Ok(())
}

/// Euclidean distances D[i, j] = ‖p_i − p_j‖ between the rows of `p` (n × n, accumulated in f64,
/// stored as f32). Symmetric with a zero diagonal. By the same identity as the Gram matrix, for
/// even d ‖p_i − p_{i+k}‖² = 2·Σ_j (1 − cos kω_j) depends on k only. n = 0 gives 0 × 0.
pub fn distance_matrix(p: ArrayView2<f32>) -> Array2<f32> {
    let n = p.nrows();
    let mut distances = Array2::<f32>::zeros((n, n));
    for i in 0..n {
        for j in i + 1..n {
            let value = row_distance(p.row(i), p.row(j)) as f32;
            distances[[i, j]] = value;
            distances[[j, i]] = value;
        }
    }
    distances
}

fn row_distance(a: ArrayView1<f32>, b: ArrayView1<f32>) -> f64 {
    a.iter()
        .zip(b)
        .map(|(&x, &y)| {
            let diff = f64::from(x) - f64::from(y);
            diff * diff
        })
        .sum::<f64>()
        .sqrt()
}

/// Why two nearby rows of P look alike in the heatmap, wherever they are: for even d their distance
/// depends only on the offset (‖p_0 − p_1‖ = ‖p_40 − p_41‖), and the slow columns barely change
/// over a few positions anywhere, so early rows are no more alike than later ones.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RowResemblance {
    pub rows: (usize, usize),
    /// ‖p_a − p_b‖; for even d the same for every pair at this offset (p_40, p_41 included).
    pub distance: f64,
    /// First column of the low-frequency half: the columns of the slower ⌊pairs/2⌋ frequencies.
    pub split_column: usize,
    /// max |p_a[c] − p_b[c]| over the high-frequency columns c < split_column.
    pub high_frequency_max_difference: f64,
    /// max |p_a[c] − p_b[c]| over the low-frequency columns c ≥ split_column: tiny for nearby rows
    /// at any position, because those columns change by at most |a − b|·ω_j with
    /// ω_j ≤ base^(−1/2) (0.01 at base 10000). That is the resemblance the forum reader saw: half
    /// of each row barely moves between neighbours (early ones and later ones alike).
    pub low_frequency_max_difference: f64,
    /// The share of ‖p_a − p_b‖² contributed by the low-frequency columns (0 when a = b).
    pub low_frequency_share: f64,
}

/// See [`RowResemblance`]. d = 1 or 2 has a single frequency, which counts as high: the
/// low-frequency half is empty and its difference 0. Errors: a row index ≥ n.
pub fn row_resemblance(
    p: ArrayView2<f32>,
    a: usize,
    b: usize,
) -> Result<RowResemblance, SimilarityError> {
    let (n, d) = p.dim();
    for row in [a, b] {
        if row >= n {
            return Err(SimilarityError::RowOutOfRange { row, rows: n });
        }
    }
    // The faster half of the frequencies (the extra one when their count is odd) is "high".
    let split_column = (2 * frequency_count(d).div_ceil(2)).min(d);
    let differences: Vec<f64> = p
        .row(a)
        .iter()
        .zip(p.row(b))
        .map(|(&x, &y)| (f64::from(x) - f64::from(y)).abs())
        .collect();
    let (high, low) = differences.split_at(split_column);
    let max = |part: &[f64]| part.iter().copied().fold(0.0, f64::max);
    let squares = |part: &[f64]| part.iter().map(|e| e * e).sum::<f64>();
    let total = squares(&differences);
    Ok(RowResemblance {
        rows: (a, b),
        distance: total.sqrt(),
        split_column,
        high_frequency_max_difference: max(high),
        low_frequency_max_difference: max(low),
        low_frequency_share: if total > 0.0 {
            squares(low) / total
        } else {
            0.0
        },
    })
}
