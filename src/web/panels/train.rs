//! "Can a model learn its positions?": the chapter's exercise 2, trained live. The reader picks a
//! task and the encodings; Train deals them out to Web Workers (`web::train_workers`), whose
//! reports arrive as panel events and fill a [`TrainRun`]; the figures (`train_figures`) and
//! `stats.panels.train` are drawn from it. The settings are part of the page's state and link;
//! the run and its results belong to this panel and stay while the reader scrolls away.
//!
//! [`TrainPanel`] runs in the training module (`web::train_module`), which the page fetches when
//! the panel is first needed; the page's side (`train_loader`) writes the settings' fields and,
//! until the module is in, the lines before a run and the stats, with the functions of
//! `train_fields` (re-exported here).

#[path = "train_fields.rs"]
mod fields;

use js_sys::Function;
use wasm_bindgen::JsValue;
use web_sys::{HtmlButtonElement, HtmlCanvasElement, HtmlElement, HtmlSelectElement};

use super::super::action::{Action, PanelEvent, TrainCommand};
use super::super::dom::{self, listen, now_ms};
use super::super::error::WebError;
use super::super::train_workers::TrainWorkers;
use super::train_figures;
use crate::model::figure_style::FigureStyle;
use crate::model::panels::PanelId;
use crate::model::train::device::TrainerChoice;
use crate::model::train::run::TrainRun;
use crate::model::train::{self as train_model, TrainEncoding, TrainSettings};
use fields::stats_value;
pub use fields::{
    device_line_before_run, idle_stats, render_before_run, show_settings, wire_settings,
    write_takeaway, TrainFields,
};
use pe_lab_train::protocol::{Report, Request};

crate::element_table! {
    /// The run's buttons, figures and read-outs (the training module's).
    pub struct TrainDom {
        pause: HtmlButtonElement = "train-pause",
        reset: HtmlButtonElement = "train-reset",
        loss: HtmlCanvasElement = "train-loss",
        accuracy: HtmlCanvasElement = "train-accuracy",
        table: HtmlCanvasElement = "train-table",
        sinusoid: HtmlCanvasElement = "train-p",
        gram: HtmlCanvasElement = "train-gram",
        gram_p: HtmlCanvasElement = "train-gram-p",
        spread: HtmlElement = "train-spread",
        attention_choice: HtmlSelectElement = "train-attn-enc",
        attention: HtmlCanvasElement = "train-attention",
        attention_readout: HtmlElement = "train-attn-readout",
        results: HtmlElement = "train-results",
        findings: HtmlElement = "train-findings",
        verdict_more: HtmlElement = "train-verdict-more",
        verdict_detail: HtmlElement = "train-verdict-detail",
    }
}

/// What the training panel renders with. The panel runs in its own wasm module
/// (`train_module`, fetched when the panel is first needed), so it takes only what the page
/// hands over: its settings as the link writes them, whether it is on screen and why the page
/// computes on the CPU.
pub struct TrainCtx<'a> {
    pub train: &'a TrainSettings,
    pub style: &'a FigureStyle,
    /// Whether the panel is on screen: draw its canvases, or only compute its numbers.
    pub draw: bool,
    /// An offscreen canvas for cell images.
    pub scratch: &'a HtmlCanvasElement,
    /// Why the page computes on the CPU (`None`: it computes on WebGPU).
    pub page_cpu_reason: Option<String>,
    /// Where the panel's own events (a worker's report, the next group of figures) are sent.
    pub send: fn(Action),
}

/// The figures are drawn again at most this often while a run reports (each report is a few
/// steps; drawing every one would spend the main thread on charts).
const REDRAW_EVERY_MS: f64 = 250.0;

