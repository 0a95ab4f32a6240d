//! The training panel's Web Workers. Each runs the training crate in its own wasm module
//! (`pe-lab-train-worker`), which the browser fetches the first time a worker starts: the page's
//! first load does not carry it. The encodings of a run are dealt out among up to one worker per
//! core (each encoding is its own deterministic run, so the split changes no number), and every
//! report comes back through the one message path as a panel event.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{MessageEvent, Worker};

use super::action::{Action, PanelEvent};
use super::error::WebError;
use crate::model::panels::PanelId;
use crate::model::train::TrainSettings;
use pe_lab_train::protocol::{Report, Request};

/// The worker's loader (www/train-worker.js): it imports the bindings Trunk writes for the worker
/// crate (index.html's `data-type="worker"` link) and starts its wasm.
const WORKER_SCRIPT: &str = "./train-worker.js";

/// At most this many workers, whatever the machine: each holds a model and its buffers, and a
/// class's laptops have 2–8 cores.
const MAX_WORKERS: usize = 4;

/// A worker and the handler of its reports (kept alive as long as the worker).
type RunningWorker = (Worker, Closure<dyn FnMut(MessageEvent)>);

/// The workers of the current run.
#[derive(Default)]
pub struct TrainWorkers {
    workers: Vec<RunningWorker>,
}

impl TrainWorkers {
    /// How many workers a run of `encodings` encodings gets: one per core the browser reports
    /// but one, which stays with the page (with every core training, the page's own tasks were
    /// stretched past 50 ms on a 2-core machine), at most one per encoding and [`MAX_WORKERS`].
    pub fn count_for(encodings: usize) -> usize {
        let cores = web_sys::window()
            .map(|w| w.navigator().hardware_concurrency())
            .unwrap_or(2.0);
        let cores = if cores.is_finite() && cores >= 1.0 {
            cores as usize
        } else {
            2
        };
        (cores.saturating_sub(1))
            .clamp(1, MAX_WORKERS)
            .min(encodings.max(1))
    }

    /// Ends the current workers and starts `count` new ones on run `run` of `settings`.
    pub fn start(
        &mut self,
        run: u32,
        settings: &TrainSettings,
        count: usize,
        send: fn(Action),
    ) -> Result<(), WebError> {
        self.stop();
        for index in 0..count.max(1) {
            let encodings: Vec<_> = settings
                .encodings
                .iter()
                .skip(index)
                .step_by(count.max(1))
                .copied()
                .collect();
            if encodings.is_empty() {
                continue;
            }
            let worker = Worker::new(WORKER_SCRIPT)?;
            let request = to_js(&Request::Start {
                run,
                config: settings.config.clone(),
                encodings,
            })?;
            let listener = worker.clone();
            let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
                let report = serde_wasm_bindgen::from_value::<Report>(event.data()).unwrap_or_else(
                    |error| Report::Failed {
                        run,
                        message: format!("a worker's report could not be read: {error}"),
                    },
                );
                // The run is posted once the worker listens (a message posted while its wasm
                // loads would find no handler).
                if report == Report::Ready {
                    if let Err(error) = listener.post_message(&request) {
                        let message =
                            format!("the training worker could not be started: {error:?}");
                        send(Action::Panel {
                            panel: PanelId::Train,
                            event: PanelEvent::TrainReport(Box::new(Report::Failed {
                                run,
                                message,
                            })),
                        });
                    }
                    return;
                }
                send(Action::Panel {
                    panel: PanelId::Train,
                    event: PanelEvent::TrainReport(Box::new(report)),
                });
            });
            worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
            let on_error = Closure::once_into_js(move |event: web_sys::Event| {
                let message = js_sys::Reflect::get(&event, &"message".into())
                    .ok()
                    .and_then(|m| m.as_string())
                    .unwrap_or_else(|| "the training worker failed to load".into());
                send(Action::Panel {
                    panel: PanelId::Train,
                    event: PanelEvent::TrainReport(Box::new(Report::Failed { run, message })),
                });
            });
            worker.set_onerror(Some(on_error.unchecked_ref()));
            self.workers.push((worker, on_message));
        }
        Ok(())
    }

    /// Tells every worker `request` (pause, resume).
    pub fn tell(&self, request: &Request) {
        if let Ok(message) = to_js(request) {
            for (worker, _) in &self.workers {
                let _ = worker.post_message(&message);
            }
        }
    }

    /// Ends every worker at once (a stop, a reset, a new run).
    pub fn stop(&mut self) {
        for (worker, _) in self.workers.drain(..) {
            worker.terminate();
        }
    }
}

fn to_js(request: &Request) -> Result<JsValue, WebError> {
    serde_wasm_bindgen::to_value(request).map_err(|e| WebError::Js(e.to_string()))
}
