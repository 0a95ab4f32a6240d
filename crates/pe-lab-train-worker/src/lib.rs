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
//!
//! A run asked for on the GPU ([`TrainDevice::Gpu`]) takes its steps with the GPU trainer
//! (`pe_lab_gpu::train`) on the worker's own WebGPU device, then hands the trained parameters
//! and losses to the session ([`Session::adopt`]), which evaluates on the CPU as always. Any GPU
//! failure, a lost device included, starts the worker's encodings again on the CPU and tells the
//! page why ([`Report::Fallback`]). A trial ([`Request::Trial`]) times both trainers on the
//! page's settings so that the page can take the faster.
//!
//! [`TrainDevice::Gpu`]: pe_lab_train::protocol::TrainDevice
//! [`Session::adopt`]: pe_lab_train::session::Session::adopt
//! [`Report::Fallback`]: pe_lab_train::protocol::Report
//! [`Request::Trial`]: pe_lab_train::protocol::Request

/// The losses of a GPU run come back every this many steps (the trainer's ring): few readbacks,
/// and a curve that still moves several times a second on a slow GPU.
pub const GPU_READBACK_EVERY: usize = 10;

/// The work done between two looks at the worker's messages: short enough that a pause takes
/// effect at once, long enough that the yields cost little.
pub const SLICE_SECONDS: f64 = 0.04;

#[cfg(target_arch = "wasm32")]
mod worker {
    use std::cell::RefCell;

    use pe_lab_train::protocol::{Report, Request, TrainDevice};
    use pe_lab_train::session::Session;
    use wasm_bindgen::prelude::*;
    use web_sys::{DedicatedWorkerGlobalScope, MessageChannel, MessageEvent, MessagePort};

    use super::SLICE_SECONDS;

    mod gpu;

    #[derive(Default)]
    struct Worker {
        session: Option<Session>,
        paused: bool,
        /// A slice is scheduled (at most one at a time).
        scheduled: bool,
        /// The run whose steps the GPU is taking now (its loop ends when this changes).
        gpu_run: Option<u32>,
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

    pub(super) fn scope() -> DedicatedWorkerGlobalScope {
        js_sys::global().unchecked_into()
    }

    pub(super) fn post(report: &Report) {
        if let Ok(value) = serde_wasm_bindgen::to_value(report) {
            let _ = scope().post_message(&value);
        }
    }

    pub(super) fn seconds() -> f64 {
        scope().performance().map_or(0.0, |p| p.now()) / 1000.0
    }

    /// Schedules the next slice unless one is scheduled, the session is paused or there is none.
    pub(super) fn schedule() {
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
        match request {
            Request::Start {
                run,
                config,
                encodings,
                seeds,
                device: TrainDevice::Gpu,
            } => {
                WORKER.with(|w| {
                    let mut w = w.borrow_mut();
                    w.session = None;
                    w.paused = false;
                    w.gpu_run = Some(run);
                });
                wasm_bindgen_futures::spawn_local(gpu::train(run, config, encodings, seeds));
            }
            Request::Start {
                run,
                config,
                encodings,
                seeds,
                device: TrainDevice::Cpu,
            } => start_on_cpu(run, &config, &encodings, &seeds),
            Request::Trial {
                run,
                config,
                encoding,
            } => wasm_bindgen_futures::spawn_local(async move {
                post(&gpu::trial(run, config, encoding).await);
            }),
            Request::Pause => WORKER.with(|w| w.borrow_mut().paused = true),
            Request::Resume => WORKER.with(|w| w.borrow_mut().paused = false),
            Request::Stop => WORKER.with(|w| {
                let mut w = w.borrow_mut();
                w.session = None;
                w.gpu_run = None;
            }),
        }
        schedule();
    }

    /// Starts `encodings` at `seeds` on the CPU from step 0 (a run asked for there, or one the
    /// GPU failed).
    pub(super) fn start_on_cpu(
        run: u32,
        config: &pe_lab_train::TrainConfig,
        encodings: &[pe_lab_train::Encoding],
        seeds: &[u64],
    ) {
        let started = Session::start(run, config, encodings, seeds);
        WORKER.with(|w| {
            let mut w = w.borrow_mut();
            w.gpu_run = None;
            match started {
                Ok(session) => w.session = Some(session),
                Err(error) => {
                    w.session = None;
                    drop(w);
                    post(&Report::Failed {
                        run,
                        message: error.to_string(),
                    });
                }
            }
        });
        schedule();
    }

    /// Hands a session whose training is adopted from the GPU to the slices, which evaluate it.
    pub(super) fn evaluate(session: Session) {
        WORKER.with(|w| {
            let mut w = w.borrow_mut();
            w.gpu_run = None;
            w.session = Some(session);
        });
        schedule();
    }

    /// Whether the GPU loop of `run` should go on (not stopped, not replaced).
    pub(super) fn gpu_run_is(run: u32) -> bool {
        WORKER.with(|w| w.borrow().gpu_run == Some(run))
    }

    pub(super) fn paused() -> bool {
        WORKER.with(|w| w.borrow().paused)
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
