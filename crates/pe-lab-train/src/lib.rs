//! The training lab's native core: a small attention model trained on tasks built to separate
//! the position schemes.
//!
//! The model is the page's layer: a token embedding (vocabulary ≤ 64) plus position by the chosen
//! [`Encoding`], then 1–3 layers of multi-head attention (W_q, W_k, W_v, W_o, residual connections,
//! optional post-norm LayerNorm and MLP), then a linear readout at every position, trained with
//! cross-entropy over every position that has a target and Adam. Every batch is freshly sampled
//! from a seeded generator, so a run is fixed bit for bit by its [`TrainConfig`].
//!
//! The backward pass is written by hand. Burn, the Rust deep-learning framework, does not train
//! on wasm: its maintainers declined browser training (tracel-ai/burn issue #1254). The code is
//! generic over the float type ([`Real`]): the page trains in f32, and the tests check an f64
//! build of the same code against central finite differences for every parameter tensor of
//! every scheme.
//!
//! Nothing here uses threads, clocks or the DOM: it runs as it is in a Web Worker.

pub mod adam;
pub mod analysis;
pub mod attention;
pub mod backward;
pub mod baselines;
pub mod compare;
pub mod config;
pub mod device;
pub mod encodings;
pub mod gemm;
pub mod linalg;
pub mod model;
pub mod params;
pub mod presets;
pub mod protocol;
pub mod real;
pub mod session;
pub mod tasks;
pub mod trainer;

pub use analysis::{normalised_gram, translation_spread, HeadHitRate};
pub use compare::{compare, Comparison, ComparisonRun, EncodingResult};
pub use config::{Notice, TrainConfig};
pub use encodings::Encoding;
pub use model::{Model, Workspace};
pub use real::Real;
pub use tasks::{Batch, Task};
pub use trainer::{AttentionMap, BatchStream, PositionTable, TrainError, Trainer};
