//! Helpers shared by the GPU test binaries (each says `mod common;`): the page crate's numeric
//! helpers (error bounds, test data, comparisons: one file for both crates' tests) and the GPU
//! context shared by a binary's tests.
// Every test binary compiles this module and uses only part of it.
#![allow(dead_code)]

use std::sync::{Mutex, OnceLock};

use pe_lab_gpu::{native_context_blocking, GpuContext};

#[path = "../../../../tests/common/mod.rs"]
mod numeric;
// Not every binary uses the numeric helpers.
#[allow(unused_imports)]
pub use numeric::*;

/// Runs `f` with a value built once per test binary from the GPU context (`make`: the context
/// itself, or the context with its kernels), shared by the binary's tests. Without an adapter it
/// fails, unless PE_LAB_ALLOW_NO_GPU=1, which skips the test with a line on stderr.
pub fn with_shared_gpu<T: Send>(
    shared: &'static OnceLock<Option<Mutex<T>>>,
    make: impl FnOnce(GpuContext) -> T,
    test: &str,
    f: impl FnOnce(&mut T),
) {
    let value = shared.get_or_init(|| match native_context_blocking() {
        Ok(context) => {
            eprintln!("GPU tests on {}", context.describe());
            Some(Mutex::new(make(context)))
        }
        Err(e) if std::env::var("PE_LAB_ALLOW_NO_GPU").as_deref() == Ok("1") => {
            eprintln!(
                "no GPU adapter ({e}); PE_LAB_ALLOW_NO_GPU=1, so the GPU tests pass vacuously"
            );
            None
        }
        Err(e) => panic!(
            "no GPU adapter: {e}. Install lavapipe (mesa-vulkan-drivers) or set \
             PE_LAB_ALLOW_NO_GPU=1 to skip the GPU tests"
        ),
    });
    let Some(value) = value else {
        eprintln!("{test}: skipped (no GPU adapter, PE_LAB_ALLOW_NO_GPU=1)");
        return;
    };
    // A failed test poisons the mutex; the context itself is still usable by the others.
    let mut guard = value.lock().unwrap_or_else(|p| p.into_inner());
    f(&mut guard);
}

/// How far a kernel's output is from its reference, over all entries.
#[derive(Debug, Clone, Copy)]
pub struct Gap {
    /// The largest |GPU − reference|.
    pub worst: f64,
    /// The largest |GPU − reference| / bound: how much of its bound the worst entry uses.
    pub ratio: f64,
}

/// The one check of every kernel against its CPU twin or a float64 reference: each entry of `gpu`
/// within `bound(index, GPU value, reference value)` of `reference` (each kernel's bound comes from its
/// rounding analysis, in its test file), asserted entry by entry with `what` and the index in the
/// message.
pub fn assert_within_bound<D: ndarray::Dimension>(
    gpu: ndarray::ArrayView<f32, D>,
    reference: ndarray::ArrayView<f64, D>,
    what: &str,
    bound: impl Fn(D::Pattern, f32, f64) -> f64,
) -> Gap
where
    D::Pattern: std::fmt::Debug + Clone,
{
    assert_eq!(gpu.shape(), reference.shape(), "{what}: shape");
    let mut gap = Gap {
        worst: 0.0,
        ratio: 0.0,
    };
    for ((index, &g), &r) in gpu.indexed_iter().zip(reference.iter()) {
        let allowed = bound(index.clone(), g, r);
        let err = (f64::from(g) - r).abs();
        assert!(
            err <= allowed,
            "{what} {index:?}: GPU {g} vs {r}: {err:e} > bound {allowed:e}"
        );
        gap.worst = gap.worst.max(err);
        if allowed > 0.0 {
            gap.ratio = gap.ratio.max(err / allowed);
        }
    }
    gap
}

/// Runs `check` on every case under the kernel's own tile choice and then under each tile shape
/// forced (the shapes a device may be given), and leaves the kernel to its chooser again.
pub fn for_every_tile<T, K: pe_lab_gpu::Tiled, C: Copy>(
    host: &mut T,
    kernel: fn(&mut T) -> &mut K,
    cases: &[C],
    mut check: impl FnMut(&mut T, usize, C),
) {
    let shapes = std::iter::once(None).chain(pe_lab_gpu::tile::TileShape::ALL.map(Some));
    for forced in shapes {
        kernel(host).force_tile(forced);
        for (index, &case) in cases.iter().enumerate() {
            check(host, index, case);
        }
    }
    kernel(host).force_tile(None);
}
