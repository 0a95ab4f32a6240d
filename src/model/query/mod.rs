//! The page's link: every URL key is parsed and written here, and nowhere else.
//!
//! Keys fall in five groups:
//! - the encoding parameters (`d`, `n`, `base`, `delta`, `pair`, `pos`, `cols`, and `textbook`,
//!   `index` when on: [`Params`]);
//! - the attention panels' settings (`text`, `valid`, `heads`, …: [`PanelSettings`]);
//! - the view (`theme`, `present`: [`ViewSettings`]);
//! - the training panel's (`task`, `tenc`, `tn`, …: [`crate::model::train::TrainSettings`]);
//! - keys read once at load and left in the link as they are (`compute`, `embed`, `controls`,
//!   `preset`, `lang`).
//!
//! A course page may add keys of its own: they are kept, in their order, when the link is written.

pub mod params_keys;
pub mod settings_keys;
pub mod train_keys;
pub mod values;
pub mod view_keys;

use self::params_keys::{params_pairs, KEYS};
use self::settings_keys::{is_settings_key, SETTINGS_KEYS};
pub use self::view_keys::VIEW_KEYS;
use self::view_keys::{is_view_key, view_pairs};
use super::panels::PanelId;
use super::presets;
use super::state::State;

/// The keys read once at load; the page never rewrites them.
pub const LOAD_KEYS: [&str; 5] = ["compute", "embed", "controls", "preset", "lang"];

/// The page's languages (`?lang=`), English first: each has its catalog, `locales/<code>.ftl`,
/// and its built page (scripts/l10n/languages.mjs, whose codes a native test holds to these).
/// The head script goes to the language's page before the wasm starts; the wasm only says when a
/// link asks for one the page does not have.
pub const LANGUAGES: [&str; 2] = ["en", "zh"];

/// Where the numbers are computed: `?compute=auto|gpu|cpu`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ComputeChoice {
    #[default]
    Auto,
    Gpu,
    Cpu,
}

/// A link as the page reads it at load.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Link {
    pub compute: ComputeChoice,
    /// `?embed=` (raw: the page knows which panels exist).
    pub embed: Option<String>,
    /// `?controls=` (raw: the embed mode checks the names).
    pub controls: Option<String>,
    /// Every state update of the link, in order, a preset's own updates first (the link's values
    /// come after them and win).
    pub updates: Vec<(String, String)>,
    /// The panel of `?preset=` (a known one): the page scrolls to it, as a click on the preset
    /// does.
    pub preset_panel: Option<PanelId>,
}

/// Splits a query string (`?d=3&text=a+b`, with or without `?`) into decoded pairs.
pub fn parse_search(search: &str) -> Vec<(String, String)> {
    form_urlencoded::parse(search.trim_start_matches('?').as_bytes())
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}

/// Text a notice may quote from a link: short, one line (the one rule for untrusted text,
/// [`values::shorten`]).
pub fn quote(value: &str) -> String {
    values::shorten(value)
}

/// Reads a link. Unknown keys are ignored (they may be a course page's); malformed values of the
/// load keys give a notice.
pub fn parse_link(search: &str) -> (Link, Vec<String>) {
    let pairs = parse_search(search);
    let mut notices = Vec::new();
    let last = |key: &str| {
        pairs
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone())
    };
    let compute = match last("compute").as_deref() {
        None | Some("auto" | "") => ComputeChoice::Auto,
        Some("gpu" | "webgpu") => ComputeChoice::Gpu,
        Some("cpu") => ComputeChoice::Cpu,
        Some(other) => {
            notices.push(crate::message!(
                "notice-compute-unknown",
                value = quote(other)
            ));
            ComputeChoice::Auto
        }
    };
    if let Some(lang) = last("lang") {
        if !lang.trim().is_empty() && !LANGUAGES.contains(&lang.trim()) {
            notices.push(crate::message!(
                "notice-lang-unknown",
                value = quote(&lang),
                choices = crate::model::messages::join_names(&LANGUAGES)
            ));
        }
    }
    let mut updates: Vec<(String, String)> = Vec::new();
    let mut preset_panel = None;
    if let Some(name) = last("preset") {
        match presets::find(&name) {
            Some(preset) => {
                preset_panel = Some(preset.panel);
                updates.extend(
                    preset
                        .updates
                        .iter()
                        .map(|(k, v)| (k.to_string(), v.to_string())),
                )
            }
            None => notices.push(crate::message!(
                "notice-preset-unknown",
                value = quote(&name),
                choices = crate::model::messages::join_names(&presets::names())
            )),
        }
    }
    updates.extend(
        pairs
            .iter()
            .filter(|(k, _)| is_state_key(k))
            .map(|(k, v)| (k.clone(), v.clone())),
    );
    let link = Link {
        compute,
        embed: last("embed"),
        controls: last("controls"),
        updates,
        preset_panel,
    };
    (link, notices)
}

