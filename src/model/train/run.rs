//! A run as the page knows it: the configuration it was started with, the loss curves reported so
//! far, and each encoding's results once its worker has measured them. [`TrainRun::stats`] is
//! `peLab.stats.panels.train` (built in `stats.rs`, its maps in `entries.rs`).

mod entries;
mod stats;

use std::cell::OnceCell;

use pe_lab_train::protocol::{EncodingReport, Report};

use super::device::{TrainDevice, TrainerChoice, TrainerRequest, TrialRates};
use super::{TrainConfig, TrainEncoding, TrainSettings};

pub use self::entries::Entries;
pub use self::stats::{
    EncodingStats, LearnedSeedStats, LearnedStats, LossCurves, SeedStats, TrainStats,
};

/// One encoding's run at one seed, as far as its worker has reported it.
#[derive(Debug, Clone, PartialEq)]
pub struct SeedRun {
    pub seed: u64,
    /// The training losses so far.
    pub curve: Vec<f32>,
    /// The worker's seconds on it so far.
    pub seconds: f64,
    /// Evaluation lengths measured of all, once training is over.
    pub evaluated: (usize, usize),
    pub result: Option<EncodingReport>,
}

/// A run started from some settings.
#[derive(Debug, Clone, PartialEq)]
pub struct TrainRun {
    /// Tags the run's reports (a report of an older run is dropped).
    pub id: u32,
    pub config: TrainConfig,
    pub encodings: Vec<TrainEncoding>,
    /// Every encoding trains once per seed, the first seed first.
    pub seeds: Vec<u64>,
    /// The workers the encodings were shared among.
    pub workers: usize,
    /// Per encoding (in `encodings`' order), per seed (in `seeds`' order).
    pub runs: Vec<Vec<SeedRun>>,
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
    /// The verdict and the findings, computed once the run is done (a done run reports no more).
    pub(super) conclusions: OnceCell<(Vec<String>, Vec<String>)>,
}

/// The mean, least and greatest of some numbers (NaN when there are none).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spread {
    pub mean: f64,
    pub min: f64,
    pub max: f64,
    pub count: usize,
}

impl Spread {
    pub fn of(values: impl IntoIterator<Item = f64>) -> Spread {
        let (mut sum, mut min, mut max, mut count) = (0.0, f64::INFINITY, f64::NEG_INFINITY, 0);
        for v in values {
            sum += v;
            min = min.min(v);
            max = max.max(v);
            count += 1;
        }
        if count == 0 {
            return Spread {
                mean: f64::NAN,
                min: f64::NAN,
                max: f64::NAN,
                count,
            };
        }
        Spread {
            mean: sum / count as f64,
            min,
            max,
            count,
        }
    }
}

impl TrainRun {
    /// A run at step 0; `choice` is `None` when a trial is to decide where it trains.
    pub fn new(
        id: u32,
        settings: &TrainSettings,
        workers: usize,
        choice: Option<TrainerChoice>,
    ) -> Self {
        let (device, device_reason) = match choice {
            Some(choice) => (Some(choice.device), choice.reason),
            None => (None, super::measuring_text()),
        };
        let seeds = settings.seed_list();
        let runs = settings
            .encodings
            .iter()
            .map(|_| {
                seeds
                    .iter()
                    .map(|&seed| SeedRun {
                        seed,
                        curve: Vec::new(),
                        seconds: 0.0,
                        evaluated: (0, 0),
                        result: None,
                    })
                    .collect()
            })
            .collect();
        TrainRun {
            id,
            config: settings.config.clone(),
            encodings: settings.encodings.clone(),
            seeds,
            workers,
            runs,
            failure: None,
            paused: false,
            wall_seconds: 0.0,
            request: settings.trainer,
            device,
            device_reason,
            trial: None,
            conclusions: OnceCell::new(),
        }
    }

    /// The settings the run was started with.
    pub fn settings(&self) -> TrainSettings {
        TrainSettings {
            config: self.config.clone(),
            encodings: self.encodings.clone(),
            trainer: self.request,
            seeds: self.seeds.len(),
        }
    }

    /// Whether a trial is still deciding where the run trains.
    pub fn is_measuring(&self) -> bool {
        self.device.is_none() && self.failure.is_none()
    }

    fn slot(&mut self, encoding: TrainEncoding, seed: u64) -> Option<&mut SeedRun> {
        let k = self.encodings.iter().position(|&e| e == encoding)?;
        self.runs[k].iter_mut().find(|r| r.seed == seed)
    }

