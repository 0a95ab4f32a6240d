//! The tables of the page's controls, with their element ids: the sliders, the other fields and
//! the buttons (what each press does). They drive the typed control handles, the page's checks of
//! its own markup and the README's lists (the native tests hold `index.html` and the README to
//! them). The panels' table is `model::panels`.

use super::panels::Go;
use super::state::Msg;

/// The sliders, each with its exact numeric field: (key, range id, number id).
pub const SLIDERS: [(&str, &str, &str); 21] = [
    ("d", "d-range", "d-number"),
    ("n", "n-range", "n-number"),
    ("base", "base-range", "base-number"),
    ("delta", "delta-range", "delta-number"),
    ("pair", "pair-range", "pair-number"),
    ("pos", "pos-range", "pos-number"),
    ("valid", "valid-range", "valid-number"),
    ("simi", "simi-range", "simi-number"),
    ("simk", "simk-range", "simk-number"),
    ("cn", "cn-range", "cn-number"),
    ("cd", "cd-range", "cd-number"),
    ("k", "k-range", "k-number"),
    ("beta", "beta-range", "beta-number"),
    ("aheads", "aheads-range", "aheads-number"),
    ("clip", "clip-range", "clip-number"),
    ("lmax", "lmax-range", "lmax-number"),
    ("scale", "scale-range", "scale-number"),
    ("ctx", "ctx-range", "ctx-number"),
    ("layers", "layers-range", "layers-number"),
    ("trange", "trange-range", "trange-number"),
    // The projection panel's own δ, beside its figure: the same state key as the bar's δ, so the
    // two always show one value (and on a phone the figure needs no parameter sheet).
    ("delta", "proj-delta-range", "proj-delta-number"),
];

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

/// The other inputs: (key, id, kind).
pub const FIELDS: [(&str, &str, FieldKind); 21] = [
    ("cols", "cols-input", FieldKind::Text),
    ("index", "index-check", FieldKind::Check),
    ("textbook", "textbook-check", FieldKind::Check),
    ("text", "attn-text", FieldKind::LiveText),
    ("pe", "attn-pe", FieldKind::Check),
    ("sqrtd", "attn-scale", FieldKind::Check),
    ("heads", "heads-select", FieldKind::Menu),
    ("simview", "simview-select", FieldKind::Menu),
    ("ti", "ti-select", FieldKind::Menu),
    ("tj", "tj-select", FieldKind::Menu),
    ("theme", "theme-select", FieldKind::Menu),
    ("lens", "lens0", FieldKind::Lens(0)),
    ("lens", "lens1", FieldKind::Lens(1)),
    ("proj", "attn-proj", FieldKind::Menu),
    ("seed", "attn-seed", FieldKind::Text),
    ("tile", "heads-tile", FieldKind::Check),
    ("enc", "attn-enc", FieldKind::Menu),
    ("skip", "stack-skip", FieldKind::Check),
    ("ln", "stack-ln", FieldKind::Check),
    ("causal", "stack-causal", FieldKind::Check),
    ("inject", "stack-inject", FieldKind::Menu),
];

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
