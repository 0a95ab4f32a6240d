//! The training panel's settings ([`TrainSettings`]: a task, its configuration and the encodings
//! trained side by side) and, in [`run`], what a run in progress has reported and the numbers the
//! page shows of it. The training itself is the training crate's (`pe_lab_train`), run in Web
//! Workers; nothing here trains. Its link keys are in `query::train_keys`.

pub mod findings;
/// Where a run trains and why (the training crate's: the worker's trial decides with it too).
pub use pe_lab_train::device;
#[cfg(not(target_arch = "wasm32"))]
pub mod replay;
pub mod run;
#[cfg(test)]
mod tests;

pub use pe_lab_train::{Encoding as TrainEncoding, Notice as TrainNotice, Task, TrainConfig};

/// The reader's choice: always in range (every update is clamped, with a notice).
#[derive(Debug, Clone, PartialEq)]
pub struct TrainSettings {
    pub config: TrainConfig,
    /// At least one, each once, in the order of [`TrainEncoding::ALL`].
    pub encodings: Vec<TrainEncoding>,
    /// Where the steps run (link key `trainer`); not part of a task's preset.
    pub trainer: device::TrainerRequest,
    /// How many seeds every encoding trains on (link key `tseeds`, 1…[`MAX_SEEDS`]): the
    /// configuration's seed and the ones after it.
    pub seeds: usize,
}

/// Seeds a run trains on by default: enough to tell a result that holds from one seed's accident.
pub const DEFAULT_SEEDS: usize = 3;
/// The most seeds a run takes (each seed is a whole run of every encoding).
pub const MAX_SEEDS: usize = 8;

impl Default for TrainSettings {
    fn default() -> Self {
        TrainSettings::for_task(Task::Shift, pe_lab_train::TrainConfig::default().seed)
    }
}

impl TrainSettings {
    /// The task's ready-made run (`pe_lab_train::presets`) with the reader's seed: the values
    /// that teach on that task within half a minute.
    pub fn for_task(task: Task, seed: u64) -> Self {
        let preset = pe_lab_train::presets::for_task(task);
        TrainSettings {
            config: TrainConfig {
                seed,
                ..preset.config
            },
            encodings: preset.encodings.to_vec(),
            trainer: device::TrainerRequest::Auto,
            seeds: DEFAULT_SEEDS,
        }
    }

    /// The seeds of a run: `seed`, `seed` + 1, … (`seeds` of them).
    pub fn seed_list(&self) -> Vec<u64> {
        (0..self.seeds.clamp(1, MAX_SEEDS) as u64)
            .map(|k| self.config.seed.wrapping_add(k))
            .collect()
    }

    /// The task's ready-made settings (what a link leaves out is this).
    pub fn preset(&self) -> TrainSettings {
        TrainSettings::for_task(self.config.task, TrainConfig::default().seed)
    }

    /// Brings the configuration into range and says what changed, in the link's words.
    pub fn clamp(&mut self) -> Vec<String> {
        let (config, notices) = self.config.clamp();
        self.config = config;
        notices.iter().map(notice_text).collect()
    }

    /// The encodings in the canonical order, each once.
    pub fn set_encodings(&mut self, chosen: &[TrainEncoding]) {
        self.encodings = TrainEncoding::ALL
            .into_iter()
            .filter(|e| chosen.contains(e))
            .collect();
    }
}

/// The link key of a configuration field (the training crate names fields, the page keys).
pub fn field_key(field: &str) -> &str {
    match field {
        "train_length" => "tn",
        "shift_k" => "tk",
        "steps" => "tsteps",
        "learning_rate" => "tlr",
        "d" => "td",
        "heads" => "theads",
        "layers" => "tlayers",
        other => other,
    }
}

/// A clamping notice as the page says it: `tn = 500: train_length must be between 2 and 64;
/// using tn = 64.`
pub fn notice_text(notice: &TrainNotice) -> String {
    let key = field_key(notice.field);
    crate::message!(
        "train-notice",
        key = key,
        requested = super::query::values::shorten(&notice.requested),
        reason = notice_reason(notice),
        used = notice.used.as_str()
    )
}

/// Why a value was clamped, in the page's language. The training crate words it in English from
/// its limits (`pe_lab_train::config`); the limits are read back out of its three forms, and a
/// reason in any other form is shown as the crate gives it.
fn notice_reason(notice: &TrainNotice) -> String {
    let reason = notice.reason.as_str();
    let between = |rest: &str| -> Option<(String, String)> {
        let (low, high) = rest.split_once(" and ")?;
        Some((low.to_string(), high.to_string()))
    };
    if let Some((low, high)) = reason
        .strip_prefix(notice.field)
        .and_then(|rest| rest.strip_prefix(" must be between "))
        .and_then(between)
    {
        return crate::message!(
            "train-notice-range",
            field = notice.field,
            low = low,
            high = high
        );
    }
    if let Some((low, high)) = reason
        .strip_prefix("the learning rate must be a number between ")
        .and_then(between)
    {
        return crate::message!("train-notice-learning-rate", low = low, high = high);
    }
    if let Some(unit) = reason.strip_prefix("d must be a multiple of 2 × heads = ") {
        return crate::message!("train-notice-d-multiple", unit = unit);
    }
    reason.to_string()
}

