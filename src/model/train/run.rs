//! A run as the page knows it: the configuration it was started with, the loss curves reported so
//! far, and each encoding's results once its worker has measured them. [`TrainRun::stats`] is
//! `peLab.stats.panels.train`.

use std::borrow::Borrow;
use std::ops::Index;

use pe_lab_train::analysis::HeadHitRate;
use pe_lab_train::protocol::{EncodingReport, Report};
use serde::{Serialize, Serializer};

use super::device::{self, TrainDevice, TrainerChoice, TrainerRequest, TrialRates};
use super::{findings, TrainConfig, TrainEncoding, TrainSettings};

/// A run started from some settings.
#[derive(Debug, Clone, PartialEq)]
pub struct TrainRun {
    /// Tags the run's reports (a report of an older run is dropped).
    pub id: u32,
    pub config: TrainConfig,
    pub encodings: Vec<TrainEncoding>,
    /// The workers the encodings were shared among.
    pub workers: usize,
    /// Per encoding (in `encodings`' order): the training losses so far.
    pub curves: Vec<Vec<f32>>,
    /// Per encoding: the worker's seconds on it so far.
    pub seconds: Vec<f64>,
    /// Per encoding: evaluation lengths measured of all, once training is over.
    pub evaluated: Vec<(usize, usize)>,
    pub results: Vec<Option<EncodingReport>>,
    pub failure: Option<String>,
    pub paused: bool,
    /// Wall-clock seconds the run has been going (pauses left out), kept by the page.
    pub wall_seconds: f64,
    /// What the link asked for (`trainer`).
    pub request: TrainerRequest,
    /// Where the steps run; `None` while a trial decides.
    pub device: Option<TrainDevice>,
    /// Why, in the page's words.
    pub device_reason: String,
    /// The trial's rates, when one decided.
    pub trial: Option<TrialRates>,
}

impl TrainRun {
    /// A run at step 0; `choice` is `None` when a trial is to decide where it trains.
    pub fn new(
        id: u32,
        settings: &TrainSettings,
        workers: usize,
        choice: Option<TrainerChoice>,
    ) -> Self {
        let count = settings.encodings.len();
        let (device, device_reason) = match choice {
            Some(choice) => (Some(choice.device), choice.reason),
            None => (None, device::MEASURING.to_string()),
        };
        TrainRun {
            id,
            config: settings.config.clone(),
            encodings: settings.encodings.clone(),
            workers,
            curves: vec![Vec::with_capacity(settings.config.steps); count],
            seconds: vec![0.0; count],
            evaluated: vec![(0, 0); count],
            results: vec![None; count],
            failure: None,
            paused: false,
            wall_seconds: 0.0,
            request: settings.trainer,
            device,
            device_reason,
            trial: None,
        }
    }

    /// Whether a trial is still deciding where the run trains.
    pub fn is_measuring(&self) -> bool {
        self.device.is_none() && self.failure.is_none()
    }

    fn index(&self, encoding: TrainEncoding) -> Option<usize> {
        self.encodings.iter().position(|&e| e == encoding)
    }

    /// Takes in a worker's report; returns whether it was this run's.
    pub fn absorb(&mut self, report: Report) -> bool {
        if report.run() != self.id || report == Report::Ready {
            return false;
        }
        match report {
            Report::Progress {
                encoding,
                from,
                losses,
                seconds,
                ..
            } => {
                if let Some(k) = self.index(encoding) {
                    let curve = &mut self.curves[k];
                    // A curve reported from step 0 again was started again (the GPU trainer
                    // failed and the worker went on with the CPU's): it replaces the old one.
                    if from == 0 {
                        curve.clear();
                    }
                    // Reports arrive in order; a gap or an overlap would misplace the curve.
                    if from == curve.len() {
                        let room = self.config.steps.saturating_sub(curve.len());
                        curve.extend(losses.into_iter().take(room));
                    }
                    self.seconds[k] = seconds;
                }
            }
            Report::Evaluating {
                encoding,
                done,
                total,
                ..
            } => {
                if let Some(k) = self.index(encoding) {
                    self.evaluated[k] = (done, total);
                }
            }
            Report::Done { result, .. } => {
                if let Some(k) = self.index(result.encoding) {
                    self.seconds[k] = result.seconds;
                    self.evaluated[k] = (result.lengths.len(), result.lengths.len());
                    self.results[k] = Some(*result);
                }
            }
            Report::Failed { message, .. } => self.failure = Some(message),
            Report::Trial {
                device,
                reason,
                rates,
                ..
            } => {
                if self.device.is_none() {
                    self.device = Some(device);
                    self.device_reason = reason;
                    self.trial = Some(rates);
                }
            }
            Report::Fallback { message, .. } => {
                self.device = Some(TrainDevice::Cpu);
                self.device_reason = device::fallback_reason(&message);
            }
            Report::Ready => {}
        }
        true
    }

