//! How the page looks: the theme, projector mode and the lesson section shown. Their link keys
//! (`theme`, `present`) are rows of `query::view_keys`.

use super::panels::PanelId;
use super::query::values::UrlName;

/// The colour theme: `?theme=auto|light|dark`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Theme {
    /// Follow the system's light or dark setting.
    #[default]
    Auto,
    Light,
    Dark,
}

/// The script in index.html's head applies `theme` before the first paint by the same rules
/// (checked: tests/e2e/layout.test.mjs, "the link's theme and projector mode apply before…").
impl UrlName for Theme {
    fn to_query(self) -> &'static str {
        match self {
            Theme::Auto => "auto",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }

    fn from_query(text: &str) -> Option<Self> {
        match text.trim() {
            "auto" | "" => Some(Theme::Auto),
            "light" => Some(Theme::Light),
            "dark" => Some(Theme::Dark),
            _ => None,
        }
    }
}

/// How the page looks: theme, projector mode and the section of the lesson path being shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ViewSettings {
    pub theme: Theme,
    /// Projector mode: large type and thick lines.
    pub present: bool,
    /// The stop of the lesson path ([`LESSON`](super::panels::LESSON)) last gone to: the address bar's `#panel-<name>`,
    /// not a key of the query.
    pub section: Option<PanelId>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_theme_reads_back_its_link_name() {
        for theme in [Theme::Auto, Theme::Light, Theme::Dark] {
            assert_eq!(Theme::from_query(theme.to_query()), Some(theme));
        }
    }
}
