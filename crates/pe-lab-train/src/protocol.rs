//! The messages between the page and a training worker, serialised with serde on both sides
//! (serde-wasm-bindgen turns them into plain JavaScript objects for `postMessage`). The page
//! sends [`Request`]s; a worker answers with [`Report`]s, each tagged with the run it belongs to,
//! so that reports of a run the reader has since replaced are recognised and dropped.

use serde::{Deserialize, Serialize};

use crate::analysis::HeadHitRate;
use crate::config::TrainConfig;
use crate::encodings::Encoding;
use crate::trainer::{AttentionMap, PositionTable};

/// What the page asks of a worker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Request {
    /// Train each of `encodings` on `config` (brought into range again by the worker), side by
    /// side, then evaluate them; `config.encoding` is not used.
    Start {
        run: u32,
        config: TrainConfig,
        encodings: Vec<Encoding>,
    },
    /// Stop working until [`Request::Resume`] (the tab was hidden, or the reader paused).
    Pause,
    Resume,
    /// Drop the run.
    Stop,
}

/// What a worker tells the page. Externally tagged (`{"progress": {...}}`): an internally tagged
/// enum is read through serde's buffering of the whole message, which costs the page's first
/// load tens of kilobytes of code.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Report {
    /// The worker has started and listens: a request posted before this could be lost (its
    /// handler is set once its wasm has loaded).
    Ready,
    /// The next training losses of one encoding: `losses[0]` is the loss of step `from`
    /// (counted from 0); `seconds` is the time the worker has spent on this encoding so far.
    Progress {
        run: u32,
        encoding: Encoding,
        from: usize,
        losses: Vec<f32>,
        seconds: f64,
    },
    /// Training is over for `encoding`; `done` of `total` evaluation lengths are measured.
    Evaluating {
        run: u32,
        encoding: Encoding,
        done: usize,
        total: usize,
    },
    /// One encoding is trained and measured.
    Done {
        run: u32,
        result: Box<EncodingReport>,
    },
    /// The run could not start or go on.
    Failed { run: u32, message: String },
}

impl Report {
    /// The run the report belongs to.
    pub fn run(&self) -> u32 {
        match self {
            Report::Ready => 0,
            Report::Progress { run, .. }
            | Report::Evaluating { run, .. }
            | Report::Done { run, .. }
            | Report::Failed { run, .. } => *run,
        }
    }
}

/// Everything measured for one trained encoding.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EncodingReport {
    pub encoding: Encoding,
    /// The mean training loss of the last [`crate::compare::FINAL_LOSS_STEPS`] steps.
    pub final_loss: f64,
    /// The evaluated lengths and the token accuracy at each.
    pub lengths: Vec<usize>,
    pub accuracy_by_length: Vec<f64>,
    /// Token accuracy at 1×, 2× and 4× the training length.
    pub accuracy_at_multiples: [f64; 3],
    pub parameter_count: usize,
    /// The worker's time on this encoding (training and evaluation), and on training alone.
    pub seconds: f64,
    pub train_seconds: f64,
    /// The chance level of the task at the training length (the same for every encoding).
    pub chance: f64,
    /// `learned` only: the translation spread of the table at step 0 and after training.
    pub translation_spread_initial: Option<f64>,
    pub translation_spread_trained: Option<f64>,
    /// The translation spread of the sinusoidal P of the learned table's size.
    pub translation_spread_sinusoidal: f64,
    /// `shift` only: the head whose largest weights fall most often k places back.
    pub offset_hit_rate: Option<HeadHitRate>,
    /// The example the attention maps are drawn on (training length, the same for every
    /// encoding) and the trained model's maps on it, every layer and head.
    pub example: Vec<usize>,
    pub attention: Vec<AttentionMap>,
    /// `learned` only: the trained table.
    pub table: Option<PositionTable>,
}
