//! The encoding parameters (d, n, base, δ, the pair, the position, the columns): their limits,
//! defaults and clamping. Every out-of-range value is clamped to a working state and explained by
//! a notice. δ, the pair, the position and the columns keep what the reader asked for
//! ([`Requested`]) next to the value in use, so that a range that shrinks and grows back gives the
//! request back. Their URL keys are read and written in `query::params_keys`.

use serde::Serialize;

use crate::math::encoding::frequency_count;
use crate::math::relative::valid_positions;

pub const D_MIN: usize = 1;
pub const N_MIN: usize = 1;

pub use crate::math::limits::{Limits, CPU_LIMITS, GPU_LIMITS, WIDEST_LIMITS};
pub const D_MAX: usize = CPU_LIMITS.d_max;
pub const N_MAX: usize = CPU_LIMITS.n_max;
pub const BASE_MIN: f64 = 2.0;
pub const BASE_MAX: f64 = 1e6;
/// At most this many curves are drawn: more would be unreadable on a projector.
pub const MAX_CURVES: usize = 8;

/// A key's step of n on the n slider: an arrow changes n by about 5% (at least 1), Page Up and
/// Page Down double and halve it. Home and End keep the slider's own behaviour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NStep {
    Up,
    Down,
    Double,
    Halve,
}

impl NStep {
    /// The step a key makes; `None` for other keys.
    pub fn of_key(key: &str) -> Option<Self> {
        match key {
            "ArrowUp" | "ArrowRight" => Some(Self::Up),
            "ArrowDown" | "ArrowLeft" => Some(Self::Down),
            "PageUp" => Some(Self::Double),
            "PageDown" => Some(Self::Halve),
            _ => None,
        }
    }

    /// The n after this step from `n`, within N_MIN…`n_max`.
    pub fn from(self, n: usize, n_max: usize) -> usize {
        let nf = n as f64;
        let next = match self {
            Self::Up => (nf * 1.05).round().max(nf + 1.0),
            Self::Down => (nf / 1.05).round().min(nf - 1.0),
            Self::Double => nf * 2.0,
            Self::Halve => (nf / 2.0).round().min(nf - 1.0),
        };
        (next.max(N_MIN as f64) as usize).min(n_max.max(N_MIN))
    }
}

/// Defaults: the chapter's figure (d = 32, n = 60, base 10000, columns 6–9).
pub const DEFAULT_D: usize = 32;
pub const DEFAULT_N: usize = 60;
pub const DEFAULT_BASE: f64 = 10000.0;
pub const DEFAULT_DELTA: i64 = 1;
/// Frequency pair 3 holds columns 6 and 7, the chapter's highest-frequency curves.
pub const DEFAULT_PAIR: usize = 3;
pub const DEFAULT_POSITION: usize = 0;
pub const DEFAULT_COLUMNS: [usize; 4] = [6, 7, 8, 9];

/// What the reader asked for δ, the pair, the position and the columns (a link, a field,
/// `peLab.set`). Their values in use in [`Params`] are derived from it by [`Params::clamp`]: a
/// request that does not fit the current n or d is kept, not overwritten, so that dragging n down
/// and back up shows the reader's δ again.
#[derive(Debug, Clone, PartialEq)]
pub struct Requested {
    pub delta: i64,
    pub pair: usize,
    pub position: usize,
    /// Empty: the default columns for d ([`default_columns`]).
    pub columns: Vec<usize>,
}

impl Default for Requested {
    fn default() -> Self {
        Requested {
            delta: DEFAULT_DELTA,
            pair: DEFAULT_PAIR,
            position: DEFAULT_POSITION,
            columns: DEFAULT_COLUMNS.to_vec(),
        }
    }
}

