//! What a row says of itself for the page's markup and the docs: what the key does (`doc`, the
//! line of docs/links-and-keys.md's table of the panels' settings) and, for a slider, a checkbox or
//! a menu, its words (the label, its message id, a slider's numeric field's name, a menu's
//! options, the panel it belongs to). The build writes the control from them
//! (`scripts/page/assemble.mjs`, from `www/controls.json`) where the panel's section places the
//! row: `<div class="control" data-row="key"></div>` for a slider, `<label
//! data-row="key"></label>` for a checkbox, `<div class="control-inline" data-row="key"></div>`
//! for a menu. A row whose words name its panel ([`Setting::in_panel`]) and that no section places
//! goes last in that panel's `<div class="panel-controls">`, so that a setting needs no line of
//! markup. On wasm32 the builders drop what they are given: the page never reads it, and its text
//! would be part of the page's first load.

use super::row::Setting;
use crate::model::panels::PanelId;

/// A control's words in the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Words {
    /// The label's message id; `None` where the label's markup names its own messages.
    pub message: Option<&'static str>,
    /// The label's English markup.
    pub label: &'static str,
    /// A slider's numeric field's accessible name (the slider's is the label); empty otherwise.
    pub exact: &'static str,
    /// A menu's options, in order: (value, message id, English label) each; empty otherwise.
    pub options: &'static [(&'static str, &'static str, &'static str)],
    /// The panel whose controls the control ends, where no section places it; `None`: a section
    /// must place it.
    pub panel: Option<PanelId>,
}

impl<S> Setting<S> {
    /// What the key does, for the docs' table.
    pub const fn doc(self, doc: &'static str) -> Setting<S> {
        #[cfg(not(target_arch = "wasm32"))]
        return Setting { doc, ..self };
        #[cfg(target_arch = "wasm32")]
        {
            let _ = doc;
            self
        }
    }

    /// A slider's label (`label`, the message `message`) and its numeric field's name.
    pub const fn words(
        self,
        message: Option<&'static str>,
        label: &'static str,
        exact: &'static str,
    ) -> Setting<S> {
        self.with_words(Words {
            message,
            label,
            exact,
            options: &[],
            panel: None,
        })
    }

    /// A checkbox's label (`label`, the message `message`).
    pub const fn check_words(self, message: &'static str, label: &'static str) -> Setting<S> {
        self.words(Some(message), label, "")
    }

    /// A menu's label (`label`, the message `message`) and its options: (value, message id,
    /// English label) each, the values the row's names.
    pub const fn menu_words(
        self,
        message: &'static str,
        label: &'static str,
        options: &'static [(&'static str, &'static str, &'static str)],
    ) -> Setting<S> {
        self.with_words(Words {
            message: Some(message),
            label,
            exact: "",
            options,
            panel: None,
        })
    }

    /// The panel the control belongs to: the build puts it last in that panel's controls unless
    /// a section places it. After the words (a row without them has no control to place).
    pub const fn in_panel(self, panel: PanelId) -> Setting<S> {
        #[cfg(not(target_arch = "wasm32"))]
        match self.words {
            Some(words) => self.with_words(Words {
                panel: Some(panel),
                ..words
            }),
            None => panic!("in_panel: the row has no words yet"),
        }
        #[cfg(target_arch = "wasm32")]
        {
            let _ = panel;
            self
        }
    }

    /// A menu whose options come from the state (the heads that divide d, the sentence's tokens;
    /// the page fills them): its label (`label`, the message `message`, `None` where the label's
    /// markup names its own messages) and an empty list.
    pub const fn state_menu_words(
        self,
        message: Option<&'static str>,
        label: &'static str,
    ) -> Setting<S> {
        self.words(message, label, "")
    }

    const fn with_words(self, words: Words) -> Setting<S> {
        #[cfg(not(target_arch = "wasm32"))]
        return Setting {
            words: Some(words),
            ..self
        };
        #[cfg(target_arch = "wasm32")]
        {
            let _ = words;
            self
        }
    }
}
