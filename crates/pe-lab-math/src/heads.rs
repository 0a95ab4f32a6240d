//! Panel "multi-head", the seeds' `valid_lens` bug (forum: "tile vs repeat").
//!
//! d2l's `transpose_qkv` reshapes (batch, n, d) into (batch·heads, n, d/heads) with the heads of a
//! sequence **next to each other**: flat index b·heads + h. The valid lengths, one per sequence,
//! must be laid out the same way: `repeat` gives [1, 2] → [1, 1, 2, 2] (correct), whereas `tile`
//! gives [1, 2, 1, 2], so head 1 of sequence 0 gets sequence 1's length (a reader reports training
//! that did not converge until the fix).

use ndarray::{s, Array4, ArrayView3};
use thiserror::Error;

use super::attention::{
    check_multi_head, masked_softmax_row, score_scale, weights, AttentionError,
};
use super::position::PositionScheme;

/// Why a head layout cannot be computed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum HeadsError {
    #[error("the number of heads must be at least 1")]
    ZeroHeads,
    #[error("{batch} sequences × {heads} heads exceeds the limit of {limit} attention maps")]
    TooLarge {
        batch: usize,
        heads: usize,
        limit: usize,
    },
    #[error("{got} valid lengths were given for {expected} (sequence, head) pairs")]
    FlatLength { expected: usize, got: usize },
    #[error(transparent)]
    Attention(#[from] AttentionError),
    #[error("{0}")]
    Position(String),
}

/// The most (sequence, head) pairs, i.e. attention maps, a panel lays out.
pub const MAX_HEAD_MAPS: usize = 4096;

fn check_layout(batch: usize, heads: usize) -> Result<(), HeadsError> {
    if heads == 0 {
        return Err(HeadsError::ZeroHeads);
    }
    if batch.saturating_mul(heads) > MAX_HEAD_MAPS {
        return Err(HeadsError::TooLarge {
            batch,
            heads,
            limit: MAX_HEAD_MAPS,
        });
    }
    Ok(())
}

/// The correct flat layout (`valid_lens.repeat(heads, axis=0)`): each sequence's length `heads`
/// times in a row, matching X's (batch·heads) order: [1, 2], 2 heads → [1, 1, 2, 2].
///
/// An empty batch gives an empty vector. Errors: heads = 0, batch·heads > [`MAX_HEAD_MAPS`].
pub fn repeat_valid_lens(valid_lens: &[usize], heads: usize) -> Result<Vec<usize>, HeadsError> {
    check_layout(valid_lens.len(), heads)?;
    Ok(valid_lens
        .iter()
        .flat_map(|&length| std::iter::repeat(length).take(heads))
        .collect())
}

/// The buggy flat layout (`np.tile(valid_lens, heads)`): the whole list `heads` times:
/// [1, 2], 2 heads → [1, 2, 1, 2]. Same errors as [`repeat_valid_lens`].
pub fn tile_valid_lens(valid_lens: &[usize], heads: usize) -> Result<Vec<usize>, HeadsError> {
    check_layout(valid_lens.len(), heads)?;
    Ok((0..heads)
        .flat_map(|_| valid_lens.iter().copied())
        .collect())
}

/// Reads a flat (batch·heads) list as [sequence][head], the way X's flat index b·heads + h is read.
/// Errors: heads = 0, or a length that is not a multiple of heads.
pub fn per_sequence(flat: &[usize], heads: usize) -> Result<Vec<Vec<usize>>, HeadsError> {
    if heads == 0 {
        return Err(HeadsError::ZeroHeads);
    }
    if flat.len() % heads != 0 {
        return Err(HeadsError::FlatLength {
            expected: flat.len().div_ceil(heads) * heads,
            got: flat.len(),
        });
    }
    Ok(flat.chunks(heads).map(<[usize]>::to_vec).collect())
}

/// The valid length every head of every sequence uses with the correct layout: row b is
/// `valid_lens[b]` repeated — what the panel's readout states ("sequence 0: heads 0–4 see 3 keys").
pub fn head_valid_lens(valid_lens: &[usize], heads: usize) -> Result<Vec<Vec<usize>>, HeadsError> {
    per_sequence(&repeat_valid_lens(valid_lens, heads)?, heads)
}

/// The valid length every head of every sequence would use with the tiled (buggy) layout.
pub fn tiled_head_valid_lens(
    valid_lens: &[usize],
    heads: usize,
) -> Result<Vec<Vec<usize>>, HeadsError> {
    per_sequence(&tile_valid_lens(valid_lens, heads)?, heads)
}

/// Multi-head self-attention weights (Q = K = X, shape (batch, heads, n, n)) with the valid lengths
/// given in the flat (batch·heads) layout: map (b, h) masks its keys with `flat_valid_lens[b·heads
/// + h]`, as d2l's reshaped tensor does. With [`repeat_valid_lens`] this equals
/// `attention::multi_head_weights`; with [`tile_valid_lens`] it reproduces the bug.
///
/// Errors: those of `multi_head_weights` (empty input, heads not dividing d), and a flat list whose
/// length is not batch·heads.
pub fn multi_head_weights_with_flat_lens(
    x: ArrayView3<f32>,
    heads: usize,
    flat_valid_lens: &[usize],
) -> Result<Array4<f32>, HeadsError> {
    multi_head_weights_with_flat_lens_qk(x, x, heads, flat_valid_lens)
}

