//! The app: the one [`State`], the backend, the panels and the page's elements; [`App::dispatch`]
//! (every action) and [`App::frame`] (one render of whatever is stale).

use crate::model::inputs::Inputs;
use ndarray::Array2;
use wasm_bindgen::JsValue;
use web_sys::HtmlCanvasElement;

use super::action::{Action, PanelEvent};
use super::backend::{Backend, FrameData, LocalFuture};
use super::controls::Controls;
use super::dom;
use super::error::WebError;
use super::export;
use super::page::{self, PageDom};
use super::panel::{Ctx, Panel, PANELS};
use super::scheduler;
use super::stats::{StateView, Stats};
use crate::model::panels::PanelId;
use crate::model::plot::PixelRect;
use crate::model::query;
use crate::model::state::{Msg, State};

/// What the scheduler does after an action.
#[derive(Debug, Clone, Copy, Default)]
pub struct Effects {
    /// Something must be drawn: request an animation frame.
    pub frame: bool,
    /// The state changed: the address bar follows.
    pub url: bool,
}

/// What a frame left to do.
pub enum FrameStep {
    Done,
    /// The GPU's read-backs for frame `id` are on their way.
    Pending(u32, LocalFuture<Result<FrameData, WebError>>),
}

/// What is out of date since the last frame. (Which panels are stale is not kept here: each panel
/// is rendered when its `inputs()` differ from those it was last rendered with.)
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Stale {
    pub(super) encoding: bool,
    pub(super) controls: bool,
    pub(super) notices: bool,
    pub(super) view: bool,
}

impl Stale {
    /// Everything: the first frame, and after a change of backend.
    pub(super) const ALL: Stale = Stale {
        encoding: true,
        controls: true,
        notices: true,
        view: true,
    };
}

pub struct App {
    pub(super) state: State,
    pub(super) backend: Backend,
    pub(super) backend_chosen: bool,
    pub(super) panels: Vec<Box<dyn Panel>>,
    /// Per panel: the inputs it was last rendered with, and whether its canvases were drawn.
    pub(super) rendered: Vec<Option<(Inputs, bool)>>,
    pub(super) page: PageDom,
    pub(super) controls: Controls,
    /// The last frame of P.
    pub(super) frame: FrameData,
    pub(super) empty: Array2<f32>,
    /// The canvas P's cells are painted into (the heatmap panel's).
    pub(super) encoding_canvas: HtmlCanvasElement,
    /// Offscreen canvas the cell images are put into before being scaled onto a panel.
    pub(super) scratch: HtmlCanvasElement,
    pub(super) heatmap_rect: PixelRect,
    pub(super) stats: Stats,
    pub(super) notices: Vec<String>,
    pub(super) stale: Stale,
    /// The element the last action came from: a frame does not overwrite what is being dragged
    /// or typed.
    pub(super) editing: Option<String>,
    pub(super) frame_id: u32,
    pub(super) frame_in_flight: bool,
    /// The number of the last check on the GPU's queue, and whether that check has come back:
    /// panels drawn by render passes (the Gram, RoPE and ALiBi heatmaps) are only on screen once
    /// the GPU has run them, so `whenDrawn` waits for it.
    pub(super) gpu_queue_check: u32,
    pub(super) gpu_queue_busy: bool,
    pub(super) frame_started: f64,
    pub(super) ready_settled: bool,
    /// The first frame on the chosen backend is complete.
    pub(super) started: bool,
    /// Every panel's numbers were asked for (`peLab.ready`, `whenDrawn`): the off-screen panels
    /// are brought up to date one per task. Until then they wait until they are seen.
    pub(super) complete_wanted: bool,
    /// A deferred step is queued (one chain at a time).
    pub(super) deferred_scheduled: bool,
    /// A pointer is down on a slider: off-screen panels keep waiting (`model::schedule`).
    pub(super) slider_held: bool,
    /// The state last announced to the `change` listeners.
    pub(super) announced: Option<String>,
    /// A panel (a preset's, a lesson stop) to bring into view after the next frame.
    pub(super) show_section: Option<PanelId>,
    /// Off-screen panels whose numbers are to be brought up to date after the frame, one per
    /// task (see `App::render_deferred`): a frame only computes what is on screen.
    pub(super) deferred: Vec<PanelId>,
    /// Milliseconds each panel (in `PANELS` order) took the last time it was drawn.
    pub(super) panel_cost_ms: Vec<f64>,
    /// P is out of date: the last frame changed it while no panel on screen read it (CPU path).
    pub(super) encoding_waiting: bool,
    /// Panels on screen a frame left for the tasks right after it, its budget spent
    /// (`schedule::FRAME_BUDGET_MS`): one per task, so that input is handled in between.
    pub(super) follow_up: Vec<PanelId>,
    /// The values the panels share or keep between frames.
    pub(super) caches: super::panels::Caches,
    /// The figures' colours and type for the theme and mode the page shows (`page::figure_look`);
    /// when they change every figure is drawn again.
    pub(super) figure_style: crate::model::figure_style::FigureStyle,
    /// What the heatmap of P was last drawn from (`App::encoding_key`); `None` forces a redraw.
    pub(super) encoding_drawn: Option<Inputs>,
}

