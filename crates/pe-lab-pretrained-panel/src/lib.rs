//! The pretrained panel's wasm module: `pe_lab::panels::pretrained::module` (its exports come
//! with the `pretrained-module` feature), built as a module of its own so that the page's first
//! load carries neither the model nor its code. index.html builds it with a `data-type="worker"`
//! Trunk link (a module built and not loaded); the page imports it when the panel is first on
//! screen (`pe_lab::panels::pretrained`'s view).

/// The learned panel's trained table (MiniLM's position table beside the sinusoid), imported
/// from the same files by that panel when it is first on screen.
#[cfg(target_arch = "wasm32")]
pub use pe_lab::panels::learned::module::TrainedTableModule;
#[cfg(target_arch = "wasm32")]
pub use pe_lab::panels::pretrained::module::PretrainedModule;
