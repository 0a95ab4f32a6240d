//! Panel 6, CNN vs RNN vs self-attention: the chapter's comparison as a table, filled with the
//! counts for n, d and the kernel size k (the CNN's maximum path length exact, next to d2l's
//! O(n/k)), a log–log plot of the operations against n (self-attention overtakes the RNN at
//! n = d), the chapter's connectivity figure drawn for n and k, and this page's own time for the
//! attention kernel at n × d: the GPU attention kernel on WebGPU (wall clock around submit +
//! read-back of one weight), `math::attention::weights` on the CPU (only up to n²·d ≤ 2²⁷).
//! Measured by a button, and by itself during the render at a size small enough not to disturb a
//! slider.

use crate::model::inputs::Inputs;
use crate::model::tables::PanelId;
use serde::Serialize;
use wasm_bindgen::JsValue;
use web_sys::{HtmlButtonElement, HtmlCanvasElement, HtmlElement};

use super::super::action::{Action, PanelEvent};
use super::super::backend::Timing;
use super::super::dom::{self, listen, now_ms};
use super::super::error::WebError;
use super::super::panel::{to_js, Panel, PanelSpec};
use super::complexity_chart::draw_chart;
use super::complexity_paths::{draw_paths, drawn_positions};
use super::{elapsed, Ctx};
use crate::math::complexity::{
    cnn_dilated_layers_to_connect, cnn_layers_to_connect, crossover_n, crossover_n_cnn,
    layer_costs, Cost,
};
use crate::math::panels::{cpu_can_measure, CPU_MEASURE_BUDGET};
use crate::model::present::{duration_ms, plural};

/// Sizes measured by themselves shortly after a change (n²·d multiply-adds): about 10 ms on the
/// CPU, and what a software GPU does in a fraction of a second.
const CPU_AUTO_BUDGET: u64 = 1 << 24;
const GPU_AUTO_BUDGET: u64 = 1 << 27;
/// Timed runs on the GPU; the fastest is shown.
const GPU_RUNS: usize = 3;

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

pub fn render(
    ctx: &mut Ctx,
    dom: &ComplexityDom,
    measure: &MeasureState,
) -> Result<ComplexityStats, WebError> {
    let started = now_ms();
    let (n, d, k) = ctx.settings.complexity(ctx.params.n, ctx.params.d);
    let costs = layer_costs(n, d, k)?;
    for (cells, cost) in [
        ([&dom.cnn_ops, &dom.cnn_seq, &dom.cnn_path], costs.cnn),
        ([&dom.rnn_ops, &dom.rnn_seq, &dom.rnn_path], costs.rnn),
        (
            [&dom.sa_ops, &dom.sa_seq, &dom.sa_path],
            costs.self_attention,
        ),
    ] {
        let [ops, seq, path] = cells;
        dom::text(ops, &format_count(cost.operations));
        dom::text(seq, &format_count(cost.sequential_operations));
        dom::text(path, &format_count(cost.max_path_length));
    }
    let layers = cnn_layers_to_connect(n, k);
    let dilated = cnn_dilated_layers_to_connect(n, k);
    dom::text(&dom.cnn_path, &cnn_path_cell(n, k, layers));
    let cross = crossover_n(d);
    let cross_cnn = crossover_n_cnn(d, k);
    let cheaper = if n < cross {
        format!("here n = {n} < d: self-attention needs fewer operations than the RNN")
    } else if n == cross {
        format!("here n = d = {n}: the two cost the same")
    } else {
        format!(
            "here n = {n} > d: the RNN needs fewer operations, but {n} sequential steps against 1"
        )
    };
    dom::text(
        &dom.crossover,
        &format!(
            "Self-attention's n²·d overtakes the RNN's n·d² at n = d = {cross} ({cheaper}); the CNN's k·n·d² at n = k·d = {cross_cnn}. {}",
            path_sentence(n, k, layers, dilated)
        ),
    );
    if ctx.draw {
        draw_chart(&dom.chart, n, d, k)?;
        draw_paths(&dom.paths, n, k)?;
    }

    let backend = ctx.backend.name();
    let current = measure
        .result
        .as_ref()
        .is_some_and(|m| (m.n, m.d, m.backend) == (n, d, backend));
    let what = |backend: &str| {
        if backend == "webgpu" {
            "the WebGPU attention kernel (one head, no mask; wall clock from submit to the read-back of one weight, fastest of 3)".to_string()
        } else {
            "the page's CPU attention code (Rust, compiled to WebAssembly; one head, no mask)"
                .to_string()
        }
    };
    let what_measured = |m: &Measurement| {
        if m.backend == "webgpu" {
            what(m.backend)
        } else {
            format!(
                "the page's CPU attention code (Rust, compiled to WebAssembly; one head, no mask; mean of {})",
                plural(m.runs, "run", "runs")
            )
        }
    };
    let note = if measure.running == Some((n, d)) {
        format!("Measuring the attention kernel at n = {n}, d = {d}…")
    } else if let Some((rn, rd, why)) = measure.refused.as_ref().filter(|r| (r.0, r.1) == (n, d)) {
        format!("No time at n = {rn}, d = {rd}: {why}")
    } else if let Some(m) = &measure.result {
        let time = format!(
            "{} for {} at n = {}, d = {}",
            duration_ms(m.ms),
            what_measured(m),
            m.n,
            m.d
        );
        if current {
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
            what(backend)
        )
    };
    dom::text(&dom.measured, &note);
    let result = measure.result.as_ref();
    Ok(ComplexityStats {
        n,
        d,
        k,
        cnn: costs.cnn.into(),
        rnn: costs.rnn.into(),
        self_attention: costs.self_attention.into(),
        crossover_n: cross,
        crossover_n_cnn: cross_cnn,
        cnn_layers_to_connect: layers,
        cnn_dilated_layers_to_connect: dilated,
        drawn_positions: drawn_positions(n),
        measured_attention_ms: result.map(|m| m.ms),
        measured_n: result.map(|m| m.n),
        measured_runs: result.map(|m| m.runs),
        measured_d: result.map(|m| m.d),
        measured_on: result.map(|m| m.backend),
        measured_current: current,
        measuring: measure.running.is_some(),
        measure_note: note,
        ms: elapsed(started),
    })
}

