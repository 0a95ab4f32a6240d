//! Panel "order is lost without positional encoding": self-attention is permutation-equivariant.
//!
//! With Q = K = V = X, Y(X) = softmax(X·Xᵀ/√d)·X. Permuting the rows of X permutes the rows of the
//! scores in the same way *and* their columns, the softmax is taken per row, and the weighted sum
//! over the value rows does not care in which order they come; hence Y(πX) = π·Y(X): each token's
//! output is the same wherever it stands, and the layer cannot tell "I would like 3 oranges and 4
//! bananas" from "I would like 4 oranges and 3 bananas" (the rows are still in order, as a forum
//! reader notes, but the *content* of row i no longer depends on i). Adding P by position breaks
//! the symmetry: after permuting, the token meets a different row of P.
//!
//! Masking breaks it too (the Stack Exchange answer: "the permutation invariance and equivariance
//! properties … do not hold for the masked variant"): a causal mask or a valid length lets query i
//! see only keys chosen *by position* (j ≤ i, or j < valid_len), so moving a token changes which
//! tokens it can attend to. [`masked_equivariance_gap`] measures that.
//!
//! Everything is computed in f32 like the page, so the "without PE" gap is pure float rounding. The
//! scores come from a GEMM, which computes every entry by the same operations wherever it sits in
//! the matrix (its blocking depends on the sizes, not on the rows), so moving rows leaves them
//! bit-identical in practice and at worst within the f32 dot-product bound; the softmax sum and the
//! weighted sum of rows are accumulated in a different order.

use ndarray::{Array2, ArrayView2};
use thiserror::Error;

use super::attention::weights;
use super::rng::SplitMix64;
use super::tokens::{attention_input, embed_tokens, MAX_TOKENS};
use super::MathError;

/// Why an order-panel computation cannot be done.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum OrderError {
    #[error(transparent)]
    Math(#[from] MathError),
    #[error("{got} is not a permutation of 0..{n}: {reason}")]
    NotAPermutation {
        n: usize,
        got: String,
        reason: &'static str,
    },
    #[error("the permutation has {permutation} entries but there are {rows} rows")]
    LengthMismatch { permutation: usize, rows: usize },
    #[error("the token \"{0}\" is not in the sentence")]
    TokenNotFound(String),
    #[error("both tokens to swap are the same word \"{0}\"")]
    SameToken(String),
    #[error("the attention layer failed: {0}")]
    Layer(String),
}

/// Y = softmax(X·Xᵀ/√d)·X with Q = K = V = X and no mask, shape (n, d).
///
/// The weights are [`weights`] (f32 scores from a GEMM, f32 softmax); the weighted sum is
/// accumulated in f32 over the value rows in order 0, 1, … (like the page). n = 0 gives a 0 × d
/// matrix; d = 1 works (scale 1).
pub fn self_attention_output(x: ArrayView2<f32>) -> Array2<f32> {
    self_attention_output_masked(x, None)
}

/// [`self_attention_output`] with the keys at index ≥ `valid_len` masked out (weight exactly 0;
/// `valid_len = Some(0)` gives uniform rows, as d2l does, see `attention::masked_softmax_row`).
pub fn self_attention_output_masked(x: ArrayView2<f32>, valid_len: Option<usize>) -> Array2<f32> {
    let w = weights(x, x, valid_len);
    weighted_rows(w.view(), x)
}

/// W·V accumulated in f32 in row order of V.
fn weighted_rows(w: ArrayView2<f32>, v: ArrayView2<f32>) -> Array2<f32> {
    let (n, d) = (w.nrows(), v.ncols());
    let mut out = Array2::<f32>::zeros((n, d));
    for (mut out_row, w_row) in out.rows_mut().into_iter().zip(w.rows()) {
        for (&weight, v_row) in w_row.iter().zip(v.rows()) {
            for (o, &value) in out_row.iter_mut().zip(v_row) {
                *o += weight * value;
            }
        }
    }
    out
}

/// Checks that `permutation` is a permutation of 0..n.
pub fn check_permutation(permutation: &[usize]) -> Result<(), OrderError> {
    let n = permutation.len();
    if n > MAX_TOKENS {
        return Err(MathError::TooLarge {
            what: "permutation length",
            requested: n,
            limit: MAX_TOKENS,
        }
        .into());
    }
    let mut seen = [false; MAX_TOKENS];
    for &index in permutation {
        let reason = if index >= n {
            Some("an entry is out of range")
        } else if seen[index] {
            Some("an entry is repeated")
        } else {
            None
        };
        if let Some(reason) = reason {
            return Err(OrderError::NotAPermutation {
                n,
                got: format!("{permutation:?}"),
                reason,
            });
        }
        seen[index] = true;
    }
    Ok(())
}

/// πX: row r of the result is row `permutation[r]` of `x` (the token that moves *to* position r).
///
/// Errors: `permutation` is not a permutation of 0..x.nrows().
pub fn permute_rows(x: ArrayView2<f32>, permutation: &[usize]) -> Result<Array2<f32>, OrderError> {
    check_permutation(permutation)?;
    if permutation.len() != x.nrows() {
        return Err(OrderError::LengthMismatch {
            permutation: permutation.len(),
            rows: x.nrows(),
        });
    }
    let mut out = Array2::<f32>::zeros(x.raw_dim());
    for (mut row, &from) in out.rows_mut().into_iter().zip(permutation) {
        row.assign(&x.row(from));
    }
    Ok(out)
}

