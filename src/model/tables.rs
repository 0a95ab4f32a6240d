//! The page's tables: its panels and its controls, with their element ids. They drive mounting,
//! the embed mode, the export toolbars, the page's checks of its own markup and the README's lists
//! (the native tests hold `index.html` and the README to them).

use super::state::{Go, Msg};

/// A panel of the page: its identity. Every table, preset, lesson stop, cache and message names a
/// panel by this, never by its position or its element's id. A new panel is a variant here, its
/// row in [`PANELS`] and in [`LESSON`], its file in `web/panels/` (the compiler asks for its line
/// in `web::panel::mount`), its section in `index.html` and its README row (the native table tests
/// say which is missing).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PanelId {
    Heatmap,
    Curves,
    Projection,
    Attention,
    Pipeline,
    Heads,
    Order,
    Similarity,
    Binary,
    Complexity,
    Scaling,
    Rope,
    Extension,
    Alibi,
    T5,
    Shaw,
    Learned,
    Nope,
    Stacking,
}

/// One row of the panel table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PanelSpec {
    pub id: PanelId,
    /// The panel's name: its `<section id="panel-<name>">`, `?embed=<name>`, `#panel-<name>` and,
    /// for the panels with numbers of their own, `stats.panels.<name>`.
    pub name: &'static str,
    /// Its heading, in words.
    pub title: &'static str,
    /// The part of the chapter it belongs to on the lesson path.
    pub part: &'static str,
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

impl PanelId {
    /// The panel's row of [`PANELS`] (the table is in the enum's order: a native test holds it).
    pub fn spec(self) -> &'static PanelSpec {
        &PANELS[self.index()]
    }

    /// The panel's place on the page (its row of [`PANELS`]).
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// The id of the panel's `<section>`.
    pub fn section_id(self) -> String {
        self.spec().section_id()
    }

    /// The panel a name (`?embed=`, `#panel-<name>`, a lesson link) means; `None` for no panel.
    pub fn from_name(name: &str) -> Option<PanelId> {
        PANELS
            .iter()
            .find(|spec| spec.name == name)
            .map(|spec| spec.id)
    }

    /// The panel of a section id (`panel-<name>`).
    pub fn from_section_id(id: &str) -> Option<PanelId> {
        PanelId::from_name(id.strip_prefix("panel-")?)
    }

    /// Its stop on the lesson path: 0 for the first.
    pub fn lesson_position(self) -> Option<usize> {
        LESSON.iter().position(|&stop| stop == self)
    }

    /// The slot of `stats.stageMs` that times this panel's render: P's three figures have one
    /// each (after the compute of P itself, slot 0).
    pub fn timing_slot(self) -> Option<usize> {
        match self {
            PanelId::Heatmap => Some(1),
            PanelId::Curves => Some(2),
            PanelId::Projection => Some(3),
            _ => None,
        }
    }
}

