//! The complexity panel (CNN vs RNN vs self-attention) without the DOM: the table's counts for n,
//! d and k, the crossovers, the state of the page's own timing of the attention kernel, the
//! crossover marks of the log–log chart, and every sentence, cell and label that states these numbers. Tested
//! natively; `web::panels::complexity` (with `complexity_chart` and `complexity_paths`) draws,
//! times and wires.

use serde::Serialize;

use super::present::{duration_ms, plural};
use crate::math::complexity::{
    cnn_dilated_layers_to_connect, cnn_layers_to_connect, crossover_n, crossover_n_cnn,
    layer_costs, ComplexityError, Cost,
};
use crate::math::measures::{cpu_can_measure, CPU_MEASURE_BUDGET};

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
        None => "never (kernel 1; d2l: O(n/k))".to_string(),
        Some(0) => "1 layer (n = 1)".to_string(),
        Some(l) => format!(
            "{} = ⌈{}/{}⌉ (d2l: O(n/k))",
            plural(l, "layer", "layers"),
            n.saturating_sub(1),
            k.saturating_sub(1)
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
        format!("here n = {n} < d: self-attention needs fewer operations than the RNN")
    } else if n == cross {
        format!("here n = d = {n}: the two cost the same")
    } else {
        format!(
            "here n = {n} > d: the RNN needs fewer operations, but {n} sequential steps against 1"
        )
    };
    format!(
        "Self-attention's n²·d overtakes the RNN's n·d² at n = d = {cross} ({cheaper}); the CNN's k·n·d² at n = k·d = {cross_cnn}. {}",
        path_sentence(n, stats.k, layers, dilated)
    )
}

/// The three path-length quantities in words: the exact stacked count (the table's), d2l's O(n/k)
/// and the dilated O(log_k n).
pub fn path_sentence(n: usize, k: usize, layers: Option<usize>, dilated: Option<usize>) -> String {
    match (layers, dilated) {
        (Some(l), Some(dl)) if n > 1 => format!(
            "Maximum path length of the CNN, three quantities: stacked layers of kernel {k} first let one unit see both position 0 and position {} after ⌈(n − 1)/(k − 1)⌉ = {} (the table's number; the figure below draws these layers); d2l writes this O(n/k); dilated layers (dilations 1, {k}, {}, …) would need ⌈log_k n⌉ = {}, O(log_k n). The RNN's path from the first input to the last hidden state has n = {n} edges; self-attention connects every pair in 1 layer.",
            n - 1,
            plural(l, "layer", "layers"),
            k * k,
            plural(dl, "layer", "layers"),
        ),
        _ if n <= 1 => "With a single position (n = 1) there is nothing to connect: every layer's path is 1 edge.".to_string(),
        _ => "A CNN of kernel 1, stacked or dilated, never connects two positions (d2l's O(n/k) does not apply at k = 1); the RNN's path from the first input to the last hidden state has n edges; self-attention connects every pair in 1 layer.".to_string(),
    }
}

/// What a time on `backend` measures; a finished CPU time says how many runs it is the mean of.
fn timed_code(backend: &str, runs: Option<usize>) -> String {
    match (backend, runs) {
        ("webgpu", _) => "the WebGPU attention kernel (one head, no mask; wall clock from submit to the read-back of one weight, fastest of 3)".to_string(),
        (_, None) => "the page's CPU attention code (Rust, compiled to WebAssembly; one head, no mask)".to_string(),
        (_, Some(runs)) => format!(
            "the page's CPU attention code (Rust, compiled to WebAssembly; one head, no mask; mean of {})",
            plural(runs, "run", "runs")
        ),
    }
}

/// The line under the Measure button: running, refused, measured (now or for another size), too
/// large for the CPU, or an invitation to press the button.
pub fn measure_note(n: usize, d: usize, backend: &str, measure: &MeasureState) -> String {
    if measure.running == Some((n, d)) {
        format!("Measuring the attention kernel at n = {n}, d = {d}…")
    } else if let Some((rn, rd, why)) = measure.refused.as_ref().filter(|r| (r.0, r.1) == (n, d)) {
        format!("No time at n = {rn}, d = {rd}: {why}")
    } else if let Some(m) = &measure.result {
        let time = format!(
            "{} for {} at n = {}, d = {}",
            duration_ms(m.ms),
            timed_code(m.backend, Some(m.runs)),
            m.n,
            m.d
        );
        if measure.has_result_for(n, d, backend) {
            format!("Measured: {time}.")
        } else {
            format!("Last measured: {time}. Press Measure for n = {n}, d = {d}.")
        }
    } else if backend == "cpu" && !cpu_can_measure(n, d) {
        format!(
            "n²·d = {} is too large for the CPU path at this size (limit {:.1e}).",
            format_count((n as f64) * (n as f64) * (d as f64)),
            CPU_MEASURE_BUDGET as f64
        )
    } else {
        format!(
            "Press Measure to time {} at n = {n}, d = {d}.",
            timed_code(backend, None)
        )
    }
}

/// Operation counts, readable: 184 320 (a narrow no-break space between thousands), 1.84e9.
pub fn format_count(x: f64) -> String {
    if x < 1e7 {
        let digits = format!("{x:.0}");
        let mut grouped = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i) % 3 == 0 {
                grouped.push('\u{202f}');
            }
            grouped.push(c);
        }
        grouped
    } else {
        format!("{x:.2e}")
    }
}

/// The chart's label of the CNN's curve.
pub fn cnn_curve_label(k: usize) -> String {
    format!("CNN k·n·d² (k = {k})")
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
        format!("Drawn for {MAX_DRAWN} positions, not n = {n} (too many to draw); the table has n = {n}.")
    } else {
        format!("{}, as in the table.", plural(n, "position", "positions"))
    }
}

/// The title over the figure's CNN.
pub fn cnn_title(k: usize) -> String {
    format!("CNN, kernel k = {k}")
}

/// The figure's CNN path length for m drawn positions.
pub fn cnn_path_label(m: usize, k: usize) -> String {
    match cnn_layers_to_connect(m, k) {
        None => "never (k = 1 connects nothing)".to_string(),
        Some(0) => "1 layer".to_string(),
        Some(l) => plural(l, "layer", "layers"),
    }
}

/// The figure's RNN path length for m drawn positions: one edge up, m − 1 along the chain.
pub fn rnn_path_label(m: usize) -> String {
    if m > 1 {
        format!("{m} (1 up, {} along)", m - 1)
    } else {
        "1".to_string()
    }
}

#[cfg(test)]
mod tests;
