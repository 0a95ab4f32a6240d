//! A run as the page knows it: the configuration it was started with, the loss curves reported so
//! far, and each encoding's results once its worker has measured them. [`TrainRun::stats`] is
//! `peLab.stats.panels.train`.

use std::borrow::Borrow;
use std::cell::OnceCell;
use std::ops::Index;

use pe_lab_train::analysis::HeadHitRate;
use pe_lab_train::protocol::{EncodingReport, Report};
use serde::{Serialize, Serializer};

use super::device::{TrainDevice, TrainerChoice, TrainerRequest, TrialRates};
use super::{findings, TrainConfig, TrainEncoding, TrainSettings};

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
    conclusions: OnceCell<(Vec<String>, Vec<String>)>,
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

    /// The verdict and the findings of a done run (both empty while it is going).
    pub fn conclusions(&self) -> (&[String], &[String]) {
        if !self.is_done() {
            return (&[], &[]);
        }
        let (verdict, findings) = self
            .conclusions
            .get_or_init(|| (findings::verdict(self), findings::findings(self)));
        (verdict, findings)
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

    /// `peLab.stats.panels.train`.
    pub fn stats(&self) -> TrainStats {
        self.stats_with(self.conclusions())
    }

    fn stats_with(&self, (verdict, findings): (&[String], &[String])) -> TrainStats {
        let c = &self.config;
        let mut results = Entries::default();
        for (k, &encoding) in self.encodings.iter().enumerate() {
            results
                .0
                .push((encoding.link_name(), self.encoding_stats(k)));
        }
        let complete = self.complete();
        let learned: Vec<&EncodingReport> = complete
            .iter()
            .find(|(e, _)| *e == TrainEncoding::Learned)
            .map_or_else(Vec::new, |(_, r)| r.clone());
        let mean_of = |f: &dyn Fn(&EncodingReport) -> Option<f64>| {
            let values: Option<Vec<f64>> = learned.iter().map(|r| f(r)).collect();
            values.filter(|v| !v.is_empty()).map(|v| Spread::of(v).mean)
        };
        let any = self.finished().next();
        let offset_hit_rate = (c.task == super::Task::Shift && !complete.is_empty()).then(|| {
            Entries(
                complete
                    .iter()
                    .filter_map(|(e, reports)| {
                        let rates: Option<Vec<f64>> = reports
                            .iter()
                            .map(|r| Some(r.offset_hit_rate?.rate))
                            .collect();
                        Some((e.link_name(), Spread::of(rates?).mean))
                    })
                    .collect(),
            )
        });
        let lengths = self.lengths();
        let by_length = |values: &[f64]| {
            Entries(
                lengths
                    .iter()
                    .zip(values)
                    .map(|(l, &v)| (l.to_string(), v))
                    .collect(),
            )
        };
        let chance: Vec<f64> = lengths.iter().map(|&l| c.task.chance(l, c.vocab)).collect();
        let done = self.is_done();
        TrainStats {
            task: c.task.link_name(),
            seeds: self.seeds.clone(),
            seeds_done: self.seeds_done(),
            steps: self.steps_done(),
            total_steps: c.steps,
            done,
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
            chance_by_length: by_length(&chance),
            blind_ceiling_by_length: by_length(&self.blind_ceiling()),
            encodings: self.encodings.iter().map(|e| e.link_name()).collect(),
            results,
            learned: LearnedStats {
                translation_spread_initial: mean_of(&|r| r.translation_spread_initial),
                translation_spread_trained: mean_of(&|r| r.translation_spread_trained),
                translation_spread_sinusoidal: any.map(|r| r.translation_spread_sinusoidal),
                by_seed: learned
                    .iter()
                    .map(|r| LearnedSeedStats {
                        seed: r.seed,
                        translation_spread_initial: r.translation_spread_initial,
                        translation_spread_trained: r.translation_spread_trained,
                    })
                    .collect(),
            },
            offset_hit_rate,
            verdict: verdict.to_vec(),
            findings: findings.to_vec(),
        }
    }

    fn encoding_stats(&self, k: usize) -> EncodingStats {
        let runs = &self.runs[k];
        let reports: Option<Vec<&EncodingReport>> =
            runs.iter().map(|r| r.result.as_ref()).collect();
        let reports = reports.filter(|r| !r.is_empty());
        let spread = |f: &dyn Fn(&EncodingReport) -> f64| {
            reports.as_ref().map(|r| Spread::of(r.iter().map(|r| f(r))))
        };
        let at = |m: usize| spread(&|r| r.accuracy_at_multiples[m]);
        let accuracy_by_length = Entries(reports.as_ref().map_or_else(Vec::new, |reports| {
            reports[0]
                .lengths
                .iter()
                .enumerate()
                .map(|(i, length)| {
                    let mean = Spread::of(reports.iter().map(|r| r.accuracy_by_length[i])).mean;
                    (length.to_string(), mean)
                })
                .collect()
        }));
        let encoding = self.encodings[k];
        let train_seconds: f64 = runs
            .iter()
            .filter_map(|r| Some(r.result.as_ref()?.train_seconds))
            .sum();
        let range = |s: Option<Spread>| s.map(|s| [s.min, s.max]);
        EncodingStats {
            loss: self
                .loss_spread(encoding)
                .iter()
                .map(|s| s.mean as f32)
                .collect(),
            final_loss: spread(&|r| r.final_loss).map(|s| s.mean),
            accuracy_by_length,
            accuracy_at_train_length: at(0).map(|s| s.mean),
            accuracy_at_twice: at(1).map(|s| s.mean),
            accuracy_at_four_times: at(2).map(|s| s.mean),
            accuracy_at_train_length_range: range(at(0)),
            accuracy_at_twice_range: range(at(1)),
            accuracy_at_four_times_range: range(at(2)),
            parameters: runs
                .iter()
                .find_map(|r| Some(r.result.as_ref()?.parameter_count)),
            seconds: runs.iter().map(|r| r.seconds).sum(),
            steps_per_second: reports
                .as_ref()
                .filter(|_| train_seconds > 0.0)
                .map(|_| runs.iter().map(|r| r.curve.len()).sum::<usize>() as f64 / train_seconds),
            offset_hit_rate: runs
                .first()
                .and_then(|r| r.result.as_ref()?.offset_hit_rate),
            by_seed: runs
                .iter()
                .map(|r| SeedStats {
                    seed: r.seed,
                    loss: r.curve.clone(),
                    final_loss: r.result.as_ref().map(|r| r.final_loss),
                    accuracy_by_length: Entries(r.result.as_ref().map_or_else(Vec::new, |r| {
                        r.lengths
                            .iter()
                            .zip(&r.accuracy_by_length)
                            .map(|(length, &a)| (length.to_string(), a))
                            .collect()
                    })),
                    accuracy_at_train_length: r.result.as_ref().map(|r| r.accuracy_at_multiples[0]),
                    accuracy_at_twice: r.result.as_ref().map(|r| r.accuracy_at_multiples[1]),
                    accuracy_at_four_times: r.result.as_ref().map(|r| r.accuracy_at_multiples[2]),
                    offset_hit_rate: r.result.as_ref().and_then(|r| r.offset_hit_rate),
                })
                .collect(),
        }
    }
}

