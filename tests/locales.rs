//! The page's message catalogs, read by Project Fluent's own parser:
//! - `locales/<code>.ftl`, the static page's (English generated from index.html by
//!   scripts/l10n/extract.mjs; every other language a translation of it);
//! - `locales/computed/<code>.ftl` and `locales/training/<code>.ftl`, the sentences the wasm
//!   computes (src/model/messages).
//!
//! Every language holds every English message and no other, each with the same attributes, the
//! same arguments (`{ $name }`) and the same elements it takes from the page (`data-l10n-name`),
//! and no catalog has a syntax error. The build checks the same of the static page before it
//! writes a language's page (scripts/l10n/build-pages.mjs); this test says it without a build.
//! The computed catalogs are also formatted by Fluent's own formatter (`fluent-bundle`) and by the
//! page's runtime, message by message, with every select's variants reached: the same text.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use fluent_syntax::ast::{Entry, Expression, InlineExpression, Pattern, PatternElement};
use fluent_syntax::parser;

/// What a translation must keep of a message.
#[derive(Debug, PartialEq)]
struct Shape {
    has_value: bool,
    attributes: BTreeSet<String>,
    arguments: BTreeSet<String>,
    named_elements: BTreeSet<String>,
}

fn collect(
    pattern: &Pattern<&str>,
    arguments: &mut BTreeSet<String>,
    named: &mut BTreeSet<String>,
) {
    for element in &pattern.elements {
        match element {
            PatternElement::TextElement { value } => {
                for rest in value.split("data-l10n-name=\"").skip(1) {
                    if let Some(name) = rest.split('"').next() {
                        named.insert(name.to_string());
                    }
                }
            }
            PatternElement::Placeable { expression } => {
                expression_arguments(expression, arguments, named)
            }
        }
    }
}

fn expression_arguments(
    expression: &Expression<&str>,
    arguments: &mut BTreeSet<String>,
    named: &mut BTreeSet<String>,
) {
    let inline = match expression {
        Expression::Select { selector, variants } => {
            for variant in variants {
                collect(&variant.value, arguments, named);
            }
            selector
        }
        Expression::Inline(inline) => inline,
    };
    match inline {
        InlineExpression::VariableReference { id } => {
            arguments.insert(id.name.to_string());
        }
        InlineExpression::Placeable { expression } => {
            expression_arguments(expression, arguments, named)
        }
        _ => {}
    }
}

/// The catalogs of one set: the static page's (`locales/`) or the computed sentences'.
const SETS: [&str; 3] = ["", "computed", "training"];

fn catalog(path: &Path) -> BTreeMap<String, Shape> {
    let source =
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let resource = parser::parse(source.as_str())
        .unwrap_or_else(|(_, errors)| panic!("{}: {errors:?}", path.display()));
    let mut messages = BTreeMap::new();
    for entry in &resource.body {
        let Entry::Message(message) = entry else {
            continue;
        };
        let mut arguments = BTreeSet::new();
        let mut named_elements = BTreeSet::new();
        if let Some(value) = &message.value {
            collect(value, &mut arguments, &mut named_elements);
        }
        let mut attributes = BTreeSet::new();
        for attribute in &message.attributes {
            attributes.insert(attribute.id.name.to_string());
            collect(&attribute.value, &mut arguments, &mut named_elements);
        }
        let shape = Shape {
            has_value: message.value.is_some(),
            attributes,
            arguments,
            named_elements,
        };
        let id = message.id.name.to_string();
        assert!(
            messages.insert(id.clone(), shape).is_none(),
            "{}: {id} twice",
            path.display()
        );
    }
    messages
}

#[test]
fn every_language_has_every_message_with_the_same_arguments_and_elements() {
    let locales = Path::new(env!("CARGO_MANIFEST_DIR")).join("locales");
    for set in SETS {
        let folder = locales.join(set);
        let english = catalog(&folder.join("en.ftl"));
        if set.is_empty() {
            assert!(english.len() > 300, "{} English messages", english.len());
        }
        for code in pe_lab::model::query::LANGUAGES.iter().skip(1) {
            let name = Path::new(set).join(format!("{code}.ftl"));
            let name = name.display();
            let translated = catalog(&folder.join(format!("{code}.ftl")));
            let missing: Vec<&String> = english
                .keys()
                .filter(|id| !translated.contains_key(*id))
                .collect();
            let extra: Vec<&String> = translated
                .keys()
                .filter(|id| !english.contains_key(*id))
                .collect();
            assert!(missing.is_empty(), "{name} lacks {missing:?}");
            assert!(
                extra.is_empty(),
                "{name} has messages English does not: {extra:?}"
            );
            for (id, shape) in &english {
                assert_eq!(&translated[id], shape, "{name}: {id}");
            }
        }
    }
}

