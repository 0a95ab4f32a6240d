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

/// "Shift the whole sentence by s = 100 positions: …", from the measured gaps.
pub fn shift_sentence(shift: usize, d: usize, gaps: &[(Encoding, f64)]) -> String {
    let group = |keep: &dyn Fn(f64) -> bool| -> Vec<String> {
        gaps.iter()
            .filter(|(_, gap)| keep(*gap))
            .map(|&(encoding, gap)| {
                if gap == 0.0 {
                    name(encoding).to_string()
                } else {
                    format!("{} {}", name(encoding), format_number(gap))
                }
            })
            .collect()
    };
    let exact = group(&|gap| gap == 0.0);
    let rounding = group(&|gap| gap > 0.0 && gap < ROUNDING);
    // NaN counts as changed: it is not a number that shows the weights unchanged.
    let changed = group(&|gap| gap >= ROUNDING || gap.is_nan());
    let mut parts = Vec::new();
    if !exact.is_empty() {
        parts.push(format!("exactly 0 for {}", exact.join(", ")));
    }
    if !rounding.is_empty() {
        parts.push(format!(
            "float32 rounding for {} (its scores depend on j − i; its rotations are rounded)",
            rounding.join(", ")
        ));
    }
    if !changed.is_empty() {
        parts.push(format!(
            "not 0 for {} (absolute positions: the weights change)",
            changed.join(", ")
        ));
    }
    format!(
        "Shift the whole sentence by s = {shift} positions (same tokens, same layer, d = {d}, no mask beyond the family's own): the largest change of any attention weight is {}.",
        parts.join("; ")
    )
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
        assert!(!wrong.contains("exactly 0"), "{wrong}");
    }
}
