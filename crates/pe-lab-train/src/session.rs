//! A worker's share of a side-by-side run: several encodings at one or more seeds, each pair its
//! own one-encoding [`ComparisonRun`] (so a run split over any number of workers gives the same
//! bits). Seeds are taken one after the other, the first seed first, and within a seed the
//! encodings are advanced one step each in turn, so that the first seed's loss curves grow
//! together and are complete before the second seed starts. [`Session::work`] does about as
//! much work as a time budget allows, measured by a clock the caller passes in (a worker's
//! `performance.now()`, or a fake one in the tests), and returns what the page must hear.

use crate::baselines::{blind_ceiling, BlindCeiling};
use crate::compare::ComparisonRun;
use crate::config::TrainConfig;
use crate::encodings::Encoding;
use crate::protocol::{EncodingReport, Report};
use crate::trainer::TrainError;

/// One (encoding, seed) run and what of it the page has heard.
#[derive(Debug, Clone)]
struct Job {
    encoding: Encoding,
    seed: u64,
    run: ComparisonRun,
    /// Losses already reported.
    reported: usize,
    /// Evaluation lengths already reported.
    evaluated_reported: usize,
    seconds: f64,
    train_seconds: f64,
    finished: bool,
}

/// A worker's encodings and seeds of one run.
#[derive(Debug, Clone)]
pub struct Session {
    run: u32,
    /// Seed-major: every encoding of the first seed, then of the second, …
    jobs: Vec<Job>,
    /// The job that takes the next step.
    next: usize,
    /// The position-blind ceiling at every evaluated length and its largest standard error,
    /// computed once, when the first job finishes.
    ceiling: Option<(Vec<f64>, f64)>,
}

/// The seeds a request names, or the configuration's own when it names none.
pub fn seeds_or_config(seeds: &[u64], config: &TrainConfig) -> Vec<u64> {
    if seeds.is_empty() {
        vec![config.seed]
    } else {
        seeds.to_vec()
    }
}

impl Session {
    /// A session at step 0 training each of `encodings` at each of `seeds` (none: `config.seed`);
    /// `config` is brought into range first (the page has done so already, and told the reader).
    pub fn start(
        run: u32,
        config: &TrainConfig,
        encodings: &[Encoding],
        seeds: &[u64],
    ) -> Result<Self, TrainError> {
        if encodings.is_empty() {
            return Err(TrainError::NoEncodings);
        }
        let config = config.clamp().0;
        let mut jobs = Vec::new();
        for seed in seeds_or_config(seeds, &config) {
            for &encoding in encodings {
                let config = TrainConfig {
                    seed,
                    ..config.clone()
                };
                jobs.push(Job {
                    encoding,
                    seed,
                    run: ComparisonRun::new(config, &[encoding])?,
                    reported: 0,
                    evaluated_reported: 0,
                    seconds: 0.0,
                    train_seconds: 0.0,
                    finished: false,
                });
            }
        }
        Ok(Session {
            run,
            jobs,
            next: 0,
            ceiling: None,
        })
    }

    pub fn run(&self) -> u32 {
        self.run
    }

    /// Takes `encoding`'s training at `seed` from elsewhere (the worker's GPU trainer): its
    /// trained parameters, the loss of every step (already reported to the page by the caller)
    /// and the seconds training took. [`Session::work`] then only evaluates it.
    pub fn adopt(
        &mut self,
        encoding: Encoding,
        seed: u64,
        params: Vec<f32>,
        losses: Vec<f32>,
        train_seconds: f64,
    ) -> Result<(), TrainError> {
        let job = self
            .jobs
            .iter_mut()
            .find(|job| job.encoding == encoding && job.seed == seed)
            .ok_or(TrainError::NotInRun(encoding.link_name()))?;
        let reported = losses.len();
        job.run.adopt(encoding, params, losses)?;
        job.reported = reported;
        job.seconds += train_seconds;
        job.train_seconds += train_seconds;
        Ok(())
    }

    /// Whether every encoding is trained, measured and reported.
    pub fn is_finished(&self) -> bool {
        self.jobs.iter().all(|job| job.finished)
    }

