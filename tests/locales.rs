//! The page's message catalogs, `locales/<code>.ftl` (English generated from index.html by
//! scripts/l10n/extract.mjs; every other language a translation of it), read by Project Fluent's
//! own parser: every language holds every English message and no other, each with the same
//! attributes, the same arguments (`{ $name }`) and the same elements it takes from the page
//! (`data-l10n-name`), and no catalog has a syntax error. The build checks the same before it
//! writes a language's page (scripts/l10n/build-pages.mjs); this test says it without a build.
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
    let english = catalog(&locales.join("en.ftl"));
    assert!(english.len() > 300, "{} English messages", english.len());
    for code in pe_lab::model::query::LANGUAGES.iter().skip(1) {
        let translated = catalog(&locales.join(format!("{code}.ftl")));
        let missing: Vec<&String> = english
            .keys()
            .filter(|id| !translated.contains_key(*id))
            .collect();
        let extra: Vec<&String> = translated
            .keys()
            .filter(|id| !english.contains_key(*id))
            .collect();
        assert!(missing.is_empty(), "{code}.ftl lacks {missing:?}");
        assert!(
            extra.is_empty(),
            "{code}.ftl has messages English does not: {extra:?}"
        );
        for (id, shape) in &english {
            assert_eq!(&translated[id], shape, "{code}.ftl: {id}");
        }
    }
}
