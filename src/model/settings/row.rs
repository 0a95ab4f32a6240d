//! What a row of the settings table ([`super::table::SETTINGS`]) says about one setting: its key
//! and long name, what its value is (a whole number in a range, a decimal, a switch, a name, or
//! text read by a function of its own), when a link writes it, its control and its fields in
//! `peLab.lesson`. The rows are constants built with the `const fn`s below, so that each reads as
//! one sentence about its setting.

use serde::Serialize;

use super::PanelSettings;
use crate::model::controls::widgets::{MenuValue, SliderValue};
use crate::model::params::Params;

/// Reads a setting's value.
pub type Get<T> = fn(&PanelSettings) -> T;
/// Writes a setting's value (already checked and clamped).
pub type Put<T> = fn(&mut PanelSettings, T);

/// The largest value of a whole-number setting.
#[derive(Debug, Clone, Copy)]
pub enum Bound {
    Fixed(u64),
    /// The global d the heads were fitted to.
    D,
    /// The index of the sentence's last token.
    LastToken,
}

impl Bound {
    pub fn of(self, settings: &PanelSettings) -> u64 {
        match self {
            Bound::Fixed(max) => max,
            Bound::D => settings.d() as u64,
            Bound::LastToken => settings.token_count().saturating_sub(1) as u64,
        }
    }
}

/// What a setting's value is, and so how it is read and clamped.
#[derive(Debug, Clone, Copy)]
pub enum Value {
    /// A whole number: rounded, then clamped into `min`…`max` with a notice. `get` is `None`
    /// while the setting follows another value (it is then absent from the link).
    Integer {
        min: u64,
        max: Bound,
        get: Get<Option<u64>>,
        put: Put<u64>,
    },
    /// A decimal number clamped into `min`…`max` with a notice; `why` says what the range means.
    Decimal {
        min: f64,
        max: f64,
        why: &'static str,
        get: Get<f64>,
        put: Put<f64>,
    },
    /// On or off (`1`, `true`, `on`, `yes` or `0`, `false`, `off`, `no`).
    Switch { get: Get<bool>, put: Put<bool> },
    /// One of `names` (the spellings its `UrlName` writes; it reads a few more). `put` says
    /// whether it knew the name.
    Name {
        names: &'static [&'static str],
        get: Get<&'static str>,
        put: fn(&mut PanelSettings, &str) -> bool,
    },
    /// Text read by a function of its own (the sentence, the mask, the batch's lengths, the
    /// permutation), which gives its own notices.
    Own {
        read: fn(&mut PanelSettings, &str, &mut Vec<String>),
    },
}

/// When a link writes a setting.
#[derive(Debug, Clone, Copy)]
pub enum Write {
    /// Always (unless it follows another value: [`Value::Integer`]'s `None`).
    Always,
    /// Only when it differs from the default.
    Changed,
    /// When it differs from the default, or when this holds (`beta` with the offset head).
    ChangedOr(Get<bool>),
    /// This text, or nothing.
    Own(Get<Option<String>>),
}

/// How a slider shows a setting.
#[derive(Debug, Clone, Copy)]
pub enum SliderOf {
    /// One step per whole number of the setting's range, with what a screen reader says.
    Steps(fn(u64) -> String),
    /// A slider of its own (a log scale, a range that follows the sentence, …).
    Own(fn(&PanelSettings, &Params) -> SliderValue),
}

/// How a menu gets its options.
#[derive(Debug, Clone, Copy)]
pub enum MenuOf {
    /// The page lists them; the state gives only the choice (the row's value).
    Page,
    /// From the state (the divisors of d, the tokens); `disabled` when it has none.
    Own(Get<MenuValue>),
}