pub struct TrainPanel {
    fields: TrainFields,
    dom: TrainDom,
    workers: TrainWorkers,
    run: Option<TrainRun>,
    next_run: u32,
    /// The reader pressed Pause (the tab being hidden pauses too, without this).
    paused_by_reader: bool,
    hidden: bool,
    /// When the run's wall clock last started (`None` while it stands).
    clock_since: Option<f64>,
    /// Bumped when the figures must be drawn again (part of the panel's inputs).
    version: u64,
    last_drawn_ms: f64,
    /// `peLab.train()` promises waiting for the run's end.
    waiting: Vec<(Function, Function)>,
    /// The encoding whose attention map is shown (the reader's choice).
    attention_encoding: Option<TrainEncoding>,
    /// The settings as last rendered (what `stats` describes before a run).
    settings: TrainSettings,
    /// What the figures other than the loss chart were last drawn from, and the group of them
    /// still to draw (one per frame).
    static_drawn: Option<String>,
    static_stage: Option<usize>,
    /// Why the page computes on the CPU (`None`: it computes on WebGPU), as last rendered (the
    /// backend is part of the panel's inputs): where a run with `trainer=auto` trains depends on
    /// it, and `stats` has no context to read it from.
    page_cpu_reason: Option<String>,
}

impl TrainPanel {
    /// The figures when the panel is drawn, in groups over several frames (see
    /// [`train_figures::draw`]).
    fn draw_figures(&mut self, ctx: &mut TrainCtx) -> Result<(), WebError> {
        if ctx.draw {
            self.last_drawn_ms = now_ms();
            let key = train_figures::static_key(ctx, self.run.as_ref(), self.attention_encoding);
            if self.static_drawn.as_ref() != Some(&key) {
                self.static_drawn = Some(key);
                self.static_stage = Some(0);
            } else if let Some(stale) = train_figures::first_stage_out_of_date(
                &self.dom,
                self.run.is_some(),
                // A canvas no group has drawn yet waits for the groups still pending.
                self.static_stage.is_none(),
            ) {
                // A canvas resized or moved to another pixel ratio is drawn again, also while
                // later groups are still pending (a group left pending while the panel was off
                // screen would otherwise skip the earlier ones for good).
                self.static_stage = Some(self.static_stage.map_or(stale, |s| s.min(stale)));
            }
            let next = train_figures::draw(
                ctx,
                &self.dom,
                self.run.as_ref(),
                self.attention_encoding,
                self.static_stage,
            )?;
            if self.static_stage.is_some() {
                self.static_stage = next;
                if next.is_some() {
                    // The next group of figures in the next frame.
                    (ctx.send)(Action::Panel {
                        panel: PanelId::Train,
                        event: PanelEvent::Train(TrainCommand::DrawMore),
                    });
                }
            }
        }
        Ok(())
    }

    pub fn mount() -> Result<Self, WebError> {
        Ok(TrainPanel {
            fields: TrainFields::mount()?,
            dom: TrainDom::mount()?,
            workers: TrainWorkers::default(),
            run: None,
            next_run: 1,
            paused_by_reader: false,
            hidden: false,
            clock_since: None,
            version: 0,
            last_drawn_ms: f64::NEG_INFINITY,
            waiting: Vec::new(),
            attention_encoding: None,
            settings: TrainSettings::default(),
            static_drawn: None,
            static_stage: None,
            page_cpu_reason: Some("starting".into()),
        })
    }

    fn running(&self) -> bool {
        self.run.as_ref().is_some_and(TrainRun::is_running)
    }

    /// Adds the time since the clock last started to the run's wall clock.
    fn stop_clock(&mut self) {
        if let (Some(since), Some(run)) = (self.clock_since.take(), self.run.as_mut()) {
            run.wall_seconds += (now_ms() - since) / 1000.0;
        }
    }

    fn start_clock(&mut self) {
        if self.running() && !self.paused_by_reader && !self.hidden {
            self.clock_since.get_or_insert_with(now_ms);
        }
    }

    /// Where a run of `settings` trains when it is decided without a trial.
    fn choice_before_trial(&self, settings: &TrainSettings) -> Option<TrainerChoice> {
        train_model::choose_before_trial(settings.trainer, self.page_cpu_reason.as_deref())
    }

    fn start(&mut self, ctx: &TrainCtx) -> Result<(), WebError> {
        let (settings, send) = (ctx.train, ctx.send);
        self.page_cpu_reason = ctx.page_cpu_reason.clone();
        self.stop_clock();
        let id = self.next_run;
        self.next_run = self.next_run.wrapping_add(1).max(1);
        let count = TrainWorkers::count_for(settings.encodings.len());
        let choice = self.choice_before_trial(settings);
        self.run = Some(TrainRun::new(id, settings, count, choice.clone()));
        self.paused_by_reader = false;
        self.attention_encoding = None;
        match choice {
            Some(choice) => self
                .workers
                .start(id, settings, count, choice.device, send)?,
            // The clock starts with the run itself, once the trial has decided.
            None => return self.workers.start_trial(id, settings, send),
        }
        if self.hidden {
            self.workers.tell(&Request::Pause);
        }
        self.start_clock();
        Ok(())
    }

