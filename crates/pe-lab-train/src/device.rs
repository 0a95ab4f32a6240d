//! Where a run's training steps run, and why: the reader's request (the page's link key
//! `trainer`), what the page knows of WebGPU, and the trial that times both trainers when the
//! choice is the page's. The page decides before a trial ([`choose_before_trial`]); the worker
//! that ran a trial decides from it ([`choose_from_trial`]) and reports the choice with its
//! sentence. Every sentence is written from the numbers it states.

use serde::{Deserialize, Serialize};

use crate::encodings::Encoding;
pub use crate::protocol::{TrainDevice, TRIAL_GPU_LIMIT_SECONDS, TRIAL_SECONDS};

/// How much faster the GPU must measure before it is taken: a close race would otherwise pick
/// one trainer on one run and the other on the next, and their bits differ.
pub const GPU_MARGIN: f64 = 1.25;

/// The reader's request, link key `trainer`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum TrainerRequest {
    /// The faster, measured when the page computes on WebGPU; the CPU otherwise.
    #[default]
    Auto,
    Cpu,
    Gpu,
}

impl TrainerRequest {
    pub fn link_name(self) -> &'static str {
        match self {
            TrainerRequest::Auto => "auto",
            TrainerRequest::Cpu => "cpu",
            TrainerRequest::Gpu => "gpu",
        }
    }

    /// Reads a link value (ASCII, any case, spaces around allowed).
    pub fn from_link(value: &str) -> Option<Self> {
        match value.trim().to_ascii_lowercase().as_str() {
            "auto" => Some(TrainerRequest::Auto),
            "cpu" => Some(TrainerRequest::Cpu),
            "gpu" | "webgpu" => Some(TrainerRequest::Gpu),
            _ => None,
        }
    }
}

/// What a trial measured ([`crate::protocol::Report::Trial`]), in training steps per second of
/// wall clock, readbacks included. The GPU's rate is `None` where it could not train;
/// `gpu_error` says why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TrialRates {
    pub encoding: Encoding,
    pub cpu_steps_per_second: f64,
    pub gpu_steps_per_second: Option<f64>,
    pub gpu_setup_seconds: Option<f64>,
    /// The GPU was timed on its warm-up step only (it passed the trial's time limit).
    pub gpu_first_step_only: bool,
    pub gpu_error: Option<String>,
}

/// Where a run trains and the sentence the page shows for it.
#[derive(Debug, Clone, PartialEq)]
pub struct TrainerChoice {
    pub device: TrainDevice,
    pub reason: String,
}

/// What differs on the GPU, said wherever a run trains there.
const GPU_BITS: &str = "Its sums run in another order than the CPU's, so its losses are close \
                        to trainer=cpu's but not the same bits; they repeat exactly on the same GPU \
                        and browser.";

/// The choice made before any trial: the link's request, or the CPU when the page does not
/// compute on WebGPU (`page_cpu_reason` says why). `None`: a trial decides.
pub fn choose_before_trial(
    request: TrainerRequest,
    page_cpu_reason: Option<&str>,
) -> Option<TrainerChoice> {
    match (request, page_cpu_reason) {
        (TrainerRequest::Cpu, _) => Some(TrainerChoice {
            device: TrainDevice::Cpu,
            reason: "Training on the CPU, as the link asks (trainer=cpu): the same bits on every \
                     machine."
                .into(),
        }),
        (TrainerRequest::Gpu, _) => Some(TrainerChoice {
            device: TrainDevice::Gpu,
            reason: format!(
                "Training on the GPU (WebGPU), as the link asks (trainer=gpu). {GPU_BITS}"
            ),
        }),
        (TrainerRequest::Auto, Some(why)) => Some(TrainerChoice {
            device: TrainDevice::Cpu,
            reason: format!(
                "Training on the CPU: the page computes on the CPU ({why}), so the GPU trainer \
                 was not tried."
            ),
        }),
        (TrainerRequest::Auto, None) => None,
    }
}

/// A steps-per-second figure: whole numbers from 100, two significant digits below (the page's
/// translated trial sentences write their rates with it too).
pub fn rate(x: f64) -> String {
    if x >= 100.0 {
        format!("{x:.0}")
    } else if x >= 10.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.2}")
    }
}

/// The choice a trial makes: the GPU when it measured at least [`GPU_MARGIN`] times the CPU's
/// rate. Both ran the same settings on `trial.encoding`, one after the other, in one worker; the
/// run deals its encodings to the same workers either way, so their rates compare directly.
pub fn choose_from_trial(trial: &TrialRates) -> TrainerChoice {
    let cpu = trial.cpu_steps_per_second;
    let encoding = trial.encoding.link_name();
    let timed = format!("timed on {encoding} after a warm-up step ({TRIAL_SECONDS} s each)");
    match trial.gpu_steps_per_second {
        Some(gpu) if gpu.is_finite() && cpu.is_finite() && gpu >= GPU_MARGIN * cpu => {
            TrainerChoice {
                device: TrainDevice::Gpu,
                reason: format!(
                    "Training on the GPU (WebGPU): {timed}, it took {} steps a second against the \
                 CPU's {} ({:.1}×). {GPU_BITS}",
                    rate(gpu),
                    rate(cpu),
                    gpu / cpu
                ),
            }
        }
        Some(gpu) if trial.gpu_first_step_only => TrainerChoice {
            device: TrainDevice::Cpu,
            reason: format!(
                "Training on the CPU: it took {} steps a second on {encoding}; the GPU took {:.1} s \
                 to set up and {:.2} s for its first step, past the trial's \
                 {TRIAL_GPU_LIMIT_SECONDS} s, so it was timed no further.",
                rate(cpu),
                trial.gpu_setup_seconds.unwrap_or(0.0),
                1.0 / gpu
            ),
        },
        Some(gpu) => TrainerChoice {
            device: TrainDevice::Cpu,
            reason: format!(
                "Training on the CPU: {timed}, it took {} steps a second against the GPU's {}; \
                 the GPU is taken only at {GPU_MARGIN}× the CPU's rate or more.",
                rate(cpu),
                rate(gpu)
            ),
        },
        None => TrainerChoice {
            device: TrainDevice::Cpu,
            reason: format!(
                "Training on the CPU: the GPU trainer could not run here ({}).",
                trial.gpu_error.as_deref().unwrap_or("no reason given")
            ),
        },
    }
}