/// [`multi_head_weights_with_flat_lens`] for queries Q and keys K of the same shape (batch, n, d):
/// the projected layer's Q = Z·W_q and K = Z·W_k.
pub fn multi_head_weights_with_flat_lens_qk(
    q: ArrayView3<f32>,
    k: ArrayView3<f32>,
    heads: usize,
    flat_valid_lens: &[usize],
) -> Result<Array4<f32>, HeadsError> {
    multi_head_weights_positioned(q, k, heads, flat_valid_lens, &PositionScheme::absolute())
}

/// [`multi_head_weights_with_flat_lens_qk`] with the position family's part inside the layer
/// (`layer::layer_positioned`): RoPE rotates each head's queries and keys, ALiBi, T5 and
/// Shaw add their bias to the head's scaled scores before the mask and the softmax.
pub fn multi_head_weights_positioned(
    q: ArrayView3<f32>,
    k: ArrayView3<f32>,
    heads: usize,
    flat_valid_lens: &[usize],
    position: &PositionScheme,
) -> Result<Array4<f32>, HeadsError> {
    let (batch, n, d) = q.dim();
    check_layout(batch, heads)?;
    // One length per sequence satisfies the shared checks; the flat list is checked below.
    check_multi_head(batch, n, n, d, heads, &vec![0; batch])?;
    if k.dim() != q.dim() {
        return Err(HeadsError::Attention(AttentionError::DimensionMismatch {
            queries: d,
            keys: k.dim().2,
        }));
    }
    if flat_valid_lens.len() != batch * heads {
        return Err(HeadsError::FlatLength {
            expected: batch * heads,
            got: flat_valid_lens.len(),
        });
    }
    let head_dim = d / heads;
    let mut out = Array4::<f32>::zeros((batch, heads, n, n));
    for b in 0..batch {
        for h in 0..heads {
            let columns = s![b, .., h * head_dim..(h + 1) * head_dim];
            let valid = flat_valid_lens[b * heads + h];
            let failed = |e: super::position::PositionError| HeadsError::Position(e.to_string());
            let qh = position.rotate_head(q.slice(columns)).map_err(failed)?;
            let kh = position.rotate_head(k.slice(columns)).map_err(failed)?;
            let w = match position.score_bias(h, qh.view()).map_err(failed)? {
                None => weights(qh.view(), kh.view(), Some(valid)),
                Some(bias) => {
                    let mut scores = qh.dot(&kh.t()) * score_scale(head_dim) + bias;
                    for mut row in scores.rows_mut() {
                        if let Some(row) = row.as_slice_mut() {
                            masked_softmax_row(row, valid);
                        }
                    }
                    scores
                }
            };
            out.slice_mut(s![b, h, .., ..]).assign(&w);
        }
    }
    Ok(out)
}

/// The correct and the tiled layout side by side, for the panel's readout.
#[derive(Debug, Clone, PartialEq)]
pub struct ValidLensComparison {
    /// [sequence][head] lengths with `repeat`.
    pub repeated: Vec<Vec<usize>>,
    /// [sequence][head] lengths with `tile`.
    pub tiled: Vec<Vec<usize>>,
    /// The (sequence, head) maps that get another sequence's length under `tile`.
    pub wrong_heads: Vec<(usize, usize)>,
    /// max |weight(tile) − weight(repeat)| over all maps: 0 exactly when the bug is invisible.
    pub max_weight_difference: f64,
}

/// Compares the correct (`attention::multi_head_weights`) and the tiled weights for input `x`
/// (batch, n, d). Errors: those of [`multi_head_weights_with_flat_lens`].
pub fn compare_valid_len_orders(
    x: ArrayView3<f32>,
    heads: usize,
    valid_lens: &[usize],
) -> Result<ValidLensComparison, HeadsError> {
    compare_valid_len_orders_qk(x, x, heads, valid_lens, &PositionScheme::absolute())
        .map(|(comparison, _)| comparison)
}

/// [`compare_valid_len_orders`] for queries Q and keys K; also returns the tiled (wrong) weights,
/// (batch, heads, n, n), for drawing them beside the right ones.
pub fn compare_valid_len_orders_qk(
    q: ArrayView3<f32>,
    k: ArrayView3<f32>,
    heads: usize,
    valid_lens: &[usize],
    position: &PositionScheme,
) -> Result<(ValidLensComparison, Array4<f32>), HeadsError> {
    let (batch, n, d) = q.dim();
    check_multi_head(batch, n, n, d, heads, valid_lens)?;
    let repeated_flat = repeat_valid_lens(valid_lens, heads)?;
    let correct = multi_head_weights_positioned(q, k, heads, &repeated_flat, position)?;
    let tiled_flat = tile_valid_lens(valid_lens, heads)?;
    let buggy = multi_head_weights_positioned(q, k, heads, &tiled_flat, position)?;
    let repeated = head_valid_lens(valid_lens, heads)?;
    let tiled = per_sequence(&tiled_flat, heads)?;
    let wrong_heads = repeated
        .iter()
        .zip(&tiled)
        .enumerate()
        .flat_map(|(b, (right, wrong))| {
            right
                .iter()
                .zip(wrong)
                .enumerate()
                .filter(|(_, (r, w))| r != w)
                .map(move |(h, _)| (b, h))
        })
        .collect();
    let max_weight_difference = correct
        .iter()
        .zip(buggy.iter())
        .map(|(&a, &b)| (f64::from(a) - f64::from(b)).abs())
        .fold(0.0, f64::max);
    Ok((
        ValidLensComparison {
            repeated,
            tiled,
            wrong_heads,
            max_weight_difference,
        },
        buggy,
    ))
}
