//! The attention map as drawn, kept for what the reader asks of it: the cell under the pointer
//! (its read-out) and the weights as CSV.

use ndarray::Array2;

use super::cell_reading;
use crate::model::plot::{cell_at, PixelRect};

/// The heatmap as drawn, for hovering.
pub struct WeightsView {
    pub(super) rect: PixelRect,
    /// The CSV's first line: the formula actually used.
    pub(super) formula: String,
    pub(super) tokens: Vec<String>,
    pub(super) weights: Array2<f32>,
    pub(super) valid_len: Option<usize>,
    /// The offset head's map: rows and columns are positions of P alone.
    pub(super) on_positions: bool,
}

impl WeightsView {
    /// The weights as CSV: queries as rows, keys as columns, both named by their tokens.
    pub fn csv(&self) -> String {
        let labels: Vec<String> = self
            .tokens
            .iter()
            .enumerate()
            .map(|(k, t)| format!("{k}:{t}"))
            .collect();
        let valid = self
            .valid_len
            .map_or_else(|| "all".to_string(), |v| v.to_string());
        crate::model::export::matrix_csv(
            &self.formula,
            &[
                ("tokens", self.tokens.len().to_string()),
                ("valid_len", valid),
            ],
            "query",
            &labels,
            self.weights.view(),
        )
    }

    /// The readout for the cell under canvas point (x, y), if any.
    pub fn describe(&self, x: f64, y: f64) -> Option<String> {
        let n = self.tokens.len();
        let (query, key) = cell_at(self.rect, n, n, x, y)?;
        Some(self.describe_cell(query, key))
    }

    /// The readout for cell (query, key).
    pub fn describe_cell(&self, query: usize, key: usize) -> String {
        cell_reading(
            &self.tokens,
            query,
            key,
            f64::from(self.weights[[query, key]]),
            self.valid_len,
            self.on_positions,
        )
    }
}
