//! What the order panel says about shifting the whole sentence (the chapter's exercise 3): the
//! sentence is built from the measured gaps, so a family is called unchanged only when its
//! number is.

use super::present::format_number;
use crate::math::position::Encoding;

/// How far the order panel shifts the sentence.
pub const SHIFT: usize = 100;
/// Below this, a gap is float32 rounding (the weights are at most 1).
pub const ROUNDING: f64 = 1e-5;

/// The family's name in the sentence.
fn name(encoding: Encoding) -> &'static str {
    match encoding {
        Encoding::Sinusoidal => "added P",
        Encoding::Learned => "a learned table",
        Encoding::Rope => "RoPE",
        Encoding::Alibi => "ALiBi",
        Encoding::T5 => "T5's buckets",
        Encoding::Shaw => "Shaw's relative embeddings",
        Encoding::None => "no position",
    }
}

/// Whether the family reads absolute positions (its weights depend on where the sentence starts).
fn absolute(encoding: Encoding) -> bool {
    matches!(encoding, Encoding::Sinusoidal | Encoding::Learned)
}

/// "Shift the whole sentence by s = 100 positions: …", from the measured gaps. A family is said
/// to be unchanged only when its gap is exactly 0; rounding is named only for a relative family
/// (RoPE) whose gap is that small; an absolute family is never called rounding, however small its
/// gap (weights near 0 or 1 change little).
pub fn shift_sentence(shift: usize, d: usize, gaps: &[(Encoding, f64)]) -> String {
    let listed = |keep: &dyn Fn(Encoding, f64) -> bool, with_number: bool| -> Vec<String> {
        gaps.iter()
            .filter(|&&(encoding, gap)| keep(encoding, gap))
            .map(|&(encoding, gap)| {
                if with_number {
                    format!("{} {}", name(encoding), format_number(gap))
                } else {
                    name(encoding).to_string()
                }
            })
            .collect()
    };
    let exact = listed(&|_, gap| gap == 0.0, false);
    let rounding = listed(
        &|encoding, gap| !absolute(encoding) && gap > 0.0 && gap < ROUNDING,
        true,
    );
    let relative_changed = listed(
        &|encoding, gap| !absolute(encoding) && (gap >= ROUNDING || gap.is_nan()),
        true,
    );
    let absolute_changed = listed(&|encoding, gap| absolute(encoding) && gap != 0.0, true);
    let mut parts = Vec::new();
    if !exact.is_empty() {
        parts.push(format!("exactly 0 for {}", exact.join(", ")));
    }
    if !rounding.is_empty() {
        parts.push(format!(
            "float32 rounding for {} (its scores depend on j − i only; its rotations are rounded)",
            rounding.join(", ")
        ));
    }
    if !relative_changed.is_empty() {
        parts.push(format!(
            "{} for {} (more than rounding: these weights moved)",
            "not 0",
            relative_changed.join(", ")
        ));
    }
    if !absolute_changed.is_empty() {
        parts.push(format!(
            "not 0 for {} (absolute positions: the weights depend on where the sentence starts; a small number means weights already near 0 or 1)",
            absolute_changed.join(", ")
        ));
    }
    format!(
        "Shift the whole sentence by s = {shift} positions (same tokens, same layer, d = {d}, no mask beyond the family's own): the largest change of any attention weight is {}.",
        parts.join("; ")
    )
}

/// The order panel's sentence on a masked layer without P: it claims non-equivariance only when
/// the measured gap shows it.
pub fn masked_sentence(masked_valid_len: usize, gap: f64, alibi: bool) -> String {
    let measured = if gap >= ROUNDING {
        format!(
            "With a mask (keys ≥ {masked_valid_len} masked) and no P the gap is {}: which keys a query may see is decided by position, so the masked layer is not equivariant.",
            format_number(gap)
        )
    } else {
        format!(
            "With a mask (keys ≥ {masked_valid_len} masked) and no P the gap is {} for this permutation: it moves no token across the mask's boundary, so it cannot show that the masked layer is not equivariant; a permutation that does would.",
            format_number(gap)
        )
    };
    let alibi_note = if alibi {
        " Except ALiBi's own: ALiBi is defined with a causal mask and its gap above includes it; the causal mask alone, with no position at all, already breaks equivariance (query i sees keys 0…i only), so that number is not ALiBi's bias alone. The shift test below separates them."
    } else {
        ""
    };
    format!("{measured} That is why this panel computes without a mask.{alibi_note}")
}

