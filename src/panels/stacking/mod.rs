//! The stacking panel's folder: its markup (`section.html`). Its numbers and view are still in
//! `model` and `web::panels::stacking`, from where its `mount` is handed on (see `crate::panels`).

#[cfg(target_arch = "wasm32")]
pub use crate::web::panels::stacking::mount;
