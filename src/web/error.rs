//! Errors of the browser layer. They become `JsError` at the wasm-bindgen boundary and are always
//! shown on the page as well (see `show_error`).

use thiserror::Error;
use wasm_bindgen::JsValue;

use crate::gpu::GpuError;
use crate::math::attention::AttentionError;
use crate::math::complexity::ComplexityError;
use crate::math::extension::ExtensionError;
use crate::math::heads::HeadsError;
use crate::math::layer::ProjectionError;
use crate::math::learned::LearnedError;
use crate::math::order::OrderError;
use crate::math::position::PositionError;
use crate::math::rope::RopeError;
use crate::math::scaling::ScalingError;
use crate::math::sentence::SentenceError;
use crate::math::shaw::ShawError;
use crate::math::similarity::SimilarityError;
use crate::math::stacking::StackingError;
use crate::math::t5::BucketError;
use crate::math::MathError;

#[derive(Debug, Error)]
pub enum WebError {
    #[error("the page has no element #{0}")]
    MissingElement(String),
    #[error("#{id} is not a {expected}")]
    WrongElement { id: String, expected: &'static str },
    #[error("no 2D drawing context for #{0}")]
    NoContext(String),
    #[error("a browser call failed: {0}")]
    Js(String),
    #[error("drawing failed: {0}")]
    Draw(String),
    #[error(transparent)]
    Math(#[from] MathError),
    #[error(transparent)]
    Attention(#[from] AttentionError),
    #[error(transparent)]
    Heads(#[from] HeadsError),
    #[error(transparent)]
    Order(#[from] OrderError),
    #[error(transparent)]
    Similarity(#[from] SimilarityError),
    #[error(transparent)]
    Scaling(#[from] ScalingError),
    #[error(transparent)]
    Complexity(#[from] ComplexityError),
    #[error(transparent)]
    Projection(#[from] ProjectionError),
    #[error(transparent)]
    Sentence(#[from] SentenceError),
    #[error(transparent)]
    Position(#[from] PositionError),
    #[error(transparent)]
    Rope(#[from] RopeError),
    #[error(transparent)]
    Extension(#[from] ExtensionError),
    #[error(transparent)]
    Bucket(#[from] BucketError),
    #[error(transparent)]
    Shaw(#[from] ShawError),
    #[error(transparent)]
    Learned(#[from] LearnedError),
    #[error(transparent)]
    Stacking(#[from] StackingError),
    #[error("WebGPU: {0}")]
    GpuKernel(#[from] GpuError),
    /// A WebGPU failure in the browser layer (a canvas, a surface, a read-back).
    #[error("WebGPU: {0}")]
    Gpu(String),
    /// Something the page asked for is not there yet (an export before the first drawing).
    #[error("{0}")]
    NotReady(String),
}

impl From<JsValue> for WebError {
    fn from(value: JsValue) -> Self {
        let text = value
            .as_string()
            .or_else(|| {
                js_sys::Reflect::get(&value, &"message".into())
                    .ok()
                    .and_then(|m| m.as_string())
            })
            .unwrap_or_else(|| format!("{value:?}"));
        WebError::Js(text)
    }
}

/// Plotters reports errors with its own types; only their text matters here.
pub fn draw_error(error: impl std::fmt::Display) -> WebError {
    WebError::Draw(error.to_string())
}
