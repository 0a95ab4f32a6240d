//! Where a trained head looks: its mean weight on the key k places back, against every other
//! offset.

use super::*;

/// Where a trained head looks on the example sequence: its mean weight on the key `offset`
/// places back (over the queries that also have a key `offset` ahead), the uniform weight 1/n,
/// and whether the key `offset` back gets more mean weight than any other offset (a signal, not
/// noise).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OffsetWeights {
    pub back: f64,
    pub uniform: f64,
    pub back_is_largest: bool,
}

/// [`OffsetWeights`] of one attention map (`None` when no query has keys on both sides).
pub fn offset_weights(map: &AttentionMap, offset: usize) -> Option<OffsetWeights> {
    let n = map.length;
    if offset == 0 || 2 * offset >= n || map.weights.len() != n * n {
        return None;
    }
    let weight = |i: usize, j: usize| f64::from(map.weights[i * n + j]);
    let both: Vec<usize> = (offset..n - offset).collect();
    let mean =
        |f: &dyn Fn(usize) -> f64| both.iter().map(|&i| f(i)).sum::<f64>() / both.len() as f64;
    let back = mean(&|i| weight(i, i - offset));
    // The mean weight at every other offset d, over the queries that have a key there.
    let back_is_largest = (-(n as i64 - 1)..n as i64)
        .filter(|&d| d != -(offset as i64))
        .all(|d| {
            let queries: Vec<usize> = (0..n)
                .filter(|&i| (0..n as i64).contains(&(i as i64 + d)))
                .collect();
            let m = queries
                .iter()
                .map(|&i| weight(i, (i as i64 + d) as usize))
                .sum::<f64>()
                / queries.len().max(1) as f64;
            m < back
        });
    Some(OffsetWeights {
        back,
        uniform: 1.0 / n as f64,
        back_is_largest,
    })
}

/// The head of `report` that puts most mean weight on the key k places back, with its weights.
pub fn best_offset_head(
    report: &EncodingReport,
    offset: usize,
) -> Option<(&AttentionMap, OffsetWeights)> {
    report
        .attention
        .iter()
        .filter_map(|map| Some((map, offset_weights(map, offset)?)))
        .max_by(|a, b| a.1.back.total_cmp(&b.1.back))
}