/// Whether `key` is part of the state the page writes to its link (aliases included).
pub fn is_state_key(key: &str) -> bool {
    is_param_key(key) || is_settings_key(key) || train_keys::is_train_key(key) || is_view_key(key)
}

/// The encoding parameters' keys, with the long names `peLab.set` also accepts.
pub fn is_param_key(key: &str) -> bool {
    params_keys::is_key(key)
}

/// The state as link pairs, in the order they are written. Lesson settings left to follow
/// something else, and view settings at their defaults, are absent.
pub fn state_pairs(state: &State) -> Vec<(&'static str, String)> {
    let mut pairs = params_pairs(&state.params);
    pairs.extend(state.settings.to_query());
    pairs.extend(state.train.to_query());
    pairs.extend(view_pairs(&state.view));
    pairs
}

/// The state's own query string (no `?`), for comparing two states.
pub fn state_query(state: &State) -> String {
    let mut out = form_urlencoded::Serializer::new(String::new());
    for (key, value) in state_pairs(state) {
        out.append_pair(key, &value);
    }
    out.finish()
}

/// The link for `state`, keeping every key of `current` that is not part of the state (a course
/// page's own keys, `compute`, `embed`, …) where it was. Returns the query string without `?`.
/// The state a link starts the page in at the CPU path's limits, and every notice the link gives
/// (its keys' and the state's): what a page without WebGPU shows for it.
pub fn state_from_link(search: &str) -> (State, Vec<String>) {
    let (link, mut notices) = parse_link(search);
    let (state, more) = State::from_updates(&link.updates, super::state::start_limits(true));
    notices.extend(more);
    (state, notices)
}

pub fn write_search(current: &str, state: &State) -> String {
    let mut out = form_urlencoded::Serializer::new(String::new());
    for (key, value) in parse_search(current) {
        if !is_state_key(&key) {
            out.append_pair(&key, &value);
        }
    }
    for (key, value) in state_pairs(state) {
        out.append_pair(key, &value);
    }
    out.finish()
}

/// The address bar's hash for `state`: `#panel-<name>` of the lesson section shown, if any. The
/// hash is view state, never a key of the query ([`write_search`] leaves it alone).
pub fn write_hash(state: &State) -> Option<String> {
    Some(format!("#{}", state.view.section?.section_id()))
}

/// The panel a link's hash opens (`#panel-heatmap`: the heatmap), if it names one.
pub fn parse_hash(hash: &str) -> Option<PanelId> {
    PanelId::from_section_id(hash.trim_start_matches('#'))
}

