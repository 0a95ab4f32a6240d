//! The rope panel's takeaway: it first answers the panel's question, then states the figure's
//! conclusion with the live numbers that show it, computed from the panel's own stats so that it
//! cannot disagree with its read-outs. Tested natively; the view writes it above its "More".

use super::RopeStats;
use crate::model::present::format_number;

/// Shift residuals this far below the largest float32 one are rounding of float64 itself: the
/// float64 curve sits ~1e-9 below float32's on the chart, a real dependence on the position
/// would lift both alike.
const ROUNDING_SHARE: f64 = 1e-3;

/// RoPE: what the main chart (the shift residual against Δ) shows: in float64 the score does not
/// change when both positions move by Δ (it depends on the offset only); float32's rounding of
/// the angles grows with Δ. Every number is a point of the chart's two curves.
pub fn takeaway(stats: &RopeStats) -> String {
    if stats.d < 2 {
        return crate::message!("takeaway-rope-no-pair", d = stats.d.max(1));
    }
    let largest = |curve: &[(u64, f64)]| curve.iter().map(|p| p.1).fold(0.0, f64::max);
    let (f64_max, f32_max) = (
        largest(&stats.shift_residual_f64_curve),
        largest(&stats.shift_residual_f32),
    );
    let (Some(&(first_shift, f32_first)), Some(&(last_shift, f32_last))) = (
        stats.shift_residual_f32.first(),
        stats.shift_residual_f32.last(),
    ) else {
        return crate::message!("takeaway-rope-no-shifts");
    };
    let depends_on = if f64_max <= ROUNDING_SHARE * f32_max.max(f64::MIN_POSITIVE) {
        "offset"
    } else {
        "position"
    };
    crate::message!(
        "takeaway-rope",
        f64_max = format_number(f64_max),
        depends_on = depends_on,
        f32_first = format_number(f32_first),
        first_shift = first_shift,
        f32_last = format_number(f32_last),
        last_shift = format_shift(last_shift),
    )
}

/// A shift as the chart's axis writes it: 1, 10, 100, 1e3 … (powers of ten above 100 as 1eK).
fn format_shift(shift: u64) -> String {
    let exponent = (shift as f64).log10().round() as u32;
    if shift >= 1_000 && 10_u64.checked_pow(exponent) == Some(shift) {
        format!("1e{exponent}")
    } else {
        shift.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::sentence_checks::words;

    #[test]
    fn rope_states_the_shift_residual_charts_points() {
        let stats = super::super::compute(32, 10_000.0, 1).unwrap();
        let text = takeaway(&stats);
        let f64_max = stats
            .shift_residual_f64_curve
            .iter()
            .map(|p| p.1)
            .fold(0.0, f64::max);
        let (f32_first, f32_last) = (
            stats.shift_residual_f32[0].1,
            stats.shift_residual_f32.last().unwrap().1,
        );
        assert_eq!(
            text,
            format!(
                "Yes: rotating query and key by their positions' angles leaves only the angles' difference in the score: moving both by Δ changes it by at most {} in float64 (blue); float32 rounding (orange) grows from {} at Δ\u{a0}=\u{a0}1 to {} at Δ\u{a0}=\u{a0}1e5.",
                format_number(f64_max),
                format_number(f32_first),
                format_number(f32_last)
            )
        );
        assert!(f32_last > 100.0 * f64_max, "{text}");
        assert!(words(&text) <= 60, "{text}");
        let one = super::super::compute(1, 10_000.0, 1).unwrap();
        assert_eq!(
            takeaway(&one),
            "d = 1 has no pair of dimensions to rotate: RoPE needs d ≥ 2."
        );
        // A float64 residual as large as float32's is no longer rounding.
        let mut lifted = stats.clone();
        for point in &mut lifted.shift_residual_f64_curve {
            point.1 = 1e-3;
        }
        assert!(takeaway(&lifted).starts_with(
            "Not here: moving query and key together by Δ changes their score by up to 0.0010 in float64 (blue), more than rounding;"
        ));
        assert_eq!(format_shift(100), "100");
        assert_eq!(format_shift(10_000), "1e4");
    }
}
