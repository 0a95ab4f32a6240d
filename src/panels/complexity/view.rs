//! Panel 6, CNN vs RNN vs self-attention: the chapter's comparison as a table, filled with the
//! counts for n, d and the kernel size k (the CNN's maximum path length exact, next to d2l's
//! O(n/k)), a log–log plot of the operations against n (self-attention overtakes the RNN at
//! n = d), the chapter's connectivity figure drawn for n and k, and this page's own time for the
//! attention kernel at n × d: the GPU attention kernel on WebGPU (wall clock around submit +
//! read-back of one weight), `math::attention::weights` on the CPU (only up to n²·d ≤ 2²⁷).
//! Measured by a button, and by itself during the render at a size small enough not to disturb a
//! slider.

use crate::model::inputs::Inputs;
use crate::model::panels::PanelId;
use web_sys::{HtmlButtonElement, HtmlCanvasElement, HtmlElement};

use super::chart::draw_chart;
use super::paths::draw_paths;
use super::{
    compute, crossover_sentence, table_cells, wants_auto_measure, ComplexityStats, MeasureState,
    Measurement, GPU_RUNS,
};
use crate::web::action::{Action, PanelEvent};
use crate::web::backend::Timing;
use crate::web::dom::{self, listen, now_ms};
use crate::web::error::WebError;
use crate::web::panel::Panel;
use crate::web::panels::{elapsed, Ctx};

pub fn render(
    ctx: &mut Ctx,
    dom: &ComplexityDom,
    measure: &MeasureState,
) -> Result<ComplexityStats, WebError> {
    let started = now_ms();
    let (n, d, k) = ctx.settings.complexity(ctx.params.n, ctx.params.d);
    let mut stats = compute(n, d, k, ctx.backend.name(), measure)?;
    let rows = [
        [&dom.cnn_ops, &dom.cnn_seq, &dom.cnn_path],
        [&dom.rnn_ops, &dom.rnn_seq, &dom.rnn_path],
        [&dom.sa_ops, &dom.sa_seq, &dom.sa_path],
    ];
    for (cells, texts) in rows.iter().zip(table_cells(&stats)) {
        for (cell, text) in cells.iter().zip(texts) {
            dom::text(cell, &text);
        }
    }
    dom::text(&dom.crossover, &crossover_sentence(&stats));
    dom::text(&dom.takeaway, &super::takeaway::takeaway(&stats));
    if ctx.draw {
        draw_chart(&dom.chart, n, d, k, ctx.style)?;
        draw_paths(&dom.paths, n, k, ctx.style)?;
    }
    dom::text(&dom.measured, &stats.measure_note);
    stats.ms = elapsed(started);
    Ok(stats)
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
        takeaway: HtmlElement = "complexity-takeaway",
        measured: HtmlElement = "complexity-measured",
        measure: HtmlButtonElement = "measure-button",
    }
}

pub struct ComplexityPanel {
    dom: ComplexityDom,
    stats: ComplexityStats,
    measure: MeasureState,
}

impl ComplexityPanel {
    pub fn mount() -> Result<Self, WebError> {
        Ok(ComplexityPanel {
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
        wants_auto_measure(
            &self.measure,
            n,
            d,
            ctx.backend.name(),
            ctx.backend.is_gpu(),
        )
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
    fn inputs(&self, ctx: &Ctx) -> Inputs {
        let (n, d, k) = ctx.settings.complexity(ctx.params.n, ctx.params.d);
        Inputs::new()
            .with(n)
            .with(d)
            .with(k)
            .with(ctx.backend.name())
            .with_parts(&self.measure)
    }

    fn render(&mut self, ctx: &mut Ctx) -> Result<(), WebError> {
        if self.wants_auto_measure(ctx) {
            self.measure(ctx);
        }
        self.stats = render(ctx, &self.dom, &self.measure)?;
        Ok(())
    }

    crate::web::panel::stats_in!(stats);

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

/// The panel, mounted (its row of the panel list names this module).
#[inline(always)] // into the list's one `match` (see `crate::panels`)
pub fn mount() -> Result<Box<dyn crate::web::panel::Panel>, crate::web::error::WebError> {
    Ok(Box::new(ComplexityPanel::mount()?))
}
