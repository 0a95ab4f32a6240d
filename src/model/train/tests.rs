use super::run::{Spread, TrainRun, TrainStats};
use super::*;
use crate::model::query::{state_from_link, state_query};
use crate::model::state::{Msg, State};
use pe_lab_train::protocol::Report;
use pe_lab_train::session::Session;

#[test]
fn the_default_is_the_shift_run_and_writes_no_keys() {
    let (state, notices) = state_from_link("");
    assert!(notices.is_empty());
    assert_eq!(state.train, TrainSettings::default());
    assert_eq!(state.train.config.task, Task::Shift);
    assert!(state.train.encodings.len() >= 5);
    for e in [
        TrainEncoding::None,
        TrainEncoding::Sinusoidal,
        TrainEncoding::Learned,
        TrainEncoding::Rope,
    ] {
        assert!(state.train.encodings.contains(&e));
    }
    assert!(state.train.to_query().is_empty());
}

#[test]
fn every_key_round_trips_through_a_link() {
    let search = "task=reverse&tenc=rope,none&tn=12&tsteps=50&tlr=0.002&tseed=9&theads=4&td=48&tlayers=1&tcausal=1";
    let (state, notices) = state_from_link(search);
    assert!(notices.is_empty(), "{notices:?}");
    let c = &state.train.config;
    assert_eq!(
        (
            c.task,
            c.train_length,
            c.steps,
            c.seed,
            c.heads,
            c.d,
            c.layers,
            c.causal
        ),
        (Task::Reverse, 12, 50, 9, 4, 48, 1, true)
    );
    assert_eq!(c.learning_rate, 0.002);
    assert_eq!(
        state.train.encodings,
        [TrainEncoding::None, TrainEncoding::Rope],
        "canonical order"
    );
    let written = state_query(&state);
    let (again, _) = state_from_link(&written);
    assert_eq!(again.train, state.train);
    // `task` is applied first wherever it stands: the other keys are not reset by it.
    let (late, _) = state_from_link("tn=12&task=reverse");
    assert_eq!(late.train.config.train_length, 12);
}

#[test]
fn bad_values_are_clamped_with_a_notice_in_the_link_words() {
    let (state, notices) =
        state_from_link("tn=500&tk=0&td=30&theads=4&tlr=abc&task=sort&tenc=rope,bogus");
    let c = &state.train.config;
    assert_eq!(c.train_length, 64);
    assert_eq!(c.shift_k, 1);
    assert_eq!(c.d, 24, "a multiple of 2 × heads");
    assert_eq!(
        c.learning_rate,
        TrainSettings::default().config.learning_rate
    );
    assert_eq!(state.train.encodings, [TrainEncoding::Rope]);
    let text = notices.join("\n");
    for expected in [
        "tn = 500",
        "tk = 0",
        "td = 30",
        "tlr = 'abc'",
        "task = 'sort'",
        "'bogus'",
    ] {
        assert!(text.contains(expected), "{expected} in {text}");
    }
    // Nothing that names no encoding leaves the run without one.
    let (none_left, notices) = state_from_link("tenc=,,");
    assert_eq!(
        none_left.train.encodings,
        TrainSettings::default().encodings
    );
    assert!(!notices.is_empty());
}

#[test]
fn a_new_task_brings_its_run_and_keeps_the_seed() {
    let mut state = State::default();
    state.update(Msg::set("tseed", "5"));
    state.update(Msg::set("task", "histogram"));
    assert_eq!(state.train.config.seed, 5);
    assert_eq!(
        state.train.config,
        TrainConfig {
            seed: 5,
            ..pe_lab_train::presets::histogram().config
        }
    );
}

#[test]
fn accuracies_are_written_in_whole_points_and_two_figures_below_ten() {
    use findings::{points, spread_points};
    assert_eq!(points(1.0 / 16.0), "6.2%");
    assert_eq!(points(1.0), "100%");
    assert_eq!(points(0.18149), "18%");
    assert_eq!(points(0.0068), "0.68%");
    assert_eq!(points(0.0), "0%");
    assert_eq!(points(0.0996), "10%");
    assert_eq!(points(f64::NAN), "–");
    let spread = Spread::of([0.889, 1.0, 0.97]);
    assert_eq!(spread_points(&spread), "95% (89–100)");
    assert_eq!(spread_points(&Spread::of([0.9996, 1.0])), "100%");
    let text = chance_text(&TrainSettings::default().config);
    assert!(text.starts_with("chance 6.2%"), "{text}");
}

