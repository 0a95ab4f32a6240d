//! Pure math: positional encodings and the other position families, the relative-offset
//! rotation, Gram matrices, attention weights, the self-attention layer and its projections,
//! and the colour maps the GPU shaders share. Every GPU kernel in `gpu` has its CPU twin here.
//! Nothing here touches the DOM or knows the page (its state, links and text live in the page
//! model, `pe_lab::model`), so all of it is compiled and tested natively.

pub mod alibi;
pub mod attention;
pub mod binary;
pub mod colormap;
pub mod complexity;
pub mod encoding;
pub mod extension;
#[cfg(any(test, feature = "f64-reference"))]
pub mod f64_reference;
pub mod gram;
pub mod heads;
pub mod layer;
pub mod learned;
pub mod limits;
pub mod measures;
pub mod nope;
pub mod order;
pub mod pipeline;
pub mod position;
pub mod relative;
pub mod rng;
pub mod rope;
pub mod scaling;
pub mod sentence;
pub mod shaw;
pub mod similarity;
pub mod stacking;
pub mod t5;
pub mod tokens;

use thiserror::Error;

/// Why a set of parameters cannot be computed with.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum MathError {
    #[error("the encoding dimension d must be at least 1 (got {0})")]
    ZeroDimension(usize),
    #[error("the number of positions n must be at least 1 (got {0})")]
    ZeroPositions(usize),
    #[error("the frequency base must be a finite number greater than 1 (got {0})")]
    InvalidBase(f64),
    #[error("{what} = {requested} is larger than the limit {limit}")]
    TooLarge {
        what: &'static str,
        requested: usize,
        limit: usize,
    },
}

/// A size out of range: 0, or above a module's limit (a learned table's, a stack's).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SizeError {
    #[error("{what} must be at least 1")]
    Empty { what: &'static str },
    #[error("{what} = {requested} is larger than the limit {limit}")]
    TooLarge {
        what: &'static str,
        requested: usize,
        limit: usize,
    },
}

/// Checks the arguments shared by every encoding function.
pub fn validate(n: usize, d: usize, base: f64) -> Result<(), MathError> {
    if d == 0 {
        return Err(MathError::ZeroDimension(d));
    }
    if n == 0 {
        return Err(MathError::ZeroPositions(n));
    }
    if !base.is_finite() || base <= 1.0 {
        return Err(MathError::InvalidBase(base));
    }
    Ok(())
}
