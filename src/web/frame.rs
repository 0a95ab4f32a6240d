//! Rendering: one frame draws whatever the actions since the last one made stale. It reads the
//! state and never writes it; what it keeps (P's last frame, which inputs each panel was drawn
//! with, the stats) is the page's runtime, not its state.

use super::action::Action;
use super::app::{App, Effects, FrameStep};
use super::backend::{FrameData, FrameRequest, FrameResult};
use super::dom::{self, now_ms};
use super::draw::heatmap::{draw_encoding_axes, EncodingFigure};
use super::error::WebError;
use super::page;
use super::panel::{PanelId, PANELS};
use super::scheduler;
use crate::model::inputs::Inputs;
use ndarray::Axis;

use crate::math::relative::projection_error_of;
use crate::model::controls::{control_values, global_summary};
use crate::model::figure_style::FigureStyle;
use crate::model::params::Params;
use crate::model::schedule;

/// A frame longer than a display frame at 60 Hz: the next one runs after the browser's commit.
const HEAVY_FRAME_MS: f64 = 16.0;

impl App {
    /// Computes P now if a frame left it waiting (no panel on screen read it), before a panel that
    /// reads it renders or exports. The CPU path only: there P is ready at once.
    pub(super) fn compute_waiting_encoding(&mut self) {
        if !self.encoding_waiting {
            return;
        }
        self.encoding_waiting = false;
        let started = now_ms();
        match self.compute_encoding() {
            Ok(_) => self.frame.compute_ms = now_ms() - started,
            Err(error) => super::show_error(&error.to_string()),
        }
    }

    /// Renders everything that is stale. P's frame is computed first (at once on the CPU; on
    /// WebGPU the panels wait for its read-backs, see [`App::finish_pending_frame`]).
    pub fn frame(&mut self) -> FrameStep {
        if !self.backend_chosen {
            return FrameStep::Done;
        }
        self.frame_started = now_ms();
        let result = self.begin_frame();
        match result {
            Ok(Some(step)) => step,
            Ok(None) => {
                // Nothing new for P, but a WebGPU frame may still be in flight: it brings P's data
                // for the state as it is now, and the panels render when it lands
                // (`finish_pending_frame`). Rendering them now would give them the previous
                // frame's data under the new frame's id, and they would not render again.
                if !self.frame_in_flight {
                    self.finish_frame();
                }
                FrameStep::Done
            }
            Err(error) => {
                let effects = self.fall_back_or_report(error);
                if effects.frame {
                    scheduler::request_frame();
                }
                FrameStep::Done
            }
        }
    }

    /// The page chrome, the controls, and P on the backend. `Some` when P's data is pending.
    fn begin_frame(&mut self) -> Result<Option<FrameStep>, WebError> {
        if self.stale.view {
            self.stale.view = false;
            page::apply_view(&self.page, &self.state.view)?;
        }
        if self.stale.controls {
            self.stale.controls = false;
            let values = control_values(&self.state);
            self.controls
                .sync(&values, self.editing.take().as_deref())?;
            super::lesson::show_summary(&global_summary(&values));
        }
        // The figures follow the theme and mode shown (a theme that follows the system changes
        // with it): when they change, every figure is drawn again in the new look.
        let look = page::figure_look();
        if look != self.figure_style.look {
            self.figure_style = FigureStyle::for_look(look);
            self.stale.encoding = true;
            self.encoding_drawn = None;
            self.rendered.iter_mut().for_each(|r| *r = None);
        }
        if self.stale.notices {
            self.stale.notices = false;
            page::show_notices(&self.page, &self.notices)?;
            self.stats.notices = self.notices.clone();
        }
        if !self.stale.encoding {
            return Ok(None);
        }
        self.stale.encoding = false;
        self.frame_id = self.frame_id.wrapping_add(1);
        self.encoding_waiting = false;
        if self.reuse_encoding() {
            return Ok(None);
        }
        // On the CPU, P waits while no panel on screen reads it (the lesson's first screen is
        // attention): the first panel that does computes it (`panel_and_ctx`).
        if !self.backend.is_gpu() && !encoding_on_screen() {
            self.encoding_waiting = true;
            return Ok(None);
        }
        self.compute_encoding()
    }