/// The values each variable of a message is given: a select's variables every count that picks
/// a different variant (0, 1, 2 and 5 reach [0], [one], [other]) and every name key; any
/// other variable a text.
fn candidates(pattern: &Pattern<&str>, out: &mut BTreeMap<String, Vec<Candidate>>) {
    for element in &pattern.elements {
        let PatternElement::Placeable { expression } = element else {
            continue;
        };
        match expression {
            Expression::Select { selector, variants } => {
                if let InlineExpression::VariableReference { id } = selector {
                    let values = out.entry(id.name.to_string()).or_default();
                    values.retain(|v| !matches!(v, Candidate::Text(_)));
                    for n in [0, 1, 2, 5] {
                        if !values.contains(&Candidate::Count(n)) {
                            values.push(Candidate::Count(n));
                        }
                    }
                    for variant in variants {
                        if let fluent_syntax::ast::VariantKey::Identifier { name } = variant.key {
                            let value = Candidate::Name(name.to_string());
                            if !values.contains(&value) {
                                values.push(value);
                            }
                        }
                    }
                }
                for variant in variants {
                    candidates(&variant.value, out);
                }
            }
            Expression::Inline(InlineExpression::VariableReference { id }) => {
                out.entry(id.name.to_string())
                    .or_insert_with(|| vec![Candidate::Text(format!("‹{}›", id.name))]);
            }
            Expression::Inline(_) => {}
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Candidate {
    Text(String),
    Name(String),
    Count(i64),
}

#[test]
fn the_pages_runtime_formats_every_computed_message_as_fluent_does() {
    use fluent_bundle::{FluentArgs, FluentBundle, FluentResource, FluentValue};
    use pe_lab::model::messages::{Arg, Catalog};

    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let locales = root.join("locales");
    let sample = root.join("tests/data/messages-sample.ftl");
    let mut catalogs = vec![(sample.clone(), "en"), (sample, "zh")];
    for set in &SETS[1..] {
        for code in pe_lab::model::query::LANGUAGES {
            catalogs.push((locales.join(set).join(format!("{code}.ftl")), code));
        }
    }
    let mut compared = 0;
    for (path, code) in catalogs {
        {
            let source = std::fs::read_to_string(&path).unwrap();
            let ours =
                Catalog::parse(&source, code).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let resource = FluentResource::try_new(source.clone())
                .unwrap_or_else(|(_, e)| panic!("{}: {e:?}", path.display()));
            let language: unic_langid::LanguageIdentifier = code.parse().unwrap();
            let mut bundle = FluentBundle::new(vec![language]);
            bundle.set_use_isolating(false);
            bundle.add_resource(resource).unwrap();
            let ast = parser::parse(source.as_str()).unwrap();
            for entry in &ast.body {
                let Entry::Message(message) = entry else {
                    continue;
                };
                let id = message.id.name;
                let mut values = BTreeMap::new();
                if let Some(value) = &message.value {
                    candidates(value, &mut values);
                }
                let rounds = values.values().map(Vec::len).max().unwrap_or(1);
                for round in 0..rounds {
                    let mut fluent_args = FluentArgs::new();
                    let mut our_args = Vec::new();
                    for (name, options) in &values {
                        match &options[round % options.len()] {
                            Candidate::Text(text) | Candidate::Name(text) => {
                                fluent_args.set(name.as_str(), FluentValue::from(text.as_str()));
                                our_args.push((name.as_str(), Arg::Text(text)));
                            }
                            Candidate::Count(n) => {
                                fluent_args.set(name.as_str(), FluentValue::from(*n));
                                our_args.push((name.as_str(), Arg::Count(*n)));
                            }
                        }
                    }
                    let pattern = bundle.get_message(id).unwrap().value().unwrap();
                    let mut errors = Vec::new();
                    let expected = bundle.format_pattern(pattern, Some(&fluent_args), &mut errors);
                    assert!(errors.is_empty(), "{}: {id}: {errors:?}", path.display());
                    let got = ours.format(id, &our_args).unwrap();
                    assert_eq!(got, expected, "{}: {id} with {our_args:?}", path.display());
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 0);
    eprintln!("{compared} formatted messages compared with fluent-bundle");
}

/// The bar's count of sections before the wasm starts ("21 sections"): the page's assembly writes
/// the English from the list of panels (scripts/page/assemble.mjs); every translation must say the
/// same number, so that a new panel's row, which changes it, names the catalogs to change.
#[test]
fn every_language_states_the_lessons_length() {
    let count = pe_lab::model::panels::LESSON.len().to_string();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for code in pe_lab::model::query::LANGUAGES {
        let path = root.join(format!("locales/{code}.ftl"));
        let source =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let line = source
            .lines()
            .find(|line| line.starts_with("lesson-current = "))
            .unwrap_or_else(|| panic!("{}: no lesson-current", path.display()));
        let numbers: Vec<&str> = line
            .split(|c: char| !c.is_ascii_digit())
            .filter(|part| !part.is_empty())
            .collect();
        assert_eq!(
            numbers,
            [count.as_str()],
            "{}: {line} (the lesson has {count} sections)",
            path.display()
        );
    }
}
