//! The page's tables: its panels and its controls, with their element ids. They drive mounting,
//! the embed mode, the export toolbars, the page's checks of its own markup and the README's lists
//! (the native tests hold `index.html` and the README to them).

use super::state::Msg;

/// One row of the panel table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PanelSpec {
    /// The panel's name: its `<section id="panel-<name>">`, `?embed=<name>` and, for the panels
    /// with numbers of their own, `stats.panels.<name>`.
    pub name: &'static str,
    /// Its heading, in words.
    pub title: &'static str,
    /// A CSV of its numbers can be saved.
    pub csv: bool,
    /// An SVG of its figure can be saved.
    pub svg: bool,
    /// Its canvases are drawn only once it is on (or near) the screen; its numbers are always
    /// computed.
    pub lazy: bool,
}

impl PanelSpec {
    /// The id of the panel's `<section>`.
    pub fn section_id(&self) -> String {
        format!("panel-{}", self.name)
    }
}

/// The panels, in page order.
pub const PANELS: [PanelSpec; 11] = [
    PanelSpec {
        name: "heatmap",
        title: "The positional encoding matrix P",
        csv: true,
        svg: false,
        lazy: false,
    },
    PanelSpec {
        name: "curves",
        title: "Columns against position",
        csv: true,
        svg: true,
        lazy: false,
    },
    PanelSpec {
        name: "projection",
        title: "Relative position: one rotation for every i",
        csv: true,
        svg: false,
        lazy: false,
    },
    PanelSpec {
        name: "attention",
        title: "Attention weights of a sentence",
        csv: true,
        svg: false,
        lazy: true,
    },
    PanelSpec {
        name: "pipeline",
        title: "What exactly are Q, K and V?",
        csv: false,
        svg: false,
        lazy: true,
    },
    PanelSpec {
        name: "heads",
        title: "Multi-head attention and valid_lens",
        csv: false,
        svg: false,
        lazy: true,
    },
    PanelSpec {
        name: "order",
        title: "Order is lost without positional encoding",
        csv: false,
        svg: false,
        lazy: true,
    },
    PanelSpec {
        name: "similarity",
        title: "Similarity and translation invariance",
        csv: false,
        svg: false,
        lazy: true,
    },
    PanelSpec {
        name: "binary",
        title: "The binary analogy",
        csv: false,
        svg: false,
        lazy: true,
    },
    PanelSpec {
        name: "complexity",
        title: "CNN vs RNN vs self-attention",
        csv: false,
        svg: false,
        lazy: true,
    },
    PanelSpec {
        name: "scaling",
        title: "Scale by √d, and add rather than concatenate",
        csv: false,
        svg: false,
        lazy: true,
    },
];

/// The sliders, each with its exact numeric field: (key, range id, number id).
pub const SLIDERS: [(&str, &str, &str); 13] = [
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
pub const FIELDS: [(&str, &str, FieldKind); 16] = [
    ("cols", "cols-input", FieldKind::Text),
    ("index", "index-check", FieldKind::Check),
    ("textbook", "textbook-check", FieldKind::Check),
    ("text", "attn-text", FieldKind::LiveText),
    ("pe", "attn-pe", FieldKind::Check),
    ("scale", "attn-scale", FieldKind::Check),
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
            Press::CopyLink => return None,
        })
    }
}

/// The buttons: (id, what they do).
pub const BUTTONS: [(&str, Press); 10] = [
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
];
