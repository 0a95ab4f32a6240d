//! The projection panel's takeaway: the same turn for every i, with the live angle, the number of
//! positions and the largest miss, or what holds where that does not apply. The sentences are
//! messages of `locales/computed` (`takeaway-projection-…`). Tested natively; the view writes it
//! above its "More".

use crate::model::plot::reduced_angle;

/// `x` to `digits` significant digits (at least 2 and at most 4 for the page's sentences):
/// 0.1778, 10.19, 0.0008892, 8.89e-6 below 10⁻⁴.
pub fn significant(x: f64, digits: usize) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    if x.abs() < 1e-4 {
        return format!("{x:.*e}", digits.saturating_sub(1));
    }
    let magnitude = x.abs().log10().floor() as i64;
    let decimals = (digits as i64 - 1 - magnitude).clamp(0, 8) as usize;
    format!("{x:.decimals$}")
}

/// What the projection panel's takeaway needs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ProjectionFacts {
    /// Whether d ≥ 2 gives a (sin, cos) pair at all.
    pub has_pair: bool,
    pub pair: usize,
    pub delta: i64,
    /// ω_j, radians per position.
    pub omega: f64,
    /// Positions i whose partner i + δ is in P (n − |δ|).
    pub partners: usize,
    /// max |M·p_i − p_(i+δ)| over every position and complete pair.
    pub max_error: f64,
    /// Whether P is the textbook float32 one (its angles themselves are rounded).
    pub textbook: bool,
}

/// Below this the projection's miss is the rounding of P's float32 entries (a few units in the
/// last place of numbers up to 1, 2⁻²⁴ ≈ 6e-8 each); the textbook P misses by far more.
pub const PROJECTION_ROUNDING: f64 = 1e-6;

/// The projection panel's one sentence: the same turn for every i, with the live angle, the number
/// of positions and the largest miss, or what holds where that does not apply.
pub fn takeaway(f: &ProjectionFacts) -> String {
    if !f.has_pair {
        return crate::message!("takeaway-projection-no-pair");
    }
    if f.delta == 0 && f.partners <= 1 {
        return crate::message!("takeaway-projection-one-position");
    }
    if f.delta == 0 {
        return crate::message!("takeaway-projection-no-offset");
    }
    let angle = f.delta as f64 * f.omega;
    let turn = if angle.abs() <= std::f64::consts::PI {
        crate::message!(
            "takeaway-projection-turn",
            radians = significant(angle, 4),
            degrees = significant(angle.to_degrees(), 3)
        )
    } else {
        crate::message!(
            "takeaway-projection-turn-wrapped",
            radians = significant(angle, 4),
            degrees = significant(reduced_angle(angle).to_degrees(), 3)
        )
    };
    let why = if f.textbook {
        crate::message!("takeaway-projection-why-textbook")
    } else if f.max_error < PROJECTION_ROUNDING {
        crate::message!("takeaway-projection-why-rounding")
    } else {
        String::new()
    };
    crate::message!(
        "takeaway-projection",
        pair = f.pair,
        turn = turn,
        positions = crate::message!("takeaway-projection-positions", count = f.partners),
        error = format!("{:.2e}", f.max_error),
        why = why
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts() -> ProjectionFacts {
        ProjectionFacts {
            has_pair: true,
            pair: 3,
            delta: 1,
            omega: 10000f64.powf(-6.0 / 32.0),
            partners: 59,
            max_error: 5.96e-8,
            textbook: false,
        }
    }

    #[test]
    fn the_takeaway_says_what_the_numbers_show() {
        assert_eq!(
            takeaway(&facts()),
            "Yes: every arrow turns by the same δ·ω_3 = 0.1778 rad (10.2°), so one matrix M carries p_i to p_(i+δ) for all 59 positions i, missing by at most 5.96e-8 (float32 rounding)."
        );
        // More than half a turn: the turn the matrix makes is said too.
        let far = takeaway(&ProjectionFacts {
            pair: 0,
            delta: -40,
            omega: 1.0,
            partners: 20,
            ..facts()
        });
        assert!(far.contains("-40.00 rad, a turn of -132°"), "{far}");
        // A slow pair's small turn keeps its digits.
        let slow = takeaway(&ProjectionFacts {
            pair: 15,
            delta: 5,
            omega: 10000f64.powf(-30.0 / 32.0),
            ..facts()
        });
        assert!(slow.contains("= 0.0008891 rad (0.0509°)"), "{slow}");
        assert_eq!(significant(8.891e-6, 3), "8.89e-6");
        assert_eq!(significant(10.186, 3), "10.2");
        let textbook = takeaway(&ProjectionFacts {
            max_error: 2.1e-4,
            textbook: true,
            ..facts()
        });
        assert!(
            textbook.ends_with("2.10e-4 (the textbook float32 angles)."),
            "{textbook}"
        );
        // A large miss of the exact P is not called rounding.
        let odd = takeaway(&ProjectionFacts {
            max_error: 1e-3,
            ..facts()
        });
        assert!(!odd.contains("rounding"), "{odd}");
        assert!(takeaway(&ProjectionFacts {
            delta: 1,
            partners: 1,
            ..facts()
        })
        .contains("for the 1 position i,"));
        assert!(takeaway(&ProjectionFacts {
            delta: 0,
            ..facts()
        })
        .starts_with("With δ = 0, M is the identity"));
        assert!(takeaway(&ProjectionFacts {
            delta: 0,
            partners: 1,
            ..facts()
        })
        .starts_with("With n = 1 there is one position"));
        assert!(takeaway(&ProjectionFacts {
            has_pair: false,
            ..facts()
        })
        .starts_with("With d = 1"));
    }
}
