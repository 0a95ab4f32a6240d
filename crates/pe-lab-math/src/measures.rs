//! Measures the attention panels need that the twins in `attention`, `order`,
//! `similarity`, `scaling`, `heads`, `binary` and `complexity` do not already give: single rows of
//! P, the similarity curve, per-row equivariance gaps, distances from a Gram matrix, and the size
//! budgets that keep every panel live. All pure, tested natively (tests/math_measures.rs).

use ndarray::{Array2, Array3, ArrayView2, Axis};

use super::attention::weights;
use super::encoding::frequency;
use super::layer::{identity, layer, layer_positioned, Projections};
use super::order::{
    max_abs_difference, permute_rows, permute_tokens, self_attention_output_masked, OrderError,
};
use super::position::{Encoding, PositionScheme};
use super::tokens::{attention_input, embed_tokens};
use super::MathError;

/// Rows p_start … p_{start+count−1} of the sinusoidal encoding (d columns), each entry
/// sin(i·ω_j) or cos(i·ω_j) evaluated in f64 and rounded once to f32: a row of P does not depend
/// on n, so a panel can show p_105 without encoding 106 rows. Agrees with `encoding::sinusoidal`
/// to f32 rounding (i·ω_j is exact to ~1e-16·i in f64).
///
/// Errors: d = 0, a base that is not finite and > 1.
pub fn encoding_rows(
    start: usize,
    count: usize,
    d: usize,
    base: f64,
) -> Result<Array2<f32>, MathError> {
    super::validate(1, d, base)?;
    let omegas: Vec<f64> = (0..d.div_ceil(2)).map(|j| frequency(j, d, base)).collect();
    Ok(Array2::from_shape_fn((count, d), |(r, c)| {
        let angle = (start + r) as f64 * omegas[c / 2];
        let value = if c % 2 == 0 { angle.sin() } else { angle.cos() };
        value as f32
    }))
}

/// p_i·p_{i+k} for k = 0 … max_offset (accumulated in f64 from the f32 entries, like
/// `similarity::dot_by_offset`), with the rows computed by [`encoding_rows`].
pub fn dot_curve(
    start: usize,
    max_offset: usize,
    d: usize,
    base: f64,
) -> Result<Vec<f64>, MathError> {
    let rows = encoding_rows(start, max_offset + 1, d, base)?;
    let first = rows.row(0);
    Ok(rows
        .rows()
        .into_iter()
        .map(|row| {
            first
                .iter()
                .zip(row)
                .map(|(&a, &b)| f64::from(a) * f64::from(b))
                .sum()
        })
        .collect())
}

/// p_i·p_j of single rows (the forum check: p_5·p_6 at d = 16).
pub fn row_dot(i: usize, j: usize, d: usize, base: f64) -> Result<f64, MathError> {
    let a = encoding_rows(i, 1, d, base)?;
    let b = encoding_rows(j, 1, d, base)?;
    Ok(a.iter()
        .zip(b.iter())
        .map(|(&x, &y)| f64::from(x) * f64::from(y))
        .sum())
}

/// The largest number of rows r ≤ n whose r × r Gram matrix of d-wide rows costs at most `budget`
/// multiply-adds (r²·d ≤ budget); at least 1.
pub fn rows_within_budget(n: usize, d: usize, budget: u64) -> usize {
    let d = d.max(1) as u64;
    let mut r = ((budget / d) as f64).sqrt().floor() as u64;
    // Floating-point square roots can be one off either way.
    while r > 0 && r.saturating_mul(r).saturating_mul(d) > budget {
        r -= 1;
    }
    while (r + 1).saturating_mul(r + 1).saturating_mul(d) <= budget {
        r += 1;
    }
    (r as usize).clamp(1, n.max(1))
}

/// Euclidean distances ‖p_i − p_j‖ from a Gram matrix: √max(0, G_ii + G_jj − 2G_ij) (in f64, stored
/// as f32), with an exact zero diagonal. Agrees with `similarity::distance_matrix` up to the
/// cancellation of G's f32 rounding (≈ √(d·1e-7) for entries near 0).
pub fn distances_from_gram(gram: ArrayView2<f32>) -> Array2<f32> {
    let n = gram.nrows().min(gram.ncols());
    Array2::from_shape_fn((n, n), |(i, j)| {
        if i == j {
            return 0.0;
        }
        let squared =
            f64::from(gram[[i, i]]) + f64::from(gram[[j, j]]) - 2.0 * f64::from(gram[[i, j]]);
        squared.max(0.0).sqrt() as f32
    })
}

