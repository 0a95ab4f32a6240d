//! The view's keys: `theme` (auto, light or dark) and `present` (projector mode), read into
//! [`ViewSettings`] and written back when they differ from the default. The script in
//! `index.html`'s head applies both before the first paint by the same rules (checked:
//! tests/e2e/layout.test.mjs).

use super::values::UrlName;
use crate::model::settings::row::{Control, MenuOf, Setting, Write};
use crate::model::settings::rows::{keys_of, row_keyed, written_pairs};
use crate::model::view::{Theme, ViewSettings};

/// A row of the view's table.
type Row = Setting<ViewSettings>;

/// The view's settings, in the order a link writes them.
pub const VIEW_ROWS: [Row; 2] = [
    Row::name(
        "theme",
        &["auto", "light", "dark"],
        |v| v.theme.to_query(),
        |v, name| match Theme::from_query(name) {
            Some(theme) => {
                v.theme = theme;
                true
            }
            None => false,
        },
    )
    .written(Write::Changed)
    .control(Control::Menu("theme-select", MenuOf::Page)),
    // Set by the projector button; a link or `peLab.set` turns it on or off.
    Row::switch("present", |v| v.present, |v, on| v.present = on).written(Write::Changed),
];

/// The view keys: the link's keys of [`ViewSettings`].
pub const VIEW_KEYS: [&str; VIEW_ROWS.len()] = keys_of(&VIEW_ROWS);

pub fn is_view_key(key: &str) -> bool {
    row_keyed(&VIEW_ROWS, key).is_some()
}

/// Reads a view key (other keys are left alone: they are another table's).
pub fn read_view_key(view: &mut ViewSettings, key: &str, value: &str, notices: &mut Vec<String>) {
    if let Some(row) = row_keyed(&VIEW_ROWS, key) {
        row.read(view, value, notices);
    }
}

/// The view as link pairs: only what differs from the default.
pub fn view_pairs(view: &ViewSettings) -> Vec<(&'static str, String)> {
    written_pairs(&VIEW_ROWS, view, &ViewSettings::default())
}
