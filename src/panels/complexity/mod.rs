//! The complexity panel (CNN vs RNN vs self-attention) without the DOM: the table's counts for n,
//! d and k, the crossovers, the state of the page's own timing of the attention kernel, the
//! crossover marks of the log–log chart, and every sentence, cell and label that states these
//! numbers (messages of `locales/computed`). Tested natively; the view (`view.rs`, with
//! `chart.rs` and `paths.rs`) draws, times and wires.

use serde::Serialize;

use crate::math::complexity::{
    cnn_dilated_layers_to_connect, cnn_layers_to_connect, crossover_n, crossover_n_cnn,
    layer_costs, ComplexityError, Cost,
};
use crate::math::measures::{cpu_can_measure, CPU_MEASURE_BUDGET};
use crate::model::inputs::{Inputs, KeyParts};
use crate::model::present::duration_ms;

pub mod takeaway;
#[cfg(target_arch = "wasm32")]
mod view;
#[cfg(target_arch = "wasm32")]
pub use view::mount;
#[cfg(target_arch = "wasm32")]
mod chart;
#[cfg(target_arch = "wasm32")]
mod paths;

/// Sizes measured by themselves shortly after a change (n²·d multiply-adds): about 10 ms on the
/// CPU, and what a software GPU does in a fraction of a second.
pub const CPU_AUTO_BUDGET: u64 = 1 << 24;
pub const GPU_AUTO_BUDGET: u64 = 1 << 27;
/// Timed runs on the GPU; the fastest is shown.
pub const GPU_RUNS: usize = 3;
/// The most positions the connectivity figure draws; a longer sequence is drawn with this many.
pub const MAX_DRAWN: usize = 16;

/// One timing of the attention kernel.
#[derive(Debug, Clone, PartialEq)]
pub struct Measurement {
    pub n: usize,
    pub d: usize,
    pub backend: &'static str,
    pub ms: f64,
    /// How many runs `ms` is the mean of (CPU), or the fastest of (WebGPU).
    pub runs: usize,
}

/// The timing's state between frames.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MeasureState {
    pub result: Option<Measurement>,
    /// (n, d) being measured on the GPU.
    pub running: Option<(usize, usize)>,
    /// Why the last request gave no time (too large for the CPU, a GPU error).
    pub refused: Option<(usize, usize, String)>,
}

impl MeasureState {
    /// Whether the last time is of this n and d on this backend.
    pub fn has_result_for(&self, n: usize, d: usize, backend: &str) -> bool {
        self.result
            .as_ref()
            .is_some_and(|m| (m.n, m.d, m.backend) == (n, d, backend))
    }

    /// Whether the last request for this n and d gave no time.
    pub fn refused_for(&self, n: usize, d: usize) -> bool {
        self.refused.as_ref().is_some_and(|r| (r.0, r.1) == (n, d))
    }
}

/// The measurement as part of the panel's key: a new time, a request in flight or a refusal
/// redraws it.
impl KeyParts for MeasureState {
    fn add_to(&self, inputs: Inputs) -> Inputs {
        let inputs = match &self.result {
            Some(m) => inputs
                .with(true)
                .with(m.n)
                .with(m.d)
                .with(m.backend)
                .with(m.ms)
                .with(m.runs),
            None => inputs.with(false),
        };
        let inputs = match self.running {
            Some((n, d)) => inputs.with(true).with(n).with(d),
            None => inputs.with(false),
        };
        match &self.refused {
            Some((n, d, why)) => inputs.with(true).with(*n).with(*d).with(why.as_str()),
            None => inputs.with(false),
        }
    }
}

/// Whether to time the kernel by itself now: a size small enough not to disturb a slider, not
/// timed yet on this backend, nor refused, nor another timing running.
pub fn wants_auto_measure(
    measure: &MeasureState,
    n: usize,
    d: usize,
    backend: &str,
    is_gpu: bool,
) -> bool {
    let work = (n as u64) * (n as u64) * (d as u64);
    let budget = if is_gpu {
        GPU_AUTO_BUDGET
    } else {
        CPU_AUTO_BUDGET
    };
    let done = measure.has_result_for(n, d, backend);
    !(done || measure.refused_for(n, d) || work > budget || measure.running.is_some())
}

#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CostView {
    pub operations: f64,
    pub sequential_operations: f64,
    pub max_path_length: f64,
}

impl From<Cost> for CostView {
    fn from(c: Cost) -> Self {
        CostView {
            operations: c.operations,
            sequential_operations: c.sequential_operations,
            max_path_length: c.max_path_length,
        }
    }
}