/// Attention weights softmax(Z·Zᵀ/√d) of a sentence, Z = X (·√d) (+ P), keys at index ≥
/// `valid_len` masked (weight exactly 0). No tokens give a 0 × 0 matrix.
pub fn sentence_weights<S: AsRef<str>>(
    tokens: &[S],
    d: usize,
    base: f64,
    positional_encoding: bool,
    scale_embeddings: bool,
    valid_len: Option<usize>,
) -> Result<Array2<f32>, MathError> {
    let z = attention_input(tokens, d, base, positional_encoding, scale_embeddings)?;
    Ok(weights(z.view(), z.view(), valid_len))
}

/// The batch example's input (2 or more sequences, each its own rows of P from 0), shape
/// (batch, len, d): every sequence must have the same number of tokens.
pub fn batch_input(
    sequences: &[Vec<String>],
    d: usize,
    base: f64,
    positional_encoding: bool,
    scale_embeddings: bool,
) -> Result<Array3<f32>, MathError> {
    let len = sequences.first().map_or(0, Vec::len);
    let mut out = Array3::<f32>::zeros((sequences.len(), len, d));
    for (b, sequence) in sequences.iter().enumerate() {
        let z = attention_input(sequence, d, base, positional_encoding, scale_embeddings)?;
        if z.nrows() != len {
            return Err(MathError::TooLarge {
                what: "tokens in a sequence of the batch",
                requested: z.nrows(),
                limit: len,
            });
        }
        out.index_axis_mut(Axis(0), b).assign(&z);
    }
    Ok(out)
}

/// max over the valid rows of |Σ_j w_ij − 1| (a row with every key masked sums to 0 and is
/// skipped); 0 for no rows.
pub fn row_sum_error(w: ArrayView2<f32>) -> f64 {
    w.rows()
        .into_iter()
        .map(|row| row.iter().map(|&v| f64::from(v)).sum::<f64>())
        .filter(|&sum| sum != 0.0)
        .map(|sum| (sum - 1.0).abs())
        .fold(0.0, f64::max)
}

/// Whether every weight of a key at index ≥ `valid_len` is exactly 0 (true without a mask).
pub fn masked_weights_are_zero(w: ArrayView2<f32>, valid_len: Option<usize>) -> bool {
    let Some(valid) = valid_len else {
        return true;
    };
    w.rows()
        .into_iter()
        .all(|row| row.iter().skip(valid).all(|&v| v == 0.0))
}

/// The permutation-equivariance gap of each output row: row r is max_c |Y(π·input)[r, c] −
/// (π·Y(input))[r, c]| where π·input is the input of the permuted sentence (see
/// `order::equivariance_gap`, whose value is the maximum of these rows).
pub fn row_gaps<S: AsRef<str>>(
    tokens: &[S],
    permutation: &[usize],
    d: usize,
    base: f64,
    scale_embeddings: bool,
    positional_encoding: bool,
) -> Result<Vec<f64>, OrderError> {
    let position = PositionScheme::new(
        if positional_encoding {
            Encoding::Sinusoidal
        } else {
            Encoding::None
        },
        base,
        1,
    );
    row_gaps_projected(tokens, permutation, d, scale_embeddings, &position, None)
}

