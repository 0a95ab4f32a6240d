//! Every link key is a row of one kind (`model::settings::row::Setting`), over the settings it
//! reads: the encoding parameters (`PARAM_ROWS`), the panel settings (`SETTINGS`, tested row by
//! row in tests/page_settings.rs), the training panel's (`TRAIN_ROWS`) and the view's
//! (`VIEW_ROWS`). These tests hold every table to the same rules through the one reader
//! (`Setting::read`) and writer (`written_pairs`): a value at either end of a range reads without
//! a notice, one beyond it is clamped with one notice naming the key, a malformed one keeps the
//! setting with one notice, a long name reads as its key, and what a link writes reads back.

use std::fmt::Debug;

use pe_lab::model::params::Params;
use pe_lab::model::query::params_keys::{params_pairs, PARAM_ROWS};
use pe_lab::model::query::settings_keys::SETTINGS_KEYS;
use pe_lab::model::query::train_keys::{option_key, TRAIN_KEYS, TRAIN_ROWS};
use pe_lab::model::query::view_keys::{read_view_key, view_pairs, VIEW_KEYS, VIEW_ROWS};
use pe_lab::model::query::{all_keys, state_from_link, write_search};
use pe_lab::model::settings::row::{Setting, Value};
use pe_lab::model::train::TrainSettings;
use pe_lab::model::view::{Theme, ViewSettings};

/// A table's own link reader: the settings a link's pairs give, and its notices.
type ReadLink<S> = fn(&[(&str, &str)]) -> (S, Vec<String>);

/// One table and its own link reader (which clamps) and writer.
struct Table<S: 'static> {
    rows: &'static [Setting<S>],
    start: fn() -> S,
    read_link: ReadLink<S>,
    write_link: fn(&S) -> Vec<(&'static str, String)>,
    /// Whether two settings show the same (the parameters compare the values in use).
    same: fn(&S, &S) -> bool,
}

fn params_table() -> Table<Params> {
    Table {
        rows: &PARAM_ROWS,
        start: Params::default,
        read_link: |pairs| Params::from_pairs(pairs.iter().copied()),
        write_link: params_pairs,
        same: |a, b| a.same_in_use(b),
    }
}

fn train_table() -> Table<TrainSettings> {
    Table {
        rows: &TRAIN_ROWS,
        start: TrainSettings::default,
        read_link: |pairs| {
            let mut settings = TrainSettings::default();
            let notices = settings.apply_all(pairs.iter().copied());
            (settings, notices)
        },
        write_link: TrainSettings::to_query,
        same: |a, b| a == b,
    }
}

fn view_table() -> Table<ViewSettings> {
    Table {
        rows: &VIEW_ROWS,
        start: ViewSettings::default,
        read_link: |pairs| {
            let mut view = ViewSettings::default();
            let mut notices = Vec::new();
            for (key, value) in pairs {
                read_view_key(&mut view, key, value, &mut notices);
            }
            (view, notices)
        },
        write_link: view_pairs,
        same: |a, b| a == b,
    }
}

/// Reads `value` with the row alone (before any clamping that ties settings together).
fn read_row<S>(table: &Table<S>, row: &Setting<S>, value: &str) -> (S, Vec<String>) {
    let mut settings = (table.start)();
    let mut notices = Vec::new();
    row.read(&mut settings, value, &mut notices);
    (settings, notices)
}

/// One notice, naming the row's key first.
fn one_notice<S>(row: &Setting<S>, value: &str, notices: &[String]) {
    assert!(
        notices.len() == 1 && notices[0].starts_with(&format!("{} = ", row.key)),
        "{}={value}: {notices:?}",
        row.key
    );
}

/// What a link writes for `settings` reads back to the same, without a notice.
fn round_trips<S: Debug>(table: &Table<S>, settings: &S, what: &str) {
    let written = (table.write_link)(settings);
    let pairs: Vec<(&str, &str)> = written.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let (back, notices) = (table.read_link)(&pairs);
    assert!(notices.is_empty(), "{what}: {written:?} gave {notices:?}");
    assert!(
        (table.same)(&back, settings),
        "{what}: {written:?} read back as {back:?}, not {settings:?}"
    );
}

