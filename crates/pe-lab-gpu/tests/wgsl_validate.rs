//! Every WGSL shader the crate can create must parse with naga's WGSL front end and pass its
//! validator with all validation flags — the checks wgpu would run when creating the shader module,
//! without a GPU:
//! - every standalone WGSL file under `src/` (found by walking the tree, so new shaders are covered
//!   without editing this test);
//! - every composed tiled kernel (the tile core and a kernel's file, `pe_lab_gpu::tile`) for every
//!   tile shape the chooser can return and both load widths: this is what shows that the constants
//!   Rust writes from `TileShape` and the WGSL agree.
//!
//! Also the tile-shape chooser, a pure function, on its own.
#![cfg(not(target_arch = "wasm32"))]

use std::path::{Path, PathBuf};

use pe_lab_gpu::shaders::every_module;
use pe_lab_gpu::tile::{choose_tile, choose_tile_upper, TileShape, FULL_GRID_WORKGROUPS};

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

/// naga's parse and validation errors of `source`, if any.
fn validate(label: &str, source: &str) -> Option<String> {
    let module = match naga::front::wgsl::parse_str(source) {
        Ok(module) => module,
        Err(e) => {
            return Some(format!(
                "{label}: parse error:\n{}",
                e.emit_to_string(source)
            ))
        }
    };
    let mut validator = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::default(),
    );
    validator
        .validate(&module)
        .err()
        .map(|e| format!("{label}: validation error:\n{}", e.emit_to_string(source)))
}