/// `peLab.stats.panels.train` (see docs/js-api.md).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TrainStats {
    pub task: &'static str,
    /// The seeds every encoding trains on, the first first.
    pub seeds: Vec<u64>,
    /// Seeds whose every encoding is trained and measured.
    pub seeds_done: usize,
    /// Steps every encoding has taken so far at the seed being trained, of `total_steps`.
    pub steps: usize,
    pub total_steps: usize,
    pub done: bool,
    pub running: bool,
    pub paused: bool,
    pub failure: Option<String>,
    /// Training steps per wall-clock second, all encodings and seeds together.
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
    /// The first seed (link key `tseed`).
    pub seed: u64,
    /// Uniform guessing at the training length.
    pub chance: f64,
    /// Uniform guessing (the most likely count on `histogram`) at every evaluated length.
    pub chance_by_length: Entries<String, f64>,
    /// The best accuracy any position-blind model can reach at every evaluated length
    /// (`pe_lab_train::baselines`).
    pub blind_ceiling_by_length: Entries<String, f64>,
    pub encodings: Vec<&'static str>,
    /// Per encoding, in the run's order: means over the seeds, their ranges, and every seed.
    pub results: Entries<&'static str, EncodingStats>,
    pub learned: LearnedStats,
    /// `shift` only: per encoding, the best head's offset hit rate, mean over the seeds.
    pub offset_hit_rate: Option<Entries<&'static str, f64>>,
    /// Two or three sentences that hold on every seed, once the run is done.
    pub verdict: Vec<String>,
    /// The page's detailed sentences about the run, once it is done.
    pub findings: Vec<String>,
}

