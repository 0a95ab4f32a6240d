//! The sentences the wasm computes (takeaways, read-outs, notices, figure labels, the training
//! lab's verdict and findings), as messages of a Fluent catalog with their numbers as arguments:
//! `locales/computed/<code>.ftl` for the page, `locales/training/<code>.ftl` for the training
//! panel's module. English is compiled in; a translated page carries its catalogs in
//! `<script type="text/x-fluent" id="messages-computed">` (and `messages-training`), written by
//! the build (scripts/l10n/build-pages.mjs), which `web` hands to [`install`] before the first
//! sentence is written. So a second language's words are fetched only by its own page.
//!
//! A message is asked for with [`message!`] (the page's) or [`training_message!`]:
//! `message!("notice-d-clamped", requested = d, limit = 1024)`. Its numbers are formatted by the
//! caller (the precision is part of what the sentence claims) and passed as text, or passed as a
//! count, which also selects a plural form.
//!
//! The wasm carries short ids (`m1f`) instead of the catalogs' names, in its catalogs and at its
//! call sites: build.rs numbers the English messages, the macros find a name's short id at
//! compile time ([`short_id`]; an unknown name does not compile), and the build gives a
//! translated page's catalogs the same short ids.

pub mod arguments;
mod pattern;

pub use pattern::{Arg, Catalog, Plurals, SyntaxError};

use std::cell::RefCell;
use std::rc::Rc;

/// One catalog of computed sentences: its English source and where a translation travels.
pub trait Resource: 'static {
    /// The English catalog, compiled in (compact, with short ids: build.rs).
    const ENGLISH: &'static str;
    /// Every message's name and short id, sorted by name (build.rs).
    const IDS: &'static [(&'static str, &'static str)];
    /// Every argument name with its short name, sorted by name (build.rs).
    const ARGS: &'static [(&'static str, &'static str)];
    /// The id of the element that carries a translated page's catalog.
    const ELEMENT_ID: &'static str;
    /// This resource's catalogs on this thread.
    fn slot() -> &'static std::thread::LocalKey<RefCell<Option<Rc<Loaded>>>>;
}

/// The English catalog and, on a translated page, the chosen language's.
#[derive(Debug)]
pub struct Loaded {
    english: Catalog,
    chosen: Option<Catalog>,
}

/// The page's own sentences (`locales/computed`).
pub struct Computed;
/// The training panel's (`locales/training`), compiled only into what trains.
pub struct Training;

thread_local! {
    static COMPUTED: RefCell<Option<Rc<Loaded>>> = const { RefCell::new(None) };
    static TRAINING: RefCell<Option<Rc<Loaded>>> = const { RefCell::new(None) };
}

mod computed_ids {
    include!(concat!(env!("OUT_DIR"), "/computed-ids.rs"));
}
mod training_ids {
    include!(concat!(env!("OUT_DIR"), "/training-ids.rs"));
}

impl Resource for Computed {
    const ENGLISH: &'static str = include_str!(concat!(env!("OUT_DIR"), "/computed-en.ftl"));
    const IDS: &'static [(&'static str, &'static str)] = computed_ids::IDS;
    const ARGS: &'static [(&'static str, &'static str)] = computed_ids::ARGS;
    const ELEMENT_ID: &'static str = "messages-computed";
    fn slot() -> &'static std::thread::LocalKey<RefCell<Option<Rc<Loaded>>>> {
        &COMPUTED
    }
}

impl Resource for Training {
    const ENGLISH: &'static str = include_str!(concat!(env!("OUT_DIR"), "/training-en.ftl"));
    const IDS: &'static [(&'static str, &'static str)] = training_ids::IDS;
    const ARGS: &'static [(&'static str, &'static str)] = training_ids::ARGS;
    const ELEMENT_ID: &'static str = "messages-training";
    fn slot() -> &'static std::thread::LocalKey<RefCell<Option<Rc<Loaded>>>> {
        &TRAINING
    }
}

/// Why a translated catalog was not installed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InstallError {
    #[error("the {language} catalog {element}: {error}")]
    Syntax {
        language: String,
        element: &'static str,
        error: SyntaxError,
    },
}