#[test]
fn seeds_are_a_link_key_from_one_to_eight() {
    let mut settings = TrainSettings::default();
    assert_eq!(settings.seeds, 3);
    assert_eq!(settings.seed_list(), [1, 2, 3]);
    let notices = settings.apply_all([("tseeds", "2"), ("tseed", "7")]);
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(settings.seed_list(), [7, 8]);
    assert!(settings.to_query().contains(&("tseeds", "2".to_string())));
    let notices = settings.apply_all([("tseeds", "99")]);
    assert_eq!(settings.seeds, 8);
    assert!(notices[0].contains("tseeds"), "{notices:?}");
    let notices = settings.apply_all([("tseeds", "x")]);
    assert_eq!((settings.seeds, notices.len()), (8, 1));
    // A new task keeps the seeds.
    settings.apply_all([("task", "reverse")]);
    assert_eq!(settings.seeds, 8);
}

/// A small run, trained natively by the same session a worker drives.
fn finished_run() -> TrainRun {
    let mut settings = TrainSettings::default();
    settings.apply_all([
        ("tsteps", "30"),
        ("tn", "6"),
        ("tk", "2"),
        ("td", "8"),
        ("tseeds", "2"),
    ]);
    settings.set_encodings(&[
        TrainEncoding::None,
        TrainEncoding::Sinusoidal,
        TrainEncoding::Concat,
        TrainEncoding::Learned,
    ]);
    let cpu = device::choose_before_trial(device::TrainerRequest::Cpu, None);
    let mut run = TrainRun::new(3, &settings, 2, cpu);
    let mut session = Session::start(
        3,
        &settings.config,
        &settings.encodings,
        &settings.seed_list(),
    )
    .unwrap();
    let mut t = 0.0;
    let mut clock = move || {
        t += 0.001;
        t
    };
    while !session.is_finished() {
        for report in session.work(&mut clock, 0.01) {
            assert!(run.absorb(report));
        }
    }
    run.wall_seconds = 1.0;
    run
}

#[test]
fn stats_hold_the_contract_and_agree_with_the_reports() {
    let run = finished_run();
    assert!(run.is_done());
    // A report of another run is not taken.
    let mut other = run.clone();
    assert!(!other.absorb(Report::Failed {
        run: 99,
        message: "x".into()
    }));
    assert_eq!(other.failure, None);
    let stats = run.stats();
    assert_eq!(stats.task, "shift");
    assert_eq!((stats.steps, stats.total_steps, stats.done), (30, 30, true));
    assert_eq!((stats.seeds.clone(), stats.seeds_done), (vec![1, 2], 2));
    assert_eq!(stats.train_length, 6);
    assert_eq!(stats.chance, 1.0 / 16.0);
    assert_eq!(stats.steps_per_second, 240.0);
    assert_eq!((stats.backend, stats.trainer), ("cpu", "auto"));
    assert!(stats.trainer_reason.contains("trainer=cpu"));
    let learned = &stats.results["learned"];
    assert_eq!(learned.loss.len(), 30);
    assert_eq!(learned.by_seed.len(), 2);
    let reports: Vec<_> = run.runs[3]
        .iter()
        .map(|r| r.result.as_ref().unwrap())
        .collect();
    let at_one: Vec<f64> = reports.iter().map(|r| r.accuracy_at_multiples[0]).collect();
    assert_eq!(
        learned.accuracy_at_train_length,
        Some((at_one[0] + at_one[1]) / 2.0)
    );
    assert_eq!(
        learned.accuracy_at_train_length_range,
        Some([at_one[0].min(at_one[1]), at_one[0].max(at_one[1])])
    );
    for (k, by_seed) in learned.by_seed.iter().enumerate() {
        assert_eq!(by_seed.seed, run.seeds[k]);
        assert_eq!(by_seed.accuracy_at_train_length, Some(at_one[k]));
        assert_eq!(by_seed.loss, run.runs[3][k].curve);
    }
    assert_eq!(
        learned.loss[0],
        ((f64::from(run.runs[3][0].curve[0]) + f64::from(run.runs[3][1].curve[0])) / 2.0) as f32
    );
    let i = reports[0].lengths.iter().position(|&l| l == 6).unwrap();
    assert_eq!(
        learned.accuracy_by_length["6"],
        (reports[0].accuracy_by_length[i] + reports[1].accuracy_by_length[i]) / 2.0
    );
    assert_eq!(learned.accuracy_by_length.len(), reports[0].lengths.len());
    // The baselines at every evaluated length: chance, and the blind ceiling above it.
    assert_eq!(stats.chance_by_length.len(), reports[0].lengths.len());
    assert_eq!(stats.chance_by_length["6"], 1.0 / 16.0);
    assert_eq!(
        stats.blind_ceiling_by_length.len(),
        reports[0].lengths.len()
    );
    let ceiling = stats.blind_ceiling_by_length["6"];
    assert!(ceiling > 1.0 / 16.0 && ceiling < 0.5, "{ceiling}");
    assert!(stats.learned.translation_spread_initial.is_some());
    assert!(stats.learned.translation_spread_trained.is_some());
    assert!(stats.learned.translation_spread_sinusoidal.unwrap() < 1e-6);
    let rates = stats.offset_hit_rate.as_ref().unwrap();
    assert_eq!(rates.len(), 4);
    assert!(!stats.findings.is_empty());
    assert!(!stats.verdict.is_empty());
}

