//! The panel settings' keys (`text`, `valid`, `pe`, `sqrtd`, `heads`, `enc`, `scale`, …): read
//! from a link, a field or `peLab.set` into [`PanelSettings`], and written back, each as its row
//! of the settings table ([`SETTINGS`]) says. Settings that follow another value when left alone
//! (the mask, the number of heads, the complexity panel's n and d) are `None` until set, and are
//! then absent from the link.

use super::values::shorten;
use crate::model::settings::rows::{in_read_order, written_pairs};
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
        // the link: their rows are read after the rest.
        let (rows, _others) = in_read_order(&SETTINGS, pairs);
        for (row, value) in rows {
            row.read(&mut lesson, value, &mut notices);
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
        row.read(self, value, &mut notices);
        notices.extend(self.clamp());
        notices
    }

    /// The settings as URL pairs, in the table's order: those left to follow something else are
    /// absent (a link then follows too), and so are those a row writes only when changed. Values
    /// are raw text, to be URL-encoded by the caller.
    pub fn to_query(&self) -> Vec<(&'static str, String)> {
        written_pairs(&SETTINGS, self, &PanelSettings::default())
    }
}
