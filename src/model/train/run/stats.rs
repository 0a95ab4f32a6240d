//! The numbers the page shows of a run, `peLab.stats.panels.train` ([`TrainStats`]): per
//! encoding the means over the seeds, their ranges and every seed's, and the same shape before a
//! run from its settings alone.

use pe_lab_train::analysis::HeadHitRate;
use pe_lab_train::protocol::EncodingReport;
use serde::Serialize;

use super::super::device::{TrainDevice, TrainerChoice, TrialRates};
use super::super::{Task, TrainEncoding, TrainSettings};
use super::{Entries, Spread, TrainRun};

impl TrainRun {
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
        let offset_hit_rate = (c.task == Task::Shift && !complete.is_empty()).then(|| {
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
            None => ("auto", super::super::will_measure_text()),
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
