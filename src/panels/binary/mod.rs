//! The binary-analogy panel without the DOM: the period of each bit of 0 … n−1 beside the period
//! of each column pair of P, each bit paired with the pair of the closest period, and the table
//! and summary that state them. Tested natively; its view (`view.rs`) draws the bits, copies P's
//! heatmap beside them and fills the table.

use serde::Serialize;

use crate::math::binary::{bit_count, bit_period, pair_bits_with_frequencies, pair_period};
use crate::math::encoding::frequency_count;
use crate::math::MathError;
use crate::model::present::format_period;

pub mod takeaway;
#[cfg(target_arch = "wasm32")]
mod view;
#[cfg(target_arch = "wasm32")]
pub use view::mount;

/// Rows of the period table beyond the bits (the faster pairs are the interesting ones).
pub const TABLE_PAIRS: usize = 8;
/// At most this many pair periods go into `stats` (d = 2048 has 1024 pairs).
pub const STATS_PAIRS: usize = 64;

#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Pairing {
    pub bit: usize,
    pub bit_period: f64,
    pub pair: usize,
    pub pair_period: f64,
    pub ratio: f64,
}

/// The panel's numbers (`peLab.stats.panels.binary`).
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BinaryStats {
    pub n: usize,
    pub bits: usize,
    /// 2^(k+1) for each bit k.
    pub bit_periods: Vec<f64>,
    /// 2π·base^(2j/d) for the first pairs j.
    pub pair_periods: Vec<f64>,
    /// Each bit with the pair of the closest period.
    pub pairings: Vec<Pairing>,
    /// The backend that drew P (its heatmap is copied beside the bits): "webgpu" or "cpu".
    pub p_source: &'static str,
    pub ms: f64,
}

/// The periods and pairings of the numbers 0 … n−1 and the d columns of P at `base`; `p_source`
/// is the backend that drew P, and `ms` is left for the caller. Errors: n = 0, d = 0, or a base
/// that is not finite and > 1.
pub fn compute(
    n: usize,
    d: usize,
    base: f64,
    p_source: &'static str,
) -> Result<BinaryStats, MathError> {
    let pairings = pair_bits_with_frequencies(n, d, base)?;
    let bits = bit_count(n);
    Ok(BinaryStats {
        n,
        bits,
        bit_periods: (0..bits).map(bit_period).collect(),
        pair_periods: (0..frequency_count(d).min(STATS_PAIRS))
            .map(|j| pair_period(j, d, base))
            .collect(),
        pairings: pairings
            .iter()
            .map(|p| Pairing {
                bit: p.bit,
                bit_period: p.bit_period,
                pair: p.pair,
                pair_period: p.pair_period,
                ratio: p.period_ratio,
            })
            .collect(),
        p_source,
        ms: 0.0,
    })
}

/// The width / height of the bits picture of `bits` bits beside P (a square) in type of
/// `label_px` logical pixels (15 on a laptop), for a picture about 600 pixels high (a laptop's; a
/// projector's is taller, and its cells only wider): the room its heatmap frame keeps around the
/// cells (margins and the row labels, no colour bar), and 40 pixels of type 15 for each bit, so
/// that 3 bits (n = 8) are no sliver and 11 bits (n = 2048) about as wide as P.
pub fn bits_figure_aspect(bits: usize, label_px: f64) -> f64 {
    let scale = label_px / 15.0;
    let width = 24.0 + 64.0 * scale + bits.max(1) as f64 * 40.0 * scale;
    width / 600.0
}

/// The column names of the bits picture: bit 0, 1, 2, …
pub fn bit_names(bits: usize) -> Vec<String> {
    (0..bits).map(|k| k.to_string()).collect()
}

/// The read-out under the pictures: how the bits slow down (by 2) against the pairs (by
/// base^(2/d), from 2π), and which pair the slowest bit is closest to. `first_position` 1 adds
/// how the rows of P line up with the numbers.
pub fn summary(stats: &BinaryStats, d: usize, base: f64, first_position: usize) -> String {
    let width = stats.bits;
    let fastest = pair_period(0, d, base);
    let step = if frequency_count(d) > 1 {
        pair_period(1, d, base) / fastest
    } else {
        f64::NAN
    };
    let slowest = stats
        .pairings
        .last()
        .map(|p| {
            crate::message!(
                "readout-binary-slowest",
                bit = p.bit,
                bit_period = p.bit_period.to_string(),
                pair = p.pair,
                pair_period = format!("{:.1}", p.pair_period)
            )
        })
        .unwrap_or_default();
    let index = if first_position == 0 {
        String::new()
    } else {
        crate::message!("readout-binary-index-one")
    };
    crate::message!(
        "readout-binary-summary",
        bits = width,
        last = stats.n.saturating_sub(1),
        fastest = format!("{fastest:.2}"),
        step = if step.is_finite() {
            format!("{step:.3}")
        } else {
            "—".into()
        },
        slowest = slowest,
        index = index
    )
}

/// The period table's text: one row per bit or pair (bit k, its period, the closest pair with
/// its period ratio; pair j with its columns, its period), and a last line for the pairs left out.
#[derive(Debug, Clone, PartialEq)]
pub struct PeriodTable {
    pub rows: Vec<[String; 5]>,
    pub more: Option<String>,
}

