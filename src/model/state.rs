//! The page's one state and the messages that change it.
//!
//! Every change — a slider, a field, a panel's button, `peLab.set`, a preset, a link — becomes a
//! [`Msg`]; [`State::update`] applies it and says what became stale ([`Changed`]). The browser
//! layer sends every message through one `dispatch` and renders from the state; rendering never
//! writes it.

use super::query::params_keys::is_key as is_param_key;
use super::query::settings_keys::is_settings_key;
use super::query::train_keys::is_train_key;
use super::query::values::shorten as quote;
use super::query::view_keys::{is_view_key, read_view_key};
use super::train::TrainSettings;
use crate::model::params::{Limits, NStep, Params, CPU_LIMITS};
use crate::model::presets;
use crate::model::settings::{next_shuffle_seed, PanelSettings, PermutationChoice};

use super::panels::{lesson_move, Go, PanelId};
pub use super::view::{Theme, ViewSettings};

/// Everything a view of the page is: the encoding parameters, the attention panels' settings and
/// the view settings. A link reproduces it exactly (see [`super::query`]).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct State {
    pub params: Params,
    pub settings: PanelSettings,
    pub view: ViewSettings,
    /// The training panel's task, configuration and encodings.
    pub train: TrainSettings,
}

/// A change to the state.
#[derive(Debug, Clone, PartialEq)]
pub enum Msg {
    /// `key = value` updates, as a link or `peLab.set` writes them; the encoding parameters are
    /// applied first (the panel settings depend on d), then the rest in order.
    Set(Vec<(String, String)>),
    /// Moves every curve column by this many columns (the "higher/lower frequency" buttons), kept
    /// inside 0…d−1.
    ShiftColumns(i64),
    /// A key's step of n on the n slider, from the n in the state: the slider may not show it yet
    /// (it follows at the next frame), so a key pressed before that frame steps from the right n.
    StepN(NStep),
    /// What the reader typed in the Columns field: counted from 1 when the page counts from 1
    /// (`index=1`), from 0 otherwise (the link's `cols` always counts from 0).
    ColumnsField(String),
    /// The default state with a preset's updates on top.
    Preset(String),
    /// The order panel's next shuffle.
    Shuffle,
    /// The complexity panel follows the global n and d again.
    FollowGlobalSize,
    /// The compute backend in use changed: its size limits apply.
    SetLimits(Limits),
    /// Projector mode on or off.
    TogglePresent,
    /// Draw new random projections (the next seed).
    NextSeed,
    /// The notices were read.
    DismissNotices,
    /// A move along the lesson path: the section is shown and named in the address bar's hash.
    Go(Go),
    /// The reader scrolled: this section (`None`: above the first) is the one being read. It is
    /// named in the bar and the hash, and the next move along the lesson starts from it; nothing
    /// scrolls, and the notices stay.
    Reading(Option<PanelId>),
}

impl Msg {
    /// One `key = value` update.
    pub fn set(key: &str, value: impl Into<String>) -> Msg {
        Msg::Set(vec![(key.to_string(), value.into())])
    }
}

/// What a message made stale, and what it has to say.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Changed {
    /// P and its panels (heatmap, curves, projection) must be recomputed.
    pub encoding: bool,
    /// The attention panels' inputs may have changed.
    pub panels: bool,
    /// Theme or projector mode changed.
    pub view: bool,
    /// The state changed at all (controls and link follow).
    pub state: bool,
    /// Notices for the reader: corrections of clamped or malformed values. `None`: the message
    /// leaves the current notices alone.
    pub notices: Option<Vec<String>>,
    /// A preset or a move along the lesson path asks for this panel to be shown.
    pub show_section: Option<PanelId>,
}

impl State {
    /// The state a link's updates describe (see [`super::query::parse_link`]), under `limits`.
    pub fn from_updates(updates: &[(String, String)], limits: Limits) -> (State, Vec<String>) {
        let mut state = State {
            params: Params {
                limits,
                ..Params::default()
            },
            ..State::default()
        };
        let pairs = || updates.iter().map(|(k, v)| (k.as_str(), v.as_str()));
        let (params, mut notices) = Params::from_pairs_with(limits, pairs());
        state.params = params;
        let (lesson, lesson_notices) = PanelSettings::from_pairs(pairs(), state.params.d);
        state.settings = lesson;
        notices.extend(lesson_notices);
        notices.extend(
            state
                .train
                .apply_all(pairs().filter(|(k, _)| is_train_key(k))),
        );
        for (key, value) in pairs() {
            read_view_key(&mut state.view, key, value, &mut notices);
        }
        (state, notices)
    }

