use super::super::{device, TrainSettings};
use super::*;
use crate::model::messages::{install_source, use_english, Computed, Training};
use crate::model::sentence_checks::numbers;

/// A run of made-up reports (two seeds), enough for the verdict and the findings: the train
/// tests' run, with learned translation spreads so that their finding is written too.
fn made_up_run() -> TrainRun {
    let mut run = super::super::tests::made_up_run(&[
        (TrainEncoding::Rope, [1.0, 0.99]),
        (TrainEncoding::Learned, [1.0, 0.889]),
        (TrainEncoding::None, [0.19, 0.21]),
    ]);
    for report in run
        .runs
        .iter_mut()
        .flatten()
        .filter_map(|r| r.result.as_mut())
    {
        report.translation_spread_initial = Some(0.25);
        report.translation_spread_trained = Some(0.125);
    }
    run
}

fn has_chinese(text: &str) -> bool {
    text.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

#[test]
fn the_verdict_and_the_takeaway_are_chinese_with_the_same_numbers() {
    let run = made_up_run();
    let mut settings = TrainSettings::default();
    settings.set_encodings(&[TrainEncoding::Rope]);
    let english_verdict = verdict(&run);
    let english_findings = findings(&run);
    let english_takeaway = takeaway(None, &settings);
    let english_many = takeaway(None, &TrainSettings::default());
    assert!(english_verdict[1].starts_with("At the training length ("));

    install_source::<Training>("zh", include_str!("../../../../locales/training/zh.ftl")).unwrap();
    install_source::<Computed>("zh", include_str!("../../../../locales/computed/zh.ftl")).unwrap();
    let chinese_verdict = verdict(&run);
    let chinese_findings = findings(&run);
    let chinese_takeaway = takeaway(None, &settings);
    let chinese_many = takeaway(None, &TrainSettings::default());
    use_english::<Training>();
    use_english::<Computed>();

    let pairs = english_verdict
        .iter()
        .zip(&chinese_verdict)
        .chain(english_findings.iter().zip(&chinese_findings))
        .chain([
            (&english_takeaway, &chinese_takeaway),
            (&english_many, &chinese_many),
        ]);
    for (english, chinese) in pairs {
        assert!(has_chinese(chinese), "{chinese}");
        assert!(!has_chinese(english), "{english}");
        assert_eq!(numbers(english), numbers(chinese), "{english}\n{chinese}");
    }
    assert_eq!(english_verdict.len(), chinese_verdict.len());
    assert_eq!(english_findings.len(), chinese_findings.len());
    assert!(chinese_verdict[1].contains("learned 94% (89–100)"));
    assert!(chinese_verdict[0].contains("复制 3 个位置之前的词元"));
    // English again once the Chinese catalogs are gone.
    assert_eq!(verdict(&run), english_verdict);
    assert_eq!(takeaway(None, &settings), english_takeaway);
}

/// The trainer's sentences the page writes again from a trial's rates are the training
/// crate's, word for word, in English.
#[test]
fn the_trainer_sentences_are_the_training_crates_in_english() {
    let trial = |cpu: f64, gpu: Option<f64>, first_step_only: bool| device::TrialRates {
        encoding: TrainEncoding::Sinusoidal,
        cpu_steps_per_second: cpu,
        gpu_steps_per_second: gpu,
        gpu_setup_seconds: gpu.map(|_| 4.1),
        gpu_first_step_only: first_step_only,
        gpu_error: gpu.is_none().then(|| "no WebGPU adapter".to_string()),
    };
    for rates in [
        trial(400.0, Some(1200.0), false),
        trial(400.0, Some(500.0), false),
        trial(400.0, Some(499.0), false),
        trial(431.7, Some(4.567), false),
        trial(244.0, Some(0.5), true),
        trial(400.0, None, false),
        trial(f64::NAN, Some(1e9), false),
        trial(400.0, Some(f64::INFINITY), false),
        trial(12.5, Some(15.0), true),
        trial(2.0, Some(25.0), true),
    ] {
        let choice = device::choose_from_trial(&rates);
        assert_eq!(
            super::super::trial_reason(choice.device, &rates),
            choice.reason
        );
    }
    let no_reason = device::TrialRates {
        gpu_error: None,
        ..trial(400.0, None, false)
    };
    assert_eq!(
        super::super::trial_reason(device::TrainDevice::Cpu, &no_reason),
        device::choose_from_trial(&no_reason).reason
    );
    assert_eq!(
        super::super::fallback_reason("lost"),
        device::fallback_reason("lost")
    );
    for request in [
        device::TrainerRequest::Auto,
        device::TrainerRequest::Cpu,
        device::TrainerRequest::Gpu,
    ] {
        for why in [None, Some("chosen by ?compute=cpu")] {
            assert_eq!(
                super::super::choose_before_trial(request, why),
                device::choose_before_trial(request, why)
            );
        }
    }
    assert_eq!(super::super::will_measure_text(), device::WILL_MEASURE);
    assert_eq!(super::super::measuring_text(), device::MEASURING);
}

/// A clamping notice keeps the training crate's English words.
#[test]
fn notices_keep_their_english_words() {
    let settings = TrainSettings::default();
    let mut config = settings.config.clone();
    config.train_length = 500;
    config.d = 30;
    config.heads = 4;
    config.learning_rate = 7.0;
    let (_, notices) = config.clamp();
    assert!(notices.len() >= 3, "{notices:?}");
    for notice in &notices {
        let key = super::super::field_key(notice.field);
        assert_eq!(
            super::super::notice_text(notice),
            format!(
                "{key} = {}: {}; using {key} = {}.",
                crate::model::query::quote(&notice.requested),
                notice.reason,
                notice.used
            )
        );
    }
}
