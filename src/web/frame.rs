//! Rendering: one frame draws whatever the actions since the last one made stale. It reads the
//! state and never writes it; what it keeps (P's last frame, which inputs each panel was drawn
//! with, the stats) is the page's runtime, not its state.

use super::app::{App, Effects, FrameStep};
use super::backend::{FrameData, FrameResult};
use super::dom::{self, now_ms};
use super::draw::heatmap::draw_encoding_axes;
use super::error::WebError;
use super::page;
use super::panel::PANELS;
use super::scheduler;
use crate::math::params::Params;
use crate::model::controls::{control_values, global_summary};

impl App {
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
                self.finish_frame();
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
        let heatmap = &self.encoding_canvas;
        let params = &self.state.params;
        self.heatmap_rect = draw_encoding_axes(
            heatmap,
            &self.scratch,
            params.n,
            params.d,
            params.first_position,
        )?;
        let gathered = gathered_columns(params);
        match self.backend.start_frame(
            params,
            &gathered,
            self.heatmap_rect,
            heatmap,
            &self.scratch,
        )? {
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

    /// Renders every panel whose inputs changed (a failing panel shows its error in its own
    /// slot; the others still draw), then the frame's numbers.
    fn finish_frame(&mut self) {
        let mut stage_ms = [self.frame.compute_ms, 0.0, 0.0, 0.0];
        for index in 0..self.panels.len() {
            let spec = &PANELS[index];
            let draw = !spec.lazy || page::is_on_screen(&spec.section_id());
            let started = now_ms();
            let previous = self.rendered[index].clone();
            let Some((panel, mut ctx)) = self.panel_and_ctx(index, draw) else {
                continue;
            };
            let inputs = panel.inputs(&ctx);
            if let Some((done, was_drawn)) = previous {
                if done == inputs && (was_drawn || !draw) {
                    continue;
                }
            }
            let result = panel.render(&mut ctx);
            if let Err(error) = &result {
                dom::text(
                    panel.error_slot(),
                    &format!("This panel could not be drawn: {error}"),
                );
            }
            self.rendered[index] = result.is_ok().then_some((inputs, draw));
            if index < 3 {
                stage_ms[index + 1] = now_ms() - started;
            }
        }
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
        if let Some(section) = self.show_section.take() {
            page::bring_into_view(&section);
        }
        if !self.ready_settled {
            self.ready_settled = true;
            self.stats.first_frame_ms = now_ms();
            scheduler::report(page::settle_ready(&self.page));
        }
    }
}

/// Columns every frame reads: the curves' columns, then the projection pair (2j, 2j+1).
fn gathered_columns(params: &Params) -> Vec<usize> {
    let mut columns = params.columns.clone();
    if params.has_complete_pair() {
        columns.extend([2 * params.pair, 2 * params.pair + 1]);
    }
    columns
}