/// The panels, in page order (the order of [`PanelId`]).
pub const PANELS: &[PanelSpec] = &[
    PanelSpec {
        id: PanelId::Heatmap,
        name: "heatmap",
        title: "The positional encoding matrix P",
        part: "Positional encoding",
        csv: true,
        svg: false,
        lazy: false,
    },
    PanelSpec {
        id: PanelId::Curves,
        name: "curves",
        title: "Columns against position",
        part: "Positional encoding",
        csv: true,
        svg: true,
        lazy: false,
    },
    PanelSpec {
        id: PanelId::Projection,
        name: "projection",
        title: "Relative position: one rotation for every i",
        part: "Relative positional information",
        csv: true,
        svg: false,
        lazy: false,
    },
    PanelSpec {
        id: PanelId::Attention,
        name: "attention",
        title: "Attention weights of a sentence",
        part: "Self-attention",
        csv: true,
        svg: false,
        lazy: true,
    },
    PanelSpec {
        id: PanelId::Pipeline,
        name: "pipeline",
        title: "What exactly are Q, K and V?",
        part: "Self-attention",
        csv: false,
        svg: false,
        lazy: true,
    },
    PanelSpec {
        id: PanelId::Heads,
        name: "heads",
        title: "Multi-head attention and valid_lens",
        part: "Self-attention",
        csv: false,
        svg: false,
        lazy: true,
    },
    PanelSpec {
        id: PanelId::Order,
        name: "order",
        title: "Order is lost without positional encoding",
        part: "Readers' questions",
        csv: false,
        svg: false,
        lazy: true,
    },
    PanelSpec {
        id: PanelId::Similarity,
        name: "similarity",
        title: "Similarity and translation invariance",
        part: "Relative positional information",
        csv: false,
        svg: false,
        lazy: true,
    },
    PanelSpec {
        id: PanelId::Binary,
        name: "binary",
        title: "The binary analogy",
        part: "Absolute positional information",
        csv: false,
        svg: false,
        lazy: true,
    },
    PanelSpec {
        id: PanelId::Complexity,
        name: "complexity",
        title: "CNN vs RNN vs self-attention",
        part: "Comparing CNNs, RNNs and self-attention",
        csv: false,
        svg: false,
        lazy: true,
    },
    PanelSpec {
        id: PanelId::Scaling,
        name: "scaling",
        title: "Scale by √d, and add rather than concatenate",
        part: "Readers' questions",
        csv: false,
        svg: false,
        lazy: true,
    },
    PanelSpec {
        id: PanelId::Rope,
        name: "rope",
        title: "RoPE: rotate queries and keys",
        part: "Beyond sinusoidal: today's encodings and the exercises",
        csv: false,
        svg: false,
        lazy: true,
    },
    PanelSpec {
        id: PanelId::Extension,
        name: "extension",
        title: "Longer contexts: interpolation, NTK-aware scaling, YaRN",
        part: "Beyond sinusoidal: today's encodings and the exercises",
        csv: false,
        svg: false,
        lazy: true,
    },
    PanelSpec {
        id: PanelId::Alibi,
        name: "alibi",
        title: "ALiBi: a linear bias instead of a vector",
        part: "Beyond sinusoidal: today's encodings and the exercises",
        csv: false,
        svg: false,
        lazy: true,
    },
    PanelSpec {
        id: PanelId::T5,
        name: "t5",
        title: "T5's relative position buckets",
        part: "Beyond sinusoidal: today's encodings and the exercises",
        csv: false,
        svg: false,
        lazy: true,
    },
    PanelSpec {
        id: PanelId::Shaw,
        name: "shaw",
        title: "Relative position embeddings (Shaw et al.)",
        part: "Beyond sinusoidal: today's encodings and the exercises",
        csv: false,
        svg: false,
        lazy: true,
    },
    PanelSpec {
        id: PanelId::Learned,
        name: "learned",
        title: "A learned position table",
        part: "Beyond sinusoidal: today's encodings and the exercises",
        csv: false,
        svg: false,
        lazy: true,
    },
    PanelSpec {
        id: PanelId::Nope,
        name: "nope",
        title: "No encoding at all: the causal mask counts",
        part: "Beyond sinusoidal: today's encodings and the exercises",
        csv: false,
        svg: false,
        lazy: true,
    },
    PanelSpec {
        id: PanelId::Stacking,
        name: "stacking",
        title: "Stacking attention layers",
        part: "Beyond sinusoidal: today's encodings and the exercises",
        csv: false,
        svg: false,
        lazy: true,
    },
];