/// The complete state of the encoding panels. `delta`, `pair`, `position` and `columns` are the
/// values in use (what the page shows, `peLab.state` and the link); `requested` is what the reader
/// asked for, and only it is set by the keys. Serialized, it is `window.peLab.state`: the
/// parameters after clamping, without the encoding options (`textbook` and `index` are in
/// `stats.textbook` and `stats.firstPosition`), the limits and the requests.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Params {
    /// Encoding dimension (columns of P).
    pub d: usize,
    /// Number of positions (rows of P).
    pub n: usize,
    /// Frequency base (10000 in the chapter).
    pub base: f64,
    /// Offset δ of the relative-position projection.
    pub delta: i64,
    /// Frequency pair j shown in the projection panel (columns 2j, 2j+1).
    pub pair: usize,
    /// Position i whose projection to i+δ is highlighted.
    pub position: usize,
    /// Columns drawn as curves against position (0-based column indices, whatever
    /// `first_position` is).
    pub columns: Vec<usize>,
    /// `?textbook=1`: P as d2l's PyTorch/MXNet code computes it, the angle i·ω_j formed in float32
    /// (see [`super::encoding::textbook_sinusoidal`]); off: the exact P.
    #[serde(skip)]
    pub textbook: bool,
    /// `?index=1`: the rows of P are positions 1…n and the labels count from 1, as in the Julia
    /// edition (`collect(1:max_len)`); 0 (the default): positions 0…n−1, as in the formulas.
    #[serde(skip)]
    pub first_position: usize,
    /// The limits of the backend in use (not part of a link).
    #[serde(skip)]
    pub limits: Limits,
    /// What the reader asked for δ, j, i and the columns (not part of a link: the link writes
    /// the values in use, so that it reproduces the screen without a notice).
    #[serde(skip)]
    pub requested: Requested,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            d: DEFAULT_D,
            n: DEFAULT_N,
            base: DEFAULT_BASE,
            delta: DEFAULT_DELTA,
            pair: DEFAULT_PAIR,
            position: DEFAULT_POSITION,
            columns: DEFAULT_COLUMNS.to_vec(),
            textbook: false,
            first_position: 0,
            limits: CPU_LIMITS,
            requested: Requested::default(),
        }
    }
}

impl Params {
    /// Brings the parameters that depend on others (δ on n, j on d, i on n and δ, columns on d)
    /// into range, deriving them from [`Params::requested`]. Returns a notice for each change to d
    /// or n and each request not met (see [`Params::reductions`]).
    pub fn clamp(&mut self) -> Vec<String> {
        let mut notices = Vec::new();
        let (d_max, n_max) = (self.limits.d_max, self.limits.n_max);
        if self.d > d_max || self.n > n_max {
            notices.push(crate::message!(
                "notice-backend-limits",
                d_max = d_max,
                n_max = n_max,
                d = self.d.min(d_max),
                n = self.n.min(n_max)
            ));
        }
        self.d = self.d.clamp(D_MIN, d_max);
        self.n = self.n.clamp(N_MIN, n_max);
        if !(self.base.is_finite() && self.base >= BASE_MIN) {
            self.base = DEFAULT_BASE;
        }
        self.base = self.base.min(BASE_MAX);

        // The values in use follow from the request every time, never from the previous values
        // in use: a reduced δ is not what the reader asked for once n grows again.
        let request = &self.requested;
        let max_delta = self.n as i64 - 1;
        self.delta = request.delta.clamp(-max_delta, max_delta);
        self.pair = request.pair.min(self.max_pair());
        // Silently follows δ and n: the highlighted position is a detail, not a setting.
        let valid = self.valid_positions();
        self.position = request
            .position
            .clamp(valid.start, valid.end.saturating_sub(1).max(valid.start));
        let kept: Vec<usize> = request
            .columns
            .iter()
            .copied()
            .filter(|&c| c < self.d)
            .collect();
        self.columns = if kept.is_empty() {
            default_columns(self.d)
        } else {
            kept
        };
        notices.extend(self.reductions());
        notices
    }