/// [`row_gaps`] for the layer with `projections` (`None`: Q = K = V = Z and no W_o) and the
/// position family `position` (its base is P's). Without any position the gaps are float32
/// rounding for any projections: every stage acts on rows, and softmax on each row, so permuting
/// the rows of Z permutes the rows of the output. A family inside the layer (RoPE, ALiBi, T5,
/// Shaw) breaks that as P does.
pub fn row_gaps_projected<S: AsRef<str>>(
    tokens: &[S],
    permutation: &[usize],
    d: usize,
    scale_embeddings: bool,
    position: &PositionScheme,
    projections: Option<&Projections>,
) -> Result<Vec<f64>, OrderError> {
    let permuted = permute_tokens(tokens, permutation)?;
    let input = |tokens: &[String]| -> Result<Array2<f32>, OrderError> {
        let mut z = attention_input(
            tokens,
            d,
            position.base,
            position.encoding.adds_sinusoid(),
            scale_embeddings,
        )?;
        position
            .add_to_input(&mut z)
            .map_err(|e| OrderError::Layer(e.to_string()))?;
        Ok(z)
    };
    let original_tokens: Vec<String> = tokens.iter().map(|t| t.as_ref().to_string()).collect();
    let original = input(&original_tokens)?;
    let moved = input(&permuted)?;
    let y_of_moved = positioned_output(moved.view(), projections, position)?;
    let moved_y = permute_rows(
        positioned_output(original.view(), projections, position)?.view(),
        permutation,
    )?;
    Ok(y_of_moved
        .rows()
        .into_iter()
        .zip(moved_y.rows())
        .map(|(a, b)| {
            a.iter()
                .zip(b)
                .map(|(&x, &y)| (f64::from(x) - f64::from(y)).abs())
                .fold(0.0, |worst: f64, e| {
                    if worst.is_nan() || e.is_nan() {
                        f64::NAN
                    } else {
                        worst.max(e)
                    }
                })
        })
        .collect())
}

/// The layer's output for input `z`: with projections, softmax((ZW_q)(ZW_k)ᵀ/√d)(ZW_v)W_o; without,
/// softmax(ZZᵀ/√d)Z (`order::self_attention_output_masked`).
pub fn layer_output(
    z: ArrayView2<f32>,
    projections: Option<&Projections>,
    valid_len: Option<usize>,
) -> Result<Array2<f32>, OrderError> {
    match projections {
        None => Ok(self_attention_output_masked(z, valid_len)),
        Some(p) => layer(z, p, 1, valid_len)
            .map(|stages| stages.output)
            .map_err(|e| OrderError::Layer(e.to_string())),
    }
}

/// [`layer_output`] with a position family inside the layer (no mask). Without projections the
/// layer is Q = K = V = Z with W_o = I, as in [`layer_output`].
fn positioned_output(
    z: ArrayView2<f32>,
    projections: Option<&Projections>,
    position: &PositionScheme,
) -> Result<Array2<f32>, OrderError> {
    let inside = !matches!(
        position.encoding,
        Encoding::Sinusoidal | Encoding::Learned | Encoding::None
    );
    match (projections, inside) {
        (_, false) => layer_output(z, projections, None),
        (Some(p), true) => layer_positioned(z, p, 1, None, position)
            .map(|stages| stages.output)
            .map_err(|e| OrderError::Layer(e.to_string())),
        (None, true) => layer_positioned(z, &identity(z.ncols()), 1, None, position)
            .map(|stages| stages.output)
            .map_err(|e| OrderError::Layer(e.to_string())),
    }
}

/// The families that [`shift_gaps`] compares, in the order the page lists them.
pub const SHIFT_FAMILIES: [Encoding; 7] = [
    Encoding::Sinusoidal,
    Encoding::Learned,
    Encoding::Rope,
    Encoding::Alibi,
    Encoding::T5,
    Encoding::Shaw,
    Encoding::None,
];

/// The attention weights (one head, no mask beyond the family's own) of the sentence placed at
/// positions `first_position` … `first_position + n − 1`: Z = X (·√d) plus P's rows from there
/// for the sinusoidal family, the learned table's rows from there, RoPE's rotation from there;
/// ALiBi, T5 and Shaw see only j − i.
pub fn weights_at<S: AsRef<str>>(
    tokens: &[S],
    d: usize,
    scale_embeddings: bool,
    position: &PositionScheme,
    projections: &Projections,
    first_position: usize,
) -> Result<Array2<f32>, OrderError> {
    let scheme = PositionScheme {
        first_position,
        ..*position
    };
    let n = tokens.len();
    let mut z = embed_tokens(tokens, d, scale_embeddings)?;
    if position.encoding.adds_sinusoid() {
        z += &encoding_rows(first_position, n, d, position.base)?;
    }
    let layer_error = |e: String| OrderError::Layer(e);
    scheme
        .add_to_input(&mut z)
        .map_err(|e| layer_error(e.to_string()))?;
    let stages = layer_positioned(z.view(), projections, 1, None, &scheme)
        .map_err(|e| layer_error(e.to_string()))?;
    Ok(stages.weights[0].clone())
}