impl App {
    pub fn new(
        state: State,
        notices: Vec<String>,
        page: PageDom,
        controls: Controls,
        panels: Vec<Box<dyn Panel>>,
    ) -> Result<App, WebError> {
        let count = panels.len();
        let encoding_canvas = panels
            .iter()
            .find_map(|p| p.encoding_canvas())
            .cloned()
            .ok_or_else(|| WebError::MissingElement("the heatmap of P".into()))?;
        Ok(App {
            state,
            backend: Backend::cpu("starting"),
            backend_chosen: false,
            panels,
            rendered: vec![None; count],
            page,
            controls,
            frame: FrameData::empty(),
            encoding_canvas,
            empty: Array2::zeros((0, 0)),
            scratch: dom::new_canvas()?,
            heatmap_rect: PixelRect {
                x0: 0.0,
                y0: 0.0,
                x1: 0.0,
                y1: 0.0,
            },
            stats: Stats {
                backend: "cpu",
                ..Stats::default()
            },
            notices,
            stale: Stale::ALL,
            editing: None,
            frame_id: 0,
            frame_in_flight: false,
            gpu_queue_check: 0,
            gpu_queue_busy: false,
            frame_started: 0.0,
            ready_settled: false,
            started: false,
            complete_wanted: false,
            deferred_scheduled: false,
            slider_held: false,
            deferred: Vec::new(),
            panel_cost_ms: vec![0.0; super::panel::PANELS.len()],
            encoding_waiting: false,
            follow_up: Vec::new(),
            caches: super::panels::Caches::default(),
            figure_style: Default::default(),
            encoding_drawn: None,
            announced: None,
            show_section: None,
        })
    }

    /// Registers the panels' own listeners.
    pub fn wire_panels(&self) -> Result<(), WebError> {
        for (panel, spec) in self.panels.iter().zip(PANELS) {
            panel.wire(spec.id, scheduler::send)?;
        }
        Ok(())
    }

    pub fn state(&self) -> &State {
        &self.state
    }

    pub fn state_view(&self) -> JsValue {
        serde_wasm_bindgen::to_value(&StateView::from(&self.state.params)).unwrap_or(JsValue::NULL)
    }

    pub fn backend(&self) -> &Backend {
        &self.backend
    }

    pub fn last_frame_ms(&self) -> f64 {
        self.stats.frame_ms
    }

    /// `peLab.stats`: the top-level numbers and `panels.<name>` from every panel with its own.
    pub fn stats_value(&self) -> JsValue {
        let value = serde_wasm_bindgen::to_value(&self.stats).unwrap_or(JsValue::NULL);
        let panels = js_sys::Object::new();
        for (panel, spec) in self.panels.iter().zip(PANELS) {
            if let Some(stats) = panel.stats() {
                let _ = js_sys::Reflect::set(&panels, &spec.name.into(), &stats);
            }
        }
        let _ = js_sys::Reflect::set(&value, &"panels".into(), &panels);
        value
    }

