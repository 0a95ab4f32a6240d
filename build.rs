//! The English catalogs of the computed sentences as the wasm carries them
//! (`src/model/messages`), compact: without their comments and blank lines, each continuation
//! line's indent cut to the one space that marks it, and each message's id replaced by a short
//! one (`m` and its place among the catalog's messages in base 36). The page's first load carries
//! every byte of them, and of the ids at the call sites: `message!("takeaway-heatmap")` finds
//! the short id at compile time in the table written here (an unknown id does not compile).
//! Each argument name (`{ $relative_first }`) is shortened the same way (`a` and its place among
//! the catalog's argument names): the names are in the catalog and at every call site, and 1.5 KB
//! of the first load were theirs. scripts/l10n/build-pages.mjs gives a translated page's catalogs
//! the same short ids and argument names by the same rules. `model::messages`' tests check that each compact catalog holds its source's messages.

use std::fmt::Write as _;
use std::path::Path;

// The scanner of argument names the crate uses too (`model::messages::install_source`).
#[path = "src/model/messages/arguments.rs"]
mod arguments;

/// The short id of the message at `index` (the same rule as build-pages.mjs' `shortId`).
fn short_id(index: usize) -> String {
    const DIGITS: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let (mut n, mut digits) = (index, Vec::new());
    loop {
        digits.push(DIGITS[n % 36]);
        n /= 36;
        if n == 0 {
            break;
        }
    }
    digits.reverse();
    format!("m{}", String::from_utf8_lossy(&digits))
}

/// The short name of the argument at `index` (`a` and its place among the catalog's argument
/// names in order of first appearance, in base 36; the same rule as computed.mjs' `argumentIds`).
fn short_argument(index: usize) -> String {
    let mut name = short_id(index);
    name.replace_range(0..1, "a");
    name
}

/// The argument names of a catalog's messages (every `{ $name`), in order of first appearance.
fn catalog_argument_names(text: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for line in text.lines().filter(|line| !line.starts_with('#')) {
        for name in arguments::argument_names(line) {
            if !names.iter().any(|known| known == name) {
                names.push(name.to_string());
            }
        }
    }
    names
}

/// A message's id if `line` starts one (terms, `-name`, keep their names).
fn message_id(line: &str) -> Option<&str> {
    let (id, _) = line.split_once(" =")?;
    let mut chars = id.chars();
    (chars.next()?.is_ascii_alphabetic()
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'))
    .then_some(id)
}

fn main() {
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    for set in ["computed", "training"] {
        let source = Path::new("locales").join(set).join("en.ftl");
        println!("cargo:rerun-if-changed={}", source.display());
        let text = std::fs::read_to_string(&source)
            .unwrap_or_else(|e| panic!("{}: {e}", source.display()));
        let mut compact = String::new();
        let mut ids: Vec<(String, String)> = Vec::new();
        let mut arguments: Vec<(String, String)> = catalog_argument_names(&text)
            .into_iter()
            .enumerate()
            .map(|(index, name)| (name, short_argument(index)))
            .collect();
        for line in text.lines() {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let line = arguments::rename_arguments(line, |name, out| {
                let short = arguments.iter().find(|(long, _)| long == name);
                out.push_str(short.map_or(name, |(_, short)| short));
            });
            let line = line.as_str();
            if let Some(rest) = line.strip_prefix(' ') {
                let _ = writeln!(compact, " {}", rest.trim_start_matches(' '));
            } else if let Some(id) = message_id(line) {
                let short = short_id(ids.len());
                let _ = writeln!(compact, "{short}{}", &line[id.len()..]);
                ids.push((id.to_string(), short));
            } else {
                let _ = writeln!(compact, "{line}");
            }
        }
        ids.sort();
        arguments.sort();
        let entry = |(id, short): &(String, String)| format!("    ({id:?}, {short:?}),\n");
        let table: String = ids.iter().map(entry).collect();
        let argument_table: String = arguments.iter().map(entry).collect();
        let rust = format!(
            "/// Every message id of locales/{set}/en.ftl with its short id, sorted by id.\n\
             pub const IDS: &[(&str, &str)] = &[\n{table}];\n\
             /// Every argument name of locales/{set}/en.ftl with its short name, sorted by name.\n\
             pub const ARGS: &[(&str, &str)] = &[\n{argument_table}];\n"
        );
        for (name, contents) in [
            (format!("{set}-en.ftl"), compact),
            (format!("{set}-ids.rs"), rust),
        ] {
            let target = Path::new(&out).join(name);
            std::fs::write(&target, contents)
                .unwrap_or_else(|e| panic!("{}: {e}", target.display()));
        }
    }
}
