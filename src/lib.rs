//! pe-lab: an interactive lab for sinusoidal positional encoding and self-attention.
//!
//! Layers, with one-way dependencies:
//! - [`math`]: pure math on `ndarray`, compiled and tested natively (no web-sys); its own crate,
//!   `pe-lab-math` (crates/pe-lab-math), so that it cannot depend on the layers above it;
//! - [`gpu`]: wgpu compute kernels (native Vulkan/GL, browser WebGPU), each with its CPU twin in
//!   `math`, and the GPU trainer; its own crate, `pe-lab-gpu` (crates/pe-lab-gpu), shared with the
//!   training worker, so that the worker does not depend on the page;
//! - [`model`]: the panels' numbers and settings, below the DOM;
//! - [`panels`]: a folder per panel: its numbers (native) and its view (`web` only), from the one
//!   list of panels in `model::panels`;
//! - `web` (wasm32 only): DOM, canvases and the `wasm-bindgen` exports, thin shims over `model`.

pub use pe_lab_gpu as gpu;
pub use pe_lab_math as math;
pub mod model;
pub mod panels;

#[cfg(target_arch = "wasm32")]
pub mod web;
