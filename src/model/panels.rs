//! The panel registry: one list of panels ([`for_each_panel!`]), from which every panel's identity
//! ([`PanelId`]), its row of the panel table ([`PANELS`]: name, title, part of the chapter,
//! exports, the sliders that change it) and the lesson path ([`LESSON`]) are made here, and the
//! web layer's `mount` there. They drive mounting, the embed mode, the export toolbars, the lesson
//! navigation, the page's checks of its own markup and the README's lists (the native tests hold
//! `index.html` and the README to them).

/// The one list of panels, in page order, which is the lesson's order (the chapter's: self-attention,
/// the comparison of CNNs, RNNs and self-attention, positional encoding (why order is lost, P,
/// absolute then relative positional information), the readers' questions, then the encodings
/// beyond the chapter and exercise 2). A row per panel: its [`PanelId`] variant, its name
/// ([`PanelSpec::name`]), its folder (`src/panels/<folder>/`: its module, with `pub fn mount` in
/// the browser, and its `section.html`), its part of the chapter, its exports and the global
/// sliders that change it (see [`PanelSpec`]).
///
/// `for_each_panel!(callback)` hands the rows to the macro `callback`: [`PanelId`], [`PANELS`] and
/// [`LESSON`] are made from them below, the panels' modules in `crate::panels`, the web layer's
/// `mount` in `web::panel`, and the page's sections, part headings and the head script's table of
/// global sliders by `scripts/page/assemble.mjs` (which reads these rows as text: keep one row a
/// line). A new panel is a row here (where it stands in the lesson), its folder and its messages.
#[macro_export]
macro_rules! for_each_panel {
    ($callback:ident) => {
        $callback! {
            { Attention, "attention", attention, "self-attention", csv: true, svg: false, globals: ["d", "base", "delta"] }
            { Pipeline, "pipeline", pipeline, "self-attention", csv: false, svg: false, globals: ["d", "base"] }
            { Heads, "heads", heads, "self-attention", csv: false, svg: false, globals: ["d", "base"] }
            { Complexity, "complexity", complexity, "comparing", csv: false, svg: false, globals: ["d", "n"] }
            { Order, "order", order, "positional-encoding", csv: false, svg: false, globals: ["d", "base"] }
            { Heatmap, "heatmap", heatmap, "positional-encoding", csv: true, svg: false, globals: ["d", "n", "base"] }
            { Curves, "curves", curves, "positional-encoding", csv: true, svg: true, globals: ["d", "n", "base"] }
            { Binary, "binary", binary, "positional-encoding", csv: false, svg: false, globals: ["d", "n", "base"] }
            { Projection, "projection", projection, "positional-encoding", csv: true, svg: false, globals: ["d", "n", "base"] }
            { Similarity, "similarity", similarity, "positional-encoding", csv: false, svg: false, globals: ["d", "n", "base"] }
            { Scaling, "scaling", scaling, "questions", csv: false, svg: false, globals: ["d", "base"] }
            { Pretrained, "pretrained", pretrained, "questions", csv: false, svg: false, globals: [] }
            { Rope, "rope", rope, "beyond", csv: false, svg: false, globals: ["d", "n", "base"] }
            { Extension, "extension", extension, "beyond", csv: false, svg: false, globals: ["d", "base"] }
            { Alibi, "alibi", alibi, "beyond", csv: false, svg: false, globals: ["d", "n"] }
            { T5, "t5", t5, "beyond", csv: false, svg: false, globals: [] }
            { Shaw, "shaw", shaw, "beyond", csv: false, svg: false, globals: ["d", "n"] }
            { Learned, "learned", learned, "beyond", csv: false, svg: false, globals: ["d", "n", "base"] }
            { Nope, "nope", nope, "beyond", csv: false, svg: false, globals: ["n"] }
            { Stacking, "stacking", stacking, "beyond", csv: false, svg: false, globals: ["d", "n"] }
            { Train, "train", train, "exercise", csv: false, svg: false, globals: [] }
        }
    };
}