    /// Works until `clock` (seconds) has moved `budget` past its first reading, one step or one
    /// evaluation at a time (at least one), and returns the reports: the new losses of every
    /// encoding, evaluation progress, and the results of the encodings that finished.
    pub fn work(&mut self, clock: &mut dyn FnMut() -> f64, budget: f64) -> Vec<Report> {
        let mut reports = Vec::new();
        let started = clock();
        let mut now = started;
        while !self.is_finished() {
            let index = self.next_unfinished();
            let job = &mut self.jobs[index];
            if !job.run.training_done() {
                job.run.advance(1);
                let after = clock();
                job.seconds += after - now;
                job.train_seconds += after - now;
                now = after;
            } else if job.run.evaluate_next() {
                let after = clock();
                job.seconds += after - now;
                now = after;
            } else {
                let config = job.run.config().clone();
                let lengths = job.run.evaluation_lengths().to_vec();
                let (ceiling, error) = self
                    .ceiling
                    .get_or_insert_with(|| blind_ceilings(&config, &lengths))
                    .clone();
                let job = &mut self.jobs[index];
                let mut result = finish(job);
                result.blind_ceiling_by_length = ceiling;
                result.blind_ceiling_error = error;
                let after = clock();
                job.seconds += after - now;
                now = after;
                job.finished = true;
                result.seconds = job.seconds;
                result.seed = job.seed;
                reports.push(Report::Done {
                    run: self.run,
                    result: Box::new(result),
                });
            }
            self.next = (index + 1) % self.jobs.len();
            if now - started >= budget {
                break;
            }
        }
        let mut progress = Vec::new();
        for job in &mut self.jobs {
            let losses = &job.run.losses()[0];
            let at = (job.encoding, job.seed);
            progress.extend(Report::progress_since(
                self.run,
                at,
                losses,
                &mut job.reported,
                job.seconds,
            ));
            let total = job.run.evaluation_lengths().len();
            let done = total - job.run.evaluations_left();
            if job.run.training_done() && done > job.evaluated_reported && !job.finished {
                progress.push(Report::Evaluating {
                    run: self.run,
                    encoding: job.encoding,
                    seed: job.seed,
                    done,
                    total,
                });
                job.evaluated_reported = done;
            }
        }
        // Losses before results: the page draws a finished curve whole.
        progress.extend(reports);
        progress
    }

    /// The next unfinished job of the first seed that has one, in turn from [`Session::next`].
    fn next_unfinished(&self) -> usize {
        let Some(seed) = self
            .jobs
            .iter()
            .find(|job| !job.finished)
            .map(|job| job.seed)
        else {
            return 0;
        };
        (0..self.jobs.len())
            .map(|k| (self.next + k) % self.jobs.len())
            .find(|&index| !self.jobs[index].finished && self.jobs[index].seed == seed)
            .unwrap_or(0)
    }
}

/// The position-blind ceiling of `config`'s task at every one of `lengths`, and the largest
/// standard error of their simulations.
fn blind_ceilings(config: &TrainConfig, lengths: &[usize]) -> (Vec<f64>, f64) {
    let ceilings: Vec<BlindCeiling> = lengths
        .iter()
        .map(|&length| blind_ceiling(config.task, length, config.vocab, config.shift_k))
        .collect();
    let error = ceilings.iter().fold(0.0f64, |e, c| e.max(c.standard_error));
    (ceilings.iter().map(|c| c.accuracy).collect(), error)
}