    /// Nothing is drawn, or announced, until the first frame on the chosen backend is complete;
    /// a WebGPU frame waits for its read-backs; a panel may wait for a timing.
    pub fn is_busy(&self) -> bool {
        !self.started
            || self.frame_in_flight
            || self.gpu_queue_busy
            || !self.deferred.is_empty()
            || !self.follow_up.is_empty()
            || self.panels.iter().any(|p| p.busy())
    }

    /// After a frame: asks the GPU to say when the work submitted so far is done (only the
    /// newest check counts). Nothing on the CPU path.
    pub fn watch_gpu_queue(&mut self) {
        self.gpu_queue_check = self.gpu_queue_check.wrapping_add(1);
        self.gpu_queue_busy = self
            .backend
            .when_queue_done(self.gpu_queue_check, scheduler::send);
    }

    pub fn push_notice(&mut self, notice: String) {
        self.notices.push(notice);
        self.stale.notices = true;
    }

    /// Handles one action: updates the state (or the runtime) and marks what is stale.
    pub fn dispatch(&mut self, action: Action) -> Effects {
        let result = match action {
            Action::State(msg) => Ok(self.apply(msg, None)),
            Action::FromControl(source, msg) => Ok(self.apply(msg, Some(source))),
            Action::Panel { panel, event } => self.panel_event(panel, event),
            Action::ExportPng(canvas_id) => {
                export::png(&canvas_id, &self.state.params).map(|()| Effects::default())
            }
            Action::ExportCsv(id) => {
                let params = self.state.params.clone();
                match self.panel_and_ctx(id, false) {
                    Some((panel, ctx)) => export::csv(panel.as_ref(), &ctx, &params),
                    None => Ok(()),
                }
                .map(|()| Effects::default())
            }
            Action::ExportSvg(id) => {
                let params = self.state.params.clone();
                match self.panel_and_ctx(id, false) {
                    Some((panel, ctx)) => export::svg(panel.as_ref(), &ctx, &params),
                    None => Ok(()),
                }
                .map(|()| Effects::default())
            }
            Action::CopyLink => {
                self.write_url();
                page::copy_link(&self.page);
                Ok(Effects::default())
            }
            Action::PanelsOnScreen => Ok(Effects {
                frame: true,
                url: false,
            }),
            Action::Redraw => {
                self.stale.encoding = true;
                self.encoding_drawn = None;
                self.rendered.iter_mut().for_each(|r| *r = None);
                Ok(Effects {
                    frame: true,
                    url: false,
                })
            }
            Action::GpuFailed(reason) => Ok(self.fall_back_to_cpu(&reason)),
            Action::RenderDeferred => {
                self.render_deferred();
                Ok(Effects::default())
            }
            Action::WantComplete => {
                self.want_complete();
                Ok(Effects::default())
            }
            Action::FollowUp => {
                self.render_follow_up();
                Ok(Effects::default())
            }
            Action::SliderHeld(held) => {
                self.slider_held = held;
                Ok(Effects::default())
            }
            Action::FieldLeft => {
                // The field is no longer being edited (its `change`, if any, came first).
                self.editing = None;
                self.stale.controls = true;
                Ok(Effects {
                    frame: true,
                    url: false,
                })
            }
            Action::GpuQueueDone(check) => {
                if check == self.gpu_queue_check {
                    self.gpu_queue_busy = false;
                }
                Ok(Effects::default())
            }
        };
        result.unwrap_or_else(|error| {
            super::show_error(&error.to_string());
            Effects::default()
        })
    }

    fn apply(&mut self, msg: Msg, source: Option<String>) -> Effects {
        let changed = self.state.update(msg);
        if let Some(notices) = changed.notices {
            self.notices = notices;
            self.stale.notices = true;
        }
        self.stale.encoding |= changed.encoding;
        self.stale.view |= changed.view;
        self.stale.controls |= changed.state;
        if changed.state {
            self.editing = source;
        }
        if let Some(target) = changed.show_section {
            self.show_section = Some(target);
            // The section is about to be scrolled to: it and the one after it are drawn in this
            // frame, before the scroll, not when they come on screen after it (their read-outs
            // would then grow under the reader's eyes).
            let next = super::panel::PANELS
                .iter()
                .skip_while(|spec| spec.id != target)
                .nth(1);
            for spec in std::iter::once(target.spec()).chain(next) {
                super::page::expect_on_screen(&spec.section_id());
            }
        }
        Effects {
            frame: true,
            url: changed.state,
        }
    }