/// The CNN's maximum-path-length cell: the exact layer count, and d2l's O(n/k).
fn cnn_path_cell(n: usize, k: usize, layers: Option<usize>) -> String {
    match layers {
        None => "never (kernel 1; d2l: O(n/k))".to_string(),
        Some(0) => "1 layer (n = 1)".to_string(),
        Some(l) => format!(
            "{} = ⌈{}/{}⌉ (d2l: O(n/k))",
            plural(l, "layer", "layers"),
            n - 1,
            k - 1
        ),
    }
}

/// The three path-length quantities in words: the exact stacked count (the table's), d2l's O(n/k)
/// and the dilated O(log_k n).
fn path_sentence(n: usize, k: usize, layers: Option<usize>, dilated: Option<usize>) -> String {
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

/// Operation counts, readable: 184 320, 1.84e9.
fn format_count(x: f64) -> String {
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

crate::element_table! {
    pub struct ComplexityDom {
        cnn_ops: HtmlElement = "cx-cnn-ops",
        cnn_seq: HtmlElement = "cx-cnn-seq",
        cnn_path: HtmlElement = "cx-cnn-path",
        rnn_ops: HtmlElement = "cx-rnn-ops",
        rnn_seq: HtmlElement = "cx-rnn-seq",
        rnn_path: HtmlElement = "cx-rnn-path",
        sa_ops: HtmlElement = "cx-sa-ops",
        sa_seq: HtmlElement = "cx-sa-seq",
        sa_path: HtmlElement = "cx-sa-path",
        chart: HtmlCanvasElement = "complexity-chart",
        paths: HtmlCanvasElement = "complexity-paths",
        crossover: HtmlElement = "complexity-crossover",
        measured: HtmlElement = "complexity-measured",
        measure: HtmlButtonElement = "measure-button",
    }
}

pub struct ComplexityPanel {
    spec: &'static PanelSpec,
    dom: ComplexityDom,
    stats: ComplexityStats,
    measure: MeasureState,
}

impl ComplexityPanel {
    pub fn mount(spec: &'static PanelSpec) -> Result<Self, WebError> {
        Ok(ComplexityPanel {
            spec,
            dom: ComplexityDom::mount()?,
            stats: ComplexityStats::default(),
            measure: MeasureState::default(),
        })
    }

    /// Whether to time the kernel by itself now: a size small enough not to disturb a slider, not
    /// timed yet (nor refused, nor being timed). Timing in the render itself, not after it, keeps
    /// the page's own time there without a button press and without an extra frame; on WebGPU the
    /// runs finish later and `whenDrawn` waits for them.
    fn wants_auto_measure(&self, ctx: &Ctx) -> bool {
        let (n, d, _) = ctx.settings.complexity(ctx.params.n, ctx.params.d);
        let backend = ctx.backend.name();
        let measure = &self.measure;
        let work = (n as u64) * (n as u64) * (d as u64);
        let budget = if ctx.backend.is_gpu() {
            GPU_AUTO_BUDGET
        } else {
            CPU_AUTO_BUDGET
        };
        let done = measure
            .result
            .as_ref()
            .is_some_and(|m| (m.n, m.d, m.backend) == (n, d, backend));
        let refused = measure
            .refused
            .as_ref()
            .is_some_and(|r| (r.0, r.1) == (n, d));
        !(done || refused || work > budget || measure.running.is_some())
    }

    fn measure(&mut self, ctx: &mut Ctx) {
        let (n, d, _) = ctx.settings.complexity(ctx.params.n, ctx.params.d);
        if self.measure.running.is_some() {
            return;
        }
        let backend = ctx.backend.name();
        match ctx.backend.begin_timing(n, d, ctx.params.base) {
            Timing::Done { ms, runs } => {
                self.measure.result = Some(Measurement {
                    n,
                    d,
                    backend,
                    ms,
                    runs,
                });
                self.measure.refused = None;
            }
            Timing::Refused(reason) => self.measure.refused = Some((n, d, reason)),
            Timing::Pending(pending) => {
                self.measure.running = Some((n, d));
                let (send, panel) = (ctx.send, ctx.panel);
                wasm_bindgen_futures::spawn_local(async move {
                    let result = pending.await.map(|best| (best, 0));
                    send(Action::Panel {
                        panel,
                        event: PanelEvent::Timed {
                            n,
                            d,
                            result: result.map_err(|e| e.to_string()),
                        },
                    });
                });
            }
        }
    }

    /// A step of a GPU timing finished: run the next, or keep the fastest.
    fn timed(&mut self, ctx: &mut Ctx, n: usize, d: usize, result: Result<(f64, usize), String>) {
        let measure = &mut self.measure;
        match result {
            Ok((best, runs)) if runs < GPU_RUNS => match ctx.backend.time_run(n, d) {
                Timing::Pending(pending) => {
                    let (send, panel) = (ctx.send, ctx.panel);
                    wasm_bindgen_futures::spawn_local(async move {
                        let result = pending.await.map(|ms| (best.min(ms), runs + 1));
                        send(Action::Panel {
                            panel,
                            event: PanelEvent::Timed {
                                n,
                                d,
                                result: result.map_err(|e| e.to_string()),
                            },
                        });
                    });
                }
                Timing::Done { ms, .. } => {
                    measure.running = None;
                    measure.result = Some(Measurement {
                        n,
                        d,
                        backend: ctx.backend.name(),
                        ms: best.min(ms),
                        runs: runs + 1,
                    });
                }
                Timing::Refused(reason) => {
                    measure.running = None;
                    measure.refused = Some((n, d, reason));
                }
            },
            Ok((best, runs)) => {
                measure.running = None;
                measure.result = Some(Measurement {
                    n,
                    d,
                    backend: ctx.backend.name(),
                    ms: best,
                    runs,
                });
                measure.refused = None;
            }
            Err(reason) => {
                measure.running = None;
                measure.refused = Some((n, d, reason));
            }
        }
    }
}

impl Panel for ComplexityPanel {
    fn spec(&self) -> &'static PanelSpec {
        self.spec
    }

    fn inputs(&self, ctx: &Ctx) -> Inputs {
        let (n, d, k) = ctx.settings.complexity(ctx.params.n, ctx.params.d);
        Inputs::new()
            .with(n)
            .with(d)
            .with(k)
            .with(ctx.backend.name())
            .with_debug(&self.measure)
    }

    fn render(&mut self, ctx: &mut Ctx) -> Result<(), WebError> {
        if self.wants_auto_measure(ctx) {
            self.measure(ctx);
        }
        self.stats = render(ctx, &self.dom, &self.measure)?;
        Ok(())
    }

    fn stats(&self) -> Option<JsValue> {
        Some(to_js(&self.stats))
    }

    fn error_slot(&self) -> &HtmlElement {
        &self.dom.crossover
    }

    fn wire(&self, panel: PanelId, send: fn(Action)) -> Result<(), WebError> {
        listen(&self.dom.measure, "click", move |_| {
            send(Action::Panel {
                panel,
                event: PanelEvent::Measure { auto: false },
            })
        })
    }

    fn event(&mut self, ctx: &mut Ctx, event: PanelEvent) -> Result<bool, WebError> {
        match event {
            PanelEvent::Measure { .. } => self.measure(ctx),
            PanelEvent::Timed { n, d, result } => self.timed(ctx, n, d, result),
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn busy(&self) -> bool {
        self.measure.running.is_some()
    }
}