/// The family of the "with" gaps, as the read-out names it.
pub fn family_name(family: Encoding) -> &'static str {
    match family {
        Encoding::Rope => "RoPE",
        Encoding::Alibi => "ALiBi (causal)",
        Encoding::T5 => "T5 buckets",
        Encoding::Shaw => "Shaw's relative embeddings",
        Encoding::Learned => "a learned table E",
        _ => "P",
    }
}

/// A sentence's tokens on one line, for the order panel's X and πX.
pub fn token_line(tokens: &[String]) -> String {
    if tokens.is_empty() {
        "(no tokens)".into()
    } else {
        tokens.join(" ")
    }
}

/// What the permutation does, and why both gaps are 0 when it moves nothing.
pub fn permutation_sentence(description: &str, moves: bool, tokens: usize) -> String {
    let nothing_moved = if moves || tokens < 2 {
        ""
    } else {
        " — nothing moved, so both numbers are 0"
    };
    format!("Permutation: {description}{nothing_moved}")
}

/// The largest gap without positions: exactly 0 said as such, since that is the point.
pub fn gap_without_position(gap: f64) -> String {
    if gap == 0.0 {
        "0 (exactly)".to_string()
    } else {
        format!("{gap:.2e}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sentence_groups_the_families_by_their_numbers() {
        let text = shift_sentence(
            100,
            32,
            &[
                (Encoding::Sinusoidal, 0.25),
                (Encoding::Rope, 3e-7),
                (Encoding::Alibi, 0.0),
                (Encoding::T5, 0.0),
            ],
        );
        assert!(text.contains("exactly 0 for ALiBi, T5's buckets"), "{text}");
        assert!(text.contains("float32 rounding for RoPE 3.00e-7"), "{text}");
        assert!(text.contains("added P 0.2500"), "{text}");
        // A relative family whose gap were not 0 would be listed as changed, not as unchanged.
        let wrong = shift_sentence(100, 32, &[(Encoding::Alibi, 0.5)]);
        assert!(
            !wrong.contains("exactly 0") && wrong.contains("not 0 for ALiBi"),
            "{wrong}"
        );
        // An absolute family with a tiny gap is not called rounding.
        let saturated = shift_sentence(100, 32, &[(Encoding::Learned, 5.6e-11)]);
        assert!(
            !saturated.contains("rounding") && saturated.contains("not 0 for a learned table"),
            "{saturated}"
        );
    }

    #[test]
    fn the_mask_sentence_claims_only_what_its_gap_shows() {
        assert!(masked_sentence(6, 0.9, false).contains("is not equivariant"));
        let zero = masked_sentence(1, 0.0, false);
        assert!(
            zero.contains("cannot show")
                && !zero.contains("so the masked layer is not equivariant"),
            "{zero}"
        );
        assert!(masked_sentence(6, 0.9, true).contains("ALiBi's own"));
    }

    #[test]
    fn the_permutation_read_outs_say_what_moved() {
        assert_eq!(
            permutation_sentence("swap 3 and 4", true, 5),
            "Permutation: swap 3 and 4"
        );
        assert_eq!(
            permutation_sentence("none", false, 5),
            "Permutation: none — nothing moved, so both numbers are 0"
        );
        assert_eq!(permutation_sentence("none", false, 1), "Permutation: none");
        assert_eq!(token_line(&[]), "(no tokens)");
        assert_eq!(token_line(&["a".into(), "b".into()]), "a b");
        assert_eq!(gap_without_position(0.0), "0 (exactly)");
        assert_eq!(gap_without_position(1.5e-7), "1.50e-7");
        assert_eq!(family_name(Encoding::Alibi), "ALiBi (causal)");
        assert_eq!(family_name(Encoding::Sinusoidal), "P");
    }
}
