//! Tokens and their embeddings for the attention panels: a sentence becomes rows X of an n × d
//! matrix, and the attention input is X (·√d) + P (d2l.ai, "Positional Encoding": the encoding
//! outputs X + P; the Transformer encoder first multiplies the embeddings by √d).
//!
//! The embeddings are not learned: each word gets a deterministic pseudo-random vector, so that the
//! same word has the same row wherever it stands. That is exactly what the order panels need: an
//! attention layer sees "3" at position 3 and "3" at position 6 as the same row unless P differs.

use ndarray::Array2;

use super::encoding::sinusoidal;
use super::limits::WIDEST_LIMITS;
use super::rng::{seed_of, SplitMix64};
use super::{validate, MathError};

/// The most tokens a sentence may have: attention is n × n, and a panel's table of n rows stays
/// readable up to about this size.
pub const MAX_TOKENS: usize = 64;

/// The widest embedding any backend draws (the page's d limit); larger d is refused, so an
/// embedding matrix never exceeds MAX_TOKENS × MAX_EMBEDDING_DIM floats (512 KiB).
pub const MAX_EMBEDDING_DIM: usize = WIDEST_LIMITS.d_max;

/// The example of the Stack Exchange answer in the seeds: swapping "3" and "4" must change the
/// meaning, which only position information can tell.
pub const DEFAULT_SENTENCE: &str = "I would like 3 oranges and 4 bananas";

/// Splits a sentence into tokens, keeping at most [`MAX_TOKENS`] (the rest are dropped; see
/// [`try_tokenize`] to be told, and [`count_tokens`] to count them without allocating).
///
/// Decisions, so that a reader can predict the tokens:
/// - tokens are separated by Unicode whitespace (runs of it count once);
/// - leading and trailing characters that are not alphanumeric are stripped (`bananas.` →
///   `bananas`, `"I` → `I`, `(3)` → `3`), inner ones stay (`don't`, `3.5`, `e-mail`), so the
///   final full stop does not make "bananas." a different word from "bananas";
/// - a word made only of punctuation (`—`, `...`) is kept unchanged: the reader typed it;
/// - case is kept: `I` and `i` are different words with different embeddings.
///
/// An empty or all-whitespace sentence gives no tokens.
pub fn tokenize(sentence: &str) -> Vec<String> {
    sentence
        .split_whitespace()
        .take(MAX_TOKENS)
        .map(clean_word)
        .collect()
}

/// The number of tokens [`tokenize`] would produce without the cap.
pub fn count_tokens(sentence: &str) -> usize {
    sentence.split_whitespace().count()
}

/// [`tokenize`], refusing a sentence with more than [`MAX_TOKENS`] tokens instead of truncating it.
pub fn try_tokenize(sentence: &str) -> Result<Vec<String>, MathError> {
    let count = count_tokens(sentence);
    if count > MAX_TOKENS {
        return Err(MathError::TooLarge {
            what: "number of tokens",
            requested: count,
            limit: MAX_TOKENS,
        });
    }
    Ok(tokenize(sentence))
}

fn clean_word(word: &str) -> String {
    let stripped = word.trim_matches(|c: char| !c.is_alphanumeric());
    if stripped.is_empty() {
        word.to_string()
    } else {
        stripped.to_string()
    }
}

/// The embedding of one word: d numbers, approximately independent N(0, 1/d), so ‖x‖² ≈ 1.
///
/// Deterministic and portable: the word's UTF-8 bytes are hashed (FNV-1a 64) to seed a splitmix64
/// stream, and component c is the c-th approximate normal of that stream (a sum of twelve uniforms,
/// see [`SplitMix64::approx_standard_normal`]) divided by √d. Only IEEE-exact operations (integer
/// sums, one correctly rounded sqrt and division, one rounding to f32) are involved, so the same
/// word gives the same bits on every platform. The first d' components of the d-dimensional
/// embedding are the d' components of the d'-dimensional one times √(d'/d): the stream does not
/// depend on d, only the scale does.
///
/// Errors: d = 0, or d > [`MAX_EMBEDDING_DIM`].
pub fn embedding(word: &str, d: usize) -> Result<Vec<f32>, MathError> {
    check_dimension(d)?;
    Ok(embedding_row(word, d, false))
}

