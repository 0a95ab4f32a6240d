//! One kind of row for every link key: its key and long names, what its value is (a whole
//! number in a range, a decimal, a switch, a name, or text read by a function of its own), when a
//! link writes it, the order it is read in, its control and its fields in `peLab.lesson`. A row
//! is written over the settings it reads and writes (`S`): the encoding parameters
//! (`query::params_keys`), the panel settings ([`super::table::SETTINGS`], the default),
//! the training panel's (`query::train_keys`) and the view's (`query::view_keys`). The rows are
//! constants built with the `const fn`s below, so that each reads as one sentence about its
//! setting; [`Setting::read`] and [`super::rows::written_pairs`] are the one reader and writer of
//! them all.

use serde::Serialize;

pub use super::words::Words;
use super::PanelSettings;
use crate::model::controls::widgets::{MenuValue, SliderValue};
use crate::model::messages;
use crate::model::params::Params;
use crate::model::query::values::{
    parse_integer, parse_number, parse_switch, shorten, switch_text,
};

/// Reads a setting's value.
pub type Get<S, T> = fn(&S) -> T;
/// Writes a setting's value (already checked and clamped).
pub type Put<S, T> = fn(&mut S, T);

/// The types below hold only function pointers and plain data, so they are `Copy` whatever the
/// settings type is (a derive would ask `S: Copy`, which [`PanelSettings`] is not).
macro_rules! copy_whatever_the_settings {
    ($($name:ident),*) => {$(
        impl<S> Clone for $name<S> {
            fn clone(&self) -> Self {
                *self
            }
        }
        impl<S> Copy for $name<S> {}
    )*};
}

copy_whatever_the_settings!(
    Bound, Value, Write, SliderOf, MenuOf, TextOf, Control, ShownOf, ViewField, Setting
);

/// An end of a whole-number setting's range.
#[derive(Debug)]
pub enum Bound<S: 'static = PanelSettings> {
    Fixed(i64),
    /// One that follows the state (the global d the heads are fitted to, the sentence's last
    /// token, the backend's largest n).
    Of(Get<S, i64>),
}

impl<S> Bound<S> {
    pub fn of(self, settings: &S) -> i64 {
        match self {
            Bound::Fixed(end) => end,
            Bound::Of(end) => end(settings),
        }
    }
}

/// What a setting's value is, and so how it is read and clamped.
#[derive(Debug)]
pub enum Value<S: 'static = PanelSettings> {
    /// A whole number: rounded, then clamped into `min`…`max` with a notice. `get` is `None`
    /// while the setting follows another value (it is then absent from the link).
    Integer {
        min: Bound<S>,
        max: Bound<S>,
        get: Get<S, Option<i64>>,
        put: Put<S, i64>,
    },
    /// A decimal number clamped into its range with a notice.
    Decimal {
        range: DecimalRange,
        get: Get<S, f64>,
        put: Put<S, f64>,
    },
    /// A finite decimal number that the settings' own clamping brings into range (the learning
    /// rate: its limits, and the notice that names them, are the training crate's).
    Number { get: Get<S, f64>, put: Put<S, f64> },
    /// On or off (`1`, `true`, `on`, `yes` or `0`, `false`, `off`, `no`).
    Switch {
        get: Get<S, bool>,
        put: Put<S, bool>,
    },
    /// One of `names` (the spellings its `UrlName` writes; it reads a few more). `put` says
    /// whether it knew the name.
    Name {
        names: &'static [&'static str],
        get: Get<S, &'static str>,
        put: fn(&mut S, &str) -> bool,
    },
    /// Text read by a function of its own (the sentence, the mask, the batch's lengths, the
    /// permutation, the columns, the task), which gives its own notices.
    Own {
        read: fn(&mut S, &str, &mut Vec<String>),
    },
}

/// The range a decimal setting is clamped into, and what it means: `why`, a message's short id
/// that the notice of a clamped value adds (empty for none).
#[derive(Debug, Clone, Copy)]
pub struct DecimalRange {
    pub min: f64,
    pub max: f64,
    pub why: &'static str,
}

/// When a link writes a setting.
#[derive(Debug)]
pub enum Write<S: 'static = PanelSettings> {
    /// Always (unless it follows another value: [`Value::Integer`]'s `None`).
    Always,
    /// Only when it differs from the default.
    Changed,
    /// When it differs from the default, or when this holds (`beta` with the offset head).
    ChangedOr(Get<S, bool>),
    /// When it differs from the default and this holds (`tk`, which only the shift task reads).
    ChangedAnd(Get<S, bool>),
    /// This text, or nothing.
    Own(Get<S, Option<String>>),
}

