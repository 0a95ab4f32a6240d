//! The learned-table panel without the DOM: a seeded, untrained table E of L_max × d position
//! embeddings measured against the sinusoid (which has a row at L_max), the figure's values, and
//! the read-out that states them. Tested natively; its view (`view.rs`) draws and wires.

use ndarray::Array2;
use serde::Serialize;

use crate::math::encoding::sinusoidal_from;
use crate::math::learned::{LearnedError, LearnedTable, INIT_STD};
use crate::model::present::format_number;

#[cfg(all(target_arch = "wasm32", feature = "pretrained-module"))]
pub mod module;
pub mod takeaway;
pub mod trained;
#[cfg(target_arch = "wasm32")]
mod view;
#[cfg(target_arch = "wasm32")]
pub use view::mount;

/// The figure shows at most this many positions and columns.
pub const SHOWN_ROWS: usize = 1024;
pub const SHOWN_COLUMNS: usize = 128;

/// The panel's numbers (`peLab.stats.panels.learned`).
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LearnedStats {
    /// L_max (`lmax`).
    pub max_len: usize,
    pub d: usize,
    /// The page's n, and how many of its positions have a row (min(n, L_max)).
    pub n: usize,
    pub positions_with_row: usize,
    /// n − L_max when positive: positions the table cannot encode.
    pub positions_beyond: usize,
    /// What looking up position L_max gives: the error's text.
    pub lookup_beyond: String,
    /// The measured standard deviation of E's entries (≈ 0.02) and the mean row norm (≈ 0.02·√d).
    pub entry_std: f64,
    pub mean_row_norm: f64,
    /// ‖p_i‖ of the sinusoid (√(d/2) for even d) at position L_max, which exists.
    pub sinusoid_row_norm_at_max: f64,
    /// The figure's positions (rows ≥ L_max are grey: no entry).
    pub shown_rows: usize,
    pub ms: f64,
}

/// The panel's numbers and the table they were measured on (L_max × d), which the figure draws.
#[derive(Debug, Clone)]
pub struct Learned {
    pub stats: LearnedStats,
    pub rows: Array2<f64>,
}

/// The table for L_max = `max_len` positions of width `d` drawn from `seed`, measured, with the
/// page's `n` positions and the sinusoid of `base` at position L_max.
pub fn compute(
    d: usize,
    n: usize,
    base: f64,
    max_len: usize,
    seed: u64,
) -> Result<Learned, LearnedError> {
    let table = LearnedTable::new(max_len, d, seed)?;
    let lookup_beyond = match table.lookup(&[max_len]) {
        Ok(_) => String::new(),
        Err(error) => error.to_string(),
    };
    let rows = table.encode(max_len)?;
    let count = (max_len * d) as f64;
    let mean = rows.sum() / count;
    let entry_std = (rows.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / count).sqrt();
    let mean_row_norm = rows
        .rows()
        .into_iter()
        .map(|r| r.dot(&r).sqrt())
        .sum::<f64>()
        / max_len as f64;
    let sinusoid = sinusoidal_from(max_len, 1, d, base);
    let sinusoid_row_norm_at_max = sinusoid
        .iter()
        .map(|&v| f64::from(v).powi(2))
        .sum::<f64>()
        .sqrt();
    // Enough rows to show the end of the table and what follows it.
    let shown_rows = n.max(max_len + max_len / 4 + 1).min(SHOWN_ROWS);
    let stats = LearnedStats {
        max_len,
        d,
        n,
        positions_with_row: n.min(max_len),
        positions_beyond: n.saturating_sub(max_len),
        lookup_beyond,
        entry_std,
        mean_row_norm,
        sinusoid_row_norm_at_max,
        shown_rows,
        ms: 0.0,
    };
    Ok(Learned { stats, rows })
}

/// The figure's values, row by row: `shown_rows` positions of the first `columns` columns of
/// `rows`, NaN (drawn grey) where the table has no entry.
pub fn figure_values(rows: &Array2<f64>, shown_rows: usize, columns: usize) -> Vec<f32> {
    (0..shown_rows)
        .flat_map(|i| (0..columns).map(move |j| rows.get((i, j)).map_or(f32::NAN, |&v| v as f32)))
        .collect()
}

