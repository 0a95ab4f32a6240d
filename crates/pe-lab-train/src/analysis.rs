//! What the panel measures on a model besides its accuracy: how translation-invariant a position
//! table is, and whether some head attends to the key `k` places back.

use pe_lab_math::encoding::sinusoidal;

use crate::encodings::BASE;
use crate::trainer::{AttentionMap, PositionTable, TrainError};

fn check_shape(table: &[f32], rows: usize, cols: usize) -> Result<(), TrainError> {
    if rows.checked_mul(cols) != Some(table.len()) {
        return Err(TrainError::TableShape {
            values: table.len(),
            rows,
            cols,
        });
    }
    Ok(())
}

/// E·Eᵀ for the row-major `rows × cols` table E: entry `i·rows + j` is the dot product of rows i
/// and j, accumulated in f64 from the f32 entries. Errors when `table` does not hold
/// `rows × cols` values.
pub fn gram(table: &[f32], rows: usize, cols: usize) -> Result<Vec<f64>, TrainError> {
    check_shape(table, rows, cols)?;
    let mut out = vec![0.0; rows * rows];
    if cols == 0 {
        return Ok(out);
    }
    let row = |i: usize| &table[i * cols..(i + 1) * cols];
    for i in 0..rows {
        for j in i..rows {
            let dot: f64 = row(i)
                .iter()
                .zip(row(j))
                .map(|(&a, &b)| f64::from(a) * f64::from(b))
                .sum();
            out[i * rows + j] = dot;
            out[j * rows + i] = dot;
        }
    }
    Ok(out)
}

/// The normalised Gram matrix G = D^(−1/2)·E·Eᵀ·D^(−1/2), D = diag(E·Eᵀ): G[i, j] is the cosine
/// similarity of rows i and j (row-major, `rows × rows`, computed in f64). A row of zeros has no
/// direction: its row and column of G are 0. Errors when `table` does not hold `rows × cols`
/// values.
pub fn normalised_gram(table: &[f32], rows: usize, cols: usize) -> Result<Vec<f64>, TrainError> {
    let mut g = gram(table, rows, cols)?;
    let inverse_norms: Vec<f64> = (0..rows)
        .map(|i| {
            let squared = g[i * rows + i];
            if squared > 0.0 {
                1.0 / squared.sqrt()
            } else {
                0.0
            }
        })
        .collect();
    for (i, row) in g.chunks_exact_mut(rows.max(1)).enumerate() {
        for (j, value) in row.iter_mut().enumerate() {
            *value *= inverse_norms[i] * inverse_norms[j];
        }
    }
    Ok(g)
}

/// How far the square row-major `n × n` matrix `matrix` is from depending on the offset j − i
/// alone: the root mean square, over every entry above the diagonal (i < j, n(n − 1)/2 entries),
/// of G[i, j] − m_(j−i), where m_k is the mean of diagonal k (G[i, i + k] for i = 0 … n − 1 − k).
/// This is the distance per entry from G to the nearest matrix whose diagonals are constant.
/// 0 for n < 2 or when `matrix` does not hold n × n values.
pub fn diagonal_spread(matrix: &[f64], n: usize) -> f64 {
    if n < 2 || n.checked_mul(n) != Some(matrix.len()) {
        return 0.0;
    }
    let mut squares = 0.0;
    for k in 1..n {
        let diagonal = || (0..n - k).map(|i| matrix[i * n + i + k]);
        let mean = diagonal().sum::<f64>() / (n - k) as f64;
        squares += diagonal().map(|g| (g - mean) * (g - mean)).sum::<f64>();
    }
    (squares / (n * (n - 1) / 2) as f64).sqrt()
}

/// The translation spread of a position table: [`diagonal_spread`] of its [`normalised_gram`].
///
/// In words: for every pair of positions i < j, the cosine similarity of rows i and j minus the
/// mean cosine similarity of all pairs at the same offset j − i; the root mean square of those
/// differences. 0 means the similarity of two positions depends only on how far apart they are
/// (translation-invariant, as the sinusoidal P at even width, whose rows all have norm √(d/2));
/// cosines lie in [−1, 1], so the spread lies in [0, 1]; independent random rows of width d give
/// about 1/√d. Errors when `table` does not hold `rows × cols` values.
pub fn translation_spread(table: &[f32], rows: usize, cols: usize) -> Result<f64, TrainError> {
    Ok(diagonal_spread(&normalised_gram(table, rows, cols)?, rows))
}

/// The sinusoidal P with `rows` positions of width `cols` (the chapter's base 10000), as the
/// model adds it: the table to show beside a learned one of the same size.
pub fn sinusoidal_table(rows: usize, cols: usize) -> PositionTable {
    PositionTable {
        rows,
        cols,
        values: sinusoidal(rows, cols, BASE).iter().copied().collect(),
    }
}

impl PositionTable {
    /// This table's [`normalised_gram`].
    pub fn normalised_gram(&self) -> Result<Vec<f64>, TrainError> {
        normalised_gram(&self.values, self.rows, self.cols)
    }

