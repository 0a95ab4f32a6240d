//! The T5 panel's numbers without the DOM (tested natively): the bucket of every relative
//! distance in −range … range, in the encoder's and the decoder's layout.

use serde::Serialize;

use crate::math::t5::{buckets, first_distance_in_last_bucket, BucketError, BucketLayout};

pub mod takeaway;
#[cfg(target_arch = "wasm32")]
mod view;
#[cfg(target_arch = "wasm32")]
pub use view::mount;

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
    crate::message!(
        "readout-t5",
        buckets = stats.num_buckets,
        max_distance = stats.max_distance,
        before_last = stats.num_buckets / 2 - 1,
        after_first = stats.num_buckets / 2,
        after_last = stats.num_buckets - 1,
        after_second = stats.num_buckets / 2 + 1,
        exact_last = stats.max_exact - 1,
        exact = stats.max_exact,
        log_last = stats.first_in_last_bucket - 1,
        first_in_last = stats.first_in_last_bucket,
        at_minus_1 = bucket_of(-1),
        at_minus_8 = bucket_of(-8),
        at_minus_20 = bucket_of(-20),
        at_minus_90 = bucket_of(-90),
        at_minus_91 = bucket_of(-91),
        at_plus_5 = bucket_of(5),
        range = stats.range,
        at_range = bucket_of(range),
        distinct = stats.distinct_buckets,
        causal_first_in_last = stats.causal_first_in_last_bucket,
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
