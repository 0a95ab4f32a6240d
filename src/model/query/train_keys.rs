//! The training panel's keys: `task`, `tenc` (a comma list), `tk`, `tn`, `tsteps`, `tlr`,
//! `tseed`, `tseeds` (how many seeds from `tseed` on), `td`, `theads`, `tlayers`, `tcausal`, and
//! `trainer` (auto, cpu or gpu: where the
//! steps run), read into [`TrainSettings`] and written back.
//! A link leaves out what equals the task's ready-made run, so `?task=reverse` alone is that run.
//! A new task resets the others to its run (keeping the seed), so within one update `task` is
//! applied first.

use super::values::{parse_integer, parse_number, parse_switch, shorten, switch_text};
use crate::model::train::device::TrainerRequest;
use crate::model::train::{Task, TrainEncoding, TrainSettings, MAX_SEEDS};

/// The training keys, in the order a link writes them (the length before `tk`, which must stay
/// below it; the heads before `td`, which must be a multiple of twice their number).
pub const TRAIN_KEYS: [&str; 13] = [
    "task", "tenc", "tn", "tk", "tsteps", "tlr", "tseed", "tseeds", "theads", "td", "tlayers",
    "tcausal", "trainer",
];

pub fn is_train_key(key: &str) -> bool {
    TRAIN_KEYS.contains(&key)
}

/// `peLab.train(options)` also takes descriptive names.
pub fn option_key(name: &str) -> &str {
    match name {
        "encodings" => "tenc",
        "shiftK" | "k" => "tk",
        "trainLength" => "tn",
        "steps" => "tsteps",
        "learningRate" | "lr" => "tlr",
        "seed" => "tseed",
        "seeds" => "tseeds",
        "d" => "td",
        "heads" => "theads",
        "layers" => "tlayers",
        "causal" => "tcausal",
        other => other,
    }
}

/// The largest integer a key takes before clamping (a seed: 2³² − 1).
const MAX_SEED: f64 = 4_294_967_295.0;

impl TrainSettings {
    /// Applies training updates (`task` first), clamping once after each; returns the notices.
    pub fn apply_all<'a>(
        &mut self,
        entries: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Vec<String> {
        let entries: Vec<(&str, &str)> = entries.into_iter().collect();
        let mut notices = Vec::new();
        let tasks = entries.iter().filter(|(k, _)| *k == "task");
        let rest = entries.iter().filter(|(k, _)| *k != "task");
        for (key, value) in tasks.chain(rest) {
            self.apply(key, value, &mut notices);
            notices.extend(self.clamp());
        }
        notices
    }

    fn apply(&mut self, key: &str, value: &str, notices: &mut Vec<String>) {
        let integer = |notices: &mut Vec<String>, max: f64| {
            parse_integer(key, value, 0.0, max, notices).map(|v| v as usize)
        };
        let c = &mut self.config;
        match key {
            "task" => match Task::from_link(value.trim().to_ascii_lowercase().as_str()) {
                Some(task) if task != c.task => {
                    *self = TrainSettings {
                        trainer: self.trainer,
                        seeds: self.seeds,
                        ..TrainSettings::for_task(task, c.seed)
                    }
                }
                Some(_) => {}
                None => notices.push(crate::message!(
                    "notice-task-unknown",
                    value = shorten(value),
                    kept = c.task.link_name()
                )),
            },
            "tenc" => self.apply_encodings(value, notices),
            "trainer" => match TrainerRequest::from_link(value) {
                Some(request) => self.trainer = request,
                None => notices.push(crate::message!(
                    "notice-trainer-unknown",
                    value = shorten(value),
                    kept = self.trainer.link_name()
                )),
            },
            "tk" => c.shift_k = integer(notices, 1e9).unwrap_or(c.shift_k),
            "tn" => c.train_length = integer(notices, 1e9).unwrap_or(c.train_length),
            "tsteps" => c.steps = integer(notices, 1e9).unwrap_or(c.steps),
            "td" => c.d = integer(notices, 1e9).unwrap_or(c.d),
            "theads" => c.heads = integer(notices, 1e9).unwrap_or(c.heads),
            "tlayers" => c.layers = integer(notices, 1e9).unwrap_or(c.layers),
            "tseed" => {
                if let Some(seed) = parse_integer(key, value, 0.0, MAX_SEED, notices) {
                    c.seed = seed as u64;
                }
            }
            "tseeds" => {
                if let Some(count) = parse_integer(key, value, 1.0, MAX_SEEDS as f64, notices) {
                    self.seeds = count as usize;
                }
            }
            "tlr" => {
                if let Some(rate) = parse_number(key, value, notices) {
                    c.learning_rate = rate;
                }
            }
            "tcausal" => {
                if let Some(on) = parse_switch(key, value, notices) {
                    c.causal = on;
                }
            }
            _ => notices.push(crate::message!("notice-unknown-key", key = shorten(key))),
        }
    }

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

    /// The link's training pairs: what differs from the task's ready-made run.
    pub fn to_query(&self) -> Vec<(&'static str, String)> {
        let preset = self.preset();
        let (c, p) = (&self.config, &preset.config);
        let mut pairs = Vec::new();
        if c.task != Task::Shift {
            pairs.push(("task", c.task.link_name().to_string()));
        }
        if self.encodings != preset.encodings {
            pairs.push(("tenc", self.encodings_text()));
        }
        let numbers: [(&'static str, usize, usize); 6] = [
            ("tn", c.train_length, p.train_length),
            ("tk", c.shift_k, p.shift_k),
            ("tsteps", c.steps, p.steps),
            ("theads", c.heads, p.heads),
            ("td", c.d, p.d),
            ("tlayers", c.layers, p.layers),
        ];
        for (key, value, default) in numbers {
            // `tk` only matters on `shift`.
            if value != default && (key != "tk" || c.task == Task::Shift) {
                pairs.push((key, value.to_string()));
            }
        }
        if c.learning_rate != p.learning_rate {
            pairs.push(("tlr", format!("{}", c.learning_rate)));
        }
        if c.seed != p.seed {
            pairs.push(("tseed", c.seed.to_string()));
        }
        if self.seeds != preset.seeds {
            pairs.push(("tseeds", self.seeds.to_string()));
        }
        if c.causal {
            pairs.push(("tcausal", switch_text(true).to_string()));
        }
        if self.trainer != TrainerRequest::Auto {
            pairs.push(("trainer", self.trainer.link_name().to_string()));
        }
        // Keep the order of TRAIN_KEYS.
        crate::model::sort::sort_by_key_f64(&mut pairs, |(key, _)| {
            TRAIN_KEYS
                .iter()
                .position(|k| k == key)
                .map_or(-1.0, |i| i as f64)
        });
        pairs
    }
}
