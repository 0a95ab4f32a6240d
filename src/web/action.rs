//! Every input of the page as one typed message. Controls, `peLab.set`, presets, panel buttons,
//! pointer and keyboard reading, exports and results that arrive later (GPU read-backs, timings,
//! failures) all become an [`Action`] handled by `App::dispatch`.

use crate::model::panels::PanelId;
use crate::model::state::Msg;

#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// A change of the state.
    State(Msg),
    /// A change of the state made with the control of this element id (a frame leaves that
    /// element's value alone while it is being dragged or typed in).
    FromControl(String, Msg),
    /// An event of this panel.
    Panel { panel: PanelId, event: PanelEvent },
    /// Save a canvas (by its id) as PNG.
    ExportPng(String),
    /// Save the panel's numbers as CSV.
    ExportCsv(PanelId),
    /// Save the panel's figure as SVG.
    ExportSvg(PanelId),
    /// Bring the link up to date and copy it.
    CopyLink,
    /// Panels came on screen: draw those not drawn yet.
    PanelsOnScreen,
    /// The layout or the pixel ratio changed: redraw everything.
    Redraw,
    /// WebGPU failed (validation error, lost device): switch to the CPU.
    GpuFailed(String),
    /// Bring the next off-screen panel's numbers up to date (after a frame, one per task).
    RenderDeferred,
    /// Someone asked for every panel's numbers (`peLab.ready` was read): the off-screen panels
    /// are brought up to date, one per task, and `ready` resolves.
    WantComplete,
    /// Draw the next panel on screen that a frame left for the task after it (its budget spent).
    FollowUp,
    /// A pointer went down on a slider (`true`) or was released anywhere (`false`).
    SliderHeld(bool),
    /// A text or number field lost the focus: the controls are set again from the state, so
    /// that a value typed there and clamped shows as the value in use.
    FieldLeft,
    /// The GPU finished the work submitted up to the check with this number.
    GpuQueueDone(u32),
}

/// What happens to one panel.
#[derive(Debug, Clone, PartialEq)]
pub enum PanelEvent {
    /// The pointer is at (x, y) CSS pixels on the panel's main canvas.
    Pointer { x: f64, y: f64 },
    /// The pointer left the canvas.
    Leave,
    /// Keyboard reading of the heatmap: move the cursor cell by (rows, columns); (0, 0) shows it.
    Cursor { rows: i64, columns: i64 },
    /// Keyboard reading of a panel of several heatmaps: move the cursor to another map.
    CursorMap { maps: i64 },
    /// A value read back from the GPU for the read-out, with the text to show it in.
    ReadOut(String),
    /// Time the attention kernel (`auto`: the panel asked for it after a change).
    Measure { auto: bool },
    /// A timing step finished: the fastest time so far (infinity: P is ready, no run yet), the
    /// runs done, and the size it is for; `Err` carries the failure.
    Timed {
        n: usize,
        d: usize,
        result: Result<(f64, usize), String>,
    },
    /// A button or switch of the training panel, or `peLab.train()` / `peLab.stopTraining()`.
    Train(TrainCommand),
    /// A training worker's report.
    TrainReport(Box<pe_lab_train::protocol::Report>),
    /// A panel's own wasm module arrived or has news (bytes of its model, a finished run).
    Module,
}

/// What the training panel is asked to do.
#[derive(Debug, Clone, PartialEq)]
pub enum TrainCommand {
    /// Train the current settings (again); `peLab.train()` waits with its promise.
    Start(Option<TrainPromise>),
    PauseOrResume,
    /// `peLab.stopTraining()`: end the run, keep what it measured.
    Stop,
    /// End the run and clear its figures.
    Reset,
    /// The tab was hidden (`true`) or shown again: a hidden tab's run pauses.
    Hidden(bool),
    /// Show this encoding's attention map (its link name).
    ShowAttention(String),
    /// Draw the next group of the panel's figures (they are drawn one group per frame).
    DrawMore,
    /// The training module arrived, or failed to (`web::panels::train_loader`).
    ModuleLoaded,
    /// The training module has events of its own to handle (a worker's report, a button).
    Wake,
}

/// A `peLab.train()` promise's two functions.
#[derive(Debug, Clone, PartialEq)]
pub struct TrainPromise {
    pub resolve: js_sys::Function,
    pub reject: js_sys::Function,
}