/// The table of the bits of `stats` beside the first pairs of d columns at `base`: every bit, and
/// at least [`TABLE_PAIRS`] pairs (or as many as there are bits).
pub fn period_table(stats: &BinaryStats, d: usize, base: f64) -> PeriodTable {
    let (bits, pairs) = (stats.bits, frequency_count(d));
    let count = bits.max(pairs.min(TABLE_PAIRS.max(bits)));
    let rows = (0..count)
        .map(|r| {
            let [mut bit, mut bit_p, mut closest, mut pair, mut pair_p] = Default::default();
            if r < bits {
                bit = format!("{r}");
                bit_p = format!("{}", bit_period(r));
                closest = stats
                    .pairings
                    .get(r)
                    .map(|p| format!("{} ({:.2}×)", p.pair, p.ratio))
                    .unwrap_or_default();
            }
            if r < pairs {
                let columns = if 2 * r + 1 < d {
                    format!("{}, {}", 2 * r, 2 * r + 1)
                } else {
                    format!("{}", 2 * r)
                };
                pair = format!("{r} ({columns})");
                pair_p = format_period(pair_period(r, d, base));
            }
            [bit, bit_p, closest, pair, pair_p]
        })
        .collect();
    let more = (pairs > count).then(|| {
        crate::message!(
            "readout-binary-more-pairs",
            more = pairs - count,
            period = format_period(pair_period(pairs - 1, d, base))
        )
    });
    PeriodTable { rows, more }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::TAU;

    #[test]
    fn stats_at_n8_d8_pair_every_bit_with_the_fastest_pair() {
        let stats = compute(8, 8, 10_000.0, "cpu").unwrap();
        assert_eq!((stats.n, stats.bits), (8, 3));
        assert_eq!(stats.bit_periods, [2.0, 4.0, 8.0]);
        // 2π·10000^(2j/8) = 2π·10^j.
        assert_eq!(stats.pair_periods.len(), 4);
        for (j, p) in stats.pair_periods.iter().enumerate() {
            assert!(
                (p - TAU * 10f64.powi(j as i32)).abs() < 1e-9 * p,
                "{j}: {p}"
            );
        }
        // On a log scale 2, 4 and 8 are all closer to 2π ≈ 6.28 than to 62.8.
        for (k, p) in stats.pairings.iter().enumerate() {
            assert_eq!((p.bit, p.pair), (k, 0));
            assert!((p.ratio - TAU / 2f64.powi(k as i32 + 1)).abs() < 1e-12);
        }
        assert_eq!(
            compute(8, 2048, 10_000.0, "cpu")
                .unwrap()
                .pair_periods
                .len(),
            64
        );
        assert!(compute(0, 8, 10_000.0, "cpu").is_err());
        assert_eq!(bit_names(3), ["0", "1", "2"]);
    }

    #[test]
    fn the_summary_states_the_bits_the_periods_and_the_slowest_pairing() {
        let stats = compute(8, 8, 10_000.0, "cpu").unwrap();
        let text = summary(&stats, 8, 10_000.0, 0);
        assert!(
            text.starts_with("3 bits number 0…7: bit k repeats"),
            "{text}"
        );
        assert!(text.contains("every 2π ≈ 6.28 positions"), "{text}");
        assert!(
            text.contains("each next pair is 10.000 times slower"),
            "{text}"
        );
        assert!(
            text.ends_with(
                " The slowest bit here (k = 2, period 8) is closest to pair j = 0 (period 6.3)."
            ),
            "{text}"
        );
        let shifted = summary(&stats, 8, 10_000.0, 1);
        assert!(shifted.ends_with("row r of P sits beside the number r − 1."));
        // One number needs one bit; one pair has no next pair.
        let one = compute(1, 2, 10_000.0, "cpu").unwrap();
        let text = summary(&one, 2, 10_000.0, 0);
        assert!(text.starts_with("1 bit number 0…0:"), "{text}");
        assert!(text.contains("each next pair is — times slower"), "{text}");
    }

    #[test]
    fn the_bits_picture_widens_with_its_bits_and_its_type() {
        // n = 8: 3 bits, 40 px each beside 88 px of margins and labels.
        assert!((bits_figure_aspect(3, 15.0) - 208.0 / 600.0).abs() < 1e-12);
        // n = 2048: 11 bits, about as wide as P's square.
        let wide = bits_figure_aspect(11, 15.0);
        assert!(wide > 0.8 && wide < 1.0, "{wide}");
        // Projector type (×1.5) widens the margins and the cells alike.
        assert!(bits_figure_aspect(3, 22.5) > 1.4 * bits_figure_aspect(3, 15.0));
        assert_eq!(bits_figure_aspect(0, 15.0), bits_figure_aspect(1, 15.0));
    }

    #[test]
    fn the_period_table_lists_each_bit_beside_the_first_pairs() {
        let stats = compute(8, 8, 10_000.0, "cpu").unwrap();
        let table = period_table(&stats, 8, 10_000.0);
        assert_eq!(table.rows.len(), 4);
        assert_eq!(table.rows[0], ["0", "2", "0 (3.14×)", "0 (0, 1)", "6.28"]);
        assert_eq!(table.rows[2], ["2", "8", "0 (0.79×)", "2 (4, 5)", "628"]);
        assert_eq!(table.rows[3], ["", "", "", "3 (6, 7)", "6283"]);
        assert_eq!(table.more, None);
        // Odd d: the last pair has only its sine column.
        let odd = period_table(&compute(8, 7, 10_000.0, "cpu").unwrap(), 7, 10_000.0);
        assert_eq!(odd.rows[3][3], "3 (6)");
        // d = 64 has 32 pairs: 8 rows, then a line for the other 24.
        let wide = period_table(&compute(8, 64, 10_000.0, "cpu").unwrap(), 64, 10_000.0);
        assert_eq!(wide.rows.len(), 8);
        let last = format_period(pair_period(31, 64, 10_000.0));
        assert_eq!(
            wide.more,
            Some(format!("… 24 more pairs, up to period {last}"))
        );
    }
}
