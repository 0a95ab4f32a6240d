//! T5's relative position buckets (Raffel et al. 2020; `_relative_position_bucket` in Mesh
//! TensorFlow and in Hugging Face's `T5Attention`): every relative position key − query is mapped
//! to one of `num_buckets` learned scalar biases, exact for small distances and logarithmic for
//! larger ones, with every distance from `max_distance` on sharing the last bucket of its
//! direction.
//!
//! The reference computes the logarithmic part in float32 and truncates it toward zero
//! (`.to(torch.long)`, `tf.to_int32`); [`bucket`] does the same in f32, so that it returns the
//! reference's bucket even where a float64 computation would land on the other side of an integer.
//! At the default sizes (32 buckets, max_distance 128) the f32 and exact f64 formulas agree for
//! every distance up to 1000; the boundaries 16, 32, 64 (where the real value is an integer) come
//! out exactly 2, 4, 6 in f32 too.

use thiserror::Error;

/// Why a bucket layout cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BucketError {
    #[error(
        "num_buckets = {0} leaves no exact bucket (at least 2 are needed, 4 when bidirectional)"
    )]
    TooFewBuckets(usize),
    #[error("max_distance = {max_distance} must be larger than the {max_exact} exact distances")]
    MaxDistanceTooSmall {
        max_distance: usize,
        max_exact: usize,
    },
    #[error("range = {requested} is larger than the limit {limit}")]
    RangeTooLarge { requested: usize, limit: usize },
}

/// The bucket layout of one attention stack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BucketLayout {
    /// Encoder self-attention is bidirectional (half of the buckets per direction); decoder
    /// self-attention is not (keys after the query never occur, all buckets are for the past).
    pub bidirectional: bool,
    pub num_buckets: usize,
    pub max_distance: usize,
}

impl Default for BucketLayout {
    /// T5's defaults: bidirectional, 32 buckets, max_distance 128.
    fn default() -> Self {
        BucketLayout {
            bidirectional: true,
            num_buckets: 32,
            max_distance: 128,
        }
    }
}

/// Largest |relative position| that [`buckets`] lists.
pub const MAX_RANGE: usize = 1 << 20;

impl BucketLayout {
    /// Buckets per direction (all of them when not bidirectional).
    pub fn per_direction(&self) -> usize {
        if self.bidirectional {
            self.num_buckets / 2
        } else {
            self.num_buckets
        }
    }

    /// Distances 0..max_exact get a bucket of their own.
    pub fn max_exact(&self) -> usize {
        self.per_direction() / 2
    }

    /// Checks that the layout has exact buckets and a logarithmic range to spread.
    pub fn validate(&self) -> Result<(), BucketError> {
        let max_exact = self.max_exact();
        if max_exact == 0 {
            return Err(BucketError::TooFewBuckets(self.num_buckets));
        }
        if self.max_distance <= max_exact {
            return Err(BucketError::MaxDistanceTooSmall {
                max_distance: self.max_distance,
                max_exact,
            });
        }
        Ok(())
    }
}

