//! The training panel's keys: `task`, `tenc` (a comma list), `tk`, `tn`, `tsteps`, `tlr`,
//! `tseed`, `tseeds` (how many seeds from `tseed` on), `td`, `theads`, `tlayers`, `tcausal`, and
//! `trainer` (auto, cpu or gpu: where the
//! steps run), read into [`TrainSettings`] and written back.
//! A link leaves out what equals the task's ready-made run, so `?task=reverse` alone is that run.
//! A new task resets the others to its run (keeping the seed), so within one update `task` is
//! applied first.

use super::values::shorten;
use crate::model::settings::row::{Control, Get, MenuOf, Put, Setting, Write};
use crate::model::settings::rows::{in_read_order, keys_of, row_keyed, row_named, written_pairs};
use crate::model::train::device::TrainerRequest;
use crate::model::train::{Task, TrainEncoding, TrainSettings, MAX_SEEDS};
use pe_lab_train::config::{
    MAX_D, MAX_HEADS, MAX_LAYERS, MAX_LEARNING_RATE, MAX_STEPS, MAX_TRAIN_LENGTH, MIN_D,
    MIN_LEARNING_RATE, MIN_TRAIN_LENGTH,
};

/// A row of the training panel's table.
type Row = Setting<TrainSettings>;

/// The largest integer a key takes before clamping (a seed: 2³² − 1).
const MAX_SEED: i64 = 4_294_967_295;
/// The largest value read for a size or a count; the training crate's own clamping then brings
/// it into its range, with the notice that names that range.
const MAX_SIZE: i64 = 1_000_000_000;

/// A size or a count of the configuration: any whole number up to [`MAX_SIZE`] (the training
/// crate clamps it), written when it differs from the task's ready-made run.
const fn size(
    key: &'static str,
    get: Get<TrainSettings, Option<i64>>,
    put: Put<TrainSettings, i64>,
) -> Row {
    Row::integer(key, 0, MAX_SIZE, get, put).written(Write::Changed)
}

/// A numeric field with its spinner's range and step.
const fn spinner(
    id: &'static str,
    min: f64,
    max: Option<f64>,
    step: f64,
) -> Control<TrainSettings> {
    Control::Number { id, min, max, step }
}

/// Every training key, in the order a link writes them (the length before `tk`, which must stay
/// below it; the heads before `td`, which must be a multiple of twice their number). A link
/// leaves out what equals the task's ready-made run ([`TrainSettings::preset`]).
pub const TRAIN_ROWS: [Row; 13] = [
    // A new task resets the others to its run (keeping the seed), so it is read first.
    Row::name(
        "task",
        &["shift", "reverse", "histogram"],
        |t| t.config.task.link_name(),
        put_task,
    )
    .written(Write::Own(|t| {
        (t.config.task != Task::Shift).then(|| t.config.task.link_name().to_string())
    }))
    .first()
    .control(Control::Menu("train-task", MenuOf::Page))
    .menu_words(
        "train-settings-task",
        "task",
        &[
            ("shift", "train-task-shift-y-i-x", "shift: y_i = x_(i−k)"),
            (
                "reverse",
                "train-task-reverse-y-i-x",
                "reverse: y_i = x_(n−1−i)",
            ),
            (
                "histogram",
                "train-task-histogram-count-of-x",
                "histogram: count of x_i",
            ),
        ],
    ),
    Row::own("tenc", read_encodings, |t| {
        (t.encodings != t.preset().encodings).then(|| t.encodings_text())
    })
    .long(&["encodings"]),
    size(
        "tn",
        |t| Some(t.config.train_length as i64),
        |t, n| t.config.train_length = n as usize,
    )
    .long(&["trainLength"])
    .control(spinner(
        "train-tn",
        MIN_TRAIN_LENGTH as f64,
        Some(MAX_TRAIN_LENGTH as f64),
        1.0,
    )),
    // `tk` only matters on `shift`.
    size(
        "tk",
        |t| Some(t.config.shift_k as i64),
        |t, k| t.config.shift_k = k as usize,
    )
    .long(&["shiftK", "k"])
    .written(Write::ChangedAnd(|t| t.config.task == Task::Shift))
    .control(spinner(
        "train-tk",
        1.0,
        Some((MAX_TRAIN_LENGTH - 1) as f64),
        1.0,
    )),
    size(
        "tsteps",
        |t| Some(t.config.steps as i64),
        |t, steps| t.config.steps = steps as usize,
    )
    .long(&["steps"])
    .control(spinner("train-tsteps", 1.0, Some(MAX_STEPS as f64), 50.0)),
    Row::number(
        "tlr",
        |t| t.config.learning_rate,
        |t, rate| t.config.learning_rate = rate,
    )
    .long(&["learningRate", "lr"])
    .written(Write::Changed)
    .control(spinner(
        "train-tlr",
        MIN_LEARNING_RATE,
        Some(MAX_LEARNING_RATE),
        0.001,
    )),
    Row::integer(
        "tseed",
        0,
        MAX_SEED,
        |t| Some(t.config.seed as i64),
        |t, seed| t.config.seed = seed as u64,
    )
    .long(&["seed"])
    .written(Write::Changed)
    .control(spinner("train-tseed", 0.0, None, 1.0)),
    Row::integer(
        "tseeds",
        1,
        MAX_SEEDS as i64,
        |t| Some(t.seeds as i64),
        |t, count| t.seeds = count as usize,
    )
    .long(&["seeds"])
    .written(Write::Changed)
    .control(spinner("train-tseeds", 1.0, Some(MAX_SEEDS as f64), 1.0)),
    size(
        "theads",
        |t| Some(t.config.heads as i64),
        |t, heads| t.config.heads = heads as usize,
    )
    .long(&["heads"])
    .control(spinner("train-theads", 1.0, Some(MAX_HEADS as f64), 1.0)),
    size(
        "td",
        |t| Some(t.config.d as i64),
        |t, d| t.config.d = d as usize,
    )
    .long(&["d"])
    .control(spinner("train-td", MIN_D as f64, Some(MAX_D as f64), 4.0)),
    size(
        "tlayers",
        |t| Some(t.config.layers as i64),
        |t, layers| t.config.layers = layers as usize,
    )
    .long(&["layers"])
    .control(spinner("train-tlayers", 1.0, Some(MAX_LAYERS as f64), 1.0)),
    Row::switch("tcausal", |t| t.config.causal, |t, on| t.config.causal = on)
        .long(&["causal"])
        .written(Write::Changed)
        .control(Control::Check("train-tcausal"))
        .check_words("train-settings-causal-mask", "causal mask"),
    Row::name(
        "trainer",
        &["auto", "cpu", "gpu"],
        |t| t.trainer.link_name(),
        |t, name| match TrainerRequest::from_link(name) {
            Some(request) => {
                t.trainer = request;
                true
            }
            None => false,
        },
    )
    .written(Write::Changed),
];

