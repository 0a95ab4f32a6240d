//! The settings table: one row per setting of the attention and encoding panels, in the order a
//! link writes them. A row gives the key, the long name `peLab.set` also accepts, the range and
//! how a value is clamped, when a link writes it, its control (with its element ids) and its
//! fields in `peLab.lesson`. The link's reader and writer (`query::settings_keys`), the controls
//! (`model::controls`, `model::tables`) and `peLab.lesson` ([`LessonView`]) all follow it; the
//! defaults are [`PanelSettings::default`]'s.

mod beyond;
mod figures;
mod layer;
mod sentence;

use super::row::Setting;
use super::rows::{count, joined, keys_of, row_named};
use super::*;
use crate::model::query::values::UrlName;

/// A row of this table.
type Row = Setting<PanelSettings>;

/// Every panel setting, in the order a link writes them: the rows of each topic's file, one
/// file after the other.
pub const SETTINGS: [Row; count(&TOPICS)] = joined(&TOPICS);

/// The rows by topic, in the link's order.
const TOPICS: [&[Row]; 4] = [sentence::ROWS, figures::ROWS, layer::ROWS, beyond::ROWS];

/// Sets a named choice if `name` is one of its spellings.
fn set_name<T: UrlName>(choice: &mut T, name: &str) -> bool {
    match T::from_query(name) {
        Some(value) => {
            *choice = value;
            true
        }
        None => false,
    }
}

/// The index of the sentence's last token: the token pair's largest value.
fn last_token(settings: &PanelSettings) -> i64 {
    settings.token_count().saturating_sub(1) as i64
}

/// The row of a key or a long name.
pub fn setting(key: &str) -> Option<&'static Setting> {
    row_named(&SETTINGS, key)
}

/// The keys of [`SETTINGS`], in its order.
pub const SETTINGS_KEYS: [&str; SETTINGS.len()] = keys_of(&SETTINGS);

pub use super::lesson_view::LessonView;
