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
