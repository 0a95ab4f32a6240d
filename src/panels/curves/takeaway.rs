//! The curves panel's takeaway: it first answers the panel's question, then gives the figure's
//! live numbers as the evidence, and says what holds instead where the usual conclusion does not,
//! so that it cannot disagree with the figure beside it. Tested natively.

use crate::math::encoding::{is_sine_column, pair_of_column, period};
use crate::model::present::{column_labels, format_period};

/// Pairs of columns the curves' takeaway names one by one; more are summed up with "…".
const NAMED_PAIRS: usize = 3;

/// The curves' takeaway: why columns to the right repeat more slowly and why each cosine is its
/// sine shifted by a quarter period (one angle per pair, a frequency falling from pair to pair),
/// then the period of each pair of chosen columns. `columns` are 0-based (the link's `cols`);
/// those not below d are not drawn and are left out.
pub fn takeaway(columns: &[usize], d: usize, base: f64, first_position: usize) -> String {
    let why = if d <= 1 {
        crate::message!("takeaway-curves-why-one-column")
    } else {
        crate::message!("takeaway-curves-why")
    };
    let here = chosen_periods(columns, d, base, first_position);
    crate::message!("takeaway-curves", why = why, here = here)
}

/// The chosen columns' periods, pair by pair ("Here columns 6, 7 repeat every 35.3 positions
/// and 8, 9 every 62.8.").
fn chosen_periods(columns: &[usize], d: usize, base: f64, first_position: usize) -> String {
    // (pair, its chosen columns), in the order of the pairs.
    let mut pairs: Vec<(usize, Vec<usize>)> = Vec::new();
    let mut shown: Vec<usize> = columns.iter().copied().filter(|&c| c < d).collect();
    shown.sort_unstable();
    shown.dedup();
    for c in shown {
        let pair = pair_of_column(c);
        match pairs.last_mut() {
            Some((j, cols)) if *j == pair => cols.push(c),
            _ => pairs.push((pair, vec![c])),
        }
    }
    if pairs.is_empty() {
        return crate::message!("takeaway-curves-none");
    }
    let named = |cols: &[usize]| column_labels(cols, first_position);
    let period_of = |j: usize| format_period(period(j, d, base));
    let first = &pairs[0];
    if pairs.len() == 1 {
        // A sine and its cosine: the quarter period, in positions.
        return if first.1.len() == 2 && is_sine_column(first.1[0]) {
            crate::message!(
                "takeaway-curves-sine-and-cosine",
                columns = named(&first.1),
                period = period_of(first.0),
                quarter = format_period(period(first.0, d, base) / 4.0)
            )
        } else {
            crate::message!(
                "takeaway-curves-one-pair",
                count = first.1.len(),
                columns = named(&first.1),
                period = period_of(first.0)
            )
        };
    }
    let rest: Vec<String> = if pairs.len() <= NAMED_PAIRS {
        pairs[1..]
            .iter()
            .map(|(j, cols)| {
                crate::message!(
                    "takeaway-curves-more-columns",
                    columns = named(cols),
                    period = period_of(*j)
                )
            })
            .collect()
    } else {
        let (j, cols) = &pairs[pairs.len() - 1];
        vec![crate::message!(
            "takeaway-curves-last-columns",
            columns = named(cols),
            period = period_of(*j)
        )]
    };
    crate::message!(
        "takeaway-curves-pairs",
        count = first.1.len(),
        columns = named(&first.1),
        period = period_of(first.0),
        more = rest.join(&crate::message!("takeaway-curves-and"))
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::encoding::{frequency, sinusoidal};
    use crate::model::sentence_checks::words;

    const WHY: &str = "Each column pair j is the sine and cosine of one angle, i·ω_j, with ω_j = base^(−2j/d) smaller to the right, and cos x = sin(x + π/2): a quarter period apart.";

    #[test]
    fn curves_answer_why_then_name_each_pair_with_its_period() {
        let text = takeaway(&[6, 7, 8, 9], 32, 10_000.0, 0);
        assert_eq!(
            text,
            format!("{WHY} Here columns 6, 7 repeat every 35.3 positions and 8, 9 every 62.8.")
        );
        // One pair: its quarter period in positions.
        let one = takeaway(&[6, 7], 32, 10_000.0, 0);
        assert!(
            one.ends_with("Here columns 6, 7 repeat every 35.3 positions, so a quarter period is 8.83 positions."),
            "{one}"
        );
        // Single columns of different pairs.
        let lone = takeaway(&[7, 8], 32, 10_000.0, 0);
        assert!(
            lone.ends_with("Here column 7 repeats every 35.3 positions and 8 every 62.8."),
            "{lone}"
        );
        // Many pairs: the first and the last, the rest summed up.
        let many = takeaway(&[0, 1, 2, 3, 4, 5, 14, 15], 32, 10_000.0, 0);
        assert!(
            many.contains("Here columns 0, 1 repeat every 6.28 positions and …, 14, 15 every 353"),
            "{many}"
        );
        // The Julia figure's columns, counted from 1.
        let julia = takeaway(&[5, 6, 7, 8, 9], 32, 10_000.0, 1);
        assert!(
            julia.ends_with(
                "Here column 6 repeats every 19.9 positions and 7, 8 every 35.3 and 9, 10 every 62.8."
            ),
            "{julia}"
        );
        // Columns beyond d are not drawn; none left says so.
        assert!(
            takeaway(&[40], 32, 10_000.0, 0).ends_with("Pick a column below d to see its curve.")
        );
        assert_eq!(
            takeaway(&[0], 1, 10_000.0, 0),
            "With d = 1 the only column is the sine of one angle, i·ω_0, with ω_0 = 1 and no cosine. Here column 0 repeats every 6.28 positions."
        );
        for cols in [&[6, 7, 8, 9][..], &[0, 1, 2, 3, 4, 5, 14, 15], &[6, 7]] {
            assert!(words(&takeaway(cols, 32, 10_000.0, 0)) <= 60);
        }
    }

    #[test]
    fn the_curves_reason_holds_in_p() {
        // Columns 2j and 2j + 1 are sin and cos of one angle i·ω_j, ω_j = base^(−2j/d) falling
        // with j, ω_0 = 1.
        let (d, base) = (32, 10_000.0);
        let p = sinusoidal(80, d, base);
        for j in 0..d / 2 {
            let omega = frequency(j, d, base);
            assert!((omega - base.powf(-2.0 * j as f64 / d as f64)).abs() < 1e-15);
            if j > 0 {
                assert!(omega < frequency(j - 1, d, base));
            }
            for i in [0, 9, 79] {
                let angle = i as f64 * omega;
                assert!((f64::from(p[[i, 2 * j]]) - angle.sin()).abs() < 1e-6);
                assert!((f64::from(p[[i, 2 * j + 1]]) - angle.cos()).abs() < 1e-6);
            }
        }
        assert_eq!(frequency(0, 1, base), 1.0);
    }
}