    /// Takes in a worker's report; returns whether it was this run's.
    pub fn absorb(&mut self, report: Report) -> bool {
        if report.run() != self.id || report == Report::Ready {
            return false;
        }
        self.conclusions = OnceCell::new();
        let steps = self.config.steps;
        match report {
            Report::Progress {
                encoding,
                seed,
                from,
                losses,
                seconds,
                ..
            } => {
                if let Some(slot) = self.slot(encoding, seed) {
                    let curve = &mut slot.curve;
                    // A curve reported from step 0 again was started again (the GPU trainer
                    // failed and the worker went on with the CPU's): it replaces the old one.
                    if from == 0 {
                        curve.clear();
                    }
                    // Reports arrive in order; a gap or an overlap would misplace the curve.
                    if from == curve.len() {
                        let room = steps.saturating_sub(curve.len());
                        curve.extend(losses.into_iter().take(room));
                    }
                    slot.seconds = seconds;
                }
            }
            Report::Evaluating {
                encoding,
                seed,
                done,
                total,
                ..
            } => {
                if let Some(slot) = self.slot(encoding, seed) {
                    slot.evaluated = (done, total);
                }
            }
            Report::Done { result, .. } => {
                if let Some(slot) = self.slot(result.encoding, result.seed) {
                    slot.seconds = result.seconds;
                    slot.evaluated = (result.lengths.len(), result.lengths.len());
                    slot.result = Some(*result);
                }
            }
            Report::Failed { message, .. } => self.failure = Some(message),
            Report::Trial {
                device,
                // The worker's sentence is English: the page's is written again from the same
                // rates, in the page's language (the same words in English).
                reason: _,
                rates,
                ..
            } => {
                if self.device.is_none() {
                    self.device = Some(device);
                    self.device_reason = super::trial_reason(device, &rates);
                    self.trial = Some(rates);
                }
            }
            Report::Fallback { message, .. } => {
                self.device = Some(TrainDevice::Cpu);
                self.device_reason = super::fallback_reason(&message);
            }
            Report::Ready => {}
        }
        true
    }

    fn all_runs(&self) -> impl Iterator<Item = &SeedRun> {
        self.runs.iter().flatten()
    }

    /// The seed being trained now: the first whose curves are not all complete (the last seed
    /// once every curve is).
    pub fn current_seed(&self) -> usize {
        let steps = self.config.steps;
        (0..self.seeds.len())
            .find(|&s| self.runs.iter().any(|runs| runs[s].curve.len() < steps))
            .unwrap_or(self.seeds.len().saturating_sub(1))
    }

    /// Steps every encoding has taken at the seed being trained now.
    pub fn steps_done(&self) -> usize {
        let s = self.current_seed();
        self.runs
            .iter()
            .map(|runs| runs.get(s).map_or(0, |r| r.curve.len()))
            .min()
            .unwrap_or(0)
    }

    /// Seeds whose every encoding is trained, measured and reported.
    pub fn seeds_done(&self) -> usize {
        (0..self.seeds.len())
            .filter(|&s| self.runs.iter().all(|runs| runs[s].result.is_some()))
            .count()
    }

    /// Steps taken by all encodings and seeds together.
    pub fn total_steps_done(&self) -> usize {
        self.all_runs().map(|r| r.curve.len()).sum()
    }

    /// (done, all) evaluation lengths of the seeds whose training is over.
    pub fn evaluations(&self) -> (usize, usize) {
        self.all_runs()
            .fold((0, 0), |(d, a), r| (d + r.evaluated.0, a + r.evaluated.1))
    }

    pub fn is_done(&self) -> bool {
        self.all_runs().all(|r| r.result.is_some())
    }

    pub fn is_running(&self) -> bool {
        !self.is_done() && self.failure.is_none()
    }

    /// Training steps per wall-clock second, all encodings and seeds together.
    pub fn steps_per_second(&self) -> f64 {
        if self.wall_seconds > 0.0 {
            self.total_steps_done() as f64 / self.wall_seconds
        } else {
            0.0
        }
    }

    /// The results that are in, every encoding and seed.
    pub fn finished(&self) -> impl Iterator<Item = &EncodingReport> {
        self.all_runs().filter_map(|r| r.result.as_ref())
    }

    /// The results of the first seed (the one whose maps and tables are drawn).
    pub fn first_seed_results(&self) -> impl Iterator<Item = &EncodingReport> {
        self.runs
            .iter()
            .filter_map(|runs| runs.first()?.result.as_ref())
    }

    /// Per encoding, its results at every seed once all are in.
    pub fn complete(&self) -> Vec<(TrainEncoding, Vec<&EncodingReport>)> {
        self.encodings
            .iter()
            .zip(&self.runs)
            .filter_map(|(&e, runs)| {
                let results: Option<Vec<&EncodingReport>> =
                    runs.iter().map(|r| r.result.as_ref()).collect();
                Some((e, results?))
            })
            .collect()
    }

    /// The runs of `encoding`, one per seed.
    pub fn runs_of(&self, encoding: TrainEncoding) -> &[SeedRun] {
        self.encodings
            .iter()
            .position(|&e| e == encoding)
            .map_or(&[], |k| &self.runs[k])
    }

    /// An encoding's loss at every step over the seeds that have reached it: (step, spread).
    pub fn loss_spread(&self, encoding: TrainEncoding) -> Vec<Spread> {
        let runs = self.runs_of(encoding);
        let longest = runs.iter().map(|r| r.curve.len()).max().unwrap_or(0);
        (0..longest)
            .map(|step| {
                Spread::of(
                    runs.iter()
                        .filter_map(|r| r.curve.get(step).map(|&l| f64::from(l))),
                )
            })
            .collect()
    }

    /// The evaluated lengths (the same for every report of the run).
    pub fn lengths(&self) -> Vec<usize> {
        self.finished()
            .next()
            .map_or_else(Vec::new, |r| r.lengths.clone())
    }

    /// The position-blind ceiling at every evaluated length (the same in every report).
    pub fn blind_ceiling(&self) -> Vec<f64> {
        self.finished()
            .next()
            .map_or_else(Vec::new, |r| r.blind_ceiling_by_length.clone())
    }
}