    /// Applies a message; says what became stale.
    pub fn update(&mut self, msg: Msg) -> Changed {
        if let Msg::Reading(section) = msg {
            let moved = self.view.section != section;
            self.view.section = section;
            return Changed {
                view: moved,
                state: moved,
                ..Changed::default()
            };
        }
        let before = self.clone();
        let mut changed = Changed::default();
        let mut notices = Vec::new();
        // Dismissing clears the notices; any later update says a reduction still in force again.
        let repeat_reductions = msg != Msg::DismissNotices;
        match msg {
            Msg::Set(entries) => self.apply_entries(&entries, &mut notices),
            Msg::ShiftColumns(shift) => self.shift_columns(shift, &mut notices),
            Msg::StepN(step) => {
                let next = step.from(self.params.n, self.params.limits.n_max);
                notices.extend(self.params.update("n", &next.to_string()));
            }
            Msg::ColumnsField(text) => self.columns_field(text, &mut notices),
            Msg::Preset(name) => {
                changed.show_section = self.apply_preset(&name, &mut notices);
            }
            Msg::Shuffle => {
                let seed = match self.settings.permutation {
                    PermutationChoice::Shuffle(seed) => seed,
                    _ => 0,
                };
                let next = next_shuffle_seed(self.settings.token_count(), seed);
                notices.extend(self.settings.update("perm", &next.to_string()));
            }
            Msg::FollowGlobalSize => {
                self.settings.complexity_n = None;
                self.settings.complexity_d = None;
            }
            Msg::SetLimits(limits) => {
                notices.extend(self.params.set_limits(limits));
                notices.extend(self.settings.fit_to(self.params.d));
            }
            Msg::TogglePresent => self.view.present = !self.view.present,
            Msg::NextSeed => {
                let next = (self.settings.seed + 1) % (crate::model::settings::MAX_SEED + 1);
                notices.extend(self.settings.update("seed", &next.to_string()));
                notices.extend(self.settings.update("proj", "random"));
            }
            Msg::DismissNotices => {}
            // Handled above: it changes the section and nothing else.
            Msg::Reading(_) => {}
            Msg::Go(go) => {
                let to = lesson_move(self.view.section, go);
                self.view.section = Some(to);
                changed.show_section = Some(to);
            }
        }
        if repeat_reductions {
            // A value still reduced is said on every update, not only on the one that reduced
            // it: the notice stays as long as the page shows a value the reader did not ask for.
            for reduction in self.params.reductions() {
                if !notices.contains(&reduction) {
                    notices.push(reduction);
                }
            }
        }
        // P depends on the values in use only: a new request that still does not fit leaves it.
        changed.encoding = !self.params.same_in_use(&before.params);
        changed.panels =
            changed.encoding || self.settings != before.settings || self.train != before.train;
        changed.view = self.view != before.view;
        changed.state = *self != before;
        changed.notices = Some(notices);
        changed
    }

    /// Moves every curve column by `shift` columns, kept inside 0…d−1.
    fn shift_columns(&mut self, shift: i64, notices: &mut Vec<String>) {
        let columns = &self.params.columns;
        if let (Some(&low), Some(&high)) = (columns.iter().min(), columns.iter().max()) {
            let shift = shift.clamp(-(low as i64), self.params.d as i64 - 1 - high as i64);
            let shifted: Vec<String> = columns
                .iter()
                .map(|&c| (c as i64 + shift).to_string())
                .collect();
            notices.extend(self.params.update("cols", &shifted.join(",")));
        }
    }

    /// The Columns field, counted as the page counts (from 1 with `index=1`).
    fn columns_field(&mut self, text: String, notices: &mut Vec<String>) {
        let typed = if self.params.first_position == 0 {
            text
        } else {
            // Counted from 1: column c is the link's c − 1; 0 names no column.
            text.split([',', ' ', ';'])
                .filter(|s| !s.trim().is_empty())
                .filter_map(|part| match part.trim().parse::<usize>() {
                    Ok(0) => {
                        notices.push(crate::message!("notice-column-zero-counted-from-one"));
                        None
                    }
                    Ok(c) => Some((c - 1).to_string()),
                    _ => Some(part.trim().to_string()),
                })
                .collect::<Vec<_>>()
                .join(",")
        };
        notices.extend(self.params.update("cols", &typed));
    }

    /// The default state (the view and the backend's limits kept) with a preset's updates on
    /// top; returns the preset's panel, to be shown.
    fn apply_preset(&mut self, name: &str, notices: &mut Vec<String>) -> Option<PanelId> {
        let Some(preset) = presets::find(name) else {
            notices.push(crate::message!(
                "notice-preset-unknown",
                value = quote(name),
                choices = crate::model::messages::join_names(&presets::names())
            ));
            return None;
        };
        *self = State {
            params: Params {
                limits: self.params.limits,
                ..Params::default()
            },
            settings: PanelSettings::default(),
            view: self.view,
            train: TrainSettings::default(),
        };
        let entries: Vec<(String, String)> = preset
            .updates
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        self.apply_entries(&entries, notices);
        self.view.section = Some(preset.panel);
        Some(preset.panel)
    }

