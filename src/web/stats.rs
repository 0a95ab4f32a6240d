//! `window.peLab.stats` and `window.peLab.state`: the numbers the page shows, and the parameters
//! after clamping.

use serde::Serialize;

use crate::model::params::Params;

/// The page's top-level numbers (`stats.panels.<name>` are added from the panels themselves).
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Stats {
    pub max_projection_error: f64,
    /// `?textbook=1`: the curves, the projection pair and `maxProjectionError` are of the
    /// textbook float32 P (on the CPU path the heatmap too).
    pub textbook: bool,
    /// The position of P's first row: 0, or 1 with `?index=1` (the Julia edition).
    pub first_position: usize,
    pub p_min: f32,
    pub p_max: f32,
    pub rows: usize,
    pub columns: usize,
    pub frequencies: usize,
    pub shortest_period: f64,
    pub longest_period: f64,
    /// The 2×2 matrix of the projection panel (row-major), empty when d = 1.
    pub matrix: Vec<[f64; 2]>,
    /// Where the cells of P are drawn on the heatmap canvas, in its backing-store pixels (what
    /// `getImageData` reads, at any pixel ratio) [x0, y0, x1, y1].
    pub heatmap_image: [f64; 4],
    pub frame_ms: f64,
    /// Milliseconds of the last update spent in each stage: [encoding, heatmap, curves, projection].
    pub stage_ms: [f64; 4],
    pub backend: &'static str,
    /// The WebGPU adapter's name, or why the CPU path is in use.
    pub adapter: String,
    /// Milliseconds from the start of navigation to the first complete frame.
    pub first_frame_ms: f64,
    pub notices: Vec<String>,
}

/// `window.peLab.state`: the parameters after clamping (what [`Params`] serializes).
#[derive(Debug, Serialize)]
#[serde(transparent)]
pub struct StateView<'a>(&'a Params);

impl<'a> From<&'a Params> for StateView<'a> {
    fn from(params: &'a Params) -> Self {
        StateView(params)
    }
}