    /// Starts the run's workers on the device the trial chose.
    fn start_after_trial(&mut self, send: fn(Action)) -> Result<(), WebError> {
        let Some(run) = self.run.as_ref() else {
            return Ok(());
        };
        let Some(device) = run.device else {
            return Ok(());
        };
        let settings = run.settings();
        self.workers
            .start(run.id, &settings, run.workers, device, send)?;
        if self.paused_by_reader || self.hidden {
            self.workers.tell(&Request::Pause);
        }
        self.start_clock();
        Ok(())
    }

    /// Settles the waiting `peLab.train()` promises with the run's numbers.
    fn settle(&mut self, failure: Option<&str>) {
        let stats = self.stats();
        for (resolve, reject) in self.waiting.drain(..) {
            let _ = match failure {
                None => resolve.call1(&JsValue::NULL, &stats),
                Some(message) => reject.call1(
                    &JsValue::NULL,
                    &js_sys::Error::new(&format!("training failed: {message}")).into(),
                ),
            };
        }
    }

    fn command(&mut self, ctx: &mut TrainCtx, command: TrainCommand) -> Result<(), WebError> {
        match command {
            TrainCommand::Start(promise) => {
                self.start(ctx)?;
                if let Some(promise) = promise {
                    self.waiting.push((promise.resolve, promise.reject));
                }
            }
            TrainCommand::PauseOrResume => {
                if self.running() {
                    self.paused_by_reader = !self.paused_by_reader;
                    self.apply_pause();
                }
            }
            TrainCommand::Stop | TrainCommand::Reset => {
                self.stop_clock();
                self.workers.stop();
                if let Some(run) = self.run.as_mut() {
                    if run.is_running() {
                        run.failure = Some(crate::training_message!("train-failure-stopped"));
                    }
                }
                self.settle(None);
                if matches!(command, TrainCommand::Reset) {
                    self.run = None;
                }
            }
            TrainCommand::Hidden(hidden) => {
                self.hidden = hidden;
                self.apply_pause();
            }
            TrainCommand::ShowAttention(name) => {
                self.attention_encoding = TrainEncoding::from_link(&name);
            }
            TrainCommand::DrawMore | TrainCommand::ModuleLoaded | TrainCommand::Wake => {}
        }
        self.version += 1;
        Ok(())
    }

    fn apply_pause(&mut self) {
        let paused = self.paused_by_reader || self.hidden;
        if let Some(run) = self.run.as_mut() {
            run.paused = paused;
        }
        if paused {
            self.stop_clock();
            self.workers.tell(&Request::Pause);
        } else {
            self.workers.tell(&Request::Resume);
            self.start_clock();
        }
    }

    /// A worker's report. Returns whether the figures should be drawn now.
    fn report(&mut self, report: Report, send: fn(Action)) -> bool {
        let Some(run) = self.run.as_mut() else {
            return false;
        };
        if matches!(report, Report::Trial { .. }) {
            let measuring = run.is_measuring();
            if !run.absorb(report) || !measuring {
                return false;
            }
            if let Err(error) = self.start_after_trial(send) {
                if let Some(run) = self.run.as_mut() {
                    run.failure = Some(error.to_string());
                }
                self.settle(Some(&error.to_string()));
            }
            self.version += 1;
            return true;
        }
        let failure = match &report {
            Report::Failed { message, .. } => Some(message.clone()),
            _ => None,
        };
        // A result, a failure and a fall-back to the CPU are shown at once.
        let finishing =
            matches!(report, Report::Done { .. } | Report::Fallback { .. }) || failure.is_some();
        if !run.absorb(report) {
            return false;
        }
        // The wall clock is read at every report, so that steps per second are current.
        if let Some(since) = self.clock_since {
            let now = now_ms();
            run.wall_seconds += (now - since) / 1000.0;
            self.clock_since = Some(now);
        }
        let ended = !run.is_running();
        if ended {
            self.stop_clock();
            self.workers.stop();
            self.settle(failure.as_deref());
        }
        let due = now_ms() - self.last_drawn_ms >= REDRAW_EVERY_MS;
        if finishing || ended || due {
            self.version += 1;
            true
        } else {
            false
        }
    }