/// A run a trial decides: measuring until the trial's report, then the trial's choice; a GPU
/// failure mid-run puts its encodings back to step 0 on the CPU, with the reason.
#[test]
fn a_trial_decides_and_a_fallback_starts_the_curves_again() {
    let settings = TrainSettings::default();
    let mut run = TrainRun::new(5, &settings, 1, None);
    assert!(run.is_measuring() && run.is_running());
    assert_eq!(run.stats().backend, "measuring");
    let first = settings.encodings[0];
    let rates = device::TrialRates {
        encoding: first,
        cpu_steps_per_second: 400.0,
        gpu_steps_per_second: Some(1000.0),
        gpu_setup_seconds: Some(0.1),
        gpu_first_step_only: false,
        gpu_error: None,
    };
    let choice = device::choose_from_trial(&rates);
    assert!(run.absorb(Report::Trial {
        run: 5,
        device: choice.device,
        reason: choice.reason,
        rates,
    }));
    assert!(!run.is_measuring());
    let stats = run.stats();
    assert_eq!(stats.backend, "gpu");
    assert!(stats
        .trainer_reason
        .contains("1000 steps a second against the CPU's 400 (2.5×)"));
    assert_eq!(
        stats.trial.as_ref().unwrap().gpu_steps_per_second,
        Some(1000.0)
    );
    assert!(run.absorb(Report::Progress {
        run: 5,
        encoding: first,
        seed: 1,
        from: 0,
        losses: vec![2.0, 1.9],
        seconds: 0.1,
    }));
    assert_eq!(run.runs[0][0].curve.len(), 2);
    assert!(run.absorb(Report::Fallback {
        run: 5,
        message: "the GPU device was lost".into(),
    }));
    // The CPU's curve from step 0 replaces the GPU's.
    assert!(run.absorb(Report::Progress {
        run: 5,
        encoding: first,
        seed: 1,
        from: 0,
        losses: vec![2.5],
        seconds: 0.01,
    }));
    assert_eq!(run.runs[0][0].curve, [2.5]);
    let stats = run.stats();
    assert_eq!(stats.backend, "cpu");
    assert!(stats.trainer_reason.contains("(the GPU device was lost)"));
}

#[test]
fn findings_quote_the_numbers_they_rest_on() {
    let run = finished_run();
    let all = findings::findings(&run).join("\n");
    for (encoding, reports) in run.complete() {
        let at_one = Spread::of(reports.iter().map(|r| r.accuracy_at_multiples[0]));
        assert!(
            all.contains(&format!(
                "{} {}",
                encoding.link_name(),
                findings::spread_points(&at_one)
            )),
            "{all}"
        );
    }
    // Chance is exact: 1/16 is 6.25%, not two significant figures of it.
    assert!(all.contains("chance (uniform guessing) 6.25%"), "{all}");
    assert!(all.contains("positions 0…5 only"), "{all}");
    for report in run.runs[3].iter().map(|r| r.result.as_ref().unwrap()) {
        let trained = findings::spread_text(report.translation_spread_trained.unwrap());
        assert!(all.contains(&format!("seed {} ", report.seed)), "{all}");
        assert!(all.contains(&trained), "{all}");
    }
    // Nothing is said of a run still going.
    let mut running = run.clone();
    running.runs[0][1].result = None;
    assert!(findings::findings(&running).is_empty());
    assert!(findings::verdict(&running).is_empty());
    assert!(running.stats().findings.is_empty());
}