/// A setting's control on the page, with its element ids.
#[derive(Debug, Clone, Copy)]
pub enum Control {
    /// Set by buttons only (or not at all).
    None,
    /// A slider (`range`) and its exact numeric field (`number`).
    Slider {
        range: &'static str,
        number: &'static str,
        of: SliderOf,
    },
    Check(&'static str),
    Menu(&'static str, MenuOf),
    /// A text field sent when it changes (Enter, or leaving it).
    Text(&'static str),
    /// A text field sent at every keystroke.
    LiveText(&'static str),
    /// The batch example's two length fields, sent together as `a,b`.
    Lens([&'static str; 2], Get<[usize; 2]>),
}

/// A field of `peLab.lesson`, as JavaScript sees it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Shown {
    Count(usize),
    Number(f64),
    Switch(bool),
    Name(&'static str),
    Text(String),
    /// `null`: the setting follows another value.
    Maybe(Option<usize>),
    Counts(Vec<usize>),
    Texts(Vec<String>),
}

/// Where a field of `peLab.lesson` comes from.
#[derive(Debug, Clone, Copy)]
pub enum ShownOf {
    /// The row's value as it is.
    Value,
    /// The value in use, which may depend on the global n and d (the complexity panel's).
    Own(fn(&PanelSettings, &Params) -> Shown),
}

/// A field of `peLab.lesson` (camelCase).
#[derive(Debug, Clone, Copy)]
pub struct ViewField {
    pub name: &'static str,
    pub of: ShownOf,
}

/// One setting: everything the page knows about it.
#[derive(Debug, Clone, Copy)]
pub struct Setting {
    /// The link's key.
    pub key: &'static str,
    /// The descriptive name `peLab.set` also accepts (`shawClip` for `clip`).
    pub long_name: Option<&'static str>,
    pub value: Value,
    pub write: Write,
    /// Read after the rest of a link: its range follows the sentence, which may come later.
    pub after_sentence: bool,
    pub control: Control,
    pub view: &'static [ViewField],
}

impl Setting {
    const fn new(key: &'static str, value: Value) -> Setting {
        Setting {
            key,
            long_name: None,
            value,
            write: Write::Always,
            after_sentence: false,
            control: Control::None,
            view: &[],
        }
    }

    pub(super) const fn integer(
        key: &'static str,
        min: u64,
        max: u64,
        get: Get<Option<u64>>,
        put: Put<u64>,
    ) -> Setting {
        let max = Bound::Fixed(max);
        Setting::new(key, Value::Integer { min, max, get, put })
    }

    /// A whole number whose largest value follows the state.
    pub(super) const fn integer_to(
        key: &'static str,
        min: u64,
        max: Bound,
        get: Get<Option<u64>>,
        put: Put<u64>,
    ) -> Setting {
        let after_sentence = matches!(max, Bound::LastToken);
        Setting {
            after_sentence,
            ..Setting::new(key, Value::Integer { min, max, get, put })
        }
    }

    pub(super) const fn decimal(
        key: &'static str,
        (min, max): (f64, f64),
        why: &'static str,
        get: Get<f64>,
        put: Put<f64>,
    ) -> Setting {
        Setting::new(
            key,
            Value::Decimal {
                min,
                max,
                why,
                get,
                put,
            },
        )
    }

    pub(super) const fn switch(key: &'static str, get: Get<bool>, put: Put<bool>) -> Setting {
        Setting::new(key, Value::Switch { get, put })
    }

    pub(super) const fn name(
        key: &'static str,
        names: &'static [&'static str],
        get: Get<&'static str>,
        put: fn(&mut PanelSettings, &str) -> bool,
    ) -> Setting {
        Setting::new(key, Value::Name { names, get, put })
    }

    pub(super) const fn own(
        key: &'static str,
        read: fn(&mut PanelSettings, &str, &mut Vec<String>),
        write: Get<Option<String>>,
    ) -> Setting {
        Setting {
            write: Write::Own(write),
            ..Setting::new(key, Value::Own { read })
        }
    }

    pub(super) const fn long(self, name: &'static str) -> Setting {
        Setting {
            long_name: Some(name),
            ..self
        }
    }

    pub(super) const fn after_sentence(self) -> Setting {
        Setting {
            after_sentence: true,
            ..self
        }
    }

    pub(super) const fn written(self, write: Write) -> Setting {
        Setting { write, ..self }
    }

    pub(super) const fn control(self, control: Control) -> Setting {
        Setting { control, ..self }
    }

    /// A slider `<key>-range` with its field `<key>-number`.
    pub(super) const fn slider(
        self,
        range: &'static str,
        number: &'static str,
        of: SliderOf,
    ) -> Setting {
        self.control(Control::Slider { range, number, of })
    }

    pub(super) const fn view(self, view: &'static [ViewField]) -> Setting {
        Setting { view, ..self }
    }

    /// The value as a link writes it; `None` while it follows another value.
    pub fn text(&self, settings: &PanelSettings) -> Option<String> {
        if let Write::Own(write) = self.write {
            return write(settings);
        }
        match self.value {
            Value::Integer { get, .. } => get(settings).map(|v| v.to_string()),
            Value::Decimal { get, .. } => Some(format!("{}", get(settings))),
            Value::Switch { get, .. } => {
                Some(crate::model::query::values::switch_text(get(settings)).to_string())
            }
            Value::Name { get, .. } => Some(get(settings).to_string()),
            Value::Own { .. } => None,
        }
    }

    /// The pair a link carries for this setting, if it writes one (`defaults`: the settings'
    /// defaults, made once per link rather than once per row).
    pub fn pair(
        &self,
        settings: &PanelSettings,
        defaults: &PanelSettings,
    ) -> Option<(&'static str, String)> {
        let written = match self.write {
            Write::Always | Write::Own(_) => true,
            Write::Changed => self.differs(settings, defaults),
            Write::ChangedOr(also) => also(settings) || self.differs(settings, defaults),
        };
        if !written {
            return None;
        }
        Some((self.key, self.text(settings)?))
    }

    /// Whether the value differs from the default's (compared as values: no text is made for a
    /// setting a link leaves out).
    fn differs(&self, settings: &PanelSettings, defaults: &PanelSettings) -> bool {
        match self.value {
            Value::Integer { get, .. } => get(settings) != get(defaults),
            Value::Decimal { get, .. } => get(settings) != get(defaults),
            Value::Switch { get, .. } => get(settings) != get(defaults),
            Value::Name { get, .. } => get(settings) != get(defaults),
            Value::Own { .. } => self.text(settings) != self.text(defaults),
        }
    }

    /// The row's own value as `peLab.lesson` shows it.
    fn shown(&self, settings: &PanelSettings) -> Shown {
        match self.value {
            Value::Integer { get, .. } => Shown::Maybe(get(settings).map(|v| v as usize)),
            Value::Decimal { get, .. } => Shown::Number(get(settings)),
            Value::Switch { get, .. } => Shown::Switch(get(settings)),
            Value::Name { get, .. } => Shown::Name(get(settings)),
            Value::Own { .. } => Shown::Text(self.text(settings).unwrap_or_default()),
        }
    }

    /// This row's fields of `peLab.lesson`.
    pub fn view_fields<'a>(
        &'a self,
        settings: &'a PanelSettings,
        params: &'a Params,
    ) -> impl Iterator<Item = (&'static str, Shown)> + 'a {
        self.view.iter().map(move |field| {
            let shown = match field.of {
                ShownOf::Value => self.shown(settings),
                ShownOf::Own(of) => of(settings, params),
            };
            (field.name, shown)
        })
    }
}

/// A field of `peLab.lesson` showing the row's value.
pub(super) const fn field(name: &'static str) -> ViewField {
    ViewField {
        name,
        of: ShownOf::Value,
    }
}

/// A field of `peLab.lesson` computed from the settings and the global parameters.
pub(super) const fn field_of(
    name: &'static str,
    of: fn(&PanelSettings, &Params) -> Shown,
) -> ViewField {
    ViewField {
        name,
        of: ShownOf::Own(of),
    }
}