    /// The panel `id` and the context it renders with (disjoint borrows of the app).
    pub(super) fn panel_and_ctx(
        &mut self,
        id: PanelId,
        draw: bool,
    ) -> Option<(&mut Box<dyn Panel>, Ctx<'_>)> {
        if id.reads_encoding() {
            self.compute_waiting_encoding();
        }
        let App {
            state,
            backend,
            panels,
            frame,
            empty,
            scratch,
            encoding_canvas,
            heatmap_rect,
            stats,
            frame_id,
            caches,
            figure_style,
            ..
        } = self;
        let panel = panels.get_mut(id.index())?;
        let ctx = Ctx {
            params: &state.params,
            settings: &state.settings,
            backend,
            encoding: frame.encoding.as_ref().unwrap_or(empty),
            frame,
            frame_id: *frame_id,
            scratch,
            encoding_canvas,
            heatmap_rect: *heatmap_rect,
            draw,
            stats,
            send: scheduler::send,
            panel: id,
            caches,
            style: figure_style,
            train: &state.train,
        };
        Some((panel, ctx))
    }

    fn panel_event(&mut self, id: PanelId, event: PanelEvent) -> Result<Effects, WebError> {
        if !self.backend_chosen {
            return Ok(Effects::default());
        }
        let Some((panel, mut ctx)) = self.panel_and_ctx(id, true) else {
            return Ok(Effects::default());
        };
        let redraw = panel.event(&mut ctx, event)?;
        if redraw {
            self.rendered[id.index()] = None;
        }
        Ok(Effects {
            frame: redraw,
            url: false,
        })
    }

    /// Installs the chosen backend and narrows the limits to it; the first frame follows.
    pub fn start_on(&mut self, backend: Backend) -> Effects {
        self.backend = backend;
        self.backend_chosen = true;
        let changed = self.state.update(Msg::SetLimits(self.backend.limits()));
        // Added to the link's notices, less those already there: a request the link reduced is
        // said again by every update, this one included.
        for notice in changed.notices.into_iter().flatten() {
            if !self.notices.contains(&notice) {
                self.notices.push(notice);
            }
        }
        self.stats.adapter = self.backend.adapter();
        self.stats.backend = self.backend.name();
        self.stale = Stale::ALL;
        self.encoding_drawn = None;
        Effects {
            frame: true,
            url: true,
        }
    }

    /// Leaves WebGPU for the CPU path for the rest of the session, says why, and redraws. Called
    /// on any GPU failure: a failed frame, a validation error, a lost device.
    pub(super) fn fall_back_to_cpu(&mut self, reason: &str) -> Effects {
        if !self.backend.is_gpu() {
            return Effects::default();
        }
        self.frame_in_flight = false;
        self.gpu_queue_busy = false;
        let notice = crate::model::status::gpu_failure_notice(reason);
        let effects = self.start_on(Backend::cpu(""));
        self.notices.insert(0, notice);
        self.rendered.iter_mut().for_each(|r| *r = None);
        effects
    }

    /// After a complete frame: the new state for the `change` listeners, if it differs from the
    /// last one announced (the first frame announces nothing: nothing has changed yet).
    /// Off-screen panels still waiting do not hold it back: a listener that reads `peLab.stats`
    /// brings them up to date, and one that does not is not kept waiting while a slider moves.
    pub fn take_change_announcement(&mut self) -> Option<JsValue> {
        // A state changed but not drawn yet (a frame is requested) is announced after its frame.
        if !self.started
            || self.frame_in_flight
            || scheduler::frame_requested()
            || self.panels.iter().any(|p| p.busy())
        {
            return None;
        }
        let query = query::state_query(&self.state);
        let previous = self.announced.replace(query.clone());
        match previous {
            Some(previous) if previous != query => Some(self.state_view()),
            _ => None,
        }
    }

    /// Keeps the link in the address bar equal to the view; a course page's own keys are kept.
    pub fn write_url(&self) {
        scheduler::report(page::write_url(&self.state));
    }
}
