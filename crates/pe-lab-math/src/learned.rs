//! Learned absolute position embeddings (BERT, GPT-2): a trainable table E of L_max × d rows, row
//! i added to the token at position i. Here E is only initialised, seeded, the way those models
//! start training (entries N(0, 0.02²), their `initializer_range`), which is what the table looks
//! like before it has learned anything. Unlike the sinusoid, the table has no row for position
//! L_max or beyond: asking for one is an error.

use ndarray::Array2;
use thiserror::Error;

use super::rng::SplitMix64;
use super::SizeError;

/// Why a learned table cannot be built or read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LearnedError {
    #[error(transparent)]
    Size(#[from] SizeError),
    #[error("position {position} is beyond the table, which has rows for positions 0 to {} only", max_len - 1)]
    BeyondTable { position: usize, max_len: usize },
}

/// The standard deviation of the initial entries (BERT's and GPT-2's `initializer_range`).
pub const INIT_STD: f64 = 0.02;
/// Largest number of entries L_max·d of a table.
pub const MAX_ENTRIES: usize = 1 << 24;

/// A seeded table of L_max × d position embeddings.
#[derive(Debug, Clone, PartialEq)]
pub struct LearnedTable {
    table: Array2<f64>,
}

impl LearnedTable {
    /// The table for positions 0..max_len, entries `INIT_STD`·(approximate N(0, 1)) drawn row by
    /// row from `SplitMix64::new(seed)`.
    pub fn new(max_len: usize, d: usize, seed: u64) -> Result<Self, LearnedError> {
        if max_len == 0 {
            return Err(SizeError::Empty { what: "max_len" }.into());
        }
        if d == 0 {
            return Err(SizeError::Empty { what: "d" }.into());
        }
        let entries = max_len.saturating_mul(d);
        if entries > MAX_ENTRIES {
            return Err(SizeError::TooLarge {
                what: "max_len·d",
                requested: entries,
                limit: MAX_ENTRIES,
            }
            .into());
        }
        let mut stream = SplitMix64::new(seed);
        let table = Array2::from_shape_simple_fn((max_len, d), || {
            INIT_STD * stream.approx_standard_normal()
        });
        Ok(LearnedTable { table })
    }

    /// L_max, the number of positions with a row.
    pub fn max_len(&self) -> usize {
        self.table.nrows()
    }

    /// The embedding dimension d.
    pub fn d(&self) -> usize {
        self.table.ncols()
    }

    /// The rows of `positions`, in that order; any position ≥ L_max is an error.
    pub fn lookup(&self, positions: &[usize]) -> Result<Array2<f64>, LearnedError> {
        let max_len = self.max_len();
        if let Some(&position) = positions.iter().find(|&&p| p >= max_len) {
            return Err(LearnedError::BeyondTable { position, max_len });
        }
        let mut out = Array2::<f64>::zeros((positions.len(), self.d()));
        for (mut row, &p) in out.rows_mut().into_iter().zip(positions) {
            row.assign(&self.table.row(p));
        }
        Ok(out)
    }

    /// The rows of positions 0..n (the encoding of a sequence of length n).
    pub fn encode(&self, n: usize) -> Result<Array2<f64>, LearnedError> {
        if n > self.max_len() {
            return Err(LearnedError::BeyondTable {
                position: n - 1,
                max_len: self.max_len(),
            });
        }
        Ok(self.table.slice(ndarray::s![..n, ..]).to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookups_beyond_the_table_are_errors() {
        let table = LearnedTable::new(4, 3, 1).unwrap();
        assert_eq!(
            table.lookup(&[0, 4]),
            Err(LearnedError::BeyondTable {
                position: 4,
                max_len: 4
            })
        );
        assert!(table.encode(5).is_err());
        assert_eq!(table.encode(0).map(|e| e.dim()), Ok((0, 3)));
    }

    #[test]
    fn huge_or_empty_tables_are_errors() {
        assert!(LearnedTable::new(usize::MAX, 2, 0).is_err());
        assert!(LearnedTable::new(0, 2, 0).is_err());
    }
}
