//! Panel 6, CNN vs RNN vs self-attention: the chapter's table filled with the counts for n, d and
//! the kernel size k, a log–log plot of the operations against n (self-attention overtakes the RNN
//! at n = d), and this page's own time for the attention kernel at n × d: the GPU attention kernel
//! on WebGPU (wall clock around submit + read-back of one weight), `math::attention::weights` on
//! the CPU (only up to n²·d ≤ 2²⁷). Measured lazily: a button, and shortly after a change when the
//! size is small enough not to disturb a slider.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters_canvas::CanvasBackend;
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::HtmlCanvasElement;

use super::super::curves::PALETTE;
use super::super::dom::{self, element, now_ms, set_text};
use super::super::error::{draw_error, WebError};
use super::super::heatmap::{DESC_FONT, LABEL_FONT};
use super::super::{report, with_app, App, Backend};
use super::{elapsed, Ctx};
use crate::math::attention::weights;
use crate::math::complexity::{
    cnn_layers_to_connect, crossover_n, crossover_n_cnn, layer_costs, log_spaced_lengths, Cost,
};
use crate::math::encoding::try_sinusoidal;
use crate::math::panels::{cpu_can_measure, CPU_MEASURE_BUDGET};

/// Sizes measured by themselves shortly after a change (n²·d multiply-adds): about 10 ms on the
/// CPU, and what a software GPU does in a fraction of a second.
const CPU_AUTO_BUDGET: u64 = 1 << 24;
const GPU_AUTO_BUDGET: u64 = 1 << 27;
/// Timed runs on the GPU; the fastest is shown.
const GPU_RUNS: usize = 3;
/// The pause after the last change before an automatic measurement.
const AUTO_DELAY_MS: i32 = 400;

/// One timing of the attention kernel.
#[derive(Debug, Clone, PartialEq)]
pub struct Measurement {
    pub n: usize,
    pub d: usize,
    pub backend: &'static str,
    pub ms: f64,
}

/// The timing's state between frames.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MeasureState {
    pub result: Option<Measurement>,
    /// (n, d) being measured on the GPU.
    pub running: Option<(usize, usize)>,
    /// Why the last request gave no time (too large for the CPU, a GPU error).
    pub refused: Option<(usize, usize, String)>,
    /// The size an automatic measurement is scheduled for, and its timer's generation.
    scheduled: Option<(usize, usize, &'static str)>,
    generation: u32,
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
    /// The page's own time for the attention kernel at `measured_n` × `measured_d`.
    pub measured_attention_ms: Option<f64>,
    pub measured_n: Option<usize>,
    pub measured_d: Option<usize>,
    pub measured_on: Option<&'static str>,
    /// Whether the measurement is of the current n and d.
    pub measured_current: bool,
    pub measuring: bool,
    pub measure_note: String,
    pub ms: f64,
}