    /// P on the backend, and its heatmap where it is seen. `Some` when P's data is pending.
    fn compute_encoding(&mut self) -> Result<Option<FrameStep>, WebError> {
        let heatmap = &self.encoding_canvas;
        let params = &self.state.params;
        self.heatmap_rect = draw_encoding_axes(
            heatmap,
            &self.scratch,
            (params.n, params.d),
            params.first_position,
            &self.figure_style,
            EncodingFigure::Table,
        )?;
        let gathered = gathered_columns(params);
        // P's cells are painted now only where the heatmap is seen; off screen, the heatmap
        // panel paints them when it comes into view (the CPU path; WebGPU paints as it computes).
        let paint = page::is_on_screen(&PanelId::Heatmap.spec().section_id());
        let request = FrameRequest {
            params,
            gathered_columns: &gathered,
            rect: self.heatmap_rect,
            heatmap,
        };
        let drawn = self.backend.start_frame(request, &self.scratch, paint)?;
        self.encoding_drawn = Some(self.encoding_key());
        match drawn {
            FrameResult::Ready(data) => {
                self.frame = data;
                Ok(None)
            }
            FrameResult::Pending(pending) => {
                self.frame_in_flight = true;
                Ok(Some(FrameStep::Pending(self.frame_id, pending)))
            }
        }
    }

    /// What P and its heatmap are drawn from: P's parameters, the backend and the canvas's size.
    fn encoding_key(&self) -> Inputs {
        let (p, canvas) = (&self.state.params, &self.encoding_canvas);
        Inputs::new()
            .with(p.n)
            .with(p.d)
            .with(p.base)
            .with(p.first_position)
            .with(p.textbook)
            .with(self.backend.name())
            .with(canvas.width())
            .with(canvas.height())
    }

    /// On the CPU, when only δ, the pair or the columns changed (P and its heatmap are as drawn):
    /// the gathered columns and the projection error from the P already computed, without
    /// computing P or painting its 2 million cells again at n = 2048, d = 1024.
    fn reuse_encoding(&mut self) -> bool {
        if self.backend.is_gpu()
            || self.state.params.textbook
            || self.encoding_drawn.as_ref() != Some(&self.encoding_key())
        {
            return false;
        }
        let Some(p) = self.frame.encoding.as_ref() else {
            return false;
        };
        let started = now_ms();
        let params = &self.state.params;
        self.frame.gathered = p.select(Axis(1), &gathered_columns(params));
        self.frame.max_projection_error = projection_error_of(p.view(), params.base, params.delta);
        self.frame.compute_ms = now_ms() - started;
        true
    }

    /// The GPU's read-backs for frame `id` arrived (a newer frame makes them stale).
    pub fn finish_pending_frame(&mut self, id: u32, data: Result<FrameData, WebError>) {
        if id != self.frame_id || !self.frame_in_flight {
            return;
        }
        self.frame_in_flight = false;
        match data {
            Ok(data) => {
                self.frame = data;
                self.finish_frame();
            }
            Err(error) => {
                let effects = self.fall_back_or_report(error);
                if effects.frame {
                    scheduler::request_frame();
                }
            }
        }
    }

    fn fall_back_or_report(&mut self, error: WebError) -> Effects {
        if self.backend.is_gpu() {
            self.fall_back_to_cpu(&error.to_string())
        } else {
            super::show_error(&error.to_string());
            Effects::default()
        }
    }

