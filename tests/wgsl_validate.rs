//! Every WGSL file under `src/` (found by walking the tree, so new shaders are covered without
//! editing this test) must parse with naga's WGSL front end and pass its validator with all
//! validation flags — the checks wgpu would run when creating the shader module, without a GPU.
#![cfg(not(target_arch = "wasm32"))]

use std::path::{Path, PathBuf};

fn wgsl_files(dir: &Path, found: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("read {}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            wgsl_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "wgsl") {
            found.push(path);
        }
    }
}

#[test]
fn every_wgsl_file_parses_and_validates() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    wgsl_files(&src, &mut files);
    files.sort();
    // The seven compute kernels at least (encoding, gram, attention, stats, columns, rope_scores,
    // alibi_scores).
    assert!(
        files.len() >= 7,
        "expected the kernels' WGSL files, found {files:?}"
    );
    let mut failures = Vec::new();
    for file in &files {
        let source = std::fs::read_to_string(file).expect("read WGSL");
        let module = match naga::front::wgsl::parse_str(&source) {
            Ok(module) => module,
            Err(e) => {
                failures.push(format!(
                    "{}: parse error:\n{}",
                    file.display(),
                    e.emit_to_string(&source)
                ));
                continue;
            }
        };
        let mut validator = naga::valid::Validator::new(
            naga::valid::ValidationFlags::all(),
            naga::valid::Capabilities::default(),
        );
        if let Err(e) = validator.validate(&module) {
            failures.push(format!(
                "{}: validation error:\n{}",
                file.display(),
                e.emit_to_string(&source)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
