//! What the order panel says about shifting the whole sentence (the chapter's exercise 3): the
//! sentence is built from the measured gaps, so a family is called unchanged only when its
//! number is. The sentences are messages of `locales/computed` (`readout-order-…`). Tested
//! natively; the view (`view.rs`) measures the gaps, draws and wires.

use crate::math::position::Encoding;
use crate::model::present::format_number;
use crate::model::query::values::UrlName;

pub mod takeaway;
#[cfg(target_arch = "wasm32")]
mod view;
#[cfg(target_arch = "wasm32")]
pub use view::mount;

/// The shift gap of every family (kept between frames in `web::panels::Caches`).
pub type FamilyGaps = Vec<(Encoding, f64)>;

/// The per-row equivariance gaps without P and with P, and the largest |Y(X)| without P (kept
/// between frames in `web::panels::Caches`).
pub type Gaps = (Vec<f64>, Vec<f64>, f64);

/// How far the order panel shifts the sentence.
pub const SHIFT: usize = 100;
/// Below this, a gap is float32 rounding (the weights are at most 1).
pub const ROUNDING: f64 = 1e-5;

/// The family's name in the sentence.
fn name(encoding: Encoding) -> String {
    crate::message!("label-order-family", family = encoding.to_query())
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
    let separator = crate::message!("label-order-list-separator");
    let listed = |keep: &dyn Fn(Encoding, f64) -> bool, with_number: bool| -> String {
        gaps.iter()
            .filter(|&&(encoding, gap)| keep(encoding, gap))
            .map(|&(encoding, gap)| {
                if with_number {
                    format!("{} {}", name(encoding), format_number(gap))
                } else {
                    name(encoding)
                }
            })
            .collect::<Vec<_>>()
            .join(&separator)
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
        parts.push(crate::message!(
            "readout-order-shift-exact",
            families = exact
        ));
    }
    if !rounding.is_empty() {
        parts.push(crate::message!(
            "readout-order-shift-rounding",
            families = rounding
        ));
    }
    if !relative_changed.is_empty() {
        parts.push(crate::message!(
            "readout-order-shift-relative-changed",
            families = relative_changed
        ));
    }
    if !absolute_changed.is_empty() {
        parts.push(crate::message!(
            "readout-order-shift-absolute-changed",
            families = absolute_changed
        ));
    }
    crate::message!(
        "readout-order-shift",
        shift = shift,
        d = d,
        parts = parts.join(&crate::message!("readout-order-shift-separator"))
    )
}

/// The order panel's sentence on a masked layer without P: it claims non-equivariance only when
/// the measured gap shows it.
pub fn masked_sentence(masked_valid_len: usize, gap: f64, alibi: bool) -> String {
    let measured = if gap >= ROUNDING {
        crate::message!(
            "readout-order-masked-not-equivariant",
            valid_len = masked_valid_len,
            gap = format_number(gap)
        )
    } else {
        crate::message!(
            "readout-order-masked-cannot-show",
            valid_len = masked_valid_len,
            gap = format_number(gap)
        )
    };
    let alibi_note = if alibi {
        crate::message!("readout-order-masked-alibi")
    } else {
        String::new()
    };
    crate::message!(
        "readout-order-masked",
        measured = measured,
        alibi = alibi_note
    )
}

/// The family of the "with" gaps, as the read-out names it, in the page's language.
pub fn family_label(family: Encoding) -> String {
    crate::message!("label-order-family-with", family = family.to_query())
}

/// The float32 unit roundoff u = 2⁻²⁴: one rounding of a float32 operation is within a relative
/// u of the exact result.
pub const F32_UNIT_ROUNDOFF: f64 = 5.960_464_477_539_063e-8;

/// How far apart float32 rounding alone can put Y(πX) and πY(X), for a layer over `keys` tokens
/// of width `d` whose outputs are at most `scale` in size. Without P the two are the same sums of
/// the same terms, taken in another order: the softmax's sum and the weighted sum of the values
/// run over the `keys` keys in the permuted order, and W_o's products then add `d` such numbers.
/// A float32 sum of m terms is within γ_m = m·u/(1 − m·u) of the exact one, relative to the sum
/// of the terms' sizes (the standard bound), so the two orders differ by at most 2γ_(keys+d)
/// times that size; the terms' sizes are taken as the output's (the weights sum to 1). Gaps below
/// this are rounding and drawn as 0; with P the gaps are many orders of magnitude larger.
pub fn rounding_bound(keys: usize, d: usize, scale: f64) -> f64 {
    let m = (keys + d) as f64 * F32_UNIT_ROUNDOFF;
    let gamma = m / (1.0 - m).max(f64::MIN_POSITIVE);
    2.0 * gamma * scale.abs().max(1.0)
}

