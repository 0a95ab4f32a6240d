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
    // Buckets are small indices: a table of the ones seen counts them without a sort.
    let mut seen = vec![false; values.iter().max().map_or(0, |&b| b + 1)];
    for &bucket in &values {
        seen[bucket] = true;
    }
    let distinct = seen.iter().filter(|&&s| s).count();
    Ok(T5Stats {
        range,
        causal_buckets: buckets(range, &causal)?.into_iter().map(|p| p.1).collect(),
        distinct_buckets: distinct,
        buckets: values,
        num_buckets: layout.num_buckets,
        max_distance: layout.max_distance,
        max_exact: layout.max_exact(),
        first_in_last_bucket: first_distance_in_last_bucket(&layout)?,
        causal_first_in_last_bucket: first_distance_in_last_bucket(&causal)?,
        ms: 0.0,
    })
}

/// The panel's read-out: the bucket layout in both directions, where the logarithmic buckets
/// start and end, worked examples, and the causal layout's last bucket.
pub fn readout(stats: &T5Stats) -> String {
    let range = stats.range as i64;
    let bucket_of = |k: i64| {
        stats
            .buckets
            .get((k + range) as usize)
            .map_or("—".to_string(), |b| b.to_string())
    };
    format!(
        "{} buckets, max_distance {}, bidirectional: keys before the query (and the query's own key, bucket 0) use buckets 0–{}, keys after it {}–{} (bucket {} is never used: distance 1 after the query is already {}). Distances 0–{} get a bucket each; from {} to {} the bucket grows with the logarithm of the distance; every distance ≥ {} in one direction shares the last bucket ({} before, {} after). Examples: δ = −1 → {}, −8 → {}, −20 → {}, −90 → {}, −91 → {}, +5 → {}, +{} → {}. Over −{range} … {range} the page uses {} different buckets; each head adds its own learned scalar per bucket to the scores (enc = t5 in the attention panels draws them seeded, untrained). The causal decoder layout puts all 32 on the past: its last bucket starts at distance {}.",
        stats.num_buckets,
        stats.max_distance,
        stats.num_buckets / 2 - 1,
        stats.num_buckets / 2,
        stats.num_buckets - 1,
        stats.num_buckets / 2,
        stats.num_buckets / 2 + 1,
        stats.max_exact - 1,
        stats.max_exact,
        stats.first_in_last_bucket - 1,
        stats.first_in_last_bucket,
        stats.num_buckets / 2 - 1,
        stats.num_buckets - 1,
        bucket_of(-1),
        bucket_of(-8),
        bucket_of(-20),
        bucket_of(-90),
        bucket_of(-91),
        bucket_of(5),
        stats.range,
        bucket_of(range),
        stats.distinct_buckets,
        stats.causal_first_in_last_bucket,
    )
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

    #[test]
    fn the_readout_states_the_bucket_layout_and_examples() {
        let stats = compute(160).unwrap();
        let text = readout(&stats);
        assert!(
            text.starts_with("32 buckets, max_distance 128, bidirectional"),
            "{text}"
        );
        assert!(
            text.contains("use buckets 0–15, keys after it 16–31"),
            "{text}"
        );
        assert!(
            text.contains("every distance ≥ 91 in one direction shares the last bucket"),
            "{text}"
        );
        let example = format!("−90 → {}, −91 → {}", stats.buckets[70], stats.buckets[69]);
        assert!(text.contains(&example), "{text}");
        assert!(
            text.contains(&format!(
                "the page uses {} different buckets",
                stats.distinct_buckets
            )),
            "{text}"
        );
    }
}
