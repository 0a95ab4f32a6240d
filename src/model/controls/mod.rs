//! What every control of the page shows, computed from the state: each slider's range, step,
//! position, exact value and spoken value; the fields, boxes and menus. The sliders' attributes at
//! the first paint, before the WebAssembly starts, are these for the default state too
//! ([`first_paint_attributes`]: `www/controls.json`, which `scripts/page/assemble.mjs` writes
//! into the page's markup); from the first frame on they are all set from here.

pub mod scales;
pub mod widgets;

pub use scales::{
    n_from_slider, slider_from_n, value_from_slider, BASE_SLIDER_STEP,
    BASE_SLIDER_STEPS_PER_DECADE, N_SLIDER_STEP,
};

pub use widgets::{FieldValue, MenuValue, SliderValue};

use super::panels::PanelId;
use super::state::State;
use super::tables::GLOBAL_SLIDERS;
use crate::model::params::Params;
use crate::model::query::params_keys::PARAM_ROWS;
use crate::model::query::train_keys::TRAIN_ROWS;
use crate::model::query::view_keys::VIEW_ROWS;
use crate::model::settings::row::{Control, MenuOf, Setting, SliderOf, TextOf, Value};
use crate::model::settings::table::SETTINGS;
use crate::model::settings::{PanelSettings, BATCH_SEQUENCE_LEN};
use widgets::integer_slider;

/// Everything the controls show.
#[derive(Debug, Clone, PartialEq)]
pub struct ControlValues {
    pub sliders: Vec<SliderValue>,
    /// Projector mode (the button's pressed state).
    pub present: bool,
    /// Every field other than a slider, by key, in the order of [`super::tables::FIELDS`]: the
    /// parameters', the view's, the panel settings', then the training panel's.
    pub fields: Vec<(&'static str, FieldValue)>,
    /// The bar's sliders that the panel being read does not use ([`globals_unused_by`]).
    pub unused_here: Vec<&'static str>,
}

impl ControlValues {
    /// The field of a setting's key.
    pub fn field(&self, key: &str) -> Option<&FieldValue> {
        self.fields.iter().find(|(k, _)| *k == key).map(|(_, v)| v)
    }

    /// The menu of a panel setting's key.
    pub fn menu(&self, key: &str) -> Option<&MenuValue> {
        match self.field(key)? {
            FieldValue::Menu { menu, .. } => Some(menu),
            _ => None,
        }
    }
}

/// The values of every control for `state`: the encoding parameters' sliders, then each panel
/// setting's control as its row of the settings table says.
pub fn control_values(state: &State) -> ControlValues {
    let (p, settings) = (&state.params, &state.settings);
    let mut sliders: Vec<SliderValue> = PARAM_ROWS
        .iter()
        .filter_map(|row| match row.control {
            Control::Slider {
                of: SliderOf::Own(slider),
                ..
            } => Some(slider(p, p)),
            _ => None,
        })
        .collect();
    let mut fields = Vec::new();
    fields.extend(fields_of(&PARAM_ROWS, p));
    fields.extend(fields_of(&VIEW_ROWS, &state.view));
    for row in &SETTINGS {
        if let Control::Slider { of, .. } = row.control {
            sliders.push(setting_slider(row, of, settings, p));
        } else if let Some(value) = field_value(row, settings) {
            fields.push((row.key, value));
        }
    }
    fields.extend(fields_of(&TRAIN_ROWS, &state.train));
    ControlValues {
        sliders,
        present: state.view.present,
        fields,
        unused_here: globals_unused_by(state.view.section, settings),
    }
}

/// The bar's sliders that `section`'s panel does not read (those not in its row's `globals`, and
/// the complexity panel's n and d once the reader has set its own): moving them changes nothing
/// on the reader's screen, so the bar says so. None above the first panel, where the reader has
/// not chosen one yet.
pub fn globals_unused_by(section: Option<PanelId>, settings: &PanelSettings) -> Vec<&'static str> {
    let Some(panel) = section else {
        return Vec::new();
    };
    let own = |key: &str| {
        panel == PanelId::Complexity
            && match key {
                "n" => settings.complexity_n.is_some(),
                "d" => settings.complexity_d.is_some(),
                _ => false,
            }
    };
    GLOBAL_SLIDERS
        .into_iter()
        .filter(|key| !panel.spec().globals.contains(key) || own(key))
        .collect()
}