pub fn render(ctx: &mut Ctx, measure: &MeasureState) -> Result<ComplexityStats, WebError> {
    let started = now_ms();
    let (n, d, k) = ctx.lesson.complexity(ctx.params.n, ctx.params.d);
    let costs = layer_costs(n, d, k).map_err(|e| WebError::Js(e.to_string()))?;
    for (layer, cost) in [
        ("cnn", costs.cnn),
        ("rnn", costs.rnn),
        ("sa", costs.self_attention),
    ] {
        set_text(&format!("cx-{layer}-ops"), &format_count(cost.operations))?;
        set_text(
            &format!("cx-{layer}-seq"),
            &format_count(cost.sequential_operations),
        )?;
        set_text(
            &format!("cx-{layer}-path"),
            &format_count(cost.max_path_length),
        )?;
    }
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
    set_text(
        "complexity-crossover",
        &format!(
            "Self-attention's n²·d overtakes the RNN's n·d² at n = d = {cross} ({cheaper}); the CNN's k·n·d² at n = k·d = {cross_cnn}. {}",
            match cnn_layers_to_connect(n, k) {
                Some(layers) => format!("Stacked CNN layers of kernel {k} connect positions 0 and {} after {layers} layers; self-attention after 1.", n - 1),
                None => "A CNN of kernel 1 never connects two positions.".to_string(),
            }
        ),
    )?;
    if ctx.draw {
        draw_chart(n, d, k)?;
    }

    let backend = ctx.backend.name();
    let current = measure
        .result
        .as_ref()
        .is_some_and(|m| (m.n, m.d, m.backend) == (n, d, backend));
    let what = |backend: &str| {
        if backend == "webgpu" {
            "the WebGPU attention kernel (one head, no mask; wall clock from submit to the read-back of one weight, fastest of 3)"
        } else {
            "math::attention::weights on the CPU (one head, no mask)"
        }
    };
    let note = if measure.running == Some((n, d)) {
        format!("Measuring the attention kernel at n = {n}, d = {d}…")
    } else if let Some((rn, rd, why)) = measure.refused.as_ref().filter(|r| (r.0, r.1) == (n, d)) {
        format!("No time at n = {rn}, d = {rd}: {why}")
    } else if let Some(m) = &measure.result {
        let time = format!(
            "{:.2} ms for {} at n = {}, d = {}",
            m.ms,
            what(m.backend),
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
    set_text("complexity-measured", &note)?;
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
        cnn_layers_to_connect: cnn_layers_to_connect(n, k),
        measured_attention_ms: result.map(|m| m.ms),
        measured_n: result.map(|m| m.n),
        measured_d: result.map(|m| m.d),
        measured_on: result.map(|m| m.backend),
        measured_current: current,
        measuring: measure.running.is_some(),
        measure_note: note,
        ms: elapsed(started),
    })
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

/// A labelled, coloured curve of (n, operations).
type Curve = (String, RGBColor, Vec<(f64, f64)>);

/// Operations against n on log–log axes, the crossovers marked, the current n a dot.
fn draw_chart(n: usize, d: usize, k: usize) -> Result<(), WebError> {
    let canvas: HtmlCanvasElement = element("complexity-chart")?;
    let backend = CanvasBackend::with_canvas_object(canvas.clone())
        .ok_or_else(|| WebError::NoContext(canvas.id()))?;
    let root = backend.into_drawing_area();
    root.fill(&WHITE).map_err(draw_error)?;
    let high = (4 * n.max(k * d)).clamp(16, 10_000_000);
    let ns = log_spaced_lengths(1, high, 80);
    let curves: Vec<Curve> = [
        (format!("CNN k·n·d² (k = {k})"), PALETTE[2]),
        ("RNN n·d²".to_string(), PALETTE[0]),
        ("self-attention n²·d".to_string(), PALETTE[5]),
    ]
    .into_iter()
    .enumerate()
    .map(|(which, (label, colour))| {
        let points = ns
            .iter()
            .filter_map(|&m| layer_costs(m, d, k).ok().map(|c| (m, c)))
            .map(|(m, c)| {
                let ops = match which {
                    0 => c.cnn.operations,
                    1 => c.rnn.operations,
                    _ => c.self_attention.operations,
                };
                (m as f64, ops)
            })
            .collect();
        (label, colour, points)
    })
    .collect();
    let (low_y, high_y) = curves
        .iter()
        .flat_map(|(_, _, p)| p.iter().map(|&(_, y)| y))
        .fold((f64::INFINITY, 0.0f64), |(lo, hi), y| {
            (lo.min(y), hi.max(y))
        });
    let mut chart = ChartBuilder::on(&root)
        .margin(14)
        .x_label_area_size(50)
        .y_label_area_size(80)
        .build_cartesian_2d(
            (1f64..high as f64).log_scale(),
            (low_y.max(1.0) * 0.5..high_y * 2.0).log_scale(),
        )
        .map_err(draw_error)?;
    chart
        .configure_mesh()
        .light_line_style(WHITE.mix(0.0))
        .bold_line_style(BLACK.mix(0.08))
        .x_desc("Sequence length n (log)")
        .y_desc("Operations (log)")
        .label_style(LABEL_FONT)
        .axis_desc_style(DESC_FONT)
        .x_labels(8)
        .y_labels(8)
        .x_label_formatter(&|v| format_axis(*v))
        .y_label_formatter(&|v| format!("{v:.0e}"))
        .draw()
        .map_err(draw_error)?;
    for (label, colour, points) in &curves {
        let colour = *colour;
        chart
            .draw_series(LineSeries::new(points.clone(), colour.stroke_width(3)))
            .map_err(draw_error)?
            .label(label.clone())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 22, y)], colour.stroke_width(3))
            });
        // The current n.
        let at = layer_costs(n, d, k).map_err(|e| WebError::Js(e.to_string()))?;
        let y = if colour == PALETTE[2] {
            at.cnn.operations
        } else if colour == PALETTE[0] {
            at.rnn.operations
        } else {
            at.self_attention.operations
        };
        chart
            .draw_series(std::iter::once(Circle::new(
                (n as f64, y),
                6,
                colour.filled(),
            )))
            .map_err(draw_error)?;
    }
    // The crossovers: vertical lines at n = d and n = k·d.
    // The two labels sit at different heights; one near the right edge goes left of its line.
    for (x, text, colour, lift) in [
        (d as f64, format!("n = d = {d}"), BLACK, 3.0),
        (
            (k * d) as f64,
            format!("n = k·d = {}", k * d),
            PALETTE[2],
            60.0,
        ),
    ] {
        if x < 1.0 || x > high as f64 || (k == 1 && colour == PALETTE[2]) {
            continue;
        }
        let top = high_y * 2.0;
        let bottom = low_y.max(1.0) * 0.5;
        chart
            .draw_series(DashedLineSeries::new(
                vec![(x, bottom), (x, top)],
                6,
                4,
                colour.mix(0.7).stroke_width(2),
            ))
            .map_err(draw_error)?;
        let near_right = x > high as f64 / 10.0;
        let (at, anchor) = if near_right {
            (x / 1.08, Pos::new(HPos::Right, VPos::Bottom))
        } else {
            (x * 1.08, Pos::new(HPos::Left, VPos::Bottom))
        };
        chart
            .draw_series(std::iter::once(Text::new(
                text,
                (at, bottom * lift),
                LABEL_FONT.into_font().color(&colour).pos(anchor),
            )))
            .map_err(draw_error)?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK.mix(0.3))
        .label_font(LABEL_FONT)
        .draw()
        .map_err(draw_error)?;
    root.present().map_err(draw_error)?;
    Ok(())
}