    /// The run's buttons: what Train, Pause and Reset do now.
    fn show_run_buttons(&self) {
        let dom = &self.dom;
        let running = self.running();
        // While a run goes, the button starts it over; after one, it trains again.
        let start = if running {
            crate::training_message!("train-button-start-over")
        } else if self.run.is_some() {
            crate::training_message!("train-button-train-again")
        } else {
            crate::training_message!("train-button-train")
        };
        self.fields.start.set_text_content(Some(&start));
        dom.pause.set_disabled(!running);
        let pause = if self.paused_by_reader {
            crate::training_message!("train-button-resume")
        } else {
            crate::training_message!("train-button-pause")
        };
        dom.pause.set_text_content(Some(&pause));
        dom.reset.set_disabled(self.run.is_none());
    }

    /// Computes the run's numbers and lines and, when `ctx.draw`, draws its figures.
    pub fn render(&mut self, ctx: &mut TrainCtx) -> Result<(), WebError> {
        self.settings = ctx.train.clone();
        self.page_cpu_reason = ctx.page_cpu_reason.clone();
        self.show_run_buttons();
        let settings_changed = self.run.as_ref().is_some_and(|run| {
            run.config != ctx.train.config
                || run.encodings != ctx.train.encodings
                || run.request != ctx.train.trainer
                || run.seeds.len() != ctx.train.seeds
        });
        let progress = train_figures::progress_text(self.run.as_ref(), settings_changed);
        let device_line = match &self.run {
            Some(run) => run.device_reason.clone(),
            None => device_line_before_run(ctx.train, ctx.page_cpu_reason.as_deref()),
        };
        // The lines are written after the figures: the figures read their canvases' sizes, and a
        // read after a write of text would make the browser lay the page out twice in a frame.
        let drawn = self.draw_figures(ctx);
        dom::text(&self.fields.progress, &progress);
        dom::text(&self.fields.device, &device_line);
        // The takeaway is written whether or not the panel is on screen: it is the panel's word
        // in the lesson, and the static page carries the default one.
        let takeaway = crate::model::train::findings::takeaway(self.run.as_ref(), ctx.train);
        write_takeaway(&self.fields, &takeaway);
        drawn
    }

    /// Bumped whenever the figures must be drawn again.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// `stats.panels.train`.
    pub fn stats(&self) -> JsValue {
        match &self.run {
            Some(run) => stats_value(&run.stats()),
            None => idle_stats(&self.settings, self.page_cpu_reason.as_deref()),
        }
    }

    /// The run's own listeners: Train, Pause, Reset, the attention map's encoding and the tab's
    /// visibility. (The settings' fields belong to the page: [`wire_settings`].)
    pub fn wire_run(&self, send: fn(Action)) -> Result<(), WebError> {
        let command = move |command: TrainCommand| {
            send(Action::Panel {
                panel: PanelId::Train,
                event: PanelEvent::Train(command),
            })
        };
        listen(&self.fields.start, "click", move |_| {
            command(TrainCommand::Start(None))
        })?;
        listen(&self.dom.pause, "click", move |_| {
            command(TrainCommand::PauseOrResume)
        })?;
        listen(&self.dom.reset, "click", move |_| {
            command(TrainCommand::Reset)
        })?;
        let choice = self.dom.attention_choice.clone();
        listen(&self.dom.attention_choice, "change", move |_| {
            command(TrainCommand::ShowAttention(choice.value()))
        })?;
        if let Some(document) = web_sys::window().and_then(|w| w.document()) {
            let page = document.clone();
            listen(&document, "visibilitychange", move |_| {
                command(TrainCommand::Hidden(page.hidden()))
            })?;
        }
        Ok(())
    }

    /// A command or a worker's report. Returns whether the panel must be rendered again.
    pub fn event(&mut self, ctx: &mut TrainCtx, event: PanelEvent) -> Result<bool, WebError> {
        match event {
            PanelEvent::TrainReport(report) => Ok(self.report(*report, ctx.send)),
            PanelEvent::Train(command) => {
                self.command(ctx, command)?;
                Ok(true)
            }
            _ => Ok(false),
        }
    }
}
