//! The reference tables of the documentation held to the code, in both directions, so that they
//! cannot go stale: the URL keys of `docs/links-and-keys.md` are the keys `model::query` parses;
//! the `window.peLab` members of `docs/js-api.md` are those `src/web/api.rs` installs, its `stats`
//! fields those of `web::stats::Stats`, its `stats.panels` the panels whose web file has numbers of
//! their own; the README names every panel; `docs/TOOLCHAIN.md`'s wasm-opt levels are the page's.
//!
//! The browser layer is wasm32 only, so its sources are read as text here rather than linked.

use std::collections::BTreeSet;
use std::path::Path;

use pe_lab::model::panels::PANELS;
use pe_lab::model::query::train_keys::TRAIN_KEYS;
use pe_lab::model::query::{all_keys, is_state_key, LOAD_KEYS};

const README: &str = include_str!("../README.md");
const LINKS: &str = include_str!("../docs/links-and-keys.md");
const JS_API: &str = include_str!("../docs/js-api.md");
const TOOLCHAIN: &str = include_str!("../docs/TOOLCHAIN.md");
const API_SOURCE: &str = include_str!("../src/web/api.rs");
const STATS_SOURCE: &str = include_str!("../src/web/stats.rs");
const PAGE: &str = include_str!("../index.html");

/// The `code` spans of `text`, in order.
fn code_spans(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

/// The code spans in the first column of every Markdown table of `doc` whose header's first cell
/// is `header` (a row may name several: `| \`pe\`, \`sqrtd\` | … |`).
fn first_column(doc: &str, header: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut in_table = false;
    for line in doc.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if !line.starts_with('|') || cells.len() < 3 {
            in_table = false;
            continue;
        }
        if cells[1] == header {
            in_table = true;
            continue;
        }
        if in_table && !cells[1].starts_with("---") {
            names.extend(code_spans(cells[1]).into_iter().map(str::to_string));
        }
    }
    names
}

/// The set of `names`, failing on a name listed twice.
fn set_of(names: Vec<String>, what: &str) -> BTreeSet<String> {
    let mut set = BTreeSet::new();
    for name in names {
        assert!(set.insert(name.clone()), "{what}: `{name}` is listed twice");
    }
    set
}

/// Every string literal that follows `call` in `source` (`define_getter(&object, "state"`).
fn names_after(source: &str, call: &str) -> Vec<String> {
    source
        .split(call)
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .map(str::to_string)
        .collect()
}

