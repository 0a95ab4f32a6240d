//! The panel settings' keys (`text`, `valid`, `pe`, `sqrtd`, `heads`, `enc`, `scale`, …): read
//! from a link, a field or `peLab.set` into [`PanelSettings`], and written back, each as its row
//! of the settings table ([`SETTINGS`]) says. Settings that follow another value when left alone
//! (the mask, the number of heads, the complexity panel's n and d) are `None` until set, and are
//! then absent from the link.

use super::values::{parse_integer, parse_switch, shorten};
use crate::model::decimal::parse_decimal;
use crate::model::messages;
use crate::model::settings::row::{Setting, Value};
use crate::model::settings::table::{setting, SETTINGS};
use crate::model::settings::*;

pub use crate::model::settings::table::SETTINGS_KEYS;

/// Whether `key` is one of the panel settings (the long names of `peLab.set` included).
pub fn is_settings_key(key: &str) -> bool {
    setting(key).is_some()
}

impl PanelSettings {
    /// Parses the panel settings among `key=value` pairs (other keys are ignored: they belong to
    /// [`super::params::Params`] or to a course page), for an encoding of dimension `d`.
    pub fn from_pairs<'a>(
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
        d: usize,
    ) -> (PanelSettings, Vec<String>) {
        let mut lesson = PanelSettings {
            d: d.max(1),
            ..PanelSettings::default()
        };
        let mut notices = Vec::new();
        // The mask and the token pair are checked against the sentence, which may come later in
        // the link.
        let mut after_sentence = Vec::new();
        for (key, value) in pairs {
            match setting(key) {
                Some(row) if row.after_sentence => after_sentence.push((row, value)),
                Some(row) => lesson.apply(row, value, &mut notices),
                None => {}
            }
        }
        for (row, value) in after_sentence {
            lesson.apply(row, value, &mut notices);
        }
        notices.extend(lesson.clamp());
        (lesson, notices)
    }

    /// Applies one textual update and clamps. Unknown keys are reported.
    pub fn update(&mut self, key: &str, value: &str) -> Vec<String> {
        let mut notices = Vec::new();
        let Some(row) = setting(key) else {
            notices.push(crate::message!("notice-unknown-key", key = shorten(key)));
            return notices;
        };
        self.apply(row, value, &mut notices);
        notices.extend(self.clamp());
        notices
    }

    /// Reads one value as its row says: a malformed one keeps the setting, an out-of-range one
    /// is clamped, each with a notice.
    fn apply(&mut self, row: &Setting, value: &str, notices: &mut Vec<String>) {
        let key = row.key;
        match row.value {
            Value::Integer { min, max, put, .. } => {
                let max = max.of(self);
                if let Some(v) = parse_integer(key, value, min as f64, max as f64, notices) {
                    put(self, v as u64);
                }
            }
            Value::Decimal {
                min,
                max,
                why,
                get,
                put,
            } => match parse_decimal(value.trim()) {
                Some(v) => {
                    let clamped = v.clamp(min, max);
                    if clamped != v {
                        // `why` is a message of its own (its short id; the only one: the
                        // extension scale's).
                        let why = if why.is_empty() {
                            String::new()
                        } else {
                            messages::format::<messages::Computed>(why, &[])
                        };
                        notices.push(crate::message!(
                            "notice-decimal-outside",
                            key = key,
                            value = shorten(value),
                            min = min.to_string(),
                            max = max.to_string(),
                            why = why,
                            used = clamped.to_string()
                        ));
                    }
                    put(self, clamped);
                }
                None => notices.push(crate::message!(
                    "notice-not-a-number",
                    key = key,
                    value = shorten(value),
                    kept = get(self).to_string()
                )),
            },
            Value::Switch { put, .. } => {
                if let Some(on) = parse_switch(key, value, notices) {
                    put(self, on);
                }
            }
            Value::Name { names, get, put } => {
                if !put(self, value) {
                    notices.push(crate::message!(
                        "notice-not-a-name",
                        key = key,
                        value = shorten(value),
                        choices = one_of(names),
                        kept = get(self)
                    ));
                }
            }
            Value::Own { read } => read(self, value, notices),
        }
    }

    /// The settings as URL pairs, in the table's order: those left to follow something else are
    /// absent (a link then follows too), and so are those a row writes only when changed. Values
    /// are raw text, to be URL-encoded by the caller.
    pub fn to_query(&self) -> Vec<(&'static str, String)> {
        let defaults = PanelSettings::default();
        SETTINGS
            .iter()
            .filter_map(|row| row.pair(self, &defaults))
            .collect()
    }
}

/// "a, b or c".
fn one_of(names: &[&str]) -> String {
    match names.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => crate::message!(
            "list-or",
            rest = crate::model::messages::join_names(rest),
            last = *last
        ),
        None => String::new(),
    }
}