/// Every encoding's loss curves, taken out of [`TrainStats`]: (name, mean curve, every seed's).
pub type LossCurves = Vec<(&'static str, Vec<f32>, Vec<Vec<f32>>)>;

impl TrainStats {
    /// `stats.panels.train` before a run: the settings' numbers and where the steps would run
    /// (`choice`, or `auto` where a trial will decide), with every result empty. Built from the
    /// settings alone, without a run's reports and the code that sums them up over seeds: the
    /// page states it before its training module, which has that code, is in. Tests hold it
    /// equal to [`TrainRun::stats`] of a run not started.
    pub fn before_run(settings: &TrainSettings, choice: Option<TrainerChoice>) -> TrainStats {
        let c = &settings.config;
        let seeds = settings.seed_list();
        let (backend, trainer_reason) = match choice {
            Some(choice) => (choice.device.link_name(), choice.reason),
            None => ("auto", super::will_measure_text()),
        };
        let results = settings
            .encodings
            .iter()
            .map(|encoding| {
                let by_seed = seeds
                    .iter()
                    .map(|&seed| SeedStats {
                        seed,
                        ..SeedStats::default()
                    })
                    .collect();
                let stats = EncodingStats {
                    by_seed,
                    ..EncodingStats::default()
                };
                (encoding.link_name(), stats)
            })
            .collect();
        TrainStats {
            task: c.task.link_name(),
            seeds,
            seeds_done: 0,
            steps: 0,
            total_steps: c.steps,
            done: false,
            running: false,
            paused: false,
            failure: None,
            steps_per_second: 0.0,
            backend,
            trainer: settings.trainer.link_name(),
            trainer_reason,
            trial: None,
            workers: 0,
            train_length: c.train_length,
            shift_k: c.shift_k,
            vocab: c.vocab,
            seed: c.seed,
            chance: c.task.chance(c.train_length, c.vocab),
            chance_by_length: Entries::default(),
            blind_ceiling_by_length: Entries::default(),
            encodings: settings.encodings.iter().map(|e| e.link_name()).collect(),
            results: Entries(results),
            learned: LearnedStats::default(),
            offset_hit_rate: None,
            verdict: Vec::new(),
            findings: Vec::new(),
        }
    }

    /// The stats with every loss curve left empty, and the curves: the page hands the curves to
    /// JavaScript as typed arrays, the rest through serde.
    pub fn split_losses(&self) -> (TrainStats, LossCurves) {
        let mut without = self.clone();
        let mut curves = Vec::with_capacity(without.results.len());
        for (name, result) in &mut without.results.0 {
            let by_seed = result
                .by_seed
                .iter_mut()
                .map(|s| std::mem::take(&mut s.loss))
                .collect();
            curves.push((*name, std::mem::take(&mut result.loss), by_seed));
        }
        (without, curves)
    }
}

/// One encoding over the run's seeds: each accuracy and loss is the mean over the seeds (once
/// every seed is measured), with its `[min, max]` range.
#[derive(Debug, Clone, PartialEq, Serialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct EncodingStats {
    /// Per step, the mean over the seeds that have reached it.
    pub loss: Vec<f32>,
    pub final_loss: Option<f64>,
    /// Keyed by the length (in words: a JavaScript object's keys), shortest first.
    pub accuracy_by_length: Entries<String, f64>,
    pub accuracy_at_train_length: Option<f64>,
    pub accuracy_at_twice: Option<f64>,
    pub accuracy_at_four_times: Option<f64>,
    pub accuracy_at_train_length_range: Option<[f64; 2]>,
    pub accuracy_at_twice_range: Option<[f64; 2]>,
    pub accuracy_at_four_times_range: Option<[f64; 2]>,
    pub parameters: Option<usize>,
    /// The workers' seconds on it, every seed together.
    pub seconds: f64,
    pub steps_per_second: Option<f64>,
    /// The first seed's best head (the one whose attention map is drawn).
    pub offset_hit_rate: Option<HeadHitRate>,
    pub by_seed: Vec<SeedStats>,
}

/// One encoding at one seed.
#[derive(Debug, Clone, PartialEq, Serialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct SeedStats {
    pub seed: u64,
    pub loss: Vec<f32>,
    pub final_loss: Option<f64>,
    pub accuracy_by_length: Entries<String, f64>,
    pub accuracy_at_train_length: Option<f64>,
    pub accuracy_at_twice: Option<f64>,
    pub accuracy_at_four_times: Option<f64>,
    pub offset_hit_rate: Option<HeadHitRate>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct LearnedStats {
    /// Means over the seeds.
    pub translation_spread_initial: Option<f64>,
    pub translation_spread_trained: Option<f64>,
    pub translation_spread_sinusoidal: Option<f64>,
    pub by_seed: Vec<LearnedSeedStats>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LearnedSeedStats {
    pub seed: u64,
    pub translation_spread_initial: Option<f64>,
    pub translation_spread_trained: Option<f64>,
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
