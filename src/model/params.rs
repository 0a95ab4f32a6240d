//! The page's parameters: their limits, defaults, and how untrusted text (URL query values, numeric
//! fields, `peLab.set`) becomes a valid state. Every out-of-range or malformed value is clamped to a
//! working state and explained by a notice; nothing here panics or allocates without bound.

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

/// The URL/API names of the parameters, in the order they are written to a link (`textbook` and
/// `index` only when they are on).
pub const KEYS: [&str; 9] = [
    "d", "n", "base", "delta", "pair", "pos", "cols", "textbook", "index",
];

/// The long names `peLab.set` also accepts for some keys: (long name, key).
pub const LONG_NAMES: [(&str, &str); 3] = [
    ("position", "pos"),
    ("columns", "cols"),
    ("first_position", "index"),
];

/// Whether `key` names an encoding parameter: a key of [`KEYS`] or one of its [`LONG_NAMES`].
pub fn is_key(key: &str) -> bool {
    KEYS.contains(&key) || LONG_NAMES.iter().any(|(long, _)| *long == key)
}

impl Params {
    /// Parses `key=value` pairs (a URL query), starting from the defaults. Unknown keys are ignored
    /// (a course page may add its own). Returns the clamped state and one notice per correction.
    pub fn from_pairs<'a>(
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> (Params, Vec<String>) {
        Params::from_pairs_with(CPU_LIMITS, pairs)
    }

    /// [`Params::from_pairs`] under the given backend limits.
    pub fn from_pairs_with<'a>(
        limits: Limits,
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> (Params, Vec<String>) {
        let mut params = Params {
            limits,
            ..Params::default()
        };
        let mut notices = Vec::new();
        for (key, value) in pairs {
            params.apply(key, value, &mut notices);
        }
        notices.extend(params.clamp());
        (params, notices)
    }

    /// Applies one textual update and clamps the whole state. Unknown keys are reported.
    pub fn update(&mut self, key: &str, value: &str) -> Vec<String> {
        let mut notices = Vec::new();
        if !is_key(key) {
            notices.push(format!("Unknown parameter '{key}' ignored."));
            return notices;
        }
        self.apply(key, value, &mut notices);
        notices.extend(self.clamp());
        notices
    }

    fn apply(&mut self, key: &str, value: &str, notices: &mut Vec<String>) {
        match key {
            "d" => {
                let max = self.limits.d_max as f64;
                if let Some(v) = parse_integer(key, value, D_MIN as f64, max, notices) {
                    self.d = v as usize;
                }
            }
            "n" => {
                let max = self.limits.n_max as f64;
                if let Some(v) = parse_integer(key, value, N_MIN as f64, max, notices) {
                    self.n = v as usize;
                }
            }
            "base" => {
                if let Some(v) = parse_number(key, value, notices) {
                    let clamped = v.clamp(BASE_MIN, BASE_MAX);
                    if clamped != v {
                        notices.push(format!(
                            "base = {value} is outside {BASE_MIN}…{BASE_MAX:e}; using {clamped}."
                        ));
                    }
                    self.base = clamped;
                }
            }
            // δ, j and i depend on n and d: their range is enforced by `clamp`.
            "delta" => {
                let limit = self.limits.n_max as f64;
                if let Some(v) = parse_integer(key, value, -limit, limit, notices) {
                    self.delta = v as i64;
                }
            }
            "pair" => {
                if let Some(v) = parse_integer(key, value, 0.0, self.limits.d_max as f64, notices) {
                    self.pair = v as usize;
                }
            }
            "pos" | "position" => {
                if let Some(v) = parse_integer(key, value, 0.0, self.limits.n_max as f64, notices) {
                    self.position = v as usize;
                }
            }
            "cols" | "columns" => self.columns = parse_columns(value, notices),
            "textbook" => {
                if let Some(on) = parse_switch(key, value, notices) {
                    self.textbook = on;
                }
            }
            "index" | "first_position" => {
                if let Some(v) = parse_integer("index", value, 0.0, 1.0, notices) {
                    self.first_position = v as usize;
                }
            }
            _ => {}
        }
    }

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