    /// Renders every on-screen panel whose inputs changed (a failing panel shows its error in its
    /// own slot; the others still draw), then the frame's numbers. Off-screen panels are left to
    /// [`App::render_deferred`], after the frame: a slider dragged at the largest sizes only waits
    /// for what the reader sees.
    fn finish_frame(&mut self) {
        let mut stage_ms = [self.frame.compute_ms, 0.0, 0.0, 0.0];
        // A panel on screen that took longer than `schedule::HEAVY_PANEL_MS` (RoPE's scores, the
        // order panel's layers at n = 2048) waits, marked as settling, and is drawn exactly once
        // the page has been quiet for `QUIET_MS` (the deferred chain): a drag's frames keep up
        // with the hand instead of stalling 200 ms behind it. The others are drawn in the frame
        // while it keeps to `FRAME_BUDGET_MS` by their last cost, and in the tasks after it.
        for spec in PANELS {
            let id = spec.id;
            let on_screen = page::is_on_screen(&spec.section_id());
            let cost = self.panel_cost_ms[id.index()];
            // Only a figure already drawn waits (dimmed): one never drawn is drawn now.
            let drawn_before = matches!(self.rendered[id.index()], Some((_, true)));
            let waits = drawn_before && schedule::waits_for_quiet(cost);
            let draw = on_screen && !waits;
            let started = now_ms();
            if draw && started - self.frame_started + cost > schedule::FRAME_BUDGET_MS {
                if self.stale_inputs(id, true).is_some() && !self.follow_up.contains(&id) {
                    self.follow_up.push(id);
                }
                continue;
            }
            // Drawing clears the mark (`render_panel`): only a waiting figure is marked here.
            if on_screen && waits {
                let settling = self.stale_inputs(id, true).is_some();
                page::mark_settling(&spec.section_id(), settling);
            }
            if !draw {
                if self.stale_inputs(id, false).is_some() && !self.deferred.contains(&id) {
                    self.deferred.push(id);
                }
                continue;
            }
            if !self.render_panel(id, true) {
                continue;
            }
            let ms = now_ms() - started;
            if let Some(slot) = id.timing_slot() {
                stage_ms[slot] = ms;
            }
        }
        if !self.follow_up.is_empty() {
            scheduler::defer(Action::FollowUp);
        }
        self.schedule_deferred(0.0);
        let elapsed = now_ms() - self.frame_started;
        self.stats.frame_ms = elapsed;
        self.stats.stage_ms = stage_ms;
        self.stats.backend = self.backend.name();
        self.stats.adapter = self.backend.adapter();
        self.stats.notices = self.notices.clone();
        scheduler::report(page::show_status(
            &self.page,
            &self.backend.badge(),
            elapsed,
        ));
        if let Some(target) = self.show_section.take() {
            // The off-screen panels above the shown one get their numbers first (PanelId is in
            // page order): a read-out above it that changed its height later would move the
            // section under the sticky bar after the scroll.
            let above: Vec<PanelId> = self
                .deferred
                .iter()
                .copied()
                .filter(|&id| id < target)
                .collect();
            self.deferred.retain(|&id| id >= target);
            for id in above {
                self.render_panel(id, id.draws_off_screen());
            }
            page::bring_into_view(&target.section_id());
        }
        if self.stats.first_frame_ms == 0.0 {
            self.stats.first_frame_ms = now_ms();
        }
        self.started = true;
        self.settle_ready_when_done();
    }

    /// Whether the next frame may run after the browser has committed the last one (see
    /// `scheduler::on_animation_frame`): the page has started, no section waits to be shown, and
    /// the last frame took longer than a display frame.
    pub fn frame_may_follow_commit(&self) -> bool {
        self.started && self.show_section.is_none() && self.stats.frame_ms > HEAVY_FRAME_MS
    }

