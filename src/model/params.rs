//! The encoding parameters (d, n, base, δ, the pair, the position, the columns): their limits,
//! defaults and clamping. Every out-of-range value is clamped to a working state and explained by
//! a notice. Their URL keys are read and written in `query::params_keys`.

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

/// Defaults: the chapter's figure (d = 32, n = 60, base 10000, columns 6–9).
pub const DEFAULT_D: usize = 32;
pub const DEFAULT_N: usize = 60;
pub const DEFAULT_BASE: f64 = 10000.0;
pub const DEFAULT_DELTA: i64 = 1;
/// Frequency pair 3 holds columns 6 and 7, the chapter's highest-frequency curves.
pub const DEFAULT_PAIR: usize = 3;
pub const DEFAULT_POSITION: usize = 0;
pub const DEFAULT_COLUMNS: [usize; 4] = [6, 7, 8, 9];

/// The complete state of the encoding panels.
#[derive(Debug, Clone, PartialEq)]
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
    pub textbook: bool,
    /// `?index=1`: the rows of P are positions 1…n and the labels count from 1, as in the Julia
    /// edition (`collect(1:max_len)`); 0 (the default): positions 0…n−1, as in the formulas.
    pub first_position: usize,
    /// The limits of the backend in use (not part of a link).
    pub limits: Limits,
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
        }
    }
}

impl Params {
    /// Brings the parameters that depend on others (δ on n, j on d, i on n and δ, columns on d)
    /// into range. Returns a notice for each change.
    pub fn clamp(&mut self) -> Vec<String> {
        let mut notices = Vec::new();
        let (d_max, n_max) = (self.limits.d_max, self.limits.n_max);
        if self.d > d_max || self.n > n_max {
            notices.push(format!(
                "This compute backend handles up to d = {d_max}, n = {n_max}; using d = {}, n = {}.",
                self.d.min(d_max),
                self.n.min(n_max)
            ));
        }
        self.d = self.d.clamp(D_MIN, d_max);
        self.n = self.n.clamp(N_MIN, n_max);
        if !(self.base.is_finite() && self.base >= BASE_MIN) {
            self.base = DEFAULT_BASE;
        }
        self.base = self.base.min(BASE_MAX);

        let max_delta = self.n as i64 - 1;
        let delta = self.delta.clamp(-max_delta, max_delta);
        if delta != self.delta {
            notices.push(format!(
                "δ = {} does not fit in a sequence of n = {} positions; using δ = {delta}.",
                self.delta, self.n
            ));
            self.delta = delta;
        }

        let pairs = self.d / 2;
        let max_pair = pairs.saturating_sub(1);
        if self.pair > max_pair {
            notices.push(format!(
                "Frequency pair j = {} does not exist for d = {}; using j = {max_pair}.",
                self.pair, self.d
            ));
            self.pair = max_pair;
        }

        let valid = self.valid_positions();
        if !valid.contains(&self.position) {
            // Silently follow δ and n: the highlighted position is a detail, not a setting.
            self.position = self
                .position
                .clamp(valid.start, valid.end.saturating_sub(1).max(valid.start));
        }

        let kept: Vec<usize> = self
            .columns
            .iter()
            .copied()
            .filter(|&c| c < self.d)
            .collect();
        if kept.len() != self.columns.len() {
            let dropped: Vec<String> = self
                .columns
                .iter()
                .filter(|&&c| c >= self.d)
                .map(|c| c.to_string())
                .collect();
            notices.push(format!(
                "Column(s) {} do not exist for d = {} (columns are 0…{}).",
                dropped.join(", "),
                self.d,
                self.d - 1
            ));
        }
        self.columns = if kept.is_empty() {
            default_columns(self.d)
        } else {
            kept
        };
        notices
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
