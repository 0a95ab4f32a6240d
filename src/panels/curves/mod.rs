//! The curves panel: its takeaway, and its view in the page (its numbers are P's, `model::present`).

pub mod takeaway;
#[cfg(target_arch = "wasm32")]
mod view;
#[cfg(target_arch = "wasm32")]
pub use view::mount;