    /// Applies `key = value` updates: the encoding parameters first, then (with the heads fitted
    /// to the new d) the panel and view settings in their order.
    fn apply_entries(&mut self, entries: &[(String, String)], notices: &mut Vec<String>) {
        let params = entries
            .iter()
            .filter(|(k, _)| is_param_key(k))
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect::<Vec<_>>();
        if !params.is_empty() {
            notices.extend(self.params.update_all(params));
        }
        notices.extend(self.settings.fit_to(self.params.d));
        notices.extend(
            self.train.apply_all(
                entries
                    .iter()
                    .filter(|(k, _)| is_train_key(k))
                    .map(|(k, v)| (k.as_str(), v.as_str())),
            ),
        );
        for (key, value) in entries
            .iter()
            .filter(|(k, _)| !is_param_key(k) && !is_train_key(k))
        {
            if is_settings_key(key) {
                notices.extend(self.settings.update(key, value));
            } else if is_view_key(key) {
                read_view_key(&mut self.view, key, value, notices);
            } else {
                notices.push(crate::message!("notice-unknown-key", key = quote(key)));
            }
        }
    }
}

/// The limits the page starts with before the backend is known: a link may ask for the widest,
/// narrowed with a notice if the page ends up on the CPU.
pub fn start_limits(cpu_only: bool) -> Limits {
    if cpu_only {
        CPU_LIMITS
    } else {
        crate::model::params::WIDEST_LIMITS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(pairs: &[(&str, &str)]) -> Msg {
        Msg::Set(
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        )
    }

    #[test]
    fn params_apply_before_heads_whatever_the_order() {
        let mut state = State::default();
        let changed = state.update(set(&[("heads", "5"), ("d", "100")]));
        assert_eq!(state.params.d, 100);
        assert_eq!(state.settings.heads(), 5);
        assert_eq!(changed.notices, Some(vec![]));
        assert!(changed.encoding && changed.panels && changed.state);
    }

    #[test]
    fn a_lesson_change_leaves_p_alone() {
        let mut state = State::default();
        let changed = state.update(set(&[("text", "a b c")]));
        assert!(!changed.encoding);
        assert!(changed.panels);
        let changed = state.update(set(&[("text", "a b c")]));
        assert!(!changed.state && !changed.panels);
    }

    #[test]
    fn d_that_heads_do_not_divide_gives_a_notice_in_dispatch() {
        let mut state = State::default();
        state.update(set(&[("heads", "8")]));
        let changed = state.update(set(&[("d", "36")]));
        let notices = changed.notices.unwrap_or_default();
        assert!(
            notices.iter().any(|n| n.contains("heads = 8")),
            "{notices:?}"
        );
        assert_eq!(36 % state.settings.heads(), 0);
    }

    #[test]
    fn unknown_and_junk_keys_give_notices_not_panics() {
        let mut state = State::default();
        let changed = state.update(set(&[
            ("bogus", "1"),
            ("d", "NaN"),
            ("n", "-5"),
            ("theme", "purple"),
            ("", ""),
        ]));
        let notices = changed.notices.unwrap_or_default();
        assert!(notices.len() >= 4, "{notices:?}");
        assert_eq!(state.params.d, 32);
        assert_eq!(state.params.n, 1);
    }

    #[test]
    fn keys_on_the_n_slider_step_from_the_state() {
        // Two keys before a frame moves the slider: each steps from the n in the state.
        let mut state = State::default();
        state.update(Msg::StepN(NStep::Up));
        assert_eq!(state.params.n, 63);
        state.update(Msg::StepN(NStep::Up));
        assert_eq!(state.params.n, 66);
        state.update(Msg::StepN(NStep::Down));
        state.update(Msg::StepN(NStep::Down));
        assert_eq!(state.params.n, 60);
        // Within the backend's limit, without a notice.
        state.update(Msg::set("n", "2000"));
        let changed = state.update(Msg::StepN(NStep::Double));
        assert_eq!(state.params.n, state.params.limits.n_max);
        assert!(
            changed.notices.as_ref().is_none_or(Vec::is_empty),
            "{changed:?}"
        );
    }

    #[test]
    fn shift_columns_stays_inside_d() {
        let mut state = State::default();
        state.update(Msg::ShiftColumns(-100));
        assert_eq!(state.params.columns, vec![0, 1, 2, 3]);
        state.update(Msg::ShiftColumns(1000));
        assert_eq!(state.params.columns, vec![28, 29, 30, 31]);
    }

    #[test]
    fn the_columns_field_counts_like_the_page() {
        let mut state = State::default();
        state.update(Msg::ColumnsField("6, 7".into()));
        assert_eq!(state.params.columns, vec![6, 7]);
        state.update(Msg::set("index", "1"));
        // Counted from 1: the reader's 6 and 10 are the link's 5 and 9; 0 names no column.
        state.update(Msg::ColumnsField("6, 10".into()));
        assert_eq!(state.params.columns, vec![5, 9]);
        let changed = state.update(Msg::ColumnsField("0".into()));
        assert!(
            changed
                .notices
                .iter()
                .flatten()
                .any(|n| n.contains("Column")),
            "{changed:?}"
        );
    }

    #[test]
    fn preset_resets_then_applies_and_names_its_panel() {
        let mut state = State::default();
        state.update(set(&[("n", "7"), ("text", "x y"), ("theme", "dark")]));
        let changed = state.update(Msg::Preset("multi-head".into()));
        assert_eq!(state.params.d, 100);
        assert_eq!(state.params.n, 60);
        assert_eq!(state.settings.heads(), 5);
        assert_eq!(state.view.theme, Theme::Dark, "a preset keeps the view");
        assert_eq!(changed.show_section, Some(PanelId::Heads));
        assert_eq!(state.view.section, Some(PanelId::Heads));
        let changed = State::default().update(Msg::Preset("nope".into()));
        assert_eq!(changed.notices.map(|n| n.len()), Some(1));
    }

    #[test]
    fn a_reduced_delta_is_said_on_every_update_until_it_fits() {
        let delta_notices = |changed: &Changed| {
            changed
                .notices
                .iter()
                .flatten()
                .filter(|n| n.contains("δ = 5"))
                .count()
        };
        let mut state = State::default();
        state.update(Msg::set("delta", "5"));
        // Said once, even when several keys of one update are applied.
        let changed = state.update(set(&[("n", "3"), ("base", "500")]));
        assert_eq!((state.params.delta, delta_notices(&changed)), (2, 1));
        // A change to the panels alone still says it: the view still shows δ = 2.
        assert_eq!(delta_notices(&state.update(set(&[("text", "a b")]))), 1);
        assert_eq!(state.update(Msg::DismissNotices).notices, Some(vec![]));
        // A new request that does not fit either leaves P alone.
        let changed = state.update(Msg::set("delta", "9"));
        assert!(!changed.encoding && changed.state);
        let changed = state.update(Msg::set("n", "60"));
        assert_eq!(state.params.delta, 9);
        assert_eq!(changed.notices, Some(vec![]));
    }

    #[test]
    fn a_preset_resets_the_requests() {
        let mut state = State::default();
        state.update(set(&[
            ("delta", "5"),
            ("pos", "40"),
            ("cols", "0,31"),
            ("n", "3"),
        ]));
        state.update(Msg::Preset("multi-head".into()));
        let params = State::default().params;
        assert_eq!(state.params.requested, params.requested);
        assert_eq!(state.params.delta, 1);
    }

    #[test]
    fn the_lesson_path_moves_the_view_not_the_link() {
        let mut state = State::default();
        let before = super::super::query::state_query(&state);
        let changed = state.update(Msg::Go(Go::Next));
        assert_eq!(state.view.section, Some(PanelId::Attention));
        assert_eq!(changed.show_section, Some(PanelId::Attention));
        assert!(changed.view && changed.state && !changed.encoding && !changed.panels);
        state.update(Msg::Go(Go::Next));
        assert_eq!(changed.notices, Some(vec![]));
        assert_eq!(state.view.section, Some(PanelId::Pipeline));
        let changed = state.update(Msg::Go(Go::To(PanelId::Train)));
        assert_eq!(changed.show_section, Some(PanelId::Train));
        // Going on from the last stop changes nothing but still shows the section.
        let changed = state.update(Msg::Go(Go::Next));
        assert!(!changed.state);
        assert_eq!(changed.show_section, Some(PanelId::Train));
        assert_eq!(super::super::query::state_query(&state), before);
    }

    #[test]
    fn limits_narrow_with_a_notice() {
        let mut state = State::default();
        state.params.limits = crate::model::params::WIDEST_LIMITS;
        state.update(set(&[("n", "4000")]));
        assert_eq!(state.params.n, 4000);
        let changed = state.update(Msg::SetLimits(CPU_LIMITS));
        assert_eq!(state.params.n, CPU_LIMITS.n_max);
        assert!(!changed.notices.unwrap_or_default().is_empty());
    }

    #[test]
    fn shuffle_changes_the_permutation_and_follow_resets_the_size() {
        let mut state = State::default();
        state.update(Msg::Shuffle);
        assert!(matches!(
            state.settings.permutation,
            PermutationChoice::Shuffle(_)
        ));
        state.update(set(&[("cn", "100")]));
        assert_eq!(state.settings.complexity_n, Some(100));
        state.update(Msg::FollowGlobalSize);
        assert_eq!(state.settings.complexity_n, None);
    }
}