/// Every key the page reads from a link (short names), for the README and the tests.
pub fn all_keys() -> Vec<&'static str> {
    KEYS.iter()
        .chain(SETTINGS_KEYS.iter())
        .chain(VIEW_KEYS.iter())
        .chain(LOAD_KEYS.iter())
        .copied()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_plus_and_percent() {
        let pairs = parse_search("?text=the+cat%26dog&d=3");
        assert_eq!(pairs[0], ("text".into(), "the cat&dog".into()));
        assert_eq!(pairs[1], ("d".into(), "3".into()));
    }

    #[test]
    fn compute_choice_and_notice() {
        assert_eq!(parse_link("compute=cpu").0.compute, ComputeChoice::Cpu);
        assert_eq!(parse_link("compute=webgpu").0.compute, ComputeChoice::Gpu);
        let (link, notices) = parse_link("compute=quantum");
        assert_eq!(link.compute, ComputeChoice::Auto);
        assert!(notices[0].contains("quantum"));
    }

    #[test]
    fn a_language_the_page_lacks_gives_a_notice_and_a_known_one_none() {
        for known in ["lang=en", "lang=zh", "lang=", "lang=%20zh%20"] {
            assert!(parse_link(known).1.is_empty(), "{known}");
        }
        let (_, notices) = parse_link("lang=fr&lang=klingon");
        assert_eq!(
            notices,
            ["lang = 'klingon' is not one of: en, zh; showing English."]
        );
        // The key stays in the link as it was: the page never rewrites it.
        let written = write_search("?lang=zh&d=48", &State::default());
        assert!(written.starts_with("lang=zh&d=32"), "{written}");
    }

    /// A notice's list of choices is joined as the language joins names: "、" in Chinese.
    #[test]
    fn the_chinese_notices_list_the_choices_with_the_chinese_separator() {
        use crate::model::messages::{install_source, use_english, Computed};
        install_source::<Computed>("zh", include_str!("../../../locales/computed/zh.ftl")).unwrap();
        let (_, notices) = state_from_link("enc=nothing&tenc=bogus,rope&lang=klingon");
        use_english::<Computed>();
        let joined = notices.join("\n");
        for list in [
            "sinusoidal、rope、alibi、t5、shaw、learned 或 none",
            "none、sinusoidal、concat、learned、conv、rope、alibi、t5、shaw",
            "en、zh",
        ] {
            assert!(joined.contains(list), "{list} in {joined}");
        }
        assert!(!joined.contains(", "), "{joined}");
    }

    /// Every language has its catalog (locales/<code>.ftl) and a row in the build's table
    /// (scripts/l10n/languages.mjs), and every catalog a language.
    #[test]
    fn the_languages_are_the_catalogs_and_the_build_table() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut catalogs: Vec<String> = std::fs::read_dir(root.join("locales"))
            .expect("locales/")
            .filter_map(|entry| {
                let name = entry.ok()?.file_name().into_string().ok()?;
                name.strip_suffix(".ftl").map(str::to_string)
            })
            .collect();
        catalogs.sort();
        let mut languages = LANGUAGES.map(str::to_string).to_vec();
        languages.sort();
        assert_eq!(catalogs, languages);
        let table = std::fs::read_to_string(root.join("scripts/l10n/languages.mjs"))
            .expect("scripts/l10n/languages.mjs");
        let codes: Vec<&str> = table
            .split("code: '")
            .skip(1)
            .filter_map(|rest| rest.split('\'').next())
            .collect();
        assert_eq!(codes, LANGUAGES);
    }

    #[test]
    fn preset_comes_first_and_link_values_win() {
        let (link, notices) = parse_link("d=64&preset=multi-head");
        assert!(notices.is_empty());
        let d_updates: Vec<&str> = link
            .updates
            .iter()
            .filter(|(k, _)| k == "d")
            .map(|(_, v)| v.as_str())
            .collect();
        assert_eq!(d_updates, ["100", "64"]);
        assert_eq!(link.preset_panel, Some(PanelId::Heads));
        let (link, notices) = parse_link("preset=nope");
        assert!(notices[0].contains("chapter-heatmap"));
        assert_eq!(link.preset_panel, None);
    }

    #[test]
    fn foreign_keys_are_kept_and_state_keys_rewritten() {
        let state = State::default();
        let written = write_search("?lesson=3&d=999&compute=cpu&theme=dark", &state);
        assert!(written.starts_with("lesson=3&compute=cpu&d=32&n=60"));
        // The default theme is not written: the old `theme=dark` is gone with the state's keys.
        assert!(!written.contains("theme"));
        let again = parse_search(&written);
        assert_eq!(again.iter().filter(|(k, _)| k == "d").count(), 1);
    }

    #[test]
    fn a_written_link_reads_back_to_the_same_state() {
        let (mut state, _) = State::from_updates(
            &[
                ("d".into(), "48".into()),
                ("text".into(), "a & b = c?".into()),
                ("theme".into(), "dark".into()),
                ("present".into(), "1".into()),
                ("heads".into(), "6".into()),
            ],
            crate::model::params::CPU_LIMITS,
        );
        state.update(crate::model::state::Msg::set("delta", "-3"));
        let search = write_search("", &state);
        let (link, notices) = parse_link(&search);
        assert!(notices.is_empty(), "{notices:?}");
        let (back, notices) = State::from_updates(&link.updates, crate::model::params::CPU_LIMITS);
        assert!(notices.is_empty(), "{notices:?}");
        // The same view: the link writes the values in use (position 3, the first one with a
        // partner at δ = −3), not the request they were derived from (position 0).
        assert!(back.params.same_in_use(&state.params));
        assert_eq!((&back.settings, back.view), (&state.settings, state.view));
        assert_eq!(state_query(&back), state_query(&state));
    }

    #[test]
    fn the_hash_names_the_section_and_leaves_the_query_alone() {
        let mut state = State::default();
        assert_eq!(write_hash(&state), None);
        let search = write_search("?lesson=3", &state);
        state.update(crate::model::state::Msg::Go(crate::model::panels::Go::To(
            PanelId::Binary,
        )));
        assert_eq!(write_hash(&state).as_deref(), Some("#panel-binary"));
        assert_eq!(write_search("?lesson=3", &state), search);
        assert_eq!(parse_hash("#panel-binary"), Some(PanelId::Binary));
        assert_eq!(parse_hash("panel-scaling"), Some(PanelId::Scaling));
        for other in [
            "",
            "#",
            "#heatmap-title",
            "#panel-",
            "#panel-nothing",
            "#binary",
        ] {
            assert_eq!(parse_hash(other), None, "{other}");
        }
    }

    #[test]
    fn every_key_is_known_once() {
        let keys = all_keys();
        let mut sorted = keys.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), keys.len());
        for key in ["d", "text", "theme", "compute", "embed", "preset"] {
            assert!(keys.contains(&key));
        }
    }
}