/// When a setting is read among the others of one update.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadOrder {
    /// Before the rest: `task`, which resets the training settings to its ready-made run.
    First,
    /// Where it stands in the link.
    InTurn,
    /// After the rest: its range follows the sentence, which may come later.
    AfterSentence,
}

/// How a slider shows a setting.
#[derive(Debug)]
pub enum SliderOf<S: 'static = PanelSettings> {
    /// One step per whole number of the setting's range, with what a screen reader says.
    Steps(fn(i64) -> String),
    /// A slider of its own (a log scale, a range that follows the sentence, …).
    Own(fn(&S, &Params) -> SliderValue),
}

/// How a menu gets its options.
#[derive(Debug)]
pub enum MenuOf<S: 'static = PanelSettings> {
    /// The page lists them; the state gives only the choice (the row's value).
    Page,
    /// From the state (the divisors of d, the tokens); `disabled` when it has none.
    Own(Get<S, MenuValue>),
}

/// What a text field shows.
#[derive(Debug)]
pub enum TextOf<S: 'static = PanelSettings> {
    /// The value as a link writes it (the seed).
    Link,
    /// A text of its own: the curve columns as the reader counts them, "6, 7, 8, 9", where the
    /// link writes "6,7,8,9" counted from 0.
    Own(Get<S, String>),
}

