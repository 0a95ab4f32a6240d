//! The training worker: a Web Worker's message loop around [`pe_lab_train::session::Session`].
//! The page posts [`Request`]s; the worker trains in slices of about [`SLICE_SECONDS`], posts the
//! slice's [`pe_lab_train::protocol::Report`]s, and yields to its event loop between slices (a
//! message to itself through a MessageChannel), so that a pause or a stop arrives within one slice.
//! Not a zero-delay timeout: browsers clamp nested timeouts to at least 4 ms, which would leave
//! the worker idle for a tenth of every 40 ms slice. Nothing here touches
//! the DOM; the training itself is the training crate's, tested natively.
//!
//! It is its own wasm module (Trunk builds it from index.html's `data-type="worker"` link): the
//! page's first load does not carry the training code.

/// The work done between two looks at the worker's messages: short enough that a pause takes
/// effect at once, long enough that the yields cost little.
pub const SLICE_SECONDS: f64 = 0.04;

#[cfg(target_arch = "wasm32")]
mod worker {
    use std::cell::RefCell;

    use pe_lab_train::protocol::{Report, Request};
    use pe_lab_train::session::Session;
    use wasm_bindgen::prelude::*;
    use web_sys::{DedicatedWorkerGlobalScope, MessageChannel, MessageEvent, MessagePort};

    use super::SLICE_SECONDS;

    #[derive(Default)]
    struct Worker {
        session: Option<Session>,
        paused: bool,
        /// A slice is scheduled (at most one at a time).
        scheduled: bool,
    }

    thread_local! {
        static WORKER: RefCell<Worker> = RefCell::new(Worker::default());
        /// The port a slice is scheduled through (its other end runs [`run_slice`]); `None` if
        /// the channel could not be made, then slices are scheduled by timeouts.
        static NEXT_SLICE: Option<MessagePort> = slice_channel();
    }

    /// A channel whose first port runs a slice for every message posted to the second.
    fn slice_channel() -> Option<MessagePort> {
        let channel = MessageChannel::new().ok()?;
        let handler = Closure::<dyn FnMut(MessageEvent)>::new(|_: MessageEvent| run_slice());
        channel
            .port1()
            .set_onmessage(Some(handler.as_ref().unchecked_ref()));
        // The handler lives as long as the worker.
        handler.forget();
        Some(channel.port2())
    }

    fn scope() -> DedicatedWorkerGlobalScope {
        js_sys::global().unchecked_into()
    }

    fn post(report: &Report) {
        if let Ok(value) = serde_wasm_bindgen::to_value(report) {
            let _ = scope().post_message(&value);
        }
    }

    fn seconds() -> f64 {
        scope().performance().map_or(0.0, |p| p.now()) / 1000.0
    }

    /// Schedules the next slice unless one is scheduled, the session is paused or there is none.
    fn schedule() {
        let wanted = WORKER.with(|w| {
            let mut w = w.borrow_mut();
            let wanted = !w.scheduled && !w.paused && w.session.is_some();
            w.scheduled |= wanted;
            wanted
        });
        if wanted {
            let posted = NEXT_SLICE.with(|port| {
                port.as_ref()
                    .is_some_and(|port| port.post_message(&JsValue::NULL).is_ok())
            });
            if !posted {
                let slice = Closure::once_into_js(run_slice);
                let _ = scope().set_timeout_with_callback_and_timeout_and_arguments_0(
                    slice.unchecked_ref(),
                    0,
                );
            }
        }
    }

    fn run_slice() {
        let reports = WORKER.with(|w| {
            let mut w = w.borrow_mut();
            w.scheduled = false;
            if w.paused {
                return Vec::new();
            }
            let Some(session) = w.session.as_mut() else {
                return Vec::new();
            };
            let reports = session.work(&mut seconds, SLICE_SECONDS);
            if session.is_finished() {
                w.session = None;
            }
            reports
        });
        for report in &reports {
            post(report);
        }
        schedule();
    }

    fn on_message(event: MessageEvent) {
        let request: Request = match serde_wasm_bindgen::from_value(event.data()) {
            Ok(request) => request,
            Err(error) => {
                post(&Report::Failed {
                    run: 0,
                    message: format!("the worker could not read a request: {error}"),
                });
                return;
            }
        };
        WORKER.with(|w| {
            let mut w = w.borrow_mut();
            match request {
                Request::Start {
                    run,
                    config,
                    encodings,
                } => match Session::start(run, &config, &encodings) {
                    Ok(session) => {
                        w.session = Some(session);
                        w.paused = false;
                    }
                    Err(error) => {
                        w.session = None;
                        drop(w);
                        post(&Report::Failed {
                            run,
                            message: error.to_string(),
                        });
                    }
                },
                Request::Pause => w.paused = true,
                Request::Resume => w.paused = false,
                Request::Stop => w.session = None,
            }
        });
        schedule();
    }

    #[wasm_bindgen(start)]
    pub fn start() {
        let handler = Closure::<dyn FnMut(MessageEvent)>::new(on_message);
        scope().set_onmessage(Some(handler.as_ref().unchecked_ref()));
        // The handler lives as long as the worker.
        handler.forget();
        post(&Report::Ready);
    }
}
