//! The largest sizes each compute backend accepts: the bounds every computation in this crate
//! may rely on (the page clamps its parameters to them before anything is computed).

/// The largest d and n a compute backend accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub d_max: usize,
    pub n_max: usize,
}

/// The CPU path: one full update (P, heatmap, curves, projection error) at d = 1024, n = 2048
/// measured 40–130 ms in headless Chromium on 2 cores, about the most that still follows a slider.
pub const CPU_LIMITS: Limits = Limits {
    d_max: 1024,
    n_max: 2048,
};
/// WebGPU: the encoding kernel and the heatmap render pass handle n = 4096, d = 2048 (32 MB of P)
/// without reading P back (measured in headless Chromium when the WebGPU path was built).
pub const GPU_LIMITS: Limits = Limits {
    d_max: 2048,
    n_max: 4096,
};
/// The widest limits of any backend: what a URL may ask for before the backend is known.
pub const WIDEST_LIMITS: Limits = GPU_LIMITS;
