//! Helpers shared by the native test binaries (each test file that needs them says `mod common;`):
//! floating-point error bounds, the shared GPU context, and array comparisons.
// Every test binary compiles this module and uses only part of it.
#![allow(dead_code)]

use std::sync::{Mutex, OnceLock};

use ndarray::ArrayView2;
use pe_lab::gpu::{native_context_blocking, GpuContext};

/// u = 2⁻²⁴, the unit roundoff of f32.
pub const UNIT_ROUNDOFF: f64 = 1.0 / (1u64 << 24) as f64;

/// γ_m = m·u/(1 − m·u): an m-term f32 sum or dot product, in any order (with or without fused
/// multiply-adds), is within γ_m·Σ|terms| of the exact value (Higham, "Accuracy and Stability of
/// Numerical Algorithms", §3.1).
pub fn gamma(m: usize) -> f64 {
    let mu = m as f64 * UNIT_ROUNDOFF;
    mu / (1.0 - mu)
}

/// Largest |a − b| over two arrays of the same shape.
pub fn max_abs_diff(a: ArrayView2<f32>, b: ArrayView2<f32>) -> f32 {
    assert_eq!(a.dim(), b.dim());
    a.iter()
        .zip(b)
        .fold(0.0f32, |m, (&x, &y)| m.max((x - y).abs()))
}

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