/// The fields of a table's rows that have one (a slider is not a field).
fn fields_of<'a, S>(
    rows: &'a [Setting<S>],
    settings: &'a S,
) -> impl Iterator<Item = (&'static str, FieldValue)> + 'a {
    rows.iter()
        .filter_map(move |row| Some((row.key, field_value(row, settings)?)))
}

/// Element id and attributes: what one input carries at the first paint.
pub type FirstPaint = (&'static str, Vec<(&'static str, String)>);

/// The attributes of every slider's two inputs, and of the training panel's numeric fields, at
/// the first paint: the values the first frame sets for the default state, so that nothing moves
/// when the WebAssembly starts. The markup
/// (`www/page.html`, the panels' `section.html`) names only the inputs; the build writes these
/// into them from `www/controls.json`, which a native test holds to this
/// (`tests/page_tables.rs`; `PE_LAB_WRITE_FIXTURES=1` writes it anew).
pub fn first_paint_attributes() -> Vec<FirstPaint> {
    let state = State::default();
    let values = control_values(&state);
    let mut inputs = Vec::new();
    for (key, range, number) in super::tables::SLIDERS {
        let Some(slider) = values.sliders.iter().find(|s| s.key == key) else {
            continue;
        };
        inputs.push((
            range,
            vec![
                ("min", slider.min.to_string()),
                ("max", slider.max.to_string()),
                ("step", slider.step.to_string()),
                ("value", slider.position.to_string()),
                ("aria-valuetext", slider.valuetext.clone()),
            ],
        ));
        inputs.push((
            number,
            vec![
                ("min", slider.number_min.to_string()),
                ("max", slider.number_max.to_string()),
                ("step", slider.number_step().to_string()),
                ("value", slider.text.clone()),
            ],
        ));
    }
    // The training panel's numeric fields: their spinners' range and step, and the default run.
    for row in &TRAIN_ROWS {
        if let Control::Number { id, min, max, step } = row.control {
            let mut attributes = vec![("min", min.to_string())];
            attributes.extend(max.map(|max| ("max", max.to_string())));
            attributes.push(("step", step.to_string()));
            attributes.push(("value", row.text(&state.train).unwrap_or_default()));
            inputs.push((id, attributes));
        }
    }
    inputs
}

/// A panel setting's slider: one step per whole number of its range, or one of its own.
fn setting_slider(
    row: &Setting,
    of: SliderOf,
    settings: &PanelSettings,
    p: &Params,
) -> SliderValue {
    match (of, row.value) {
        (SliderOf::Steps(spoken), Value::Integer { min, max, get, .. }) => {
            let min = min.of(settings);
            let value = get(settings).unwrap_or(min);
            integer_slider(
                row.key,
                min as usize,
                max.of(settings) as usize,
                value as usize,
                spoken(value),
            )
        }
        (SliderOf::Own(slider), _) => slider(settings, p),
        // A table row that pairs steps with a value that has none: its test fails
        // (`every_slider_row_has_whole_steps`); the page shows the value alone.
        (SliderOf::Steps(_), _) => SliderValue {
            text: row.text(settings).unwrap_or_default(),
            ..integer_slider(row.key, 0, 0, 0, String::new())
        },
    }
}

/// A setting's field other than a slider: a box, a menu, a text or a number, the batch's
/// lengths.
fn field_value<S>(row: &Setting<S>, settings: &S) -> Option<FieldValue> {
    Some(match row.control {
        Control::None | Control::Slider { .. } => return None,
        Control::Check(_) => FieldValue::Check(match row.value {
            Value::Switch { get, .. } => get(settings),
            Value::Integer { get, max, .. } => get(settings) == Some(max.of(settings)),
            _ => false,
        }),
        Control::Menu(_, MenuOf::Page) => {
            let value = match row.value {
                // The value in use (`enc` is `none` while `pe` is off).
                Value::Name { get, .. } => get(settings).to_string(),
                _ => row.text(settings).unwrap_or_default(),
            };
            FieldValue::Menu {
                menu: MenuValue {
                    options: Vec::new(),
                    value,
                },
                disabled: false,
            }
        }
        Control::Menu(_, MenuOf::Own(menu)) => {
            let menu = menu(settings);
            let disabled = menu.options.is_empty();
            FieldValue::Menu { menu, disabled }
        }
        Control::Text(_, TextOf::Own(text)) => FieldValue::Text(text(settings)),
        Control::Text(_, TextOf::Link) | Control::LiveText(_) | Control::Number { .. } => {
            FieldValue::Text(row.text(settings).unwrap_or_default())
        }
        Control::Lens(_, lens) => FieldValue::Lens {
            lens: lens(settings),
            max: BATCH_SEQUENCE_LEN,
        },
    })
}

