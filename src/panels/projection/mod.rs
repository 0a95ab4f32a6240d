//! The projection panel (pair j of P on the unit circle, the 2×2 matrix of δ that carries every
//! p_i to p_(i+δ)): its takeaway (`takeaway.rs`, tested natively) and its view (`view.rs`, the
//! browser only). Its numbers are P's, with its read-outs in `model::present`; where its labels
//! go is `model::projection_figure`, drawn by `web::draw::projection`.

pub mod takeaway;
#[cfg(target_arch = "wasm32")]
mod view;
#[cfg(target_arch = "wasm32")]
pub use view::mount;
