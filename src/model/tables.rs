//! The tables of the page's controls, with their element ids: the sliders, the other fields and
//! the buttons (what each press does); the panel settings' controls come from their own table
//! (`settings::table`). They drive the typed control handles, the page's checks of its own markup
//! and the README's lists (the native tests hold `index.html` and the README to them). The
//! panels' table is `model::panels`.

use super::panels::Go;
use super::query::params_keys::PARAM_ROWS;
use super::query::train_keys::TRAIN_ROWS;
use super::query::view_keys::VIEW_ROWS;
#[cfg(not(target_arch = "wasm32"))]
use super::settings::row::Words;
use super::settings::row::{Control, Setting};
use super::settings::table::SETTINGS;
use super::state::Msg;

/// The projection panel's own δ, beside its figure: a second control of the parameters' `delta`,
/// so the two always show one value (and on a phone the figure needs no parameter sheet).
const SECOND_DELTA_SLIDER: (&str, &str, &str) = ("delta", "proj-delta-range", "proj-delta-number");

/// Every slider with its exact numeric field: (key, range id, number id), as the rows give them:
/// the parameters' ([`PARAM_ROWS`]), the projection panel's δ, then the panel settings'
/// ([`SETTINGS`]).
pub const SLIDERS: [(&str, &str, &str); slider_count()] = {
    let mut sliders = [("", "", ""); slider_count()];
    let at = put_sliders(&mut sliders, 0, &PARAM_ROWS);
    sliders[at] = SECOND_DELTA_SLIDER;
    put_sliders(&mut sliders, at + 1, &SETTINGS);
    sliders
};

const fn slider_count() -> usize {
    controls_of(&PARAM_ROWS).0 + 1 + controls_of(&SETTINGS).0
}