    /// Steps every encoding has taken.
    pub fn steps_done(&self) -> usize {
        self.curves.iter().map(Vec::len).min().unwrap_or(0)
    }

    /// Steps taken by all encodings together.
    pub fn total_steps_done(&self) -> usize {
        self.curves.iter().map(Vec::len).sum()
    }

    pub fn is_done(&self) -> bool {
        self.results.iter().all(Option::is_some)
    }

    pub fn is_running(&self) -> bool {
        !self.is_done() && self.failure.is_none()
    }

    /// Training steps per wall-clock second, all encodings together.
    pub fn steps_per_second(&self) -> f64 {
        if self.wall_seconds > 0.0 {
            self.total_steps_done() as f64 / self.wall_seconds
        } else {
            0.0
        }
    }

    /// The results that are in, with their encodings.
    pub fn finished(&self) -> impl Iterator<Item = &EncodingReport> {
        self.results.iter().flatten()
    }

    /// `peLab.stats.panels.train`.
    pub fn stats(&self) -> TrainStats {
        let c = &self.config;
        let mut results = Entries::default();
        for (k, &encoding) in self.encodings.iter().enumerate() {
            let report = self.results[k].as_ref();
            let accuracy_by_length = Entries(report.map_or_else(Vec::new, |r| {
                r.lengths
                    .iter()
                    .zip(&r.accuracy_by_length)
                    .map(|(length, &accuracy)| (length.to_string(), accuracy))
                    .collect()
            }));
            results.0.push((
                encoding.link_name(),
                EncodingStats {
                    loss: self.curves[k].clone(),
                    final_loss: report.map(|r| r.final_loss),
                    accuracy_by_length,
                    accuracy_at_train_length: report.map(|r| r.accuracy_at_multiples[0]),
                    accuracy_at_twice: report.map(|r| r.accuracy_at_multiples[1]),
                    accuracy_at_four_times: report.map(|r| r.accuracy_at_multiples[2]),
                    parameters: report.map(|r| r.parameter_count),
                    seconds: self.seconds[k],
                    steps_per_second: report
                        .filter(|r| r.train_seconds > 0.0)
                        .map(|r| self.curves[k].len() as f64 / r.train_seconds),
                    offset_hit_rate: report.and_then(|r| r.offset_hit_rate),
                },
            ));
        }
        let learned = self
            .finished()
            .find(|r| r.encoding == TrainEncoding::Learned);
        let any = self.finished().next();
        let offset_hit_rate = (c.task == super::Task::Shift && any.is_some()).then(|| {
            Entries(
                self.finished()
                    .filter_map(|r| Some((r.encoding.link_name(), r.offset_hit_rate?.rate)))
                    .collect(),
            )
        });
        TrainStats {
            task: c.task.link_name(),
            steps: self.steps_done(),
            total_steps: c.steps,
            done: self.is_done(),
            running: self.is_running() && !self.paused,
            paused: self.paused,
            failure: self.failure.clone(),
            steps_per_second: self.steps_per_second(),
            backend: self.device.map_or("measuring", TrainDevice::link_name),
            trainer: self.request.link_name(),
            trainer_reason: self.device_reason.clone(),
            trial: self.trial.clone(),
            workers: self.workers,
            train_length: c.train_length,
            shift_k: c.shift_k,
            vocab: c.vocab,
            seed: c.seed,
            chance: c.task.chance(c.train_length, c.vocab),
            encodings: self.encodings.iter().map(|e| e.link_name()).collect(),
            results,
            learned: LearnedStats {
                translation_spread_initial: learned.and_then(|r| r.translation_spread_initial),
                translation_spread_trained: learned.and_then(|r| r.translation_spread_trained),
                translation_spread_sinusoidal: any.map(|r| r.translation_spread_sinusoidal),
            },
            offset_hit_rate,
            findings: if self.is_done() {
                findings::findings(self)
            } else {
                Vec::new()
            },
        }
    }
}