/// `source` as `wgsl!` embeds it: line by line, the code before any `//` without its indentation,
/// or the whole line where the comment is a composition marker (`// @`).
fn stripped(source: &str) -> String {
    source
        .split('\n')
        .map(|line| {
            let code = line.trim_start();
            if code.starts_with("// @") {
                line
            } else {
                code.split("//").next().unwrap_or("").trim_end()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn every_wgsl_module_parses_and_validates() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    wgsl_files(&src, &mut files);
    files.sort();
    let name = |path: &Path| {
        path.file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("")
            .to_owned()
    };
    let mut names: Vec<String> = files.iter().map(|f| name(f)).collect();
    names.dedup();
    assert_eq!(names.len(), files.len(), "WGSL file names are unique");
    // The kernels, the tile core, the shared pieces, the heatmap and the GPU trainer's seven.
    assert!(
        files.len() >= 20,
        "expected the WGSL files, found {files:?}"
    );
    let modules = every_module();
    // Every kernel × tile shape × load width, the standalone kernels (with the `minilm` feature,
    // the pretrained encoder among them), the heatmap, the trainer.
    let standalone = if cfg!(feature = "minilm") { 6 } else { 5 };
    assert_eq!(modules.len(), 4 * TileShape::ALL.len() * 2 + standalone + 7);
    let mut failures = Vec::new();
    for module in &modules {
        // The module ends with its files (the tile core's aside: it is rewritten for the shape)
        // as `wgsl!` joins and strips them.
        let mut joined = Vec::new();
        for file in module
            .files
            .iter()
            .filter(|f| !f.ends_with("tile_core.wgsl"))
        {
            let file_name = Path::new(file).file_name().and_then(|n| n.to_str());
            let path = files
                .iter()
                .find(|p| Some(name(p).as_str()) == file_name)
                .unwrap_or_else(|| panic!("{}: {file} is not under src/", module.label));
            joined.push(std::fs::read_to_string(path).expect("read WGSL"));
        }
        assert!(
            module.source.ends_with(&stripped(&joined.join("\n"))),
            "{}: the embedded source is not its files'",
            module.label
        );
        failures.extend(validate(&module.label, &module.source));
    }
    // Every WGSL file is part of a module: none is left unvalidated.
    for file in &names {
        assert!(
            modules
                .iter()
                .any(|m| m.files.iter().any(|f| f.ends_with(file.as_str()))),
            "{file} is in no module"
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn tile_shapes_are_consistent_and_within_webgpu_defaults() {
    let defaults = wgpu::Limits::default();
    for shape in TileShape::ALL {
        assert_eq!(shape.tile(), shape.side * shape.block);
        assert_eq!(shape.block % 4, 0, "{shape:?}: vec4 accumulators");
        assert_eq!(shape.tile_k % 4, 0, "{shape:?}: vec4 loads");
        assert!(shape.fits(&defaults), "{shape:?}");
    }
    assert!(TileShape::ALL.windows(2).all(|w| w[0].tile() > w[1].tile()));
}

#[test]
fn the_chooser_fills_a_gpu_and_keeps_large_tiles_on_a_cpu() {
    use wgpu::DeviceType::{Cpu, DiscreteGpu, IntegratedGpu, Other, VirtualGpu};
    let limits = wgpu::Limits::default();
    let large = TileShape::LARGE;
    let small = TileShape::SMALL;
    // n = 1024: 64 workgroups of 128 (less than one wave on a 132-SM GPU), 256 of 64.
    assert_eq!(choose_tile(1024, 1024, 1, DiscreteGpu, &limits), small);
    // n = 2048: 256 workgroups of 128.
    assert_eq!(choose_tile(2048, 2048, 1, DiscreteGpu, &limits), large);
    // n = 4096: 1024 workgroups of 128.
    assert_eq!(choose_tile(4096, 4096, 1, DiscreteGpu, &limits), large);
    // Many heads fill the grid at a smaller n.
    assert_eq!(choose_tile(1024, 1024, 8, IntegratedGpu, &limits), large);
    assert_eq!(choose_tile(1, 1, 1, VirtualGpu, &limits), small);
    assert_eq!(choose_tile(1, 1, 1, Other, &limits), small);
    // On a CPU the largest tile that fits, whatever the size.
    for n in [1, 100, 1024, 4096] {
        assert_eq!(choose_tile(n, n, 1, Cpu, &limits), large, "n = {n}");
    }
    // The threshold itself: exactly FULL_GRID_WORKGROUPS 128-tiles is enough.
    let side = (FULL_GRID_WORKGROUPS / 2) as usize * 128;
    assert_eq!(choose_tile(side, 256, 1, DiscreteGpu, &limits), large);
    assert_eq!(choose_tile(side - 128, 256, 1, DiscreteGpu, &limits), small);
    // Only the upper triangle runs: n = 2048 is 136 tiles of 128, n = 4096 is 528.
    assert_eq!(choose_tile_upper(2048, DiscreteGpu, &limits), small);
    assert_eq!(choose_tile_upper(4096, DiscreteGpu, &limits), large);
    assert_eq!(choose_tile_upper(64, Cpu, &limits), large);
}

#[test]
fn the_chooser_respects_the_adapter_limits() {
    use wgpu::DeviceType::{Cpu, DiscreteGpu};
    let large = TileShape::LARGE;
    let small = TileShape::SMALL;
    let tight = wgpu::Limits {
        max_compute_workgroup_storage_size: small.workgroup_bytes(),
        ..wgpu::Limits::default()
    };
    if large.workgroup_bytes() > small.workgroup_bytes() {
        assert_eq!(choose_tile(4096, 4096, 1, Cpu, &tight), small);
    }
    let few = wgpu::Limits {
        max_compute_invocations_per_workgroup: 64,
        ..wgpu::Limits::default()
    };
    // Nothing fits: the smallest shape (the device will report the error).
    assert_eq!(choose_tile(4096, 4096, 1, DiscreteGpu, &few), small);
    // Every answer over a sweep of sizes and adapters is one of TileShape::ALL and fits.
    for limits in [wgpu::Limits::default(), wgpu::Limits::downlevel_defaults()] {
        for n in [1, 63, 64, 65, 127, 128, 129, 1000, 1024, 2048, 4096] {
            for slices in [1, 3, 16] {
                for device in [Cpu, DiscreteGpu] {
                    let shape = choose_tile(n, n, slices, device, &limits);
                    assert!(TileShape::ALL.contains(&shape));
                    assert!(shape.fits(&limits), "{shape:?} n={n}");
                }
            }
        }
    }
}