/// The sentence after the GPU trainer failed (at its start or during the run) and the worker
/// started its encodings again on the CPU.
pub fn fallback_reason(message: &str) -> String {
    format!(
        "Training on the CPU: the GPU trainer failed ({message}), so its encodings started again \
         on the CPU from step 0."
    )
}

/// The sentence before a run that a trial will decide.
pub const WILL_MEASURE: &str = "Train first times the GPU and the CPU trainer, then trains on the \
                                faster.";

/// The sentence while the trial runs.
pub const MEASURING: &str = "Timing the GPU and the CPU trainer on these settings…";

#[cfg(test)]
mod tests {
    use super::*;

    fn trial(cpu: f64, gpu: Option<f64>) -> TrialRates {
        TrialRates {
            encoding: Encoding::Sinusoidal,
            cpu_steps_per_second: cpu,
            gpu_steps_per_second: gpu,
            gpu_setup_seconds: gpu.map(|_| 0.2),
            gpu_first_step_only: false,
            gpu_error: gpu.is_none().then(|| "no WebGPU adapter".to_string()),
        }
    }

    #[test]
    fn the_link_decides_before_any_trial() {
        let cpu = choose_before_trial(TrainerRequest::Cpu, None).unwrap();
        assert_eq!(cpu.device, TrainDevice::Cpu);
        assert!(cpu.reason.contains("trainer=cpu"));
        let gpu = choose_before_trial(TrainerRequest::Gpu, Some("chosen by ?compute=cpu")).unwrap();
        assert_eq!(gpu.device, TrainDevice::Gpu);
        let page =
            choose_before_trial(TrainerRequest::Auto, Some("chosen by ?compute=cpu")).unwrap();
        assert_eq!(page.device, TrainDevice::Cpu);
        assert!(
            page.reason.contains("(chosen by ?compute=cpu)"),
            "{}",
            page.reason
        );
        assert_eq!(choose_before_trial(TrainerRequest::Auto, None), None);
    }

    #[test]
    fn a_trial_takes_the_gpu_only_with_the_margin() {
        let faster = choose_from_trial(&trial(400.0, Some(1200.0)));
        assert_eq!(faster.device, TrainDevice::Gpu);
        assert!(
            faster
                .reason
                .contains("1200 steps a second against the CPU's 400 (3.0×)"),
            "{}",
            faster.reason
        );
        // Exactly at the margin: the GPU; just under: the CPU, and the sentence says why.
        assert_eq!(
            choose_from_trial(&trial(400.0, Some(500.0))).device,
            TrainDevice::Gpu
        );
        let close = choose_from_trial(&trial(400.0, Some(499.0)));
        assert_eq!(close.device, TrainDevice::Cpu);
        assert!(close
            .reason
            .contains("took 400 steps a second against the GPU's 499"));
        assert!(close.reason.contains("1.25×"), "{}", close.reason);
        let slow = choose_from_trial(&trial(431.7, Some(4.567)));
        assert!(
            slow.reason
                .contains("432 steps a second against the GPU's 4.57"),
            "{}",
            slow.reason
        );
        let cut = choose_from_trial(&TrialRates {
            gpu_setup_seconds: Some(4.1),
            gpu_first_step_only: true,
            ..trial(244.0, Some(0.5))
        });
        assert_eq!(cut.device, TrainDevice::Cpu);
        assert!(
            cut.reason
                .contains("the GPU took 4.1 s to set up and 2.00 s for its first step"),
            "{}",
            cut.reason
        );
        let failed = choose_from_trial(&trial(400.0, None));
        assert_eq!(failed.device, TrainDevice::Cpu);
        assert!(failed.reason.contains("(no WebGPU adapter)"));
        // Nonsense rates never pick the GPU.
        assert_eq!(
            choose_from_trial(&trial(f64::NAN, Some(1e9))).device,
            TrainDevice::Cpu
        );
        assert_eq!(
            choose_from_trial(&trial(400.0, Some(f64::INFINITY))).device,
            TrainDevice::Cpu
        );
    }

    #[test]
    fn the_request_reads_from_the_link() {
        for request in [
            TrainerRequest::Auto,
            TrainerRequest::Cpu,
            TrainerRequest::Gpu,
        ] {
            assert_eq!(
                TrainerRequest::from_link(request.link_name()),
                Some(request)
            );
        }
        assert_eq!(
            TrainerRequest::from_link(" GPU "),
            Some(TrainerRequest::Gpu)
        );
        // The name peLab.backend gives the GPU path, as docs/links-and-keys.md says.
        assert_eq!(
            TrainerRequest::from_link("webgpu"),
            Some(TrainerRequest::Gpu)
        );
        assert_eq!(TrainerRequest::from_link("tpu"), None);
    }
}