/// The global sliders' values in a line, for the collapsed bar of a phone:
/// "d 32 · n 60 · base 10000 · δ 1".
pub fn global_summary(values: &ControlValues) -> String {
    GLOBAL_SLIDERS
        .iter()
        .filter_map(|key| {
            let slider = values.sliders.iter().find(|s| s.key == *key)?;
            let name = if *key == "delta" { "δ" } else { key };
            Some(format!("{name} {}", slider.text))
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::params::NStep;
    use crate::model::state::Msg;

    /// The fields of the parameters and the view are their rows' fields, as the panel settings'
    /// are: `index` is a box over a whole number (checked at 1), the columns field shows the
    /// columns as the reader counts them, and the theme menu the theme's link name.
    #[test]
    fn every_field_comes_from_its_row() {
        let mut state = State::default();
        for (key, value) in [("index", "1"), ("textbook", "1"), ("theme", "dark")] {
            state.update(Msg::set(key, value));
        }
        let values = control_values(&state);
        let field = |key| values.field(key).cloned();
        assert_eq!(field("index"), Some(FieldValue::Check(true)));
        assert_eq!(field("textbook"), Some(FieldValue::Check(true)));
        let counted_from_one: Vec<String> = state
            .params
            .columns
            .iter()
            .map(|c| (c + 1).to_string())
            .collect();
        assert_eq!(
            field("cols"),
            Some(FieldValue::Text(counted_from_one.join(", ")))
        );
        assert_eq!(values.menu("theme").map(|m| m.value.as_str()), Some("dark"));
        // One value per field of the page's table of fields, in its order.
        let keys: Vec<&str> = values.fields.iter().map(|(key, _)| *key).collect();
        // (The batch's two length fields are one value.)
        let mut table: Vec<&str> = super::super::tables::FIELDS
            .iter()
            .map(|(key, _, _)| *key)
            .collect();
        table.dedup();
        assert_eq!(keys, table);
    }

    #[test]
    fn the_summary_names_the_global_values() {
        let mut state = State::default();
        state.update(Msg::set("delta", "-3"));
        assert_eq!(
            global_summary(&control_values(&state)),
            "d 32 · n 60 · base 10000 · δ -3"
        );
    }

    #[test]
    fn defaults_come_from_the_state() {
        let values = control_values(&State::default());
        let d = &values.sliders[0];
        assert_eq!(
            (d.key, d.min, d.max, d.text.as_str()),
            ("d", 1.0, 1024.0, "32")
        );
        let base = values.sliders.iter().find(|s| s.key == "base").unwrap();
        assert_eq!(base.text, "10000");
        assert!((base.position - 4.0).abs() < 1e-12);
        // The base slider: whole steps from 0.3 to 6, one step a visible, round change.
        assert_eq!((base.min, base.max, base.step), (0.3, 6.0, 0.05));
        let step = |x: f64| crate::model::params::base_from_slider(x);
        assert_eq!(
            (step(4.0 + base.step), step(4.0 - base.step)),
            (11200.0, 8910.0)
        );
        assert_eq!(step(base.min), crate::model::params::BASE_MIN);
        let delta = values.sliders.iter().find(|s| s.key == "delta").unwrap();
        assert_eq!((delta.min, delta.max), (-59.0, 59.0));
        let field = |key| values.field(key).cloned();
        assert_eq!(field("cols"), Some(FieldValue::Text("6, 7, 8, 9".into())));
        assert_eq!(field("index"), Some(FieldValue::Check(false)));
        assert_eq!(field("textbook"), Some(FieldValue::Check(false)));
        assert_eq!(values.menu("heads").map(|m| m.value.as_str()), Some("4"));
        assert_eq!(values.menu("ti").map(|m| m.options.len()), Some(8));
        assert_eq!(values.menu("theme").map(|m| m.value.as_str()), Some("auto"));
        assert_eq!(values.field("present"), None);
    }

    #[test]
    fn the_n_slider_is_logarithmic() {
        let state = State::default();
        let values = control_values(&state);
        let n = values.sliders.iter().find(|s| s.key == "n").unwrap();
        assert_eq!(
            (n.number_min, n.number_max, n.text.as_str()),
            (1.0, 2048.0, "60")
        );
        assert_eq!((n.min, n.max), (0.0, 11.0));
        // n = 60 a little past the middle of the track (it was at 3% of a linear one).
        let at = (n.position - n.min) / (n.max - n.min);
        assert!((0.53..0.54).contains(&at), "{at}");
        // Each n to 1448 has a position of its own that gives it back.
        for k in 1..=1448 {
            assert_eq!(n_from_slider(slider_from_n(k)), k);
        }
        assert_eq!(value_from_slider("n", n.position, ""), "60");
        assert_eq!(value_from_slider("n", n.max, ""), "2048");
        // The keyboard: about 5% per arrow, at least 1, doubling per page, inside the range.
        let step = |n, key| NStep::of_key(key).map(|step| step.from(n, 2048));
        assert_eq!(step(60, "ArrowUp"), Some(63));
        assert_eq!(step(60, "ArrowLeft"), Some(57));
        assert_eq!(step(1, "ArrowUp"), Some(2));
        assert_eq!(step(2, "ArrowDown"), Some(1));
        assert_eq!(step(1, "ArrowDown"), Some(1));
        assert_eq!(step(60, "PageUp"), Some(120));
        assert_eq!(step(60, "PageDown"), Some(30));
        assert_eq!(step(2000, "PageUp"), Some(2048));
        assert_eq!(step(60, "Home"), None);
    }

    #[test]
    fn the_bar_marks_the_sliders_the_panel_being_read_does_not_use() {
        use crate::model::panels::PanelId;
        let mut state = State::default();
        // Above the first panel: every slider is in use.
        assert!(control_values(&state).unused_here.is_empty());
        // The training panel has a model of its own: none of the four changes it.
        state.update(Msg::Reading(Some(PanelId::Train)));
        assert_eq!(
            control_values(&state).unused_here,
            ["d", "n", "base", "delta"]
        );
        // The heatmap of P reads d, n and the base, not the offset.
        state.update(Msg::Reading(Some(PanelId::Heatmap)));
        assert_eq!(control_values(&state).unused_here, ["delta"]);
        // The complexity panel follows the global n and d until the reader sets its own n.
        state.update(Msg::Reading(Some(PanelId::Complexity)));
        assert_eq!(control_values(&state).unused_here, ["base", "delta"]);
        state.update(Msg::set("cn", "100"));
        assert_eq!(control_values(&state).unused_here, ["n", "base", "delta"]);
        state.update(Msg::FollowGlobalSize);
        assert_eq!(control_values(&state).unused_here, ["base", "delta"]);
        // Each panel: exactly the bar's sliders missing from its row's `globals`.
        for spec in crate::model::panels::PANELS.iter() {
            let unused = globals_unused_by(Some(spec.id), &state.settings);
            for key in GLOBAL_SLIDERS {
                assert_eq!(unused.contains(&key), !spec.globals.contains(&key), "{key}");
            }
        }
    }

    #[test]
    fn one_position_disables_the_offset() {
        let mut state = State::default();
        state.update(Msg::set("n", "1"));
        let values = control_values(&state);
        let delta = values.sliders.iter().find(|s| s.key == "delta").unwrap();
        assert!(delta.disabled());
        let keys: Vec<&str> = values.sliders.iter().map(|s| s.key).collect();
        fn slider_keys<S>(rows: &[crate::model::settings::row::Setting<S>]) -> Vec<&'static str> {
            rows.iter()
                .filter(|row| matches!(row.control, Control::Slider { .. }))
                .map(|row| row.key)
                .collect()
        }
        let mut wanted = slider_keys(&crate::model::query::params_keys::PARAM_ROWS);
        wanted.extend(slider_keys(&crate::model::settings::table::SETTINGS));
        assert_eq!(
            keys, wanted,
            "the parameters', then the settings' in their table's (the link's) order"
        );
        assert_eq!(&keys[..4], ["d", "n", "base", "delta"]);
    }
}