/// Whether a measured gap is float32 rounding under `bound` (0 and NaN-free).
pub fn is_rounding(gap: f64, bound: f64) -> bool {
    gap <= bound
}

/// A sentence's tokens on one line, for the order panel's X and πX.
pub fn token_line(tokens: &[String]) -> String {
    if tokens.is_empty() {
        crate::message!("label-order-no-tokens")
    } else {
        tokens.join(" ")
    }
}

/// What the permutation does, and why both gaps are 0 when it moves nothing.
pub fn permutation_sentence(description: &str, moves: bool, tokens: usize) -> String {
    let nothing_moved = if moves || tokens < 2 {
        String::new()
    } else {
        crate::message!("readout-order-permutation-nothing-moved")
    };
    crate::message!(
        "readout-order-permutation",
        description = description,
        nothing = nothing_moved
    )
}

/// The largest gap without positions: exactly 0 said as such, since that is the point.
pub fn gap_without_position(gap: f64) -> String {
    if gap == 0.0 {
        crate::message!("readout-order-gap-exactly-zero")
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
    fn the_rounding_bound_separates_rounding_from_the_effect() {
        use crate::math::layer::{ProjectionMode, Projections};
        use crate::math::measures::row_gaps_projected;
        use crate::math::position::{Encoding, PositionScheme};
        // Real layers: the seeds' sentence and a longer one, every projection mode, a small,
        // the default and a large d, the seeds' swap and a reversal. Without P every gap is below
        // the bound (found 20 to 100 times below it); with P every largest gap is far above.
        let sentences = [
            "I would like 3 oranges and 4 bananas",
            "the cat sat on the mat while the dog slept by the door at night",
        ];
        for text in sentences {
            let tokens: Vec<String> = text.split(' ').map(String::from).collect();
            let n = tokens.len();
            let swap: Vec<usize> = {
                let mut p: Vec<usize> = (0..n).collect();
                p.swap(3, 6);
                p
            };
            let reverse: Vec<usize> = (0..n).rev().collect();
            for d in [4, 32, 256] {
                for mode in [
                    ProjectionMode::Random,
                    ProjectionMode::Identity,
                    ProjectionMode::Offset,
                ] {
                    let layer = Projections::of_mode(mode, d, 7, 10000.0, 1, 1.0);
                    let with = PositionScheme::new(Encoding::Sinusoidal, 10000.0, 7);
                    let without = PositionScheme {
                        encoding: Encoding::None,
                        ..with
                    };
                    for perm in [&swap, &reverse] {
                        let plain =
                            row_gaps_projected(&tokens, perm, d, false, &without, Some(&layer))
                                .unwrap();
                        let placed =
                            row_gaps_projected(&tokens, perm, d, false, &with, Some(&layer))
                                .unwrap();
                        let bound = rounding_bound(n, d, 1.0);
                        let worst = plain.iter().copied().fold(0.0, f64::max);
                        let effect = placed.iter().copied().fold(0.0, f64::max);
                        assert!(
                            worst <= bound,
                            "{text} d={d} {mode:?}: rounding {worst:e} > {bound:e}"
                        );
                        assert!(
                            effect > 100.0 * bound,
                            "{text} d={d} {mode:?}: effect {effect:e} vs {bound:e}"
                        );
                    }
                }
            }
        }
        // The bound grows with the sums' length and the values' size.
        assert!(rounding_bound(8, 32, 1.0) < rounding_bound(8, 1024, 1.0));
        assert!(rounding_bound(8, 32, 1.0) < rounding_bound(8, 32, 10.0));
        // Outputs smaller than 1 keep the bound of size 1 (the sums' terms are not smaller).
        let small = rounding_bound(8, 32, 0.5) / (2.0 * 40.0 * F32_UNIT_ROUNDOFF);
        assert!((small - 1.0).abs() < 1e-4, "{small}");
        assert_eq!(F32_UNIT_ROUNDOFF, f64::from(f32::EPSILON) / 2.0);
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
        assert_eq!(family_label(Encoding::Alibi), "ALiBi (causal)");
        assert_eq!(family_label(Encoding::Sinusoidal), "P");
    }
}
