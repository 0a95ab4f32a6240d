//! The page's tables: its panels and its controls, with their element ids. They drive mounting,
//! the embed mode, the export toolbars, the page's checks of its own markup and the README's lists
//! (the native tests hold `index.html` and the README to them).

use super::state::{Go, Msg};

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
pub const PANELS: [PanelSpec; 19] = [
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
    PanelSpec {
        name: "rope",
        title: "RoPE: rotate queries and keys",
        csv: false,
        svg: false,
        lazy: true,
    },
    PanelSpec {
        name: "extension",
        title: "Longer contexts: interpolation, NTK-aware scaling, YaRN",
        csv: false,
        svg: false,
        lazy: true,
    },
    PanelSpec {
        name: "alibi",
        title: "ALiBi: a linear bias instead of a vector",
        csv: false,
        svg: false,
        lazy: true,
    },
    PanelSpec {
        name: "t5",
        title: "T5's relative position buckets",
        csv: false,
        svg: false,
        lazy: true,
    },
    PanelSpec {
        name: "shaw",
        title: "Relative position embeddings (Shaw et al.)",
        csv: false,
        svg: false,
        lazy: true,
    },
    PanelSpec {
        name: "learned",
        title: "A learned position table",
        csv: false,
        svg: false,
        lazy: true,
    },
    PanelSpec {
        name: "nope",
        title: "No encoding at all: the causal mask counts",
        csv: false,
        svg: false,
        lazy: true,
    },
    PanelSpec {
        name: "stacking",
        title: "Stacking attention layers",
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

/// One stop of the lesson path: a panel, and the part of the chapter it belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LessonStep {
    /// The panel's name (its row of [`PANELS`]).
    pub panel: &'static str,
    /// The chapter's part, in words.
    pub part: &'static str,
}

/// The lesson path: every panel once, in the chapter's order (self-attention, the comparison of
/// CNNs, RNNs and self-attention, positional encoding, absolute then relative positional
/// information), then the readers' questions, then the encodings beyond the chapter and its
/// exercises. The page's lesson navigation, its keys and the
/// address bar's `#panel-<name>` follow it.
pub const LESSON: [LessonStep; 19] = [
    LessonStep {
        panel: "attention",
        part: "Self-attention",
    },
    LessonStep {
        panel: "pipeline",
        part: "Self-attention",
    },
    LessonStep {
        panel: "heads",
        part: "Self-attention",
    },
    LessonStep {
        panel: "complexity",
        part: "Comparing CNNs, RNNs and self-attention",
    },
    LessonStep {
        panel: "heatmap",
        part: "Positional encoding",
    },
    LessonStep {
        panel: "curves",
        part: "Positional encoding",
    },
    LessonStep {
        panel: "binary",
        part: "Absolute positional information",
    },
    LessonStep {
        panel: "projection",
        part: "Relative positional information",
    },
    LessonStep {
        panel: "similarity",
        part: "Relative positional information",
    },
    LessonStep {
        panel: "order",
        part: "Readers' questions",
    },
    LessonStep {
        panel: "scaling",
        part: "Readers' questions",
    },
    LessonStep {
        panel: "rope",
        part: "Beyond sinusoidal: today's encodings and the exercises",
    },
    LessonStep {
        panel: "extension",
        part: "Beyond sinusoidal: today's encodings and the exercises",
    },
    LessonStep {
        panel: "alibi",
        part: "Beyond sinusoidal: today's encodings and the exercises",
    },
    LessonStep {
        panel: "t5",
        part: "Beyond sinusoidal: today's encodings and the exercises",
    },
    LessonStep {
        panel: "shaw",
        part: "Beyond sinusoidal: today's encodings and the exercises",
    },
    LessonStep {
        panel: "learned",
        part: "Beyond sinusoidal: today's encodings and the exercises",
    },
    LessonStep {
        panel: "nope",
        part: "Beyond sinusoidal: today's encodings and the exercises",
    },
    LessonStep {
        panel: "stacking",
        part: "Beyond sinusoidal: today's encodings and the exercises",
    },
];

impl LessonStep {
    /// The panel's row of the panel table.
    pub fn spec(&self) -> &'static PanelSpec {
        PANELS
            .iter()
            .find(|spec| spec.name == self.panel)
            .unwrap_or(&PANELS[0])
    }
}

/// The lesson stop showing this panel (by name).
pub fn lesson_index(panel: &str) -> Option<usize> {
    LESSON.iter().position(|step| step.panel == panel)
}

/// Where a move along the lesson path leads from `current` (`None`: no section chosen yet, so
/// both directions start at the first). The ends stay where they are; an unknown panel leads
/// nowhere.
pub fn lesson_move(current: Option<usize>, go: &Go) -> Option<usize> {
    let last = LESSON.len() - 1;
    match (go, current) {
        (Go::To(panel), _) => lesson_index(panel),
        (Go::Next | Go::Previous, None) => Some(0),
        (Go::Next, Some(at)) => Some((at + 1).min(last)),
        (Go::Previous, Some(at)) => Some(at.saturating_sub(1).min(last)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lesson_shows_every_panel_exactly_once() {
        for spec in PANELS {
            let stops = LESSON.iter().filter(|s| s.panel == spec.name).count();
            assert_eq!(
                stops, 1,
                "panel {} is on the lesson path {stops} times",
                spec.name
            );
        }
        assert_eq!(LESSON.len(), PANELS.len());
        for step in LESSON {
            assert_eq!(
                step.spec().name,
                step.panel,
                "{} is not a panel",
                step.panel
            );
        }
    }

    #[test]
    fn the_lesson_follows_the_chapter() {
        let order: Vec<&str> = LESSON.iter().map(|s| s.panel).collect();
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
        let mut parts: Vec<&str> = LESSON.iter().map(|s| s.part).collect();
        parts.dedup();
        let mut unique = parts.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), parts.len(), "{parts:?}");
    }

    #[test]
    fn moves_along_the_lesson_stop_at_the_ends() {
        assert_eq!(lesson_move(None, &Go::Next), Some(0));
        assert_eq!(lesson_move(None, &Go::Previous), Some(0));
        assert_eq!(lesson_move(Some(0), &Go::Previous), Some(0));
        assert_eq!(lesson_move(Some(0), &Go::Next), Some(1));
        assert_eq!(lesson_move(Some(18), &Go::Next), Some(18));
        assert_eq!(lesson_move(Some(5), &Go::Previous), Some(4));
        assert_eq!(lesson_move(Some(2), &Go::To("binary".into())), Some(6));
        assert_eq!(lesson_move(Some(2), &Go::To("nothing".into())), None);
    }
}
