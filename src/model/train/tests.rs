use super::run::TrainRun;
use super::*;
use crate::model::query::{parse_link, state_query};
use crate::model::state::{start_limits, Msg, State};
use pe_lab_train::protocol::Report;
use pe_lab_train::session::Session;

fn state_from(search: &str) -> (State, Vec<String>) {
    let (link, mut notices) = parse_link(search);
    let (state, more) = State::from_updates(&link.updates, start_limits(true));
    notices.extend(more);
    (state, notices)
}

#[test]
fn the_default_is_the_shift_run_and_writes_no_keys() {
    let (state, notices) = state_from("");
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
    let (state, notices) = state_from(search);
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
    let (again, _) = state_from(&written);
    assert_eq!(again.train, state.train);
    // `task` is applied first wherever it stands: the other keys are not reset by it.
    let (late, _) = state_from("tn=12&task=reverse");
    assert_eq!(late.train.config.train_length, 12);
}

#[test]
fn bad_values_are_clamped_with_a_notice_in_the_link_words() {
    let (state, notices) =
        state_from("tn=500&tk=0&td=30&theads=4&tlr=abc&task=sort&tenc=rope,bogus");
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
    let (none_left, notices) = state_from("tenc=,,");
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
fn chance_and_percentages_are_written_exactly() {
    assert_eq!(percent(1.0 / 16.0), "6.25%");
    assert_eq!(percent(1.0), "100%");
    assert_eq!(percent(0.18149), "18.15%");
    assert_eq!(percent(f64::NAN), "–");
    let text = chance_text(&TrainSettings::default().config);
    assert!(text.starts_with("chance 6.25%"), "{text}");
}

/// A small run, trained natively by the same session a worker drives.
fn finished_run() -> TrainRun {
    let mut settings = TrainSettings::default();
    settings.apply_all([("tsteps", "30"), ("tn", "6"), ("tk", "2"), ("td", "8")]);
    settings.set_encodings(&[
        TrainEncoding::None,
        TrainEncoding::Sinusoidal,
        TrainEncoding::Concat,
        TrainEncoding::Learned,
    ]);
    let cpu = device::choose_before_trial(device::TrainerRequest::Cpu, None);
    let mut run = TrainRun::new(3, &settings, 2, cpu);
    let mut session = Session::start(3, &settings.config, &settings.encodings).unwrap();
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
    assert_eq!(stats.train_length, 6);
    assert_eq!(stats.chance, 1.0 / 16.0);
    assert_eq!(stats.steps_per_second, 120.0);
    assert_eq!((stats.backend, stats.trainer), ("cpu", "auto"));
    assert!(stats.trainer_reason.contains("trainer=cpu"));
    let learned = &stats.results["learned"];
    assert_eq!(learned.loss.len(), 30);
    let report = run.results[3].as_ref().unwrap();
    assert_eq!(
        learned.accuracy_at_train_length,
        Some(report.accuracy_at_multiples[0])
    );
    assert_eq!(
        learned.accuracy_by_length["6"],
        report.accuracy_by_length[report.lengths.iter().position(|&l| l == 6).unwrap()]
    );
    assert_eq!(learned.accuracy_by_length.len(), report.lengths.len());
    assert!(stats.learned.translation_spread_initial.is_some());
    assert!(stats.learned.translation_spread_trained.is_some());
    assert!(stats.learned.translation_spread_sinusoidal.unwrap() < 1e-6);
    let rates = stats.offset_hit_rate.as_ref().unwrap();
    assert_eq!(rates.len(), 4);
    assert!(!stats.findings.is_empty());
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
        from: 0,
        losses: vec![2.0, 1.9],
        seconds: 0.1,
    }));
    assert_eq!(run.curves[0].len(), 2);
    assert!(run.absorb(Report::Fallback {
        run: 5,
        message: "the GPU device was lost".into(),
    }));
    // The CPU's curve from step 0 replaces the GPU's.
    assert!(run.absorb(Report::Progress {
        run: 5,
        encoding: first,
        from: 0,
        losses: vec![2.5],
        seconds: 0.01,
    }));
    assert_eq!(run.curves[0], [2.5]);
    let stats = run.stats();
    assert_eq!(stats.backend, "cpu");
    assert!(stats.trainer_reason.contains("(the GPU device was lost)"));
}

#[test]
fn findings_quote_the_numbers_they_rest_on() {
    let run = finished_run();
    let findings = findings::findings(&run);
    let all = findings.join("\n");
    for report in run.finished() {
        let at_one = percent(report.accuracy_at_multiples[0]);
        assert!(
            all.contains(&format!("{} {at_one}", report.encoding.link_name())),
            "{all}"
        );
    }
    assert!(all.contains("chance is 6.25%"), "{all}");
    assert!(all.contains("positions 0…5 only"), "{all}");
    let learned = run.results[3].as_ref().unwrap();
    assert!(all.contains(&findings::spread_text(
        learned.translation_spread_trained.unwrap()
    )));
    let concat = run.results[2].as_ref().unwrap();
    assert!(
        all.contains(&findings::loss_text(concat.final_loss)),
        "{all}"
    );
    // Nothing is said of a run still going.
    let mut running = run.clone();
    running.results[0] = None;
    assert!(findings::findings(&running).is_empty());
    assert!(running.stats().findings.is_empty());
}