/// Makes [`PanelId`], [`PANELS`] and [`LESSON`] from the rows of [`for_each_panel!`].
macro_rules! panel_tables {
    ($({
        $variant:ident, $name:literal, $module:ident, $part:literal,
        csv: $csv:literal, svg: $svg:literal, globals: [$($global:literal),*]
    })*) => {
        /// A panel of the page: its identity. Every table, preset, lesson stop, cache and message
        /// names a panel by this, never by its position or its element's id.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum PanelId {
            $($variant,)*
        }

        /// The panels, in page order (the order of [`PanelId`]).
        pub const PANELS: &[PanelSpec] = &[
            $(PanelSpec {
                id: PanelId::$variant,
                name: $name,
                part: $part,
                csv: $csv,
                svg: $svg,
                globals: &[$($global),*],
            },)*
        ];

        /// The lesson path: every panel once, in page order (see [`for_each_panel!`]). The page's
        /// lesson navigation, its keys, the section named while the reader scrolls and the
        /// address bar's `#panel-<name>` follow it; each stop's part is its [`PanelSpec::part`],
        /// a heading of the page (`index.html`'s `.part`).
        pub const LESSON: &[PanelId] = &[$(PanelId::$variant,)*];
    };
}

for_each_panel!(panel_tables);

/// One row of the panel table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PanelSpec {
    pub id: PanelId,
    /// The panel's name: its `<section id="panel-<name>">`, `?embed=<name>`, `#panel-<name>` and,
    /// for the panels with numbers of their own, `stats.panels.<name>`.
    pub name: &'static str,
    /// The part of the chapter it belongs to on the lesson path: the key of its heading,
    /// [`PanelSpec::part_title`].
    pub part: &'static str,
    /// A CSV of its numbers can be saved.
    pub csv: bool,
    /// An SVG of its figure can be saved.
    pub svg: bool,
    /// The global sliders (`d`, `n`, `base`, `delta`) that change it: an embed shows these unless
    /// its link says otherwise (`controls=`). An end-to-end test moves each slider and checks
    /// that exactly these change the panel.
    pub globals: &'static [&'static str],
}

impl PanelSpec {
    /// The id of the panel's `<section>`.
    pub fn section_id(&self) -> String {
        format!("panel-{}", self.name)
    }

    /// Its heading, in words (message `panel-title` of locales/computed, by the panel's name).
    pub fn title(&self) -> String {
        crate::message!("panel-title", panel = self.name)
    }

    /// One sentence under its title when it is embedded in a course page (`?embed=`), where its
    /// prose is folded away: what the figure shows, short enough for one line of an 800 px frame.
    pub fn caption(&self) -> String {
        crate::message!("panel-caption", panel = self.name)
    }

    /// A name short enough for the sticky bar's lesson button on a phone (at most 17 characters
    /// in English).
    pub fn short(&self) -> String {
        crate::message!("panel-short", panel = self.name)
    }

    /// The heading of its part of the chapter (message `lesson-part`, by the part's name).
    pub fn part_title(&self) -> String {
        crate::message!("lesson-part", part = self.part)
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

    /// Whether the panel reads P's frame (P, its gathered columns, its reductions, the heatmap):
    /// on the CPU, P is computed only when one of these is on screen or rendered
    /// (`tests/page_tables.rs` holds this list to the panels' code).
    pub fn reads_encoding(self) -> bool {
        matches!(
            self,
            PanelId::Heatmap
                | PanelId::Curves
                | PanelId::Binary
                | PanelId::Projection
                | PanelId::Similarity
        )
    }

    /// Whether its canvases are drawn whenever it renders, on screen or not: P's own three
    /// figures (the heatmap, its columns, the projection), which `peLab.stats` and a page's
    /// script read as pixels wherever the reader is. They render off screen only when asked for
    /// (never during a drag), so drawing them then costs a drag nothing.
    pub fn draws_off_screen(self) -> bool {
        matches!(
            self,
            PanelId::Heatmap | PanelId::Curves | PanelId::Projection
        )
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

/// A move along the lesson path ([`LESSON`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Go {
    Next,
    Previous,
    /// To this panel (a link's `#panel-<name>`, a lesson link).
    To(PanelId),
}

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
mod tests;