/// The read-out under the table.
pub fn readout(stats: &LearnedStats) -> String {
    let (max_len, d, n) = (stats.max_len, stats.d, stats.n);
    crate::message!(
        "readout-learned",
        last = max_len.saturating_sub(1),
        max_len = max_len,
        d = d,
        init_std = INIT_STD.to_string(),
        std = format_number(stats.entry_std),
        row_norm = format_number(stats.mean_row_norm),
        n = n,
        beyond = stats.positions_beyond,
        lookup = &stats.lookup_beyond,
        sinusoid_norm = format_number(stats.sinusoid_row_norm_at_max),
        ratio = format_number(
            stats.sinusoid_row_norm_at_max / stats.mean_row_norm.max(f64::MIN_POSITIVE)
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_match_the_table_and_the_sinusoid_measured_directly() {
        let (d, n, max_len) = (8, 20, 12);
        let learned = compute(d, n, 10_000.0, max_len, 7).unwrap();
        let stats = &learned.stats;
        assert_eq!(learned.rows.dim(), (max_len, d));
        assert_eq!(
            learned.rows,
            LearnedTable::new(max_len, d, 7)
                .unwrap()
                .encode(max_len)
                .unwrap()
        );
        assert_eq!((stats.positions_with_row, stats.positions_beyond), (12, 8));
        // Enough rows for the table and a quarter more, or the page's n when that is more.
        assert_eq!(stats.shown_rows, 20);
        assert_eq!(
            compute(d, 4, 10_000.0, max_len, 7)
                .unwrap()
                .stats
                .shown_rows,
            16
        );
        // Entries: mean and spread recomputed by hand.
        let values: Vec<f64> = learned.rows.iter().copied().collect();
        let mean = values.iter().sum::<f64>() / values.len() as f64;
        let variance =
            values.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / values.len() as f64;
        assert!((stats.entry_std - variance.sqrt()).abs() < 1e-12);
        assert!(
            stats.entry_std > 0.005 && stats.entry_std < 0.05,
            "{}",
            stats.entry_std
        );
        let norms: f64 = (0..max_len)
            .map(|i| {
                (0..d)
                    .map(|j| learned.rows[[i, j]].powi(2))
                    .sum::<f64>()
                    .sqrt()
            })
            .sum();
        assert!((stats.mean_row_norm - norms / max_len as f64).abs() < 1e-12);
        // Every pair of the sinusoid is (sin, cos), so each row has norm √(d/2) = 2.
        assert!((stats.sinusoid_row_norm_at_max - 2.0).abs() < 1e-6);
        assert!(
            stats.lookup_beyond.contains("position 12"),
            "{}",
            stats.lookup_beyond
        );
    }

    #[test]
    fn the_figure_is_grey_past_the_table_and_keeps_its_entries_before() {
        let learned = compute(4, 6, 10_000.0, 3, 1).unwrap();
        let values = figure_values(&learned.rows, 5, 2);
        assert_eq!(values.len(), 10);
        assert_eq!(values[2 * 2 + 1], learned.rows[[2, 1]] as f32);
        assert!(values[6..].iter().all(|v| v.is_nan()));
        assert!(values[..6].iter().all(|v| v.is_finite()));
    }

    #[test]
    fn the_readout_states_the_table_the_overflow_and_the_measured_numbers() {
        let stats = compute(8, 20, 10_000.0, 12, 7).unwrap().stats;
        let text = readout(&stats);
        assert!(
            text.starts_with(
                "E has rows for positions 0–11 (L_max = 12) of d = 8, drawn N(0, 0.02²)"
            ),
            "{text}"
        );
        assert!(
            text.contains(&format!(
                "(measured: std {}, mean row norm {} ≈ 0.02·√d)",
                format_number(stats.entry_std),
                format_number(stats.mean_row_norm)
            )),
            "{text}"
        );
        assert!(
            text.contains("The page's n = 20 has 8 positions with no row"),
            "{text}"
        );
        assert!(
            text.contains(&format!(
                "Looking up position 12: “{}”.",
                stats.lookup_beyond
            )),
            "{text}"
        );
        assert!(
            text.contains("‖p_12‖ = 2.000 (√(d/2) for even d)"),
            "{text}"
        );
        let ratio = format_number(stats.sinusoid_row_norm_at_max / stats.mean_row_norm);
        assert!(
            text.contains(&format!("E is {ratio}× smaller than P")),
            "{text}"
        );
        let fits = readout(&compute(8, 12, 10_000.0, 12, 7).unwrap().stats);
        assert!(
            fits.contains("The page's n = 12 fits in the table."),
            "{fits}"
        );
    }
}
