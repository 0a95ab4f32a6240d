//! The T5 panel's numbers without the DOM (tested natively): the bucket of every relative
//! distance in −range … range, in the encoder's and the decoder's layout.

use serde::Serialize;

use crate::math::t5::{buckets, first_distance_in_last_bucket, BucketError, BucketLayout};

/// The panel's numbers (`peLab.stats.panels.t5`).
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct T5Stats {
    /// Relative distances k = key − query run over −range … range.
    pub range: usize,
    /// buckets[k + range]: the bidirectional (encoder) bucket of k.
    pub buckets: Vec<usize>,
    /// The same for the decoder's causal layout (keys after the query count as distance 0).
    pub causal_buckets: Vec<usize>,
    pub num_buckets: usize,
    pub max_distance: usize,
    /// Distances below this have a bucket each (per direction).
    pub max_exact: usize,
    /// The first distance in the last bucket of a direction (91 for T5's encoder).
    pub first_in_last_bucket: usize,
    pub causal_first_in_last_bucket: usize,
    /// How many different buckets −range … range use.
    pub distinct_buckets: usize,
    pub ms: f64,
}

/// The buckets of every distance k = key − query in −range … range.
pub fn compute(range: usize) -> Result<T5Stats, BucketError> {
    let layout = BucketLayout::default();
    let causal = BucketLayout {
        bidirectional: false,
        ..layout
    };
    let values: Vec<usize> = buckets(range, &layout)?.into_iter().map(|p| p.1).collect();
    let mut distinct = values.clone();
    distinct.sort_unstable();
    distinct.dedup();
    Ok(T5Stats {
        range,
        causal_buckets: buckets(range, &causal)?.into_iter().map(|p| p.1).collect(),
        distinct_buckets: distinct.len(),
        buckets: values,
        num_buckets: layout.num_buckets,
        max_distance: layout.max_distance,
        max_exact: layout.max_exact(),
        first_in_last_bucket: first_distance_in_last_bucket(&layout)?,
        causal_first_in_last_bucket: first_distance_in_last_bucket(&causal)?,
        ms: 0.0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_encoder_layout_has_its_last_bucket_from_91() {
        let stats = compute(160).unwrap();
        assert_eq!(stats.buckets.len(), 321);
        assert_eq!(stats.first_in_last_bucket, 91);
        assert_eq!(stats.buckets[160], 0);
    }
}