/// The bucket of `relative_position` = key − query, as the reference computes it.
///
/// Bidirectional: keys after the query (relative_position > 0) use buckets per_direction.. and
/// the others 0..per_direction, each by the distance |relative_position|. Unidirectional: keys
/// after the query are treated as distance 0 (they are masked anyway). Within a direction,
/// distances below max_exact = per_direction/2 are their own bucket; a larger distance δ gets
/// max_exact + ⌊ln(δ/max_exact)/ln(max_distance/max_exact)·(per_direction − max_exact)⌋ computed
/// in f32, capped at per_direction − 1.
pub fn bucket(relative_position: i64, layout: &BucketLayout) -> Result<usize, BucketError> {
    layout.validate()?;
    let per_direction = layout.per_direction();
    let max_exact = layout.max_exact();
    let (offset, distance) = if layout.bidirectional {
        let offset = if relative_position > 0 {
            per_direction
        } else {
            0
        };
        (offset, relative_position.unsigned_abs())
    } else {
        (0, relative_position.min(0).unsigned_abs())
    };
    let within = if distance < max_exact as u64 {
        distance as usize
    } else {
        // float32 throughout, like `relative_position.float() / max_exact` and `torch.log`;
        // the divisor is the Python float math.log(max_distance / max_exact) rounded to f32.
        let ratio = distance as f32 / max_exact as f32;
        let log_span = libm::log(layout.max_distance as f64 / max_exact as f64) as f32;
        let scaled = libm::logf(ratio) / log_span * (per_direction - max_exact) as f32;
        // `as` truncates toward zero like `.to(torch.long)` (and saturates instead of wrapping).
        max_exact
            .saturating_add(scaled as usize)
            .min(per_direction - 1)
    };
    Ok(offset + within)
}

/// The bucket of every relative position −range..=range, in that order (2·range + 1 entries).
pub fn buckets(range: usize, layout: &BucketLayout) -> Result<Vec<(i64, usize)>, BucketError> {
    layout.validate()?;
    if range > MAX_RANGE {
        return Err(BucketError::RangeTooLarge {
            requested: range,
            limit: MAX_RANGE,
        });
    }
    let range = range as i64;
    (-range..=range)
        .map(|k| bucket(k, layout).map(|b| (k, b)))
        .collect()
}

/// The smallest distance that lands in the last bucket of its direction (every larger distance
/// does too: the bucket never decreases with the distance). At T5's defaults it is 91, in both
/// directions: 8 + 8·ln(91/8)/ln 16 = 15.02 while 90 gives 14.98; so the last bucket is reached
/// well before max_distance = 128, where the uncapped formula would give exactly 16.
pub fn first_distance_in_last_bucket(layout: &BucketLayout) -> Result<usize, BucketError> {
    layout.validate()?;
    let last = layout.per_direction() - 1;
    let in_last = |distance: usize| {
        let position = -i64::try_from(distance).unwrap_or(i64::MAX);
        bucket(position, layout).map(|b| b == last).unwrap_or(false)
    };
    // The bucket never decreases with the distance and the cap puts max_distance in the last
    // bucket, so the answer lies in max_exact..=max_distance: bisect.
    let (mut low, mut high) = (layout.max_exact(), layout.max_distance);
    while low < high {
        let middle = low + (high - low) / 2;
        if in_last(middle) {
            high = middle;
        } else {
            low = middle + 1;
        }
    }
    Ok(low)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_distances_are_exact() {
        let layout = BucketLayout::default();
        assert_eq!(bucket(0, &layout), Ok(0));
        assert_eq!(bucket(-7, &layout), Ok(7));
        assert_eq!(bucket(7, &layout), Ok(23));
        assert_eq!(bucket(1, &layout), Ok(17));
    }

    #[test]
    fn extreme_positions_do_not_panic() {
        let layout = BucketLayout::default();
        assert_eq!(bucket(i64::MIN, &layout), Ok(15));
        assert_eq!(bucket(i64::MAX, &layout), Ok(31));
    }

    #[test]
    fn huge_layouts_do_not_overflow() {
        let layout = BucketLayout {
            bidirectional: false,
            num_buckets: usize::MAX,
            max_distance: usize::MAX,
        };
        assert!(bucket(i64::MIN, &layout).is_ok());
        assert!(first_distance_in_last_bucket(&layout).is_ok());
    }

    #[test]
    fn degenerate_layouts_are_errors() {
        let layout = BucketLayout {
            num_buckets: 2,
            ..BucketLayout::default()
        };
        assert_eq!(bucket(3, &layout), Err(BucketError::TooFewBuckets(2)));
        let layout = BucketLayout {
            max_distance: 8,
            ..BucketLayout::default()
        };
        assert!(bucket(3, &layout).is_err());
    }
}
