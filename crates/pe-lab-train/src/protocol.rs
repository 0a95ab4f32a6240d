//! The messages between the page and a training worker, serialised with serde on both sides
//! (serde-wasm-bindgen turns them into plain JavaScript objects for `postMessage`). The page
//! sends [`Request`]s; a worker answers with [`Report`]s, each tagged with the run it belongs to,
//! so that reports of a run the reader has since replaced are recognised and dropped.

use serde::{Deserialize, Serialize};

use crate::analysis::HeadHitRate;
use crate::config::TrainConfig;
use crate::device::TrialRates;
use crate::encodings::Encoding;
use crate::trainer::{AttentionMap, PositionTable};

/// Where a worker takes its training steps. Evaluation, maps and tables are always computed on
/// the CPU, from the trained parameters.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum TrainDevice {
    /// The training crate's own trainer, in the worker's WebAssembly: the same bits on every
    /// machine.
    #[default]
    Cpu,
    /// The GPU trainer on WebGPU (`pe_lab::gpu::train`): the same model, batches and Adam, with
    /// sums in another order, so its losses differ from the CPU's in the last digits.
    Gpu,
}

impl TrainDevice {
    pub fn link_name(self) -> &'static str {
        match self {
            TrainDevice::Cpu => "cpu",
            TrainDevice::Gpu => "gpu",
        }
    }
}

/// How long a trial ([`Request::Trial`]) times each trainer, after a warm-up: long enough to
/// average over several loss readbacks, short enough that the reader barely waits.
pub const TRIAL_SECONDS: f64 = 0.3;

/// A GPU whose set-up and warm-up step take longer than this is not timed further: its rate is
/// the warm-up step's (a software adapter builds the trainer's pipelines for seconds).
pub const TRIAL_GPU_LIMIT_SECONDS: f64 = 3.0;

/// What the page asks of a worker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Request {
    /// Train each of `encodings` on `config` (brought into range again by the worker) at each of
    /// `seeds` (none: `config.seed` alone), side by side, on `device`, then evaluate them;
    /// `config.encoding` and `config.seed` are not used.
    Start {
        run: u32,
        config: TrainConfig,
        encodings: Vec<Encoding>,
        #[serde(default)]
        seeds: Vec<u64>,
        #[serde(default)]
        device: TrainDevice,
    },
    /// Time a few steps of `encoding` on `config` with both trainers, one after the other, and
    /// report their rates ([`Report::Trial`]); nothing of it is kept.
    Trial {
        run: u32,
        config: TrainConfig,
        encoding: Encoding,
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
    /// The next training losses of one encoding at one seed: `losses[0]` is the loss of step
    /// `from` (counted from 0); `seconds` is the time the worker has spent on it so far.
    Progress {
        run: u32,
        encoding: Encoding,
        seed: u64,
        from: usize,
        losses: Vec<f32>,
        seconds: f64,
    },
    /// Training is over for `encoding` at `seed`; `done` of `total` evaluation lengths are
    /// measured.
    Evaluating {
        run: u32,
        encoding: Encoding,
        seed: u64,
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
    /// What a [`Request::Trial`] measured, where the run is to train, and the sentence that
    /// says why ([`crate::device::choose_from_trial`]).
    Trial {
        run: u32,
        device: TrainDevice,
        reason: String,
        rates: TrialRates,
    },
    /// The GPU trainer failed (`message` says how); the worker starts its encodings again on
    /// the CPU, from step 0: their next [`Report::Progress`] starts at step 0 again.
    Fallback { run: u32, message: String },
}

impl Report {
    /// The losses of `encoding` at `seed` not reported yet (past `*reported`), as a
    /// [`Report::Progress`], and `*reported` moved to the end; `None` when there are none.
    pub fn progress_since(
        run: u32,
        (encoding, seed): (Encoding, u64),
        losses: &[f32],
        reported: &mut usize,
        seconds: f64,
    ) -> Option<Report> {
        let from = *reported;
        if losses.len() <= from {
            return None;
        }
        *reported = losses.len();
        Some(Report::Progress {
            run,
            encoding,
            seed,
            from,
            losses: losses[from..].to_vec(),
            seconds,
        })
    }

    /// The run the report belongs to.
    pub fn run(&self) -> u32 {
        match self {
            Report::Ready => 0,
            Report::Progress { run, .. }
            | Report::Evaluating { run, .. }
            | Report::Done { run, .. }
            | Report::Failed { run, .. }
            | Report::Trial { run, .. }
            | Report::Fallback { run, .. } => *run,
        }
    }
}

/// Everything measured for one trained encoding at one seed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EncodingReport {
    pub encoding: Encoding,
    /// The seed of its run (its initial parameters, batches and evaluation sequences).
    pub seed: u64,
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
    /// The best accuracy any position-blind model can reach at each of `lengths`
    /// ([`crate::baselines::blind_ceiling`]), and the largest standard error of its simulation.
    pub blind_ceiling_by_length: Vec<f64>,
    pub blind_ceiling_error: f64,
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