    /// `peLab.ready` resolves once the first frame and the numbers of every panel are there
    /// (they are computed when `ready` is read: see [`App::want_complete`]).
    fn settle_ready_when_done(&mut self) {
        // Before the first frame nothing is deferred yet: a `ready` read that early still wants
        // every panel once the frame has found which are off screen.
        if !self.started || !self.deferred.is_empty() || !self.follow_up.is_empty() {
            return;
        }
        self.complete_wanted = false;
        if !self.ready_settled {
            self.ready_settled = true;
            scheduler::report(page::settle_ready());
        }
    }

    /// Whether every panel's numbers are wanted: `peLab.ready` was read and has not resolved, or
    /// a `whenDrawn` waits (a frame after its call may have deferred more panels).
    fn wants_every_panel(&self) -> bool {
        self.complete_wanted || scheduler::waiters_pending()
    }

    /// Someone wants every panel's numbers (`peLab.ready` was read, or `whenDrawn` waits): the
    /// off-screen panels are brought up to date one per task, and `ready` resolves after them.
    /// Until then they wait until they come into view: a reader who never scrolls to the
    /// training panel never pays for it, and a start-up computes only the first screen.
    pub fn want_complete(&mut self) {
        self.complete_wanted = true;
        self.schedule_deferred(0.0);
        self.settle_ready_when_done();
    }

    /// The inputs panel `id` would render with, when it must render: they changed since it was
    /// last rendered, or it is to be drawn and was last only computed. `None`: nothing to do.
    fn stale_inputs(&mut self, id: PanelId, draw: bool) -> Option<Inputs> {
        let (panel, ctx) = self.panel_and_ctx(id, draw)?;
        let inputs = panel.inputs(&ctx);
        let current = matches!(
            &self.rendered[id.index()],
            Some((done, was_drawn)) if *done == inputs && (*was_drawn || !draw)
        );
        (!current).then_some(inputs)
    }

    /// Renders panel `id` (its canvases too when `draw`) if it needs it; its inputs are taken
    /// once, for the check and for the record of what it was rendered from. Whether it rendered.
    fn render_panel(&mut self, id: PanelId, draw: bool) -> bool {
        let Some(inputs) = self.stale_inputs(id, draw) else {
            return false;
        };
        let Some((panel, mut ctx)) = self.panel_and_ctx(id, draw) else {
            return false;
        };
        let started = now_ms();
        let result = panel.render(&mut ctx);
        let cost_ms = now_ms() - started;
        if let Err(error) = &result {
            dom::text(
                panel.error_slot(),
                &format!("This panel could not be drawn: {error}"),
            );
        }
        if draw {
            self.panel_cost_ms[id.index()] = cost_ms;
            page::mark_settling(&id.spec().section_id(), false);
        }
        self.rendered[id.index()] = result.is_ok().then_some((inputs, draw));
        true
    }

    /// The next panel on screen that the last frame left for later (still on screen: drawn; off
    /// screen meanwhile: deferred), and the one after it in a later task.
    pub fn render_follow_up(&mut self) {
        if self.frame_in_flight || self.follow_up.is_empty() {
            return;
        }
        let id = self.follow_up.remove(0);
        if page::is_on_screen(&id.spec().section_id()) {
            self.render_panel(id, true);
        } else if !self.deferred.contains(&id) {
            self.deferred.push(id);
            self.schedule_deferred(0.0);
        }
        if self.follow_up.is_empty() {
            self.settle_ready_when_done();
        } else {
            scheduler::defer(Action::FollowUp);
        }
    }

    /// Every deferred panel's numbers now: `peLab.stats` always describes the state as a whole,
    /// even right after a frame that left off-screen panels for later.
    pub fn flush_deferred(&mut self) {
        if self.frame_in_flight {
            return;
        }
        // The frame's follow-ups first, as the deferred chain renders them (drawn when near).
        let follow_up: Vec<PanelId> = std::mem::take(&mut self.follow_up)
            .into_iter()
            .filter(|id| !self.deferred.contains(id))
            .collect();
        self.deferred.splice(0..0, follow_up);
        while self.render_next_deferred() {}
        self.settle_ready_when_done();
    }

