//! Every WGSL module the crate creates, as the device receives it, for the tests that validate
//! them with naga (tests/wgsl_validate.rs) and check their structs and constants against the Rust
//! ones (tests/wgsl_layouts.rs).

use crate::wgsl::WgslSource;
use crate::{alibi_scores, attention, columns, encoding, gram, heatmap, rope_scores, stats, tile};

/// The workgroup width of the tree reductions (`REDUCE_LANES` in shared/reduce.wgsl, checked by
/// tests/wgsl_layouts.rs): the forward kernels' softmax passes and the GPU trainer's long sums
/// dispatch workgroups of this many invocations.
pub const REDUCE_LANES: u32 = 64;

/// One WGSL module: its label, the files it is composed of (as named in `wgsl!`, the tile core
/// first where it is one) and its source.
#[derive(Debug, Clone)]
pub struct Module {
    pub label: String,
    pub files: Vec<&'static str>,
    pub source: String,
}

impl Module {
    fn of(label: &str, source: WgslSource) -> Self {
        Module {
            label: label.to_owned(),
            files: source.files(),
            source: source.text(),
        }
    }
}

/// Every module: the standalone kernels, the heatmap renderer (with its colour stops), the
/// training kernels, and the tiled kernels for every tile shape and load width.
pub fn every_module() -> Vec<Module> {
    let mut modules = vec![
        Module::of("encoding", encoding::SOURCE),
        Module::of("columns", columns::SOURCE),
        Module::of("stats", stats::SOURCE),
        Module::of("rope rotate", rope_scores::ROTATE_SOURCE),
        Module {
            label: "heatmap".to_owned(),
            files: heatmap::SOURCE.files(),
            source: heatmap::shader_source(),
        },
    ];
    #[cfg(feature = "minilm")]
    modules.push(Module::of("minilm", crate::minilm::SOURCE));
    modules.extend(
        crate::train::kernels::MODULES
            .iter()
            .map(|&(label, source)| Module::of(label, source)),
    );
    let tiled = [
        ("gram", gram::SOURCE),
        ("attention", attention::SOURCE),
        ("alibi scores", alibi_scores::SOURCE),
        ("rope scores", rope_scores::SOURCE),
    ];
    for (name, kernel) in tiled {
        for variant in tile::Variant::all() {
            let load = if variant.vec4 { "vec4" } else { "f32" };
            modules.push(Module {
                label: format!("{name} (tile {}, {load})", variant.shape.tile()),
                files: [vec![tile::CORE_SOURCE.name], kernel.files()].concat(),
                source: tile::compose(&kernel.text(), variant),
            });
        }
    }
    modules
}

// The Rust ↔ WGSL agreements that no type system checks: the layout of every struct shared through
// a buffer, and the constants both sides size or index with (naga parses WGSL natively only).
#[cfg(all(test, not(target_arch = "wasm32")))]
mod layout_checks;