    /// This table's [`translation_spread`].
    pub fn translation_spread(&self) -> Result<f64, TrainError> {
        translation_spread(&self.values, self.rows, self.cols)
    }
}

/// The offset hit rate of one head: the share of queries whose largest weight is on the key
/// `offset` places back.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct HeadHitRate {
    pub layer: usize,
    pub head: usize,
    pub rate: f64,
}

impl AttentionMap {
    /// The share of queries i ≥ `offset` whose largest attention weight is on key i − `offset`
    /// (when several keys share the largest weight, the first counts). `None` when no query has
    /// i ≥ `offset`.
    pub fn offset_hit_rate(&self, offset: usize) -> Option<f64> {
        let n = self.length;
        if offset >= n || self.weights.len() != n * n {
            return None;
        }
        let hits = (offset..n)
            .filter(|&i| {
                let row = &self.weights[i * n..(i + 1) * n];
                let first_largest =
                    row.iter()
                        .enumerate()
                        .fold(0, |best, (j, &w)| if w > row[best] { j } else { best });
                first_largest == i - offset
            })
            .count();
        Some(hits as f64 / (n - offset) as f64)
    }
}

/// The head with the highest offset hit rate among `maps` (the first such head on ties); `None`
/// when there is no map or `offset` ≥ the example's length.
pub fn best_offset_hit_rate(maps: &[AttentionMap], offset: usize) -> Option<HeadHitRate> {
    maps.iter()
        .filter_map(|map| {
            map.offset_hit_rate(offset).map(|rate| HeadHitRate {
                layer: map.layer,
                head: map.head,
                rate,
            })
        })
        .fold(None, |best: Option<HeadHitRate>, candidate| match best {
            Some(b) if b.rate >= candidate.rate => Some(b),
            _ => Some(candidate),
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use pe_lab_math::rng::SplitMix64;

    #[test]
    fn sinusoidal_gram_depends_only_on_the_offset() {
        for (rows, cols) in [(16, 32), (48, 16), (64, 64)] {
            let p = sinusoidal_table(rows, cols);
            let g = gram(&p.values, rows, cols).expect("shape");
            // Entries up to d/2; f32 rows put each within about d·2⁻²⁴ of the exact Σ cos(kω).
            let raw = diagonal_spread(&g, rows);
            assert!(raw < 1e-5, "{rows}×{cols}: {raw}");
            // Every row has norm √(d/2).
            for i in 0..rows {
                assert!((g[i * rows + i] - cols as f64 / 2.0).abs() < 1e-5);
            }
            let spread = p.translation_spread().expect("shape");
            assert!(spread < 1e-6, "{rows}×{cols}: {spread}");
        }
    }

    #[test]
    fn random_table_is_far_from_translation_invariant() {
        let (rows, cols) = (16, 32);
        let mut stream = SplitMix64::new(7);
        let table: Vec<f32> = (0..rows * cols)
            .map(|_| (0.02 * stream.approx_standard_normal()) as f32)
            .collect();
        let spread = translation_spread(&table, rows, cols).expect("shape");
        // Independent random cosines at width 32 have a spread of about 1/√32 ≈ 0.18.
        assert!((0.1..0.3).contains(&spread), "{spread}");
    }

    #[test]
    fn normalised_gram_is_cosine_similarity() {
        // Rows (3, 4), (0, 0), (−6, −8).
        let g = normalised_gram(&[3.0, 4.0, 0.0, 0.0, -6.0, -8.0], 3, 2).expect("shape");
        let expected = [1.0, 0.0, -1.0, 0.0, 0.0, 0.0, -1.0, 0.0, 1.0];
        for (a, b) in g.iter().zip(expected) {
            assert!((a - b).abs() < 1e-12, "{g:?}");
        }
        assert!(matches!(
            normalised_gram(&[1.0; 5], 3, 2),
            Err(TrainError::TableShape { values: 5, .. })
        ));
    }

    #[test]
    fn diagonal_spread_of_a_known_matrix() {
        // Diagonal 1 holds 0 and 2 (mean 1), diagonal 2 holds 5: deviations 1, 1, 0.
        let m = [0.0, 0.0, 5.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0];
        assert!((diagonal_spread(&m, 3) - (2.0f64 / 3.0).sqrt()).abs() < 1e-12);
        assert_eq!(diagonal_spread(&[1.0], 1), 0.0);
    }

    #[test]
    fn hit_rate_counts_queries_looking_back_by_the_offset() {
        let n = 4;
        let mut weights = vec![0.0f32; n * n];
        // Queries 1, 2, 3 look at 0, 1, 0: offset 1 hits twice out of three.
        for (i, j) in [(0, 0), (1, 0), (2, 1), (3, 0)] {
            weights[i * n + j] = 1.0;
        }
        let map = AttentionMap {
            layer: 1,
            head: 0,
            length: n,
            weights,
        };
        assert_eq!(map.offset_hit_rate(1), Some(2.0 / 3.0));
        assert_eq!(map.offset_hit_rate(4), None);
        let best = best_offset_hit_rate(std::slice::from_ref(&map), 1).expect("a head");
        assert_eq!((best.layer, best.head), (1, 0));
    }
}