fn loaded<R: Resource>() -> Rc<Loaded> {
    R::slot().with(|slot| {
        let mut slot = slot.borrow_mut();
        if let Some(loaded) = slot.as_ref() {
            return Rc::clone(loaded);
        }
        // The English catalog is checked by this module's tests; a syntax error in it would
        // leave every sentence as its id, never a panic.
        let english = Catalog::index(R::ENGLISH.into(), "en").unwrap_or_default();
        let loaded = Rc::new(Loaded {
            english,
            chosen: None,
        });
        *slot = Some(Rc::clone(&loaded));
        loaded
    })
}

/// Uses `source`, the catalog of `language`, for resource `R` on this thread from now on (English
/// where it lacks a message). On a syntax error the page stays in English and says why.
pub fn install<R: Resource>(language: &str, source: &str) -> Result<(), InstallError> {
    // Indexed, not parsed: the build and tests/locales.rs have checked every message's syntax,
    // and a page starts faster without parsing hundreds of sentences it may not show.
    let chosen = Catalog::index(source.to_string().into(), language).map_err(|error| {
        InstallError::Syntax {
            language: language.to_string(),
            element: R::ELEMENT_ID,
            error,
        }
    })?;
    let english = Catalog::index(R::ENGLISH.into(), "en").unwrap_or_default();
    R::slot().with(|slot| {
        *slot.borrow_mut() = Some(Rc::new(Loaded {
            english,
            chosen: Some(chosen),
        }))
    });
    Ok(())
}

/// [`install`] for a catalog as it is written, with the messages' names (tests, natively: the
/// page gets its catalogs with short ids from the build).
pub fn install_source<R: Resource>(language: &str, source: &str) -> Result<(), InstallError> {
    let compact: String = source
        .lines()
        .map(|line| shorten_arguments::<R>(line))
        .map(|line| {
            let named = line
                .split_once(" =")
                .and_then(|(name, _)| R::IDS.iter().find(|(id, _)| *id == name));
            match named {
                Some((name, short)) => format!("{short}{}\n", &line[name.len()..]),
                None => format!("{line}\n"),
            }
        })
        .collect();
    install::<R>(language, &compact)
}

/// `line` of a catalog as it is written with each `{ $name` under the short name the compiled-in
/// catalog and the call sites use (build.rs; names that English lacks stay as they are).
pub fn shorten_arguments<R: Resource>(line: &str) -> String {
    arguments::rename_arguments(line, |name, out| {
        out.push_str(short_argument(R::ARGS, name))
    })
}

/// The short name of argument `name` (build.rs), or `name` where no English message has it (an
/// argument only a translation uses keeps its name there and at the call site).
pub const fn short_argument<'a>(
    arguments: &'static [(&'static str, &'static str)],
    name: &'a str,
) -> &'a str {
    let (mut low, mut high) = (0, arguments.len());
    while low < high {
        let middle = (low + high) / 2;
        match compare(arguments[middle].0, name) {
            0 => return arguments[middle].1,
            -1 => low = middle + 1,
            _ => high = middle,
        }
    }
    name
}

/// Indexes resource `R`'s catalogs now (if they are not yet): at a module's start rather than at
/// its first sentence, which may come in a frame that must stay short (the first Train click).
pub fn preload<R: Resource>() {
    loaded::<R>();
}

/// The names of a list (a link's choices, the panels) joined with the language's separator:
/// ", " in English, "、" in Chinese.
pub fn join_names<S: std::borrow::Borrow<str>>(names: &[S]) -> String {
    names.join(crate::message!("list-separator").as_str())
}

/// Back to English for resource `R` on this thread (tests).
pub fn use_english<R: Resource>() {
    R::slot().with(|slot| *slot.borrow_mut() = None);
}

/// -1, 0 or 1 as `a` sorts before, with or after `b` (byte order, in a const fn).
const fn compare(a: &str, b: &str) -> i32 {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut i = 0;
    while i < a.len() && i < b.len() {
        if a[i] != b[i] {
            return if a[i] < b[i] { -1 } else { 1 };
        }
        i += 1;
    }
    if a.len() == b.len() {
        0
    } else if a.len() < b.len() {
        -1
    } else {
        1
    }
}