/// The panel's numbers (`peLab.stats.panels.complexity`).
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ComplexityStats {
    pub n: usize,
    pub d: usize,
    pub k: usize,
    pub cnn: CostView,
    pub rnn: CostView,
    pub self_attention: CostView,
    /// n = d: self-attention's n²·d equals the RNN's n·d².
    pub crossover_n: usize,
    /// n = k·d: equals the CNN's k·n·d².
    pub crossover_n_cnn: usize,
    /// Stacked CNN layers before the first and last position meet (`None`: k = 1 never does).
    pub cnn_layers_to_connect: Option<usize>,
    /// The same with dilated layers (dilations 1, k, k², …): ⌈log_k n⌉.
    pub cnn_dilated_layers_to_connect: Option<usize>,
    /// Positions in the connectivity figure (n, at most 16).
    pub drawn_positions: usize,
    /// The page's own time for the attention kernel at `measured_n` × `measured_d`.
    pub measured_attention_ms: Option<f64>,
    pub measured_n: Option<usize>,
    /// How many runs the time is the mean of (CPU) or the fastest of (WebGPU).
    pub measured_runs: Option<usize>,
    pub measured_d: Option<usize>,
    pub measured_on: Option<&'static str>,
    /// Whether the measurement is of the current n and d.
    pub measured_current: bool,
    pub measuring: bool,
    pub measure_note: String,
    pub ms: f64,
}

/// The counts for n tokens of width d and kernel k, with the timing as it stands on `backend`
/// ("webgpu" or "cpu"); `ms` is left for the caller. Errors: n, d or k is 0.
pub fn compute(
    n: usize,
    d: usize,
    k: usize,
    backend: &'static str,
    measure: &MeasureState,
) -> Result<ComplexityStats, ComplexityError> {
    let costs = layer_costs(n, d, k)?;
    let result = measure.result.as_ref();
    Ok(ComplexityStats {
        n,
        d,
        k,
        cnn: costs.cnn.into(),
        rnn: costs.rnn.into(),
        self_attention: costs.self_attention.into(),
        crossover_n: crossover_n(d),
        crossover_n_cnn: crossover_n_cnn(d, k),
        cnn_layers_to_connect: cnn_layers_to_connect(n, k),
        cnn_dilated_layers_to_connect: cnn_dilated_layers_to_connect(n, k),
        drawn_positions: drawn_positions(n),
        measured_attention_ms: result.map(|m| m.ms),
        measured_n: result.map(|m| m.n),
        measured_runs: result.map(|m| m.runs),
        measured_d: result.map(|m| m.d),
        measured_on: result.map(|m| m.backend),
        measured_current: measure.has_result_for(n, d, backend),
        measuring: measure.running.is_some(),
        measure_note: measure_note(n, d, backend, measure),
        ms: 0.0,
    })
}

/// The table's cells, rows CNN, RNN, self-attention, columns operations, sequential operations,
/// maximum path length (the CNN's as an exact layer count beside d2l's O(n/k)).
pub fn table_cells(stats: &ComplexityStats) -> [[String; 3]; 3] {
    let row = |c: &CostView| {
        [
            format_count(c.operations),
            format_count(c.sequential_operations),
            format_count(c.max_path_length),
        ]
    };
    let mut cnn = row(&stats.cnn);
    cnn[2] = cnn_path_cell(stats.n, stats.k, stats.cnn_layers_to_connect);
    [cnn, row(&stats.rnn), row(&stats.self_attention)]
}

/// The CNN's maximum-path-length cell: the exact layer count, and d2l's O(n/k).
pub fn cnn_path_cell(n: usize, k: usize, layers: Option<usize>) -> String {
    match layers {
        None => crate::message!("readout-complexity-cnn-path-never"),
        Some(0) => crate::message!("readout-complexity-cnn-path-one"),
        Some(l) => crate::message!(
            "readout-complexity-cnn-path",
            layers = l,
            span = n.saturating_sub(1),
            step = k.saturating_sub(1)
        ),
    }
}

/// The read-out under the table: where self-attention overtakes the RNN and the CNN, and the
/// three path-length quantities.
pub fn crossover_sentence(stats: &ComplexityStats) -> String {
    let (n, cross, cross_cnn) = (stats.n, stats.crossover_n, stats.crossover_n_cnn);
    let (layers, dilated) = (
        stats.cnn_layers_to_connect,
        stats.cnn_dilated_layers_to_connect,
    );
    let cheaper = if n < cross {
        crate::message!("readout-complexity-attention-cheaper", n = n)
    } else if n == cross {
        crate::message!("readout-complexity-same-cost", n = n)
    } else {
        crate::message!("readout-complexity-rnn-cheaper", n = n)
    };
    crate::message!(
        "readout-complexity-crossover",
        cross = cross,
        cheaper = cheaper,
        cross_cnn = cross_cnn,
        paths = path_sentence(n, stats.k, layers, dilated)
    )
}

