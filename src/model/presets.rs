//! One-click views that reproduce the chapter's figures. Each preset is a list of parameter
//! updates (the URL's names) applied on top of the defaults, and the panel to show. Pure, so the
//! names and values are tested natively; the page applies them through the same parser as links.

use super::panels::PanelId;

/// A named view: `?preset=<name>` or a button.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Preset {
    pub name: &'static str,
    /// What the button says.
    pub label: &'static str,
    /// The panel to scroll to.
    pub panel: PanelId,
    /// Parameter updates, applied in order to the default state.
    pub updates: &'static [(&'static str, &'static str)],
}

pub const PRESETS: [Preset; 9] = [
    Preset {
        name: "chapter-heatmap",
        label: "Heatmap of P (d = 32, n = 60)",
        panel: PanelId::Heatmap,
        updates: &[("d", "32"), ("n", "60"), ("base", "10000")],
    },
    Preset {
        name: "chapter-curves",
        label: "Columns 6–9",
        panel: PanelId::Curves,
        updates: &[
            ("d", "32"),
            ("n", "60"),
            ("base", "10000"),
            ("cols", "6,7,8,9"),
        ],
    },
    // The Julia edition's figure: `plot(P[6:10, :, 1]', label = ["col $i" for i in 6:10])` over
    // positions `1:60`. Its P counts positions and encoding dimensions from 1, so its dimensions
    // 6…10 are the 0-based columns 5…9 (cos of pair 2, sin and cos of pairs 3 and 4).
    Preset {
        name: "julia-curves",
        label: "Julia figure: P[6:10, :] (1-based)",
        panel: PanelId::Curves,
        updates: &[
            ("d", "32"),
            ("n", "60"),
            ("base", "10000"),
            ("index", "1"),
            ("cols", "5,6,7,8,9"),
        ],
    },
    Preset {
        name: "binary",
        label: "Binary 0–7",
        panel: PanelId::Binary,
        updates: &[("d", "32"), ("n", "8"), ("base", "10000")],
    },
    Preset {
        name: "multi-head",
        label: "Multi-head example (d = 100, 5 heads, valid_lens [3, 2])",
        panel: PanelId::Heads,
        updates: &[("d", "100"), ("heads", "5"), ("lens", "3,2")],
    },
    // The quantity of RoFormer's Figure 2 (its long-term-decay bound at base 10000), here at
    // d = 128, a common head width (LLaMA's); the curve's shape, not the paper's exact d.
    Preset {
        name: "rope-decay",
        label: "RoPE decay bound (d = 128)",
        panel: PanelId::Rope,
        updates: &[("d", "128"), ("base", "10000"), ("enc", "rope")],
    },
    // The ALiBi paper's slope rule: 8 heads give 1/2 … 1/256, and H = 12 (not a power of two)
    // takes those eight and then every other slope of H = 16.
    Preset {
        name: "alibi-slopes",
        label: "ALiBi slopes (H = 12)",
        panel: PanelId::Alibi,
        updates: &[("aheads", "12"), ("enc", "alibi")],
    },
    Preset {
        name: "t5-buckets",
        label: "T5 bucket map (±160)",
        panel: PanelId::T5,
        updates: &[("trange", "160"), ("enc", "t5")],
    },
    // Dong, Cordonnier & Loukas's setting: pure attention, n = 10, d = 32.
    Preset {
        name: "rank-collapse",
        label: "Rank collapse (n = 10, d = 32)",
        panel: PanelId::Stacking,
        updates: &[("n", "10"), ("d", "32"), ("layers", "8")],
    },
];

/// The preset of this name, if any.
pub fn find(name: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.name == name.trim())
}

/// The preset names, for a notice when `?preset=` names none of them.
pub fn names() -> Vec<&'static str> {
    PRESETS.iter().map(|p| p.name).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::params::Params;
    use crate::model::query::params_keys::KEYS;
    use crate::model::query::settings_keys::is_settings_key;
    use crate::model::settings::PanelSettings;

    #[test]
    fn every_preset_parses_without_a_notice() {
        for preset in PRESETS {
            let (params, notices) = Params::from_pairs(
                preset
                    .updates
                    .iter()
                    .copied()
                    .filter(|(k, _)| KEYS.contains(k)),
            );
            assert!(notices.is_empty(), "{}: {notices:?}", preset.name);
            let mut lesson = PanelSettings::default();
            // The page applies the global parameters first, then the panel settings, which depend on d.
            lesson.fit_to(params.d);
            for (key, value) in preset.updates.iter().filter(|(k, _)| is_settings_key(k)) {
                let notices = lesson.update(key, value);
                assert!(
                    notices.is_empty(),
                    "{}: {key}={value}: {notices:?}",
                    preset.name
                );
            }
            assert!(lesson.fit_to(params.d).is_empty(), "{}", preset.name);
            for (key, _) in preset.updates {
                assert!(
                    KEYS.contains(key) || is_settings_key(key),
                    "{}: unknown key {key}",
                    preset.name
                );
            }
        }
    }

    #[test]
    fn the_chapter_figures_are_reproduced() {
        let heatmap = find("chapter-heatmap").unwrap();
        let (p, _) = Params::from_pairs(heatmap.updates.iter().copied());
        assert_eq!((p.d, p.n, p.base), (32, 60, 10000.0));
        let (p, _) = Params::from_pairs(find("chapter-curves").unwrap().updates.iter().copied());
        assert_eq!(p.columns, vec![6, 7, 8, 9]);
        let (p, _) = Params::from_pairs(find("binary").unwrap().updates.iter().copied());
        assert_eq!(p.n, 8, "the chapter prints the binary codes of 0 … 7");
        assert!(find(" multi-head ").is_some());
        // The Julia figure: positions 1…60, 1-based dimensions 6…10 = 0-based columns 5…9.
        let (p, notices) =
            Params::from_pairs(find("julia-curves").unwrap().updates.iter().copied());
        assert!(notices.is_empty(), "{notices:?}");
        assert_eq!((p.d, p.n, p.base), (32, 60, 10000.0));
        assert_eq!(p.first_position, 1);
        assert_eq!(p.positions(), 1..61);
        assert_eq!(p.columns, vec![5, 6, 7, 8, 9]);
        assert!(!p.textbook, "the Julia code computes P in Float64");
        assert!(find("nope").is_none());
        assert_eq!(names().len(), PRESETS.len());
    }
}