/// `peLab.stats.panels.train` (see the README's contract).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TrainStats {
    pub task: &'static str,
    /// Steps every encoding has taken so far, of `total_steps`.
    pub steps: usize,
    pub total_steps: usize,
    pub done: bool,
    pub running: bool,
    pub paused: bool,
    pub failure: Option<String>,
    /// Training steps per wall-clock second, all encodings together.
    pub steps_per_second: f64,
    /// Where the steps run: `"cpu"` or `"gpu"`, `"measuring"` while a trial decides.
    pub backend: &'static str,
    /// What the link asked for: `"auto"`, `"cpu"` or `"gpu"`.
    pub trainer: &'static str,
    /// Why the steps run where they do (the sentence the page shows).
    pub trainer_reason: String,
    /// The trial's rates, when a trial decided.
    pub trial: Option<TrialRates>,
    pub workers: usize,
    pub train_length: usize,
    pub shift_k: usize,
    pub vocab: usize,
    pub seed: u64,
    pub chance: f64,
    pub encodings: Vec<&'static str>,
    /// Per encoding, in the run's order.
    pub results: Entries<&'static str, EncodingStats>,
    pub learned: LearnedStats,
    /// `shift` only: per encoding, the best head's offset hit rate.
    pub offset_hit_rate: Option<Entries<&'static str, f64>>,
    /// The page's sentences about the run, once it is done.
    pub findings: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EncodingStats {
    pub loss: Vec<f32>,
    pub final_loss: Option<f64>,
    /// Keyed by the length (in words: a JavaScript object's keys), shortest first.
    pub accuracy_by_length: Entries<String, f64>,
    pub accuracy_at_train_length: Option<f64>,
    pub accuracy_at_twice: Option<f64>,
    pub accuracy_at_four_times: Option<f64>,
    pub parameters: Option<usize>,
    pub seconds: f64,
    pub steps_per_second: Option<f64>,
    pub offset_hit_rate: Option<HeadHitRate>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LearnedStats {
    pub translation_spread_initial: Option<f64>,
    pub translation_spread_trained: Option<f64>,
    pub translation_spread_sinusoidal: Option<f64>,
}

/// Named values in the order they were added, written out as a map (the page's serializer writes
/// maps as plain objects). Each list here is built once in its order, so it needs neither a
/// `BTreeMap`'s ordering nor its code in the page's wasm.
#[derive(Debug, Clone, PartialEq)]
pub struct Entries<K, V>(pub Vec<(K, V)>);

impl<K, V> Default for Entries<K, V> {
    fn default() -> Self {
        Entries(Vec::new())
    }
}

impl<K: Borrow<str>, V> Entries<K, V> {
    pub fn get(&self, key: &str) -> Option<&V> {
        self.0
            .iter()
            .find(|(k, _)| k.borrow() == key)
            .map(|(_, v)| v)
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<K: Borrow<str>, V> Index<&str> for Entries<K, V> {
    type Output = V;

    fn index(&self, key: &str) -> &V {
        self.get(key)
            .unwrap_or_else(|| panic!("no entry named {key:?}"))
    }
}

impl<K: Serialize, V: Serialize> Serialize for Entries<K, V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}
