//! pe-lab: an interactive lab for sinusoidal positional encoding and self-attention.
//!
//! Layers, with one-way dependencies:
//! - [`math`]: pure math on `ndarray`, compiled and tested natively (no web-sys); its own crate,
//!   `pe-lab-math` (crates/pe-lab-math), so that it cannot depend on the layers above it;
//! - [`gpu`]: wgpu compute kernels (native Vulkan/GL, browser WebGPU), each with its CPU twin in
//!   `math`;
//! - `web` (wasm32 only, feature `page`): DOM, canvases and the `wasm-bindgen` exports, thin shims
//!   over `math`. The training worker uses this crate without it, for `gpu::train`.

pub mod gpu;
pub use pe_lab_math as math;
pub mod model;

#[cfg(all(target_arch = "wasm32", feature = "page"))]
pub mod web;
