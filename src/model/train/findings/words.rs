//! Numbers and lists as the findings' sentences write them.

use super::*;

/// A loss with three significant digits.
pub fn loss_text(loss: f64) -> String {
    if !loss.is_finite() {
        return "–".into();
    }
    let digits = if loss.abs() >= 1.0 {
        2
    } else if loss.abs() >= 0.1 {
        3
    } else {
        4
    };
    if loss.abs() < 1e-3 && loss != 0.0 {
        format!("{loss:.2e}")
    } else {
        format!("{loss:.digits$}")
    }
}

/// A translation spread: small values in scientific notation.
pub fn spread_text(spread: f64) -> String {
    if !spread.is_finite() {
        "–".into()
    } else if spread != 0.0 && spread.abs() < 1e-3 {
        format!("{spread:.1e}")
    } else {
        format!("{spread:.3}")
    }
}

/// A share in whole percentage points, or two significant figures below 10%: 0.9843 → "98",
/// 0.0625 → "6.3", 0.0068 → "0.68", 0 → "0"; "–" for a share that was not measured.
pub fn points_number(share: f64) -> String {
    if !share.is_finite() {
        return "–".into();
    }
    let p = 100.0 * share;
    if p == 0.0 || p.abs() >= 9.95 {
        return format!("{p:.0}");
    }
    // Two significant figures, a trailing zero included (0.40, not 0.4): one decimal from 1 to
    // 10, more below.
    let decimals = (1.0 - p.abs().log10().floor()).max(1.0) as usize;
    format!("{p:.decimals$}")
}

/// [`points_number`] with its percent sign.
pub fn points(share: f64) -> String {
    if share.is_finite() {
        format!("{}%", points_number(share))
    } else {
        "–".into()
    }
}

/// A mean over seeds with its range: "98% (89–100)", or "100%" when every seed rounds alike.
pub fn spread_points(spread: &Spread) -> String {
    let (low, high) = (points_number(spread.min), points_number(spread.max));
    if low == high || spread.count < 2 {
        points(spread.mean)
    } else {
        format!("{} ({low}–{high})", points(spread.mean))
    }
}

/// Items joined by the language's list separator: "rope, shaw".
pub(super) fn joined<S: AsRef<str>>(items: &[S]) -> String {
    let separator = crate::training_message!("train-list-separator");
    items
        .iter()
        .map(AsRef::as_ref)
        .collect::<Vec<_>>()
        .join(&separator)
}

/// "rope 100%, shaw 98% (96–100)": encodings with a spread each, in the order given.
pub(super) fn listed(items: &[(TrainEncoding, Spread)]) -> String {
    listed_by(items, spread_points)
}

/// "rope 100%, shaw 98%": encodings each with `value` of its spread, in the order given.
pub(super) fn listed_by(
    items: &[(TrainEncoding, Spread)],
    value: impl Fn(&Spread) -> String,
) -> String {
    let items: Vec<String> = items
        .iter()
        .map(|(e, s)| {
            crate::training_message!("train-listed-item", name = e.link_name(), value = value(s))
        })
        .collect();
    joined(&items)
}

/// "rope", "rope and shaw", "none, rope and shaw".
pub(super) fn names(items: &[(TrainEncoding, Spread)]) -> String {
    let names: Vec<&str> = items.iter().map(|(e, _)| e.link_name()).collect();
    and_list(&names)
}

/// Items as the language lists them: "a", "a and b", "a, b and c".
pub(super) fn and_list<S: AsRef<str>>(items: &[S]) -> String {
    match items {
        [] => String::new(),
        [one] => one.as_ref().to_string(),
        [rest @ .., last] => {
            crate::training_message!("train-list-and", rest = joined(rest), last = last.as_ref())
        }
    }
}

/// "1/16": an ALiBi slope, as a fraction where it is one (the slopes of a power-of-two number of
/// heads are 1/2, 1/4, …), otherwise with three decimals.
pub(super) fn slope_text(slope: f64) -> String {
    let inverse = 1.0 / slope;
    if slope > 0.0 && (inverse - inverse.round()).abs() < 1e-9 {
        format!("1/{}", inverse.round())
    } else {
        format!("{slope:.3}")
    }
}

/// A chance level exactly (a uniform guess among `vocab` is 100/vocab percent: 6.25%, 12.5%),
/// or in the page's points where it is not a short decimal.
pub(super) fn chance_text(task: Task, chance: f64) -> String {
    if task == Task::Histogram || !chance.is_finite() {
        return points(chance);
    }
    let text = format!("{:.2}", 100.0 * chance);
    format!("{}%", text.trim_end_matches('0').trim_end_matches('.'))
}

/// "on all 3 seeds", "on both seeds", "on the one seed trained".
pub(super) fn on_every_seed(seeds: usize) -> String {
    crate::training_message!("train-on-every-seed", seeds = seeds)
}

/// What "chance" is on the run's task: uniform guessing, or on `histogram` always guessing the
/// most likely count.
pub fn chance_name(task: Task) -> String {
    crate::training_message!("train-chance-name", task = task.link_name())
}

/// A whole number with its thousands grouped: 4096 → "4,096".
pub(super) fn grouped(value: usize) -> String {
    crate::model::thousands::group_thousands(&value.to_string(), ',')
}