/// One row: unit-variance normals, divided by √d unless `scale_by_sqrt_d`. With the flag the row is
/// the embedding times √d formed exactly (the normal itself), not a rounded f32 product.
fn embedding_row(word: &str, d: usize, scale_by_sqrt_d: bool) -> Vec<f32> {
    let mut stream = SplitMix64::new(seed_of(word));
    let sqrt_d = (d as f64).sqrt();
    (0..d)
        .map(|_| {
            let normal = stream.approx_standard_normal();
            let value = if scale_by_sqrt_d {
                normal
            } else {
                normal / sqrt_d
            };
            value as f32
        })
        .collect()
}

fn check_dimension(d: usize) -> Result<(), MathError> {
    if d == 0 {
        return Err(MathError::ZeroDimension(d));
    }
    if d > MAX_EMBEDDING_DIM {
        return Err(MathError::TooLarge {
            what: "embedding dimension d",
            requested: d,
            limit: MAX_EMBEDDING_DIM,
        });
    }
    Ok(())
}

fn check_token_count(n: usize) -> Result<(), MathError> {
    if n > MAX_TOKENS {
        return Err(MathError::TooLarge {
            what: "number of tokens",
            requested: n,
            limit: MAX_TOKENS,
        });
    }
    Ok(())
}

/// The embedding matrix X, shape (n, d): row i is [`embedding`] of token i. With
/// `scale_by_sqrt_d` every row is multiplied by √d (d2l's Transformer encoder does this so that
/// embeddings of variance 1/d are not drowned by P, whose entries have mean square ½).
///
/// No tokens give a 0 × d matrix. Errors: d = 0, d > [`MAX_EMBEDDING_DIM`], more than
/// [`MAX_TOKENS`] tokens.
pub fn embed_tokens<S: AsRef<str>>(
    tokens: &[S],
    d: usize,
    scale_by_sqrt_d: bool,
) -> Result<Array2<f32>, MathError> {
    check_dimension(d)?;
    check_token_count(tokens.len())?;
    let mut x = Array2::<f32>::zeros((tokens.len(), d));
    for (mut row, token) in x.rows_mut().into_iter().zip(tokens) {
        for (cell, value) in row
            .iter_mut()
            .zip(embedding_row(token.as_ref(), d, scale_by_sqrt_d))
        {
            *cell = value;
        }
    }
    Ok(x)
}

/// The attention layer's input: X (·√d when `scale_by_sqrt_d`) + P, with P =
/// [`sinusoidal`](super::encoding::sinusoidal)(n, d, base) added row by row in f32 (row i of P goes
/// to token i, whatever the token is). Without `with_positional_encoding` it is X (·√d) alone.
///
/// Odd d is fine (P's last column is then a sine column). No tokens give a 0 × d matrix.
/// Errors: those of [`embed_tokens`], and a base that is not finite and > 1 (checked even without
/// the encoding, so that toggling it never turns a valid view into an error).
pub fn attention_input<S: AsRef<str>>(
    tokens: &[S],
    d: usize,
    base: f64,
    with_positional_encoding: bool,
    scale_by_sqrt_d: bool,
) -> Result<Array2<f32>, MathError> {
    // validate needs n ≥ 1; an empty sentence is allowed here, so pass at least 1.
    validate(tokens.len().max(1), d, base)?;
    let mut x = embed_tokens(tokens, d, scale_by_sqrt_d)?;
    if with_positional_encoding {
        x += &sinusoidal(tokens.len(), d, base);
    }
    Ok(x)
}