/// The tokens in permuted order, with the convention of [`permute_rows`]: item r of the result is
/// item `permutation[r]`.
pub fn permute_tokens<S: AsRef<str>>(
    tokens: &[S],
    permutation: &[usize],
) -> Result<Vec<String>, OrderError> {
    check_permutation(permutation)?;
    if permutation.len() != tokens.len() {
        return Err(OrderError::LengthMismatch {
            permutation: permutation.len(),
            rows: tokens.len(),
        });
    }
    Ok(permutation
        .iter()
        .map(|&from| tokens[from].as_ref().to_string())
        .collect())
}

/// A deterministic uniformly random permutation of 0..n (Fisher–Yates driven by splitmix64 seeded
/// with `seed`): the same (n, seed) gives the same permutation on every platform.
///
/// n is clamped to [`MAX_TOKENS`] (the result then has MAX_TOKENS entries): a permutation is only
/// ever applied to a sentence, which is capped there. n = 0 gives an empty permutation, n = 1 `[0]`.
pub fn shuffle(n: usize, seed: u64) -> Vec<usize> {
    let n = n.min(MAX_TOKENS);
    let mut permutation: Vec<usize> = (0..n).collect();
    let mut stream = SplitMix64::new(seed);
    for last in (1..n).rev() {
        let pick = stream.below(last + 1);
        permutation.swap(last, pick);
    }
    permutation
}

/// The permutation of positions that exchanges the first occurrences of the tokens `a` and `b` and
/// leaves every other token in place ("3 oranges and 4 bananas" ↔ "4 oranges and 3 bananas").
///
/// Errors: either token is missing, `a == b`, or more than [`MAX_TOKENS`] tokens.
pub fn swap_permutation<S: AsRef<str>>(
    tokens: &[S],
    a: &str,
    b: &str,
) -> Result<Vec<usize>, OrderError> {
    if tokens.len() > MAX_TOKENS {
        return Err(MathError::TooLarge {
            what: "number of tokens",
            requested: tokens.len(),
            limit: MAX_TOKENS,
        }
        .into());
    }
    if a == b {
        return Err(OrderError::SameToken(a.to_string()));
    }
    let find = |word: &str| {
        tokens
            .iter()
            .position(|t| t.as_ref() == word)
            .ok_or_else(|| OrderError::TokenNotFound(word.to_string()))
    };
    let (i, j) = (find(a)?, find(b)?);
    let mut permutation: Vec<usize> = (0..tokens.len()).collect();
    permutation.swap(i, j);
    Ok(permutation)
}

/// How far self-attention is from permutation-equivariant, with and without positional encoding.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EquivarianceReport {
    /// max |Y(πX) − π·Y(X)| with X the embeddings alone: float32 rounding (≈ 1e-7), i.e. the
    /// layer's output for each token does not depend on where the token stands.
    pub without_pe: f64,
    /// The same with P added by position (after permuting): order now changes every output.
    pub with_pe: f64,
}

/// max |Y(π·input) − π·Y(input)| over all entries, where π·input is the attention input of the
/// **permuted sentence**: the tokens move, P stays attached to the positions. Without PE that is
/// exactly πX (same word, same row); with PE it is πX + P ≠ π(X + P), which is the whole point.
///
/// The empty sentence gives zeros. Errors: those of [`attention_input`] (d, base, too many tokens)
/// and a `permutation` that is not a permutation of the tokens' positions.
pub fn equivariance_gap<S: AsRef<str>>(
    tokens: &[S],
    permutation: &[usize],
    d: usize,
    base: f64,
    scale_by_sqrt_d: bool,
) -> Result<EquivarianceReport, OrderError> {
    let permuted = permute_tokens(tokens, permutation)?;
    let gap = |with_pe: bool| -> Result<f64, OrderError> {
        let original = attention_input(tokens, d, base, with_pe, scale_by_sqrt_d)?;
        let moved = attention_input(&permuted, d, base, with_pe, scale_by_sqrt_d)?;
        let y_of_moved = self_attention_output(moved.view());
        let moved_y = permute_rows(self_attention_output(original.view()).view(), permutation)?;
        Ok(max_abs_difference(y_of_moved.view(), moved_y.view()))
    };
    Ok(EquivarianceReport {
        without_pe: gap(false)?,
        with_pe: gap(true)?,
    })
}

/// The "without PE" gap of [`equivariance_gap`] when the keys at index ≥ `valid_len` are masked:
/// large as soon as the permutation moves a token across the mask boundary, because which tokens a
/// query may attend to is then decided by position, not by content.
pub fn masked_equivariance_gap<S: AsRef<str>>(
    tokens: &[S],
    permutation: &[usize],
    d: usize,
    valid_len: usize,
    scale_by_sqrt_d: bool,
) -> Result<f64, OrderError> {
    let permuted = permute_tokens(tokens, permutation)?;
    let original = embed_tokens(tokens, d, scale_by_sqrt_d)?;
    let moved = embed_tokens(&permuted, d, scale_by_sqrt_d)?;
    let y_of_moved = self_attention_output_masked(moved.view(), Some(valid_len));
    let moved_y = permute_rows(
        self_attention_output_masked(original.view(), Some(valid_len)).view(),
        permutation,
    )?;
    Ok(max_abs_difference(y_of_moved.view(), moved_y.view()))
}

/// max |a − b| over the entries of two matrices of the same shape, in f64; 0 for empty matrices,
/// and NaN as soon as any entry is NaN (a broken computation must not look equivariant). Matrices
/// of different shapes are not comparable: the result is NaN.
pub fn max_abs_difference(a: ArrayView2<f32>, b: ArrayView2<f32>) -> f64 {
    if a.dim() != b.dim() {
        return f64::NAN;
    }
    a.iter()
        .zip(b.iter())
        .map(|(&x, &y)| (f64::from(x) - f64::from(y)).abs())
        .fold(0.0, |worst, e| {
            if worst.is_nan() || e.is_nan() {
                f64::NAN
            } else {
                worst.max(e)
            }
        })
}