/// A run whose reports are made up, to check what the verdict concludes from given numbers.
pub(super) fn made_up_run(accuracies: &[(TrainEncoding, [f64; 2])]) -> TrainRun {
    let mut settings = TrainSettings {
        seeds: 2,
        ..TrainSettings::default()
    };
    settings.set_encodings(&accuracies.iter().map(|(e, _)| *e).collect::<Vec<_>>());
    let mut run = TrainRun::new(1, &settings, 1, None);
    let n = settings.config.train_length;
    for (encoding, at) in accuracies {
        let k = run.encodings.iter().position(|e| e == encoding).unwrap();
        for (s, &accuracy) in at.iter().enumerate() {
            let lengths: Vec<usize> = (n / 2..=4 * n).collect();
            run.runs[k][s].result = Some(pe_lab_train::protocol::EncodingReport {
                encoding: *encoding,
                seed: run.seeds[s],
                final_loss: 0.1,
                accuracy_by_length: lengths.iter().map(|_| accuracy).collect(),
                lengths: lengths.clone(),
                accuracy_at_multiples: [accuracy, accuracy / 2.0, accuracy / 4.0],
                parameter_count: 1,
                seconds: 1.0,
                train_seconds: 1.0,
                chance: 1.0 / 16.0,
                blind_ceiling_by_length: lengths.iter().map(|_| 0.2).collect(),
                blind_ceiling_error: 0.001,
                translation_spread_initial: None,
                translation_spread_trained: None,
                translation_spread_sinusoidal: 0.0,
                offset_hit_rate: None,
                example: Vec::new(),
                attention: Vec::new(),
                table: None,
            });
        }
    }
    run
}

#[test]
fn the_verdict_states_only_what_holds_on_every_seed() {
    let run = made_up_run(&[
        (TrainEncoding::Rope, [1.0, 0.99]),
        (TrainEncoding::Learned, [1.0, 0.889]),
        (TrainEncoding::None, [0.19, 0.21]),
        (TrainEncoding::Alibi, [0.2, 0.22]),
    ]);
    let verdict = findings::verdict(&run);
    // The headline, in plain words: rope holds on both seeds; learned reaches 100% on one seed
    // only; none and alibi stay at the ceiling, each with its reason; past the training length.
    let headline = &verdict[0];
    assert!(
        headline.starts_with("rope learns to copy the token 3 places back on both seeds; learned on 1 of 2 seeds (89% on the other)."),
        "{headline}"
    );
    assert!(
        headline.contains("none and alibi stay at or near the 20% that a model blind to positions can reach (none 20%, alibi 21%): none has no position at all, and alibi's penalty only grows with distance"),
        "{headline}"
    );
    assert!(
        headline.ends_with("On sequences 4× the training length (64) no encoding does it: every encoding is at or below 25% on every seed."),
        "{headline}"
    );
    // The numbers behind it: the ranges, the ceiling, the reasons with their measures.
    let first = &verdict[1];
    assert!(
        first.contains("rope solves the task on both seeds"),
        "{first}"
    );
    assert!(!first.contains("learned solve"), "{first}");
    assert!(first.contains("learned 94% (89–100)"), "{first}");
    assert!(
        first.contains("none and alibi stay at or near the position-blind ceiling, 20%"),
        "{first}"
    );
    let reasons = verdict.last().unwrap();
    assert!(reasons.contains("none sees no position"), "{verdict:?}");
    // ALiBi's reason is its bias's shape and size (two heads: slopes 1/16 and 1/256, at most
    // 15/16 of a logit across 16 positions), not a symmetry the causal mask would remove.
    assert!(
        reasons.contains("slopes are 1/16 and 1/256, so across the 16 positions it moves a score by at most 0.94"),
        "{reasons}"
    );
    assert!(!reasons.contains("k places ahead"), "{reasons}");
    // No decimals on an accuracy.
    assert!(!verdict.join(" ").contains(".5%"), "{verdict:?}");
}

