//! The English catalogs of the computed sentences as the wasm carries them
//! (`src/model/messages`): without their comments and blank lines, and with each continuation
//! line's indent cut to the one space that marks it. The page's first load carries every byte of
//! them; the comments are for translators. `model::messages`' tests check that each catalog
//! parses to the same messages as its source.

use std::path::Path;

fn main() {
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    for set in ["computed", "training"] {
        let source = Path::new("locales").join(set).join("en.ftl");
        println!("cargo:rerun-if-changed={}", source.display());
        let text = std::fs::read_to_string(&source)
            .unwrap_or_else(|e| panic!("{}: {e}", source.display()));
        let compact: String = text
            .lines()
            .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
            .map(|line| match line.strip_prefix(' ') {
                Some(rest) => format!(" {}\n", rest.trim_start_matches(' ')),
                None => format!("{line}\n"),
            })
            .collect();
        let target = Path::new(&out).join(format!("{set}-en.ftl"));
        std::fs::write(&target, compact).unwrap_or_else(|e| panic!("{}: {e}", target.display()));
    }
}
