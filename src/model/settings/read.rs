//! The readers of the panel settings whose link values are more than a number or a name: the
//! sentence (`text`), the mask (`valid`), the batch's lengths (`lens`) and the permutation
//! (`perm`). Each clamps what it reads and says so in a notice; the settings table's rows call
//! them (`table.rs`), the link reader (`query::settings_keys`) through the rows.

use crate::math::tokens::{count_tokens, MAX_TOKENS};
use crate::model::query::values::{parse_integer, shorten};
use crate::model::settings::*;

/// `text`: at most [`MAX_TEXT_CHARS`] characters, control characters as spaces; more than
/// [`MAX_TOKENS`] words are kept, with a notice that only the first are used.
pub(crate) fn read_text(settings: &mut PanelSettings, value: &str, notices: &mut Vec<String>) {
    let mut text: String = value.chars().take(MAX_TEXT_CHARS).collect();
    if text.len() < value.len() {
        notices.push(crate::message!(
            "notice-sentence-cut",
            limit = MAX_TEXT_CHARS
        ));
    }
    // No control characters in a field or a link.
    text = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let words = count_tokens(&text);
    if words > MAX_TOKENS {
        notices.push(crate::message!(
            "notice-sentence-too-long",
            words = words,
            limit = MAX_TOKENS
        ));
    }
    settings.text = text;
}

/// `valid`: empty or `all` for no mask; more than the tokens is no mask either, with a notice.
pub(crate) fn read_valid(settings: &mut PanelSettings, value: &str, notices: &mut Vec<String>) {
    let trimmed = value.trim();
    if trimmed.is_empty() || trimmed.eq_ignore_ascii_case("all") {
        settings.valid_len = None;
    } else if let Some(v) = parse_integer("valid_len", value, 0.0, MAX_TOKENS as f64, notices) {
        let tokens = settings.token_count();
        if v as usize > tokens {
            notices.push(crate::message!(
                "notice-valid-len-too-long",
                value = v.to_string(),
                tokens = tokens
            ));
            settings.valid_len = None;
        } else {
            settings.valid_len = Some(v as usize);
        }
    }
}

/// `lens`: two lengths such as `3,2`, each 0 … [`BATCH_SEQUENCE_LEN`].
pub(crate) fn read_lens(settings: &mut PanelSettings, value: &str, notices: &mut Vec<String>) {
    let parts: Vec<&str> = value
        .split([',', ' ', ';'])
        .filter(|s| !s.trim().is_empty())
        .collect();
    if parts.len() != 2 {
        notices.push(crate::message!(
            "notice-lens-invalid",
            value = shorten(value),
            first = settings.batch_lens[0],
            second = settings.batch_lens[1]
        ));
        return;
    }
    for (slot, part) in parts.iter().enumerate() {
        if let Some(v) = parse_integer(
            &format!("valid_lens[{slot}]"),
            part,
            0.0,
            BATCH_SEQUENCE_LEN as f64,
            notices,
        ) {
            settings.batch_lens[slot] = v as usize;
        }
    }
}

/// `perm`: `swap`, `none` (or `identity`, or nothing) or a shuffle's seed.
pub(crate) fn read_permutation(
    settings: &mut PanelSettings,
    value: &str,
    notices: &mut Vec<String>,
) {
    settings.permutation = match value.trim().to_ascii_lowercase().as_str() {
        "swap" => PermutationChoice::Swap,
        "none" | "identity" | "" => PermutationChoice::Identity,
        other => match other.parse::<u64>() {
            Ok(seed) => PermutationChoice::Shuffle(seed),
            Err(_) => {
                notices.push(crate::message!(
                    "notice-perm-invalid",
                    value = shorten(value),
                    kept = permutation_text(settings.permutation)
                ));
                settings.permutation
            }
        },
    };
}