    /// A notice for each value in use that is not what the reader asked for (δ, j, the columns;
    /// the position follows silently). Said on every update while it holds, so that the notice
    /// stays as long as the page shows the reduced value.
    pub fn reductions(&self) -> Vec<String> {
        let mut notices = Vec::new();
        let request = &self.requested;
        if self.delta != request.delta {
            notices.push(crate::message!(
                "notice-delta-does-not-fit",
                requested = request.delta.to_string(),
                n = self.n,
                used = self.delta.to_string()
            ));
        }
        if self.pair != request.pair {
            notices.push(crate::message!(
                "notice-pair-does-not-exist",
                requested = request.pair,
                d = self.d,
                used = self.pair
            ));
        }
        let dropped: Vec<String> = request
            .columns
            .iter()
            .filter(|&&c| c >= self.d)
            .map(|c| c.to_string())
            .collect();
        if !dropped.is_empty() {
            notices.push(crate::message!(
                "notice-columns-do-not-exist",
                columns = dropped.join(", "),
                d = self.d,
                last = self.d - 1
            ));
        }
        notices
    }

    /// Whether `other` shows the same view: every value in use equal, whatever was requested.
    pub fn same_in_use(&self, other: &Params) -> bool {
        let mut other = other.clone();
        other.requested.clone_from(&self.requested);
        *self == other
    }

    /// The last complete (sin, cos) pair j: ⌊d/2⌋ − 1 (0 when d < 2).
    fn max_pair(&self) -> usize {
        (self.d / 2).saturating_sub(1)
    }

    /// The positions of P's rows: `first_position … first_position + n − 1`.
    pub fn positions(&self) -> std::ops::Range<usize> {
        self.first_position..self.first_position + self.n
    }

    /// The positions i (not rows: position = row + `first_position`) for which both i and i+δ
    /// are positions of P: the range of `pos`.
    pub fn valid_positions(&self) -> std::ops::Range<usize> {
        let rows = valid_positions(self.n, self.delta);
        rows.start + self.first_position..rows.end + self.first_position
    }

    /// The row of P that holds the highlighted position `pos`.
    pub fn position_row(&self) -> usize {
        self.position.saturating_sub(self.first_position)
    }

    /// Switches to another backend's limits, clamping d and n (with a notice) when they exceed them.
    pub fn set_limits(&mut self, limits: Limits) -> Vec<String> {
        self.limits = limits;
        self.clamp()
    }

    /// Number of frequencies ⌈d/2⌉.
    pub fn frequencies(&self) -> usize {
        frequency_count(self.d)
    }

    /// Whether d leaves a complete (sin, cos) pair for the projection panel.
    pub fn has_complete_pair(&self) -> bool {
        self.d >= 2
    }
}

/// The chapter's columns 6–9 where they exist, else the first few columns.
pub fn default_columns(d: usize) -> Vec<usize> {
    let chapter: Vec<usize> = DEFAULT_COLUMNS.iter().copied().filter(|&c| c < d).collect();
    if chapter.is_empty() {
        (0..d.min(DEFAULT_COLUMNS.len())).collect()
    } else {
        chapter
    }
}

/// Base shown with at most 6 significant digits, as a number a person would type.
pub fn format_base(base: f64) -> String {
    let rounded = round_significant(base, 6);
    format!("{rounded}")
}

/// The base for a position `x` = log10(base) of the logarithmic slider, rounded to 3 significant
/// digits so that dragging lands on numbers a teacher can say aloud (10000, not 9998.7).
pub fn base_from_slider(x: f64) -> f64 {
    round_significant(10f64.powf(x), 3).clamp(BASE_MIN, BASE_MAX)
}

/// Slider position for a base: log10(base).
pub fn slider_from_base(base: f64) -> f64 {
    base.log10()
}

fn round_significant(x: f64, digits: i32) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let magnitude = x.abs().log10().floor() as i32;
    let scale = 10f64.powi(digits - 1 - magnitude);
    (x * scale).round() / scale
}
