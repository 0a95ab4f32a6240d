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
    format!(
        "{key} = {}: {}; using {key} = {}.",
        super::query::quote(&notice.requested),
        notice.reason,
        notice.used
    )
}

/// A task in words, with what it needs (one line, for the page).
pub fn task_line(task: Task) -> &'static str {
    task.description()
}

/// The chance level of the task at the training length, in words: what guessing without looking
/// at the input gets right.
pub fn chance_text(config: &TrainConfig) -> String {
    let percent = findings::points(config.task.chance(config.train_length, config.vocab));
    match config.task {
        Task::Shift | Task::Reverse => format!(
            "chance {percent} (one token of {} guessed uniformly)",
            config.vocab
        ),
        Task::Histogram => format!(
            "chance {percent} (always guessing the most likely count at length {})",
            config.train_length
        ),
    }
}