/// The three path-length quantities in words: the exact stacked count (the table's), d2l's O(n/k)
/// and the dilated O(log_k n).
pub fn path_sentence(n: usize, k: usize, layers: Option<usize>, dilated: Option<usize>) -> String {
    match (layers, dilated) {
        (Some(l), Some(dl)) if n > 1 => crate::message!(
            "readout-complexity-paths",
            k = k,
            last = n - 1,
            layers = l,
            k_squared = k * k,
            dilated = dl,
            n = n
        ),
        _ if n <= 1 => crate::message!("readout-complexity-paths-single"),
        _ => crate::message!("readout-complexity-paths-kernel-one"),
    }
}

/// What a time on `backend` measures; a finished CPU time says how many runs it is the mean of.
fn timed_code(backend: &str, runs: Option<usize>) -> String {
    match (backend, runs) {
        ("webgpu", _) => crate::message!("readout-complexity-timed-webgpu"),
        (_, None) => crate::message!("readout-complexity-timed-cpu"),
        (_, Some(runs)) => crate::message!("readout-complexity-timed-cpu-runs", runs = runs),
    }
}

/// The line under the Measure button: running, refused, measured (now or for another size), too
/// large for the CPU, or an invitation to press the button.
pub fn measure_note(n: usize, d: usize, backend: &str, measure: &MeasureState) -> String {
    if measure.running == Some((n, d)) {
        crate::message!("readout-complexity-measuring", n = n, d = d)
    } else if let Some((rn, rd, why)) = measure.refused.as_ref().filter(|r| (r.0, r.1) == (n, d)) {
        crate::message!("readout-complexity-refused", n = *rn, d = *rd, why = why)
    } else if let Some(m) = &measure.result {
        let time = crate::message!(
            "readout-complexity-time",
            duration = duration_ms(m.ms),
            code = timed_code(m.backend, Some(m.runs)),
            n = m.n,
            d = m.d
        );
        if measure.has_result_for(n, d, backend) {
            crate::message!("readout-complexity-measured", time = time)
        } else {
            crate::message!(
                "readout-complexity-last-measured",
                time = time,
                n = n,
                d = d
            )
        }
    } else if backend == "cpu" && !cpu_can_measure(n, d) {
        crate::message!(
            "readout-complexity-too-large",
            work = format_count((n as f64) * (n as f64) * (d as f64)),
            limit = format!("{:.1e}", CPU_MEASURE_BUDGET as f64)
        )
    } else {
        crate::message!(
            "readout-complexity-press-measure",
            code = timed_code(backend, None),
            n = n,
            d = d
        )
    }
}

/// Operation counts, readable: 184 320 (a narrow no-break space between thousands), 1.84e9.
pub fn format_count(x: f64) -> String {
    if x < 1e7 {
        crate::model::thousands::group_thousands(&format!("{x:.0}"), '\u{202f}')
    } else {
        format!("{x:.2e}")
    }
}

/// The chart's label of the CNN's curve.
pub fn cnn_curve_label(k: usize) -> String {
    crate::message!("figure-complexity-cnn-curve", k = k)
}

/// The crossover lines inside the axis 1 … `high`: (n, label, whether it is the CNN's n = k·d).
pub fn crossover_marks(d: usize, k: usize, high: usize) -> Vec<(f64, String, bool)> {
    [
        (d as f64, format!("n = d = {d}"), false),
        ((k * d) as f64, format!("n = k·d = {}", k * d), true),
    ]
    .into_iter()
    // At k = 1 the line n = k·d would lie on n = d, already drawn.
    .filter(|&(x, _, cnn)| (1.0..=high as f64).contains(&x) && !(k == 1 && cnn))
    .collect()
}

/// The positions drawn for a sequence of n.
pub fn drawn_positions(n: usize) -> usize {
    n.clamp(1, MAX_DRAWN)
}

/// The connectivity figure's caption: n, or how many positions stand for it.
pub fn paths_caption(n: usize) -> String {
    if n > MAX_DRAWN {
        crate::message!("figure-complexity-paths-capped", drawn = MAX_DRAWN, n = n)
    } else {
        crate::message!("figure-complexity-paths", n = n)
    }
}

/// The title over the figure's CNN.
pub fn cnn_title(k: usize) -> String {
    crate::message!("figure-complexity-cnn-title", k = k)
}

/// The figure's CNN path length for m drawn positions.
pub fn cnn_path_label(m: usize, k: usize) -> String {
    match cnn_layers_to_connect(m, k) {
        None => crate::message!("figure-complexity-cnn-path-never"),
        Some(l) => crate::message!("figure-complexity-cnn-path", layers = l.max(1)),
    }
}

/// The figure's RNN path length for m drawn positions: one edge up, m − 1 along the chain.
pub fn rnn_path_label(m: usize) -> String {
    if m > 1 {
        crate::message!("figure-complexity-rnn-path", m = m, along = m - 1)
    } else {
        "1".to_string()
    }
}

#[cfg(test)]
mod tests;