    /// [`Self::flush_deferred`] when off-screen panels are waiting and no frame is due; whether
    /// it rendered any.
    pub fn flush_deferred_if_waiting(&mut self) -> bool {
        if self.deferred.is_empty() || self.frame_in_flight || scheduler::frame_requested() {
            return false;
        }
        self.flush_deferred();
        self.settle_ready_when_done();
        true
    }

    /// Renders the first deferred panel (its canvases too if it has come on screen meanwhile);
    /// `false` when none was left.
    fn render_next_deferred(&mut self) -> bool {
        if self.deferred.is_empty() {
            return false;
        }
        let id = self.deferred.remove(0);
        let draw = id.draws_off_screen() || page::is_near_screen(&id.spec().section_id());
        self.render_panel(id, draw);
        true
    }

    /// Moves the first deferred panel near the screen to the front; whether there was one.
    fn near_panel_first(&mut self) -> bool {
        let near = self
            .deferred
            .iter()
            .position(|id| page::is_near_screen(&id.spec().section_id()));
        if let Some(index) = near {
            let id = self.deferred.remove(index);
            self.deferred.insert(0, id);
        }
        near.is_some()
    }

    /// One deferred panel: its numbers now (drawn too if it has come on screen meanwhile), and the
    /// next one in a later task, so that input events are handled in between. Nothing is done while
    /// a GPU frame is in flight (the panels read its data); the frame's end defers them again.
    ///
    /// Which go: the panels near the screen (drawn, so that a scroll finds them ready), and the
    /// others only once every panel is wanted (`peLab.ready`, `whenDrawn`); `peLab.stats` brings
    /// them all up to date at once. When they go is `model::schedule::deferred_wait_ms`: only
    /// once no frame has been drawn for `schedule::QUIET_MS` and no slider is held down, except
    /// for a first `ready`.
    pub fn render_deferred(&mut self) {
        self.deferred_scheduled = false;
        if self.frame_in_flight {
            return;
        }
        let quiet_for = now_ms() - self.frame_started;
        // Only a first `ready` goes at once: it waits for every panel.
        let first_ready = self.complete_wanted && !self.ready_settled;
        if let Some(wait) = schedule::deferred_wait_ms(!first_ready, quiet_for, self.slider_held) {
            self.schedule_deferred(wait);
            return;
        }
        // The panels near the screen first; the far ones only when every panel is wanted.
        if !self.near_panel_first() && !self.wants_every_panel() {
            return;
        }
        // `flush_deferred` (a read of `stats`) may have done the rest already.
        self.render_next_deferred();
        if self.deferred.is_empty() {
            self.settle_ready_when_done();
        } else {
            self.schedule_deferred(0.0);
        }
    }

    /// One chain of deferred steps at a time, however many frames ask for one; only while panels
    /// wait near the screen or someone wants them all (a `whenDrawn` waits).
    pub(super) fn schedule_deferred(&mut self, delay_ms: f64) {
        if self.deferred.is_empty() || self.deferred_scheduled {
            return;
        }
        let near = self
            .deferred
            .iter()
            .any(|id| page::is_near_screen(&id.spec().section_id()));
        if !near && !self.wants_every_panel() {
            return;
        }
        self.deferred_scheduled = true;
        scheduler::defer_after(Action::RenderDeferred, delay_ms);
    }
}

/// Whether a panel that reads P is on screen.
fn encoding_on_screen() -> bool {
    PANELS
        .iter()
        .any(|spec| spec.id.reads_encoding() && page::is_on_screen(&spec.section_id()))
}

/// Columns every frame reads: the curves' columns, then the projection pair (2j, 2j+1).
fn gathered_columns(params: &Params) -> Vec<usize> {
    let mut columns = params.columns.clone();
    if params.has_complete_pair() {
        columns.extend([2 * params.pair, 2 * params.pair + 1]);
    }
    columns
}
