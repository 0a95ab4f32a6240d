//! The stacking panel's takeaway: what its main chart shows, the residual after L layers, and
//! what collapsed rows mean for the position. The sentences are messages of `locales/computed`
//! (`takeaway-stacking-…`). Tested natively; the view writes it above its "More".

use super::COLLAPSED;
use crate::model::present::format_number;

/// What the stacking panel's takeaway reads: the setting and the measured curves.
#[derive(Debug, Clone, Copy)]
pub struct StackingTakeaway<'a> {
    /// Positions (rows) in the stack.
    pub n: usize,
    pub skip: bool,
    pub layer_norm: bool,
    /// r_L for L = 0 … layers.
    pub residuals: &'a [f64],
}

/// The stacking panel's takeaway: what its main chart shows, the residual after L layers, and
/// what collapsed rows mean for the position.
pub fn takeaway(t: &StackingTakeaway) -> String {
    let (Some(&first), Some(&last)) = (t.residuals.first(), t.residuals.last()) else {
        return crate::message!("takeaway-stacking-no-layers");
    };
    let l = t.residuals.len() - 1;
    if t.n <= 1 {
        return crate::message!("takeaway-stacking-one-position");
    }
    let setting = crate::message!(
        "takeaway-stacking-setting",
        setting = match (t.skip, t.layer_norm) {
            (false, false) => "plain",
            (false, true) => "norm",
            (true, false) => "skip",
            (true, true) => "skip-norm",
        }
    );
    let r = format_number(last);
    let rows = if l == 0 && last < COLLAPSED {
        crate::message!("takeaway-stacking-before-coincide", r = r)
    } else if l == 0 {
        crate::message!("takeaway-stacking-before-apart", r = r)
    } else if last < COLLAPSED {
        crate::message!(
            "takeaway-stacking-collapsed",
            layers = l,
            setting = setting,
            r = r
        )
    } else if last < 0.5 * first {
        crate::message!(
            "takeaway-stacking-closer",
            layers = l,
            setting = setting,
            first = format_number(first),
            r = r
        )
    } else {
        crate::message!(
            "takeaway-stacking-apart",
            layers = l,
            setting = setting,
            r = r
        )
    };
    // The consequence the chart shows: rows that coincide carry no position at all. (The
    // probe's R², read from another chart, stays in its read-out.)
    if last < COLLAPSED && t.n > 1 {
        crate::message!("takeaway-stacking-order-gone", rows = rows)
    } else {
        crate::message!("takeaway-stacking-rows-differ", rows = rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stacking_names_the_risk_then_follows_the_residual() {
        let collapsed = takeaway(&StackingTakeaway {
            n: 60,
            skip: false,
            layer_norm: false,
            residuals: &[0.9, 1e-4, 2.3e-10],
        });
        assert_eq!(
            collapsed,
            "The risk: attention averages rows, so stacked layers can pull them together. After 2 layers without skip connections the rows have collapsed to one (r_2 = 2.30e-10): every position outputs the same row, so the order is gone."
        );
        let apart = takeaway(&StackingTakeaway {
            n: 60,
            skip: true,
            layer_norm: true,
            residuals: &[0.9, 0.85],
        });
        assert!(
            apart
                .contains("with skip connections and LayerNorm the rows stay apart (r_1 = 0.8500)")
                && apart.ends_with("rows still differ."),
            "{apart}"
        );
        let zero = takeaway(&StackingTakeaway {
            n: 2,
            skip: false,
            layer_norm: false,
            residuals: &[0.9],
        });
        assert!(
            zero.contains(". Before any layer the rows are apart (r_0 = 0.9000)"),
            "{zero}"
        );
        let one = takeaway(&StackingTakeaway {
            n: 1,
            skip: false,
            layer_norm: false,
            residuals: &[0.0, 0.0],
        });
        assert!(
            one.starts_with("With one position") && !one.contains("apart"),
            "{one}"
        );
    }
}