/// A setting's control on the page, with its element ids.
#[derive(Debug)]
pub enum Control<S: 'static = PanelSettings> {
    /// Set by buttons only (or not at all).
    None,
    /// A slider (`range`) and its exact numeric field (`number`).
    Slider {
        range: &'static str,
        number: &'static str,
        of: SliderOf<S>,
    },
    /// A box: a switch, or a whole number from 0 to 1 (`index`), checked at 1.
    Check(&'static str),
    Menu(&'static str, MenuOf<S>),
    /// A text field sent when it changes (Enter, or leaving it).
    Text(&'static str, TextOf<S>),
    /// A numeric field sent when it changes, with the range and step its spinner offers (the
    /// values a link may ask for are the row's; what is out of range is clamped with a notice).
    Number {
        id: &'static str,
        min: f64,
        max: Option<f64>,
        step: f64,
    },
    /// A text field sent at every keystroke.
    LiveText(&'static str),
    /// The batch example's two length fields, sent together as `a,b`.
    Lens([&'static str; 2], Get<S, [usize; 2]>),
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
#[derive(Debug)]
pub enum ShownOf<S: 'static = PanelSettings> {
    /// The row's value as it is.
    Value,
    /// The value in use, which may depend on the global n and d (the complexity panel's).
    Own(fn(&S, &Params) -> Shown),
}

/// A field of `peLab.lesson` (camelCase).
#[derive(Debug)]
pub struct ViewField<S: 'static = PanelSettings> {
    pub name: &'static str,
    pub of: ShownOf<S>,
}

/// One setting: everything the page knows about it.
#[derive(Debug)]
pub struct Setting<S: 'static = PanelSettings> {
    /// The link's key.
    pub key: &'static str,
    /// The descriptive names `peLab.set` (or `peLab.train`'s options) also accept (`shawClip`
    /// for `clip`, `learningRate` and `lr` for `tlr`).
    pub long_names: &'static [&'static str],
    pub value: Value<S>,
    pub write: Write<S>,
    pub order: ReadOrder,
    pub control: Control<S>,
    pub view: &'static [ViewField<S>],
    /// What the key does, as docs/links-and-keys.md lists it (its table of the panels' settings
    /// is written from these: `cargo test --test page_tables`). Native builds only, as `words`:
    /// the page's wasm never reads them (its markup is written at build time), and their text
    /// would be part of its first load.
    #[cfg(not(target_arch = "wasm32"))]
    pub doc: &'static str,
    /// A control's words, for the markup the build writes ([`Words`]).
    #[cfg(not(target_arch = "wasm32"))]
    pub words: Option<Words>,
}

impl<S> Setting<S> {
    const fn new(key: &'static str, value: Value<S>) -> Setting<S> {
        Setting {
            key,
            long_names: &[],
            value,
            write: Write::Always,
            order: ReadOrder::InTurn,
            control: Control::None,
            view: &[],
            #[cfg(not(target_arch = "wasm32"))]
            doc: "",
            #[cfg(not(target_arch = "wasm32"))]
            words: None,
        }
    }

    pub const fn integer(
        key: &'static str,
        min: i64,
        max: i64,
        get: Get<S, Option<i64>>,
        put: Put<S, i64>,
    ) -> Setting<S> {
        Setting::integer_to(key, Bound::Fixed(min), Bound::Fixed(max), get, put)
    }

    /// A whole number whose range follows the state.
    pub const fn integer_to(
        key: &'static str,
        min: Bound<S>,
        max: Bound<S>,
        get: Get<S, Option<i64>>,
        put: Put<S, i64>,
    ) -> Setting<S> {
        Setting::new(key, Value::Integer { min, max, get, put })
    }

    pub const fn decimal(
        key: &'static str,
        (min, max): (f64, f64),
        why: &'static str,
        get: Get<S, f64>,
        put: Put<S, f64>,
    ) -> Setting<S> {
        let range = DecimalRange { min, max, why };
        Setting::new(key, Value::Decimal { range, get, put })
    }

    pub const fn number(key: &'static str, get: Get<S, f64>, put: Put<S, f64>) -> Setting<S> {
        Setting::new(key, Value::Number { get, put })
    }

    pub const fn switch(key: &'static str, get: Get<S, bool>, put: Put<S, bool>) -> Setting<S> {
        Setting::new(key, Value::Switch { get, put })
    }

    pub const fn name(
        key: &'static str,
        names: &'static [&'static str],
        get: Get<S, &'static str>,
        put: fn(&mut S, &str) -> bool,
    ) -> Setting<S> {
        Setting::new(key, Value::Name { names, get, put })
    }

    pub const fn own(
        key: &'static str,
        read: fn(&mut S, &str, &mut Vec<String>),
        write: Get<S, Option<String>>,
    ) -> Setting<S> {
        Setting {
            write: Write::Own(write),
            ..Setting::new(key, Value::Own { read })
        }
    }

    pub const fn long(self, names: &'static [&'static str]) -> Setting<S> {
        Setting {
            long_names: names,
            ..self
        }
    }

    pub const fn after_sentence(self) -> Setting<S> {
        Setting {
            order: ReadOrder::AfterSentence,
            ..self
        }
    }

    pub const fn first(self) -> Setting<S> {
        Setting {
            order: ReadOrder::First,
            ..self
        }
    }

    pub const fn written(self, write: Write<S>) -> Setting<S> {
        Setting { write, ..self }
    }

    pub const fn control(self, control: Control<S>) -> Setting<S> {
        Setting { control, ..self }
    }

    /// A slider `<key>-range` with its field `<key>-number`.
    pub const fn slider(
        self,
        range: &'static str,
        number: &'static str,
        of: SliderOf<S>,
    ) -> Setting<S> {
        self.control(Control::Slider { range, number, of })
    }

    pub const fn view(self, view: &'static [ViewField<S>]) -> Setting<S> {
        Setting { view, ..self }
    }

    /// Whether `name` is this row's key or one of its long names.
    pub fn is_named(&self, name: &str) -> bool {
        self.key == name || self.long_names.contains(&name)
    }

    /// Reads one value as the row says: a malformed one keeps the setting, an out-of-range one
    /// is clamped, each with a notice (in the row's key, whichever name the value came by).
    /// Settings that tie one value to another clamp afterwards, in their own `clamp`. (The
    /// parsing and the notices are functions of the value alone, not of `S`, so that the page
    /// carries them once rather than once per table.)
    pub fn read(&self, settings: &mut S, value: &str, notices: &mut Vec<String>) {
        let key = self.key;
        match self.value {
            Value::Integer { min, max, put, .. } => {
                let (min, max) = (min.of(settings) as f64, max.of(settings) as f64);
                if let Some(v) = parse_integer(key, value, min, max, notices) {
                    put(settings, v as i64);
                }
            }
            Value::Decimal { range, get, put } => {
                if let Some(v) = read_decimal(key, value, range, get(settings), notices) {
                    put(settings, v);
                }
            }
            Value::Number { put, .. } => {
                if let Some(v) = parse_number(key, value, notices) {
                    put(settings, v);
                }
            }
            Value::Switch { put, .. } => {
                if let Some(on) = parse_switch(key, value, notices) {
                    put(settings, on);
                }
            }
            Value::Name { names, get, put } => {
                if !put(settings, value) {
                    notices.push(not_a_name(key, value, names, get(settings)));
                }
            }
            Value::Own { read } => read(settings, value, notices),
        }
    }

    /// The value as a link writes it; `None` while it follows another value.
    pub fn text(&self, settings: &S) -> Option<String> {
        if let Write::Own(write) = self.write {
            return write(settings);
        }
        match self.value {
            Value::Integer { get, .. } => get(settings).map(|v| v.to_string()),
            Value::Decimal { get, .. } | Value::Number { get, .. } => {
                Some(format!("{}", get(settings)))
            }
            Value::Switch { get, .. } => Some(switch_text(get(settings)).to_string()),
            Value::Name { get, .. } => Some(get(settings).to_string()),
            Value::Own { .. } => None,
        }
    }

    /// The pair a link carries for this setting, if it writes one (`defaults`: what a link
    /// leaves out, made once per link rather than once per row).
    pub fn pair(&self, settings: &S, defaults: &S) -> Option<(&'static str, String)> {
        let written = match self.write {
            Write::Always | Write::Own(_) => true,
            Write::Changed => self.differs(settings, defaults),
            Write::ChangedOr(also) => also(settings) || self.differs(settings, defaults),
            Write::ChangedAnd(only) => only(settings) && self.differs(settings, defaults),
        };
        if !written {
            return None;
        }
        Some((self.key, self.text(settings)?))
    }

    /// Whether the value differs from the default's (compared as values: no text is made for a
    /// setting a link leaves out).
    fn differs(&self, settings: &S, defaults: &S) -> bool {
        match self.value {
            Value::Integer { get, .. } => get(settings) != get(defaults),
            Value::Decimal { get, .. } | Value::Number { get, .. } => {
                get(settings) != get(defaults)
            }
            Value::Switch { get, .. } => get(settings) != get(defaults),
            Value::Name { get, .. } => get(settings) != get(defaults),
            Value::Own { .. } => self.text(settings) != self.text(defaults),
        }
    }

    /// The row's own value as `peLab.lesson` shows it.
    fn shown(&self, settings: &S) -> Shown {
        match self.value {
            Value::Integer { get, .. } => Shown::Maybe(get(settings).map(|v| v as usize)),
            Value::Decimal { get, .. } | Value::Number { get, .. } => Shown::Number(get(settings)),
            Value::Switch { get, .. } => Shown::Switch(get(settings)),
            Value::Name { get, .. } => Shown::Name(get(settings)),
            Value::Own { .. } => Shown::Text(self.text(settings).unwrap_or_default()),
        }
    }

    /// This row's fields of `peLab.lesson`.
    pub fn view_fields<'a>(
        &'a self,
        settings: &'a S,
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

/// A decimal value clamped into `min`…`max` (with a notice saying why the range is what it is);
/// `None`, with a notice, when it is not a number.
fn read_decimal(
    key: &str,
    value: &str,
    DecimalRange { min, max, why }: DecimalRange,
    kept: f64,
    notices: &mut Vec<String>,
) -> Option<f64> {
    let Some(v) = crate::model::decimal::parse_decimal(value.trim()) else {
        notices.push(crate::message!(
            "notice-not-a-number",
            key = key,
            value = shorten(value),
            kept = kept.to_string()
        ));
        return None;
    };
    let clamped = v.clamp(min, max);
    if clamped != v {
        // `why` is a message of its own (its short id; the only one: the extension scale's).
        let why = if why.is_empty() {
            String::new()
        } else {
            messages::format::<messages::Computed>(why, &[])
        };
        notices.push(crate::message!(
            "notice-decimal-outside",
            key = key,
            value = shorten(value),
            min = min.to_string(),
            max = max.to_string(),
            why = why,
            used = clamped.to_string()
        ));
    }
    Some(clamped)
}

/// The notice for a name that is none of `names`.
fn not_a_name(key: &str, value: &str, names: &[&str], kept: &str) -> String {
    crate::message!(
        "notice-not-a-name",
        key = key,
        value = shorten(value),
        choices = one_of(names),
        kept = kept
    )
}

/// "a, b or c".
fn one_of(names: &[&str]) -> String {
    match names.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => crate::message!(
            "list-or",
            rest = crate::model::messages::join_names(rest),
            last = *last
        ),
        None => String::new(),
    }
}