fn snake_to_camel(name: &str) -> String {
    let mut out = String::new();
    let mut upper = false;
    for c in name.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

fn assert_same(documented: &BTreeSet<String>, in_code: &BTreeSet<String>, what: &str) {
    let missing: Vec<_> = in_code.difference(documented).collect();
    let stale: Vec<_> = documented.difference(in_code).collect();
    assert!(
        missing.is_empty() && stale.is_empty(),
        "{what}: in the code but not documented: {missing:?}; documented but not in the code: {stale:?}"
    );
}

#[test]
fn the_documented_url_keys_are_the_keys_the_page_parses() {
    let documented = set_of(first_column(LINKS, "key"), "docs/links-and-keys.md");
    let parsed: BTreeSet<String> = all_keys()
        .into_iter()
        .chain(TRAIN_KEYS)
        .map(str::to_string)
        .collect();
    assert_same(&documented, &parsed, "docs/links-and-keys.md's URL keys");
    for key in &documented {
        assert!(
            is_state_key(key) || LOAD_KEYS.contains(&key.as_str()),
            "`{key}` is documented but a link's `{key}=` is not read"
        );
    }
}

#[test]
fn the_documented_pe_lab_members_are_those_installed() {
    let documented = set_of(first_column(JS_API, "member"), "docs/js-api.md");
    // The object is passed as `&object` where it is made and as `object` in the functions that
    // install a group of members.
    let installed: BTreeSet<String> = ["&object", "object"]
        .into_iter()
        .flat_map(|receiver| {
            names_after(API_SOURCE, &format!("define_getter({receiver}, \""))
                .into_iter()
                .chain(names_after(
                    API_SOURCE,
                    &format!("define_method({receiver}, \""),
                ))
        })
        .chain(names_after(API_SOURCE, "Reflect::set(&object, &\""))
        // What the head script of index.html sets before the wasm loads (`lang`, `ready`); its
        // underscored members are its own.
        .chain(PAGE.split("api.").skip(1).filter_map(|rest| {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let assigned = rest[name.len()..].trim_start().starts_with('=');
            (assigned && !name.starts_with('_') && !name.is_empty()).then_some(name)
        }))
        .collect();
    assert!(installed.contains("ready") && installed.contains("set"));
    assert_same(
        &documented,
        &installed,
        "docs/js-api.md's members of window.peLab",
    );
}

#[test]
fn the_documented_stats_fields_are_those_of_the_stats_struct() {
    let documented = set_of(first_column(JS_API, "field"), "docs/js-api.md's stats");
    let body = STATS_SOURCE
        .split("pub struct Stats {")
        .nth(1)
        .and_then(|rest| rest.split("\n}").next())
        .expect("src/web/stats.rs declares `pub struct Stats { … }`");
    let fields: BTreeSet<String> = body
        .lines()
        .filter_map(|line| line.trim().strip_prefix("pub "))
        .filter_map(|field| field.split(':').next())
        .map(snake_to_camel)
        // The panels' own numbers are added beside the struct's fields (web::app::stats_value).
        .chain(["panels".to_string()])
        .collect();
    assert!(fields.contains("maxProjectionError"));
    assert_same(&documented, &fields, "docs/js-api.md's fields of stats");
}

#[test]
fn the_documented_stats_panels_are_the_panels_with_numbers_of_their_own() {
    let documented = set_of(
        first_column(JS_API, "panel"),
        "docs/js-api.md's stats.panels",
    );
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let with_stats: BTreeSet<String> = PANELS
        .iter()
        .filter(|spec| {
            // The panel's folder (`src/panels/<name>/`), and its files in `src/web/panels/` where
            // its view is still there (`train_loader.rs` holds the training panel as the page
            // sees it).
            let legacy = root.join("src/web/panels");
            let own = |name: &str| {
                name == format!("{}.rs", spec.name) || name.starts_with(&format!("{}_", spec.name))
            };
            let folder = root.join("src/panels").join(spec.name);
            let files = |dir: &Path| -> Vec<std::path::PathBuf> {
                std::fs::read_dir(dir)
                    .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
                    .filter_map(Result::ok)
                    .map(|entry| entry.path())
                    .collect()
            };
            files(&legacy)
                .into_iter()
                .filter(|path| own(&path.file_name().unwrap_or_default().to_string_lossy()))
                .chain(files(&folder))
                .filter(|path| path.extension().is_some_and(|e| e == "rs"))
                .any(|path| {
                    let source = std::fs::read_to_string(&path)
                        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                    // A panel of its own with numbers (its `stats`, written by hand or by
                    // `stats_in!`), or a view panel (`panels/view.rs`), which always keeps the
                    // numbers its view returns.
                    source.contains("fn stats(&self) -> Option<JsValue>")
                        || source.contains("stats_in!(")
                        || source.contains("pub static VIEW: View<")
                })
        })
        .map(|spec| spec.name.to_string())
        .collect();
    assert!(with_stats.contains("attention") && !with_stats.contains("heatmap"));
    assert_same(&documented, &with_stats, "docs/js-api.md's stats.panels");
}

#[test]
fn the_readme_names_every_panel() {
    for spec in PANELS {
        assert!(
            README.contains(&format!("- `{}`:", spec.name)),
            "the README's list of what each part teaches has no line `- `{}`: …`",
            spec.name
        );
    }
}

#[test]
fn the_toolchain_notes_give_the_page_s_wasm_opt_levels() {
    let documented: BTreeSet<&str> = TOOLCHAIN
        .split("data-wasm-opt=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .collect();
    let used: BTreeSet<&str> = PAGE
        .split("data-wasm-opt=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .collect();
    assert!(!used.is_empty());
    assert_eq!(
        documented, used,
        "docs/TOOLCHAIN.md's data-wasm-opt against index.html's"
    );
}