fn format_axis(v: f64) -> String {
    if v >= 1e4 {
        format!("{v:.0e}")
    } else {
        format!("{v:.0}")
    }
}

impl App {
    /// Times the attention kernel at the complexity panel's n and d (the Measure button).
    pub(in crate::web) fn measure_attention(&mut self) -> Result<(), WebError> {
        let (n, d, _) = self.lesson.complexity(self.params.n, self.params.d);
        let base = self.params.base;
        let measure = &mut self.panels.measure;
        measure.scheduled = None;
        match &mut self.backend {
            Backend::Cpu => {
                if !cpu_can_measure(n, d) {
                    measure.refused = Some((
                        n,
                        d,
                        format!(
                            "too large for the CPU path at this size (n²·d > {:.1e}); the WebGPU path measures it",
                            CPU_MEASURE_BUDGET as f64
                        ),
                    ));
                } else {
                    let p = try_sinusoidal(n, d, base)?;
                    let started = now_ms();
                    let w = weights(p.view(), p.view(), None);
                    let ms = now_ms() - started;
                    std::hint::black_box(w[[0, 0]]);
                    measure.result = Some(Measurement {
                        n,
                        d,
                        backend: "cpu",
                        ms,
                    });
                    measure.refused = None;
                }
            }
            Backend::Gpu(gpu) => {
                if measure.running.is_some() {
                    return Ok(());
                }
                let ready = match gpu.prepare_measurement(n, d, base) {
                    Ok(ready) => ready,
                    Err(error) => {
                        measure.refused = Some((n, d, error.to_string()));
                        self.request_panels();
                        return Ok(());
                    }
                };
                measure.running = Some((n, d));
                wasm_bindgen_futures::spawn_local(async move {
                    // The fastest of a few runs: one run's wall clock also holds whatever else
                    // the browser's GPU process was doing.
                    let mut outcome = ready.await.map(|()| f64::INFINITY);
                    for _ in 0..GPU_RUNS {
                        let Ok(best) = outcome else { break };
                        let timed = with_app(|app| match &mut app.backend {
                            Backend::Gpu(gpu) => gpu.time_attention(n, d),
                            Backend::Cpu => Err(WebError::Gpu("WebGPU stopped".into())),
                        })
                        .unwrap_or_else(|| Err(WebError::Js("the app is busy".into())));
                        outcome = match timed {
                            Ok(future) => future.await.map(|ms| best.min(ms)),
                            Err(error) => Err(error),
                        };
                    }
                    report(with_app(|app| {
                        let measure = &mut app.panels.measure;
                        measure.running = None;
                        match outcome {
                            Ok(ms) => {
                                measure.result = Some(Measurement {
                                    n,
                                    d,
                                    backend: "webgpu",
                                    ms,
                                });
                                measure.refused = None;
                            }
                            Err(error) => measure.refused = Some((n, d, error.to_string())),
                        }
                        app.request_panels();
                        Ok(())
                    }));
                });
            }
        }
        self.request_panels();
        Ok(())
    }

    /// After a change of the complexity panel's n or d, measures by itself once the sliders rest
    /// (only sizes that take a moment; larger ones wait for the button).
    pub(super) fn schedule_auto_measure(&mut self) {
        let (n, d, _) = self.lesson.complexity(self.params.n, self.params.d);
        let backend = self.backend.name();
        let measure = &mut self.panels.measure;
        let work = (n as u64) * (n as u64) * (d as u64);
        let budget = if backend == "webgpu" {
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
        if done
            || refused
            || work > budget
            || measure.running.is_some()
            || measure.scheduled == Some((n, d, backend))
        {
            return;
        }
        measure.scheduled = Some((n, d, backend));
        measure.generation = measure.generation.wrapping_add(1);
        let generation = measure.generation;
        let Ok(window) = dom::window() else { return };
        let callback = Closure::once_into_js(move || {
            report(with_app(|app| {
                let measure = &app.panels.measure;
                if measure.generation != generation || measure.scheduled.is_none() {
                    return Ok(());
                }
                let (n, d, _) = app.lesson.complexity(app.params.n, app.params.d);
                if measure.scheduled != Some((n, d, app.backend.name())) {
                    return Ok(());
                }
                app.measure_attention()
            }))
        });
        let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(
            callback.unchecked_ref(),
            AUTO_DELAY_MS,
        );
    }
}
