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
use crate::model::train::{TrainEncoding, TrainSettings};
use pe_lab_train::analysis::HeadHitRate;
use pe_lab_train::device::TrialRates;
use pe_lab_train::protocol::{EncodingReport, Report, Request, TrainDevice};
use pe_lab_train::trainer::{AttentionMap, PositionTable};

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

    /// Ends the current workers and starts `count` new ones on run `run` of `settings`, taking
    /// their steps on `device`.
    pub fn start(
        &mut self,
        run: u32,
        settings: &TrainSettings,
        count: usize,
        device: TrainDevice,
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
            let request = Request::Start {
                run,
                config: settings.config.clone(),
                encodings,
                seeds: settings.seed_list(),
                device,
            };
            self.spawn(run, &request, send)?;
        }
        Ok(())
    }

    /// Ends the current workers and starts one that times both trainers on the run's first
    /// encoding ([`Request::Trial`]); its report decides where the run trains.
    pub fn start_trial(
        &mut self,
        run: u32,
        settings: &TrainSettings,
        send: fn(Action),
    ) -> Result<(), WebError> {
        self.stop();
        let encoding = settings
            .encodings
            .first()
            .copied()
            .unwrap_or(TrainEncoding::Sinusoidal);
        let request = Request::Trial {
            run,
            config: settings.config.clone(),
            encoding,
        };
        self.spawn(run, &request, send)
    }

    /// Starts a worker that is sent `request` once it listens.
    fn spawn(&mut self, run: u32, request: &Request, send: fn(Action)) -> Result<(), WebError> {
        let worker = Worker::new(WORKER_SCRIPT)?;
        let request = to_js(request)?;
        let listener = worker.clone();
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            let report = read_report(&event.data()).unwrap_or_else(|error| Report::Failed {
                run,
                message: crate::message!("status-train-worker-report-unreadable", error = error),
            });
            // The run is posted once the worker listens (a message posted while its wasm
            // loads would find no handler).
            if report == Report::Ready {
                if let Err(error) = listener.post_message(&request) {
                    let message = crate::message!(
                        "status-train-worker-not-started",
                        error = format!("{error:?}"),
                    );
                    send(Action::Panel {
                        panel: PanelId::Train,
                        event: PanelEvent::TrainReport(Box::new(Report::Failed { run, message })),
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
                .unwrap_or_else(|| crate::message!("status-train-worker-failed-to-load"));
            send(Action::Panel {
                panel: PanelId::Train,
                event: PanelEvent::TrainReport(Box::new(Report::Failed { run, message })),
            });
        });
        worker.set_onerror(Some(on_error.unchecked_ref()));
        self.workers.push((worker, on_message));
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

/// A worker's report as the worker's serde-wasm-bindgen writes it (`"ready"`, or an object with
/// one key, the variant's, around the variant's fields in camelCase; `None` is `undefined`), read
/// field by field: a serde deserializer for [`Report`] would cost the page's first load tens of
/// kilobytes of code, and the page only ever reads this one message.
pub fn read_report(data: &JsValue) -> Result<Report, String> {
    if data.as_string().as_deref() == Some("ready") {
        return Ok(Report::Ready);
    }
    if let Some(v) = object(data, "progress") {
        Ok(Report::Progress {
            run: count(&v, "run")? as u32,
            encoding: encoding(&v, "encoding")?,
            seed: seed(&v)?,
            from: count(&v, "from")?,
            losses: f32s(&v, "losses")?,
            seconds: number(&v, "seconds")?,
        })
    } else if let Some(v) = object(data, "evaluating") {
        Ok(Report::Evaluating {
            run: count(&v, "run")? as u32,
            encoding: encoding(&v, "encoding")?,
            seed: seed(&v)?,
            done: count(&v, "done")?,
            total: count(&v, "total")?,
        })
    } else if let Some(v) = object(data, "done") {
        Ok(Report::Done {
            run: count(&v, "run")? as u32,
            result: Box::new(read_result(&field(&v, "result"))?),
        })
    } else if let Some(v) = object(data, "trial") {
        let rates = object(&v, "rates").ok_or("rates is not an object")?;
        Ok(Report::Trial {
            run: count(&v, "run")? as u32,
            device: match field(&v, "device").as_string().as_deref() {
                Some("gpu") => TrainDevice::Gpu,
                Some("cpu") => TrainDevice::Cpu,
                _ => return Err("device is not cpu or gpu".into()),
            },
            reason: text(&v, "reason")?,
            rates: TrialRates {
                encoding: encoding(&rates, "encoding")?,
                cpu_steps_per_second: number(&rates, "cpuStepsPerSecond")?,
                gpu_steps_per_second: field(&rates, "gpuStepsPerSecond").as_f64(),
                gpu_setup_seconds: field(&rates, "gpuSetupSeconds").as_f64(),
                gpu_first_step_only: field(&rates, "gpuFirstStepOnly").as_bool().unwrap_or(false),
                gpu_error: field(&rates, "gpuError").as_string(),
            },
        })
    } else if let Some(v) = object(data, "fallback") {
        Ok(Report::Fallback {
            run: count(&v, "run")? as u32,
            message: text(&v, "message")?,
        })
    } else if let Some(v) = object(data, "failed") {
        Ok(Report::Failed {
            run: count(&v, "run")? as u32,
            message: text(&v, "message")?,
        })
    } else {
        Err("not a report".into())
    }
}

fn read_result(v: &JsValue) -> Result<EncodingReport, String> {
    let multiples = f64s(v, "accuracyAtMultiples")?;
    Ok(EncodingReport {
        encoding: encoding(v, "encoding")?,
        seed: seed(v)?,
        final_loss: number(v, "finalLoss")?,
        lengths: counts(v, "lengths")?,
        accuracy_by_length: f64s(v, "accuracyByLength")?,
        accuracy_at_multiples: multiples
            .try_into()
            .map_err(|_| "accuracyAtMultiples is not three numbers")?,
        parameter_count: count(v, "parameterCount")?,
        seconds: number(v, "seconds")?,
        train_seconds: number(v, "trainSeconds")?,
        chance: number(v, "chance")?,
        blind_ceiling_by_length: f64s(v, "blindCeilingByLength")?,
        blind_ceiling_error: number(v, "blindCeilingError")?,
        translation_spread_initial: field(v, "translationSpreadInitial").as_f64(),
        translation_spread_trained: field(v, "translationSpreadTrained").as_f64(),
        translation_spread_sinusoidal: number(v, "translationSpreadSinusoidal")?,
        offset_hit_rate: object(v, "offsetHitRate")
            .map(|hit| {
                Ok::<_, String>(HeadHitRate {
                    layer: count(&hit, "layer")?,
                    head: count(&hit, "head")?,
                    rate: number(&hit, "rate")?,
                })
            })
            .transpose()?,
        example: counts(v, "example")?,
        attention: items(v, "attention")?
            .iter()
            .map(|map| {
                Ok(AttentionMap {
                    layer: count(&map, "layer")?,
                    head: count(&map, "head")?,
                    length: count(&map, "length")?,
                    weights: f32s(&map, "weights")?,
                })
            })
            .collect::<Result<_, String>>()?,
        table: object(v, "table")
            .map(|table| {
                Ok::<_, String>(PositionTable {
                    rows: count(&table, "rows")?,
                    cols: count(&table, "cols")?,
                    values: f32s(&table, "values")?,
                })
            })
            .transpose()?,
    })
}

/// `value[key]` when it is an object (`None` is written as `undefined`).
fn object(value: &JsValue, key: &str) -> Option<JsValue> {
    Some(field(value, key)).filter(JsValue::is_object)
}

fn field(value: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(value, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

fn text(value: &JsValue, key: &str) -> Result<String, String> {
    field(value, key)
        .as_string()
        .ok_or_else(|| format!("{key} is not a string"))
}

fn number(value: &JsValue, key: &str) -> Result<f64, String> {
    field(value, key)
        .as_f64()
        .ok_or_else(|| format!("{key} is not a number"))
}

/// A count or an index: a whole number, at least 0.
fn count(value: &JsValue, key: &str) -> Result<usize, String> {
    as_count(number(value, key)?).ok_or_else(|| format!("{key} is not a count"))
}

/// A seed: a whole number, at least 0, below 2⁵³ (a link's seeds are below 2³² + 8).
fn seed(value: &JsValue) -> Result<u64, String> {
    let x = number(value, "seed")?;
    (x >= 0.0 && x.fract() == 0.0 && x < 9_007_199_254_740_992.0)
        .then_some(x as u64)
        .ok_or_else(|| "seed is not a whole number".into())
}

fn as_count(x: f64) -> Option<usize> {
    (x >= 0.0 && x.fract() == 0.0 && x <= u32::MAX as f64).then_some(x as usize)
}

fn encoding(value: &JsValue, key: &str) -> Result<TrainEncoding, String> {
    field(value, key)
        .as_string()
        .and_then(|name| TrainEncoding::from_link(&name))
        .ok_or_else(|| format!("{key} is not an encoding"))
}

/// An array field (an Array, or a typed array for the numbers).
fn items(value: &JsValue, key: &str) -> Result<js_sys::Array, String> {
    let items = field(value, key);
    if js_sys::Array::is_array(&items) {
        Ok(items.unchecked_into())
    } else {
        Err(format!("{key} is not an array"))
    }
}

fn f32s(value: &JsValue, key: &str) -> Result<Vec<f32>, String> {
    Ok(js_sys::Float32Array::new(items(value, key)?.as_ref()).to_vec())
}

fn f64s(value: &JsValue, key: &str) -> Result<Vec<f64>, String> {
    Ok(js_sys::Float64Array::new(items(value, key)?.as_ref()).to_vec())
}

fn counts(value: &JsValue, key: &str) -> Result<Vec<usize>, String> {
    f64s(value, key)?
        .into_iter()
        .map(|x| as_count(x).ok_or_else(|| format!("{key} holds a number that is not a count")))
        .collect()
}