/// The training keys, in the order a link writes them.
pub const TRAIN_KEYS: [&str; TRAIN_ROWS.len()] = keys_of(&TRAIN_ROWS);

/// Whether `key` is a training key of a link (the long names are `peLab.train`'s options only:
/// `d` and `heads` are the page's own keys in a link).
pub fn is_train_key(key: &str) -> bool {
    row_keyed(&TRAIN_ROWS, key).is_some()
}

/// The key of one of `peLab.train(options)`'s names (a key, or a row's long name such as
/// `learningRate`); other names are returned as they are.
pub fn option_key(name: &str) -> &str {
    row_named(&TRAIN_ROWS, name).map_or(name, |row| row.key)
}

impl TrainSettings {
    /// Applies training updates (`task` first), then clamps once, so that values tied to each
    /// other (`tk` below `tn`, `td` a multiple of twice `theads`) are checked together, in
    /// whatever order they come; returns the notices.
    pub fn apply_all<'a>(
        &mut self,
        entries: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Vec<String> {
        let mut notices = Vec::new();
        let (rows, unknown) = in_read_order(&TRAIN_ROWS, entries);
        for key in unknown {
            notices.push(crate::message!("notice-unknown-key", key = shorten(key)));
        }
        for (row, value) in rows {
            row.read(self, value, &mut notices);
        }
        notices.extend(self.clamp());
        notices
    }

    /// The link's training pairs: what differs from the task's ready-made run.
    pub fn to_query(&self) -> Vec<(&'static str, String)> {
        written_pairs(&TRAIN_ROWS, self, &self.preset())
    }
}

/// `task`: a new task resets the other settings to its ready-made run, keeping the seed, the
/// number of seeds and where the steps run. Says whether it knew the name.
fn put_task(settings: &mut TrainSettings, name: &str) -> bool {
    let Some(task) = Task::from_link(name.trim().to_ascii_lowercase().as_str()) else {
        return false;
    };
    if task != settings.config.task {
        *settings = TrainSettings {
            trainer: settings.trainer,
            seeds: settings.seeds,
            ..TrainSettings::for_task(task, settings.config.seed)
        }
    }
    true
}

/// `tenc`: a comma list of encodings.
fn read_encodings(settings: &mut TrainSettings, value: &str, notices: &mut Vec<String>) {
    settings.apply_encodings(value, notices);
}

impl TrainSettings {
    fn apply_encodings(&mut self, value: &str, notices: &mut Vec<String>) {
        let mut chosen = Vec::new();
        for name in value
            .split([',', ' ', ';'])
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .take(32)
        {
            match TrainEncoding::from_link(&name.to_ascii_lowercase()) {
                Some(encoding) => chosen.push(encoding),
                None => notices.push(crate::message!(
                    "notice-tenc-unknown-name",
                    value = shorten(name),
                    choices = crate::model::messages::join_names(
                        &TrainEncoding::ALL.map(|e| e.link_name())
                    )
                )),
            }
        }
        if chosen.is_empty() {
            notices.push(crate::message!(
                "notice-tenc-empty",
                value = shorten(value),
                kept = self.encodings_text()
            ));
        } else {
            self.set_encodings(&chosen);
        }
    }

    /// The encodings as `tenc` writes them.
    pub fn encodings_text(&self) -> String {
        self.encodings
            .iter()
            .map(|e| e.link_name())
            .collect::<Vec<_>>()
            .join(",")
    }
}
