use super::*;

/// Every construct the runtime knows; tests/locales.rs formats it with fluent-bundle too.
const SAMPLE: &str = include_str!("../../../tests/data/messages-sample.ftl");

fn sample(language: &str) -> Catalog {
    Catalog::parse(SAMPLE, language).unwrap()
}

#[test]
fn variables_literals_and_terms() {
    let c = sample("en");
    let chance = [("chance", Arg::Text(&"6.3%"))];
    assert_eq!(c.format("plain", &chance).unwrap(), "Chance is 6.3%.");
    assert_eq!(
        c.format("braces", &[]).unwrap(),
        "{x} and a \"quoted\" word"
    );
    assert_eq!(c.format("term", &[]).unwrap(), "the model learns.");
    assert_eq!(c.format("plain", &[]).unwrap(), "Chance is {$chance}.");
    assert!(c.format("-model", &[]).is_some());
    assert_eq!(c.ids().filter(|id| id.starts_with('-')).count(), 0);
    assert!(c.format("missing", &[]).is_none());
}

#[test]
fn selects_by_number_plural_category_and_name() {
    let en = sample("en");
    let solves = |c: &Catalog, n: i64| {
        c.format(
            "solves",
            &[("names", Arg::Text(&"rope")), ("count", Arg::Count(n))],
        )
        .unwrap()
    };
    assert_eq!(solves(&en, 1), "rope solves the task on the one seed.");
    assert_eq!(solves(&en, 3), "rope solve the task on all 3 seeds.");
    assert_eq!(solves(&en, 0), "rope solve the task on no seed.");
    // Chinese has no "one": 1 takes the default.
    assert_eq!(
        solves(&sample("zh"), 1),
        "rope solve the task on all 1 seeds."
    );
    let task = |t: &'static str| en.format("named", &[("task", Arg::Text(&t))]).unwrap();
    assert_eq!(task("histogram"), "counts");
    assert_eq!(task("shift"), "positions");
}

#[test]
fn syntax_errors_name_their_line() {
    let error = |source: &str| Catalog::parse(source, "en").unwrap_err();
    assert_eq!(error("ok = fine\nbad line\n").line, 2);
    assert_eq!(error("a = { $x\n").line, 1);
    assert_eq!(
        error("a = x\nb = { $n ->\n   [one] y\n }\n").what,
        "a select without a `*` default"
    );
    assert_eq!(error("a = x\na = y\n").what, "an id defined twice");
    assert_eq!(error("a =\n").what, "an entry without a value");
    assert!(Catalog::parse("a = text\n  continued\n", "en").is_err());
}

#[test]
fn every_catalog_of_every_language_parses() {
    let catalogs = [
        ("computed/en", Computed::ENGLISH, "en"),
        ("training/en", Training::ENGLISH, "en"),
        (
            "computed/zh",
            include_str!("../../../locales/computed/zh.ftl"),
            "zh",
        ),
        (
            "training/zh",
            include_str!("../../../locales/training/zh.ftl"),
            "zh",
        ),
    ];
    for (name, source, language) in catalogs {
        if let Err(e) = Catalog::parse(source, language) {
            panic!("{name}.ftl: {e}");
        }
    }
}

#[test]
fn an_installed_catalog_is_used_and_english_fills_its_gaps() {
    let english = message!("messages-selftest", count = 2usize);
    install_source::<Computed>("zh", "messages-selftest = 中文 { $count }\n").unwrap();
    assert_eq!(message!("messages-selftest", count = 2usize), "中文 2");
    install_source::<Computed>("zh", "other = x\n").unwrap();
    assert_eq!(message!("messages-selftest", count = 2usize), english);
    assert!(install::<Computed>("zh", "a line without an equals sign\n").is_err());
    use_english::<Computed>();
    assert_eq!(message!("messages-selftest", count = 2usize), english);
    // A panel's title is a variant chosen by its name; a name no variant has is itself.
    assert_eq!(
        message!("panel-title", panel = "heatmap"),
        "The positional encoding matrix P"
    );
    assert_eq!(message!("panel-title", panel = "nothing"), "nothing");
}

#[test]
fn short_ids_are_found_by_name_and_number_the_messages_in_order() {
    for ids in [Computed::IDS, Training::IDS] {
        assert!(ids.windows(2).all(|w| w[0].0 < w[1].0), "sorted by name");
        for &(name, short) in ids {
            assert_eq!(short_id(ids, name), short);
        }
    }
    // The first message of locales/computed/en.ftl is m0, the 37th m10 (base 36).
    let names: Vec<&str> = include_str!("../../../locales/computed/en.ftl")
        .lines()
        .filter_map(|line| line.split_once(" =").map(|(name, _)| name))
        .filter(|name| name.starts_with(|c: char| c.is_ascii_alphabetic()))
        .collect();
    assert_eq!(short_id(Computed::IDS, names[0]), "m0");
    assert_eq!(short_id(Computed::IDS, names[36]), "m10");
    assert_eq!(names.len(), Computed::IDS.len());
}

#[test]
fn the_compiled_in_english_catalogs_are_their_sources_without_comments() {
    fn check<R: Resource>(source: &str) {
        let compiled = R::ENGLISH;
        assert!(compiled.len() < source.len());
        assert!(!compiled.lines().any(|line| line.starts_with('#')));
        let compact = Catalog::parse(compiled, "en").unwrap();
        // The source with its arguments under their short names, as the call sites pass them.
        let shortened: String = source
            .lines()
            .map(|line| shorten_arguments::<R>(line) + "\n")
            .collect();
        let full = Catalog::parse(&shortened, "en").unwrap();
        assert_eq!(compact.ids().count(), full.ids().count());
        for &(name, short) in R::IDS {
            assert!(full.pattern(name).is_some(), "{name}");
            assert_eq!(compact.pattern(short), full.pattern(name), "{name}");
        }
        // Every argument of the source has a short name (the patterns above hold it in place of
        // its name).
        for &(name, short) in R::ARGS {
            assert!(source.contains(&format!("{{ ${name}")), "{name}");
            assert!(
                short.starts_with('a') && short.len() <= 3,
                "{name} -> {short}"
            );
        }
    }
    check::<Computed>(include_str!("../../../locales/computed/en.ftl"));
    check::<Training>(include_str!("../../../locales/training/en.ftl"));
}