/// Exercise 3's cleanest test, for every family of [`SHIFT_FAMILIES`] with the other settings of
/// `position`: shift the whole sentence by `shift` positions and take the largest change of any
/// attention weight, max |A(positions s…s+n−1) − A(positions 0…n−1)|. Exactly 0 for the families
/// that see only j − i (ALiBi, T5, Shaw) and for none, float32 rounding for RoPE (its scores
/// depend on j − i, its rotations are rounded), and not 0 for added P or a learned table
/// (absolute positions).
pub fn shift_gaps<S: AsRef<str>>(
    tokens: &[S],
    d: usize,
    scale_embeddings: bool,
    position: &PositionScheme,
    projections: &Projections,
    shift: usize,
) -> Result<Vec<(Encoding, f64)>, OrderError> {
    let gap = |scheme: &PositionScheme| -> Result<f64, OrderError> {
        if tokens.is_empty() {
            return Ok(0.0);
        }
        let at_zero = weights_at(tokens, d, scale_embeddings, scheme, projections, 0)?;
        let shifted = weights_at(tokens, d, scale_embeddings, scheme, projections, shift)?;
        Ok(max_abs_difference(at_zero.view(), shifted.view()))
    };
    SHIFT_FAMILIES
        .iter()
        .map(|&encoding| {
            let scheme = PositionScheme {
                encoding,
                ..*position
            };
            gap(&scheme).map(|value| (encoding, value))
        })
        .collect()
}

/// The "without PE" gap of `order::masked_equivariance_gap` for the layer with `projections`.
pub fn masked_equivariance_gap_projected<S: AsRef<str>>(
    tokens: &[S],
    permutation: &[usize],
    d: usize,
    valid_len: usize,
    scale_by_sqrt_d: bool,
    projections: Option<&Projections>,
) -> Result<f64, OrderError> {
    let permuted = permute_tokens(tokens, permutation)?;
    let original = embed_tokens(tokens, d, scale_by_sqrt_d)?;
    let moved = embed_tokens(&permuted, d, scale_by_sqrt_d)?;
    let y_of_moved = layer_output(moved.view(), projections, Some(valid_len))?;
    let moved_y = permute_rows(
        layer_output(original.view(), projections, Some(valid_len))?.view(),
        permutation,
    )?;
    Ok(max_abs_difference(y_of_moved.view(), moved_y.view()))
}

/// The CPU path times `attention::weights` on P (n × d) only up to this many multiply-adds of the
/// scores (n²·d): 2²⁷ ≈ 1.3e8 takes about 0.1 s in WebAssembly.
pub const CPU_MEASURE_BUDGET: u64 = 1 << 27;

/// Whether the CPU path measures the attention kernel at this size.
pub fn cpu_can_measure(n: usize, d: usize) -> bool {
    (n as u64).saturating_mul(n as u64).saturating_mul(d as u64) <= CPU_MEASURE_BUDGET
}

/// The widths d of the magnitude curve: the powers of two up to `max_d`, and `d` itself.
pub fn magnitude_widths(d: usize, max_d: usize) -> Vec<usize> {
    let mut widths: Vec<usize> = std::iter::successors(Some(1usize), |w| w.checked_mul(2))
        .take_while(|&w| w <= max_d.max(1))
        .collect();
    if d >= 1 {
        if let Err(at) = widths.binary_search(&d) {
            widths.insert(at, d);
        }
    }
    widths
}

/// The bits of 0 … n−1 (`binary::bits`) as values on the encoding's scale: bit 0 → −1, bit 1 → +1,
/// so that they can be drawn with P's colour map.
pub fn bits_as_signs(bits: ArrayView2<u8>) -> Array2<f32> {
    bits.mapv(|b| if b == 0 { -1.0 } else { 1.0 })
}