/// The short id of the message named `name` in `ids` (a resource's sorted [`Resource::IDS`]),
/// evaluated at compile time by the macros: a name no catalog has stops the build.
pub const fn short_id(ids: &'static [(&'static str, &'static str)], name: &str) -> &'static str {
    let (mut low, mut high) = (0, ids.len());
    while low < high {
        let middle = (low + high) / 2;
        match compare(ids[middle].0, name) {
            0 => return ids[middle].1,
            -1 => low = middle + 1,
            _ => high = middle,
        }
    }
    panic!("no message has this name in locales/*/en.ftl")
}

/// Message `id` (its short id) of resource `R` in the chosen language, with `args`; the id where
/// no catalog has it (the catalogs' tests make that a failure, not something a reader sees).
/// Never inlined: the page calls it from hundreds of places.
#[inline(never)]
pub fn format<R: Resource>(id: &str, args: &[(&str, Arg<'_>)]) -> String {
    let loaded = loaded::<R>();
    loaded
        .chosen
        .as_ref()
        .and_then(|catalog| catalog.format(id, args))
        .or_else(|| loaded.english.format(id, args))
        .unwrap_or_else(|| id.to_string())
}

// `message!` borrows each value (`Arg::from(&value)`), so these take references.
// A reference to any text (`&str`, `&String`, …).
impl<'a, 'b: 'a, T: std::fmt::Display + ?Sized> From<&'a &'b T> for Arg<'a> {
    fn from(text: &'a &'b T) -> Self {
        Arg::Text(text)
    }
}

impl<'a, 'b: 'a> From<&'a std::borrow::Cow<'b, str>> for Arg<'a> {
    fn from(text: &'a std::borrow::Cow<'b, str>) -> Self {
        Arg::Text(text)
    }
}

impl<'a> From<&'a String> for Arg<'a> {
    fn from(text: &'a String) -> Self {
        Arg::Text(text)
    }
}

impl<'a, 'b: 'a> From<&'a std::fmt::Arguments<'b>> for Arg<'a> {
    fn from(text: &'a std::fmt::Arguments<'b>) -> Self {
        Arg::Text(text)
    }
}

macro_rules! count_from {
    ($($t:ty),*) => {$(
        impl From<&$t> for Arg<'_> {
            fn from(n: &$t) -> Self {
                Arg::Count(i64::try_from(*n).unwrap_or(i64::MAX))
            }
        }
    )*};
}
count_from!(usize, u32, u64, i32, i64);

/// A sentence of resource `$resource`'s catalog (what [`message!`] and [`training_message!`]
/// expand to): the message's short id and its arguments' short names found at compile time.
#[doc(hidden)]
#[macro_export]
macro_rules! catalog_message {
    ($resource:ident, $id:literal $(, $name:ident = $value:expr)*) => {{
        const ID: &str = $crate::model::messages::short_id(
            <$crate::model::messages::$resource as $crate::model::messages::Resource>::IDS,
            $id,
        );
        $crate::model::messages::format::<$crate::model::messages::$resource>(
            ID,
            &[$(
                (
                    {
                        const NAME: &str = $crate::model::messages::short_argument(
                            <$crate::model::messages::$resource as $crate::model::messages::Resource>::ARGS,
                            stringify!($name),
                        );
                        NAME
                    },
                    $crate::model::messages::Arg::from(&($value)),
                )
            ),*],
        )
    }};
}

/// A sentence of the page's catalog: `message!("id", name = value, …)`.
#[macro_export]
macro_rules! message {
    ($id:literal $(, $name:ident = $value:expr)* $(,)?) => {
        $crate::catalog_message!(Computed, $id $(, $name = $value)*)
    };
}

/// A sentence of the training panel's catalog: `training_message!("id", name = value, …)`.
#[macro_export]
macro_rules! training_message {
    ($id:literal $(, $name:ident = $value:expr)* $(,)?) => {
        $crate::catalog_message!(Training, $id $(, $name = $value)*)
    };
}

#[cfg(test)]
mod tests;