/// The sliders, each with its exact numeric field: (key, range id, number id).
pub const SLIDERS: [(&str, &str, &str); 20] = [
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

/// The lesson path: every panel once, in the chapter's order (self-attention, the comparison of
/// CNNs, RNNs and self-attention, positional encoding, absolute then relative positional
/// information), then the readers' questions, then the encodings beyond the chapter and its
/// exercises. The page's lesson navigation, its keys and the address bar's `#panel-<name>`
/// follow it; each stop's part of the chapter is its [`PanelSpec::part`].
pub const LESSON: &[PanelId] = &[
    PanelId::Attention,
    PanelId::Pipeline,
    PanelId::Heads,
    PanelId::Complexity,
    PanelId::Heatmap,
    PanelId::Curves,
    PanelId::Binary,
    PanelId::Projection,
    PanelId::Similarity,
    PanelId::Order,
    PanelId::Scaling,
    PanelId::Rope,
    PanelId::Extension,
    PanelId::Alibi,
    PanelId::T5,
    PanelId::Shaw,
    PanelId::Learned,
    PanelId::Nope,
    PanelId::Stacking,
];

/// Where a move along the lesson path leads from `current` (`None`: no section chosen yet, so
/// both directions start at the first). The ends stay where they are.
pub fn lesson_move(current: Option<PanelId>, go: Go) -> PanelId {
    let last = LESSON.len() - 1;
    let at = current.and_then(PanelId::lesson_position);
    let to = match (go, at) {
        (Go::To(panel), _) => return panel,
        (Go::Next | Go::Previous, None) => 0,
        (Go::Next, Some(at)) => (at + 1).min(last),
        (Go::Previous, Some(at)) => at.saturating_sub(1),
    };
    LESSON[to]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_panel_table_is_in_the_order_of_its_ids() {
        for (index, spec) in PANELS.iter().enumerate() {
            assert_eq!(spec.id.index(), index, "{} is out of place", spec.name);
            assert_eq!(spec.id.spec(), spec);
            assert_eq!(PanelId::from_name(spec.name), Some(spec.id));
            assert_eq!(PanelId::from_section_id(&spec.section_id()), Some(spec.id));
        }
        assert_eq!(PanelId::from_name("nothing"), None);
        assert_eq!(PanelId::from_section_id("heatmap"), None);
        let mut names: Vec<&str> = PANELS.iter().map(|s| s.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), PANELS.len(), "two panels share a name");
    }

    #[test]
    fn the_lesson_shows_every_panel_exactly_once() {
        for spec in PANELS {
            let stops = LESSON.iter().filter(|&&stop| stop == spec.id).count();
            assert_eq!(
                stops, 1,
                "panel {} is on the lesson path {stops} times",
                spec.name
            );
        }
        assert_eq!(LESSON.len(), PANELS.len());
    }

    #[test]
    fn the_lesson_follows_the_chapter() {
        let order: Vec<&str> = LESSON.iter().map(|stop| stop.name()).collect();
        assert_eq!(
            order,
            [
                "attention",
                "pipeline",
                "heads",
                "complexity",
                "heatmap",
                "curves",
                "binary",
                "projection",
                "similarity",
                "order",
                "scaling",
                "rope",
                "extension",
                "alibi",
                "t5",
                "shaw",
                "learned",
                "nope",
                "stacking"
            ]
        );
        // The parts come in one block each.
        let mut parts: Vec<&str> = LESSON.iter().map(|stop| stop.spec().part).collect();
        parts.dedup();
        let mut unique = parts.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), parts.len(), "{parts:?}");
    }

    #[test]
    fn moves_along_the_lesson_stop_at_the_ends() {
        let first = LESSON[0];
        let last = LESSON[LESSON.len() - 1];
        assert_eq!(lesson_move(None, Go::Next), first);
        assert_eq!(lesson_move(None, Go::Previous), first);
        assert_eq!(lesson_move(Some(first), Go::Previous), first);
        assert_eq!(lesson_move(Some(first), Go::Next), LESSON[1]);
        assert_eq!(lesson_move(Some(last), Go::Next), last);
        assert_eq!(lesson_move(Some(LESSON[5]), Go::Previous), LESSON[4]);
        assert_eq!(
            lesson_move(Some(PanelId::Heads), Go::To(PanelId::Binary)),
            PanelId::Binary
        );
    }

    #[test]
    fn only_p_s_figures_have_a_timing_slot() {
        let slots: Vec<(PanelId, usize)> = PANELS
            .iter()
            .filter_map(|spec| Some((spec.id, spec.id.timing_slot()?)))
            .collect();
        assert_eq!(
            slots,
            [
                (PanelId::Heatmap, 1),
                (PanelId::Curves, 2),
                (PanelId::Projection, 3)
            ]
        );
    }
}