/// A task in words, with what it needs (one line, for the page).
pub fn task_line(task: Task) -> String {
    crate::message!("train-task-description", task = task.link_name())
}

/// The chance level of the task at the training length, in words: what guessing without looking
/// at the input gets right.
pub fn chance_text(config: &TrainConfig) -> String {
    let percent = findings::points(config.task.chance(config.train_length, config.vocab));
    match config.task {
        Task::Shift | Task::Reverse => crate::message!(
            "train-chance-uniform",
            percent = percent,
            vocab = config.vocab
        ),
        Task::Histogram => crate::message!(
            "train-chance-most-likely",
            percent = percent,
            length = config.train_length
        ),
    }
}

/// The task and its chance level, the line under the task's menu.
pub fn task_and_chance(config: &TrainConfig) -> String {
    crate::message!(
        "train-task-line",
        task = task_line(config.task),
        chance = chance_text(config)
    )
}

/// [`device::choose_before_trial`] with its sentence in the page's language: where a run trains
/// when the link or the page decides, without a trial (`None`: a trial decides).
pub fn choose_before_trial(
    request: device::TrainerRequest,
    page_cpu_reason: Option<&str>,
) -> Option<device::TrainerChoice> {
    let mut choice = device::choose_before_trial(request, page_cpu_reason)?;
    choice.reason = match (request, page_cpu_reason) {
        (device::TrainerRequest::Cpu, _) => crate::message!("train-trainer-cpu-asked"),
        (device::TrainerRequest::Gpu, _) => crate::message!("train-trainer-gpu-asked"),
        (device::TrainerRequest::Auto, why) => {
            crate::message!("train-trainer-page-cpu", why = why.unwrap_or_default())
        }
    };
    Some(choice)
}

/// The sentence before a run that a trial will decide ([`device::WILL_MEASURE`]).
pub fn will_measure_text() -> String {
    crate::message!("train-trainer-will-measure")
}

/// The sentence while the trial runs ([`device::MEASURING`]).
pub fn measuring_text() -> String {
    crate::message!("train-trainer-measuring")
}

/// The sentence of the choice a trial made ([`device::choose_from_trial`]'s), in the page's
/// language: written again from the trial's rates and the device it chose.
pub fn trial_reason(device: device::TrainDevice, trial: &device::TrialRates) -> String {
    let cpu = trial.cpu_steps_per_second;
    let encoding = trial.encoding.link_name();
    let trial_seconds = device::TRIAL_SECONDS.to_string();
    match (device, trial.gpu_steps_per_second) {
        (device::TrainDevice::Gpu, gpu) => {
            let gpu = gpu.unwrap_or(f64::NAN);
            crate::training_message!(
                "train-trainer-trial-gpu",
                encoding = encoding,
                trial_seconds = trial_seconds,
                gpu = device::rate(gpu),
                cpu = device::rate(cpu),
                ratio = format!("{:.1}", gpu / cpu)
            )
        }
        (_, Some(gpu)) if trial.gpu_first_step_only => crate::training_message!(
            "train-trainer-trial-first-step",
            cpu = device::rate(cpu),
            encoding = encoding,
            setup = format!("{:.1}", trial.gpu_setup_seconds.unwrap_or(0.0)),
            first_step = format!("{:.2}", 1.0 / gpu),
            limit = device::TRIAL_GPU_LIMIT_SECONDS.to_string()
        ),
        (_, Some(gpu)) => crate::training_message!(
            "train-trainer-trial-cpu",
            encoding = encoding,
            trial_seconds = trial_seconds,
            cpu = device::rate(cpu),
            gpu = device::rate(gpu),
            margin = device::GPU_MARGIN.to_string()
        ),
        (_, None) => crate::training_message!(
            "train-trainer-trial-no-gpu",
            error = trial
                .gpu_error
                .clone()
                .unwrap_or_else(|| crate::training_message!("train-trainer-no-reason"))
        ),
    }
}

/// The sentence after the GPU trainer failed ([`device::fallback_reason`]'s), in the page's
/// language.
pub fn fallback_reason(message: &str) -> String {
    crate::training_message!("train-trainer-fallback", error = message)
}
