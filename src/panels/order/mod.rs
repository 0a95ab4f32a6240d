//! The order panel's folder: its markup (`section.html`). Its numbers and view are still in
//! `model` and `web::panels::order`, from where its `mount` is handed on (see `crate::panels`).

#[cfg(target_arch = "wasm32")]
pub use crate::web::panels::order::mount;
