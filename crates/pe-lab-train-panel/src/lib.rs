//! The training panel's wasm module: `pe_lab::web::train_module` (its exports come with the
//! `train-module` feature), built as a module of its own so that the page's first load does not
//! carry the training lab. index.html builds it with a `data-type="worker"` Trunk link (a module
//! built and not loaded); the page imports it when the panel is first needed
//! (`pe_lab::web::panels::train_loader`).

#[cfg(target_arch = "wasm32")]
pub use pe_lab::web::train_module::TrainModule;
