//! How values are spelled in a link, and how untrusted text becomes a number, a switch or a
//! name: the rules every key of [`super`] shares. A malformed value keeps the setting it would
//! have changed and explains why in a notice; nothing here panics or allocates without bound.

use crate::math::layer::ProjectionMode;
use crate::math::position::Encoding;
use crate::math::stacking::PositionInjection;

/// A setting chosen by name in a link (`enc=rope`, `proj=offset`, `theme=dark`, …): its one
/// spelling when written, and the spellings accepted when read.
pub trait UrlName: Sized + Copy {
    /// The name written to a link.
    fn to_query(self) -> &'static str;
    /// Reads a name (case and surrounding spaces ignored; a few common spellings too).
    fn from_query(text: &str) -> Option<Self>;
}

impl UrlName for Encoding {
    fn to_query(self) -> &'static str {
        match self {
            Encoding::Sinusoidal => "sinusoidal",
            Encoding::Rope => "rope",
            Encoding::Alibi => "alibi",
            Encoding::T5 => "t5",
            Encoding::Shaw => "shaw",
            Encoding::Learned => "learned",
            Encoding::None => "none",
        }
    }

    fn from_query(text: &str) -> Option<Encoding> {
        match text.trim().to_ascii_lowercase().as_str() {
            "sinusoidal" | "sin" | "sine" | "absolute" => Some(Encoding::Sinusoidal),
            "rope" | "rotary" => Some(Encoding::Rope),
            "alibi" => Some(Encoding::Alibi),
            "t5" => Some(Encoding::T5),
            "shaw" | "relative" => Some(Encoding::Shaw),
            "learned" | "learnt" => Some(Encoding::Learned),
            "none" | "nope" | "off" => Some(Encoding::None),
            _ => None,
        }
    }
}

impl UrlName for ProjectionMode {
    fn to_query(self) -> &'static str {
        match self {
            ProjectionMode::Random => "random",
            ProjectionMode::Identity => "identity",
            ProjectionMode::Offset => "offset",
        }
    }

    fn from_query(text: &str) -> Option<Self> {
        match text.trim().to_ascii_lowercase().as_str() {
            "random" => Some(ProjectionMode::Random),
            "identity" | "none" => Some(ProjectionMode::Identity),
            "offset" => Some(ProjectionMode::Offset),
            _ => None,
        }
    }
}

impl UrlName for PositionInjection {
    fn to_query(self) -> &'static str {
        match self {
            PositionInjection::Once => "once",
            PositionInjection::EveryLayer => "every",
            PositionInjection::None => "none",
        }
    }

    fn from_query(text: &str) -> Option<Self> {
        match text.trim().to_ascii_lowercase().as_str() {
            "once" | "input" => Some(PositionInjection::Once),
            "every" | "each" | "layer" => Some(PositionInjection::EveryLayer),
            "none" | "off" => Some(PositionInjection::None),
            _ => None,
        }
    }
}

pub fn parse_number(key: &str, value: &str, notices: &mut Vec<String>) -> Option<f64> {
    match crate::model::decimal::parse_decimal(value.trim()) {
        Some(v) => Some(v),
        None => {
            notices.push(crate::message!(
                "notice-not-a-finite-number",
                key = key,
                value = shorten(value)
            ));
            None
        }
    }
}

pub fn parse_integer(
    key: &str,
    value: &str,
    min: f64,
    max: f64,
    notices: &mut Vec<String>,
) -> Option<f64> {
    let v = parse_number(key, value, notices)?;
    let mut r = v.round();
    if r != v {
        notices.push(crate::message!(
            "notice-not-a-whole-number",
            key = key,
            value = shorten(value),
            used = r.to_string()
        ));
    }
    if r < min || r > max {
        // `max.max(min)`: a range emptied by another setting (heads up to d = 0) clamps to `min`
        // instead of panicking.
        let clamped = r.clamp(min, max.max(min));
        notices.push(crate::message!(
            "notice-integer-outside",
            key = key,
            value = shorten(value),
            min = min.to_string(),
            max = max.to_string(),
            used = clamped.to_string()
        ));
        r = clamped;
    }
    Some(r)
}

/// `1`, `true`, `on`, `yes` or `0`, `false`, `off`, `no` (an empty value is off); anything else:
/// a notice.
pub fn parse_switch(key: &str, value: &str, notices: &mut Vec<String>) -> Option<bool> {
    match value.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "on" | "yes" => Some(true),
        "0" | "false" | "off" | "no" | "" => Some(false),
        _ => {
            notices.push(crate::message!(
                "notice-not-a-switch",
                key = key,
                value = shorten(value)
            ));
            None
        }
    }
}

/// A switch as a link writes it.
pub fn switch_text(on: bool) -> &'static str {
    if on {
        "1"
    } else {
        "0"
    }
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
    fn every_name_reads_back() {
        for e in Encoding::ALL {
            assert_eq!(Encoding::from_query(e.to_query()), Some(e));
        }
        assert_eq!(Encoding::from_query(" RoPE "), Some(Encoding::Rope));
        assert_eq!(Encoding::from_query("xpos"), None);
        for mode in [
            ProjectionMode::Random,
            ProjectionMode::Identity,
            ProjectionMode::Offset,
        ] {
            assert_eq!(ProjectionMode::from_query(mode.to_query()), Some(mode));
        }
        assert_eq!(ProjectionMode::from_query("x"), None);
        for injection in [
            PositionInjection::Once,
            PositionInjection::EveryLayer,
            PositionInjection::None,
        ] {
            assert_eq!(
                PositionInjection::from_query(injection.to_query()),
                Some(injection)
            );
        }
    }

    #[test]
    fn switches_read_every_spelling() {
        let mut notices = Vec::new();
        for on in ["1", "true", "ON", " yes "] {
            assert_eq!(parse_switch("pe", on, &mut notices), Some(true));
        }
        for off in ["0", "false", "off", "no", ""] {
            assert_eq!(parse_switch("pe", off, &mut notices), Some(false));
        }
        assert!(notices.is_empty());
        assert_eq!(parse_switch("pe", "maybe", &mut notices), None);
        assert_eq!(notices.len(), 1);
    }
}