fn check_table<S: Debug + PartialEq + Clone>(table: Table<S>) {
    let start = (table.start)();
    round_trips(&table, &start, "the defaults");
    for row in table.rows {
        let mut values: Vec<String> = Vec::new();
        match row.value {
            Value::Integer { min, max, .. } => {
                let (min, max) = (min.of(&start), max.of(&start));
                for end in [min, max] {
                    let (_, notices) = read_row(&table, row, &end.to_string());
                    assert!(notices.is_empty(), "{}={end}: {notices:?}", row.key);
                    values.push(end.to_string());
                }
                for beyond in [min - 1, max + 1] {
                    let (_, notices) = read_row(&table, row, &beyond.to_string());
                    one_notice(row, &beyond.to_string(), &notices);
                }
            }
            Value::Decimal { range, .. } => {
                let (min, max) = (range.min, range.max);
                values.extend([min.to_string(), max.to_string()]);
                let (_, notices) = read_row(&table, row, &(max * 2.0).to_string());
                one_notice(row, "beyond", &notices);
            }
            Value::Number { get, .. } => values.push((get(&start) * 0.5).to_string()),
            Value::Switch { .. } => values.extend(["1".into(), "0".into()]),
            Value::Name { names, .. } => values.extend(names.iter().map(|n| n.to_string())),
            Value::Own { .. } => values.extend(row.text(&start)),
        }
        // A malformed value keeps the setting, with one notice.
        if !matches!(row.value, Value::Own { .. }) {
            let (kept, notices) = read_row(&table, row, "xyz");
            one_notice(row, "xyz", &notices);
            assert_eq!(kept, start, "{}=xyz changed the setting", row.key);
        }
        for value in &values {
            let (read, notices) = (table.read_link)(&[(row.key, value.as_str())]);
            round_trips(&table, &read, &format!("{}={value} ({notices:?})", row.key));
            for &long in row.long_names {
                let by_long_name = (table.read_link)(&[(long, value.as_str())]);
                assert_eq!(by_long_name, (read.clone(), notices.clone()));
            }
        }
    }
}

#[test]
fn every_parameter_row_reads_clamps_and_writes_by_the_one_rule() {
    check_table(params_table());
}

#[test]
fn every_training_row_reads_clamps_and_writes_by_the_one_rule() {
    check_table(train_table());
}

#[test]
fn every_view_row_reads_clamps_and_writes_by_the_one_rule() {
    check_table(view_table());
}

#[test]
fn a_training_link_leaves_out_the_tasks_run_and_reads_back_far_from_it() {
    let (read, notices) = (train_table().read_link)(&[
        ("trainer", "cpu"),
        ("tcausal", "1"),
        ("tlr", "0.003"),
        ("tseeds", "5"),
        ("task", "reverse"),
        ("tk", "3"),
    ]);
    assert!(notices.is_empty(), "{notices:?}");
    // `task` is read first (it resets the rest), and `tk` is left out off the shift task.
    let written: Vec<&str> = read.to_query().iter().map(|(k, _)| *k).collect();
    assert_eq!(written, ["task", "tlr", "tseeds", "tcausal", "trainer"]);
    round_trips(&train_table(), &read, "reverse, causal, on the CPU");
    assert_eq!(TrainSettings::default().to_query(), []);
}

#[test]
fn the_view_keys_follow_the_head_scripts_rules_and_say_what_they_keep() {
    let read = view_table().read_link;
    assert_eq!(read(&[("theme", " dark ")]).0.theme, Theme::Dark);
    assert_eq!(
        read(&[("theme", "dark"), ("theme", "")]).0.theme,
        Theme::Auto
    );
    let (view, notices) = read(&[("theme", "dark"), ("theme", "bogus")]);
    assert_eq!(view.theme, Theme::Dark);
    assert_eq!(
        notices,
        ["theme = 'bogus' is not auto, light or dark; keeping dark."]
    );
    assert!(read(&[("present", "yes")]).0.present);
    assert!(!read(&[("present", "1"), ("present", "0")]).0.present);
    let written = write_search("?theme=dark&present=1", &state_from_link("theme=dark").0);
    assert!(written.ends_with("theme=dark"), "{written}");
}

/// `peLab.train(options)` takes a row's key or its long names; `d` and `heads` there are the
/// training model's, while in a link they stay the page's own keys.
#[test]
fn the_training_options_are_the_rows_long_names() {
    for (name, key) in [
        ("learningRate", "tlr"),
        ("lr", "tlr"),
        ("shiftK", "tk"),
        ("k", "tk"),
        ("d", "td"),
        ("heads", "theads"),
        ("encodings", "tenc"),
        ("tseed", "tseed"),
        ("trainer", "trainer"),
        ("nothing", "nothing"),
    ] {
        assert_eq!(option_key(name), key, "{name}");
    }
    let (state, notices) = state_from_link("d=48&heads=6&td=16");
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!((state.params.d, state.settings.heads()), (48, 6));
    assert_eq!(state.train.config.d, 16);
}

/// A key belongs to one table: no two rows of the link's tables share a key or a long name.
#[test]
fn every_link_key_is_one_row() {
    let mut names: Vec<&str> = PARAM_ROWS
        .iter()
        .flat_map(|row| std::iter::once(row.key).chain(row.long_names.iter().copied()))
        .chain(SETTINGS_KEYS)
        .chain(TRAIN_KEYS)
        .chain(VIEW_KEYS)
        .collect();
    let count = names.len();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), count, "a key or long name used twice");
    for key in PARAM_ROWS.iter().map(|row| row.key).chain(VIEW_KEYS) {
        assert!(all_keys().contains(&key), "{key}");
    }
}