    /// The state as a URL query string (without the leading `?`), so that a link reproduces the view.
    pub fn to_query(&self) -> String {
        let columns: Vec<String> = self.columns.iter().map(|c| c.to_string()).collect();
        let mut query = format!(
            "d={}&n={}&base={}&delta={}&pair={}&pos={}&cols={}",
            self.d,
            self.n,
            format_base(self.base),
            self.delta,
            self.pair,
            self.position,
            columns.join(",")
        );
        if self.textbook {
            query.push_str("&textbook=1");
        }
        if self.first_position != 0 {
            query.push_str(&format!("&index={}", self.first_position));
        }
        query
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

fn parse_number(key: &str, value: &str, notices: &mut Vec<String>) -> Option<f64> {
    match value.trim().parse::<f64>() {
        Ok(v) if v.is_finite() => Some(v),
        _ => {
            notices.push(format!(
                "{key} = '{}' is not a finite number; keeping {key} unchanged.",
                shorten(value)
            ));
            None
        }
    }
}

pub(crate) fn parse_integer(
    key: &str,
    value: &str,
    min: f64,
    max: f64,
    notices: &mut Vec<String>,
) -> Option<f64> {
    let v = parse_number(key, value, notices)?;
    let mut r = v.round();
    if r != v {
        notices.push(format!(
            "{key} = {} is not a whole number; using {r}.",
            shorten(value)
        ));
    }
    if r < min || r > max {
        // `max.max(min)`: a range emptied by another setting (heads up to d = 0) clamps to `min`
        // instead of panicking.
        let clamped = r.clamp(min, max.max(min));
        notices.push(format!(
            "{key} = {} is outside {min}…{max}; using {key} = {clamped}.",
            shorten(value)
        ));
        r = clamped;
    }
    Some(r)
}

/// `1`, `true`, `on`, `yes` or `0`, `false`, `off`, `no`, empty; anything else: a notice.
fn parse_switch(key: &str, value: &str, notices: &mut Vec<String>) -> Option<bool> {
    match value.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "on" | "yes" => Some(true),
        "0" | "false" | "off" | "no" | "" => Some(false),
        _ => {
            notices.push(format!(
                "{key} = '{}' is not 0 or 1; keeping {key} unchanged.",
                shorten(value)
            ));
            None
        }
    }
}

fn parse_columns(value: &str, notices: &mut Vec<String>) -> Vec<usize> {
    let mut columns = Vec::new();
    for part in value
        .split([',', ' ', ';'])
        .filter(|s| !s.trim().is_empty())
    {
        match part.trim().parse::<usize>() {
            Ok(c) if c < WIDEST_LIMITS.d_max => {
                if !columns.contains(&c) {
                    columns.push(c);
                }
            }
            _ => notices.push(format!(
                "Column '{}' is not a column index; ignored.",
                shorten(part)
            )),
        }
    }
    if columns.len() > MAX_CURVES {
        notices.push(format!(
            "At most {MAX_CURVES} curves are drawn; keeping the first {MAX_CURVES}."
        ));
        columns.truncate(MAX_CURVES);
    }
    columns
}

/// Untrusted text (a link's value, a key, a preset name) is echoed in notices by this one rule:
/// at most 24 characters, then "…"; control characters (a newline, a tab) become spaces, so a
/// notice stays one line.
pub fn shorten(value: &str) -> String {
    const LIMIT: usize = 24;
    let visible = |c: char| if c.is_control() { ' ' } else { c };
    let prefix: String = value.chars().take(LIMIT).map(visible).collect();
    if value.chars().nth(LIMIT).is_some() {
        format!("{prefix}…")
    } else {
        prefix
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn untrusted_text_is_shortened_to_one_line() {
        assert_eq!(shorten("abc"), "abc");
        assert_eq!(shorten("a\nb\tc"), "a b c");
        let long = "x".repeat(30);
        assert_eq!(shorten(&long), format!("{}…", "x".repeat(24)));
        assert_eq!(shorten(&"y".repeat(24)), "y".repeat(24));
    }

    fn parse(query: &str) -> (Params, Vec<String>) {
        Params::from_pairs(query.split('&').filter_map(|kv| kv.split_once('=')))
    }

    #[test]
    fn defaults_are_the_chapter_figure() {
        let (p, notices) = parse("");
        assert_eq!(p, Params::default());
        assert!(notices.is_empty());
        assert_eq!(
            p.to_query(),
            "d=32&n=60&base=10000&delta=1&pair=3&pos=0&cols=6,7,8,9"
        );
    }

    #[test]
    fn a_link_round_trips() {
        let (p, _) = parse("d=33&n=7&base=250&delta=-3&pair=5&pos=4&cols=0,1,32");
        let (q, notices) = parse(&p.to_query());
        assert_eq!(p, q);
        assert!(notices.is_empty(), "{notices:?}");
        assert_eq!(
            (p.d, p.n, p.base, p.delta, p.pair, p.position),
            (33, 7, 250.0, -3, 5, 4)
        );
    }

    #[test]
    fn bad_values_are_clamped_with_a_notice() {
        for (query, check) in [
            ("d=0", (|p: &Params| p.d == 1) as fn(&Params) -> bool),
            ("d=99999999", |p| p.d == D_MAX),
            ("n=-5", |p| p.n == 1),
            ("base=abc", |p| p.base == DEFAULT_BASE),
            ("base=1", |p| p.base == BASE_MIN),
            ("base=1e300", |p| p.base == BASE_MAX),
            ("base=inf", |p| p.base == DEFAULT_BASE),
            ("delta=NaN", |p| p.delta == DEFAULT_DELTA),
            ("delta=500", |p| p.delta == 59),
            ("d=2.5", |p| p.d == 3),
            ("cols=x,1000,5", |p| p.columns == vec![5]),
        ] {
            let (p, notices) = parse(query);
            assert!(check(&p), "{query}: {p:?}");
            assert!(!notices.is_empty(), "{query} gave no notice");
        }
    }

    #[test]
    fn dependent_values_follow_n_and_d() {
        let (p, notices) = parse("n=1&delta=5&d=1");
        assert_eq!((p.n, p.delta, p.position, p.pair), (1, 0, 0, 0));
        assert_eq!(p.columns, vec![0]);
        assert!(!p.has_complete_pair());
        assert!(notices.iter().any(|n| n.contains("δ")));
        let (p, _) = parse("d=8");
        assert_eq!(p.columns, vec![6, 7]);
        assert_eq!(p.pair, 3);
        let (p, _) = parse("d=4");
        assert_eq!(p.columns, vec![0, 1, 2, 3]);
        assert_eq!(p.pair, 1);
        let (p, _) = parse("n=10&delta=-4&pos=1");
        assert_eq!(p.position, 4, "i + δ must be a position");
    }

    #[test]
    fn updates_clamp_and_report_unknown_keys() {
        let mut p = Params::default();
        assert!(p.update("n", "5").is_empty());
        assert_eq!(p.n, 5);
        assert!(!p.update("colour", "red").is_empty());
        assert!(p.update("base", "2").is_empty());
        assert_eq!(p.base, 2.0);
    }

    #[test]
    fn limits_follow_the_backend() {
        let (p, notices) = Params::from_pairs_with(GPU_LIMITS, [("n", "4096"), ("d", "2048")]);
        assert_eq!((p.n, p.d), (4096, 2048));
        assert!(notices.is_empty());
        let (p, _) = Params::from_pairs_with(GPU_LIMITS, [("n", "99999")]);
        assert_eq!(p.n, 4096);
        let mut p = p;
        let notices = p.set_limits(CPU_LIMITS);
        assert_eq!(p.n, CPU_LIMITS.n_max);
        assert!(
            notices
                .iter()
                .any(|m| m.contains("up to d = 1024, n = 2048")),
            "{notices:?}"
        );
        assert!(p.set_limits(GPU_LIMITS).is_empty());
        assert_eq!(p.n, CPU_LIMITS.n_max, "widening the limits changes nothing");
    }

    #[test]
    fn slider_base_lands_on_round_numbers() {
        assert_eq!(base_from_slider(4.0), 10000.0);
        assert_eq!(base_from_slider(slider_from_base(10000.0)), 10000.0);
        assert_eq!(base_from_slider(0.0), BASE_MIN);
        assert_eq!(base_from_slider(9.0), BASE_MAX);
        assert_eq!(base_from_slider(2.5), 316.0);
        assert_eq!(format_base(316.0), "316");
    }

    #[test]
    fn textbook_and_index_are_switches_written_only_when_on() {
        let (p, notices) = parse("textbook=1&index=1");
        assert!(notices.is_empty(), "{notices:?}");
        assert!(p.textbook);
        assert_eq!(p.first_position, 1);
        assert!(p.to_query().ends_with("&textbook=1&index=1"));
        let (q, _) = parse(&p.to_query());
        assert_eq!(p, q);
        assert!(!Params::default().to_query().contains("textbook"));
        assert!(!Params::default().to_query().contains("index"));
        for (query, textbook, first) in [
            ("textbook=true", true, 0),
            ("textbook=0", false, 0),
            ("textbook=maybe", false, 0),
            ("index=0", false, 0),
            ("index=2", false, 1),
            ("index=-1", false, 0),
            ("index=x", false, 0),
            ("first_position=1", false, 1),
        ] {
            let (p, _) = parse(query);
            assert_eq!((p.textbook, p.first_position), (textbook, first), "{query}");
        }
        assert!(!parse("textbook=maybe").1.is_empty());
        assert!(!parse("index=2").1.is_empty());
        assert!(is_key("textbook") && is_key("index") && is_key("first_position"));
        assert!(!is_key("first"));
    }

    #[test]
    fn one_based_positions_shift_the_highlighted_position() {
        // With index=1 the rows are positions 1…n, and `pos` is a position, not a row.
        let (p, _) = parse("index=1&n=10&delta=3");
        assert_eq!(p.positions(), 1..11);
        assert_eq!(p.valid_positions(), 1..8);
        assert_eq!(
            p.position, 1,
            "position 0 does not exist: the first one is used"
        );
        assert_eq!(p.position_row(), 0);
        let (p, _) = parse("index=1&n=10&delta=-3&pos=10");
        assert_eq!((p.position, p.position_row()), (10, 9));
        let (p, _) = parse("n=10&delta=-3&pos=10");
        assert_eq!(p.position, 9, "0-based: position 10 is not a row of n = 10");
        assert_eq!(Params::default().valid_positions(), 0..59);
    }

    #[test]
    fn long_garbage_is_shortened_in_notices() {
        let garbage = "x".repeat(10_000);
        let (_, notices) = parse(&format!("base={garbage}"));
        assert!(notices[0].len() < 120);
    }
}