/// Writes the sliders of `rows` into `sliders` from `at` on; returns where it stopped.
const fn put_sliders<S, const N: usize>(
    sliders: &mut [(&'static str, &'static str, &'static str); N],
    mut at: usize,
    rows: &[Setting<S>],
) -> usize {
    let mut row = 0;
    while row < rows.len() {
        if let Control::Slider { range, number, .. } = rows[row].control {
            sliders[at] = (rows[row].key, range, number);
            at += 1;
        }
        row += 1;
    }
    at
}

/// A control whose markup the build writes from its row's [`Words`], by its element ids.
#[cfg(not(target_arch = "wasm32"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WrittenControl {
    /// A slider and its numeric field, placed by `<div class="control" data-row="key"></div>`.
    Slider {
        range: &'static str,
        number: &'static str,
    },
    /// A checkbox, placed by `<label data-row="key"></label>`.
    Check(&'static str),
    /// A menu, placed by `<div class="control-inline" data-row="key"></div>`: the page's options,
    /// or none where the state gives them.
    Menu(&'static str),
}

/// The controls whose markup the build writes from their rows: (key, control, words), from the
/// parameters', the panel settings', the training panel's and the view's rows (native builds:
/// the build's fixture).
#[cfg(not(target_arch = "wasm32"))]
pub fn controls_with_words() -> Vec<(&'static str, WrittenControl, Words)> {
    fn of<S>(
        rows: &'static [Setting<S>],
    ) -> impl Iterator<Item = (&'static str, WrittenControl, Words)> {
        rows.iter().filter_map(|row| {
            let control = match row.control {
                Control::Slider { range, number, .. } => WrittenControl::Slider { range, number },
                Control::Check(id) => WrittenControl::Check(id),
                Control::Menu(id, _) => WrittenControl::Menu(id),
                _ => return None,
            };
            Some((row.key, control, row.words?))
        })
    }
    of(&PARAM_ROWS)
        .chain(of(&SETTINGS))
        .chain(of(&TRAIN_ROWS))
        .chain(of(&VIEW_ROWS))
        .collect()
}

/// The sliders of the bar at the top (the embed mode may show only some of them).
pub const GLOBAL_SLIDERS: [&str; 4] = ["d", "n", "base", "delta"];

/// What kind of input a field is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldKind {
    /// Text, sent when it changes (Enter or leaving the field).
    Text,
    /// Text, sent at every keystroke.
    LiveText,
    Check,
    Menu,
    /// One of the two `valid_lens` fields of the batch example (sent together as `lens=a,b`).
    Lens(usize),
}

/// The other inputs: (key, id, kind), as the rows give them: the parameters' ([`PARAM_ROWS`]),
/// the view's ([`VIEW_ROWS`]), the panel settings' ([`SETTINGS`]), then the training panel's
/// ([`TRAIN_ROWS`]).
pub const FIELDS: [(&str, &str, FieldKind); field_count()] = {
    let mut fields = [("", "", FieldKind::Text); field_count()];
    let at = put_fields(&mut fields, 0, &PARAM_ROWS);
    let at = put_fields(&mut fields, at, &VIEW_ROWS);
    let at = put_fields(&mut fields, at, &SETTINGS);
    put_fields(&mut fields, at, &TRAIN_ROWS);
    fields
};

const fn field_count() -> usize {
    controls_of(&PARAM_ROWS).1
        + controls_of(&VIEW_ROWS).1
        + controls_of(&SETTINGS).1
        + controls_of(&TRAIN_ROWS).1
}

/// Writes the fields of `rows` other than sliders into `fields` from `at` on; returns where it
/// stopped.
const fn put_fields<S, const N: usize>(
    fields: &mut [(&'static str, &'static str, FieldKind); N],
    mut at: usize,
    rows: &[Setting<S>],
) -> usize {
    let mut row = 0;
    while row < rows.len() {
        let key = rows[row].key;
        let (first, second) = match rows[row].control {
            Control::Check(id) => (Some((key, id, FieldKind::Check)), None),
            Control::Menu(id, _) => (Some((key, id, FieldKind::Menu)), None),
            Control::Text(id, _) | Control::Number { id, .. } => {
                (Some((key, id, FieldKind::Text)), None)
            }
            Control::LiveText(id) => (Some((key, id, FieldKind::LiveText)), None),
            Control::Lens([a, b], _) => (
                Some((key, a, FieldKind::Lens(0))),
                Some((key, b, FieldKind::Lens(1))),
            ),
            Control::None | Control::Slider { .. } => (None, None),
        };
        if let Some(field) = first {
            fields[at] = field;
            at += 1;
        }
        if let Some(field) = second {
            fields[at] = field;
            at += 1;
        }
        row += 1;
    }
    at
}

/// How many sliders and other fields `rows` have.
const fn controls_of<S>(rows: &[Setting<S>]) -> (usize, usize) {
    let (mut sliders, mut fields) = (0, 0);
    let mut row = 0;
    while row < rows.len() {
        match rows[row].control {
            Control::None => {}
            Control::Slider { .. } => sliders += 1,
            Control::Lens(..) => fields += 2,
            _ => fields += 1,
        }
        row += 1;
    }
    (sliders, fields)
}

/// What a button does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Press {
    ShiftColumns(i64),
    Shuffle,
    Swap,
    NoPermutation,
    FollowGlobalSize,
    DismissNotices,
    TogglePresent,
    NextSeed,
    CopyLink,
    /// The lesson path's previous or next section.
    PreviousSection,
    NextSection,
}

impl Press {
    /// The state change a press makes; `None` for "Copy link", which changes nothing.
    pub fn message(self) -> Option<Msg> {
        Some(match self {
            Press::ShiftColumns(shift) => Msg::ShiftColumns(shift),
            Press::Shuffle => Msg::Shuffle,
            Press::Swap => Msg::set("perm", "swap"),
            Press::NoPermutation => Msg::set("perm", "none"),
            Press::FollowGlobalSize => Msg::FollowGlobalSize,
            Press::DismissNotices => Msg::DismissNotices,
            Press::TogglePresent => Msg::TogglePresent,
            Press::NextSeed => Msg::NextSeed,
            Press::PreviousSection => Msg::Go(Go::Previous),
            Press::NextSection => Msg::Go(Go::Next),
            Press::CopyLink => return None,
        })
    }
}

/// The buttons: (id, what they do).
pub const BUTTONS: [(&str, Press); 12] = [
    ("cols-higher", Press::ShiftColumns(-2)),
    ("cols-lower", Press::ShiftColumns(2)),
    ("order-shuffle", Press::Shuffle),
    ("order-swap", Press::Swap),
    ("order-reset", Press::NoPermutation),
    ("cx-follow", Press::FollowGlobalSize),
    ("notices-dismiss", Press::DismissNotices),
    ("present-toggle", Press::TogglePresent),
    ("copy-link", Press::CopyLink),
    ("attn-redraw", Press::NextSeed),
    ("lesson-prev", Press::PreviousSection),
    ("lesson-next", Press::NextSection),
];