/// The report of a job whose training and evaluation are done (the ceiling is filled in by the
/// session).
fn finish(job: &mut Job) -> EncodingReport {
    let comparison = job.run.finish();
    let example = comparison.example.clone();
    let trainer = &mut job.run.trainers_mut()[0];
    let attention = trainer.attention_map(&example).unwrap_or_default();
    let table = trainer.position_table();
    let result = comparison.results.into_iter().next();
    match result {
        Some(r) => EncodingReport {
            encoding: r.encoding,
            seed: job.seed,
            final_loss: r.final_loss,
            lengths: comparison.lengths,
            accuracy_by_length: r.accuracy_by_length,
            accuracy_at_multiples: r.accuracy_at_multiples,
            parameter_count: r.parameter_count,
            seconds: 0.0,
            train_seconds: job.train_seconds,
            chance: comparison.chance,
            blind_ceiling_by_length: Vec::new(),
            blind_ceiling_error: 0.0,
            translation_spread_initial: r.translation_spread_initial,
            translation_spread_trained: r.translation_spread_trained,
            translation_spread_sinusoidal: comparison.translation_spread_sinusoidal,
            offset_hit_rate: r.offset_hit_rate,
            example,
            attention,
            table,
        },
        // A one-encoding run always has one result.
        None => EncodingReport {
            encoding: job.encoding,
            seed: job.seed,
            final_loss: f64::NAN,
            lengths: Vec::new(),
            accuracy_by_length: Vec::new(),
            accuracy_at_multiples: [f64::NAN; 3],
            parameter_count: 0,
            seconds: 0.0,
            train_seconds: job.train_seconds,
            chance: comparison.chance,
            blind_ceiling_by_length: Vec::new(),
            blind_ceiling_error: 0.0,
            translation_spread_initial: None,
            translation_spread_trained: None,
            translation_spread_sinusoidal: comparison.translation_spread_sinusoidal,
            offset_hit_rate: None,
            example,
            attention,
            table,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::compare;
    use crate::tasks::Task;

    fn small() -> TrainConfig {
        TrainConfig {
            task: Task::Shift,
            shift_k: 2,
            train_length: 6,
            steps: 12,
            d: 8,
            heads: 2,
            layers: 1,
            batch: 4,
            ..TrainConfig::default()
        }
    }

    /// Drives a session with a fake clock that moves `tick` per reading.
    fn drive(session: &mut Session, tick: f64, budget: f64) -> Vec<Report> {
        let mut t = 0.0;
        let mut clock = move || {
            t += tick;
            t
        };
        let mut all = Vec::new();
        let mut rounds = 0;
        while !session.is_finished() {
            all.extend(session.work(&mut clock, budget));
            rounds += 1;
            assert!(rounds < 10_000, "the session never finished");
        }
        all
    }

    /// The result reported for `encoding` (every encoding of a finished session has one).
    fn result_of(reports: &[Report], encoding: Encoding) -> &EncodingReport {
        reports
            .iter()
            .find_map(|r| match r {
                Report::Done { result, .. } if result.encoding == encoding => Some(&**result),
                _ => None,
            })
            .expect("a result for every encoding")
    }

    #[test]
    fn a_session_gives_the_same_bits_as_compare_however_it_is_split() {
        let encodings = [Encoding::None, Encoding::Rope, Encoding::Learned];
        let reference = compare(small(), &encodings).unwrap();
        for split in [&encodings[..], &encodings[..1]] {
            let mut session = Session::start(7, &small(), split, &[]).unwrap();
            let reports = drive(&mut session, 0.001, 0.005);
            for (k, &encoding) in split.iter().enumerate() {
                let mut curve = Vec::new();
                for report in &reports {
                    assert_eq!(report.run(), 7);
                    if let Report::Progress {
                        encoding: e,
                        from,
                        losses,
                        ..
                    } = report
                    {
                        if *e == encoding {
                            assert_eq!(*from, curve.len(), "losses arrive in order");
                            curve.extend_from_slice(losses);
                        }
                    }
                }
                let expected = &reference.results[k];
                assert_eq!(curve, expected.loss, "{encoding:?}");
                let done = result_of(&reports, encoding);
                assert_eq!(done.accuracy_by_length, expected.accuracy_by_length);
                assert_eq!(done.final_loss, expected.final_loss);
                assert_eq!(done.offset_hit_rate, expected.offset_hit_rate);
                assert_eq!(done.lengths, reference.lengths);
                assert_eq!(done.example, reference.example);
                assert_eq!(done.table.is_some(), encoding == Encoding::Learned);
                assert_eq!(done.attention.len(), 2, "one layer, two heads");
                assert!(done.seconds >= done.train_seconds && done.train_seconds > 0.0);
            }
        }
    }

    /// A run trained elsewhere (here a CPU `Trainer` standing in for the GPU trainer) and adopted
    /// is evaluated exactly as the session's own: same accuracies, maps and table from the same
    /// parameters; no training step is taken again and no loss is reported twice.
    #[test]
    fn an_adopted_run_is_evaluated_as_the_sessions_own() {
        let encodings = [Encoding::Learned, Encoding::Shaw];
        let reference = compare(small(), &encodings).unwrap();
        let mut session = Session::start(3, &small(), &encodings, &[]).unwrap();
        for &encoding in &encodings {
            let mut trainer = crate::Trainer::new(TrainConfig {
                encoding,
                ..small()
            })
            .unwrap();
            let losses: Vec<f32> = (0..small().steps).map(|_| trainer.step()).collect();
            session
                .adopt(encoding, 1, trainer.parameters().to_vec(), losses, 0.5)
                .unwrap();
        }
        let reports = drive(&mut session, 0.001, 0.005);
        assert!(
            !reports.iter().any(|r| matches!(r, Report::Progress { .. })),
            "adopted losses are not reported again"
        );
        for (k, &encoding) in encodings.iter().enumerate() {
            let done = result_of(&reports, encoding);
            let expected = &reference.results[k];
            assert_eq!(done.accuracy_by_length, expected.accuracy_by_length);
            assert_eq!(done.final_loss, expected.final_loss);
            assert_eq!(done.train_seconds, 0.5);
        }
        // What does not fit is an error, not a silent mismatch.
        let mut session = Session::start(4, &small(), &encodings[..1], &[]).unwrap();
        let error = session
            .adopt(Encoding::Rope, 1, vec![0.0; 3], vec![0.0; 12], 0.0)
            .unwrap_err();
        assert_eq!(error, TrainError::NotInRun("rope"));
        let error = session
            .adopt(Encoding::Learned, 1, vec![0.0; 3], vec![0.0; 12], 0.0)
            .unwrap_err();
        assert!(matches!(error, TrainError::ParameterCount { given: 3, .. }));
        let error = session
            .adopt(Encoding::Learned, 1, vec![0.0; 3], vec![0.0; 5], 0.0)
            .unwrap_err();
        assert_eq!(
            error,
            TrainError::LossCount {
                given: 5,
                steps: 12
            }
        );
    }

    #[test]
    fn curves_grow_together_and_every_call_does_some_work() {
        let mut session =
            Session::start(1, &small(), &[Encoding::None, Encoding::Rope], &[]).unwrap();
        // A clock that jumps past the budget at once: still one step per call.
        let mut clock = {
            let mut t = 0.0;
            move || {
                t += 10.0;
                t
            }
        };
        let first = session.work(&mut clock, 0.001);
        assert_eq!(first.len(), 1, "one step of one encoding");
        let second = session.work(&mut clock, 0.001);
        match &second[0] {
            Report::Progress { encoding, from, .. } => {
                assert_eq!(
                    (*encoding, *from),
                    (Encoding::Rope, 0),
                    "the other encoding's turn"
                );
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn no_encodings_is_an_error() {
        assert!(Session::start(1, &small(), &[], &[1, 2]).is_err());
    }

    /// Every seed is its own run, the same bits as a one-seed session at that seed; the first
    /// seed finishes (trained, evaluated, reported) before the second takes a step.
    #[test]
    fn seeds_are_separate_runs_taken_in_order() {
        let encodings = [Encoding::None, Encoding::Rope];
        let mut session = Session::start(5, &small(), &encodings, &[4, 9]).unwrap();
        let reports = drive(&mut session, 0.001, 0.003);
        let mut done_seeds = Vec::new();
        for report in &reports {
            match report {
                Report::Done { result, .. } => done_seeds.push(result.seed),
                Report::Progress { seed: 9, .. } => {
                    assert_eq!(done_seeds.len(), 2, "seed 9 starts after seed 4 is done");
                }
                _ => {}
            }
        }
        assert_eq!(done_seeds, [4, 4, 9, 9]);
        for seed in [4, 9] {
            let alone = compare(TrainConfig { seed, ..small() }, &encodings).unwrap();
            for (k, &encoding) in encodings.iter().enumerate() {
                let done = reports
                    .iter()
                    .find_map(|r| match r {
                        Report::Done { result, .. }
                            if result.encoding == encoding && result.seed == seed =>
                        {
                            Some(&**result)
                        }
                        _ => None,
                    })
                    .unwrap();
                assert_eq!(done.accuracy_by_length, alone.results[k].accuracy_by_length);
                assert_eq!(done.final_loss, alone.results[k].final_loss);
            }
        }
        assert_ne!(
            compare(TrainConfig { seed: 4, ..small() }, &encodings)
                .unwrap()
                .results[0]
                .loss,
            compare(TrainConfig { seed: 9, ..small() }, &encodings)
                .unwrap()
                .results[0]
                .loss,
            "two seeds train differently"
        );
    }
}
