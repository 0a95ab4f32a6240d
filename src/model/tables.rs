//! The tables of the page's controls, with their element ids: the sliders, the other fields and
//! the buttons (what each press does); the panel settings' controls come from their own table
//! (`settings::table`). They drive the typed control handles, the page's checks of its own markup
//! and the README's lists (the native tests hold `index.html` and the README to them). The
//! panels' table is `model::panels`.

use super::panels::Go;
use super::settings::row::Control;
use super::settings::table::SETTINGS;
use super::state::Msg;

/// The encoding parameters' sliders, each with its exact numeric field: (key, range id, number id).
const PARAMETER_SLIDERS: [(&str, &str, &str); 7] = [
    ("d", "d-range", "d-number"),
    ("n", "n-range", "n-number"),
    ("base", "base-range", "base-number"),
    ("delta", "delta-range", "delta-number"),
    ("pair", "pair-range", "pair-number"),
    ("pos", "pos-range", "pos-number"),
    // The projection panel's own δ, beside its figure: the same state key as the bar's δ, so the
    // two always show one value (and on a phone the figure needs no parameter sheet).
    ("delta", "proj-delta-range", "proj-delta-number"),
];

/// Every slider with its exact numeric field: (key, range id, number id): the parameters', then
/// the panel settings' as their table ([`SETTINGS`]) gives them.
pub const SLIDERS: [(&str, &str, &str); PARAMETER_SLIDERS.len() + setting_controls().0] = {
    let mut sliders = [("", "", ""); PARAMETER_SLIDERS.len() + setting_controls().0];
    let mut at = 0;
    while at < PARAMETER_SLIDERS.len() {
        sliders[at] = PARAMETER_SLIDERS[at];
        at += 1;
    }
    let mut row = 0;
    while row < SETTINGS.len() {
        if let Control::Slider { range, number, .. } = SETTINGS[row].control {
            sliders[at] = (SETTINGS[row].key, range, number);
            at += 1;
        }
        row += 1;
    }
    sliders
};

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

/// The encoding parameters' and the view's other inputs: (key, id, kind).
const PARAMETER_FIELDS: [(&str, &str, FieldKind); 4] = [
    ("cols", "cols-input", FieldKind::Text),
    ("index", "index-check", FieldKind::Check),
    ("textbook", "textbook-check", FieldKind::Check),
    ("theme", "theme-select", FieldKind::Menu),
];

/// The other inputs: (key, id, kind): the parameters' and the view's, then the panel settings'
/// as their table gives them.
pub const FIELDS: [(&str, &str, FieldKind); PARAMETER_FIELDS.len() + setting_controls().1] = {
    let mut fields = [("", "", FieldKind::Text); PARAMETER_FIELDS.len() + setting_controls().1];
    let mut at = 0;
    while at < PARAMETER_FIELDS.len() {
        fields[at] = PARAMETER_FIELDS[at];
        at += 1;
    }
    let mut row = 0;
    while row < SETTINGS.len() {
        let key = SETTINGS[row].key;
        let (first, second) = match SETTINGS[row].control {
            Control::Check(id) => (Some((key, id, FieldKind::Check)), None),
            Control::Menu(id, _) => (Some((key, id, FieldKind::Menu)), None),
            Control::Text(id) => (Some((key, id, FieldKind::Text)), None),
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
    fields
};

/// How many sliders and other fields the panel settings have.
const fn setting_controls() -> (usize, usize) {
    let (mut sliders, mut fields) = (0, 0);
    let mut row = 0;
    while row < SETTINGS.len() {
        match SETTINGS[row].control {
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