/// A few tokens are said as counts, seed by seed, and sinusoidal's fall in the headline too.
#[test]
fn a_few_tokens_are_counts() {
    // 4,096 targets at 4× a length of 16 on histogram: 1/4096 and 2/4096.
    let mut run = made_up_run(&[
        (TrainEncoding::Sinusoidal, [0.9, 0.8]),
        (TrainEncoding::None, [0.5, 0.4]),
    ]);
    run.config.task = Task::Histogram;
    for report in run
        .runs
        .iter_mut()
        .flatten()
        .filter_map(|r| r.result.as_mut())
    {
        let tokens = if report.seed == run.seeds[0] {
            1.0
        } else {
            2.0
        };
        report.accuracy_at_multiples[2] = tokens / 4096.0;
    }
    let all = findings::findings(&run).join("\n");
    assert!(all.contains("sinusoidal 1 and 2 of 4,096 tokens"), "{all}");
    let headline = &findings::verdict(&run)[0];
    assert!(
        headline.contains(
            "sinusoidal falls from 85% to almost nothing (at most 2 of 4,096 tokens on any seed)"
        ),
        "{headline}"
    );
}

#[test]
fn the_loss_curves_split_off_the_stats_whole() {
    let stats = finished_run().stats();
    let (without, curves) = stats.split_losses();
    assert_eq!(curves.len(), stats.results.len());
    for (name, mean, by_seed) in curves {
        let result = &stats.results[name];
        assert_eq!(mean, result.loss);
        assert!(without.results[name].loss.is_empty());
        for (k, curve) in by_seed.iter().enumerate() {
            assert_eq!(*curve, result.by_seed[k].loss);
            assert!(without.results[name].by_seed[k].loss.is_empty());
        }
    }
}

#[test]
fn the_takeaway_says_what_train_does_then_the_verdict_first_sentence() {
    let settings = TrainSettings::default();
    let before = findings::takeaway(None, &settings);
    assert!(
        before.starts_with(&format!(
            "Press Train: {} encodings learn the shift task side by side, each on 3 seeds",
            settings.encodings.len()
        )),
        "{before}"
    );
    let mut one = TrainSettings::default();
    one.apply_all([("tseeds", "1"), ("task", "reverse")]);
    one.set_encodings(&[TrainEncoding::Rope]);
    assert!(findings::takeaway(None, &one)
        .starts_with("Press Train: 1 encoding learns the reverse task on 1 seed;"));
    let run = finished_run();
    let (verdict, _) = run.conclusions();
    assert_eq!(findings::takeaway(Some(&run), &settings), verdict[0]);
    assert_eq!(findings::verdict_after_takeaway(&run), &verdict[1..]);
}

/// The page states a run's numbers before it starts from the settings alone, without a run's
/// reports and the code that sums them up (that code is in the training module, fetched later):
/// they must be what the whole computation gives for a run not started, for every task, trainer
/// and choice of where the steps run.
#[test]
fn the_stats_before_a_run_are_the_whole_stats_of_a_run_not_started() {
    for search in [
        "",
        "task=reverse",
        "task=copy&tseeds=1&tenc=none",
        "trainer=cpu&tseeds=8",
        "task=histogram&tenc=learned,rope,shaw&tsteps=40&tn=10",
    ] {
        let (state, _) = state_from_link(search);
        let choice = device::choose_before_trial(state.train.trainer, Some("no WebGPU"));
        for choice in [choice, None] {
            let before = TrainStats::before_run(&state.train, choice.clone());
            let mut run = TrainRun::new(0, &state.train, 0, choice.clone());
            // A run that has ended before its first step: not running, no verdict or findings.
            run.failure = Some("not started".into());
            let mut whole = run.stats();
            assert!(
                whole.verdict.is_empty() && whole.findings.is_empty(),
                "{search}"
            );
            whole.failure = None;
            // Where no choice is made yet, a run says it is measuring; before it, a trial will.
            if choice.is_none() {
                assert_eq!(whole.backend, "measuring");
                whole.backend = "auto";
                whole.trainer_reason = super::will_measure_text();
            }
            assert_eq!(before, whole, "{search}");
        }
    }
}
